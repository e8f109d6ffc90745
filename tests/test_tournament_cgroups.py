"""Per-game cgroups (tournament/cgroups.py): the kernel's accounting, freezer and limits against
bots whose helpers hide from the per-process controls (issue 32, items 4, 5 and 7).

As root with cgroups, each cheater of tests/cheaters/ is neutralised: ``sigchld_ignorer``'s
kernel-reaped helpers are counted, ``setsid_waker``'s helpers get no CPU on the opponent's turn
although a child outside the process group sends them SIGCONT, ``memory_children``'s six children
cannot hold more than ``--memory-mb`` together. Tests that need a guarantee skip, saying why,
where it does not hold. The CPU and freeze tests run once with the hierarchy the host picks
(cgroup v2 where it offers the guarantee) and once on the v1 controllers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sixtysix_env.tournament import cgroups, run_tournament

from .tournament_helpers import alive

CHEATERS = Path(__file__).with_name("cheaters")
KEY = b"teacher-secret-key-0123456789"
SUPPORT = cgroups.support()
V1 = cgroups.probe(("v1",)) if SUPPORT.usable else SUPPORT


def _needs(sup: cgroups.Support, *guarantees: str) -> str:
    """Why a test of ``guarantees`` cannot run with ``sup`` (``""`` when it can)."""
    missing = [f"{g}: {sup.why.get(g, 'not probed')}" for g in guarantees if not sup.holds(g)]
    return "cgroups do not give " + "; ".join(missing) if missing else ""


def _hierarchies(*guarantees: str) -> list:
    """One parameter per hierarchy the guarantees can come from: the host's pick and v1's."""
    out = []
    for name, sup in (("picked", SUPPORT), ("v1", V1)):
        why = _needs(sup, *guarantees)
        out.append(pytest.param(sup, id=name, marks=pytest.mark.skipif(bool(why), reason=why)))
    return out


@pytest.fixture
def use(monkeypatch):
    """Make the host use the given cgroup support for its games."""

    def _use(sup: cgroups.Support) -> None:
        monkeypatch.setattr(cgroups, "_support", sup)

    return _use


def _bots(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "bots"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.py").write_text(text)
    return folder


def _log(tmp_path: Path, name: str) -> str:
    return (tmp_path / "logs" / f"{name}.log").read_text(errors="replace")


def _games_left() -> list[str]:
    """Game groups still present under the host's base groups."""
    bases = {t.base for t in cgroups.support().trees.values()}
    return [os.path.join(b, n) for b in bases if os.path.isdir(b) for n in os.listdir(b) if n.startswith("game-")]


def _in_group(group: cgroups.GameGroup, code: str) -> subprocess.Popen:
    """A Python process running ``code``, in ``group`` from its first instruction."""
    return subprocess.Popen(
        [sys.executable, "-S", "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: cgroups.join(group.procs),
    )


BURN_KERNEL_REAPED = """
import os, signal, sys, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
r, w = os.pipe()
for _ in range(3):
    if os.fork() == 0:
        end = time.process_time() + 0.1
        while time.process_time() < end:
            pass
        os.write(w, f"{time.process_time()}\\n".encode())
        os._exit(0)
os.close(w)
with os.fdopen(r) as f:
    print(sum(float(x) for x in f), flush=True)
time.sleep(60)
"""

BUSY = "import sys\nprint('ready', flush=True)\nwhile True:\n    pass\n"


@pytest.mark.parametrize("sup", _hierarchies("cpu"))
def test_a_groups_cpu_counts_children_the_kernel_reaped(sup) -> None:
    group = cgroups.GameGroup(sup, None, None)
    proc = _in_group(group, BURN_KERNEL_REAPED)
    try:
        helpers = float(proc.stdout.readline())  # type: ignore[union-attr]
        assert helpers >= 0.29
        assert group.cpu_seconds() >= helpers  # the rusage of the parent would show ~0
    finally:
        proc.kill()
        proc.wait()
        assert group.destroy()


@pytest.mark.parametrize("sup", _hierarchies("freeze", "cpu"))
def test_a_frozen_group_gets_no_cpu_and_sigcont_does_not_thaw_it(sup) -> None:
    group = cgroups.GameGroup(sup, None, None)
    proc = _in_group(group, BUSY)
    try:
        assert proc.stdout.readline() == "ready\n"  # type: ignore[union-attr]
        assert group.freeze() and group.frozen()
        before = group.cpu_seconds()
        for _ in range(20):
            os.kill(proc.pid, signal.SIGCONT)
            time.sleep(0.01)
        assert group.cpu_seconds() == before and group.frozen()
        group.thaw()
        deadline = time.monotonic() + 5.0
        while group.cpu_seconds() < before + 0.05 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert group.cpu_seconds() >= before + 0.05  # thawed, it runs again
    finally:
        assert group.destroy()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL and not os.path.exists(group.dirs[0])


@pytest.mark.skipif(bool(_needs(SUPPORT, "memory", "pids")), reason=_needs(SUPPORT, "memory", "pids"))
def test_a_groups_memory_is_capped_for_all_its_processes_and_its_tasks_counted() -> None:
    group = cgroups.GameGroup(SUPPORT, 100 << 20, 8)
    code = """
import os, time
for _ in range(4):
    if os.fork() == 0:
        x = b"x" * (60 << 20)
        time.sleep(1)
        os._exit(0)
for _ in range(4):
    os.wait()
print("done", flush=True)
"""
    proc = _in_group(group, code)
    try:
        assert proc.stdout.readline() == "done\n"  # type: ignore[union-attr]
        assert group.peak_memory() is not None and group.peak_memory() <= 100 << 20  # type: ignore[operator]
        assert group.oom_kills() >= 1  # four children of 60 MiB at once do not fit in 100 MiB
    finally:
        proc.wait()
        assert group.destroy()
    crowd = cgroups.GameGroup(SUPPORT, None, 8)
    forks = """
import os, time
n = 0
try:
    for _ in range(20):
        if os.fork() == 0:
            time.sleep(30)
        n += 1
except BlockingIOError:
    pass
print(n, flush=True)
"""
    proc = _in_group(crowd, forks)
    try:
        assert int(proc.stdout.readline()) == 7  # type: ignore[union-attr]  # 8 tasks: itself and 7
    finally:
        assert crowd.destroy()
        proc.wait()


@pytest.mark.skipif(not SUPPORT.usable, reason=_needs(SUPPORT, *cgroups.GUARANTEES))
def test_no_bot_can_read_a_games_cgroup() -> None:
    """Group directories are root's alone (mode 0700): a bot under a user id of its own cannot
    read any game's CPU, memory or pids, its own or another's."""
    group = cgroups.GameGroup(SUPPORT, 1 << 30, 8)
    try:
        files = [os.path.join(d, "cgroup.procs") for d in group.dirs]
        files += [os.path.join(os.path.dirname(d), "cgroup.procs") for d in group.dirs]
        script = 'for f; do cat "$f" >/dev/null 2>&1 && echo READ "$f"; done; exit 0'
        done = subprocess.run(  # a shell, not this Python: it may live where the bot's uid cannot read
            ["/bin/sh", "-c", script, "sh", *files],
            capture_output=True,
            text=True,
            preexec_fn=lambda: (os.setgid(61999), os.setuid(61999)),
        )
        assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr
        assert all(os.stat(d).st_mode & 0o777 == 0o700 for d in group.dirs)
    finally:
        assert group.destroy()


@pytest.mark.skipif(sys.platform != "linux", reason="cgroups are Linux only")
def test_without_root_nothing_holds_and_the_report_says_what_falls_back(monkeypatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    sup = cgroups.probe()
    assert not sup.usable and set(sup.why) == set(cgroups.GUARANTEES)
    text = sup.summary()
    assert "no cgroups" in text and "does not run as root" in text
    for fallback in ("SIGSTOP", "RLIMIT_AS", "rusage", "RLIMIT_NPROC"):
        assert fallback in text
    monkeypatch.setattr(cgroups, "_support", sup)
    assert cgroups.new_group(1 << 30) is None
    assert cgroups.with_isolation("") == sup.warning() == text
    assert cgroups.with_isolation("not isolated").startswith("not isolated; no cgroups")


@pytest.mark.skipif(not SUPPORT.usable, reason=_needs(SUPPORT, *cgroups.GUARANTEES))
def test_the_probe_says_which_guarantees_hold_and_from_which_version() -> None:
    text = SUPPORT.summary()
    for g in cgroups.GUARANTEES:
        if SUPPORT.holds(g):
            assert f"[cgroup {SUPPORT.version(g)}]" in text
        else:
            assert SUPPORT.why[g] in text
    assert SUPPORT.warning() == ("" if all(SUPPORT.holds(g) for g in cgroups.GUARANTEES) else text)


@pytest.mark.parametrize("sup", _hierarchies("cpu"))
def test_a_bot_whose_helpers_the_kernel_reaps_has_their_cpu_counted(tmp_path, sup, use) -> None:
    """Item 4: three helpers per decision, SIGCHLD ignored: the host counts at least what the
    helpers measured for themselves (before: the bot's rusage, a few ms)."""
    use(sup)
    name = "sigchld_ignorer"
    folder = _bots(tmp_path, {name: (CHEATERS / f"{name}.py").read_text()})
    t = run_tournament(
        folder, include=["heuristic"], deals=1, block=1, key=KEY, log_dir=tmp_path / "logs", time_limit_ms=30_000,
        kill_after_s=60.0,
    )  # fmt: skip
    helped = [float(line.split()[1]) for line in _log(tmp_path, name).splitlines() if line.startswith("HELPED")]
    assert len(helped) == 2 and not t.arena.faults  # one per task
    assert min(helped) >= 0.29
    assert t.cpu_seconds[name] >= sum(helped)
    assert not _games_left()


SLOW = """
import time

PIDS = {pids!r}


def _ran_ns(pid):
    try:
        with open(f"/proc/{{pid}}/schedstat") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


class Slow:
    def act(self, info, rng):
        try:
            with open(PIDS) as f:
                pids = [int(x) for x in f.read().split()]
        except OSError:
            pids = []
        before = {{p: _ran_ns(p) for p in pids}}
        time.sleep(0.1)  # the opponent's helpers are frozen now, whoever sends them SIGCONT
        gained = sum(max(0, _ran_ns(p) - n) for p, n in before.items() if n)
        if pids:
            print(f"GAINED {{gained}}", flush=True)
        return info.legal_actions()[0]
"""


@pytest.mark.parametrize("sup", _hierarchies("freeze"))
def test_a_setsid_waker_gains_no_cpu_on_the_opponents_turn(tmp_path, sup, use) -> None:
    """Item 5: a child that leaves the process group sends SIGCONT to the stopped bot every
    millisecond; its two busy helpers still get no CPU while the opponent thinks (before: up to
    0.1 s each per turn), and all of them are dead when the task ends."""
    use(sup)
    pids = tmp_path / "waker_pids"
    name = "setsid_waker"
    waker = (CHEATERS / f"{name}.py").read_text().replace('"/tmp/sixtysix-waker-pids"', repr(str(pids)))
    folder = _bots(tmp_path, {name: waker, "slow": SLOW.format(pids=str(pids))})
    survivors: list[int] = []

    def after_task(task, res) -> None:
        listed = [int(x) for x in pids.read_text().split()] if pids.is_file() else []
        survivors.extend(p for p in listed if alive(p))

    t = run_tournament(
        folder, deals=1, block=1, key=KEY, log_dir=tmp_path / "logs", time_limit_ms=5000, own_uids=False,
        on_task=after_task,
    )  # fmt: skip
    assert not t.arena.faults
    gained = [int(line.split()[1]) for line in _log(tmp_path, "slow").splitlines() if line.startswith("GAINED")]
    assert len(gained) >= 4
    assert max(gained) < 1_000_000, f"the helpers ran {max(gained) / 1e6:.1f} ms on the opponent's turn"
    assert not survivors and not _games_left()


@pytest.mark.skipif(bool(_needs(SUPPORT, "memory")), reason=_needs(SUPPORT, "memory"))
def test_six_children_of_one_bot_cannot_hold_more_than_its_memory_cap(tmp_path) -> None:
    """Item 7: ``--memory-mb 200`` bounds the bot's processes together: six children of 160 MiB
    (each under the per-process limit) never hold more than 200 MiB at once, and the bot forfeits
    the deal for its memory."""
    name = "memory_children"
    folder = _bots(tmp_path, {name: (CHEATERS / f"{name}.py").read_text()})
    t = run_tournament(
        folder, include=["heuristic"], deals=1, block=1, key=KEY, log_dir=tmp_path / "logs", memory_mb=200,
        time_limit_ms=10_000, kill_after_s=30.0,
    )  # fmt: skip
    seen = _log(tmp_path, name)
    held = [int(line.split()[1]) for line in seen.splitlines() if line.startswith("HELD")]
    at_once = [int(line.split()[2]) for line in seen.splitlines() if line.startswith("AT ONCE")]
    assert held and max(held) < 6  # before: all six held theirs, about 1 GB
    assert at_once and max(at_once) <= 200  # at no time more than the cap, all children together
    reasons = [f.reason for f in t.arena.faults if f.bot == name]
    assert len(reasons) == len(held) and all("over the memory limit of 200 MiB" in r for r in reasons)
    assert not [f for f in t.arena.faults if f.bot != name]
    assert not _games_left()


@pytest.mark.skipif(sys.platform != "linux", reason="the tournament host runs bots on Linux")
def test_without_cgroups_the_host_falls_back_and_the_report_says_so(tmp_path, use, monkeypatch) -> None:
    """Where no guarantee holds, games run as before (rusage CPU, SIGSTOP, RLIMIT_AS) and the
    tournament's warning names every fallback."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    none = cgroups.probe()
    monkeypatch.undo()
    use(none)
    name = "helper_thinker"
    folder = _bots(tmp_path, {name: (CHEATERS / f"{name}.py").read_text()})
    t = run_tournament(
        folder, include=["heuristic"], deals=1, block=1, key=KEY, log_dir=tmp_path / "logs",
        time_limit_ms=30_000, kill_after_s=60.0,
    )  # fmt: skip
    assert not t.arena.faults and t.cpu_seconds[name] >= 0.25 * 2  # a helper it keeps: still counted
    assert none.summary() in t.isolation and "SIGSTOP" in t.isolation
