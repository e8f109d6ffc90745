"""The oracle: it sees every card (both hands and the stock order) and plays the exact minimax.

A measuring stick, not a player: no fair agent can know what it knows. It is deliberately kept
apart from the fair agents: it is not in the :func:`~sixtysix_env.agents.make_agent` registry,
and it has no ``act(info, rng)`` method (it takes the whole :class:`~sixtysix_env.engine.Deal`),
so the arena, the envs and every tool that plays agents refuse it instead of letting it cheat
by accident. ``benchmarks/bench_gap.py`` uses it to measure how much of the gap between a fair
agent and perfect information that agent closes.

Its value is the perfect-information game's value: the game points the player to act ends the
deal with when both sides play perfectly with all cards face up (which is not what a fair
agent can reach, so "gap closed" is a ratio against an upper bound, not a target of 1).

Cost: solving a standard deal from its first decision takes seconds to a minute on the reference
search (``solver="python"``) and about 2 s (median; up to 15 s) on the numba search of the batched
engine's rows (``solver="fast"``, the ``fast`` extra; the default when numba is installed), which
gives the same values. Later decisions of the same deal reuse the first search's transposition
table (also when the same deal is replayed with the seats swapped), so they are much cheaper.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from ..checks import check_choice
from ..engine import Deal
from ..rules import Rules
from .alphabeta import Solver

if TYPE_CHECKING:
    from ..fast.solver import FastSolver

__all__ = ["OracleAgent"]


class OracleAgent:
    """Exact perfect-information play from the full deal: ``choose(deal) -> action``."""

    name = "oracle"
    cheats = True
    """Marks an agent that reads hidden cards: never seat it against fair agents as if it were one."""

    def __init__(self, solver: str = "auto") -> None:
        check_choice("solver", solver, ("auto", "fast", "python"))
        if solver == "auto":
            solver = "fast" if importlib.util.find_spec("numba") is not None else "python"
        self.solver = solver
        self._key: object = None
        self._solver: Solver | None = None
        self._fast: dict[Rules, FastSolver] = {}

    def _fast_for(self, deal: Deal) -> FastSolver:
        from ..fast.solver import FastSolver

        fast = self._fast.get(deal.rules)
        if fast is None:
            fast = self._fast[deal.rules] = FastSolver(deal.rules)
        return fast

    def _solver_for(self, deal: Deal) -> Solver:
        """One solver (its table from player 0's side) per deal: the rules and the dealt cards."""
        key = (deal.rules, deal.arrangement) if deal.arrangement is not None else None
        if self._solver is None or key is None or key != self._key:
            self._solver = Solver(0)
            self._key = key
        return self._solver

    def choose(self, deal: Deal) -> int:
        """An optimal action for the player to act in ``deal`` (read, never changed)."""
        if not isinstance(deal, Deal):
            raise TypeError(f"the oracle plays from the full Deal, got {type(deal).__name__}")
        if deal.outcome is not None:
            raise ValueError("no legal action: the deal is over")
        mask = deal.legal_mask()
        if not mask & (mask - 1):
            return mask.bit_length() - 1
        if self.solver == "fast":
            return self._fast_for(deal).solve(deal)[1]
        return self._solver_for(deal).solve(deal)[1]

    def value(self, deal: Deal, player: int | None = None) -> float:
        """The perfect-information value of ``deal`` in game points for ``player`` (default: to act)."""
        if not isinstance(deal, Deal):
            raise TypeError(f"the oracle reads the full Deal, got {type(deal).__name__}")
        if deal.outcome is not None:
            return float(deal.returns()[deal.current if player is None else player])
        p = deal.current if player is None else player
        if p not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        if self.solver == "fast":
            return float(self._fast_for(deal).value(deal, p))
        v = self._solver_for(deal).solve(deal)[0]
        return v if p == 0 else -v

    def __repr__(self) -> str:
        return f"OracleAgent(solver={self.solver!r})"
