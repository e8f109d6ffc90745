"""What one player of a three- or four-player deal may know: ``TableView``.

Encoders and agents read only a view, so they cannot leak a hidden card by construction: it holds
the public facts (every action so far, the tricks, shown marriages, the turned trump card and who
holds it, hand sizes, points) and the player's own hand, never another hand, not even the
partner's. While trump is being chosen a player has seen only his first packet of 3 cards.
"""

from __future__ import annotations

from typing import Any

from ..cards import NUM_CARDS, cards_of, cards_str
from ..deal_types import RandomSource
from ..infostate import LegalMask
from .table_types import TableDecision, TableOutcome

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
        "scores",
        "legal_mask",
        "outcome",
        "_deal_class",
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
    scores: tuple[int, ...]
    legal_mask: LegalMask
    outcome: TableOutcome | None
    _deal_class: type
    """The class of the deal this view was taken from (``ThreeDeal`` or ``FourDeal``): ``sample``
    deals one of the same kind, so this module needs no import of the table engine."""

    @classmethod
    def of(cls, deal: Any, player: int) -> TableView:
        """The view of ``player`` on ``deal`` (a :class:`~sixtysix_env.multiplayer.table.TableDeal`)."""
        n = deal.n_players
        if player not in range(n):
            raise ValueError(f"player must be 0..{n - 1}, got {player!r}")
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
        v.known = tuple(deal.known[q] if q != player else deal.known[q] & v.hand for q in range(n))
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
        v.history = tuple(deal.history)
        v.scores = deal.scores
        v.legal_mask = LegalMask(deal.legal_mask() if not over and deal.current == player else 0)
        v.outcome = deal.outcome
        v._deal_class = type(deal)
        return v

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.player

    def seat(self, player: int) -> int:
        """``player``'s seat relative to me: 0 me, 1 on my left, and so on clockwise."""
        return (player - self.player) % self.n_players

    def legal_actions(self) -> list[int]:
        m, out = self.legal_mask, []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def sample(self, rng: RandomSource) -> Any:
        """A full deal consistent with this view: the unseen cards dealt at random into the hands'
        unknown places (the naive determinization: voids shown by earlier play are not used)."""
        game = self._deal_class
        n = self.n_players
        pool = [c for c in range(NUM_CARDS) if self.unseen >> c & 1]
        rng.shuffle(pool)
        pool = [int(c) for c in pool]
        hands = []
        for q in range(n):
            base = self.hand if q == self.player else self.known[q]
            need = self.hand_sizes[q] - base.bit_count()
            hands.append(base | sum(1 << c for c in pool[:need]))
            del pool[:need]
        played: list[list[int]] = [[] for _ in range(n)]
        for x in self.history:
            if x & 63 < NUM_CARDS:
                played[x >> 6].append(x & 63)
        rows = []
        for q in range(n):
            first = list(cards_of(self.hand)) if q == self.player and self.decision == TableDecision.TRUMP else []
            rest = [c for c in cards_of(hands[q]) if c not in first]
            rows.append(first + played[q] + rest)
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
        d.current = self.current_player if self.outcome is None else self.leader
        d.decision = self.decision if self.decision is not None else TableDecision.LEAD
        d.leader = self.leader
        d.trick = list(self.trick)
        d.declared = self.declared
        d.marriages = list(self.marriages)
        d.won_cards = list(self.won_cards)
        d.tricks_won = list(self.tricks_won)
        d.points = list(self.points)
        d.pending = list(self.pending)
        d.side_tricks = list(self.side_tricks)
        d.claim_chance = list(self.claim_chance)
        d.trick_count = self.trick_count
        d.last_winner = self.last_winner
        d.history = list(self.history)
        d.outcome = self.outcome
        d.scores = self.scores
        d._mask = -1
        return d

    def __repr__(self) -> str:
        return (
            f"<TableView {self.game} player={self.player} hand={cards_str(self.hand)} "
            f"points={self.points} decision={self.decision.name.lower() if self.decision is not None else 'over'}>"
        )
