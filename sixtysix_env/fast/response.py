"""Best response to the heuristic on the batched engine's state rows, in numba.

:mod:`sixtysix_env.agents.response` is the specification: the searching player's moves are
searched with every card face up, the opponent's are the heuristic's (``fast.heuristic``, itself
checked move for move against the Python one), and a position's value is the best result the
searcher reaches. ``tests/test_response.py`` checks that both give the same values.

A table of exact values (keyed as the alpha-beta solver's, plus what else the heuristic reads: the
cards already out and the stock's bottom card) lets transpositions of the searcher's moves share their
subtrees; it is kept between calls, so a PIMC decision's samples share it too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import Deal
from ..rules import Rules, get_rules
from . import kernels as K
from .heuristic import heuristic_action
from .solver import _K1, _hash, _mix, _order, row_of
from .state import (
    CURRENT,
    GAME_POINTS,
    HAND,
    NUM_FIELDS,
    RUNNING,
    STOCK,
    STOCK_LEN,
    TERMINATION,
    WINNER,
    WON,
    encode_rules,
)

__all__ = ["FastResponse", "warm_up"]

_RECURSIVE_JIT = {"cache": False, "nogil": True, "_nrt": False}  # as solver.py: recursion is not cached
_MAX_DEPTH = 64


@njit(**_RECURSIVE_JIT)
def _respond(S, depth, R, me, bound, tk1, tk2, tv, order, stats):
    """Value for ``me`` of row ``S[depth]`` (played on in place): ``me`` searches, the other plays
    the heuristic."""
    stats[0] += 1
    s = S[depth]
    while True:
        if s[TERMINATION] != RUNNING:
            w = s[WINNER]
            if w < 0:
                return 0
            return s[GAME_POINTS] if w == me else -s[GAME_POINTS]
        if s[CURRENT] != me:
            K.apply_action(s, R, heuristic_action(s, R))
            continue
        mask = K.legal_mask(s)
        if mask & (mask - 1):
            break
        K.apply_action(s, R, K.popcount(mask - 1))
    # the heuristic also reads the cards out and the stock's bottom card, which the key leaves out
    h1 = _mix(_hash(s, _K1), np.int64(s[WON]) | np.int64(s[WON + 1]), _K1)
    h1 = _mix(h1, s[STOCK] if s[STOCK_LEN] > 0 else -1, _K1)
    # only ``me``'s positions are stored, so the player to act also says whose search it was
    h2 = np.uint64(s[HAND]) | (np.uint64(s[HAND + 1]) << np.uint64(24)) | (np.uint64(s[CURRENT]) << np.uint64(48))
    slot = np.int64(h1 & np.uint64(tk1.shape[0] - 1))
    if tk1[slot] == h1 and tk2[slot] == h2:
        return np.int64(tv[slot])
    moves = order[depth]
    n = _order(s, mask, moves)
    child = S[depth + 1]
    best = -1000
    for i in range(n):
        for f in range(s.shape[0]):
            child[f] = s[f]
        K.apply_action(child, R, moves[i])
        v = _respond(S, depth + 1, R, me, bound, tk1, tk2, tv, order, stats)
        if v > best:
            best = v
            if best >= bound:  # nothing beats the most a deal can win
                break
    tk1[slot] = h1
    tk2[slot] = h2
    tv[slot] = best
    return best


@njit(**_RECURSIVE_JIT)
def _action_values(S, R, me, bound, tk1, tk2, tv, order, stats, actions, values, child):
    """Values for ``me`` (to act in ``S[0]``) after each legal action into ``actions``/``values``."""
    s = S[0]
    n = _order(s, K.legal_mask(s), actions)
    for i in range(n):
        for f in range(s.shape[0]):
            child[f] = s[f]
        K.apply_action(child, R, actions[i])
        for f in range(s.shape[0]):
            S[1, f] = child[f]
        values[i] = _respond(S, 1, R, me, bound, tk1, tk2, tv, order, stats)
    return n


class FastResponse:
    """Best-response values against the heuristic for deals of one ruleset (the ``_Exact``
    protocol of PIMC: ``action_values``, ``value``, ``row_value``), with a table kept between calls."""

    def __init__(self, rules: str | Rules | None = None, table_bits: int = 18) -> None:
        if not isinstance(table_bits, int) or not 10 <= table_bits <= 28:
            raise ValueError(f"table_bits={table_bits!r} is not allowed: give an int from 10 to 28")
        self.rules = get_rules(rules)
        self._R = encode_rules(self.rules)
        self._bound = int(self.rules.max_game_points)
        size = 1 << table_bits
        self._tk1 = np.zeros(size, dtype=np.uint64)
        self._tk2 = np.zeros(size, dtype=np.uint64)
        self._tv = np.zeros(size, dtype=np.int8)
        self._S = np.zeros((_MAX_DEPTH, NUM_FIELDS), dtype=np.int32)
        self._order = np.zeros((_MAX_DEPTH, 32), dtype=np.int64)
        self._actions = np.zeros(32, dtype=np.int64)
        self._values = np.zeros(32, dtype=np.int64)
        self._child = np.zeros(NUM_FIELDS, dtype=np.int32)
        self._stats = np.zeros(1, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Positions searched by every call so far."""
        return int(self._stats[0])

    def _check(self, deal: Deal) -> None:
        if not isinstance(deal, Deal):
            raise TypeError(f"the search reads a full Deal, got {type(deal).__name__}")
        if deal.rules != self.rules:
            raise ValueError(f"this search is for the {self.rules.name!r} rules, the deal plays {deal.rules.name!r}")
        if deal.outcome is not None:
            raise ValueError("cannot search a finished deal: it has no legal action")

    def action_values(self, deal: Deal) -> dict[int, int]:
        """Game points for the player to act after each legal action (``response_values``)."""
        self._check(deal)
        self._S[0] = row_of(deal)
        n = _action_values(
            self._S, self._R, deal.current, self._bound, self._tk1, self._tk2, self._tv,
            self._order, self._stats, self._actions, self._values, self._child,
        )  # fmt: skip
        return {int(self._actions[i]): int(self._values[i]) for i in range(n)}

    def row_value(self, row: np.ndarray, player: int) -> int:
        """The value for ``player`` of a running deal given as its state row (``row_of``)."""
        self._S[0] = row
        return int(
            _respond(self._S, 0, self._R, player, self._bound, self._tk1, self._tk2, self._tv, self._order, self._stats)
        )

    def value(self, deal: Deal, player: int | None = None) -> int:
        """The value of ``deal`` for ``player`` (default: to act): ``response_value``."""
        p = deal.current if player is None else player
        if p not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        if deal.outcome is not None:
            return int(deal.returns()[p])
        return self.row_value(row_of(deal), p)


def warm_up(search: FastResponse) -> None:
    """Compile the search (about 5 s, the first call in a process) on a phase-2 position."""
    import random

    deal = Deal.new(search.rules, random.Random(0), dealer=0)
    while deal.outcome is None and (deal.stock_open or len(deal.legal_actions()) < 2):
        deal.apply(deal.legal_actions()[0])
    if deal.outcome is not None:
        return
    search.action_values(deal)
