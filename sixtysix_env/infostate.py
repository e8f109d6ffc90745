"""What one player may know: the information state, and deals sampled consistent with it.

Observation encoders and agents read only an ``InfoState``, so they cannot
leak hidden cards by construction: it holds the public information (every
action so far, trick points, closing, declared marriages, the known trump
card) and the player's own hand, never the opponent's unknown cards or the
order of the stock. ``sample(rng)`` deals the unknown cards at random into a
full :class:`~sixtysix_env.engine.Deal` (the determinization PIMC needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .checks import check_int
from .engine import Deal, Decision, Outcome
from .rules import Rules

if TYPE_CHECKING:
    from .engine import RandomSource

__all__ = ["InfoState", "LegalMask", "TRUMP_IN_STOCK", "TRUMP_WITH_ME", "TRUMP_WITH_OPPONENT", "TRUMP_PLAYED"]

TRUMP_IN_STOCK, TRUMP_WITH_ME, TRUMP_WITH_OPPONENT, TRUMP_PLAYED = range(4)


class LegalMask(int):
    """An action bitmask (bit ``a`` set: action ``a`` legal) that can also be called, so
    ``info.legal_mask()`` reads as ``deal.legal_mask()`` does; ``info.legal_mask`` stays an int."""

    __slots__ = ()

    def __call__(self) -> int:
        return int(self)


class InfoState:
    """A player's view of a deal. Per-player tuples are indexed by absolute player (0 or 1);
    ``player`` says whose view this is and ``opponent`` is the other one."""

    __slots__ = (
        "rules",
        "player",
        "opponent",
        "dealer",
        "decision",
        "current_player",
        "leader",
        "lead_card",
        "declared",
        "just_closed",
        "hand",
        "opponent_hand_size",
        "known_opponent",
        "unseen",
        "trump",
        "trump_card",
        "trump_location",
        "exchange_card",
        "stock_size",
        "stock_bottom",
        "closed_by",
        "closed_opp_tricks",
        "closed_opp_points",
        "points",
        "pending",
        "tricks",
        "won_cards",
        "marriages",
        "claim_chance",
        "trick_count",
        "history",
        "scores",
        "legal_mask",
        "outcome",
        "_known",
    )

    rules: Rules
    player: int
    opponent: int
    dealer: int
    decision: Decision | None
    current_player: int
    leader: int
    lead_card: int
    declared: int
    just_closed: bool
    hand: int
    opponent_hand_size: int
    known_opponent: int
    unseen: int
    trump: int
    trump_card: int
    trump_location: int
    exchange_card: int
    stock_size: int
    stock_bottom: int
    closed_by: int
    closed_opp_tricks: int
    closed_opp_points: int
    points: tuple[int, int]
    pending: tuple[int, int]
    tricks: tuple[int, int]
    won_cards: tuple[int, int]
    marriages: tuple[int, int]
    claim_chance: tuple[bool, bool]
    trick_count: int
    history: tuple[int, ...]
    scores: tuple[int, int]
    legal_mask: LegalMask
    outcome: Outcome | None
    _known: tuple[int, int]

    @classmethod
    def of(cls, deal: Deal, player: int) -> InfoState:
        """The view of ``player`` (0 or 1) on ``deal``."""
        if type(player) is not int or not 0 <= player <= 1:  # the common case skips the full check
            player = check_int("player", player, 0, 1)
        o = 1 - player
        s = object.__new__(cls)
        s.rules = deal.rules
        s.player = player
        s.opponent = o
        s.dealer = deal.dealer
        over = deal.outcome is not None
        s.decision = None if over else deal.decision
        s.current_player = deal.current_player
        s.leader = deal.leader
        s.lead_card = deal.lead_card
        s.declared = deal.declared
        s.just_closed = deal.just_closed
        hand = deal.hands[player]
        s.hand = hand
        opp_hand = deal.hands[o]
        s.opponent_hand_size = opp_hand.bit_count()
        stock = deal.stock
        opp_hidden, stock_hidden = deal.hidden_cards(player)
        # With the stock gone, every card not seen elsewhere is in the opponent's hand.
        s.known_opponent = opp_hand if not stock else deal.known[o]
        s.unseen = 0 if not stock else opp_hidden | stock_hidden
        s.trump = deal.trump
        tc = deal.trump_card
        s.trump_card = tc
        if stock and stock[0] == tc:
            s.trump_location = TRUMP_IN_STOCK
        elif hand >> tc & 1:
            s.trump_location = TRUMP_WITH_ME
        elif opp_hand >> tc & 1:
            s.trump_location = TRUMP_WITH_OPPONENT
        else:
            s.trump_location = TRUMP_PLAYED
        s.exchange_card = deal.exchange_card
        s.stock_size = len(stock)
        s.stock_bottom = stock[0] if stock else -1
        s.closed_by = deal.closed_by
        s.closed_opp_tricks = deal.closed_opp_tricks
        s.closed_opp_points = deal.closed_opp_points
        s.points = (deal.points[0], deal.points[1])
        s.pending = (deal.pending[0], deal.pending[1])
        s.tricks = (deal.tricks[0], deal.tricks[1])
        s.won_cards = (deal.won_cards[0], deal.won_cards[1])
        s.marriages = (deal.marriages[0], deal.marriages[1])
        s.claim_chance = (deal.claim_chance[0], deal.claim_chance[1])
        s.trick_count = deal.trick_count
        s.history = tuple(deal.history)
        s.scores = deal.scores
        s.legal_mask = LegalMask(deal.legal_mask() if not over and deal.current == player else 0)
        s.outcome = deal.outcome
        s._known = (deal.known[0], deal.known[1])
        return s

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.player

    def legal_actions(self) -> list[int]:
        from .actions import actions_of

        return actions_of(self.legal_mask)

    def sample(self, rng: RandomSource) -> Deal:
        """A full deal consistent with this view: the unseen cards dealt at random between the
        opponent's unknown hand slots and the face-down stock."""
        o = self.opponent
        pool = [c for c in range(24) if self.unseen >> c & 1]
        rng.shuffle(pool)
        pool = [int(c) for c in pool]
        known_opp = self.known_opponent
        n_opp = self.opponent_hand_size - known_opp.bit_count()
        d = object.__new__(Deal)
        d.rules = self.rules
        d.dealer = self.dealer
        d.trump = self.trump
        d.trump_card = self.trump_card
        d.exchange_card = self.exchange_card
        hands = [0, 0]
        hands[self.player] = self.hand
        hands[o] = known_opp | sum(1 << c for c in pool[:n_opp])
        d.hands = hands
        d.stock = [self.stock_bottom, *pool[n_opp:]] if self.stock_size else []
        d.current = self.current_player if self.outcome is None else self.leader
        d.decision = self.decision if self.decision is not None else Decision.LEAD
        d.leader = self.leader
        d.lead_card = self.lead_card
        d.declared = self.declared
        d.just_closed = self.just_closed
        d.closed_by = self.closed_by
        d.closed_opp_tricks = self.closed_opp_tricks
        d.closed_opp_points = self.closed_opp_points
        d.points = list(self.points)
        d.pending = list(self.pending)
        d.tricks = list(self.tricks)
        d.won_cards = list(self.won_cards)
        d.marriages = list(self.marriages)
        d.known = list(self._known)
        d.claim_chance = list(self.claim_chance)
        d.trick_count = self.trick_count
        d.history = list(self.history)
        d.outcome = self.outcome
        d.scores = self.scores
        d.arrangement = None
        d._mask = -1
        return d

    def __repr__(self) -> str:
        from .cards import cards_str

        return (
            f"<InfoState player={self.player} hand={cards_str(self.hand)} trump={cards_str([self.trump_card])} "
            f"stock={self.stock_size} points={self.points} "
            f"decision={self.decision.name.lower() if self.decision is not None else 'over'}>"
        )

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
