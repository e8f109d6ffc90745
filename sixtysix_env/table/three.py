"""Three-player Sixty-Six (docs/RULES.md 5.1): 8 cards each, no stock, settled in stakes.

Seats 0, 1, 2 clockwise; the player left of the dealer (``dealer + 1``) sees his first packet of
3 cards, names trump or lets the first card of his second packet be turned, and leads. Every
player must follow (and beat, under ``must_beat``) from the first trick; the leader may declare
one marriage per lead, counted once he has a trick. After 8 tricks (the last worth 10) the player
with the most counted points takes 1 stake from each player with 33 or more, 2 from a player
under 33 who took a trick, 3 from a player who took none. A tie for the most points is a drawn
deal (not stated by the sources): nobody pays.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .deal import TableDeal, TableTermination
from .rules import ThreeRules, get_three_rules

__all__ = ["ThreeDeal", "stake_payment"]


def stake_payment(points: int, tricks: int) -> int:
    """What a losing player pays the winner: 1 with 33 or more, 2 under 33 with a trick, else 3."""
    if points >= 33:
        return 1
    return 2 if tricks else 3


class ThreeDeal(TableDeal):
    """One deal of three-player Sixty-Six; ``returns()`` are stakes per player (zero-sum)."""

    n_players: ClassVar[int] = 3
    hand_size: ClassVar[int] = 8
    n_sides: ClassVar[int] = 3
    packets: ClassVar[tuple[int, ...]] = (3, 2, 3)
    game: ClassVar[str] = "three-player"
    rules: ThreeRules

    __slots__ = ()

    @classmethod
    def _get_rules(cls, rules: Any) -> ThreeRules:
        return get_three_rules(rules)

    @classmethod
    def score_bounds(cls, rules: ThreeRules) -> tuple[int, int]:
        """Stake balances before a deal: below the match target (the others together owe at
        most twice it); without a target, what ``match_deals`` deals of at most 6 stakes can move."""
        if rules.match_target:
            return -2 * rules.match_target, rules.match_target - 1
        return -6 * rules.match_deals, 6 * rules.match_deals

    def side_of(self, player: int) -> int:
        return player

    def _chooses_trump(self) -> bool:
        return self.rules.trump == "choose"

    @classmethod
    def turned_slot(cls, rules: ThreeRules, dealer: int) -> tuple[int, int]:
        """(holder, index in his hand as dealt) of the card turned for trump."""
        if rules.trump == "choose":
            return (dealer + 1) % 3, 3  # the first card of the chooser's second packet
        return dealer, 7  # the dealer's last card

    def _turned_card(self) -> tuple[int, int]:
        holder, slot = self.turned_slot(self.rules, self.dealer)
        return holder, self.dealt[holder][slot]

    def _after_trick(self, winner: int, side: int, last: bool) -> None:
        if last:
            self._score_played_out()

    def _score_played_out(self) -> None:
        pts = self.points
        best = max(pts)
        leaders = [p for p in range(3) if pts[p] == best]
        if len(leaders) > 1:
            self._finish(-1, 0, TableTermination.DRAWN, (0, 0, 0))
            return
        w = leaders[0]
        pay = [0 if p == w else stake_payment(pts[p], self.tricks_won[p]) for p in range(3)]
        won = sum(pay)
        self._finish(w, won, TableTermination.PLAYED_OUT, [won if p == w else -pay[p] for p in range(3)])

    def _go_out(self, side: int) -> None:  # pragma: no cover - there is no going out with three players
        raise AssertionError("three-player deals are always played out")
