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

from typing import Any

from ..cards import NUM_CARDS, SUIT_MASK, cards_of, cards_str
from ..checks import check_int
from ..deal_types import RandomSource
from ..infostate import LegalMask
from .actions import HIDDEN_ACTION
from .deal_types import TableDecision, TableOutcome
from .rules import pair_lacks_trumps

__all__ = ["TableView"]


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
    _deal_class: type
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
        m, out = self.legal_mask, []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def sample(self, rng: RandomSource) -> Any:
        """A full deal consistent with this view: the unseen cards dealt at random into the unknown
        places of the hands and of the cards out of play (the naive determinization: voids shown
        by earlier play are not used; a card committed unseen against three nines is drawn from
        the shown suits)."""
        game = self._deal_class
        n = self.n_players
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
        rows = []
        for q in range(n):
            first = list(cards_of(self.hand)) if q == self.player and self.decision == TableDecision.TRUMP else []
            played = list(cards_of(self.played[q]))
            rest = [c for c in cards_of(hands[q] | outs[q]) if c not in first]
            rows.append(first + played + rest)
        if self.trump_card >= 0:  # the turned card sits where the deal put it
            holder, slot = game.turned_slot(self.rules, self.dealer)
            rows[holder].remove(self.trump_card)
            rows[holder].insert(slot % game.hand_size, self.trump_card)
        d = object.__new__(game)
        d.rules = self.rules
        d.dealer = self.dealer
        d.dealt = tuple(tuple(r) for r in rows)
        d.first_packet = tuple(sum(1 << c for c in r[:3]) for r in rows)
        d.hands = hands
        d.known = list(self.known)
        d.trump = self.trump
        d.trump_card = self.trump_card
        d.trick_trump = self.trick_trump
        d.current = self.current_player if self.outcome is None else self.leader
        d.decision = self.decision if self.decision is not None else TableDecision.LEAD
        d.leader = self.leader
        d.trick = list(self.trick)
        d.declared = self.declared
        d.marriages = list(self.marriages)
        d.played = list(self.played)
        d.won_cards = list(self.won_cards)
        d.out_cards = outs
        d.sitting_out = self.sitting_out
        d.tricks_won = list(self.tricks_won)
        d.points = list(self.points)
        d.pending = list(self.pending)
        d.side_tricks = list(self.side_tricks)
        d.claim_chance = list(self.claim_chance)
        d.trick_count = self.trick_count
        d.last_winner = self.last_winner
        d.history = self._sampled_history(committed, outs)
        d.secret = self.secret
        d.outcome = self.outcome
        d.scores = self.scores
        d.cuts = self.cuts
        d.deal_scored = list(self.deal_scored)
        d.queue = list(self.queue)
        d.pair_answer = [-1] * self.n_sides
        for side, asked in enumerate(self.trumps_asked):
            if side == self.side:
                d.pair_answer[side] = self.pair_answer
            elif asked:  # their answer as the sampled hands give it
                d.pair_answer[side] = int(pair_lacks_trumps(hands[side], hands[side + 2], self.trump))
        d.bid = self.bid
        d.bidder = self.bidder
        d.nines_by = self.nines_by
        d.nines_shown = self.nines_shown
        d.committed = committed
        d.nine_left = self.nine_left
        d.nines_hits = self.nines_hits
        d.nine_asked = self.nine_asked
        d.contract = self.contract
        d._mask = -1
        return d

    def _sampled_history(self, committed: list[int], outs: list[int]) -> list[int]:
        """The history with each hidden card decision replaced by the sampled card: a player's
        first face-down decision is his commit if he committed (the bidding comes before any
        discard), else his discard (one of the sampled cards out of play)."""
        out = list(self.history)
        discards = [list(cards_of(m)) for m in outs]
        steps = [0] * self.n_players
        for i, x in enumerate(out):
            if not self.secret >> i & 1:
                continue
            q = x >> 6
            steps[q] += 1
            if x & 63 != HIDDEN_ACTION:
                continue
            if steps[q] == 1 and self.committed[q] != -1:
                out[i] = q << 6 | committed[q]
            else:
                out[i] = q << 6 | discards[q].pop(0)
        return out

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
