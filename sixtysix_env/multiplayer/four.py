"""Four-player Sixty-Six in fixed partnerships (docs/RULES.md 5.2, pagat's version).

Seats 0..3 clockwise; partners sit opposite, so team 0 is players 0 and 2, team 1 players 1 and 3.
6 cards each, no stock; the dealer's last (bottom) card is turned for trump and stays in his hand
(or, under ``trump="choose"``, the player left of the dealer names it). The player left of the
dealer leads; every player must follow (and beat, under ``must_beat``) from the first trick. When
a player leads he may declare a marriage (then lead its K or Q), and then his partner may show
one (declare or pass). Points, tricks and marriages count per team; the first team to reach 66
goes out (automatically, or by the action 31 under explicit claiming) and wins 1, 2 (losers under
33) or 3 (losers without a trick) game points. A deal played out with nobody out gives the team
of the last trick 1 game point. Both partners get the team's payoff.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..engine import MARRIAGE_PAIR
from .rules import FourRules, get_four_rules
from .table import GOAL, TableDeal, TableDecision, TableTermination

__all__ = ["FourDeal", "team_of", "partner_of"]


def team_of(player: int) -> int:
    return player % 2


def partner_of(player: int) -> int:
    return (player + 2) % 4


class FourDeal(TableDeal):
    """One deal of four-player Sixty-Six; ``returns()`` give both partners the team's game points."""

    n_players: ClassVar[int] = 4
    hand_size: ClassVar[int] = 6
    n_sides: ClassVar[int] = 2
    packets: ClassVar[tuple[int, ...]] = (3, 3)
    game: ClassVar[str] = "four-player"
    rules: FourRules

    __slots__ = ()

    @classmethod
    def _get_rules(cls, rules: Any) -> FourRules:
        return get_four_rules(rules)

    def side_of(self, player: int) -> int:
        return player % 2

    def _chooses_trump(self) -> bool:
        return self.rules.trump == "choose"

    @classmethod
    def turned_slot(cls, rules: FourRules, dealer: int) -> tuple[int, int]:
        """(holder, index in his hand as dealt) of the card turned for trump: the last card of the
        chooser (``trump="choose"``) or of the dealer (the bottom card of the deck)."""
        return ((dealer + 1) % 4 if rules.trump == "choose" else dealer), 5

    def _turned_card(self) -> tuple[int, int]:
        holder, slot = self.turned_slot(self.rules, self.dealer)
        return holder, self.dealt[holder][slot]

    def _claiming(self) -> str:
        return self.rules.claiming

    def _partner_decides(self, leader: int) -> bool:
        """The partner is asked whenever a marriage is possible for him as far as anyone can tell
        from public facts (so that being asked reveals nothing about his hand)."""
        if not self.rules.partner_marriages:
            return False
        partner = (leader + 2) % 4
        if self.hands[partner].bit_count() < 2:
            return False
        done = 0
        for m in self.marriages:
            done |= m
        elsewhere = 0  # cards everyone knows are not in the partner's hand
        for q in range(4):
            elsewhere |= self.won_cards[q]
            if q != partner:
                elsewhere |= self.known[q]
        for c in self.trick:
            elsewhere |= 1 << c
        return any(not done >> s & 1 and not elsewhere & MARRIAGE_PAIR[s] for s in range(4))

    def _after_declare(self, p: int) -> None:
        side = p % 2
        if self.rules.claiming == "auto" and self.points[side] >= GOAL:
            self._go_out(side)

    def _after_trick(self, winner: int, side: int, last: bool) -> None:
        if self.rules.claiming == "explicit":
            self.claim_chance[side] = True
            if last:
                self.decision = TableDecision.CLAIM
            return
        if self.points[side] >= GOAL:
            self._go_out(side)
        elif last:
            self._score_played_out()

    def _team_payoffs(self, team: int, g: int) -> list[int]:
        return [g if p % 2 == team else -g for p in range(4)]

    def _go_out(self, side: int) -> None:
        other = 1 - side
        if self.points[side] >= GOAL:
            g = 3 if not self.side_tricks[other] else 2 if self.points[other] < GOAL // 2 else 1
            self._finish(side, g, TableTermination.WENT_OUT, self._team_payoffs(side, g))
        else:
            self._finish(other, 2, TableTermination.FALSE_CLAIM, self._team_payoffs(other, 2))

    def _score_played_out(self) -> None:
        team = self.last_winner % 2
        self._finish(team, 1, TableTermination.PLAYED_OUT, self._team_payoffs(team, 1))
