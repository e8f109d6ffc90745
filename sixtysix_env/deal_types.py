"""The small types that describe a deal, below both the engine and the information state.

``engine.Deal`` plays a deal and ``infostate.InfoState`` is one player's view of it; both speak of
the decision to make and of how the deal ended, so those types live here, one layer down, and
the engine imports the view without a circle. ``sixtysix_env.engine`` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol

__all__ = ["Decision", "Termination", "Outcome", "RandomSource"]


class Decision(IntEnum):
    """What the player to act is deciding."""

    LEAD = 0
    """On lead: exchange, close, declare a marriage, lead a card, or go out (explicit claiming)."""
    FOLLOW = 1
    """Play a card to the card led (or first exchange, under ``exchange_timing="any_turn"``)."""
    DRAW = 2
    """After winning a phase-1 trick: close before drawing (29) or draw (30)."""
    CLOSING_EXCHANGE = 3
    """The opponent has just closed: exchange the trump nine (28) or keep it (30)."""
    CLAIM = 4
    """Explicit claiming, all cards played: go out (31) or let the deal be scored (30)."""


class Termination(IntEnum):
    """How a deal ended (docs/RULES.md 2.9)."""

    WENT_OUT = 0
    """A player went out with 66 or more."""
    FALSE_CLAIM = 1
    """A player went out with fewer than 66 (explicit claiming): the opponent wins."""
    CLOSER_FAILED = 2
    """The stock was closed and the closer did not go out: the opponent wins."""
    PLAYED_OUT = 3
    """All tricks played without closing; decided by points or by the last trick."""
    DRAWN = 4
    """Played out with equal points: nobody scores."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished deal: ``winner`` is -1 for a drawn deal."""

    winner: int
    game_points: int
    termination: Termination

    def returns(self) -> tuple[int, int]:
        """Zero-sum game points per player: (+g, -g), (-g, +g) or (0, 0)."""
        if self.winner < 0:
            return (0, 0)
        g = self.game_points
        return (g, -g) if self.winner == 0 else (-g, g)


class RandomSource(Protocol):
    def shuffle(self, x: Any) -> None: ...
