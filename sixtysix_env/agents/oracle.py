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

Ties: several actions are often optimal, and which one the oracle plays changes what a fallible
opponent makes of it (not the value against a perfect one). With ``ties=None`` it plays the first
optimal action in search order (the project's first oracle). With ``ties=agent`` (the
benchmark passes a fresh copy of the opponent) it plays the action ``agent`` would choose in the
oracle's own information state when that action is optimal, else the first: values are whole
game points, compared exactly. The choice is as reproducible as ``agent`` with the ``rng`` given.
"""

from __future__ import annotations

import importlib.util
import random
from typing import TYPE_CHECKING

from ..checks import check_choice
from ..engine import Deal
from ..rules import Rules
from .alphabeta import Solver
from .base import Agent

if TYPE_CHECKING:
    from .fast.solver import FastSolver

__all__ = ["OracleAgent"]


class OracleAgent:
    """Exact perfect-information play from the full deal: ``choose(deal) -> action``."""

    name = "oracle"
    cheats = True
    """Marks an agent that reads hidden cards: never seat it against fair agents as if it were one."""

    def __init__(self, solver: str = "auto", ties: Agent | None = None) -> None:
        check_choice("solver", solver, ("auto", "fast", "python"))
        if ties is not None and not callable(getattr(ties, "act", None)):
            raise TypeError(f"ties={ties!r} is not allowed: give an agent with act(info, rng), or None (first optimal)")
        self.ties = ties
        if solver == "auto":
            solver = "fast" if importlib.util.find_spec("numba") is not None else "python"
        self.solver = solver
        self._key: object = None
        self._solver: Solver | None = None
        self._fast: dict[Rules, FastSolver] = {}

    def _fast_for(self, deal: Deal) -> FastSolver:
        from .fast.solver import FastSolver

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

    def choose(self, deal: Deal, rng: random.Random | None = None) -> int:
        """An optimal action for the player to act in ``deal`` (read, never changed): the ``ties``
        agent's choice when it is optimal (``rng`` is its random source, default a fresh
        ``Random(0)``), else the first optimal action in search order."""
        if not isinstance(deal, Deal):
            raise TypeError(f"the oracle plays from the full Deal, got {type(deal).__name__}")
        if deal.outcome is not None:
            raise ValueError("no legal action: the deal is over")
        mask = deal.legal_mask()
        if not mask & (mask - 1):
            return mask.bit_length() - 1
        best, first = self._solve(deal)
        if self.ties is None:
            return first
        p = deal.current
        preferred = self.ties.act(deal.information_state(p), rng if rng is not None else random.Random(0))
        if not deal.is_legal(preferred):
            raise ValueError(f"the ties agent {self.ties!r} chose {preferred!r}, which is not a legal action here")
        preferred = int(preferred)
        if preferred == first:
            return first
        child = deal.clone()
        child.apply(preferred)
        return preferred if self.value(child, p) == best else first

    def _solve(self, deal: Deal) -> tuple[float, int]:
        """(value for the player to act, the first optimal action in search order)."""
        if self.solver == "fast":
            return self._fast_for(deal).solve(deal)
        v, a = self._solver_for(deal).solve(deal)
        return (v if deal.current == 0 else -v), a

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
        return f"OracleAgent(solver={self.solver!r}, ties={self.ties!r})"
