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

from typing import Any

import numpy as np
from numba import njit

from ...engine import Deal
from ...fast import kernels as K
from ...fast.heuristic import heuristic_action
from ...fast.state import CURRENT, GAME_POINTS, HAND, RUNNING, STOCK, STOCK_LEN, TERMINATION, WINNER, WON
from ...rules import Rules
from .solver import _K1, RowSearch, _copy, _hash, _mix, _order, settled_position

__all__ = ["FastResponse", "warm_up"]

_RECURSIVE_JIT: dict[str, Any] = {"cache": False, "nogil": True, "_nrt": False}  # as solver.py: recursion is not cached


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
        _copy(child, s)
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
def _action_values(S, R, me, bound, tk1, tk2, tv, order, stats, actions, values):
    """Values for ``me`` (to act in ``S[0]``) after each legal action into ``actions``/``values``."""
    s = S[0]
    n = _order(s, K.legal_mask(s), actions)
    for i in range(n):
        _copy(S[1], s)
        K.apply_action(S[1], R, actions[i])
        values[i] = _respond(S, 1, R, me, bound, tk1, tk2, tv, order, stats)
    return n


class FastResponse(RowSearch):
    """Best-response values against the heuristic for deals of one ruleset (the ``_Exact``
    protocol of PIMC: ``action_values``, ``value``, ``row_value``), with a table kept between calls."""

    def __init__(self, rules: str | Rules | None = None, table_bits: int = 18) -> None:
        super().__init__(rules, table_bits)
        self._tv = np.zeros(self._size, dtype=np.int8)

    def action_values(self, deal: Deal) -> dict[int, int]:
        """Game points for the player to act after each legal action (``response_values``)."""
        self._root(deal)
        n = _action_values(
            self._S, self._R, deal.current, self._bound, self._tk1, self._tk2, self._tv,
            self._order, self._stats, self._actions, self._values,
        )  # fmt: skip
        return {int(self._actions[i]): int(self._values[i]) for i in range(n)}

    def row_value(self, row: np.ndarray, player: int) -> int:
        """The value for ``player`` of a running deal given as its state row (``row_of``)."""
        self._S[0] = row
        return int(
            _respond(self._S, 0, self._R, player, self._bound, self._tk1, self._tk2, self._tv, self._order, self._stats)
        )


def warm_up(search: FastResponse) -> None:
    """Compile the search (about 5 s, the first call in a process) on a phase-2 position."""
    deal = settled_position(search.rules)
    if deal is not None:
        search.action_values(deal)
