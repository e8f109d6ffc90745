"""A rule-based player for the three- and four-player games (every preset, the Russian
contracts included): cheap, deterministic given the view, and the rollout policy of ``pimc``.

Rules, in order, by decision:

* trump: name the suit with most cards among the first three (ties: more card points) when it
  has two or more, else turn the card;
* redeal round: ask the partner about trumps with at most one trump; demand a redeal whenever
  allowed (a weak hand or a pair short of trumps);
* bidding: three nines whenever legal; never over the partner; otherwise each legal contract
  (five, six, suit; fur coat is suit at a lower stake) is played out on ``bid_samples`` deals
  sampled from the view with these same rules, and the one with the best expected game points
  is named when that beats 1 (five and six win or lose 5 and 6; suit wins the points left to
  the target plus 6 for the match). With ``bid_samples=0`` only sure contracts are named: six
  with no card the opponents could beat, five with exactly one (it is discarded);
* three nines: hold back / leave the nine of the suit where the declarer's side holds the most
  cards (the opponents are least likely to have committed one); commit from one's longest shown
  suit;
* discards: the declarer his beatable card, an opponent his least useful card;
* lead: a marriage when one can be declared (trumps first), or without leading when it makes
  66; go out with 66; else a master card (no higher card of its suit unseen), else the lowest
  card of the longest plain suit;
* follow: if the partner is winning the trick, the most points that do not waste a master;
  else the cheapest card that wins the trick; else the cheapest card; a contract's defender who
  cannot follow throws the card with the fewest unseen lower cards of its suit (the least
  likely to beat one of the declarer's cards).
"""

from __future__ import annotations

import random

from ...cards import CARD_POINTS, SUIT_MASK, cards_of
from ...engine import HIGHER_IN_SUIT
from ...table.actions import (
    ASK_TRUMPS,
    BID,
    CHOOSE_TRUMP,
    GO_OUT,
    MARRIAGE,
    MARRIAGE_NO_LEAD,
    PASS,
    REDEAL,
    THREE_NINES,
    TRUMP_BY_CARD,
)
from ...table.deal import GOAL, TableDecision, TableTermination, trick_winner
from ...table.view import TableView
from .base import table_only_choice

__all__ = ["TableHeuristicAgent", "beatable_cards"]

NINES = sum(1 << (6 * s) for s in range(4))


def beatable_cards(hand: int) -> int:
    """Cards with a higher card of their suit outside ``hand``."""
    return sum(1 << c for c in cards_of(hand) if HIGHER_IN_SUIT[c] & ~hand)


def _suit_counts(mask: int) -> list[int]:
    return [(mask & SUIT_MASK[s]).bit_count() for s in range(4)]


class TableHeuristicAgent:
    """Deterministic rules over a ``TableView``: the same view gets the same action (its bidding
    samples are seeded from the view, not from ``rng``)."""

    name = "heuristic"

    def __init__(self, bid_samples: int = 24) -> None:
        if not isinstance(bid_samples, int) or bid_samples < 0:
            raise ValueError(f"bid_samples must be an int >= 0, got {bid_samples!r}")
        self.bid_samples = bid_samples

    def act(self, view: TableView, rng: random.Random) -> int:
        only = table_only_choice(view)
        if only is not None:
            return only
        legal = view.legal_mask
        d = view.decision
        if d == TableDecision.TRUMP:
            return self._trump(view)
        if d == TableDecision.REDEAL:
            if legal >> REDEAL & 1:
                return REDEAL
            return ASK_TRUMPS if legal >> ASK_TRUMPS & 1 else PASS
        if d == TableDecision.BID:
            return self._bid(view)
        if d in (TableDecision.HOLD_NINE, TableDecision.LEAVE_NINE):
            return self._nine(view)
        if d == TableDecision.COMMIT:
            counts = _suit_counts(view.hand & legal)
            suit = max(range(4), key=lambda s: counts[s])
            return min(cards_of(legal & SUIT_MASK[suit]), key=lambda c: CARD_POINTS[c])
        if d == TableDecision.DISCARD:
            return self._discard(view)
        if d == TableDecision.PARTNER_MARRIAGE:
            marriages = [a for a in range(MARRIAGE, MARRIAGE + 4) if legal >> a & 1]
            return max(marriages, key=lambda a: a - MARRIAGE == view.trump) if marriages else PASS
        if d == TableDecision.CLAIM:
            return GO_OUT if view.points[view.side] >= GOAL else PASS
        if d == TableDecision.LEAD:
            return self._lead(view)
        return self._follow(view)

    # ------------------------------------------------------------------ before play
    def _trump(self, view: TableView) -> int:
        counts = _suit_counts(view.hand)
        best = max(range(4), key=lambda s: (counts[s], sum(CARD_POINTS[c] for c in cards_of(view.hand & SUIT_MASK[s]))))
        return CHOOSE_TRUMP + best if counts[best] >= 2 else TRUMP_BY_CARD

    def _bid(self, view: TableView) -> int:
        legal, hand = view.legal_mask, view.hand
        if legal >> THREE_NINES & 1:
            return THREE_NINES
        if view.bid and view.bidder % 2 == view.player % 2:
            return PASS  # never over the partner
        contracts = [k for k in (1, 2, 4) if legal >> (BID + k - 1) & 1]
        if not contracts:
            return PASS
        if not self.bid_samples:
            weak = beatable_cards(hand).bit_count()
            if weak == 0 and 2 in contracts:
                return BID + 1  # six, a sure win
            if weak == 1 and 1 in contracts:
                return BID  # five, discarding the one card that could be beaten
            return PASS
        target = view.rules.match_target
        left = max(1, target - view.scores[view.side] - view.deal_scored[view.side])
        best, best_value = PASS, 1.0
        for k in contracts:
            p = self._contract_odds(view, k)
            won, lost = {1: (5, 5), 2: (6, 6), 4: (left + 6, 6)}[k]
            value = p * won - (1 - p) * lost
            if value > best_value:
                best, best_value = BID + k - 1, value
        return best

    def _contract_odds(self, view: TableView, k: int) -> float:
        """The share of sampled deals in which contract ``k`` named now is won, everyone else
        passing and the play following these rules."""
        rng = random.Random(view.hand * 64 + len(view.history) * 8 + k)
        player = TableHeuristicAgent(bid_samples=0)
        won = 0
        for _ in range(self.bid_samples):
            d = view.sample(rng)
            d.apply(BID + k - 1)
            while d.outcome is None and d.decision == TableDecision.BID:
                d.apply(PASS)
            while d.outcome is None:
                p = d.current_player
                d.apply(player.act(TableView.of(d, p), rng))
            won += d.outcome.termination == TableTermination.CONTRACT_WON
        return won / self.bid_samples

    def _nine(self, view: TableView) -> int:
        """Keep showing (and leave) the nines of the suits the declarer's side holds most."""
        legal = view.legal_mask
        mine = view.hand | view.known[(view.player + 2) % view.n_players] if view.n_players == 4 else view.hand
        counts = _suit_counts(mine)
        nines = list(cards_of(legal))
        if view.decision == TableDecision.HOLD_NINE:
            return min(nines, key=lambda c: counts[c // 6])
        return max(nines, key=lambda c: counts[c // 6])

    def _discard(self, view: TableView) -> int:
        hand = view.hand
        if view.player == view.bidder:
            weak = list(cards_of(beatable_cards(hand))) or list(cards_of(hand))
            return max(weak, key=lambda c: (HIGHER_IN_SUIT[c] & ~hand).bit_count())
        return min(cards_of(hand), key=lambda c: (CARD_POINTS[c], c % 6))

    # ------------------------------------------------------------------ play
    def _unseen_higher(self, view: TableView, c: int) -> int:
        gone = view.hand
        for m in view.played:
            gone |= m
        return HIGHER_IN_SUIT[c] & ~gone

    def _lead(self, view: TableView) -> int:
        legal, side = view.legal_mask, view.side
        if legal >> GO_OUT & 1 and view.points[side] >= GOAL:
            return GO_OUT
        has_trick = view.side_tricks[side] > 0
        for s in sorted(range(4), key=lambda s: s != view.trump):
            value = 40 if s == view.trump else 20
            if legal >> (MARRIAGE_NO_LEAD + s) & 1 and has_trick and view.points[side] + value >= GOAL:
                return MARRIAGE_NO_LEAD + s
        for s in sorted(range(4), key=lambda s: s != view.trump):
            if legal >> (MARRIAGE + s) & 1:
                return MARRIAGE + s
        cards = [c for c in cards_of(legal) if c < 24]
        if view.declared >= 0:  # lead the queen of the declared marriage, keeping the king
            return min(cards, key=lambda c: CARD_POINTS[c])
        trump = view.trick_trump
        masters = [c for c in cards if not self._unseen_higher(view, c)]
        if masters:  # plain masters first, trumps only to draw when nothing else is sure
            return max(masters, key=lambda c: (c // 6 != trump, CARD_POINTS[c]))
        plain = [c for c in cards if c // 6 != trump] or cards
        counts = _suit_counts(view.hand)
        return min(plain, key=lambda c: (-counts[c // 6], CARD_POINTS[c], c % 6))

    def _follow(self, view: TableView) -> int:
        legal = view.legal_mask
        cards = list(cards_of(legal))
        trick, trump = list(view.trick), view.trick_trump
        seats = view.trick_seats()
        winner = seats[trick_winner(trick, trump)]
        partner_wins = view.n_players == 4 and winner % 2 == view.player % 2
        last = len(trick) == len(seats) - 1

        def cost(c: int) -> tuple[int, int, int]:
            return (c // 6 == trump, CARD_POINTS[c], c % 6)

        if view.contract and view.player != view.bidder and not view.hand & SUIT_MASK[trick[0] // 6]:
            # a defender who cannot follow keeps the cards that may beat the declarer's weak ones
            return min(
                cards,
                key=lambda c: ((view.unseen & SUIT_MASK[c // 6] & ~HIGHER_IN_SUIT[c] & ~(1 << c)).bit_count(), c % 6),
            )
        if partner_wins and (last or not self._can_be_beaten(view, trick, trump)):
            return max(cards, key=lambda c: (c // 6 != trump, CARD_POINTS[c] if c % 6 != 5 else -1))
        winning = [c for c in cards if trick_winner([*trick, c], trump) == len(trick)]
        if winning and not partner_wins:
            return min(winning, key=cost)
        return min(cards, key=cost)

    def _can_be_beaten(self, view: TableView, trick: list[int], trump: int) -> bool:
        """Whether an unseen card could still beat the best card of ``trick``."""
        best = trick[trick_winner(trick, trump)]
        unseen = view.unseen
        if unseen & HIGHER_IN_SUIT[best]:
            return True
        return trump >= 0 and best // 6 != trump and bool(unseen & SUIT_MASK[trump])
