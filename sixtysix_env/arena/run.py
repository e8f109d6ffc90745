"""``run_arena``: check everything, play the round robin, compute the tables."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from ..agents.spec import AgentSpec, parse_agent_spec
from ..rules import Rules, get_rules
from .checks import check_elo_prior, check_out_dir, trial_decisions
from .play import TaskResult, run_task
from .recording import write_task_records
from .results import ArenaResult, collect
from .schedule import Task, make_tasks
from .workers import check_start_method, map_tasks, registrations_for

__all__ = ["run_arena"]


def run_arena(
    agents: Sequence[str | AgentSpec],
    deals: int,
    rules: str | Rules = "standard",
    seed: int = 0,
    workers: int = 1,
    block: int = 50,
    elo_prior: float = 1.0,
    progress: bool = False,
    start_method: str | None = None,
    trial_timeout_s: float = 30.0,
    records: str | Path | None = None,
) -> ArenaResult:
    """Play the round robin (see the package docstring) and compute every table.

    Every option and agent is checked before the first deal (``trial_timeout_s``: the most one
    agent may take over a trial decision); ``start_method`` (fork, spawn, forkserver; None: the
    platform's default) starts the ``workers`` processes. ``records``: a folder for one game
    record per match (:mod:`.recording`)."""
    specs = [a if isinstance(a, AgentSpec) else parse_agent_spec(a) for a in agents]
    labels = [s.label for s in specs]
    if len(specs) < 2:
        raise ValueError(f"the arena needs at least two agents, got {labels}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"agents must be distinct, got {labels}")
    for name, value in (("deals", deals), ("block", block), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer of at least 1, got {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    elo_prior = check_elo_prior(elo_prior)
    r = get_rules(rules)
    method = check_start_method(start_method)
    registrations = registrations_for(specs, method) if workers > 1 else {}
    record_dir = check_out_dir(records, what="--records") if records is not None else None
    trial_decisions(specs, r, trial_timeout_s)
    tasks = make_tasks(specs, deals, block, r, seed)
    bar = _progress_bar(sum(t.size for t in tasks), "arena") if progress else None

    def done(task: Task, res: TaskResult) -> None:
        if record_dir is not None:
            write_task_records(record_dir, task, res)
            res.played.clear()
        if bar is not None:
            bar.update(task.size)

    try:
        results = map_tasks(
            functools.partial(run_task, keep_deals=record_dir is not None),
            tasks,
            workers,
            start_method=method,
            registrations=registrations,
            on_result=done,
        )
    finally:
        if bar is not None:
            bar.close()
    return collect(labels, tasks, results, rules=r, seed=seed, deals=deals, block=block, elo_prior=elo_prior)


def _progress_bar(total: int, desc: str):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="deal", desc=desc)
