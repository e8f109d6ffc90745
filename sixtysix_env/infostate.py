"""What one player may know: the information state, and deals sampled consistent with it.

Observation encoders and agents read only an ``InfoState``, so they cannot
leak hidden cards by construction: it holds the public information (every
action so far, trick points, closing, declared marriages, the known trump
card) and the player's own hand, never the opponent's unknown cards or the
order of the stock. ``sample(rng)`` deals the unknown cards at random into a
full :class:`~sixtysix_env.engine.Deal` (the determinization PIMC needs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .actions import CLOSE, EXCHANGE, MARRIAGE, PASS, actions_of
from .cards import SUIT_MASK, cards_str
from .checks import check_int
from .deal_types import Decision, Outcome, RandomSource
from .rules import Rules

__all__ = ["InfoState", "LegalMask", "TRUMP_IN_STOCK", "TRUMP_WITH_ME", "TRUMP_WITH_OPPONENT", "TRUMP_PLAYED"]

TRUMP_IN_STOCK = 0
"""``trump_location``: the trump card lies under the stock."""
TRUMP_WITH_ME = 1
"""``trump_location``: the viewing player holds the trump card."""
TRUMP_WITH_OPPONENT = 2
"""``trump_location``: the opponent holds the trump card."""
TRUMP_PLAYED = 3
"""``trump_location``: the trump card has been played."""


class LegalMask(int):
    """An action bitmask (bit ``a`` set: action ``a`` legal) that can also be called, so
    ``info.legal_mask()`` reads as ``deal.legal_mask()`` does; ``info.legal_mask`` stays an int."""

    __slots__ = ()

    def __call__(self) -> int:
        return int(self)


class _DealClass(Protocol):
    """What ``sample`` needs of the deal class: the engine's constructor of a deal from a view."""

    @classmethod
    def from_view(cls, info: InfoState, opponent_hand: int, face_down: Sequence[int], check: bool = True) -> Any: ...


class InfoState:
    """A player's view of a deal. Per-player tuples are indexed by absolute player (0 or 1);
    ``player`` says whose view this is and ``opponent`` is the other one.

    Card sets are ``int`` bitmasks over card ids (id = 6 * suit + rank, suits clubs, spades,
    hearts, diamonds = 0..3, ranks 9 J Q K 10 A = 0..5): ``cards_of(mask)`` lists the ids and
    ``cards_str(mask)`` writes them (``"9C JC AC"``). Action ids are those of
    :mod:`sixtysix_env.actions` (0-23 play a card, 24-27 marriage, 28 exchange, 29 close, 30 pass,
    31 go out). The examples below are one position of a standard deal, player 0 to follow.

    - ``rules`` (Rules): the rule system of the deal. Example: info.rules.name == "standard",
      info.rules.match_target == 7.
    - ``player`` (int): whose view this is: 0 or 1. Example: 0.
    - ``opponent`` (int): the other player, ``1 - player``. Example: 1.
    - ``dealer`` (int): who dealt; the other player leads the first trick. Example: 0.
    - ``decision`` (Decision or None): what the player to act decides: ``LEAD``, ``FOLLOW``,
      ``DRAW`` (close or draw after winning a trick), ``CLOSING_EXCHANGE`` (the opponent just
      closed: exchange the nine or not), ``CLAIM`` (explicit claiming, all cards played); ``None``
      once the deal is over. Example: Decision.FOLLOW.
    - ``current_player`` (int): who acts now; -1 once the deal is over. Example: 0.
    - ``leader`` (int): who leads (or led) the current trick: the winner of the last trick. Example:
      1.
    - ``lead_card`` (int): card id led to the current trick; -1 when none (you are leading).
      Example: 13 (KH).
    - ``declared`` (int): suit of the marriage the leader has just declared (he must now lead its K
      or Q); -1 otherwise. Example: -1.
    - ``just_closed`` (bool): the leader closed the stock on this lead and has not led yet. Example:
      False.
    - ``hand`` (int): my cards as a bitmask: bit c set when card id c is in my hand
      (``cards_of(info.hand)`` lists them). Example: 2162979 (9C JC AC QS TH KD).
    - ``opponent_hand_size`` (int): cards in the opponent's hand. Example: 5.
    - ``known_opponent`` (int): bitmask of the opponent's cards I know: the trump card he took by
      exchange, the partner of a marriage he showed; all his cards once the stock is gone. Example:
      0.
    - ``unseen`` (int): bitmask of the cards I cannot place (the opponent's unknown cards and the
      face-down stock); 0 once the stock is gone. Example: 14584980 (12 cards).
    - ``trump`` (int): trump suit: 0 ♣, 1 ♠, 2 ♥, 3 ♦. Example: 0 (clubs).
    - ``trump_card`` (int): card id turned up for trump. Example: 3 (KC).
    - ``trump_location`` (int): where the trump card is: 0 in the stock, 1 with me, 2 with the
      opponent, 3 played (``TRUMP_IN_STOCK`` ... ``TRUMP_PLAYED``). Example: 0.
    - ``exchange_card`` (int): the card that may be exchanged for the trump card (the trump nine;
      the jack in schnapsen). Example: 0 (9C).
    - ``stock_size`` (int): cards left in the stock, the face-up one included. Example: 8.
    - ``stock_bottom`` (int): the face-up card under the stock (the trump card, or the nine after an
      exchange); -1 when the stock is gone. Example: 3.
    - ``closed_by`` (int): who closed the stock; -1 if nobody. Example: -1.
    - ``closed_opp_tricks`` (int): tricks the closer's opponent had won when the stock was closed
      (decides the game points). Example: 0.
    - ``closed_opp_points`` (int): counted points of the closer's opponent when the stock was
      closed. Example: 0.
    - ``closed_own_tricks`` (int): tricks the closer had won when the stock was closed (a closer who
      wins no trick after closing may lose 6 game points, ``Rules.failed_close_six``). Example: 0.
    - ``points`` (tuple[int, int]): counted points per player (index 0 and 1, not me/opponent): card
      points of the tricks won plus the marriages that count; 66 wins. Example: (3, 4).
    - ``pending`` (tuple[int, int]): marriage points declared but not counted yet (they count once
      that player wins a trick). Example: (0, 0).
    - ``tricks`` (tuple[int, int]): tricks won per player. Example: (1, 1).
    - ``won_cards`` (tuple[int, int]): bitmask of the cards in each player's won tricks. Example:
      (20480, 576).
    - ``marriages`` (tuple[int, int]): bitmask of the suits (bit s) in which each player declared a
      marriage. Example: (0, 0).
    - ``claim_chance`` (tuple[bool, bool]): explicit claiming: whether each player may go out
      (action 31) now. Example: (False, False).
    - ``trick_count`` (int): tricks played so far. Example: 2.
    - ``history`` (tuple[int, ...]): every action of the deal in order, each as ``player * 32 +
      action`` (``h >> 5`` is the player, ``h & 31`` the action); draws from the stock are not
      actions. Example: (44, 14, 30, ...): 44 is player 1 playing card 12 (9H).
    - ``scores`` (tuple[int, int]): the match score (game points per player) when this deal started.
      Example: (0, 0).
    - ``legal_mask`` (LegalMask, an int): my legal actions as a bitmask (bit a set when action a is
      legal); 0 when it is not my turn. It can also be called, ``info.legal_mask()``, as
      ``deal.legal_mask()`` is; ``legal_actions()`` lists them. Example: 2162979.
    - ``outcome`` (Outcome or None): the result once the deal is over (``winner``, ``game_points``,
      ``termination``), else ``None``. Example: None.
    """

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
        "closed_own_tricks",
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
        "_deal_class",
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
    closed_own_tricks: int
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
    _deal_class: type[_DealClass]
    """The class of the deal this view was taken from: ``sample`` deals one of the same kind (so
    this module needs no import of the engine, which imports it)."""

    @classmethod
    def of(cls, deal: Any, player: int) -> InfoState:
        """The view of ``player`` (0 or 1) on ``deal`` (a :class:`~sixtysix_env.engine.Deal`)."""
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
        s.closed_own_tricks = deal.closed_own_tricks
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
        s._deal_class = type(deal)
        return s

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.player

    def legal_actions(self) -> list[int]:
        return actions_of(self.legal_mask)

    def opponent_cannot_hold(self) -> int:
        """Bitmask of unseen cards the opponent's play since closing rules out
        (:func:`ruled_out_by_play`), and the exchange card when my closing offered him no exchange
        (:func:`closing_exchange_evidence`); 0 while the stock is open."""
        if self.closed_by < 0 or not self.unseen:
            return 0
        cannot, _ = closing_exchange_evidence(
            self.history, self.opponent, self.exchange_card, self.rules.exchange_at_closing, self.decision
        )
        by_play = ruled_out_by_play(self.history, self.opponent, self.trump, self.rules.must_win_trick)
        return (by_play | cannot) & self.unseen

    def opponent_must_hold(self) -> int:
        """Bitmask of unseen cards the opponent surely holds: the exchange card, when he was offered
        the exchange at my closing (``Rules.exchange_at_closing``: offered exactly to a holder)
        and kept it."""
        if self.closed_by != self.player or not self.unseen:
            return 0
        _, must = closing_exchange_evidence(
            self.history, self.opponent, self.exchange_card, self.rules.exchange_at_closing, self.decision
        )
        return must & self.unseen

    def sample(self, rng: RandomSource) -> Any:
        """A full deal (a :class:`~sixtysix_env.engine.Deal`) consistent with this view: the unseen
        cards dealt at random between the opponent's unknown hand slots and the face-down stock,
        none that his play rules out in his hand (:meth:`opponent_cannot_hold`): every hand of his
        consistent with this view is equally likely."""
        pool = [c for c in range(24) if self.unseen >> c & 1]
        rng.shuffle(pool)
        pool = [int(c) for c in pool]
        must = self.opponent_must_hold()
        if must:  # already his: not dealt again
            pool = [c for c in pool if not must >> c & 1]
        known_opp = self.known_opponent | must
        n_opp = self.opponent_hand_size - known_opp.bit_count()
        pool = allowed_first(pool, n_opp, self.opponent_cannot_hold())
        # the engine builds the deal; no check: this assignment fits the view by construction
        return self._deal_class.from_view(self, known_opp | sum(1 << c for c in pool[:n_opp]), pool[n_opp:], False)

    def __repr__(self) -> str:
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


def ruled_out_by_play(history: Any, player: int, trump: int, must_win_trick: bool) -> int:
    """Bitmask of the cards ``player`` cannot hold, from how he followed after the stock was
    closed: with another suit, he had none of the suit led (and none of the trumps, if he did not
    trump); with a lower card of the suit, where the rules make him beat the card led when able,
    none higher. No card enters a hand after closing, so this holds for the rest of the deal.
    ``history`` as :attr:`InfoState.history`; before closing any card may be played: no rule."""
    out = 0
    closed = False
    lead = -1
    trumps = SUIT_MASK[trump]
    for h in history:
        a = h & 31
        if a >= MARRIAGE:
            closed = closed or a == CLOSE
            continue
        if lead < 0:
            lead = a
            continue
        if closed and h >> 5 == player:
            led = SUIT_MASK[lead // 6]
            if not led >> a & 1:
                out |= led if trumps >> a & 1 else led | trumps
            elif a < lead and must_win_trick:
                out |= led & ~((2 << lead) - 1)  # the cards of the suit above the one led
        lead = -1
    return out


def closing_exchange_evidence(
    history: Any, player: int, exchange_card: int, exchange_at_closing: bool, decision: Decision | None
) -> tuple[int, int]:
    """``(cannot, must)``: what the other player's closing says about ``player``'s holding the
    exchange card. Where the rules offer the exchange at closing, the engine offers it exactly
    when he holds that card, in sight of both: no offer means he does not hold it (``cannot``,
    and no card enters a hand after closing), an offer declined means he does (``must``).
    ``decision``: the deal's current decision, for an offer not answered yet."""
    if not exchange_at_closing:
        return 0, 0
    bit = 1 << exchange_card
    for i, h in enumerate(history):
        if h & 31 != CLOSE:
            continue
        if h >> 5 == player:
            return 0, 0
        if i + 1 == len(history):
            return (0, bit) if decision == Decision.CLOSING_EXCHANGE else (bit, 0)
        answer = history[i + 1]
        if answer >> 5 == player and answer & 31 in (PASS, EXCHANGE):
            return (0, bit) if answer & 31 == PASS else (0, 0)
        return bit, 0
    return 0, 0


def allowed_first(pool: list[int], count: int, ruled_out: int) -> list[int]:
    """``pool`` (shuffled) reordered so that its first ``count`` cards are the first ones not in
    ``ruled_out``, the others after them in their order: dealing the first ``count`` to the
    opponent then gives every hand consistent with his play the same chance (the order of the
    others is not uniform, but they are the closed stock, whose order no longer matters)."""
    if not ruled_out:
        return pool
    his = [c for c in pool if not ruled_out >> c & 1][:count]
    taken = sum(1 << c for c in his)
    return [*his, *(c for c in pool if not taken >> c & 1)]
