"""What one player of a three- or four-player deal may know: ``TableView``.

Encoders and agents read only a view, so they cannot leak a hidden card by construction: it holds
the public facts (every action so far, the tricks, shown marriages, the turned trump card and who
holds it, hand sizes, points) and the player's own hand, never another hand, not even the
partner's. While trump is being chosen a player has seen only his first packet of 3 cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .table import TableDecision, TableOutcome

if TYPE_CHECKING:
    from .table import TableDeal

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
        "history",
        "scores",
        "legal_mask",
        "outcome",
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
    history: tuple[int, ...]
    scores: tuple[int, ...]
    legal_mask: int
    outcome: TableOutcome | None

    @classmethod
    def of(cls, deal: TableDeal, player: int) -> TableView:
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
        v.history = tuple(deal.history)
        v.scores = deal.scores
        v.legal_mask = deal.legal_mask() if not over and deal.current == player else 0
        v.outcome = deal.outcome
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

    def __repr__(self) -> str:
        from ..cards import cards_str

        return (
            f"<TableView {self.game} player={self.player} hand={cards_str(self.hand)} "
            f"points={self.points} decision={self.decision}>"
        )
