"""``run_arena``: check everything, play the round robin, compute the tables."""

from __future__ import annotations

from collections.abc import Sequence

from ..agents.spec import AgentSpec, parse_agent_spec
from ..rules import Rules, get_rules
from .checks import check_elo_prior, trial_decisions
from .play import run_task
from .results import ArenaResult, collect
from .schedule import make_tasks
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
) -> ArenaResult:
    """Play the round robin (see the package docstring) and compute every table.

    Every option and agent is checked before the first deal (``trial_timeout_s``: the most one
    agent may take over a trial decision); ``start_method`` (fork, spawn, forkserver; None: the
    platform's default) starts the ``workers`` processes."""
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
    trial_decisions(specs, r, trial_timeout_s)
    tasks = make_tasks(specs, deals, block, r, seed)
    bar = _progress_bar(sum(t.size for t in tasks), "arena") if progress else None
    try:
        results = map_tasks(
            run_task,
            tasks,
            workers,
            start_method=method,
            registrations=registrations,
            on_result=(lambda task, _res: bar.update(task.size)) if bar is not None else None,
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
