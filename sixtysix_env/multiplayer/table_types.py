"""The small types that describe a three- or four-player deal: decisions, endings, outcomes.

They sit below both ``table.TableDeal`` (which plays a deal) and ``view.TableView`` (one player's
view of it), so the table engine can import the view without a circle; ``table`` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

__all__ = ["TableDecision", "TableTermination", "TableOutcome"]


class TableDecision(IntEnum):
    """What the player to act is deciding."""

    TRUMP = 0
    """Name a trump suit (32-35) after seeing one's first 3 cards, or let the turned card decide (36)."""
    LEAD = 1
    """Declare a marriage (then lead its K or Q), lead a card, or go out (explicit claiming)."""
    FOLLOW = 2
    """Play a card to the trick, bound to follow (and to beat, under ``must_beat``)."""
    PARTNER_MARRIAGE = 3
    """Four players: the leader's partner shows a marriage (24-27) or passes (30)."""
    CLAIM = 4
    """Four players, explicit claiming, after a partner's marriage or the last trick: go out (31) or not (30)."""


class TableTermination(IntEnum):
    WENT_OUT = 0
    """A team went out with 66 or more (four players)."""
    FALSE_CLAIM = 1
    """A team went out with fewer than 66: the other team wins 2 (four players, explicit claiming)."""
    PLAYED_OUT = 2
    """All tricks played: settled by points (three players) or by the last trick (four players)."""
    DRAWN = 3
    """Three players: two or more share the most points, nobody pays."""


@dataclass(frozen=True)
class TableOutcome:
    """A finished deal. ``winner`` is a player (three players) or a team (four players: 0 for
    players 0 and 2, 1 for players 1 and 3), -1 when drawn; ``payoffs`` are per player, zero-sum:
    stakes (three players) or the team's game points for both partners (four players)."""

    winner: int
    game_points: int
    termination: TableTermination
    payoffs: tuple[int, ...]

    def returns(self) -> tuple[int, ...]:
        return self.payoffs
