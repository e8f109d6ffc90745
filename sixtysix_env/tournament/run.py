"""``run_tournament``: load the bots, play the round robin under a referee, collect the tables."""

from __future__ import annotations

import math
import multiprocessing
import numbers
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..agents.spec import AgentSpec, parse_agent_spec
from ..arena.checks import check_out_dir
from ..arena.play import TaskResult, play_task
from ..arena.recording import write_task_records
from ..arena.results import ArenaResult, collect
from ..arena.schedule import Task, agent_seed, make_tasks
from ..arena.workers import check_start_method
from ..rules import Rules, get_rules
from .discover import bot_files
from .host import BotDied, NoAnswer
from .remote import HostPool, Limits, RemoteBot

__all__ = ["BotEntry", "TournamentError", "TournamentResult", "forfeit_points", "run_tournament"]


@dataclass(frozen=True)
class BotEntry:
    """A bot of the tournament: ``status`` is ``"plays"`` or ``"disqualified"`` (``reason`` why)."""

    label: str
    source: str
    status: str
    reason: str = ""


@dataclass
class TournamentResult:
    bots: list[BotEntry]
    arena: ArenaResult
    time_limit_ms: float
    kill_after_s: float
    forfeit_points: int
    restarts: dict[str, int] = field(default_factory=dict)

    @property
    def disqualified(self) -> list[BotEntry]:
        return [b for b in self.bots if b.status != "plays"]


class TournamentError(ValueError):
    """The tournament cannot be played (fewer than two bots load); ``bots`` says why for each."""

    def __init__(self, message: str, bots: list[BotEntry]) -> None:
        super().__init__(message)
        self.bots = bots


def forfeit_points(rules: Rules) -> int:
    """Game points a forfeited deal costs: the most one deal can give under ``rules``
    (``Rules.max_game_points``: 3, or 6 where a failed close can cost 6)."""
    return rules.max_game_points


def _positive(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def _default_start_method() -> str:
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _load_bots(
    specs: Sequence[AgentSpec], pool: HostPool, limits: Limits, workers: int, rules: Rules
) -> list[BotEntry | AgentSpec]:
    """Import and build (and prepare) every bot in its own process: the ready spec, or its
    disqualification."""

    def load(spec: AgentSpec) -> BotEntry | AgentSpec:
        proc = pool.start(spec)
        try:
            kind, found = proc.ask(("load",), limits.build_s)
            if kind == "ok":
                kind, text = proc.ask(("new", "load-check", rules), limits.build_s)
                found = text if kind != "ok" else found
        except (NoAnswer, BotDied) as e:
            return BotEntry(spec.label, spec.source or spec.label, "disqualified", f"while loading: {e}")
        if kind != "ok":
            proc.stop()
            return BotEntry(spec.label, spec.source or spec.label, "disqualified", found)
        pool.checkin(proc)
        if spec.source:
            return AgentSpec(spec.label, found, spec.options, spec.source, found)
        return spec

    with ThreadPoolExecutor(max(1, workers)) as ex:
        return list(ex.map(load, specs))


def run_tournament(
    bots_dir: str | Path,
    include: Sequence[str] = (),
    rules: str | Rules = "standard",
    deals: int = 100,
    time_limit_ms: float = 1000.0,
    workers: int = 1,
    seed: int = 0,
    block: int = 50,
    elo_prior: float = 1.0,
    kill_after_s: float | None = None,
    build_timeout_s: float = 30.0,
    strikes: int = 3,
    start_method: str | None = None,
    log_dir: str | Path | None = None,
    progress: bool = False,
    records: str | Path | None = None,
    on_task: Callable[[Task, TaskResult], None] | None = None,
) -> TournamentResult:
    """Every bot file of ``bots_dir`` (see :mod:`.discover`) and the ``include`` agents play a
    round robin of duplicate deals (the arena's schedule), each bot in its own process; faults
    forfeit deals (see the package docstring). ``log_dir`` receives each bot's printed output,
    ``records`` one game record per deal (:mod:`sixtysix_env.arena.recording`)."""
    r = get_rules(rules)
    for name, value in (("deals", deals), ("block", block), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer of at least 1, got {value!r}")
    if isinstance(strikes, bool) or not isinstance(strikes, int) or strikes < 1:
        raise ValueError(f"strikes must be an integer of at least 1, got {strikes!r}")
    limits = Limits.of(
        _positive("time_limit_ms", time_limit_ms),
        None if kill_after_s is None else _positive("kill_after_s", kill_after_s),
        _positive("build_timeout_s", build_timeout_s),
        strikes,
    )
    if limits.kill_after_s * 1000 <= limits.decision_ms:
        raise ValueError(f"kill_after_s={kill_after_s!r} must exceed the time limit of {time_limit_ms!r} ms")
    record_dir = check_out_dir(records, what="--records") if records is not None else None
    files = bot_files(bots_dir)
    specs = [AgentSpec(p.stem, p.stem, (), str(p.resolve()), "") for p in files]
    specs += [parse_agent_spec(text) for text in include]
    labels = [s.label for s in specs]
    clash = sorted({x for x in labels if labels.count(x) > 1})
    if clash:
        raise ValueError(f"bot names must be distinct, these appear twice: {', '.join(clash)}")
    if not specs:
        raise ValueError(f"no bots: {str(bots_dir)!r} has no *.py bot files and --include names none")
    ctx = multiprocessing.get_context(check_start_method(start_method) or _default_start_method())
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["sixtysix_env.tournament.host"])
    logs = Path(log_dir) if log_dir is not None else None
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
    pool = HostPool(ctx, logs, keep=2 * workers + 2)
    try:
        loaded = _load_bots(specs, pool, limits, workers, r)
        ready = [x for x in loaded if isinstance(x, AgentSpec)]
        entries = [x if isinstance(x, BotEntry) else BotEntry(x.label, x.source or x.label, "plays") for x in loaded]
        if len(ready) < 2:
            out = "; ".join(f"{b.label}: {b.reason}" for b in entries if b.status != "plays")
            raise TournamentError(f"fewer than two bots can play ({len(ready)} of {len(specs)}): {out}", entries)
        tasks = make_tasks(ready, deals, block, r, seed)

        def finished(task: Task, res: TaskResult) -> None:
            if record_dir is not None:
                write_task_records(record_dir, task, res, source="tournament")
                res.played.clear()
            if on_task is not None:
                on_task(task, res)

        results = _play(tasks, pool, limits, forfeit_points(r), workers, progress, record_dir is not None, finished)
    finally:
        pool.close()
    res = collect(
        [s.label for s in ready],
        tasks,
        [x[0] for x in results],
        rules=r,
        seed=seed,
        deals=deals,
        block=block,
        elo_prior=elo_prior,
    )
    restarts: dict[str, int] = {}
    for _, counts in results:
        for label, n in counts.items():
            restarts[label] = restarts.get(label, 0) + n
    return TournamentResult(entries, res, limits.decision_ms, limits.kill_after_s, forfeit_points(r), restarts)


def _play(
    tasks: list[Task],
    pool: HostPool,
    limits: Limits,
    points: int,
    workers: int,
    progress: bool,
    keep_deals: bool,
    on_task: Callable[[Task, TaskResult], None] | None,
) -> list[tuple[TaskResult, dict[str, int]]]:
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=sum(t.size for t in tasks), unit="deal", desc="tournament")
        except ImportError:
            bar = None
    lock = threading.Lock()
    forfeits = [0]

    def one(task: Task) -> tuple[TaskResult, dict[str, int]]:
        a_spec, b_spec = task.specs
        a = RemoteBot(a_spec, pool, limits, agent_seed(task, task.a_seat), task.rules)
        b = RemoteBot(b_spec, pool, limits, agent_seed(task, 1 - task.a_seat), task.rules)
        counted = [0]

        def tick() -> None:
            counted[0] += 1
            if bar is not None and counted[0] <= task.size:
                with lock:
                    bar.update(1)

        try:
            res = play_task(task, (a, b), forfeit_points=points, keep_deals=keep_deals, on_deal=tick)
        finally:
            a.release()
            b.release()
        with lock:
            forfeits[0] += len(res.faults)
            if bar is not None:
                bar.update(max(0, task.size - counted[0]))
                bar.set_postfix(forfeits=forfeits[0], refresh=False)
            if on_task is not None:
                on_task(task, res)
        return res, {a.name: a.restarts, b.name: b.restarts}

    ex = ThreadPoolExecutor(workers)
    try:
        return list(ex.map(one, tasks))
    except BaseException:  # Ctrl-C: end the games now, kill the bots, then let it through
        pool.interrupt()
        raise
    finally:
        ex.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
