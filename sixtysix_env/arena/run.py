"""``run_arena``: check everything, play the round robin, compute the tables."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from pathlib import Path

from ..agents import agent_names
from ..agents.spec import AgentSpec, parse_agent_spec
from ..checks import as_value_error, check_int, check_real
from ..distributed.local import check_start_method, map_tasks, registrations_for
from ..rules import Rules, get_rules
from .checks import check_elo_prior, check_out_dir, trial_decisions
from .play import TaskResult, play_task, ready_agent
from .recording import write_task_records
from .results import ArenaResult, collect
from .schedule import Task, make_tasks
from .timed import TimedAgent

__all__ = [
    "DEFAULT_DECISION_LIMIT_S",
    "REDUCE_PLAYOUTS",
    "agent_spec",
    "bot_labels",
    "check_reduce",
    "run_arena",
    "run_task",
]

REDUCE_PLAYOUTS = ("agents", "heuristic", "own")
"""Who plays the playouts of the reduced estimate's value function: ``agents`` and ``heuristic`` in
numba (:mod:`.variance`), ``own`` every agent itself on the reference engine (:mod:`.own_playouts`)."""

DEFAULT_DECISION_LIMIT_S = 60.0
"""The most wall time one decision may take unless told otherwise: far above any built-in agent
(milliseconds), low enough that a bot that hangs cannot hold a run for ever."""


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
    decision_limit_s: float | None = DEFAULT_DECISION_LIMIT_S,
    ray_address: str | None = None,
    reduce: bool | None = None,
    reduce_playouts: str = "agents",
) -> ArenaResult:
    """Play the round robin (see the package docstring) and compute every table.

    Every option and agent is checked before the first deal (``trial_timeout_s``: the most one
    agent may take over a trial decision); ``start_method`` (fork, spawn, forkserver; None: the
    platform's default) starts the ``workers`` processes. ``records``: a folder for one game
    record per match (:mod:`.recording`). ``decision_limit_s``: the most wall time one decision
    may take in play (None: no limit); a bot over it, or one that raises or plays an illegal
    action, forfeits that deal (listed in ``faults``) and the run goes on. ``ray_address``: play the
    tasks on that Ray cluster instead (``sixtysix_env.distributed``; same results, ``workers`` unused).
    ``reduce``: also the variance-reduced points per deal (:mod:`.variance`); None (default): where
    the rules allow it (two players on the batched engine), True: required, False: off.
    ``reduce_playouts``: who plays the playouts of its value function: ``"agents"`` (an agent with a
    policy network plays its own seat, the heuristic any other), ``"heuristic"`` (cheaper, less
    variance removed) or ``"own"`` (every agent its own seat, whatever it is, and its random choices'
    luck taken out too: the most variance removed for agents without a network, at over a hundred
    times the CPU of the deals; :mod:`.own_playouts`)."""
    specs = [a if isinstance(a, AgentSpec) else agent_spec(a) for a in agents]
    labels = [s.label for s in specs]
    if len(specs) < 2:
        raise ValueError(f"the arena needs at least two agents, got {labels}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"agents must be distinct, got {labels}")
    deals = as_value_error(check_int, "deals", deals, 1)
    block = as_value_error(check_int, "block", block, 1)
    workers = as_value_error(check_int, "workers", workers, 1)
    seed = as_value_error(check_int, "seed", seed)
    elo_prior = check_elo_prior(elo_prior)
    if decision_limit_s is not None:
        what = "the decision limit (seconds, or None for no limit)"
        decision_limit_s = as_value_error(check_real, "decision_limit_s", decision_limit_s, 0, above=True, what=what)
    r = get_rules(rules)
    reduce = check_reduce(reduce, r, reduce_playouts)
    method = check_start_method(start_method)
    registrations = registrations_for(specs, method) if workers > 1 else {}
    if ray_address is not None:
        from ..distributed import check_ray_address, import_ray, ray_map

        check_ray_address(ray_address)
        import_ray()
        registrations = registrations_for(specs, "spawn")  # they travel to fresh processes
    record_dir = check_out_dir(records, what="--records") if records is not None else None
    names = trial_decisions(specs, r, trial_timeout_s)
    specs = [dataclasses.replace(s, label=label) for s, label in zip(specs, bot_labels(specs, names), strict=True)]
    labels = [s.label for s in specs]
    tasks = make_tasks(specs, deals, block, r, seed, reduce_playouts if reduce else "")
    workers = min(workers, len(tasks))  # more processes than tasks would only start and idle
    bar = _progress_bar(sum(t.size for t in tasks), "arena") if progress else None

    def done(task: Task, res: TaskResult) -> None:
        if record_dir is not None:
            write_task_records(record_dir, task, res)
            res.played.clear()
        if bar is not None:
            bar.update(task.size)

    try:
        play = functools.partial(run_task, keep_deals=record_dir is not None, decision_limit_s=decision_limit_s)
        if ray_address is not None:
            results = ray_map(play, tasks, ray_address, registrations=registrations, on_result=done)
        else:
            results = map_tasks(play, tasks, workers, start_method=method, registrations=registrations, on_result=done)
    finally:
        if bar is not None:
            bar.close()
    return collect(labels, tasks, results, rules=r, seed=seed, deals=deals, block=block, elo_prior=elo_prior)


def check_reduce(reduce: bool | None, rules: Rules, playouts: str = "agents") -> bool:
    """Whether to compute the reduced estimate: ``None`` where the rules and installed extras allow
    it; ``True`` where they do not is refused, naming why. ``playouts`` (one of
    :data:`REDUCE_PLAYOUTS`) decides what it needs: ``own`` plays on the reference engine, any rules
    and no extra; the others replay deals on the batched engine (numba, the ``fast`` extra)."""
    if reduce is not None and not isinstance(reduce, bool):
        raise ValueError(f"reduce={reduce!r} is not allowed: give True, False or None (where the rules allow it)")
    if playouts not in REDUCE_PLAYOUTS:
        raise ValueError(f"reduce_playouts={playouts!r} is not allowed: give one of {', '.join(REDUCE_PLAYOUTS)}")
    if reduce is False:
        return False
    if playouts == "own":
        return True
    try:
        from .variance import supports
    except ImportError:  # numba (the fast extra) is missing
        why = "replays deals on the batched engine, which needs numba: pip install 'sixtysix-env[fast]'"
    else:
        if supports(rules):
            return True
        why = f"replays deals on the batched engine (sixtysix_env.fast), which does not play the rules {rules.name!r}"
    if reduce:
        raise ValueError(
            f"the variance-reduced estimate with {playouts} playouts {why}. Instead, leave it off "
            "(--no-reduce; reduce=False) or let every agent play its own playouts on the reference engine "
            "(--reduce-playouts own; reduce_playouts='own'; far more CPU)"
        )
    return False


def agent_spec(text: str, game: str = "two") -> AgentSpec:
    """``parse_agent_spec`` (the one parser, for ``game``), with anything a user's class raises
    while it is built (its ``__init__`` failing) turned into a ValueError naming the agent."""
    try:
        return parse_agent_spec(text, game=game)
    except ValueError:
        raise
    except Exception as e:
        raise ValueError(f"cannot build agent {text!r}: {type(e).__name__}: {e}") from None


def run_task(task: Task, keep_deals: bool = False, decision_limit_s: float | None = None) -> TaskResult:
    """One arena task in this process: both agents built from their specs, refereed (a fault
    forfeits the deal by the most game points a deal gives), each decision within the limit."""
    agents = [ready_agent(spec, task.rules) for spec in task.specs]
    if decision_limit_s is not None:  # a user's bot in a thread of its own, so that a hang is cut short
        agents = [
            TimedAgent(a, decision_limit_s, repr(s)) if s.source else a for a, s in zip(agents, task.specs, strict=True)
        ]
    try:
        return play_task(
            task,
            (agents[0], agents[1]),
            forfeit_points=task.rules.max_game_points,
            keep_deals=keep_deals,
            decision_limit_s=decision_limit_s,
        )
    finally:
        for a in agents:
            if isinstance(a, TimedAgent):
                a.close()


_CLEAN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.+()-]{0,39}")


def bot_labels(specs: Sequence[AgentSpec], names: Sequence[object]) -> list[str]:
    """The tables' label of each agent: for a user's class named by its file or module (label
    still the spec text), its ``name`` with the spec's options (``mybot.py:MyBot:depth=2`` ->
    ``mybot:depth=2``). The text stays when the name is missing, not short plain text (letters,
    digits, `` _.+()-``, at most 40), a registered agent's name, or would repeat another label."""
    labels = [s.label for s in specs]
    taken = set(labels)
    registered = set(agent_names())
    for i, (spec, name) in enumerate(zip(specs, names, strict=True)):
        prefix = f"{spec.source}:{spec.attribute}"
        if not spec.source or not spec.label.startswith(prefix):
            continue
        if not isinstance(name, str) or not _CLEAN_NAME.fullmatch(name) or name in registered:
            continue
        label = name + spec.label[len(prefix) :]
        if label not in taken:
            taken.add(label)
            labels[i] = label
    return labels


def _progress_bar(total: int, desc: str):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="deal", desc=desc)
