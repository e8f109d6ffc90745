"""``run_tournament``: load the bots, play the round robin under a referee, collect the tables."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..agents.spec import AgentSpec, parse_agent_spec
from ..arena.checks import check_out_dir
from ..arena.play import TaskResult
from ..arena.recording import file_label, write_task_records
from ..arena.results import ArenaResult, collect
from ..arena.schedule import Task, make_tasks
from ..checks import as_value_error, check_int, check_real
from ..rules import Rules, get_rules
from ..text_safety import terminal_text
from .apart import run_apart
from .cgroups import with_isolation
from .discover import bot_files
from .guard import SignalGuard
from .host import BotDied, Cheated, NoAnswer
from .hosting import (
    FIRST_UID,
    ban,
    jail_exclude,
    jail_paths,
    missing_from_tree,
    python_paths,
    set_dumpable,
    stage,
    unreadable_by_others,  # noqa: F401 - where tests and older code import it from
)
from .journal import Journal, read_journal
from .keys import KEY_BYTES_MIN, bot_seeds, derive, fingerprint, new_key
from .preflight import PREFLIGHT, PreflightError, check_message, template_imports, write_probe
from .remote import HostPool, Limits, Stopped, bot_text, play_remote

__all__ = ["BotEntry", "TournamentError", "TournamentResult", "forfeit_points", "run_tournament"]


@dataclass(frozen=True)
class BotEntry:
    """A bot of the tournament: ``status`` is ``"plays"``, ``"disqualified"`` (did not load, or
    cheated) or ``"retired"`` (stopped answering: killed on ``strikes`` decisions in a row), with
    ``reason`` why."""

    label: str
    source: str
    status: str
    reason: str = ""


@dataclass
class TournamentResult:
    """A finished tournament: the bots, the disqualified files, every deal and forfeit, and the league's numbers."""

    bots: list[BotEntry]
    arena: ArenaResult
    time_limit_ms: float
    kill_after_s: float
    forfeit_points: int
    restarts: dict[str, int] = field(default_factory=dict)
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    key: bytes = field(default=b"", repr=False)
    own_uids: bool = False
    isolation: str = ""
    """``""`` when every bot's games ran in namespaces of their own (:mod:`.jail`), else the
    warning saying which guarantees did not hold."""

    @property
    def disqualified(self) -> list[BotEntry]:
        return [b for b in self.bots if b.status == "disqualified"]

    @property
    def retired(self) -> list[BotEntry]:
        """Bots that stopped answering and forfeited their later deals unplayed."""
        return [b for b in self.bots if b.status == "retired"]


class TournamentError(ValueError):
    """The tournament cannot be played (fewer than two bots load); ``bots`` says why for each."""

    def __init__(self, message: str, bots: list[BotEntry]) -> None:
        super().__init__(message)
        self.bots = bots

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.args[0], self.bots))


def forfeit_points(rules: Rules) -> int:
    """Game points a forfeited deal costs: the most one deal can give under ``rules``
    (``Rules.max_game_points``: 3, or 6 where a failed close can cost 6)."""
    return rules.max_game_points


def _load_bots(
    specs: Sequence[AgentSpec], pool: HostPool, limits: Limits, workers: int, rules: Rules
) -> list[BotEntry | AgentSpec]:
    """Import and build (and prepare) every bot in a game process of its own: the ready spec, or
    its disqualification."""

    def load(spec: AgentSpec) -> BotEntry | AgentSpec:
        def out(reason: str) -> BotEntry:
            if pool.tree is not None:
                reason += missing_from_tree(reason)
            return BotEntry(spec.label, spec.source or spec.label, "disqualified", reason)

        try:
            g = pool.game(spec)
        except BotDied as e:
            return out(f"while loading: {e}")
        try:
            answer, _, _ = g.ask(("load", spec), limits.build_s)
            if "ok" not in answer:
                return out(bot_text(answer.get("error", answer)))
            found = str(answer["ok"])
            ready = AgentSpec(spec.label, found, spec.options, spec.source, found) if spec.source else spec
            answer, _, _ = g.ask(("new", ready, "load-check", rules), limits.build_s)
            if "ok" not in answer:
                return out(bot_text(answer.get("error", answer)))
            return ready
        except (NoAnswer, BotDied, Cheated) as e:
            return out(f"while loading: {e}")
        finally:
            pool.done(g)

    with ThreadPoolExecutor(max(1, workers)) as ex:
        return list(ex.map(load, specs))


def preflight(pool: HostPool, limits: Limits, probe: Path, uid: int | None) -> None:
    """Play the probe bot (:mod:`.preflight`) as a bot would run; :class:`.PreflightError` with
    the one-line fix when it cannot import what the template imports."""
    spec = AgentSpec(PREFLIGHT, PREFLIGHT, (), str(probe), "")
    try:
        g = pool.game(spec)
    except BotDied as e:
        raise PreflightError(check_message(f"its zygote failed: {e}", uid, False)) from None
    jailed = pool.jail_keep is not None and PREFLIGHT not in pool.unjailed
    try:
        answer, _, _ = g.ask(("load", spec), limits.build_s)
    except (NoAnswer, BotDied, Cheated) as e:
        raise PreflightError(check_message(str(e), uid, jailed)) from None
    finally:
        pool.done(g)
        pool.close_bot(PREFLIGHT)
    if "ok" not in answer:
        raise PreflightError(check_message(str(answer.get("error", answer)), uid, jailed))


def _file_spec(spec: AgentSpec) -> AgentSpec:
    """An ``--include path/to/bot.py:Class`` spec with its path made absolute and checked."""
    if not spec.source.endswith(".py"):
        return spec
    path = Path(spec.source).expanduser().resolve()
    if not path.is_file():
        raise ValueError(f"--include {spec.label!r}: bot file {spec.source!r} not found (looked for {path})")
    return replace(spec, source=str(path))


def run_tournament(
    bots_dir: str | Path,
    include: Sequence[str] = (),
    rules: str | Rules = "standard",
    deals: int = 100,
    time_limit_ms: float = 1000.0,
    workers: int = 1,
    key: bytes | None = None,
    block: int = 50,
    elo_prior: float = 1.0,
    kill_after_s: float | None = None,
    build_timeout_s: float = 30.0,
    strikes: int = 3,
    log_dir: str | Path | None = None,
    progress: bool = False,
    records: str | Path | None = None,
    on_task: Callable[[Task, TaskResult], None] | None = None,
    memory_mb: int = 4096,
    log_bytes: int = 10 * 1024 * 1024,
    journal: str | Path | None = None,
    resume: bool = False,
    own_uids: bool | None = None,
    on_key: Callable[[bytes], None] | None = None,
    ray_address: str | None = None,
) -> TournamentResult:
    """Every bot file of ``bots_dir`` (see :mod:`.discover`) and the ``include`` agents play a
    round robin of duplicate deals (the arena's schedule), each bot in fresh processes of its own
    for every task; faults forfeit deals (see the package docstring). The deals come from ``key``
    (random when None: a new tournament each time). ``log_dir`` receives each bot's printed
    output (``log_bytes`` at most per bot), ``records`` one game record per deal, ``journal`` each
    finished block as it finishes (``resume``: play only what it lacks). ``own_uids`` (default:
    when run as root) runs each bot under a user id of its own; ``on_key(key)`` is called once no
    bot runs any more (to save a random key). ``ray_address``: play the blocks on that Ray cluster
    (:mod:`.cluster`; ``workers`` is then ignored), with the same results as here."""
    r = get_rules(rules)
    names = ("deals", "block", "workers", "strikes", "memory_mb", "log_bytes")
    deals, block, workers, strikes, memory_mb, log_bytes = (
        as_value_error(check_int, name, value, 1)
        for name, value in zip(names, (deals, block, workers, strikes, memory_mb, log_bytes), strict=True)
    )
    if key is not None and (not isinstance(key, bytes) or len(key) < KEY_BYTES_MIN):
        raise ValueError(f"key must be bytes, at least {KEY_BYTES_MIN} of them")
    limits = _limits(time_limit_ms, kill_after_s, build_timeout_s, strikes, memory_mb, log_bytes)
    settings = _Settings(r, deals, block, workers, limits, elo_prior, progress, journal, resume, ray_address, on_task)
    if settings.ray_address is not None:
        from ..distributed import check_ray_address, import_ray

        check_ray_address(settings.ray_address)
        import_ray()
    if resume and journal is None:
        raise ValueError("resume needs a journal (the results file of the run to continue)")
    record_dir = check_out_dir(records, what="--records") if records is not None else None
    folder = Path(bots_dir).expanduser().resolve()
    specs = _bot_specs(bots_dir, include)
    secret = key if key is not None else new_key()
    hosting = _start_hosting(specs, folder, settings.limits, log_dir, own_uids)
    dumpable = set_dumpable(False)
    try:
        with hosting.guard:
            played = _load_and_play(settings, hosting, secret, folder, record_dir)
        after = with_isolation(isolation_warning(hosting.isolate, hosting.pool.unjailed))
        if after != played.isolation:  # on Ray: a node could not isolate its bots
            played.isolation = after
            print(f"tournament: WARNING: {after}", file=sys.stderr)
    except Stopped:
        raise KeyboardInterrupt from None
    finally:
        hosting.pool.close()
        set_dumpable(dumpable)
        if hosting.journal_file is not None:
            hosting.journal_file.close()
        if hosting.staging is not None:
            shutil.rmtree(hosting.staging, ignore_errors=True)
        else:
            shutil.rmtree(hosting.probe_dir, ignore_errors=True)
        if on_key is not None:
            on_key(secret)
    return _result(settings, hosting, played, secret)


@dataclass(frozen=True)
class _Settings:
    """``run_tournament``'s options once checked: what the steps of a run read."""

    rules: Rules
    deals: int
    block: int
    workers: int
    limits: Limits
    elo_prior: float
    progress: bool
    journal: str | Path | None
    resume: bool
    ray_address: str | None
    on_task: Callable[[Task, TaskResult], None] | None


def _limits(
    time_limit_ms: object,
    kill_after_s: object,
    build_timeout_s: object,
    strikes: int,
    memory_mb: int,
    log_bytes: int,
) -> Limits:
    """The referee's limits, each time a finite number above 0 (a ``ValueError`` naming it otherwise),
    the kill after the decision's time limit."""
    limits = Limits.of(
        as_value_error(check_real, "time_limit_ms", time_limit_ms, 0, above=True),
        None if kill_after_s is None else as_value_error(check_real, "kill_after_s", kill_after_s, 0, above=True),
        as_value_error(check_real, "build_timeout_s", build_timeout_s, 0, above=True),
        strikes,
        memory_mb,
        log_bytes,
    )
    if limits.kill_after_s * 1000 <= limits.decision_ms:
        raise ValueError(f"kill_after_s={kill_after_s!r} must exceed the time limit of {time_limit_ms!r} ms")
    return limits


def _bot_specs(bots_dir: str | Path, include: Sequence[str]) -> list[AgentSpec]:
    """The bot files of ``bots_dir`` and the ``include`` agents, with distinct labels (at least one)."""
    files = bot_files(bots_dir)
    # a bot's label is its file name: made terminal-safe once here, for every report and log name
    specs = [AgentSpec(terminal_text(p.stem), p.stem, (), str(p.resolve()), "") for p in files]
    specs += [_file_spec(parse_agent_spec(text)) for text in include]
    labels = [s.label for s in specs]
    clash = sorted({x for x in labels if labels.count(x) > 1})
    if clash:
        raise ValueError(f"bot names must be distinct, these appear twice: {', '.join(clash)}")
    if not specs:
        raise ValueError(f"no bots: {str(bots_dir)!r} has no *.py bot files and --include names none")
    return specs


@dataclass
class _Hosting:
    """Where and as whom the bots of one run play: their (staged) specs, user ids, logs, the
    preflight probe and the host pool, and the journal once it is open (a bot banned in play is
    journaled too); ``run_tournament`` takes it down at the end."""

    specs: list[AgentSpec]
    shown: dict[str, str]
    """Each bot's source as the user gave it (``specs`` point to staged copies when isolated)."""
    uids: dict[str, int]
    log_paths: dict[str, str | None]
    isolate: bool
    staging: Path | None
    probe_dir: Path
    probe: Path
    pool: HostPool
    journal_file: Journal | None = None
    guard: SignalGuard = field(init=False)


def _start_hosting(
    specs: list[AgentSpec], folder: Path, limits: Limits, log_dir: str | Path | None, own_uids: bool | None
) -> _Hosting:
    """The logs folder, the user ids and staged copies (as root), the preflight probe, the host
    pool and the signal guard: everything before the first bot process starts."""
    logs = Path(log_dir) if log_dir is not None else None
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
    log_paths = {s.label: str(logs / f"{file_label(s.label)}.log") if logs else None for s in specs}
    isolate = (os.geteuid() == 0) if own_uids is None else own_uids
    if isolate and logs is not None:
        os.chmod(logs, 0o700)  # bots under their own uids cannot read each other's logs
    staging = Path(tempfile.mkdtemp(prefix="sixtysix-bots-")) if isolate else None
    shown = {s.label: s.source for s in specs}
    uids = {s.label: FIRST_UID + i for i, s in enumerate(specs)} if isolate else {}
    if staging is not None:
        specs = stage(specs, folder, staging, uids)
        uids[PREFLIGHT] = FIRST_UID + len(specs)  # a user id no bot has
    probe_dir = staging / "preflight" if staging is not None else Path(tempfile.mkdtemp(prefix="sixtysix-preflight-"))
    probe = write_probe(probe_dir, template_imports(), python_paths())
    exclude = jail_exclude(staging, template_imports()) if staging is not None else []
    pool = HostPool(limits, log_paths, uids, jail_paths(staging, exclude) if staging is not None else None, exclude)
    hosting = _Hosting(specs, shown, uids, log_paths, isolate, staging, probe_dir, probe, pool)
    pool.on_ban = lambda bot, reason: ban(pool, hosting.journal_file, bot, reason)  # a cheat in play is journaled too
    hosting.guard = SignalGuard(
        pool.owner,
        lambda bot, sig: ban(pool, hosting.journal_file, bot, f"sent {sig} to the tournament host"),
        pool.interrupt,
    )
    return hosting


@dataclass
class _Played:
    """What the games of a run left: the bots that played, every bot's entry, the tasks and their results."""

    ready: list[AgentSpec]
    entries: list[BotEntry]
    tasks: list[Task]
    results: list[tuple[TaskResult, dict[str, int], dict[str, float]]]
    isolation: str


def _load_and_play(
    settings: _Settings, hosting: _Hosting, secret: bytes, folder: Path, record_dir: Path | None
) -> _Played:
    """The preflight, every bot loaded (or disqualified), the journal opened (or resumed) and the
    round robin played, under the signal guard."""
    pool, limits = hosting.pool, settings.limits
    try:
        preflight(pool, limits, hosting.probe, hosting.uids.get(PREFLIGHT))
    except PreflightError as e:
        raise TournamentError(str(e), []) from None
    loaded = _load_bots(hosting.specs, pool, limits, settings.workers, settings.rules)
    if pool.stopping.is_set():
        raise Stopped
    ready = [x for x in loaded if isinstance(x, AgentSpec)]
    isolation = with_isolation(isolation_warning(hosting.isolate, pool.unjailed))
    if isolation:
        print(f"tournament: WARNING: {isolation}", file=sys.stderr)
    shown = hosting.shown
    entries = [x if isinstance(x, BotEntry) else BotEntry(x.label, shown[x.label], "plays") for x in loaded]
    entries = [replace(e, source=shown[e.label]) for e in entries]
    if len(ready) < 2:
        out = "; ".join(f"{b.label}: {b.reason}" for b in entries if b.status != "plays")
        raise TournamentError(f"fewer than two bots can play ({len(ready)} of {len(hosting.specs)}): {out}", entries)
    tasks = [
        replace(t, seed=derive(secret, f"deals/{t.pair}/{t.block}"))
        for t in make_tasks(ready, settings.deals, settings.block, settings.rules, 0)
    ]
    done = _open_journal(settings, hosting, ready, secret)
    results = _play(
        tasks,
        pool,
        limits,
        forfeit_points(settings.rules),
        settings.workers,
        settings.progress,
        secret,
        done,
        hosting.journal_file,
        record_dir,
        settings.on_task,
        None
        if settings.ray_address is None
        else _OnRay(settings.ray_address, bot_bundle_of(ready, shown, folder), hosting.uids, hosting.log_paths),
    )
    return _Played(ready, entries, tasks, results, isolation)


def _open_journal(
    settings: _Settings, hosting: _Hosting, ready: list[AgentSpec], secret: bytes
) -> dict[tuple[int, int, int], dict[str, Any]]:
    """Open the run's journal (``hosting.journal_file``), new or resumed; the blocks it already
    holds (with ``resume``), whose bans are applied again."""
    done: dict[tuple[int, int, int], dict[str, Any]] = {}
    if settings.journal is None:
        return done
    header = {
        "journal": 1,
        "key": fingerprint(secret),
        "bots": [s.label for s in ready],
        "rules": settings.rules.name,
        "deals": settings.deals,
        "block": settings.block,
    }
    jpath = Path(settings.journal)
    previous = ""
    if settings.resume and jpath.is_file():
        done, banned, previous = read_journal(jpath, header, secret)
        for label, reason in banned.items():
            hosting.pool.disqualify(label, reason)
    hosting.journal_file = Journal(jpath, header, not settings.resume, secret, previous)
    return done


def _result(settings: _Settings, hosting: _Hosting, played: _Played, secret: bytes) -> TournamentResult:
    """The league's tables, each bot's restarts and CPU time, and its final status (disqualified in
    play, or retired after ``strikes`` kills in a row)."""
    limits, pool = settings.limits, hosting.pool
    res = collect(
        [s.label for s in played.ready],
        played.tasks,
        [x[0] for x in played.results],
        rules=settings.rules,
        seed=fingerprint(secret),  # type: ignore[arg-type]
        deals=settings.deals,
        block=settings.block,
        elo_prior=settings.elo_prior,
    )
    restarts: dict[str, int] = {}
    cpu: dict[str, float] = {}
    for _, counts, spent in played.results:
        for label, n in counts.items():
            restarts[label] = restarts.get(label, 0) + n
        for label, s in spent.items():
            cpu[label] = cpu.get(label, 0.0) + s
    entries = [
        replace(e, status="disqualified", reason=pool.disqualified[e.label])
        if e.label in pool.disqualified
        else replace(e, status="retired", reason=retired_reason(limits.strikes))
        if e.status == "plays" and pool.kills_in_a_row.get(e.label, 0) >= limits.strikes
        else e
        for e in played.entries
    ]
    return TournamentResult(
        entries,
        res,
        limits.decision_ms,
        limits.kill_after_s,
        forfeit_points(settings.rules),
        restarts,
        cpu,
        secret,
        hosting.isolate,
        played.isolation,
    )


def retired_reason(strikes: int) -> str:
    """Why a bot was retired (the same words as its forfeits)."""
    return f"retired after {strikes} decisions in a row without an answer: it forfeited its later deals unplayed"


def isolation_warning(own_uids: bool, unjailed: dict[str, str]) -> str:
    """What does not hold when the bots' games get no namespaces of their own; ``""`` when they all do."""
    if own_uids and not unjailed:
        return ""
    if own_uids:
        why = next(iter(unjailed.values()))
    else:
        why = "the host does not run as root" if os.geteuid() != 0 else "the bots run under the host's user id"
    return (
        f"the bots' games are not isolated ({why}; needs root with CAP_SYS_ADMIN on Linux): a bot can "
        "keep files in /tmp and other writable folders from one task to the next (where the same deal "
        "comes back with the seats swapped), reach the network, use local sockets, SysV IPC and shared "
        "memory, and see other processes" + ("; it runs as you and has no process limit" if not own_uids else "")
    )


@dataclass(frozen=True)
class _OnRay:
    """Where and with what the blocks are played on a Ray cluster (:mod:`.cluster`)."""

    address: str
    bundle: tuple[dict[str, bytes], dict[str, str]]
    uids: dict[str, int]
    log_paths: dict[str, str | None]


def bot_bundle_of(
    ready: list[AgentSpec], shown: dict[str, str], folder: Path
) -> tuple[dict[str, bytes], dict[str, str]]:
    """The files a node needs for the bots that play, read from their original paths."""
    from .cluster import bot_bundle

    return bot_bundle([replace(s, source=shown[s.label]) if s.source else s for s in ready], folder)


def _record_block(
    pair: list[tuple[Task, TaskResult, dict[str, int], dict[str, float]]],
    journal: Journal | None,
    record_dir: Path | None,
    on_task: Callable[[Task, TaskResult], None] | None,
) -> None:
    """A finished block (its tracks in order): journal it, write its game records, report it."""
    if journal is not None:
        journal.block([(t.pair, t.block, t.track, r, rs, c) for t, r, rs, c in pair])
    for t, r, _, _ in pair:
        if record_dir is not None:
            write_task_records(record_dir, t, r, source="tournament")
            r.played.clear()
        if on_task is not None:
            on_task(t, r)


def _play(
    tasks: list[Task],
    pool: HostPool,
    limits: Limits,
    points: int,
    workers: int,
    progress: bool,
    secret: bytes,
    done: dict[tuple[int, int, int], dict[str, Any]],
    journal: Journal | None,
    record_dir: Path | None,
    on_task: Callable[[Task, TaskResult], None] | None,
    on_ray: _OnRay | None = None,
) -> list[tuple[TaskResult, dict[str, int], dict[str, float]]]:
    """Play the tasks the journal lacks (here in ``workers`` threads, or on Ray), each block's two
    seat orders never at once; every task's result in the order of ``tasks``."""
    todo = [t for t in tasks if (t.pair, t.block, t.track) not in done]
    bar = _progress_bar(sum(t.size for t in todo)) if progress else None
    lock = threading.Lock()
    forfeits = [0]
    finished: dict[tuple[int, int, int], tuple[Task, TaskResult, dict[str, int], dict[str, float]]] = {}

    def block_done(task: Task, res: TaskResult, restarts: dict[str, int], cpu: dict[str, float]) -> None:
        """Keep a task; once both tracks of its block are in, journal and record them."""
        with lock:
            finished[(task.pair, task.block, task.track)] = (task, res, restarts, cpu)
            other = finished.get((task.pair, task.block, 1 - task.track))
        if other is None and (task.pair, task.block, 1 - task.track) not in done:
            return
        pair = sorted(
            [x for x in (finished[(task.pair, task.block, task.track)], other) if x], key=lambda x: x[0].track
        )
        _record_block(pair, journal, record_dir, on_task)

    def one(task: Task) -> tuple[TaskResult, dict[str, int], dict[str, float]]:
        counted = [0]

        def tick() -> None:
            counted[0] += 1
            if bar is not None and counted[0] <= task.size:
                with lock:
                    bar.update(1)

        res, restarts, cpu = play_remote(
            task, task.specs, bot_seeds(secret, task), pool, limits, points, record_dir is not None, tick
        )
        with lock:
            forfeits[0] += len(res.faults)
            if bar is not None:
                bar.update(max(0, task.size - counted[0]))
                bar.set_postfix(forfeits=forfeits[0], refresh=False)
        block_done(task, res, restarts, cpu)
        return res, restarts, cpu

    try:  # the two seat orders of a block never run at the same time
        if on_ray is not None:
            played = _play_on_ray(on_ray, todo, pool, limits, points, secret, journal, record_dir, on_task, bar)
        else:
            results = run_apart(todo, lambda t: (t.pair, t.block), workers, one)
            played = dict(zip([(t.pair, t.block, t.track) for t in todo], results, strict=True))
    except BaseException:  # Ctrl-C: end the games now, kill the bots, then let it through
        pool.interrupt()
        raise
    finally:
        if bar is not None:
            bar.close()
    if pool.stopping.is_set():
        raise Stopped
    return [_played_or_journaled((t.pair, t.block, t.track), played, done) for t in tasks]


def _play_on_ray(
    on_ray: _OnRay,
    todo: list[Task],
    pool: HostPool,
    limits: Limits,
    points: int,
    secret: bytes,
    journal: Journal | None,
    record_dir: Path | None,
    on_task: Callable[[Task, TaskResult], None] | None,
    bar: Any,
) -> dict[tuple[int, int, int], tuple[TaskResult, dict[str, int], dict[str, float]]]:
    """The tasks played on the Ray cluster (:mod:`.cluster`), each block journaled and recorded here."""
    from .cluster import play_on_ray

    return play_on_ray(
        on_ray.address,
        todo,
        pool,
        limits,
        points,
        secret,
        on_ray.bundle,
        on_ray.uids,
        record_dir is not None,
        lambda pair: _record_block(pair, journal, record_dir, on_task),
        lambda label, reason: ban(pool, journal, label, reason),
        on_ray.log_paths,
        bar,
    )


def _progress_bar(total: int) -> Any:
    """A tqdm bar over ``total`` deals, or None without tqdm."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="deal", desc="tournament")


def _played_or_journaled(
    k: tuple[int, int, int],
    played: dict[tuple[int, int, int], tuple[TaskResult, dict[str, int], dict[str, float]]],
    done: dict[tuple[int, int, int], dict[str, Any]],
) -> tuple[TaskResult, dict[str, int], dict[str, float]]:
    """A task's result, restarts and CPU time: played in this run, else read from the journal."""
    if k in played:
        return played[k]
    return (done[k]["result"], done[k]["restarts"], done[k]["cpu"])
