"""What the three- and four-player games share: tricks without a stock, one mutable deal object.

Both games deal every card, bind every player to follow from the first trick, and let the leader
declare one marriage per lead; they differ in seats, trump, partnerships and scoring, which
``ThreeDeal`` and ``FourDeal`` add to :class:`TableDeal`. The API is the two-player ``Deal``'s,
written down as ``sixtysix_env.deal_types.DealLike``: ``current_player``, ``legal_mask()``,
``legal_actions()``, ``apply(a)``, ``clone()``, ``outcome`` / ``returns()``,
``information_state(p)``, notation and deals from arrangements for tests.

Card sets are int bitmasks (bit ``c`` for card id ``c``) and the legal actions one int mask over
the ids of :mod:`sixtysix_env.table.actions`. The Russian game's rounds before play
(redeal, bidding, three nines, discards) are decisions of the same deal object, played by
``FourDeal`` through the ``_round_mask`` / ``_apply_round`` hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ..cards import CARD_POINTS, NUM_CARDS, SUIT_MASK, card_str, cards_of, cards_str, parse_cards
from ..checks import as_index, check_int
from ..deal_types import compile_copies
from ..engine import HIGHER_IN_SUIT, MARRIAGE_PAIR, IllegalActionError, RandomSource
from .actions import (
    CHOOSE_TRUMP,
    GO_OUT,
    HIDDEN_ACTION,
    MARRIAGE,
    NUM_TABLE_ACTIONS,
    PASS,
    TRUMP_BY_CARD,
    parse_table_action,
    table_action_label,
    table_action_str,
)
from .deal_types import TableDecision, TableOutcome, TableTermination
from .rules import pair_lacks_trumps
from .view import TableRandomSource, TableView

__all__ = [
    "TableDeal",
    "TableDecision",
    "TableTermination",
    "TableOutcome",
    "TableIllegalActionError",
    "follow_cards",
    "trick_winner",
    "MAX_TABLE_ACTIONS",
    "GOAL",
]

GOAL = 66
"""Counted points that win a deal (66)."""
MAX_TABLE_ACTIONS = 64
"""Upper bound on the actions of one deal (trump choice, redeal and bidding rounds, three nines,
discards, 24 cards, marriages, passes, claims)."""
TERMINAL = -1
SECRET_DECISIONS = (TableDecision.COMMIT, TableDecision.DISCARD)
"""Card decisions taken face down: the others see that the player acted, not the card."""


class TableIllegalActionError(IllegalActionError):
    """An action that is not legal here; the message names the legal ones (with their text forms)."""

    def __init__(self, action: object, legal: Sequence[int], position: str) -> None:
        self.action = action
        self.legal = list(legal)
        self.position = position
        names = ", ".join(f"{a} ({table_action_str(a)})" for a in self.legal) or "none (the deal is over)"
        ValueError.__init__(self, f"illegal action {action!r} in {position}: legal actions are {names}")


def _parse_hand(p: int, cards: object) -> list[int]:
    """The cards of hand ``p``; a ValueError naming the hand when unreadable."""
    if not isinstance(cards, str) and not isinstance(cards, Sequence):
        raise ValueError(f"hand {p}={cards!r} is not allowed: give a list of cards or a string such as 'QH TS 9C'")
    try:
        return parse_cards(cards)  # type: ignore[arg-type]
    except ValueError as e:
        raise ValueError(f"hand {p}: {e}") from None


def _beats(c: int, best: int, trump: int) -> bool:
    if c // 6 == best // 6:
        return c > best
    return c // 6 == trump


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Index in ``trick`` of the winning card: the highest trump, else the highest of the suit led."""
    best = 0
    for i in range(1, len(trick)):
        if _beats(trick[i], trick[best], trump):
            best = i
    return best


def follow_cards(hand: int, trick: Sequence[int], trump: int, must_beat: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (docs/RULES.md 5.1): follow suit, beating
    the best card so far if it is of the suit led; void, trump, over-trumping a trump already in
    the trick; else any card. Without ``must_beat``: follow suit, else trump, else any card.
    ``trump`` -1 (a contract: trumps have no rank): follow suit, else any card."""
    best = trick[trick_winner(trick, trump)]
    led = trick[0] // 6
    same = hand & SUIT_MASK[led]
    if same:
        if must_beat and best // 6 == led:
            return same & HIGHER_IN_SUIT[best] or same
        return same
    if trump < 0:
        return hand
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        if must_beat and best // 6 == trump:
            return trumps & HIGHER_IN_SUIT[best] or trumps
        return trumps
    return hand


class TableDeal:
    """One deal of a game without stock; subclasses fix the seats, trump and scoring."""

    n_players: ClassVar[int]
    hand_size: ClassVar[int]
    n_sides: ClassVar[int]
    packets: ClassVar[tuple[int, ...]]
    game: ClassVar[str]

    FIELDS: ClassVar[tuple[str, ...]] = (
        "rules",
        "dealer",
        "dealt",
        "first_packet",
        "hands",
        "known",
        "trump",
        "trump_card",
        "trick_trump",
        "current",
        "decision",
        "leader",
        "trick",
        "declared",
        "marriages",
        "played",
        "won_cards",
        "out_cards",
        "sitting_out",
        "tricks_won",
        "points",
        "pending",
        "side_tricks",
        "claim_chance",
        "trick_count",
        "last_winner",
        "history",
        "secret",
        "outcome",
        "scores",
        "cuts",
        "deal_scored",
        "queue",
        "pair_answer",
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
    """The deal's state, each field named once: ``__slots__``, ``clone`` (and so ``apply_all``),
    pickling (through the slots) and the determinizer :meth:`from_view` derive from it, and a field
    annotated below but missing here (or the reverse) fails at import. ``_mask`` is the cache of
    the legal actions."""
    __slots__ = (*FIELDS, "_mask")

    rules: Any
    dealer: int
    dealt: tuple[tuple[int, ...], ...]
    first_packet: tuple[int, ...]
    hands: list[int]
    known: list[int]
    """Cards each player has shown (turned trump card, marriages, nines); they stay known while
    they are in his hand or among his cards out of play."""
    trump: int
    trump_card: int
    trick_trump: int
    """The suit that wins tricks: ``trump``, or -1 in a contract (trumps have no rank)."""
    current: int
    decision: TableDecision
    leader: int
    trick: list[int]
    declared: int
    marriages: list[int]
    played: list[int]
    """Cards each player has played to tricks (public)."""
    won_cards: list[int]
    out_cards: list[int]
    """Cards each player put out of play face down: discards, or a seated-out partner's hand."""
    sitting_out: int
    """The declarer's partner in a contract, -1 otherwise; tricks go round the other three."""
    tricks_won: list[int]
    points: list[int]
    pending: list[int]
    side_tricks: list[int]
    claim_chance: list[bool]
    trick_count: int
    last_winner: int
    history: list[int]
    secret: int
    """Bit ``i`` set when ``history[i]`` is a card decision only its player sees (a card committed
    against three nines, a discard for five): the others' views show it as ``HIDDEN_ACTION``."""
    outcome: TableOutcome | None
    scores: tuple[int, ...]
    cuts: tuple[int, ...]
    """The nines the cut showed before this deal (Russian game; public)."""
    deal_scored: list[int]
    """Game points the sides scored during the deal before its end (three nines)."""
    queue: list[int]
    """Players still to decide in the current round (redeal round, bidding, commits, discards)."""
    pair_answer: list[int]
    """Per side: -1 not asked, else 1 when the pair meets redeal condition (c), 0 when not."""
    bid: int
    bidder: int
    nines_by: int
    nines_shown: int
    committed: list[int]
    nine_left: int
    nines_hits: int
    """Players (bits) whose committed card had the suit of the nine left and was shown."""
    nine_asked: int
    contract: int
    _mask: int

    # ------------------------------------------------------------------ game-specific hooks
    @classmethod
    def _get_rules(cls, rules: Any) -> Any:
        raise NotImplementedError

    def side_of(self, player: int) -> int:
        """Who scores for ``player``: the player himself, or his team."""
        raise NotImplementedError

    def _chooses_trump(self) -> bool:
        raise NotImplementedError

    @classmethod
    def turned_slot(cls, rules: Any, dealer: int) -> tuple[int, int]:
        """(holder, index in his hand as dealt) of the card turned for trump when nobody names it."""
        raise NotImplementedError

    def _turned_card(self) -> tuple[int, int]:
        """(holder, card) turned for trump when nobody names it."""
        raise NotImplementedError

    @classmethod
    def _shuffle(cls, rules: Any, rng: RandomSource) -> tuple[list[int], tuple[int, ...]]:
        """The deck to deal, top first, and the nines shown by the cut (none here)."""
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        return [int(c) for c in deck], ()

    def _after_start(self) -> None:
        """Called once the deal exists, before trump is chosen (the cut may end it here)."""

    def _after_trump(self) -> None:
        """Called once trump is known: the first lead, unless the game has rounds before it."""
        self.decision = TableDecision.LEAD
        self.current = self.leader

    def _partner_decides(self, leader: int) -> bool:
        return False

    def _claiming(self) -> str:
        return "auto"

    def _after_declare(self, p: int) -> None:
        pass

    def _after_trick(self, winner: int, side: int, last: bool) -> None:
        raise NotImplementedError

    def _round_mask(self, p: int) -> int:
        """Legal actions of the rounds before play (Russian game)."""
        raise AssertionError(f"no {self.decision.name} decision in the {self.game} game")

    def _apply_round(self, p: int, a: int) -> None:
        raise AssertionError(f"no {self.decision.name} decision in the {self.game} game")

    def _lead_extra(self, p: int) -> int:
        """Further actions when leading (marriage without leading)."""
        return 0

    def _apply_lead_extra(self, p: int, a: int) -> None:
        raise AssertionError(f"action {a} is no lead in the {self.game} game")

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls, rules: Any = None, rng: RandomSource | None = None, dealer: int = 0, scores: Sequence[int] = ()
    ) -> Any:
        """A shuffled deal, dealt in packets clockwise from the player left of the dealer.
        ``rng`` is any object with ``shuffle(list)``; pass the caller's own for reproducible deals."""
        r = cls._get_rules(rules)
        if rng is None:
            raise ValueError(f"{cls.__name__}.new needs an rng (random.Random or numpy Generator)")
        if not callable(getattr(rng, "shuffle", None)):
            raise TypeError(f"rng={rng!r} is not allowed: use an object with shuffle(list), such as random.Random")
        dealer = check_int("dealer", dealer, 0, cls.n_players - 1)
        scores = cls._check_scores(scores, r)
        deck, cuts = cls._shuffle(r, rng)
        n = cls.n_players
        dealt: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for size in cls.packets:
            for k in range(1, n + 1):
                p = (dealer + k) % n
                dealt[p].extend(deck[pos : pos + size])
                pos += size
        return cls._start(r, tuple(tuple(h) for h in dealt), dealer, scores, cuts)

    @classmethod
    def from_arrangement(
        cls,
        hands: Sequence[Sequence[str | int] | str],
        dealer: int = 0,
        rules: Any = None,
        scores: Sequence[int] = (),
        cuts: Sequence[str | int] | str = (),
    ) -> Any:
        """A deal from given hands, each in the order dealt (its first 3 cards are the first packet,
        which is all a player sees while trump is being chosen); ``cuts`` are the nines a cut
        showed first (Russian game). Raises ``ValueError`` naming what is wrong with the arrangement."""
        r = cls._get_rules(rules)
        n = cls.n_players
        dealer = check_int("dealer", dealer, 0, n - 1)
        scores = cls._check_scores(scores, r)
        if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != n:
            raise ValueError(f"hands={hands!r} is not allowed: give {n} hands (lists of cards or card strings)")
        parsed = tuple(tuple(_parse_hand(p, h)) for p, h in enumerate(hands))
        seen: dict[int, int] = {}
        for p, h in enumerate(parsed):
            for c in h:
                if c in seen:
                    places = f"twice in hand {p}" if seen[c] == p else f"in hands {seen[c]} and {p}"
                    raise ValueError(f"duplicate card {card_str(c)} ({places}): each card is dealt once")
                seen[c] = p
        for p, h in enumerate(parsed):
            if len(h) != cls.hand_size:
                raise ValueError(f"hand {p} has {len(h)} cards; the {cls.game} game deals {cls.hand_size}")
        if isinstance(cuts, str | bytes | Sequence):
            cut = tuple(parse_cards(cuts))  # type: ignore[arg-type]
        else:
            raise ValueError(f"cuts={cuts!r} is not allowed: give the nines the cut showed, such as '9C 9S'")
        if any(c % 6 for c in cut):
            raise ValueError(f"cuts must be nines (9C 9S 9H 9D), got {cards_str(cut)}")
        return cls._start(r, parsed, dealer, scores, cut)

    @classmethod
    def score_bounds(cls, rules: Any) -> tuple[int, int]:
        """The match scores a deal may start from, (lowest, highest): a score at the target ends
        the match, so it is never a deal's starting score."""
        raise NotImplementedError

    @classmethod
    def _check_scores(cls, scores: object, rules: Any) -> tuple[int, ...]:
        """Match scores before a deal: () for none yet, or one int per side within ``score_bounds``."""
        if isinstance(scores, str | bytes) or not isinstance(scores, Sequence) or len(scores) not in (0, cls.n_sides):
            raise ValueError(f"scores={scores!r} is not allowed: give () or {cls.n_sides} ints, one per side")
        lo, hi = cls.score_bounds(rules)
        return tuple(check_int(f"scores[{i}]", s, lo, hi) for i, s in enumerate(scores))

    @classmethod
    def _start(
        cls, rules: Any, dealt: tuple[tuple[int, ...], ...], dealer: int, scores: Sequence[int], cuts: tuple[int, ...]
    ) -> Any:
        n, sides = cls.n_players, cls.n_sides
        d = object.__new__(cls)
        d.rules = rules
        d.dealer = dealer
        d.dealt = dealt
        d.first_packet = tuple(sum(1 << c for c in h[:3]) for h in dealt)
        d.hands = [sum(1 << c for c in h) for h in dealt]
        d.known = [0] * n
        d.trump = -1
        d.trump_card = -1
        d.trick_trump = -1
        d.leader = d.current = (dealer + 1) % n
        d.decision = TableDecision.TRUMP
        d.trick = []
        d.declared = -1
        d.marriages = [0] * n
        d.played = [0] * n
        d.won_cards = [0] * n
        d.out_cards = [0] * n
        d.sitting_out = -1
        d.tricks_won = [0] * n
        d.points = [0] * sides
        d.pending = [0] * sides
        d.side_tricks = [0] * sides
        d.claim_chance = [False] * sides
        d.trick_count = 0
        d.last_winner = -1
        d.history = []
        d.secret = 0
        d.outcome = None
        d.scores = tuple(int(s) for s in scores) if scores else (0,) * sides
        d.cuts = tuple(cuts)
        d.deal_scored = [0] * sides
        d.queue = []
        d.pair_answer = [-1] * sides
        d.bid = 0
        d.bidder = -1
        d.nines_by = -1
        d.nines_shown = 0
        d.committed = [-1] * n
        d.nine_left = -1
        d.nines_hits = 0
        d.nine_asked = 0
        d.contract = 0
        d._mask = -1
        d._after_start()
        if d.outcome is None and not d._chooses_trump():
            d._turn_trump_card()
            d._after_trump()
        return d

    if TYPE_CHECKING:  # straight code compiled from FIELDS below the class (``compile_copies``)

        def clone(self) -> Any:
            """An independent copy."""
            ...

        __copy__ = clone

    @classmethod
    def from_view(
        cls, view: TableView, hands: Sequence[int], outs: Sequence[int], committed: Sequence[int], check: bool = True
    ) -> Any:
        """The deal ``view`` describes, with the cards its player cannot see placed: ``hands`` and
        ``outs`` are every player's hand and cards out of play as bitmasks (shown cards included),
        ``committed`` every player's card committed against three nines (-1 none; the view's -2, a
        card committed unseen, must become one of his cards). The hands as dealt, the history's
        face-down decisions and the others' answers on trumps follow from them. This is how a view
        becomes a full deal (``TableView.sample``, ``resample_hidden``). Raises ``ValueError`` saying
        what does not fit the view: a wrong count, a card placed twice or seen elsewhere, a shown
        card missing. ``check=False`` skips the checks, for ``TableView.sample``, whose assignments
        fit by construction (tested) and which searches call thousands of times a decision."""
        if check:
            if not isinstance(view, TableView):
                raise TypeError(f"view={view!r} is not allowed: give a TableView (deal.information_state(player))")
            problem = _view_mismatch(view, hands, outs, committed)
            if problem:
                raise ValueError(f"this assignment does not fit player {view.player}'s view: {problem}")
        rows = []
        for q in range(cls.n_players):
            first = list(cards_of(view.hand)) if q == view.player and view.decision == TableDecision.TRUMP else []
            played = list(cards_of(view.played[q]))
            rest = [c for c in cards_of(hands[q] | outs[q]) if c not in first]
            rows.append(first + played + rest)
        if view.trump_card >= 0:  # the turned card sits where the deal put it
            holder, slot = cls.turned_slot(view.rules, view.dealer)
            rows[holder].remove(view.trump_card)
            rows[holder].insert(slot % cls.hand_size, view.trump_card)
        pair_answer = [-1] * view.n_sides
        for side, asked in enumerate(view.trumps_asked):
            if side == view.side:
                pair_answer[side] = view.pair_answer
            elif asked:  # their answer as the placed hands give it
                pair_answer[side] = int(pair_lacks_trumps(hands[side], hands[side + 2], view.trump))
        history = _history_with(view, committed, outs)
        dealt = tuple(tuple(r) for r in rows)
        return _table_from_view(cls, view, dealt, list(hands), list(outs), list(committed), history, pair_answer)

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        """The player to act, or -1 once the deal is over."""
        return TERMINAL if self.outcome is not None else self.current

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def trick_size(self) -> int:
        """Cards in a full trick: every player, less a seated-out partner."""
        return self.n_players - (self.sitting_out >= 0)

    def next_seat(self, p: int) -> int:
        """The next player clockwise who takes part in the tricks."""
        q = (p + 1) % self.n_players
        return (q + 1) % self.n_players if q == self.sitting_out else q

    def trick_seats(self) -> list[int]:
        """The players of the current trick's cards, in order (the leader first)."""
        seats = [self.leader]
        while len(seats) < self.trick_size:
            seats.append(self.next_seat(seats[-1]))
        return seats

    def legal_mask(self) -> int:
        """Legal actions as an int: bit ``a`` set when action ``a`` is legal."""
        m = self._mask
        if m < 0:
            m = self._mask = self._compute_mask()
        return m

    def legal_actions(self) -> list[int]:
        m, out = self.legal_mask(), []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` (an int, numpy integer or 0-d integer array) is legal now."""
        a = as_index(action)
        return a is not None and 0 <= a < NUM_TABLE_ACTIONS and bool(self.legal_mask() >> a & 1)

    def legal_labels(self) -> list[str]:
        """The legal actions in words, as ``Deal.legal_labels``."""
        return [table_action_label(a) for a in self.legal_actions()]

    def returns(self) -> tuple[int, ...]:
        """Payoffs per player; zeros while the deal runs."""
        return self.outcome.payoffs if self.outcome is not None else (0,) * self.n_players

    def visible_hand(self, player: int) -> int:
        """The cards ``player`` has seen: only his first packet while trump is being chosen."""
        if self.decision == TableDecision.TRUMP and self.outcome is None:
            return self.first_packet[player]
        return self.hands[player]

    def counted_points(self, side: int) -> int:
        """Card points of the side's tricks plus its marriages that count (once it has a trick)."""
        return self.points[side]

    def _marriage_bits(self, p: int, base: int = MARRIAGE) -> int:
        hand = self.hands[p]
        done = 0
        for m in self.marriages:
            done |= m
        out = 0
        for s in range(4):
            pair = MARRIAGE_PAIR[s]
            if hand & pair == pair and not done >> s & 1:
                out |= 1 << (base + s)
        return out

    def _compute_mask(self) -> int:
        if self.outcome is not None:
            return 0
        p, d = self.current, self.decision
        if d == TableDecision.FOLLOW:
            return follow_cards(self.hands[p], self.trick, self.trick_trump, self.rules.must_beat)
        if d == TableDecision.LEAD:
            if self.contract:
                return self.hands[p]
            claim = (1 << GO_OUT) if self._claiming() == "explicit" and self.claim_chance[self.side_of(p)] else 0
            if self.declared >= 0:
                return (self.hands[p] & MARRIAGE_PAIR[self.declared]) | claim
            return self.hands[p] | claim | self._marriage_bits(p) | self._lead_extra(p)
        if d == TableDecision.PARTNER_MARRIAGE:
            return (1 << PASS) | self._marriage_bits(p)
        if d == TableDecision.CLAIM:
            return (1 << GO_OUT) | (1 << PASS)
        if d == TableDecision.TRUMP:
            return (0b1111 << CHOOSE_TRUMP) | (1 << TRUMP_BY_CARD)
        return self._round_mask(p)

    # ------------------------------------------------------------------ moves
    def apply(self, action: int) -> None:
        """Play one action for ``current_player``; raises ``IllegalActionError`` (a ``ValueError``)
        naming the legal actions, leaving the deal unchanged, when it is not legal."""
        mask = self.legal_mask()
        a = as_index(action)
        if a is None or not (0 <= a < NUM_TABLE_ACTIONS and mask >> a & 1):
            raise self._illegal(action)
        self._mask = -1
        p = self.current
        d = self.decision
        if d in SECRET_DECISIONS:
            self.secret |= 1 << len(self.history)
        self.history.append(p << 6 | a)
        if d == TableDecision.FOLLOW:
            self._play(p, a)
        elif d == TableDecision.LEAD:
            if a < NUM_CARDS:
                self._lead(p, a)
            elif a == GO_OUT:
                self._go_out(self.side_of(p))
            elif MARRIAGE <= a < MARRIAGE + 4:
                self._declare(p, a - MARRIAGE, leading=True)
            else:
                self._apply_lead_extra(p, a)
        elif d == TableDecision.PARTNER_MARRIAGE:
            if a == PASS:
                self._next_follower()
            else:
                self._declare(p, a - MARRIAGE, leading=False)
                if self.outcome is None:
                    if self._claiming() == "explicit":
                        self.decision = TableDecision.CLAIM
                    else:
                        self._next_follower()
        elif d == TableDecision.CLAIM:
            if a == GO_OUT:
                self._go_out(self.side_of(p))
            else:
                self.claim_chance[self.side_of(p)] = False
                if self.trick:
                    self._next_follower()
                else:
                    self._score_played_out()
        elif d == TableDecision.TRUMP:
            if a == TRUMP_BY_CARD:
                self._turn_trump_card()
            else:
                self.trump = self.trick_trump = a - CHOOSE_TRUMP
            self._after_trump()
        else:
            self._apply_round(p, a)

    def apply_all(self, actions: Sequence[int | str] | str) -> Any:
        """Apply several actions, as ids or text (``"=H M2 KH QS P"``); returns self. All or nothing:
        when one is unreadable or illegal the deal stays as it was."""
        if isinstance(actions, str):
            actions = actions.split()
        elif not isinstance(actions, Sequence):
            raise TypeError(f"actions={actions!r} is not allowed: give a list of actions or a text such as '=H KH'")
        trial = self.clone()
        for a in actions:
            trial.apply(parse_table_action(a) if isinstance(a, str) else a)
        for name in TableDeal.__slots__:
            setattr(self, name, getattr(trial, name))
        return self

    def _illegal(self, action: object) -> TableIllegalActionError:
        return TableIllegalActionError(action, self.legal_actions(), self.describe())

    def _turn_trump_card(self) -> None:
        holder, c = self._turned_card()
        self.trump_card = c
        self.trump = self.trick_trump = c // 6
        self.known[holder] |= 1 << c

    def _next_follower(self) -> None:
        self.current = self.trick_seats()[len(self.trick)]
        self.decision = TableDecision.FOLLOW

    def _lead(self, p: int, c: int) -> None:
        bit = 1 << c
        self.hands[p] ^= bit
        self.known[p] &= ~bit
        self.played[p] |= bit
        self.trick = [c]
        self.declared = -1
        self.claim_chance[self.side_of(p)] = False
        if self._partner_decides(p):
            self.current = (p + 2) % self.n_players
            self.decision = TableDecision.PARTNER_MARRIAGE
        else:
            self._next_follower()

    def _declare(self, p: int, suit: int, leading: bool) -> None:
        value = 40 if suit == self.trump else 20
        side = self.side_of(p)
        self.marriages[p] |= 1 << suit
        self.known[p] |= MARRIAGE_PAIR[suit]
        if self.side_tricks[side]:
            self.points[side] += value
        else:
            self.pending[side] += value
        if leading:
            self.declared = suit
        if self._claiming() == "explicit":
            self.claim_chance[side] = True
        self._after_declare(p)

    def _play(self, p: int, c: int) -> None:
        bit = 1 << c
        self.hands[p] ^= bit
        self.known[p] &= ~bit
        self.played[p] |= bit
        self.trick.append(c)
        if len(self.trick) == self.trick_size:
            self._resolve_trick()
        else:
            self.current = self.next_seat(p)

    def _resolve_trick(self) -> None:
        trick = self.trick
        w = self.trick_seats()[trick_winner(trick, self.trick_trump)]
        side = self.side_of(w)
        for c in trick:
            self.won_cards[w] |= 1 << c
        self.tricks_won[w] += 1
        self.side_tricks[side] += 1
        self.points[side] += sum(CARD_POINTS[c] for c in trick) + self.pending[side]
        self.pending[side] = 0
        self.trick_count += 1
        self.trick = []
        self.leader = self.current = self.last_winner = w
        self.decision = TableDecision.LEAD
        last = not any(self.hands)
        if last:
            self.points[side] += self.rules.last_trick_bonus
        self._after_trick(w, side, last)

    def _go_out(self, side: int) -> None:
        raise NotImplementedError

    def _score_played_out(self) -> None:
        raise NotImplementedError

    def _finish(self, winner: int, game_points: int, how: TableTermination, payoffs: Sequence[int]) -> None:
        self.outcome = TableOutcome(winner, game_points, how, tuple(payoffs))
        self._mask = 0

    # ------------------------------------------------------------------ views
    def information_state(self, player: int) -> TableView:
        """Exactly what ``player`` may know now."""
        return TableView.of(self, player)

    def hidden_cards(self, player: int) -> int:
        """Cards ``player`` cannot place: the others' cards not shown (in hand or face down out of
        play), and his own unseen packets."""
        out = 0
        for q in range(self.n_players):
            if q == player:
                out |= self.hands[q] & ~self.visible_hand(q)
            else:
                out |= (self.hands[q] | self.out_cards[q]) & ~self.known[q]
        return out

    def resample_hidden(self, player: int, rng: RandomSource) -> Any:
        """A copy where the cards ``player`` cannot see are dealt again at random into the places he
        cannot see, keeping every public fact (hand sizes, shown cards, played cards). The one
        determinization (sampling searches, the no-leak tests): exactly
        ``TableView.of(self, player).sample(rng)``, same deal for the same ``rng`` state."""
        if not (callable(getattr(rng, "shuffle", None)) and callable(getattr(rng, "random", None))):
            raise TypeError(
                f"rng={rng!r} is not allowed: use an object with shuffle(list) and random(), such as random.Random"
            )
        return TableView.of(self, player).sample(cast(TableRandomSource, rng))

    # ------------------------------------------------------------------ text
    def describe(self) -> str:
        """One-line position text for error messages and bug reports."""
        return self.to_notation()

    def to_notation(self) -> str:
        """Text that :meth:`from_notation` reads back: rules name, dealer, hands as dealt, actions."""
        hands = " | ".join(cards_str(h) for h in self.dealt)
        played = " ".join(table_action_str(x & 63) for x in self.history)
        cuts = f"; cuts={cards_str(self.cuts)}" if self.cuts else ""
        return f"{self.rules.notation()}; dealer={self.dealer}; hands={hands}{cuts}; played={played}"

    @classmethod
    def from_notation(cls, text: str, rules: Any = None) -> Any:
        """Read :meth:`to_notation` text; ``rules`` overrides the rules written in it."""
        if not isinstance(text, str):
            raise TypeError(f"position text must be a string, got {text!r}")
        parts = [p.strip() for p in text.split(";")]
        if len(parts) not in (4, 5):
            raise ValueError(
                f"bad position text {text!r}: expected 'rules; dealer=N; hands=... | ...; [cuts=...;] played=...'"
            )
        fields = {}
        for p in parts[1:]:
            key, sep, value = p.partition("=")
            if not sep:
                raise ValueError(f"bad field {p!r} in position text: expected key=value")
            fields[key.strip()] = value.strip()
        try:
            dealer = fields["dealer"]
            if not (dealer.isdigit() and dealer.isascii()):
                raise ValueError(f"bad dealer {dealer!r} in position text: write dealer=N")
            deal = cls.from_arrangement(
                fields["hands"].split("|"), int(dealer), rules or parts[0], cuts=fields.get("cuts", "")
            )
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
        hands = " | ".join(cards_str(h) for h in self.hands)
        trump = "?" if self.trump < 0 else "CSHD"[self.trump]
        return f"<{type(self).__name__} {self.rules.name} trump={trump} hands={hands} points={self.points} {state}>"


def _view_mismatch(view: TableView, hands: Sequence[int], outs: Sequence[int], committed: Sequence[int]) -> str:
    """What is wrong with placing ``hands``, ``outs`` and ``committed`` into ``view``; "" if nothing."""
    n = view.n_players
    if len(hands) != n or len(outs) != n or len(committed) != n:
        return f"give {n} hands, {n} sets of cards out of play and {n} committed cards"
    placed = 0
    for q in range(n):
        h, o, c = hands[q], outs[q], committed[q]
        if type(h) is not int or type(o) is not int or h < 0 or o < 0 or (h | o) >> NUM_CARDS:
            return f"player {q}'s cards {h!r}, {o!r} are not card bitmasks"
        if h.bit_count() != view.hand_sizes[q] or o.bit_count() != view.out_sizes[q]:
            return (
                f"player {q} gets {h.bit_count()} cards in hand and {o.bit_count()} out of play; the view shows "
                f"{view.hand_sizes[q]} and {view.out_sizes[q]}"
            )
        if h & o or (h | o) & placed:
            return f"{cards_str((h & o) | ((h | o) & placed))} placed twice"
        placed |= h | o
        if view.known[q] & ~(h | o):
            return f"player {q} lacks {cards_str(view.known[q] & ~(h | o))}, shown to be his"
        seen = view.committed[q]
        if (c != seen) if seen != -2 else not (type(c) is int and 0 <= c < NUM_CARDS and (h | o) >> c & 1):
            return f"player {q}'s committed card {c!r} does not fit the view's {seen} (-2: one of his cards)"
    p = view.player
    if hands[p] & view.hand != view.hand or outs[p] != view.out_mine:
        return f"player {p}'s own cards {cards_str(view.hand)} (out of play {cards_str(view.out_mine)}) must stay his"
    gone = sum(1 << c for c in view.trick)
    for w in view.won_cards:
        gone |= w
    if placed != ((1 << NUM_CARDS) - 1) & ~gone:
        rest = ((1 << NUM_CARDS) - 1) & ~gone
        return f"the cards not played are {cards_str(rest)}, but {cards_str(placed)} were placed"
    return ""


def _history_with(view: TableView, committed: Sequence[int], outs: Sequence[int]) -> list[int]:
    """The view's history with each hidden card decision replaced by the placed card: a player's
    first face-down decision is his commit if he committed (the bidding comes before any
    discard), else his discard (one of the placed cards out of play)."""
    out = list(view.history)
    discards = [list(cards_of(m)) for m in outs]
    steps = [0] * view.n_players
    for i, x in enumerate(out):
        if not view.secret >> i & 1:
            continue
        q = x >> 6
        steps[q] += 1
        if x & 63 != HIDDEN_ACTION:
            continue
        if steps[q] == 1 and view.committed[q] != -1:
            out[i] = q << 6 | committed[q]
        else:
            out[i] = q << 6 | discards[q].pop(0)
    return out


# from_view: what the view does not hold as such is given or follows from it
_table_from_view = compile_copies(
    TableDeal,
    "view",
    TableView.__slots__,
    "dealt, hands, outs, committed, history, pair_answer",
    {
        "dealt": "dealt",
        "first_packet": "tuple(sum(1 << c for c in r[:3]) for r in dealt)",
        "hands": "hands",
        "out_cards": "outs",
        "committed": "committed",
        "history": "history",
        "pair_answer": "pair_answer",
        "current": "view.current_player if view.outcome is None else view.leader",
        "decision": "view.decision if view.decision is not None else _LEAD",
        "_mask": "-1",
    },
    {"_LEAD": TableDecision.LEAD},
)
