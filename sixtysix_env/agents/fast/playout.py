"""PIMC's open-stock valuation on the batched engine's rows: apply an action, then heuristic
playouts for both sides, in numba.

``agents.pimc._finish`` stays the specification: after each action on a sampled deal, a running
deal with the stock still open is played to its end by the heuristic, and one whose stock the
action closed or used up is solved exactly. Here the action and the playout run in
``kernels.heuristic_playout_values`` (the heuristic is ``fast.heuristic``, itself checked move
for move against the Python one) and the exact solves in :class:`~.solver.FastSolver`; the values
are the same (``tests/test_fast_playout.py``), at a fraction of the time, which is what lets PIMC
afford several times the samples within the same budget.
"""

from __future__ import annotations

import numpy as np

from ...engine import Deal
from ...fast import kernels as K
from ...fast.state import NUM_FIELDS, encode_rules
from .response import FastResponse
from .solver import FastSolver, row_of

__all__ = ["FastPlayouts"]

_MAX_ACTIONS = 32


class FastPlayouts:
    """Values of every legal action of a full deal with the stock open, for the player to act:
    ``pimc.evaluate_actions(deal, legal, "playout")`` without the Python playouts."""

    def __init__(self, solver: FastSolver | FastResponse) -> None:
        self.solver = solver
        self.rules = solver.rules
        self._R = encode_rules(self.rules)
        self._work = np.zeros((_MAX_ACTIONS, NUM_FIELDS), dtype=np.int32)
        self._actions = np.zeros(_MAX_ACTIONS, dtype=np.int64)
        self._values = np.zeros(_MAX_ACTIONS, dtype=np.int64)
        self._unsolved = np.zeros(_MAX_ACTIONS, dtype=np.int64)

    def action_values(
        self, deal: Deal, legal: list[int], endgame: str = "playout", closing: str = "solve", solve_stock: int = 0
    ) -> list[int]:
        """Game points for ``deal.current`` after each action of ``legal`` (legal in ``deal``);
        ``endgame="solve"``: playouts only until the stock closes, runs out or holds at most
        ``solve_stock`` cards, then exact; ``closing="playout"``: closing the stock is played
        out, not solved."""
        if deal.rules != self.rules:
            raise ValueError(
                f"these playouts are for the {self.rules.name!r} rules, the deal plays {deal.rules.name!r}"
            )
        if not deal.stock_open:
            raise ValueError("playouts value open-stock positions; solve a closed or exhausted stock exactly")
        player = deal.current
        n = len(legal)
        self._actions[:n] = legal
        K.heuristic_playout_values(
            row_of(deal),
            self._R,
            self._actions,
            n,
            player,
            endgame == "solve",
            closing == "solve",
            solve_stock,
            self._work,
            self._values,
            self._unsolved,
        )
        return [
            self.solver.row_value(self._work[k], player) if self._unsolved[k] else int(self._values[k])
            for k in range(n)
        ]


def warm_up(playouts: FastPlayouts) -> None:
    """Compile (or load) the playout kernel: one call on the first decision of a deal."""
    import random

    deal = Deal.new(playouts.rules, random.Random(0), dealer=0)
    playouts.action_values(deal, deal.legal_actions())
