"""Four-player Sixty-Six in fixed partnerships (docs/RULES.md 5.2, and the Russian game of 5.3).

Seats 0..3 clockwise; partners sit opposite, so team 0 is players 0 and 2, team 1 players 1 and 3.
6 cards each, no stock; the dealer's last (bottom) card is turned for trump and stays in his hand
(or, under ``trump="choose"``, the player left of the dealer names it). The player left of the
dealer leads; every player must follow (and beat, under ``must_beat``) from the first trick. When
a player leads he may declare a marriage (then lead its K or Q), and then his partner may show
one (declare or pass). Points, tricks and marriages count per team; the first team to reach 66
goes out (automatically, or by the action 31 under explicit claiming) and wins 1, 2 (losers under
33) or 3 (losers without a trick) game points. A deal played out with nobody out gives the team
of the last trick 1 game point. Both partners get the team's payoff.

The Russian game adds phases, each switched on by a ``FourRules`` field: the cut before the deal
(``cut_nines``), a redeal round after trump is known (``redeals``), a bidding round with three
nines and the contracts five, six, fur coat and suit (``three_nines``, ``contracts``), contract
play with the declarer's partner out and no trumps, and marriage without leading
(``marriage_without_leading``). The rounds ask every player in turn from the dealer's left.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..cards import CARD_POINTS, SUIT_MASK, cards_of
from ..deal_types import RandomSource
from ..engine import HIGHER_IN_SUIT, MARRIAGE_PAIR
from .actions import ASK_NINE, ASK_TRUMPS, BID, MARRIAGE_NO_LEAD, PASS, REDEAL, THREE_NINES
from .deal import GOAL, TableDeal, TableDecision, TableOutcome, TableTermination
from .rules import FourRules, get_four_rules, pair_lacks_trumps

__all__ = [
    "FourDeal",
    "team_of",
    "partner_of",
    "NINES",
    "has_beatable_card",
    "pair_lacks_trumps",
    "CONTRACT_WON_POINTS",
    "CONTRACT_LOST_POINTS",
]

NINES = sum(1 << (6 * s) for s in range(4))
"""The four nines as a card mask (rank 0 of each suit)."""
CONTRACT_WON_POINTS = {1: 5, 2: 6}
"""Game points of a won five or six (:147, :154); a won fur coat or suit wins the match."""
CONTRACT_LOST_POINTS = {1: 5, 2: 6, 3: 6, 4: 6}
"""Game points the opponents score when a contract fails (:148, :155, docs/RULES.md 5.3)."""


def team_of(player: int) -> int:
    """The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return player % 2


def partner_of(player: int) -> int:
    """The partner's seat (opposite)."""
    return (player + 2) % 4


def has_beatable_card(hand: int) -> bool:
    """The condition of five, fur coat and suit (R): a card with a higher card of its suit
    outside the hand, which the opponents could therefore beat."""
    return any(HIGHER_IN_SUIT[c] & ~hand for c in cards_of(hand))


def _suits_of(mask: int) -> int:
    """The cards of every suit that has a card in ``mask``."""
    out = 0
    for s in range(4):
        if mask & SUIT_MASK[s]:
            out |= SUIT_MASK[s]
    return out


class FourDeal(TableDeal):
    """One deal of four-player Sixty-Six; ``returns()`` give both partners the team's game points
    less the other team's."""

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

    @staticmethod
    def largest_loss(rules: FourRules) -> int:
        """The most game points a team can lose in one deal under ``rules``."""
        worst = 3
        if rules.contracts:
            worst = max(worst, rules.match_target, *CONTRACT_LOST_POINTS.values())
        if rules.three_nines:
            worst += rules.nines_points
        return max(worst, rules.cut_points if rules.cut_nines else 0, rules.false_marriage_points)

    @classmethod
    def score_bounds(cls, rules: FourRules) -> tuple[int, int]:
        """Game points of a team before a deal: 0 up to one below the match target, or below the
        most one deal can score where that is more (what a match carries into the next one)."""
        return 0, max(rules.match_target, cls.largest_loss(rules)) - 1

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

    # ------------------------------------------------------------------ the cut
    @classmethod
    def _shuffle(cls, rules: FourRules, rng: RandomSource) -> tuple[list[int], tuple[int, ...]]:
        """Shuffle, then cut while the bottom card (the dealer's last) is a nine, up to
        ``cut_nines`` times; R: every cut is a fresh uniformly random bottom card."""
        deck, _ = super()._shuffle(rules, rng)
        cuts: list[int] = []
        while rules.cut_nines and deck[-1] % 6 == 0:
            cuts.append(deck[-1])
            if len(cuts) == rules.cut_nines:
                break
            rng.shuffle(deck)
            deck = [int(c) for c in deck]
        return deck, tuple(cuts)

    def _after_start(self) -> None:
        if self.rules.cut_nines and len(self.cuts) >= self.rules.cut_nines:
            self._win(self.dealer % 2, self.rules.cut_points, TableTermination.CUT)

    # ------------------------------------------------------------------ rounds before play
    def _round(self, decision: TableDecision) -> None:
        """Every player in turn from the dealer's left decides ``decision``."""
        self.queue = [(self.dealer + k) % 4 for k in range(1, 5)]
        self.decision = decision
        self.current = self.queue[0]

    def _after_trump(self) -> None:
        r = self.rules
        if r.redeals:
            self._round(TableDecision.REDEAL)
        elif r.contracts or r.three_nines:
            self._round(TableDecision.BID)
        else:
            self._first_lead()

    def _first_lead(self) -> None:
        self.leader = self.current = (self.dealer + 1) % 4
        self.decision = TableDecision.LEAD

    def _advance(self) -> None:
        """The current player is done with this round: the next one, or the round's end."""
        self.queue.pop(0)
        if self.queue:
            self.current = self.queue[0]
        elif self.decision == TableDecision.REDEAL:
            if self.rules.contracts or self.rules.three_nines:
                self._round(TableDecision.BID)
            else:
                self._first_lead()
        elif self.decision == TableDecision.BID:
            if self.bid:
                self._start_contract()
            else:
                self._first_lead()
        else:  # TableDecision.DISCARD: the declarer leads
            self.leader = self.current = self.bidder
            self.decision = TableDecision.LEAD

    def may_redeal(self, p: int) -> bool:
        """Whether ``p`` may demand a redeal now: under ``redeal_under`` points, four nines, or
        his pair's answer on trumps says condition (c) holds."""
        hand = self.hands[p]
        own = sum(CARD_POINTS[c] for c in cards_of(hand)) < self.rules.redeal_under or hand & NINES == NINES
        return own or self.pair_answer[p % 2] == 1

    def may_bid(self, p: int, contract: int) -> bool:
        return self.rules.contracts and contract > self.bid and (contract == 2 or has_beatable_card(self.hands[p]))

    def _round_mask(self, p: int) -> int:
        d, hand, r = self.decision, self.hands[p], self.rules
        if d == TableDecision.REDEAL:
            m = 1 << PASS
            if self.may_redeal(p):
                m |= 1 << REDEAL
            if self.pair_answer[p % 2] < 0 and (hand & SUIT_MASK[self.trump]).bit_count() <= 1:
                m |= 1 << ASK_TRUMPS
            return m
        if d == TableDecision.BID:
            m = 1 << PASS
            for k in range(1, 5):
                if self.may_bid(p, k):
                    m |= 1 << (BID + k - 1)
            nines = (hand & NINES).bit_count()
            if r.three_nines and self.nines_by < 0:
                if nines >= 3:
                    m |= 1 << THREE_NINES
                if r.nines_partner_ask and nines == 2 and not self.nine_asked >> p & 1:
                    m |= 1 << ASK_NINE
            return m
        if d == TableDecision.HOLD_NINE:
            return hand & NINES
        if d == TableDecision.COMMIT:
            return hand & _suits_of(self.nines_shown)
        if d == TableDecision.LEAVE_NINE:
            return self.nines_shown
        return hand  # TableDecision.DISCARD

    def _apply_round(self, p: int, a: int) -> None:
        d = self.decision
        if d == TableDecision.REDEAL:
            if a == PASS:
                self._advance()
            elif a == REDEAL:
                self.outcome = TableOutcome(-1, 0, TableTermination.REDEAL, (0,) * 4, (0, 0))
                self._mask = 0
            else:  # ASK_TRUMPS: both partners learn whether the pair meets condition (c)
                self.pair_answer[p % 2] = int(pair_lacks_trumps(self.hands[p], self.hands[(p + 2) % 4], self.trump))
        elif d == TableDecision.BID:
            if a == PASS:
                self._advance()
            elif a == THREE_NINES:
                self.nines_by = p
                nines = self.hands[p] & NINES
                if nines == NINES:
                    self.decision = TableDecision.HOLD_NINE
                else:
                    self._show_nines(p, nines)
            elif a == ASK_NINE:
                self.nine_asked |= 1 << p
                partner = (p + 2) % 4
                theirs = self.hands[partner] & NINES
                if theirs:
                    lowest = theirs & -theirs  # R: the partner shows his lowest-suit nine
                    self.known[partner] |= lowest
                    self.nines_by = p
                    self._show_nines(p, (self.hands[p] & NINES) | lowest)
            else:
                self.bid, self.bidder = a - BID + 1, p
                self._advance()
        elif d == TableDecision.HOLD_NINE:
            self._show_nines(p, self.hands[p] & NINES & ~(1 << a))
        elif d == TableDecision.COMMIT:
            self.committed[p] = a
            self._next_committer()
        elif d == TableDecision.LEAVE_NINE:
            self._settle_nines(a)
        else:  # TableDecision.DISCARD
            bit = 1 << a
            self.hands[p] ^= bit
            self.out_cards[p] |= bit
            self._advance()

    # ------------------------------------------------------------------ three nines
    def _show_nines(self, p: int, shown: int) -> None:
        self.nines_shown = shown
        self.known[p] |= shown & self.hands[p]
        self._next_committer()

    def _next_committer(self) -> None:
        """The opponents commit in turn clockwise from the declarer; R: one without a card of the
        shown suits commits nothing. Then the declarer leaves a nine."""
        p = self.nines_by
        suits = _suits_of(self.nines_shown)
        for q in ((p + 1) % 4, (p + 3) % 4):
            if self.committed[q] < 0 and self.hands[q] & suits:
                self.decision, self.current = TableDecision.COMMIT, q
                return
        self.decision, self.current = TableDecision.LEAVE_NINE, p

    def _settle_nines(self, nine: int) -> None:
        p = self.nines_by
        self.nine_left = nine
        matched = [
            q for q in ((p + 1) % 4, (p + 3) % 4) if self.committed[q] >= 0 and self.committed[q] // 6 == nine // 6
        ]
        for q in matched:
            self.known[q] |= 1 << self.committed[q]
            self.nines_hits |= 1 << q
        side = (p + 1) % 2 if matched else p % 2
        g = self.rules.nines_points
        if self.scores[side] + self.deal_scored[side] + g >= self.rules.match_target:
            self._win(side, g, TableTermination.NINES)  # the match is over: no need to play on
            return
        self.deal_scored[side] += g
        self.decision, self.current = TableDecision.BID, self.queue[0]

    # ------------------------------------------------------------------ contracts
    def _start_contract(self) -> None:
        """The declarer's partner lays his cards down face down and sits out; trumps lose rank."""
        k, p = self.bid, self.bidder
        partner = (p + 2) % 4
        self.contract = k
        self.sitting_out = partner
        self.out_cards[partner] |= self.hands[partner]
        self.hands[partner] = 0
        self.trick_trump = -1
        if k == 1:  # five: the declarer, then each opponent, discards one card
            self.queue = [p, (p + 1) % 4, (p + 3) % 4]
            self.decision, self.current = TableDecision.DISCARD, p
        else:
            self.leader = self.current = p
            self.decision = TableDecision.LEAD

    def _settle_contract(self, won: bool) -> None:
        k, team = self.contract, self.bidder % 2
        if not won:
            self._win(1 - team, CONTRACT_LOST_POINTS[k], TableTermination.CONTRACT_LOST)
        elif k in CONTRACT_WON_POINTS:
            self._win(team, CONTRACT_WON_POINTS[k], TableTermination.CONTRACT_WON)
        else:  # fur coat, suit: the match is won at once, at a higher stake
            left = max(1, self.rules.match_target - self.scores[team] - self.deal_scored[team])
            stake = self.rules.fur_coat_stake if k == 3 else self.rules.suit_stake
            self._win(team, left, TableTermination.CONTRACT_WON, stake)

    # ------------------------------------------------------------------ the normal game
    def _partner_decides(self, leader: int) -> bool:
        """The partner is asked whenever a marriage is possible for him as far as anyone can tell
        from public facts (so that being asked reveals nothing about his hand)."""
        if not self.rules.partner_marriages or self.contract:
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

    def _lead_extra(self, p: int) -> int:
        if not self.rules.marriage_without_leading:
            return 0
        return self._marriage_bits(p, MARRIAGE_NO_LEAD)

    def _apply_lead_extra(self, p: int, a: int) -> None:
        """Marriage without leading (:183-189): the deal ends now, won with 66, else lost."""
        self._declare(p, a - MARRIAGE_NO_LEAD, leading=False)
        if self.outcome is None:
            side = p % 2
            if self.points[side] >= GOAL:
                self._go_out(side)
            else:
                self._win(1 - side, self.rules.false_marriage_points, TableTermination.FALSE_MARRIAGE)

    def _after_declare(self, p: int) -> None:
        side = p % 2
        if self.rules.claiming == "auto" and self.points[side] >= GOAL:
            self._go_out(side)

    def _after_trick(self, winner: int, side: int, last: bool) -> None:
        if self.contract:
            lost = self.side_tricks[1 - self.bidder % 2] > 0
            if lost and (self.rules.contract_ends_early or last):
                self._settle_contract(False)
            elif last:
                self._settle_contract(True)
            return
        if self.rules.claiming == "explicit":
            self.claim_chance[side] = True
            if last:
                self.decision = TableDecision.CLAIM
            return
        if self.points[side] >= GOAL:
            self._go_out(side)
        elif last:
            self._score_played_out()

    # ------------------------------------------------------------------ scoring
    def _win(self, team: int, g: int, how: TableTermination, stake: int = 1) -> None:
        """End the deal: ``team`` scores ``g`` game points on top of what the deal scored so far
        (three nines); both partners get their team's points less the other team's."""
        scored = self.deal_scored[:]
        scored[team] += g
        diff = scored[0] - scored[1]
        payoffs = [diff if p % 2 == 0 else -diff for p in range(4)]
        self.outcome = TableOutcome(team, g, how, tuple(payoffs), tuple(scored), stake, self.contract)
        self._mask = 0

    def _go_out(self, side: int) -> None:
        other = 1 - side
        if self.points[side] >= GOAL:
            if not self.side_tricks[other]:
                g = 3
            else:
                g = self.rules.under_33_points if self.points[other] < GOAL // 2 else 1
            self._win(side, g, TableTermination.WENT_OUT)
        else:
            self._win(other, 2, TableTermination.FALSE_CLAIM)

    def _score_played_out(self) -> None:
        self._win(self.last_winner % 2, 1, TableTermination.PLAYED_OUT)
