"""The Ray backend on a real local cluster: results in task order, errors, registrations, and the
arena, gap benchmark and tournament giving on Ray exactly what they give locally for one seed.

Needs ray (the ``rllib`` extra): CI runs this file in that venv (``ci/frameworks.sh rllib``);
the main suite does not collect it where ray is missing (``tests/conftest.py``).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from sixtysix_env.agents import AGENTS, register_agent  # noqa: E402
from sixtysix_env.agents.heuristic import HeuristicAgent  # noqa: E402
from sixtysix_env.distributed import RayExecutor, ray_map  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    """One small local cluster for the module (2 CPUs), shut down at the end. Ray gives its node
    30 s to start; on a loaded machine that can pass, so it is tried twice."""
    for attempt in (1, 2):
        try:
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            break
        except Exception as e:
            ray.shutdown()
            if attempt == 2 or "timed out during startup" not in str(e):
                raise
    try:
        yield
    finally:
        ray.shutdown()


def _slow_square(x: int) -> int:
    time.sleep(0.02 * (5 - x % 5))  # later tasks finish first
    return x * x


def _fails_on_three(x: int) -> int:
    if x == 3:
        raise ValueError(f"task {x} refuses")
    return x


def _registered_name(name: str) -> str:
    return type(AGENTS[name]()).__name__


class _Registered:
    pass


def test_map_returns_results_in_task_order(cluster):
    seen = []
    out = ray_map(_slow_square, list(range(12)), "local", on_result=lambda t, r: seen.append((t, r)))
    assert out == [x * x for x in range(12)]
    assert seen == [(x, x * x) for x in range(12)]  # on_result in schedule order too
    assert ray.is_initialized()  # a connection it did not open stays open


def test_map_is_lazy_and_ordered_with_a_small_window(cluster):
    with RayExecutor("local", window=2) as ex:
        it = ex.map(_slow_square, range(7))
        assert next(it) == 0
        assert list(it) == [x * x for x in range(1, 7)]


def test_a_task_error_reaches_the_caller_as_itself(cluster):
    with pytest.raises(ValueError) as e, RayExecutor("local", window=2) as ex:
        list(ex.map(_fails_on_three, range(8)))
    assert type(e.value) is ValueError and str(e.value) == "task 3 refuses"  # not Ray's wrapper and traceback


def _stamp(path: Path) -> None:
    """The time, written whole or not at all: a task cancelled mid-write leaves no empty file."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(repr(time.time()))
    os.replace(tmp, path)


def _mark(job: tuple[str, int]) -> int:
    folder, x = job
    _stamp(Path(folder, f"start-{x}"))
    if x == 1:
        raise ValueError("stop here")
    if x == 0:
        time.sleep(1.0)
    else:  # running for a minute unless stopped: a tick a twentieth of a second
        with Path(folder, f"tick-{x}").open("ab", buffering=0) as ticks:
            for _ in range(1200):
                time.sleep(0.05)
                ticks.write(b".")
    _stamp(Path(folder, f"done-{x}"))
    return x


def test_after_an_error_the_tasks_in_flight_are_cancelled_and_no_more_start(cluster, tmp_path):
    # window 2: 0 and 1 start, 1 fails at once, 2 and 3 start while 0 runs; 0 is delivered, then
    # 1's error, which stops 2 and 3 (running or queued) before it reaches the caller
    jobs = [(str(tmp_path), x) for x in range(12)]
    with pytest.raises(ValueError, match="stop here"), RayExecutor("local", window=2) as ex:
        list(ex.map(_mark, jobs))
    raised = time.time()

    def ticks() -> dict[str, int]:
        return {f.name: f.stat().st_size for f in tmp_path.glob("tick-*")}

    before = ticks()
    time.sleep(2.0)
    assert ticks() == before  # every task in flight has stopped
    started = {int(f.name.split("-")[1]): float(f.read_text()) for f in tmp_path.glob("start-*")}
    assert sorted(f.name for f in tmp_path.glob("done-*")) == ["done-0"]
    assert all(t < raised for t in started.values()) and len(started) < len(jobs)  # no more started


# ------------------------------------------------------------------ the arena, the gap benchmark


def _tables(res):
    """Everything of an arena result except the decision times (measured, so machine-dependent)."""
    from sixtysix_env.arena.writers import elo_rows, pair_rows

    return pair_rows(res), elo_rows(res), res.deal_records, res.match_records, res.decisions, res.faults


class _PidHeuristic(HeuristicAgent):
    """The heuristic, leaving a file named by the process id that built it in ``folder``."""

    def __init__(self, folder: str = "") -> None:
        Path(folder, str(os.getpid())).touch()


def _played_elsewhere(folder: Path) -> bool:
    """Some game's agent was built in another process than this one (a Ray worker)."""
    return any(int(p.name) != os.getpid() for p in folder.iterdir())


def test_the_arena_on_ray_gives_the_local_tables(cluster, tmp_path):
    from sixtysix_env.arena import run_arena

    register_agent("ray_test_pid", _PidHeuristic, overwrite=True)
    agents = [f"ray_test_pid:folder={tmp_path}", "random", "pimc:samples=2"]
    kwargs = {"deals": 12, "block": 4, "seed": 7, "rules": "standard"}
    local = run_arena(agents, **kwargs)
    assert not _played_elsewhere(tmp_path)
    on_ray = run_arena(agents, ray_address="local", **kwargs)
    assert _played_elsewhere(tmp_path)  # the registered name reached the workers, and they played
    assert len(local.deal_records) >= 3 * 2 * 12
    assert _tables(on_ray) == _tables(local)


def test_the_gap_benchmark_on_ray_gives_the_local_pairs(cluster, tmp_path):
    from sixtysix_env.agents.spec import parse_agent_spec
    from tests.scripts import load_script

    gap = load_script("benchmarks/bench_gap.py")
    register_agent("ray_test_pid", _PidHeuristic, overwrite=True)
    me, them = parse_agent_spec(f"ray_test_pid:folder={tmp_path}"), parse_agent_spec("pimc:samples=2")
    rules = gap.get_rules("standard")
    local = gap.run("pid", me, them, rules, 12, 5, progress=False)
    assert not _played_elsewhere(tmp_path)
    with RayExecutor("local", registrations={"ray_test_pid": _PidHeuristic}) as ex:
        blocks = []
        on_ray = gap.run("pid", me, them, rules, 12, 5, progress=False, executor=ex, on_block=blocks.append)
    assert _played_elsewhere(tmp_path)
    assert on_ray.pair_points == local.pair_points and on_ray.pair_decisions == local.pair_decisions
    assert len(local.pair_points) == 12 and len(blocks) == 3  # blocks of 5 pairs, each seen in order


# ------------------------------------------------------------------ the tournament

_HELPER = "def first(info):\n    return info.legal_actions()[0]\n"
_USES_HELPER = """
from _helper import first


class UsesHelper:  # needs the folder's other files on the node
    def act(self, info, rng):
        print("deciding", info.player)
        return first(info)
"""
_SOMETIMES_CRASHES = """
class SometimesCrashes:  # a fault that depends on the cards alone: the same on any node
    def act(self, info, rng):
        legal = info.legal_actions()
        if len(legal) == 4 and info.player == 1:
            raise RuntimeError("four choices")
        return legal[rng.randrange(len(legal))]
"""
_OUTSIDE = """
class Outside:
    def act(self, info, rng):
        return info.legal_actions()[-1]
"""


def _tournament_tables(res):
    return (*_tables(res.arena), [(b.label, b.status, b.reason) for b in res.bots], res.restarts)


def test_the_tournament_on_ray_gives_the_local_tables(cluster, tmp_path, monkeypatch):
    from sixtysix_env.tournament import run, run_tournament

    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "_helper.py").write_text(_HELPER)
    (bots / "uses_helper.py").write_text(_USES_HELPER)
    (bots / "sometimes_crashes.py").write_text(_SOMETIMES_CRASHES)
    (tmp_path / "outside.py").write_text(_OUTSIDE)
    include = ["heuristic", f"{tmp_path / 'outside.py'}:Outside"]
    key = bytes(range(32))
    kwargs = {"deals": 6, "block": 3, "time_limit_ms": 5000.0, "key": key}
    local = run_tournament(bots, include, log_dir=tmp_path / "local-logs", records=tmp_path / "local-rec", **kwargs)
    assert local.arena.faults and all(f.bot == "sometimes_crashes" for f in local.arena.faults)

    def not_here(*args, **kwargs):
        raise AssertionError("a --ray tournament played a block on the driver's host")

    monkeypatch.setattr(run, "run_apart", not_here)
    journal = tmp_path / "journal.jsonl"
    on_ray = run_tournament(
        bots,
        include,
        log_dir=tmp_path / "ray-logs",
        records=tmp_path / "ray-rec",
        journal=journal,
        ray_address="local",
        **kwargs,
    )
    assert _tournament_tables(on_ray) == _tournament_tables(local)
    assert len(local.arena.deal_records) >= 6 * 2 * 6  # six pairs, each deal in both seat orders
    local_records = sorted(p.relative_to(tmp_path / "local-rec") for p in (tmp_path / "local-rec").rglob("*.json"))
    ray_records = sorted(p.relative_to(tmp_path / "ray-rec") for p in (tmp_path / "ray-rec").rglob("*.json"))
    assert ray_records == local_records and ray_records
    assert len(journal.read_text().splitlines()) == 1 + 6 * 2  # the header, then every block
    assert "deciding" in (tmp_path / "ray-logs" / "uses_helper.log").read_text()  # the node's log came back


def test_the_tournament_cli_takes_a_ray_address(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "outside.py").write_text(_OUTSIDE)
    args = [sys.executable, "-m", "sixtysix_env.tournament", str(bots), "--include", "random", "--deals", "2"]
    bad = subprocess.run([*args, "--ray", "nowhere", "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert bad.returncode == 2 and "Ray address 'nowhere' is not allowed" in bad.stderr
    run = subprocess.run(
        [*args, "--ray", "local", "--no-progress", "--out", str(tmp_path / "league")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "2 bots played" in run.stdout and (tmp_path / "league" / "league.md").is_file()


# ------------------------------------------------------------------ a cluster as a user starts one


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill_leftovers(marker: str) -> None:
    """Any process of this test's cluster still alive (its command line names the temp dir)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if marker in cmd and int(pid) != os.getpid():
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)


def _environment(**auth: str) -> dict[str, str]:
    """This process's environment without Ray's authentication variables, plus ``auth``: what a
    test's cluster and driver see never depends on what an earlier ``ray.init()`` of this process
    set (it sets ``RAY_AUTH_MODE=token`` for its children)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH_")}
    return env | auth


@pytest.fixture(scope="module")
def head(tmp_path_factory):
    """``ray start --head`` with token authentication, as docs/ray.md starts one (2 CPUs, a temp
    dir and a token file of its own): its address and the environment a driver needs for it
    (``RAY_AUTH_MODE=token``, the token file). Stopped after, with every process it started (not
    ``ray stop``, which would end every Ray of the machine)."""
    temp = tmp_path_factory.mktemp("rayhead")
    token = temp / "auth_token"
    token.write_text(secrets.token_hex(32))
    env = _environment(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token))
    log = temp / "head.log"
    cmd = [str(Path(sys.executable).with_name("ray")), "start", "--head"]
    cmd += [f"--port={_free_port()}", "--num-cpus=2"]
    cmd += [f"--temp-dir={temp}", "--include-dashboard=false", "--disable-usage-stats", "--block"]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    try:
        deadline = time.monotonic() + 180
        while (found := re.search(r"--address='([^']+)'", log.read_text())) is None:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(1)
        yield found.group(1), env
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
        _kill_leftovers(str(temp))


def test_the_arena_cli_on_a_started_cluster_writes_the_local_tables(head, tmp_path):
    """A driver on the head that names it as HOST:PORT, with ``RAY_AUTH_MODE=token`` (the token
    in the file Ray reads): docs/ray.md's command. Alone or after any other test."""
    address, env = head
    args = [sys.executable, "-m", "sixtysix_env.arena", "--agents", "heuristic,random", "--deals", "10"]
    args += ["--block", "5", "--seed", "11", "--no-progress"]
    subprocess.run([*args, "--out", str(tmp_path / "local")], check=True, capture_output=True, timeout=600)
    run = subprocess.run(
        [*args, "--out", str(tmp_path / "ray"), "--ray", address], capture_output=True, text=True, timeout=600, env=env
    )
    assert run.returncode == 0, run.stderr[-3000:]
    for name in ("pairs.csv", "elo.csv", "deals.csv"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name


def test_a_driver_that_names_the_head_without_token_mode_is_told_what_to_set(head, tmp_path):
    """Without ``RAY_AUTH_MODE=token`` a HOST:PORT driver sends no token (Ray turns it on by
    itself only for ``auto``), and the cluster refuses it: the error says which variable to set."""
    address, env = head
    args = [sys.executable, "-m", "sixtysix_env.arena", "--agents", "heuristic,random", "--deals", "2"]
    args += ["--no-progress", "--out", str(tmp_path), "--ray", address]
    bare = {k: v for k, v in env.items() if k != "RAY_AUTH_MODE"}
    run = subprocess.run(args, capture_output=True, text=True, timeout=600, env=bare)
    assert run.returncode != 0
    assert f"could not connect to the Ray cluster at {address}" in run.stderr
    assert "must set RAY_AUTH_MODE=token" in run.stderr and "--ray auto" in run.stderr


def test_a_node_without_the_package_stops_the_run_saying_so(tmp_path):
    """Workers that cannot import ``sixtysix_env`` (a stub package first on their path, as on a
    node where it is not installed; the driver itself imports the real one): the first task's
    failure stops the run with an error that says what is missing."""
    stub = tmp_path / "stub" / "sixtysix_env"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'sixtysix_env'\")\n")
    code = (
        "import sys\n"
        f"sys.path[:] = [p for p in sys.path if p != {str(stub.parent)!r}]\n"
        "from sixtysix_env.distributed import RayExecutor\n"
        "with RayExecutor('local', num_cpus=1) as ex:\n"
        "    print(list(ex.map(abs, [-1, -2])))\n"
    )
    env = _environment(PYTHONPATH=str(stub.parent))  # the workers inherit it; the driver drops it
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600
    )
    assert run.returncode != 0 and "[1, 2]" not in run.stdout
    assert "a Ray worker could not import sixtysix_env" in run.stderr and "sixtysix-env installed" in run.stderr


def test_the_rllib_extra_brings_ray_client_for_ray_addresses():
    """``ray://HOST:10001`` needs Ray Client (``ray[client]``: grpcio), which this venv has from the
    ``rllib`` extra."""
    import importlib.util

    assert importlib.util.find_spec("grpc") is not None
    from ray.util.client import ray as client  # noqa: F401  (fails without ray[client])


def test_the_arena_cli_refuses_a_bad_ray_address(tmp_path):
    args = [sys.executable, "-m", "sixtysix_env.arena", "--agents", "heuristic,random", "--ray", "head:port"]
    run = subprocess.run([*args, "--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "Ray address 'head:port' has no valid port" in run.stderr


# ------------------------------------------------------------------ RLlib on the batched engine


def test_rllib_episodes_start_at_a_deal_s_first_decision_and_end_at_its_last(cluster):
    """What the example configures: RLlib's sampled episodes are whole deals. Under the vector
    env's same-step autoreset they were not: each terminal observation was the next deal's first
    (no card won yet) and each later episode began at that deal's second decision."""
    pytest.importorskip("torch")
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from sixtysix_env.observers import VECTOR_LAYOUT
    from tests.scripts import load_script

    example = load_script("examples/rllib_ppo.py")
    config = example.build_config(example.parse_args(["--envs-per-runner", "4", "--hidden", "16", "--seed", "3"]))
    runner = SingleAgentEnvRunner(config=config)
    try:
        episodes = runner.sample(num_episodes=24)
    finally:
        runner.stop()
    parts = VECTOR_LAYOUT

    def cards_won(obs: dict) -> float:
        vec = obs["observations"]
        return sum(float(vec[p.start : p.start + p.size].sum()) for p in (parts["won_by_me"], parts["won_by_opponent"]))

    assert len(episodes) >= 24
    for ep in episodes:
        first, last = ep.get_observations(0), ep.get_observations(-1)
        assert ep.is_terminated and cards_won(first) == 0 and cards_won(last) > 0
        assert ep.get_observations(-1)["action_mask"].all()  # the finished deal's: all ones
