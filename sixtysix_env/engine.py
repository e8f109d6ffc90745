"""The reference rules engine for two-player Sixty-Six: one mutable ``Deal``.

This module is the specification the fast batched engine is checked against,
so it favours plain code over cleverness; it is still quick because card sets
are int bitmasks and the legal actions are one int mask (bit ``a`` set means
action ``a`` is legal). It knows nothing of Gymnasium or PettingZoo.

A deal moves through decisions (``Decision``); every decision belongs to one
player (``current_player``). ``apply(action)`` checks legality, changes the
state and moves to the next decision, doing the automatic parts (resolving
tricks, drawing, going out under automatic claiming, scoring) on the way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, NUM_ACTIONS, PASS, action_label, action_str, actions_of
from .actions import parse_action as parse_action_text
from .cards import CARD_POINTS, NUM_CARDS, SUIT_MASK, Rank, card, card_str, cards_str, parse_cards
from .checks import as_index, check_int
from .deal_types import Decision, Outcome, RandomSource, Termination, compile_copies
from .infostate import InfoState
from .rules import Rules, get_rules

__all__ = [
    "Deal",
    "Decision",
    "Outcome",
    "Termination",
    "IllegalActionError",
    "MAX_DEAL_ACTIONS",
    "GOAL",
    "TERMINAL",
]

GOAL = 66
"""Counted points that win a deal (66)."""
TERMINAL = -1
"""``current_player`` of a finished deal."""

MAX_DEAL_ACTIONS = 48
"""Upper bound on the actions of one deal (24 cards, 6 draws, exchanges, close, marriages, claims)."""


class IllegalActionError(ValueError):
    """An action that is not legal in this position; the message names the legal ones."""

    def __init__(self, action: object, legal: Sequence[int], position: str) -> None:
        self.action = action
        self.legal = list(legal)
        self.position = position
        names = ", ".join(f"{a} ({action_str(a)})" for a in self.legal) or "none (the deal is over)"
        super().__init__(f"illegal action {action!r} in {position}: legal actions are {names}")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled with its own arguments: an error raised in a worker process reaches the parent
        return (type(self), (self.action, self.legal, self.position))


def _check_scores(scores: object, target: int) -> tuple[int, int]:
    """Match scores before a deal: two game-point totals in 0..target-1 (a score at the match
    target means the match is over, so no deal is played at it)."""
    if isinstance(scores, str | bytes) or not isinstance(scores, Sequence) or len(scores) != 2:
        raise ValueError(f"scores={scores!r} is not allowed: give (player 0's, player 1's) game points")
    return (check_int("scores[0]", scores[0], 0, target - 1), check_int("scores[1]", scores[1], 0, target - 1))


def _parse_place(where: str, cards: object) -> list[int]:
    """The cards of one hand or the stock; a ValueError naming the place when unreadable."""
    if not isinstance(cards, str) and not isinstance(cards, Sequence):
        raise ValueError(f"{where}={cards!r} is not allowed: give a list of cards or a string such as 'QH TS 9C'")
    try:
        return parse_cards(cards)  # type: ignore[arg-type]
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


# Tables built once at import: who wins a trick, which follow cards beat the lead.
def _follower_wins_table(trump: int) -> tuple[bool, ...]:
    out = []
    for lead in range(NUM_CARDS):
        for follow in range(NUM_CARDS):
            if follow // 6 == lead // 6:
                out.append(follow > lead)
            else:
                out.append(follow // 6 == trump)
    return tuple(out)


FOLLOWER_WINS: tuple[tuple[bool, ...], ...] = tuple(_follower_wins_table(t) for t in range(4))
HIGHER_IN_SUIT: tuple[int, ...] = tuple(SUIT_MASK[c // 6] & ~((2 << c) - 1) for c in range(NUM_CARDS))
MARRIAGE_PAIR: tuple[int, ...] = tuple((1 << card(s, Rank.KING)) | (1 << card(s, Rank.QUEEN)) for s in range(4))
KING_BIT: tuple[int, ...] = tuple(1 << card(s, Rank.KING) for s in range(4))
_CARD_ACTIONS = (1 << NUM_CARDS) - 1


class Deal:
    """One deal of two-player Sixty-Six, mutated in place by :meth:`apply`.

    Public attributes are read-only for callers (change the deal only through
    ``apply``). Hands and won cards are bitmasks; ``stock`` lists the stock
    bottom first, so ``stock[0]`` is the face-up trump card (or the exchanged
    card) and ``stock[-1]`` is drawn next.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "rules",
        "dealer",
        "trump",
        "trump_card",
        "exchange_card",
        "hands",
        "stock",
        "current",
        "decision",
        "leader",
        "lead_card",
        "declared",
        "just_closed",
        "closed_by",
        "closed_opp_tricks",
        "closed_opp_points",
        "closed_own_tricks",
        "points",
        "pending",
        "tricks",
        "won_cards",
        "marriages",
        "known",
        "claim_chance",
        "trick_count",
        "history",
        "outcome",
        "scores",
        "arrangement",
    )
    """The deal's state, each field named once: ``__slots__``, ``clone`` (and so ``apply_all``),
    pickling (through the slots) and the determinizer :meth:`from_view` derive from it, and a field
    annotated below but missing here (or the reverse) fails at import. ``_mask`` is the cache of
    the legal actions."""
    __slots__ = (*FIELDS, "_mask")

    rules: Rules
    dealer: int
    trump: int
    trump_card: int
    exchange_card: int
    hands: list[int]
    stock: list[int]
    current: int
    decision: Decision
    leader: int
    lead_card: int
    declared: int
    just_closed: bool
    closed_by: int
    closed_opp_tricks: int
    closed_opp_points: int
    closed_own_tricks: int
    points: list[int]
    pending: list[int]
    tricks: list[int]
    won_cards: list[int]
    marriages: list[int]
    known: list[int]
    claim_chance: list[bool]
    trick_count: int
    history: list[int]
    outcome: Outcome | None
    scores: tuple[int, int]
    arrangement: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int] | None
    _mask: int

    # the table size, named as ``TableDeal`` names it (``deal_types.DealLike``)
    n_players: ClassVar[int] = 2
    n_sides: ClassVar[int] = 2
    game: ClassVar[str] = "two-player"

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        rules: str | Rules | None = None,
        rng: RandomSource | None = None,
        dealer: int = 0,
        scores: tuple[int, int] = (0, 0),
    ) -> Deal:
        """A shuffled deal. ``rng`` is any object with ``shuffle(list)`` (``random.Random``,
        ``numpy.random.Generator``); pass the caller's own RNG for reproducible deals."""
        r = get_rules(rules)
        if rng is None:
            raise ValueError("Deal.new needs an rng (random.Random or numpy Generator) for reproducible deals")
        if not callable(getattr(rng, "shuffle", None)):
            raise TypeError(f"rng={rng!r} is not allowed: use an object with shuffle(list), such as random.Random")
        dealer = check_int("dealer", dealer, 0, 1)
        scores = _check_scores(scores, r.match_target)
        deck = [c for c in range(NUM_CARDS) if r.deck_mask >> c & 1]
        rng.shuffle(deck)
        deck = [int(c) for c in deck]
        n = r.hand_size
        # Dealt face down: the first 2n cards are the hands, the next card is turned up as trump,
        # and the rest lie face down on it; ``stock`` below is given top first.
        hand0, hand1 = deck[:n], deck[n : 2 * n]
        rest = deck[2 * n :]
        stock_top_first = rest[1:] + rest[:1]
        return cls._start(r, (tuple(hand0), tuple(hand1)), tuple(stock_top_first), dealer, scores)

    @classmethod
    def from_arrangement(
        cls,
        hands: Sequence[Sequence[str | int] | str],
        stock: Sequence[str | int] | str,
        dealer: int = 0,
        rules: str | Rules | None = None,
        scores: tuple[int, int] = (0, 0),
        check: bool = True,
    ) -> Deal:
        """A deal from given cards: ``hands[p]`` for each player, ``stock`` top first (its last card
        is the face-up trump card). Raises ``ValueError`` naming what is wrong with the arrangement.
        ``check=False`` with ``rules`` a ``Rules`` skips every check, for callers that built a valid
        arrangement of card ids themselves (the inference sampler builds thousands a decision)."""
        if not check and isinstance(rules, Rules):
            hands_ids = (tuple(hands[0]), tuple(hands[1]))
            return cls._start(rules, hands_ids, tuple(stock), dealer, scores)  # type: ignore[arg-type]
        r = get_rules(rules)
        dealer = check_int("dealer", dealer, 0, 1)
        scores = _check_scores(scores, r.match_target)
        if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != 2:
            raise ValueError(f"hands={hands!r} is not allowed: give 2 hands (lists of cards or card strings)")
        parsed_hands = tuple(tuple(_parse_place(f"hand {p}", h)) for p, h in enumerate(hands))
        parsed_stock = tuple(_parse_place("stock", stock))
        seen: dict[int, str] = {}
        for where, cards in (("hand 0", parsed_hands[0]), ("hand 1", parsed_hands[1]), ("stock", parsed_stock)):
            for c in cards:
                if not r.deck_mask >> c & 1:
                    raise ValueError(f"{card_str(c)} in {where} is not in the {r.deck_size}-card deck")
                if c in seen:
                    places = f"twice in {where}" if seen[c] == where else f"in {seen[c]} and {where}"
                    raise ValueError(f"duplicate card {card_str(c)} ({places}): each card is dealt once")
                seen[c] = where
        for p, h in enumerate(parsed_hands):
            if len(h) != r.hand_size:
                raise ValueError(f"hand {p} has {len(h)} cards; {r.name} rules deal {r.hand_size}")
        if len(parsed_stock) != r.stock_size:
            raise ValueError(f"stock has {len(parsed_stock)} cards; {r.name} rules leave {r.stock_size}")
        missing = [c for c in range(NUM_CARDS) if r.deck_mask >> c & 1 and c not in seen]
        if missing:
            raise ValueError(f"missing cards: {cards_str(missing)}")
        return cls._start(r, parsed_hands, parsed_stock, dealer, scores)  # type: ignore[arg-type]

    @classmethod
    def _start(
        cls,
        rules: Rules,
        hands: tuple[tuple[int, ...], tuple[int, ...]],
        stock_top_first: tuple[int, ...],
        dealer: int,
        scores: tuple[int, int],
    ) -> Deal:
        d = object.__new__(cls)
        d.rules = rules
        d.dealer = dealer
        d.trump_card = stock_top_first[-1]
        d.trump = d.trump_card // 6
        d.exchange_card = card(d.trump, rules.exchange_rank)
        d.hands = [sum(1 << c for c in hands[0]), sum(1 << c for c in hands[1])]
        d.stock = list(reversed(stock_top_first))
        d.current = 1 - dealer
        d.decision = Decision.LEAD
        d.leader = 1 - dealer
        d.lead_card = -1
        d.declared = -1
        d.just_closed = False
        d.closed_by = -1
        d.closed_opp_tricks = 0
        d.closed_opp_points = 0
        d.closed_own_tricks = 0
        d.points = [0, 0]
        d.pending = [0, 0]
        d.tricks = [0, 0]
        d.won_cards = [0, 0]
        d.marriages = [0, 0]
        d.known = [0, 0]
        d.claim_chance = [False, False]
        d.trick_count = 0
        d.history = []
        d.outcome = None
        d.scores = (int(scores[0]), int(scores[1]))
        d.arrangement = (hands[0], hands[1], stock_top_first, dealer)
        d._mask = -1
        return d

    @classmethod
    def from_view(cls, info: InfoState, opponent_hand: int, face_down: Sequence[int], check: bool = True) -> Deal:
        """The deal ``info`` describes, with the cards its player cannot see placed: ``opponent_hand``
        is the opponent's whole hand as a bitmask (his known cards included), ``face_down`` the
        face-down stock cards in ``stock`` order (the last is drawn next; empty once the stock is
        gone). This is how a view becomes a full deal (``InfoState.sample``, ``resample_hidden``).
        Raises ``ValueError`` saying what does not fit the view: a wrong count, a card placed twice
        or seen elsewhere, a known card missing, a card his play rules out (or one he must hold).
        ``check=False`` skips the checks, for ``InfoState.sample``, whose assignments fit by
        construction (tested) and which PIMC calls thousands of times a decision."""
        if check:
            if not isinstance(info, InfoState):
                raise TypeError(f"info={info!r} is not allowed: give an InfoState (deal.information_state(player))")
            if type(opponent_hand) is not int:
                raise TypeError(f"opponent_hand={opponent_hand!r} is not allowed: give the hand as an int bitmask")
            problem = _view_mismatch(info, opponent_hand, face_down)
            if problem:
                raise ValueError(f"this assignment does not fit player {info.player}'s view: {problem}")
        hands = [info.hand, opponent_hand] if info.opponent else [opponent_hand, info.hand]
        stock = [info.stock_bottom, *face_down] if info.stock_size else []
        d: Deal = _deal_from_view(cls, info, hands, stock)
        return d

    if TYPE_CHECKING:  # straight code compiled from FIELDS below the class (``compile_copies``)

        def clone(self) -> Deal:
            """An independent copy."""
            ...

        __copy__ = clone

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        """The player to act, or ``TERMINAL`` (-1) once the deal is over."""
        return TERMINAL if self.outcome is not None else self.current

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def side_of(self, player: int) -> int:
        """Who scores for ``player``: with two players, the player himself (as ``TableDeal.side_of``)."""
        return player

    @property
    def trick(self) -> list[int]:
        """The card on the table, if any (``TableDeal.trick``: the cards of the trick in play)."""
        return [self.lead_card] if self.lead_card >= 0 else []

    @property
    def tricks_won(self) -> list[int]:
        """Tricks taken per player: ``tricks`` under the name ``TableDeal`` uses."""
        return self.tricks

    @property
    def stock_open(self) -> bool:
        """Phase 1: the stock is neither closed nor exhausted (no obligation to follow)."""
        return self.closed_by < 0 and bool(self.stock)

    def legal_mask(self) -> int:
        """Legal actions as an int: bit ``a`` is set when action ``a`` is legal."""
        m = self._mask
        if m < 0:
            m = self._mask = self._compute_mask()
        return m

    def legal_actions(self) -> list[int]:
        return actions_of(self.legal_mask())

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` (an int, numpy integer or 0-d integer array) is legal now."""
        a = as_index(action)
        return a is not None and 0 <= a < NUM_ACTIONS and bool(self.legal_mask() >> a & 1)

    def returns(self) -> tuple[int, int]:
        """Game points won (+) and lost (-) per player; (0, 0) while the deal runs or after a draw."""
        return self.outcome.returns() if self.outcome is not None else (0, 0)

    def counted_points(self, player: int) -> int:
        """Card points of the tricks won plus the marriages that count (docs/RULES.md 2.8)."""
        return self.points[player]

    def can_exchange(self, player: int) -> bool:
        r = self.rules
        if self.closed_by >= 0 or len(self.stock) < 2 or not self.hands[player] >> self.exchange_card & 1:
            return False
        need = r.exchange_requires
        if need == "won_trick":
            return self.tricks[player] > 0
        if need == "after_first_trick":
            return self.trick_count > 0
        return True

    def can_close(self) -> bool:
        r = self.rules
        return r.closing and self.closed_by < 0 and len(self.stock) >= r.closing_min_stock

    def _marriage_actions(self, player: int) -> int:
        r = self.rules
        if self.trick_count == 0 and not r.marriage_on_first_lead:
            return 0
        if not (self.stock_open or r.marriages_after_stock or (self.just_closed and self.closed_by == player)):
            return 0
        hand = self.hands[player]
        m = 0
        for s in range(4):
            pair = MARRIAGE_PAIR[s]
            if hand & pair == pair:
                m |= 1 << (MARRIAGE + s)
        return m

    def _follow_cards(self, hand: int) -> int:
        if self.stock_open:
            return hand
        lead = self.lead_card
        same = hand & SUIT_MASK[lead // 6]
        if same:
            if self.rules.must_win_trick:
                higher = same & HIGHER_IN_SUIT[lead]
                return higher or same
            return same
        return hand & SUIT_MASK[self.trump] or hand

    def _compute_mask(self) -> int:
        if self.outcome is not None:
            return 0
        p = self.current
        d = self.decision
        explicit = self.rules.claiming == "explicit"
        if d == Decision.FOLLOW:
            m = self._follow_cards(self.hands[p])
            if self.rules.exchange_timing == "any_turn" and self.can_exchange(p):
                m |= 1 << EXCHANGE
            return m
        if d == Decision.LEAD:
            claim = (1 << GO_OUT) if explicit and self.claim_chance[p] else 0
            if self.declared >= 0:
                pair = KING_BIT[self.declared] if self.rules.marriage_lead == "king" else MARRIAGE_PAIR[self.declared]
                return (self.hands[p] & pair) | claim
            m = self.hands[p] | claim | self._marriage_actions(p)
            if self.can_exchange(p):
                m |= 1 << EXCHANGE
            if self.can_close():
                m |= 1 << CLOSE
            return m
        if d == Decision.DRAW:
            return (1 << CLOSE) | (1 << PASS) | ((1 << GO_OUT) if explicit else 0)
        if d == Decision.CLOSING_EXCHANGE:
            return (1 << EXCHANGE) | (1 << PASS)
        return (1 << GO_OUT) | (1 << PASS)  # Decision.CLAIM

    # ------------------------------------------------------------------ moves
    def apply(self, action: int) -> None:
        """Play one action for ``current_player``; raises ``IllegalActionError`` (a ``ValueError``)
        naming the legal actions, leaving the deal unchanged, when it is not legal."""
        mask = self._mask
        if mask < 0:
            mask = self.legal_mask()
        a = as_index(action)
        if a is None or not (0 <= a < NUM_ACTIONS and mask >> a & 1):
            raise IllegalActionError(action, actions_of(mask), self.describe())
        self._mask = -1
        p = self.current
        self.history.append(p << 5 | a)
        d = self.decision
        if d == Decision.FOLLOW:
            if a < NUM_CARDS:
                self._follow(p, a)
            else:  # exchange before following (exchange_timing="any_turn")
                self._exchange(p)
        elif d == Decision.LEAD:
            if a < MARRIAGE:
                self._lead(p, a)
            elif a < EXCHANGE:
                self._declare(p, a - MARRIAGE)
            elif a == EXCHANGE:
                self._exchange(p)
            elif a == CLOSE:
                self._close(p)
            else:
                self._go_out(p)
        elif d == Decision.DRAW:
            if a == PASS:
                self._draw(p)
                self.decision = Decision.LEAD
            elif a == CLOSE:
                self._close(p)
            else:
                self._go_out(p)
        elif d == Decision.CLOSING_EXCHANGE:
            if a == EXCHANGE:
                self._exchange(p)
            self.current = 1 - p
            self.decision = Decision.LEAD
        elif a == GO_OUT:  # Decision.CLAIM
            self._go_out(p)
        else:
            self._score_played_out(p)

    def apply_all(self, actions: Sequence[int | str] | str) -> Deal:
        """Apply several actions, given as ids or text (``"JD 9S P M1 KS"``); returns self. All or
        nothing: when one is unreadable or illegal the deal stays as it was."""
        if isinstance(actions, str):
            actions = actions.split()
        elif not isinstance(actions, Sequence):
            raise TypeError(f"actions={actions!r} is not allowed: give a list of actions or a text such as 'JD 9S P'")
        trial = self.clone()
        for a in actions:
            trial.apply(parse_action_text(a) if isinstance(a, str) else a)
        for name in Deal.__slots__:
            setattr(self, name, getattr(trial, name))
        return self

    def _lead(self, p: int, c: int) -> None:
        bit = 1 << c
        self.hands[p] ^= bit
        self.known[p] &= ~bit
        self.lead_card = c
        self.declared = -1
        self.just_closed = False
        self.claim_chance[p] = False
        self.current = 1 - p
        self.decision = Decision.FOLLOW

    def _follow(self, p: int, c: int) -> None:
        bit = 1 << c
        self.hands[p] ^= bit
        self.known[p] &= ~bit
        lead = self.lead_card
        winner = p if FOLLOWER_WINS[self.trump][lead * NUM_CARDS + c] else 1 - p
        self.won_cards[winner] |= bit | (1 << lead)
        self.points[winner] += CARD_POINTS[lead] + CARD_POINTS[c] + self.pending[winner]
        self.pending[winner] = 0
        self.tricks[winner] += 1
        self.trick_count += 1
        self.lead_card = -1
        self.leader = self.current = winner
        r = self.rules
        last = not (self.hands[0] | self.hands[1])
        if last and self.closed_by < 0:
            self.points[winner] += r.last_trick_bonus
        if r.claiming == "auto":
            if self.points[winner] >= GOAL:
                self._go_out(winner)
                return
        else:
            self.claim_chance[winner] = True
        if last:
            if r.claiming == "explicit":
                self.decision = Decision.CLAIM
            else:
                self._score_played_out(winner)
            return
        if self.stock_open:
            if r.close_before_drawing and self.can_close():
                self.decision = Decision.DRAW
                return
            self._draw(winner)
        self.decision = Decision.LEAD

    def _draw(self, winner: int) -> None:
        stock = self.stock
        self.hands[winner] |= 1 << stock.pop()
        last = stock.pop()
        self.hands[1 - winner] |= 1 << last
        if not stock:  # the face-up card went to the loser, in sight of both
            self.known[1 - winner] |= 1 << last

    def _declare(self, p: int, suit: int) -> None:
        value = 40 if suit == self.trump else 20
        self.marriages[p] |= 1 << suit
        self.declared = suit
        self.known[p] |= MARRIAGE_PAIR[suit]
        if self.rules.marriage_counts == "any_trick" and self.tricks[p] > 0:
            self.points[p] += value
        else:
            self.pending[p] += value
        if self.rules.claiming == "explicit":
            self.claim_chance[p] = True
        elif self.points[p] >= GOAL:
            self._go_out(p)

    def _exchange(self, p: int) -> None:
        face_up = self.stock[0]
        self.hands[p] ^= (1 << self.exchange_card) | (1 << face_up)
        self.known[p] |= 1 << face_up
        self.stock[0] = self.exchange_card

    def _close(self, p: int) -> None:
        o = 1 - p
        self.closed_by = p
        self.just_closed = True
        self.closed_opp_tricks = self.tricks[o]
        self.closed_opp_points = self.points[o]
        self.closed_own_tricks = self.tricks[p]
        if self.rules.exchange_at_closing and len(self.stock) >= 2 and self.hands[o] >> self.exchange_card & 1:
            self.current = o
            self.decision = Decision.CLOSING_EXCHANGE
        else:
            self.decision = Decision.LEAD

    # ------------------------------------------------------------------ scoring
    def _is_schwarz(self, points: int, tricks: int) -> bool:
        return points == 0 if self.rules.schwarz == "no_points" else tricks == 0

    def _game_points(self, loser_points: int, loser_tricks: int) -> int:
        if self._is_schwarz(loser_points, loser_tricks):
            return 3
        return 2 if loser_points < GOAL // 2 else 1

    def _closer_fail_points(self) -> int:
        """What the closer's opponent scores when the closer fails (RULES 2.9 and the 6-point rule)."""
        six = self.rules.failed_close_six
        if six != "never" and self.tricks[self.closed_by] == self.closed_own_tricks:
            return 6
        if six == "or_opponent_no_trick" and self.closed_opp_tricks == 0:
            return 6
        if self.rules.closer_fail == "always_3" or self.closed_opp_tricks == 0:
            return 3
        return 2

    def _closer_win_points(self, opp: int) -> int:
        r = self.rules
        if r.closer_win == "at_closing":
            pts, tricks = self.closed_opp_points, self.closed_opp_tricks
        else:
            pts, tricks = self.points[opp], self.tricks[opp]
        return 3 if r.closer_win == "always_3" else self._game_points(pts, tricks)

    def _go_out(self, p: int) -> None:
        o = 1 - p
        if self.points[p] >= GOAL:
            if self.closed_by < 0:
                self._finish(p, self._game_points(self.points[o], self.tricks[o]), Termination.WENT_OUT)
            elif self.closed_by == p:
                self._finish(p, self._closer_win_points(o), Termination.WENT_OUT)
            else:  # the closer's opponent went out first: the closer failed
                self._finish(p, self._closer_fail_points(), Termination.CLOSER_FAILED)
        elif self.closed_by == p:
            self._finish(o, self._closer_fail_points(), Termination.FALSE_CLAIM)
        else:
            self._finish(o, 2, Termination.FALSE_CLAIM)

    def _score_played_out(self, last_winner: int) -> None:
        if self.closed_by >= 0:
            self._finish(1 - self.closed_by, self._closer_fail_points(), Termination.CLOSER_FAILED)
        elif self.rules.played_out_winner == "last_trick":
            self._finish(last_winner, 1, Termination.PLAYED_OUT)
        else:
            a, b = self.points
            if a == b:
                self._finish(-1, 0, Termination.DRAWN)
            else:
                w = 0 if a > b else 1
                self._finish(w, self._game_points(self.points[1 - w], self.tricks[1 - w]), Termination.PLAYED_OUT)

    def _finish(self, winner: int, game_points: int, how: Termination) -> None:
        self.outcome = Outcome(winner, game_points, how)
        self._mask = 0

    # ------------------------------------------------------------------ views and text
    def information_state(self, player: int) -> InfoState:
        """Exactly what ``player`` may know now."""
        return InfoState.of(self, player)

    def hidden_cards(self, player: int) -> tuple[int, int]:
        """(opponent cards ``player`` cannot place, face-down stock cards he cannot place) as masks."""
        if type(player) is not int or not 0 <= player <= 1:  # the common case skips the full check
            player = check_int("player", player, 0, 1)
        o = 1 - player
        opp_hidden = self.hands[o] & ~self.known[o]
        stock = self.stock
        if not stock:
            return opp_hidden, 0
        # Every card is in a hand, a trick pile, on the table or in the stock: the stock is the rest.
        placed = self.hands[0] | self.hands[1] | self.won_cards[0] | self.won_cards[1] | (1 << stock[0])
        if self.lead_card >= 0:
            placed |= 1 << self.lead_card
        return opp_hidden, self.rules.deck_mask & ~placed

    def resample_hidden(self, player: int, rng: RandomSource) -> Deal:
        """A copy where the cards ``player`` cannot see are dealt again at random among the places
        he cannot see (opponent's unknown cards, face-down stock), keeping all public information.
        The one determinization (sampling searches, the leak tests): exactly
        ``InfoState.of(self, player).sample(rng)``, same deal for the same ``rng`` state."""
        player = check_int("player", player, 0, 1)
        if not callable(getattr(rng, "shuffle", None)):
            raise TypeError(f"rng={rng!r} is not allowed: use an object with shuffle(list), such as random.Random")
        d: Deal = InfoState.of(self, player).sample(rng)
        return d

    def describe(self) -> str:
        """One-line position text for error messages and bug reports."""
        return self.to_notation() if self.arrangement is not None else repr(self)

    def to_notation(self) -> str:
        """Position text that :meth:`from_notation` reads back: rules, dealer, the arrangement and
        the actions played, such as ``standard; dealer=0; hands=9S AC ... | 9C ...; stock=...; played=JD 9S P``."""
        if self.arrangement is None:
            raise ValueError("this deal was resampled and has no arrangement to write")
        h0, h1, stock, dealer = self.arrangement
        played = " ".join(action_str(x & 31) for x in self.history)
        return (
            f"{self.rules.notation()}; dealer={dealer}; hands={cards_str(h0)} | {cards_str(h1)}; "
            f"stock={cards_str(stock)}; played={played}"
        )

    @classmethod
    def from_notation(cls, text: str, rules: Rules | None = None) -> Deal:
        """Read :meth:`to_notation` text; ``rules`` overrides the rules written in it."""
        if not isinstance(text, str):
            raise TypeError(f"position text must be a string, got {text!r}")
        parts = [p.strip() for p in text.split(";")]
        if len(parts) != 5:
            raise ValueError(
                f"bad position text {text!r}: expected 'rules; dealer=N; hands=... | ...; stock=...; played=...'"
            )
        fields = {}
        for p in parts[1:]:
            key, sep, value = p.partition("=")
            if not sep:
                raise ValueError(f"bad field {p!r} in position text: expected key=value")
            fields[key.strip()] = value.strip()
        try:
            hands = fields["hands"].split("|")
            dealer = fields["dealer"]
            if dealer not in ("0", "1"):
                raise ValueError(f"bad dealer {dealer!r} in position text: write dealer=0 or dealer=1")
            deal = cls.from_arrangement(hands, fields["stock"], int(dealer), get_rules(rules or parts[0]))
            played = fields["played"]
        except KeyError as e:
            raise ValueError(f"position text lacks the field {e.args[0]!r}") from None
        return deal.apply_all(played)

    def __repr__(self) -> str:
        state = (
            f"over: {self.outcome}"
            if self.outcome is not None
            else f"player {self.current} to {self.decision.name.lower()}"
        )
        return (
            f"<Deal {self.rules.name} trump={card_str(self.trump_card)} hands={cards_str(self.hands[0])} | "
            f"{cards_str(self.hands[1])} stock={len(self.stock)} points={self.points} {state}>"
        )

    def legal_labels(self) -> list[str]:
        return [action_label(a) for a in self.legal_actions()]


def _view_mismatch(info: InfoState, hand: int, face_down: Sequence[int]) -> str:
    """What is wrong with placing ``hand`` and ``face_down`` into ``info``'s unseen places; "" if nothing."""
    down = 0
    for c in face_down:
        if type(c) is not int or not 0 <= c < NUM_CARDS:
            return f"face_down holds {c!r}, not a card id 0..{NUM_CARDS - 1}"
        down |= 1 << c
    want = info.stock_size - 1 if info.stock_size else 0
    if len(face_down) != want or down.bit_count() != want:
        return f"face_down has {len(face_down)} cards ({down.bit_count()} different); the stock has {want} face down"
    if hand.bit_count() != info.opponent_hand_size or hand >> NUM_CARDS:
        return f"the opponent's hand {cards_str(hand)} is not {info.opponent_hand_size} cards"
    known = info.known_opponent
    if hand & known != known:
        return f"the opponent's hand lacks {cards_str(known & ~hand)}, which he is known to hold"
    placed = hand & ~known
    if placed & down or placed | down != info.unseen:
        return (
            f"the opponent's unknown cards {cards_str(placed)} and the stock's {cards_str(down)} must place "
            f"each unseen card once: {cards_str(info.unseen)}"
        )
    if info.closed_by >= 0:
        if hand & info.opponent_cannot_hold():
            return f"the opponent's play rules out {cards_str(hand & info.opponent_cannot_hold())} in his hand"
        if info.opponent_must_hold() & ~hand:
            return f"the opponent surely holds {cards_str(info.opponent_must_hold())} (he declined the exchange)"
    return ""


# from_view: what the view does not hold as such is given (hands, stock) or follows from it
_deal_from_view = compile_copies(
    Deal,
    "info",
    InfoState.__slots__,
    "hands, stock",
    {
        "hands": "hands",
        "stock": "stock",
        "current": "info.current_player if info.outcome is None else info.leader",
        "decision": "info.decision if info.decision is not None else _LEAD",
        "known": "list(info._known)",
        "arrangement": "None",
        "_mask": "-1",
    },
    {"_LEAD": Decision.LEAD},
)
