"""What one player of a three- or four-player deal may know: ``TableView``.

Encoders and agents read only a view, so they cannot leak a hidden card by construction: it holds
the public facts (every action so far, with the others' face-down card decisions as
``HIDDEN_ACTION``, the tricks, shown marriages, the turned trump card and who
holds it, hand sizes, points) and the player's own hand, never another hand, not even the
partner's. While trump is being chosen a player has seen only his first packet of 3 cards.
In the Russian game it adds the player's own cards out of play, his committed card against
three nines (others' stay hidden until shown) and his pair's answer on trumps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..cards import NUM_CARDS, SUIT_MASK, cards_of, cards_str
from ..checks import check_int
from ..deal_types import RandomSource
from ..infostate import LegalMask
from .actions import HIDDEN_ACTION
from .deal_types import TableDecision, TableOutcome

__all__ = ["TableView", "TableRandomSource"]


class TableRandomSource(RandomSource, Protocol):
    """What ``TableView.sample`` draws with: ``shuffle`` and ``random()`` (``random.Random``,
    ``numpy.random.Generator``): a card committed unseen is picked with ``random()``."""

    def random(self) -> float: ...


class _TableDealClass(Protocol):
    """What ``sample`` needs of the deal class: the table engine's constructor of a deal from a view."""

    @classmethod
    def from_view(
        cls, view: TableView, hands: Sequence[int], outs: Sequence[int], committed: Sequence[int], check: bool = True
    ) -> Any: ...


class TableView:
    """A player's view. Per-player tuples are indexed by absolute seat; per-side tuples by side
    (the player for three players, the team ``seat % 2`` for four)."""

    __slots__ = (
        "rules",
        "game",
        "n_players",
        "n_sides",
        "player",
        "side",
        "dealer",
        "decision",
        "current_player",
        "leader",
        "trick",
        "declared",
        "hand",
        "hand_sizes",
        "known",
        "unseen",
        "trump",
        "trump_card",
        "won_cards",
        "tricks_won",
        "points",
        "pending",
        "side_tricks",
        "marriages",
        "claim_chance",
        "trick_count",
        "last_winner",
        "history",
        "secret",
        "scores",
        "legal_mask",
        "outcome",
        "_deal_class",
        "trick_trump",
        "played",
        "out_mine",
        "out_sizes",
        "sitting_out",
        "cuts",
        "deal_scored",
        "queue",
        "pair_answer",
        "trumps_asked",
        "bid",
        "bidder",
        "nines_by",
        "nines_shown",
        "committed",
        "nine_left",
        "nines_hits",
        "nine_asked",
        "contract",
    )

    rules: Any
    game: str
    n_players: int
    n_sides: int
    player: int
    side: int
    dealer: int
    decision: TableDecision | None
    current_player: int
    leader: int
    trick: tuple[int, ...]
    declared: int
    hand: int
    hand_sizes: tuple[int, ...]
    known: tuple[int, ...]
    unseen: int
    trump: int
    trump_card: int
    won_cards: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    pending: tuple[int, ...]
    side_tricks: tuple[int, ...]
    marriages: tuple[int, ...]
    claim_chance: tuple[bool, ...]
    trick_count: int
    last_winner: int
    history: tuple[int, ...]
    """Every action of the deal as ``player << 6 | action``; another player's card committed or
    discarded face down reads ``player << 6 | HIDDEN_ACTION`` (a committed card once shown reads as itself)."""
    secret: int
    """Bit ``i`` set when ``history[i]`` was a face-down card decision (public: that it happened)."""
    scores: tuple[int, ...]
    legal_mask: LegalMask
    outcome: TableOutcome | None
    _deal_class: type[_TableDealClass]
    """The class of the deal this view was taken from (``ThreeDeal`` or ``FourDeal``): ``sample``
    deals one of the same kind, so this module needs no import of the table engine."""
    trick_trump: int
    played: tuple[int, ...]
    out_mine: int
    """My cards out of play (discards; my whole hand while I sit out a contract)."""
    out_sizes: tuple[int, ...]
    sitting_out: int
    cuts: tuple[int, ...]
    deal_scored: tuple[int, ...]
    queue: tuple[int, ...]
    pair_answer: int
    """My pair's answer on trumps: -1 not asked, 1 condition (c) holds, 0 it does not."""
    trumps_asked: tuple[bool, ...]
    bid: int
    bidder: int
    nines_by: int
    nines_shown: int
    committed: tuple[int, ...]
    """Per player: the card committed against three nines where I may know it (mine, or shown),
    -2 for a card committed unseen, -1 for none."""
    nine_left: int
    nines_hits: int
    nine_asked: int
    contract: int

    @classmethod
    def of(cls, deal: Any, player: int) -> TableView:
        """The view of ``player`` on ``deal`` (a :class:`~sixtysix_env.table.deal.TableDeal`)."""
        n = deal.n_players
        player = check_int("player", player, 0, n - 1)
        v = object.__new__(cls)
        over = deal.outcome is not None
        v.rules = deal.rules
        v.game = deal.game
        v.n_players = n
        v.n_sides = deal.n_sides
        v.player = player
        v.side = deal.side_of(player)
        v.dealer = deal.dealer
        v.decision = None if over else deal.decision
        v.current_player = deal.current_player
        v.leader = deal.leader
        v.trick = tuple(deal.trick)
        v.declared = deal.declared
        v.hand = deal.visible_hand(player)
        v.hand_sizes = tuple(h.bit_count() for h in deal.hands)
        v.out_mine = deal.out_cards[player]
        v.known = tuple(deal.known[q] if q != player else deal.known[q] & (v.hand | v.out_mine) for q in range(n))
        v.unseen = deal.hidden_cards(player)
        v.trump = deal.trump
        v.trump_card = deal.trump_card
        v.won_cards = tuple(deal.won_cards)
        v.tricks_won = tuple(deal.tricks_won)
        v.points = tuple(deal.points)
        v.pending = tuple(deal.pending)
        v.side_tricks = tuple(deal.side_tricks)
        v.marriages = tuple(deal.marriages)
        v.claim_chance = tuple(deal.claim_chance)
        v.trick_count = deal.trick_count
        v.last_winner = deal.last_winner
        v.history = _history_seen(deal, player)
        v.secret = deal.secret
        v.scores = deal.scores
        v.legal_mask = LegalMask(deal.legal_mask() if not over and deal.current == player else 0)
        v.outcome = deal.outcome
        v._deal_class = type(deal)
        v.trick_trump = deal.trick_trump
        v.played = tuple(deal.played)
        v.out_sizes = tuple(m.bit_count() for m in deal.out_cards)
        v.sitting_out = deal.sitting_out
        v.cuts = deal.cuts
        v.deal_scored = tuple(deal.deal_scored)
        v.queue = tuple(deal.queue)
        v.pair_answer = deal.pair_answer[v.side] if n == 4 else -1
        v.trumps_asked = tuple(a >= 0 for a in deal.pair_answer)
        v.bid = deal.bid
        v.bidder = deal.bidder
        v.nines_by = deal.nines_by
        v.nines_shown = deal.nines_shown
        v.committed = tuple(
            c if c < 0 or q == player or deal.nines_hits >> q & 1 else -2 for q, c in enumerate(deal.committed)
        )
        v.nine_left = deal.nine_left
        v.nines_hits = deal.nines_hits
        v.nine_asked = deal.nine_asked
        v.contract = deal.contract
        return v

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.player

    def seat(self, player: int) -> int:
        """``player``'s seat relative to me: 0 me, 1 on my left, and so on clockwise."""
        return (player - self.player) % self.n_players

    def trick_seats(self) -> list[int]:
        """The players of the current trick's cards, in order (a seated-out partner skipped)."""
        seats = [self.leader]
        while len(seats) < self.n_players - (self.sitting_out >= 0):
            q = (seats[-1] + 1) % self.n_players
            seats.append((q + 1) % self.n_players if q == self.sitting_out else q)
        return seats

    def legal_actions(self) -> list[int]:
        m: int = self.legal_mask
        out: list[int] = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def sample(self, rng: TableRandomSource) -> Any:
        """A full deal consistent with this view: the unseen cards dealt at random into the unknown
        places of the hands and of the cards out of play (the naive determinization: voids shown
        by earlier play are not used; a card committed unseen against three nines is drawn from
        the shown suits)."""
        unseen = [c for c in range(NUM_CARDS) if self.unseen >> c & 1]
        suits = 0
        for s in range(4):
            if self.nines_shown & SUIT_MASK[s]:
                suits |= SUIT_MASK[s]
        for _ in range(100):  # redraw until every unseen commitment has a card to be
            pool = unseen[:]
            rng.shuffle(pool)
            pool = [int(c) for c in pool]
            hands, outs = self._fill(pool)
            if all(c != -2 or hands[q] & suits for q, c in enumerate(self.committed)):
                break
        committed = list(self.committed)
        for q, c in enumerate(committed):
            if c == -2:
                choices = list(cards_of(hands[q] & suits)) or list(cards_of(hands[q] | outs[q] | self.played[q]))
                committed[q] = choices[int(rng.random() * len(choices)) % len(choices)]
        # the engine builds the deal; no check: this assignment fits the view by construction
        return self._deal_class.from_view(self, hands, outs, committed, False)

    def _fill(self, pool: list[int]) -> tuple[list[int], list[int]]:
        """Hands and cards out of play with my own cards, every shown card, and ``pool`` dealt
        into the rest (shown cards fill a hand first: nobody can tell hand from face-down pile)."""
        hands, outs = [], []
        for q in range(self.n_players):
            if q == self.player:
                hand, out = self.hand, self.out_mine
            else:
                shown = list(cards_of(self.known[q]))
                k = min(len(shown), self.hand_sizes[q])
                hand, out = sum(1 << c for c in shown[:k]), sum(1 << c for c in shown[k:])
            need = self.hand_sizes[q] - hand.bit_count()
            hand |= sum(1 << c for c in pool[:need])
            del pool[:need]
            need = self.out_sizes[q] - out.bit_count()
            out |= sum(1 << c for c in pool[:need])
            del pool[:need]
            hands.append(hand)
            outs.append(out)
        return hands, outs

    def __repr__(self) -> str:
        return (
            f"<TableView {self.game} player={self.player} hand={cards_str(self.hand)} "
            f"points={self.points} decision={self.decision.name.lower() if self.decision is not None else 'over'}>"
        )


def _history_seen(deal: Any, player: int) -> tuple[int, ...]:
    """``deal.history`` as ``player`` saw it: the others' face-down card decisions hidden, except a
    committed card the three nines showed. Only the commit itself (a player's first face-down
    decision, see ``_sampled_history``) is shown: a later discard stays face down even when it is
    the same card, which the player took back after the nines."""
    secret = deal.secret
    if not secret:
        return tuple(deal.history)
    out = []
    first = [True] * deal.n_players
    for i, x in enumerate(deal.history):
        q = x >> 6
        if secret >> i & 1:
            shown = first[q] and deal.nines_hits >> q & 1 and deal.committed[q] == x & 63
            first[q] = False
            if q != player and not shown:
                x = q << 6 | HIDDEN_ACTION
        out.append(x)
    return tuple(out)
