"""Exact perfect-information search: minimax with alpha-beta pruning over a full ``Deal``.

The value of a position is the game points (``Deal.returns()``) the searching player ends the
deal with when both sides play perfectly with all cards face up. The search runs on the
reference engine (``clone`` + ``apply``), so every rule variant and explicit claiming are
searched exactly as the engine plays them. Two things keep it fast: a transposition table keyed
on the state that still matters (hands, points, stock, who is to act; not the move history), and
move ordering (going out, marriages and the exchange first, winning follow cards before losing
ones, high leads before low ones).

Measured on the reference engine: a phase-2 position (stock exhausted, 6 cards each) solves in
about 0.3-2 ms, so it is the endgame solver of PIMC, ISMCTS and :class:`AlphaBetaAgent`. A whole
deal from the first trick does not (a stock of 8 cards already takes about a second); for such
positions ``max_depth`` cuts the search and ``evaluate`` guesses the value at the horizon.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import CARD_POINTS, NUM_CARDS
from ..engine import FOLLOWER_WINS, GOAL, MARRIAGE_PAIR, Deal, Decision
from ..infostate import InfoState
from .base import only_choice
from .heuristic import heuristic_info_action, mask_points

__all__ = ["AlphaBetaAgent", "Solver", "solve", "solve_actions", "point_balance", "value_bound"]

Evaluator = Callable[[Deal, int], float]


def value_bound(deal: Deal) -> int:
    """The largest number of game points one deal can win or lose under ``deal.rules``."""
    return deal.rules.max_game_points


def point_balance(deal: Deal, player: int) -> float:
    """Horizon guess in game points: the counted-point lead over 33, capped at +-2."""
    diff = (deal.points[player] - deal.points[1 - player]) / 33
    return max(-2.0, min(2.0, diff))


def _key(d: Deal) -> tuple[object, ...]:
    """What decides the rest of the deal. History, trick count and known cards do not; of the trick
    counts only "has won a trick" matters (schwarz, marriage points, the exchange). The trump suit
    is fixed within a deal but kept, so that a :class:`Solver`'s table can serve other deals."""
    return (
        d.trump,
        d.hands[0],
        d.hands[1],
        d.current,
        d.decision,
        d.lead_card,
        d.points[0],
        d.points[1],
        d.pending[0],
        d.pending[1],
        d.tricks[0] > 0,
        d.tricks[1] > 0,
        d.closed_by,
        d.declared,
        d.just_closed,
        tuple(d.stock) if d.closed_by < 0 else len(d.stock) > 0,
        d.claim_chance[0],
        d.claim_chance[1],
        d.closed_opp_tricks > 0,
        d.closed_opp_points,
        d.closed_by >= 0 and d.tricks[d.closed_by] > d.closed_own_tricks,
    )


# Search order of the cards: for a lead, dearest first; for a follow to ``lead`` under ``trump``,
# the winning cards cheapest first, then the losing ones cheapest first.
_LEAD_RANK = tuple(-CARD_POINTS[c] * 4 + c // 6 for c in range(NUM_CARDS))
_FOLLOW_RANK = tuple(
    tuple(
        tuple((0 if FOLLOWER_WINS[t][lead * NUM_CARDS + c] else 100) + CARD_POINTS[c] for c in range(NUM_CARDS))
        for lead in range(NUM_CARDS)
    )
    for t in range(4)
)
_SPECIAL = (EXCHANGE, MARRIAGE, MARRIAGE + 1, MARRIAGE + 2, MARRIAGE + 3)
_LAST = (PASS, CLOSE, GO_OUT)
_CARDS = (1 << NUM_CARDS) - 1


def _ordered(d: Deal, mask: int) -> list[int]:
    """Legal actions, the likely best first (good ordering is most of alpha-beta's speed)."""
    first: list[int] = []
    if mask >> GO_OUT & 1 and d.points[d.current] >= GOAL:
        first.append(GO_OUT)  # usually best, but waiting for a richer win may be better: search the rest
        mask &= ~(1 << GO_OUT)
    if mask >> NUM_CARDS:
        first.extend(a for a in _SPECIAL if mask >> a & 1)
    cards = []
    m = mask & _CARDS
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    if len(cards) > 1:
        rank = _FOLLOW_RANK[d.trump][d.lead_card] if d.decision == Decision.FOLLOW else _LEAD_RANK
        cards.sort(key=rank.__getitem__)
    first.extend(cards)
    if mask >> CLOSE:  # close, pass and go out are bits 29-31: test from the lowest (close on lead)
        first.extend(a for a in _LAST if mask >> a & 1)
    return first


def _closer_cannot_make_it(d: Deal) -> bool:
    """After closing, a closer who cannot reach 66 even taking every card left (and declaring every
    marriage he holds) has failed: the value is known without search (RULES 2.9), unless the
    6-point rule still waits on whether the closer takes another trick (``failed_close_six``)."""
    c = d.closed_by
    six = d.rules.failed_close_six
    six_is_fixed = six == "or_opponent_no_trick" and d.closed_opp_tricks == 0
    if six != "never" and d.tricks[c] == d.closed_own_tricks and not six_is_fixed:
        return False
    most = d.points[c] + d.pending[c] + mask_points(d.hands[0] | d.hands[1])
    if d.lead_card >= 0:
        most += CARD_POINTS[d.lead_card]
    if d.rules.marriages_after_stock or d.just_closed:
        hand = d.hands[c]
        for s in range(4):
            if hand & MARRIAGE_PAIR[s] == MARRIAGE_PAIR[s]:
                most += 40 if s == d.trump else 20
    return most < GOAL


class _Search:
    """One search: the searcher, the optional depth limit, and the transposition table."""

    __slots__ = ("evaluate", "max_depth", "nodes", "player", "tt")

    def __init__(self, player: int, max_depth: int | None, evaluate: Evaluator) -> None:
        self.player = player
        self.max_depth = max_depth
        self.evaluate = evaluate
        self.tt: dict[tuple[object, ...], tuple[float, float]] = {}
        self.nodes = 0

    def value(self, d: Deal, alpha: float, beta: float, depth: int) -> float:
        """Minimax value of ``d`` for the searcher, within ``(alpha, beta)`` (fail-soft). ``d`` belongs
        to the search: forced moves are played on it in place and the last child reuses it."""
        self.nodes += 1
        limited = self.max_depth is not None
        while True:
            if d.outcome is not None:
                return d.outcome.returns()[self.player]
            if limited and depth <= 0:
                return self.evaluate(d, self.player)
            mask = d.legal_mask()
            if mask & (mask - 1):
                break
            d.apply(mask.bit_length() - 1)
            depth -= 1
        if d.closed_by >= 0 and _closer_cannot_make_it(d):
            fail = d._closer_fail_points()  # the engine's own scoring of a failed close
            return -fail if d.closed_by == self.player else fail
        key = (*_key(d), depth) if limited else _key(d)
        entry = self.tt.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        a0, b0 = alpha, beta
        maximizing = d.current == self.player
        best = -1e9 if maximizing else 1e9
        actions = _ordered(d, mask)
        last = len(actions) - 1
        for i, a in enumerate(actions):
            child = d if i == last else d.clone()
            child.apply(a)
            v = self.value(child, alpha, beta, depth - 1)
            if maximizing:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        lo, hi = entry if entry is not None else (-1e9, 1e9)
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        self.tt[key] = (lo, hi)
        return best


def _check(deal: Deal, player: int | None) -> int:
    if deal.outcome is not None:
        raise ValueError("cannot search a finished deal: it has no legal action")
    p = deal.current if player is None else player
    if p not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    return p


def solve_actions(
    deal: Deal, player: int | None = None, *, max_depth: int | None = None, evaluate: Evaluator = point_balance
) -> dict[int, float]:
    """The minimax value for ``player`` (default: the one to act) after each legal action.

    Exact with ``max_depth=None``; otherwise ``max_depth`` actions deep with ``evaluate(deal,
    player)`` at the horizon. One transposition table serves all the actions."""
    p = _check(deal, player)
    s = _Search(p, max_depth, evaluate)
    bound = value_bound(deal)
    out = {}
    depth = max_depth if max_depth is not None else 0
    for a in deal.legal_actions():
        child = deal.clone()
        child.apply(a)
        out[a] = s.value(child, -bound, bound, depth - 1)
    return out


def solve(
    deal: Deal, player: int | None = None, *, max_depth: int | None = None, evaluate: Evaluator = point_balance
) -> tuple[float, int]:
    """``(value, best_action)`` for the player to act, all cards face up; ``value`` is in game points
    for ``player`` (default: the player to act). Ties go to the first action in search order."""
    p = _check(deal, player)
    return Solver(p, max_depth=max_depth, evaluate=evaluate).solve(deal)


class Solver:
    """:func:`solve` with a transposition table that outlives one call: positions of the same deal
    (later decisions, the same deal replayed) reuse what earlier searches proved. Values are for
    ``player`` whoever is to act (zero-sum: the other player's value is the negation)."""

    def __init__(self, player: int = 0, *, max_depth: int | None = None, evaluate: Evaluator = point_balance) -> None:
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        self.player = player
        self.max_depth = max_depth
        self._search = _Search(player, max_depth, evaluate)

    @property
    def table_size(self) -> int:
        return len(self._search.tt)

    def solve(self, deal: Deal) -> tuple[float, int]:
        """``(value for player, best action for the one to act)``, as :func:`solve`."""
        _check(deal, self.player)
        s = self._search
        bound = value_bound(deal)
        maximizing = deal.current == self.player
        alpha: float = -bound
        beta: float = bound
        best_a = -1
        best = -1e9 if maximizing else 1e9
        depth = self.max_depth if self.max_depth is not None else 0
        for a in _ordered(deal, deal.legal_mask()):
            child = deal.clone()
            child.apply(a)
            # A window just past the best so far proves an action no better, cheaply; ties keep the first.
            v = s.value(child, alpha, beta, depth - 1)
            if (maximizing and v > best) or (not maximizing and v < best) or best_a < 0:
                best, best_a = v, a
                if maximizing:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
        return best, best_a


class AlphaBetaAgent:
    """The heuristic while any card is hidden, exact alpha-beta once the acting player can place
    every card (stock exhausted): the endgame solver on its own, a baseline for what search adds.

    (Searching a single determinized deal to a fixed depth with the point balance at the horizon
    was tried for the hidden-card phase: it lost 88% of deals to the plain heuristic, because one
    guess of the hidden cards misleads it, so the heuristic plays that phase.)"""

    name = "alphabeta"

    def act(self, info: InfoState, rng: random.Random) -> int:
        legal = info.legal_actions()
        forced = only_choice(info, legal)
        if forced is not None:
            return forced
        if info.unseen:
            return heuristic_info_action(info)
        return solve(info.sample(rng))[1]

    def __repr__(self) -> str:
        return "AlphaBetaAgent()"
