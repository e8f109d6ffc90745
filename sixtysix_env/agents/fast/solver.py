"""Exact perfect-information search on the batched engine's state rows: alpha-beta in numba.

The same search as :mod:`sixtysix_env.agents.alphabeta` (minimax of the game points, every card
face up, a transposition table keyed on what still decides the deal, the same move ordering and
the same early stop for a closer who can no longer reach 66), but each node is one int32 row
stepped by the batched engine's kernels (``kernels.apply_action``) instead of a cloned
:class:`~sixtysix_env.engine.Deal`. It is a second implementation of a search, not of the rules:
the rules are the kernels, themselves checked step by step against the reference engine, and
``tests/test_fast_solver.py`` checks that both searches give the same values.

Why: the reference search takes seconds per standard deal from the first trick; this one takes
milliseconds, which is what makes an exact oracle over thousands of deals, and determinized search
that solves every sample exactly, affordable.

The table is an array of 2**table_bits entries in buckets of two (the first way keeps the entry
that cost more nodes, the second takes the newest); an entry is checked against a 64-bit hash
of the key and against both hands and the player to act, so a wrong hit needs a hash collision
between positions with the same hands. It also remembers each position's best move, searched
first next time. Values are stored from player 0's side, so one table serves every search of the
same rules, whoever is to act.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from numba import njit

from ...actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ...cards import CARD_POINTS
from ...engine import FOLLOWER_WINS, GOAL, MARRIAGE_PAIR, Deal
from ...fast import kernels as K
from ...fast.rows import row_of
from ...fast.state import (
    CLAIM,
    CLOSED_BY,
    CLOSED_OPP_POINTS,
    CLOSED_OPP_TRICKS,
    CLOSED_OWN_TRICKS,
    CURRENT,
    DECISION,
    DECLARED,
    FOLLOW,
    GAME_POINTS,
    HAND,
    JUST_CLOSED,
    LEAD_CARD,
    NUM_FIELDS,
    PENDING,
    POINTS,
    R_FAILED_CLOSE_SIX,
    R_MARRIAGES_AFTER_STOCK,
    RUNNING,
    SIX_NEVER,
    SIX_OR_OPPONENT_NO_TRICK,
    STOCK,
    STOCK_LEN,
    TERMINATION,
    TRICKS,
    TRUMP,
    WINNER,
    encode_rules,
)
from ...rules import Rules, get_rules

__all__ = ["FastSolver", "RowSearch", "row_of", "settled_position", "warm_up"]

KERNELS_DIGEST = "993906ee7abee8e4"
"""``digest.source_digest`` of ``kernels.py``, whose functions numba compiles into this file's
cached ones: a new ``kernels.py`` must change this line (a test checks it; ``fast/digest.py``)."""

_JIT: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
_RECURSIVE_JIT: dict[str, Any] = {"cache": False, "nogil": True, "_nrt": False}
"""numba's cache does not reload a recursive function correctly (the cached search crashed the
process when loaded): the search and its callers compile at first use (about 5 s) instead."""
_MAX_DEPTH = 64
_EMPTY = np.int8(127)
_LO_UNKNOWN = -100
_HI_UNKNOWN = 100

_CARD_POINTS = np.array(CARD_POINTS, dtype=np.int64)
_MARRIAGE_PAIR = np.array(MARRIAGE_PAIR, dtype=np.int64)
_FOLLOWER_WINS = np.array(FOLLOWER_WINS, dtype=np.bool_)
_LEAD_RANK = np.array([-CARD_POINTS[c] * 4 + c // 6 for c in range(24)], dtype=np.int64)
_SPECIAL = np.array([EXCHANGE, MARRIAGE, MARRIAGE + 1, MARRIAGE + 2, MARRIAGE + 3], dtype=np.int64)
_LAST = np.array([PASS, CLOSE, GO_OUT], dtype=np.int64)
_K1 = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S29 = np.uint64(29)
_S32 = np.uint64(32)


# ---------------------------------------------------------------------------- the key
@njit(**_JIT)
def _mix(h, v, k):
    """Fold one key field into a 64-bit hash (splitmix-style finaliser per field)."""
    z = (h ^ np.uint64(v & 0xFFFFFFFF)) * k + _M1
    z = (z ^ (z >> _S29)) * _M2
    return z ^ (z >> _S32)


@njit(**_JIT)
def _hash(s, k):
    """A hash of what decides the rest of the deal, as ``alphabeta._key`` (history, trick count
    and known cards do not; of the trick counts only "has won a trick" matters; the trump suit
    does, since one table serves many deals)."""
    closed = s[CLOSED_BY]
    h = np.uint64(0x243F6A8885A308D3)
    h = _mix(h, s[HAND], k)
    h = _mix(h, s[HAND + 1], k)
    # the trump suit too: it is the same throughout a deal, but the table outlives deals
    turn = s[CURRENT] | (s[DECISION] << 2) | ((s[LEAD_CARD] + 1) << 5) | ((s[DECLARED] + 1) << 10)
    h = _mix(h, turn | (s[TRUMP] << 13), k)
    h = _mix(h, s[POINTS] | (s[POINTS + 1] << 8) | (s[PENDING] << 16) | (s[PENDING + 1] << 24), k)
    flags = (
        (1 if s[TRICKS] > 0 else 0)
        | ((1 if s[TRICKS + 1] > 0 else 0) << 1)
        | ((closed + 1) << 2)
        | (s[JUST_CLOSED] << 4)
        | (s[CLAIM] << 5)
        | (s[CLAIM + 1] << 6)
        | ((1 if s[CLOSED_OPP_TRICKS] > 0 else 0) << 7)
        | (s[CLOSED_OPP_POINTS] << 8)
    )
    if closed >= 0 and s[TRICKS + closed] > s[CLOSED_OWN_TRICKS]:
        flags |= 1 << 16
    h = _mix(h, flags, k)
    n = s[STOCK_LEN]
    if closed < 0:
        h = _mix(h, n, k)
        for i in range(n):
            h = _mix(h, s[STOCK + i], k)
    else:
        h = _mix(h, 1 if n > 0 else 0, k)
    return h


# ---------------------------------------------------------------------------- the search
@njit(**_JIT)
def _copy(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(**_JIT)
def _outcome_value(s):
    """Game points of a finished deal for player 0."""
    w = s[WINNER]
    if w < 0:
        return 0
    return s[GAME_POINTS] if w == 0 else -s[GAME_POINTS]


@njit(**_JIT)
def _card_points(cards):
    total = 0
    m = cards
    while m:
        low = m & -m
        total += _CARD_POINTS[K.popcount(low - 1)]
        m ^= low
    return total


@njit(**_JIT)
def _closer_cannot_make_it(s, R):
    """``alphabeta._closer_cannot_make_it`` on a row."""
    c = s[CLOSED_BY]
    six = R[R_FAILED_CLOSE_SIX]
    six_is_fixed = six == SIX_OR_OPPONENT_NO_TRICK and s[CLOSED_OPP_TRICKS] == 0
    if six != SIX_NEVER and s[TRICKS + c] == s[CLOSED_OWN_TRICKS] and not six_is_fixed:
        return False
    most = s[POINTS + c] + s[PENDING + c] + _card_points(np.int64(s[HAND]) | np.int64(s[HAND + 1]))
    if s[LEAD_CARD] >= 0:
        most += _CARD_POINTS[s[LEAD_CARD]]
    if R[R_MARRIAGES_AFTER_STOCK] != 0 or s[JUST_CLOSED] != 0:
        hand = np.int64(s[HAND + c])
        for suit in range(4):
            if hand & _MARRIAGE_PAIR[suit] == _MARRIAGE_PAIR[suit]:
                most += 40 if suit == s[TRUMP] else 20
    return most < GOAL


@njit(**_JIT)
def _rank(follow, trump, lead, c):
    """Search rank of card ``c``: for a lead, dearest first; for a follow, the winning cards
    cheapest first, then the losing ones cheapest first (``alphabeta._LEAD_RANK``/``_FOLLOW_RANK``)."""
    if follow:
        return (0 if _FOLLOWER_WINS[trump, lead * 24 + c] else 100) + _CARD_POINTS[c]
    return _LEAD_RANK[c]


@njit(**_JIT)
def _order(s, mask, out):
    """Legal actions into ``out``, the likely best first (``alphabeta._ordered``); returns the count."""
    n = 0
    if (mask >> GO_OUT) & 1 and s[POINTS + s[CURRENT]] >= GOAL:
        out[n] = GO_OUT
        n += 1
        mask &= ~(np.int64(1) << GO_OUT)
    if mask >> 24:
        for a in _SPECIAL:
            if (mask >> a) & 1:
                out[n] = a
                n += 1
    first_card = n
    m = mask & 0xFFFFFF
    while m:
        low = m & -m
        out[n] = K.popcount(low - 1)
        n += 1
        m ^= low
    if n - first_card > 1:  # insertion sort of the cards by search rank
        follow = s[DECISION] == FOLLOW
        lead = s[LEAD_CARD]
        t = s[TRUMP]
        for i in range(first_card + 1, n):
            c = out[i]
            rc = _rank(follow, t, lead, c)
            j = i - 1
            while j >= first_card:
                d = out[j]
                if _rank(follow, t, lead, d) <= rc:
                    break
                out[j + 1] = d
                j -= 1
            out[j + 1] = c
    if mask >> CLOSE:
        for a in _LAST:
            if (mask >> a) & 1:
                out[n] = a
                n += 1
    return n


@njit(**_RECURSIVE_JIT)
def _value(S, depth, R, alpha, beta, tk1, tk2, tlo, thi, tw, tm, order, stats):
    """Minimax value for player 0 of the row ``S[depth]`` within ``(alpha, beta)``, fail-soft.
    The row belongs to the search: forced moves are played on it in place."""
    stats[0] += 1
    start = stats[0]
    s = S[depth]
    while True:
        if s[TERMINATION] != RUNNING:
            return _outcome_value(s)
        mask = K.legal_mask(s)
        if mask & (mask - 1):
            break
        K.apply_action(s, R, K.popcount(mask - 1))
    if s[CLOSED_BY] >= 0 and _closer_cannot_make_it(s, R):
        fail = K._closer_fail_points(s, R)
        return -fail if s[CLOSED_BY] == 0 else fail
    h1 = _hash(s, _K1)
    h2 = np.uint64(s[HAND]) | (np.uint64(s[HAND + 1]) << np.uint64(24)) | (np.uint64(s[CURRENT]) << np.uint64(48))
    size = tk1.shape[0]
    slot = np.int64(h1 & np.uint64(size - 2))  # a bucket of two: [even, odd]
    lo = _LO_UNKNOWN
    hi = _HI_UNKNOWN
    hit = -1
    first = -1
    if tk1[slot] == h1 and tk2[slot] == h2:
        hit = slot
    elif tk1[slot + 1] == h1 and tk2[slot + 1] == h2:
        hit = slot + 1
    if hit >= 0:
        first = tm[hit]
        lo = np.int64(tlo[hit])
        hi = np.int64(thi[hit])
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
    a0 = alpha
    b0 = beta
    maximizing = s[CURRENT] == 0
    best = -1000 if maximizing else 1000
    moves = order[depth]
    n = _order(s, mask, moves)
    if first > 0:  # the move that was best here before goes first
        for i in range(1, n):
            if moves[i] == first:
                moves[i] = moves[0]
                moves[0] = first
                break
    child = S[depth + 1]
    best_move = moves[0]
    for i in range(n):
        _copy(child, s)
        K.apply_action(child, R, moves[i])
        v = _value(S, depth + 1, R, alpha, beta, tk1, tk2, tlo, thi, tw, tm, order, stats)
        if maximizing:
            if v > best:
                best = v
                best_move = moves[i]
                alpha = max(alpha, v)
        elif v < best:
            best = v
            best_move = moves[i]
            beta = min(beta, v)
        if alpha >= beta:
            break
    if best <= a0:
        hi = best
    elif best >= b0:
        lo = best
    else:
        lo = best
        hi = best
    nodes = stats[0] - start
    if hit < 0:  # keep the entry that cost more to find in the first way; the second always takes the new one
        hit = slot if nodes >= tw[slot] else slot + 1
    tk1[hit] = h1
    tk2[hit] = h2
    tlo[hit] = lo
    thi[hit] = hi
    tw[hit] = min(nodes, 2**31 - 1)
    tm[hit] = best_move
    return best


@njit(**_RECURSIVE_JIT)
def _exact(S, depth, row, R, lo, hi, tk1, tk2, tlo, thi, tw, tm, order, stats):
    """The exact value for player 0 of ``row``, known to lie in ``[lo, hi]``: a binary search of
    null-window tests (values are a few integers, and a null window prunes far more than a wide one)."""
    while lo < hi:
        t = (lo + hi + 1) // 2  # is the value >= t?
        _copy(S[depth], row)
        v = _value(S, depth, R, t - 1, t, tk1, tk2, tlo, thi, tw, tm, order, stats)
        if v >= t:
            lo = v
        else:
            hi = v
    return lo


@njit(**_RECURSIVE_JIT)
def _action_values(S, R, bound, tk1, tk2, tlo, thi, tw, tm, order, stats, actions, values, exact, child):
    """Values for player 0 after each of the root's legal actions (in search order) into
    ``actions``/``values``; returns their count. ``exact=False`` only proves the others no better
    than the best so far (enough to find a best action, cheaper); ``True`` gives every value."""
    s = S[0]
    n = _order(s, K.legal_mask(s), actions)
    maximizing = s[CURRENT] == 0
    best = 0
    for i in range(n):
        _copy(child, s)
        K.apply_action(child, R, actions[i])
        if exact or i == 0:
            v = _exact(S, 1, child, R, -bound, bound, tk1, tk2, tlo, thi, tw, tm, order, stats)
        elif maximizing:  # better than best? one null-window test, then the exact value if so
            _copy(S[1], child)
            v = _value(S, 1, R, best, best + 1, tk1, tk2, tlo, thi, tw, tm, order, stats)
            if v > best:
                v = _exact(S, 1, child, R, best + 1, bound, tk1, tk2, tlo, thi, tw, tm, order, stats)
        else:
            _copy(S[1], child)
            v = _value(S, 1, R, best - 1, best, tk1, tk2, tlo, thi, tw, tm, order, stats)
            if v < best:
                v = _exact(S, 1, child, R, -bound, best - 1, tk1, tk2, tlo, thi, tw, tm, order, stats)
        values[i] = v
        if i == 0 or (maximizing and v > best) or (not maximizing and v < best):
            best = v
    return n


# ---------------------------------------------------------------------------- the API
class RowSearch:
    """What the numba searches on state rows share (this solver, ``agents.fast.response``): one ruleset,
    the two key columns of a ``table_bits`` table (each subclass adds its value columns), a stack
    of rows and move buffers for the recursion, a node count, the checks on a root deal, and
    ``value`` through the subclass's ``row_value``."""

    def __init__(self, rules: str | Rules | None, table_bits: int) -> None:
        if not isinstance(table_bits, int) or not 10 <= table_bits <= 28:
            raise ValueError(f"table_bits={table_bits!r} is not allowed: give an int from 10 to 28")
        self.rules = get_rules(rules)
        self._R = encode_rules(self.rules)
        self._bound = int(self.rules.max_game_points)
        self._size = 1 << table_bits
        self._tk1 = np.zeros(self._size, dtype=np.uint64)
        self._tk2 = np.zeros(self._size, dtype=np.uint64)
        self._S = np.zeros((_MAX_DEPTH, NUM_FIELDS), dtype=np.int32)
        self._order = np.zeros((_MAX_DEPTH, 32), dtype=np.int64)
        self._actions = np.zeros(32, dtype=np.int64)
        self._values = np.zeros(32, dtype=np.int64)
        self._stats = np.zeros(1, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Positions visited by every search so far."""
        return int(self._stats[0])

    def _root(self, deal: Deal) -> None:
        if not isinstance(deal, Deal):
            raise TypeError(f"the search reads a full Deal, got {type(deal).__name__}")
        if deal.rules != self.rules:
            raise ValueError(f"this search is for the {self.rules.name!r} rules, the deal plays {deal.rules.name!r}")
        if deal.outcome is not None:
            raise ValueError("cannot search a finished deal: it has no legal action")
        self._S[0] = row_of(deal)

    def row_value(self, row: np.ndarray, player: int) -> int:
        """The value for ``player`` of a running deal given as its state row (``row_of``)."""
        raise NotImplementedError

    def value(self, deal: Deal, player: int | None = None) -> int:
        """The value of ``deal`` in game points for ``player`` (default: to act)."""
        p = deal.current if player is None else player
        if p not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        if deal.outcome is not None:
            return int(deal.returns()[p])
        self._root(deal)
        return self.row_value(self._S[0], p)


class FastSolver(RowSearch):
    """Exact perfect-information values and moves for deals of one ruleset, with a transposition
    table kept between calls (positions of the same deal, and of other deals, share it safely:
    the key is the whole position). ``table_bits=22`` holds 4 Mi entries (72 MiB)."""

    def __init__(self, rules: str | Rules | None = None, table_bits: int = 22) -> None:
        super().__init__(rules, table_bits)
        self._tlo = np.zeros(self._size, dtype=np.int8)
        self._thi = np.zeros(self._size, dtype=np.int8)
        self._tw = np.zeros(self._size, dtype=np.int32)
        self._tm = np.zeros(self._size, dtype=np.int8)
        self._child = np.zeros(NUM_FIELDS, dtype=np.int32)

    def clear(self) -> None:
        """Forget the table (memory stays allocated)."""
        self._tk1[:] = 0
        self._tk2[:] = 0
        self._tw[:] = 0

    def _search(self, exact: bool) -> int:
        return int(
            _action_values(
                self._S,
                self._R,
                self._bound,
                self._tk1,
                self._tk2,
                self._tlo,
                self._thi,
                self._tw,
                self._tm,
                self._order,
                self._stats,
                self._actions,
                self._values,
                exact,
                self._child,
            )
        )

    def action_values(self, deal: Deal) -> dict[int, int]:
        """The exact value, in game points for the player to act, after each legal action."""
        self._root(deal)
        n = self._search(True)
        sign = 1 if deal.current == 0 else -1
        return {int(self._actions[i]): sign * int(self._values[i]) for i in range(n)}

    def solve(self, deal: Deal) -> tuple[int, int]:
        """``(value for the player to act, an optimal action)``; ties go to the first in search order."""
        self._root(deal)
        return self._best(deal.current)

    def row_value(self, row: np.ndarray, player: int) -> int:
        """``value`` of a running deal given as its state row (``row_of``, or a kernel's row of
        these rules), for ``player``: saves the trip back to a ``Deal`` inside fast loops."""
        self._S[0] = row
        current = int(row[CURRENT])
        v, _ = self._best(current)
        return v if player == current else -v

    def _best(self, current: int) -> tuple[int, int]:
        n = self._search(False)
        sign = 1 if current == 0 else -1
        best_i = 0
        for i in range(1, n):
            if sign * self._values[i] > sign * self._values[best_i]:
                best_i = i
        return sign * int(self._values[best_i]), int(self._actions[best_i])


def settled_position(rules: Rules) -> Deal | None:
    """A small position to compile a search on: the first with the stock settled and a choice to
    make, reached by always playing the first legal action (None if the deal ends first)."""
    deal = Deal.new(rules, random.Random(0), dealer=0)
    while deal.outcome is None and (deal.stock_open or len(deal.legal_actions()) < 2):
        deal.apply(deal.legal_actions()[0])
    return deal if deal.outcome is None else None


def warm_up(solver: FastSolver) -> None:
    """Compile the search (the first call in a process) on a small position of the solver's rules."""
    deal = settled_position(solver.rules)
    if deal is not None:
        solver.solve(deal)
