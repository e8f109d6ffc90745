"""Playing the schedule: one deal, and one task (consecutive matches over a block of deals).

Within a track the deals form consecutive matches to the rules' ``match_target``: each deal
starts with the match score (``Deal.new(..., scores=...)``), the next dealer follows the rules,
a new match starts when one reaches the target, and the first dealer of a block is seat
``block % 2`` in both tracks. A match still running when the block's deals are used up is
finished with extra deals (the same cards in both tracks), so no match is cut short.

Both the arena and the tournament referee (``forfeit_points``): a bot's fault on a decision (an
exception, an illegal action, a decision over the limit) loses it that deal by the most game points
a deal can give, the fault is recorded with the deal and the position, and play goes on.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agents import Agent
from ..agents.spec import AgentSpec
from ..engine import Deal
from ..rules import Rules
from .schedule import Task, agent_seed, deal_seeds, next_dealer

__all__ = ["BotFault", "Clock", "DealRecord", "FaultRecord", "MatchRecord", "TaskResult", "play_deal", "play_task"]


@dataclass(frozen=True)
class DealRecord:
    """One deal played: ``a_return`` is the game points of the pair's first agent (A).
    ``termination`` is ``"forfeit"`` when ``forfeit_by`` (a label) lost it by a fault."""

    pair: int
    block: int
    index: str
    track: int
    dealer_seat: int
    winner: str
    game_points: int
    termination: str
    a_return: int
    match: int
    closer: str = ""
    forfeit_by: str = ""


@dataclass(frozen=True)
class MatchRecord:
    """One match of a pair's block: who won and the final score, from A's side."""

    pair: int
    block: int
    track: int
    match: int
    deals: int
    score_a: int
    score_b: int

    @property
    def a_won(self) -> bool:
        return self.score_a > self.score_b


@dataclass(frozen=True)
class FaultRecord:
    """A forfeited deal: which bot (in which ``seat``), where (pair, deal index, track), why, and
    the position (``Deal.to_notation``: both hands and the actions so far) at the faulty decision."""

    pair: int
    block: int
    index: str
    track: int
    bot: str
    opponent: str
    reason: str
    position: str
    seat: int = 0


@dataclass
class Clock:
    """Decision times per seat: CPU seconds (the bot's own report, else this process's), wall
    seconds (how long the referee waited), answered decisions and the slowest wall time."""

    cpu: list[float] = field(default_factory=lambda: [0.0, 0.0])
    wall: list[float] = field(default_factory=lambda: [0.0, 0.0])
    count: list[int] = field(default_factory=lambda: [0, 0])
    slowest: list[float] = field(default_factory=lambda: [0.0, 0.0])


@dataclass
class TaskResult:
    """What one worker task (a block of duplicate deals of one pair) played: its deals, matches and timings."""

    deals: list[DealRecord] = field(default_factory=list)
    matches: list[MatchRecord] = field(default_factory=list)
    faults: list[FaultRecord] = field(default_factory=list)
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # CPU, per agent of the pair (A, B)
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    played: list[Deal] = field(default_factory=list)  # the finished deals, kept for game records
    wall_seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # per agent of the pair (A, B)
    slowest_wall: list[float] = field(default_factory=lambda: [0.0, 0.0])  # one decision, per agent
    corrections: list[float] = field(default_factory=list)
    """With ``task.reduce``: each deal's draw correction for A (:mod:`.variance`), in ``deals`` order."""


_LOCAL = object()


class BotFault(Exception):
    """A bot failed on one decision (raised, timed out, died); the message says how."""


def play_deal(
    deal: Deal,
    agents: Sequence[Agent],
    rngs: Sequence[random.Random],
    clock: Clock | None = None,
) -> Deal:
    """Play ``deal`` to its end, seat ``p`` acting through ``agents[p]`` on its own view only;
    ``clock`` accumulates decision times per seat.

    Raises ``ValueError`` naming the agent when one returns an illegal action."""
    while deal.outcome is None:
        p = deal.current
        action, _ = _decide(deal, p, agents[p], rngs[p], clock)
        if not deal.is_legal(action):
            raise ValueError(
                f"agent {agents[p].name!r} (seat {p}) chose illegal action {action!r} in {deal.describe()}"
            )
        deal.apply(action)
    return deal


def _decide(deal: Deal, p: int, agent: Agent, rng: random.Random, clock: Clock | None) -> tuple[int, float | None]:
    """The agent's action and the wall seconds it took (None when it did not answer)."""
    info = deal.information_state(p)
    start, wall = time.process_time(), time.perf_counter()
    answered = False
    try:
        action = agent.act(info, rng)
        answered = True
    finally:
        # a bot in another process or thread reports its own CPU time (None: it never answered)
        # and, in a thread, its wall time without the hand-over; else this process's times
        reported: Any = getattr(agent, "last_seconds", _LOCAL)  # a bot's own CPU seconds, or None, if it times itself
        spent: float | None = reported
        if reported is _LOCAL:
            spent = time.process_time() - start if answered else None
        waited = getattr(agent, "last_wall", None) if spent is not None else None
        if spent is not None and waited is None:
            waited = time.perf_counter() - wall
        if clock is not None and spent is not None and waited is not None:
            clock.cpu[p] += spent
            clock.wall[p] += waited
            clock.count[p] += 1
            clock.slowest[p] = max(clock.slowest[p], waited)
    return action, waited


def _refereed_deal(
    deal: Deal,
    agents: Sequence[Agent],
    rngs: Sequence[random.Random],
    clock: Clock,
    limit_s: float | None = None,
) -> tuple[int, str] | None:
    """Play ``deal`` to its end or to the first fault: ``(seat, reason)`` of the faulty bot.
    ``limit_s``: the most wall seconds a decision may take (checked once it is answered)."""
    while deal.outcome is None:
        p = deal.current
        try:
            action, waited = _decide(deal, p, agents[p], rngs[p], clock)
        except BotFault as e:
            return p, str(e)
        except (Exception, SystemExit) as e:  # a bot calling exit() forfeits too
            return p, f"raised {type(e).__name__}: {e}"
        if limit_s is not None and waited is not None and waited > limit_s:
            return p, f"took {waited:.3g} s over one decision (limit {limit_s:g} s)"
        if not deal.is_legal(action):
            legal = ", ".join(map(str, deal.legal_actions()))
            return p, f"returned illegal action {action!r} (legal: {legal})"
        deal.apply(action)
    return None


def play_task(
    task: Task,
    agents: tuple[Agent, Agent],
    *,
    forfeit_points: int | None = None,
    keep_deals: bool = False,
    on_deal: Callable[[], None] | None = None,
    decision_limit_s: float | None = None,
) -> TaskResult:
    """Play one task with ``agents`` = (A, B). With ``forfeit_points`` a bot's fault (exception,
    illegal action, :class:`BotFault`, a decision over ``decision_limit_s`` wall seconds) loses it
    the deal by that many game points, and play goes on; without, it stops the run. ``keep_deals``
    keeps the finished deals (for game records); ``on_deal`` is called after every deal (progress)."""
    rules = task.rules
    a_seat = task.a_seat
    seats = (agents[0], agents[1]) if a_seat == 0 else (agents[1], agents[0])
    labels = task.seat_labels()
    rngs = (random.Random(agent_seed(task, 0)), random.Random(agent_seed(task, 1)))
    out = TaskResult()
    clock = Clock()
    if task.reduce:
        from .own_playouts import own_correction

        if task.reduce != "own":  # the batched engine's playouts: numba only here
            from .variance import draw_correction, playout_nets

            nets = playout_nets(seats, rules) if task.reduce == "agents" else (None, None)
    dealer = task.block % 2
    scores = [0, 0]
    carry = 0
    match = 0
    match_deals = 0
    for played, deck_seed in enumerate(deal_seeds(task.seed, task.block, task.start, task.size)):
        if played >= task.size and match_deals == 0:
            break
        deal = Deal.new(rules, random.Random(deck_seed), dealer=dealer, scores=(scores[0], scores[1]))
        index = deck_seed.split("/", 1)[1]
        fault = None
        if forfeit_points is None:
            play_deal(deal, seats, rngs, clock)
        else:
            fault = _refereed_deal(deal, seats, rngs, clock, decision_limit_s)
        if fault is not None:
            if forfeit_points is None:  # only a refereed deal (forfeit_points given) reports a fault
                raise RuntimeError(f"deal {index}: a fault in a deal played without forfeits")
            seat, reason = fault
            w, game_points, termination = 1 - seat, forfeit_points, "forfeit"
            out.faults.append(
                FaultRecord(
                    task.pair, task.block, index, task.track, labels[seat], labels[w], reason, deal.describe(), seat
                )
            )
        else:
            outcome = deal.outcome
            assert outcome is not None
            w, game_points, termination = outcome.winner, outcome.game_points, outcome.termination.name.lower()
        match_deals += 1
        if w >= 0:
            scores[w] += game_points + carry
            carry = 0
        elif rules.drawn_deal == "carry":
            carry += 1
        ret = 0 if w < 0 else (game_points if w == a_seat else -game_points)
        out.deals.append(
            DealRecord(
                pair=task.pair,
                block=task.block,
                index=index,
                track=task.track,
                dealer_seat=dealer,
                winner=labels[w] if w >= 0 else "draw",
                game_points=game_points,
                termination=termination,
                a_return=ret,
                match=match,
                closer=labels[deal.closed_by] if deal.closed_by >= 0 else "",
                forfeit_by=labels[fault[0]] if fault is not None else "",
            )
        )
        if task.reduce:  # the same Monte Carlo seed in both tracks of a deal: their noise cancels
            mc_seed = zlib.crc32(deck_seed.encode())
            if task.reduce == "own":  # the agents play outside the referee here: a failure ends the run, named
                try:
                    out.corrections.append(own_correction(deal, a_seat, seats, seed=mc_seed))
                except Exception as e:
                    raise RuntimeError(
                        f"deal {index}: an agent raised {type(e).__name__} in the playouts of --reduce-playouts "
                        f"own ({e}); give --reduce-playouts agents for bots that may fail"
                    ) from e
            else:
                out.corrections.append(draw_correction(deal, a_seat, seed=mc_seed, nets=nets))
        if keep_deals:
            out.played.append(deal)
        if on_deal is not None:
            on_deal()
        dealer = next_dealer(rules, dealer, w)
        if max(scores) >= rules.match_target:
            out.matches.append(
                MatchRecord(task.pair, task.block, task.track, match, match_deals, scores[a_seat], scores[1 - a_seat])
            )
            scores = [0, 0]
            carry = 0
            match += 1
            match_deals = 0
    sides = (a_seat, 1 - a_seat)
    out.seconds = [clock.cpu[s] for s in sides]
    out.wall_seconds = [clock.wall[s] for s in sides]
    out.decisions = [clock.count[s] for s in sides]
    out.slowest_wall = [clock.slowest[s] for s in sides]
    return out


def ready_agent(spec: AgentSpec, rules: Rules) -> Any:
    """The agent of ``spec``, with its optional one-off ``prepare(rules)`` done (compiling a search),
    so that set-up is not counted as the time of its first decision."""
    agent = spec.make()
    prepare = getattr(agent, "prepare", None)
    if callable(prepare):
        prepare(rules)
    return agent
