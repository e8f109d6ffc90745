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
    REDEAL = 5
    """Russian game: play on (30), demand a redeal (37) or ask the partner about trumps (38)."""
    BID = 6
    """Russian game: name a contract above any named (40-43), declare three nines (39), ask the
    partner for a third nine (48), or pass (30)."""
    HOLD_NINE = 7
    """Russian game, four nines declared as three: the nine held back (its card id)."""
    COMMIT = 8
    """Russian game, against three nines: commit a card of a shown nine's suit, unseen (its card id)."""
    LEAVE_NINE = 9
    """Russian game: the declarer of three nines leaves one of the shown nines (its card id)."""
    DISCARD = 10
    """Russian game, contract five: discard one card face down (its card id)."""


class TableTermination(IntEnum):
    """How a three- or four-player deal ended."""

    WENT_OUT = 0
    """A team went out with 66 or more (four players)."""
    FALSE_CLAIM = 1
    """A team went out with fewer than 66: the other team wins 2 (four players, explicit claiming)."""
    PLAYED_OUT = 2
    """All tricks played: settled by points (three players) or by the last trick (four players)."""
    DRAWN = 3
    """Three players: two or more share the most points, nobody pays."""
    CUT = 4
    """Russian game: the cut showed three nines in a row; the dealing team scores, no card is played."""
    REDEAL = 5
    """Russian game: a redeal was demanded; nobody scores and the same dealer deals again."""
    CONTRACT_WON = 6
    """Russian game: the declarer took every trick of his contract."""
    CONTRACT_LOST = 7
    """Russian game: the opponents took a trick of the contract."""
    NINES = 8
    """Russian game: three nines took a team to the match target, which ends the match at once."""
    FALSE_MARRIAGE = 9
    """Russian game: a marriage declared without leading fell short of 66; the other team scores."""


@dataclass(frozen=True)
class TableOutcome:
    """A finished deal. ``winner`` is a player (three players) or a team (four players: 0 for
    players 0 and 2, 1 for players 1 and 3), -1 when drawn; ``payoffs`` are per player, zero-sum:
    stakes (three players) or, four players, the team's game points less the other team's, the
    same for both partners. ``scored`` (four players) are the game points each team adds to its
    match score: a match score only grows, so it is ``scored`` and not ``payoffs`` that counts."""

    winner: int
    game_points: int
    termination: TableTermination
    payoffs: tuple[int, ...]
    scored: tuple[int, ...] = ()
    stake: int = 1
    """Match stake when this deal ends the match: 2 for a won fur coat, 3 for a won suit."""
    contract: int = 0
    """The contract played (1 five, 2 six, 3 fur coat, 4 suit), 0 for none."""

    def returns(self) -> tuple[int, ...]:
        return self.payoffs
