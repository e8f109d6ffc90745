"""A deterministic rule-based player: a fixed, ordered list of table-like rules.

The rules read only what the acting player may know (``InfoState`` fields), use no randomness
and no search, so the same function can later be ported to a batched (numba) engine, and the
search agents reuse it as their playout policy. The first rule that applies decides:

1. **Go out** when going out is an action (explicit claiming) and counted points reach 66;
   otherwise never claim (pass at Decision.CLAIM).
2. **Exchange** the trump nine (schnapsen: jack) whenever allowed, on lead or at the opponent's
   closing.
3. **Close** (on lead, or before drawing) when counted points plus *sure points* reach 66; sure
   points are the card points of the master trumps in hand (no unplayed trump outside the hand
   beats them), of the master cards of the other suits when no trump can be outside the hand,
   pending marriage points once a trick is sure, and the best marriage in hand (the closer may
   declare on the next lead). Otherwise draw.
4. **Declare** a marriage when allowed: the trump marriage (40) first, else the lowest suit.
5. After declaring, **lead the queen** of the marriage (keep the king), else the king.
6. **Lead, stock open**: the lowest non-trump card that is not part of a marriage in hand; else
   the lowest non-trump; else the lowest trump ("lead low, save trumps").
7. **Lead, stock closed or exhausted**: the highest master card (a card no unplayed card outside
   the hand can beat in its suit, trumps first while the opponent may still hold trumps); else
   the lowest non-trump; else the lowest trump.
8. **Follow, stock open**: (a) win with the cheapest winning card when the trick takes counted
   points to 66; (b) win a trick led with a 10 or ace with the cheapest winning card (a higher
   card of the suit, else the lowest trump); (c) win with a higher non-trump card of the led suit
   when holding one (not breaking a marriage); (d) otherwise throw the lowest non-trump not in a
   marriage, else the lowest non-trump, else the lowest trump.
9. **Follow, stock closed or exhausted** (the legal mask already enforces the obligations of
   docs/RULES.md 2.4): the cheapest winning legal card, else the cheapest legal card, non-trumps first.

"Lowest"/"cheapest" means lowest rank (rank order equals card-point order), ties broken by the
lowest suit id, so every choice is a pure function of the inputs.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import CARD_POINTS, NUM_CARDS, SUIT_MASK
from ..engine import FOLLOWER_WINS, GOAL, HIGHER_IN_SUIT, MARRIAGE_PAIR, Decision

if TYPE_CHECKING:
    from ..engine import Deal
    from ..infostate import InfoState

__all__ = [
    "HeuristicAgent",
    "heuristic_action",
    "heuristic_deal_action",
    "heuristic_info_action",
    "heuristic_playout",
    "mask_points",
]

_CARDS = (1 << NUM_CARDS) - 1
_HIGH_RANKS = (4, 5)  # ten, ace
# Card ids in "cheapest first" order: by rank, then suit.
_CHEAP_ORDER = tuple(sorted(range(NUM_CARDS), key=lambda c: (c % 6, c // 6)))
_DEAR_ORDER = tuple(reversed(_CHEAP_ORDER))
_SUIT_POINTS = tuple(sum(CARD_POINTS[r] for r in range(6) if m >> r & 1) for m in range(64))


def mask_points(m: int) -> int:
    """Card points of a card bitmask, by table (the search agents call this in hot loops)."""
    return _SUIT_POINTS[m & 63] + _SUIT_POINTS[m >> 6 & 63] + _SUIT_POINTS[m >> 12 & 63] + _SUIT_POINTS[m >> 18 & 63]


def _cheapest(mask: int) -> int:
    for c in _CHEAP_ORDER:
        if mask >> c & 1:
            return c
    return -1


def _dearest(mask: int) -> int:
    for c in _DEAR_ORDER:
        if mask >> c & 1:
            return c
    return -1


def _marriage_cards(hand: int) -> int:
    out = 0
    for pair in MARRIAGE_PAIR:
        if hand & pair == pair:
            out |= pair
    return out


def _masters(hand: int, outside: int) -> int:
    """Cards in ``hand`` that no card in ``outside`` beats within their own suit."""
    out = 0
    m = hand
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if not outside & HIGHER_IN_SUIT[c]:
            out |= low
        m ^= low
    return out


def _throw(cards: int, trumps: int, hand: int) -> int:
    """The cheapest card to give away: a non-trump outside a marriage, then any non-trump, then a trump."""
    plain = cards & ~trumps
    free = plain & ~_marriage_cards(hand)
    return _cheapest(free or plain or cards)


def _sure_points(hand: int, trump: int, outside: int, my_points: int, my_pending: int, my_tricks: int) -> int:
    """Counted points the player is sure to reach after closing (rule 3)."""
    trumps = SUIT_MASK[trump]
    masters = _masters(hand & trumps, outside)
    if not outside & trumps:
        masters |= _masters(hand, outside)
    sure = my_points + mask_points(masters)
    if masters or my_tricks:
        sure += my_pending
        if hand & MARRIAGE_PAIR[trump] == MARRIAGE_PAIR[trump]:
            sure += 40
        elif _marriage_cards(hand):
            sure += 20
    return sure


def heuristic_action(
    legal: int,
    decision: int,
    hand: int,
    trump: int,
    lead_card: int,
    declared: int,
    my_points: int,
    my_pending: int,
    my_tricks: int,
    played: int,
    stock_size: int,
    stock_bottom: int,
    stock_open: bool,
    deck_mask: int,
) -> int:
    """The heuristic's action from plain ints (the rules of the module docstring, in order).

    ``played`` is every card already taken in tricks, ``stock_bottom`` the face-up card (-1 when
    the stock is gone); ``stock_open`` is phase 1 (neither closed nor exhausted).
    """
    # 1. going out / claiming
    if legal >> GO_OUT & 1:
        if my_points >= GOAL:
            return GO_OUT
        if decision == Decision.CLAIM:
            return PASS
        legal &= ~(1 << GO_OUT)
    # 2. exchange
    if legal >> EXCHANGE & 1:
        return EXCHANGE
    trumps = SUIT_MASK[trump]
    lead_bit = 1 << lead_card if lead_card >= 0 else 0
    outside = deck_mask & ~hand & ~played & ~lead_bit
    if stock_size:
        outside &= ~(1 << stock_bottom)
    # 3. closing
    if legal >> CLOSE & 1:
        if _sure_points(hand, trump, outside, my_points, my_pending, my_tricks) >= GOAL:
            return CLOSE
        if decision == Decision.DRAW:
            return PASS
    # 4. marriages
    marriages = legal >> MARRIAGE & 0xF
    if marriages:
        if marriages >> trump & 1:
            return MARRIAGE + trump
        return MARRIAGE + (marriages & -marriages).bit_length() - 1
    cards = legal & _CARDS
    # 5. lead after declaring
    if declared >= 0:
        return _cheapest(cards)
    if decision == Decision.LEAD:
        if stock_open:  # 6.
            return _throw(cards, trumps, hand)
        # 7.
        masters = _masters(cards, outside)
        if outside & trumps and masters & trumps:
            return _dearest(masters & trumps)
        if masters:
            return _dearest(masters)
        return _cheapest(cards & ~trumps or cards)
    # Decision.FOLLOW
    table = FOLLOWER_WINS[trump]
    base = lead_card * NUM_CARDS
    winners = 0
    m = cards
    while m:
        low = m & -m
        if table[base + low.bit_length() - 1]:
            winners |= low
        m ^= low
    if stock_open:  # 8.
        if winners:
            same = winners & SUIT_MASK[lead_card // 6]
            cheapest = _cheapest(same or winners)
            gain = CARD_POINTS[lead_card] + CARD_POINTS[cheapest] + my_pending
            if my_points + gain >= GOAL or lead_card % 6 in _HIGH_RANKS:
                return cheapest
            same_plain = same & ~trumps & ~_marriage_cards(hand)
            if same_plain:
                return _cheapest(same_plain)
        return _throw(cards, trumps, hand)
    # 9.
    if winners:
        return _cheapest(winners)
    return _cheapest(cards & ~trumps or cards)


def heuristic_info_action(info: InfoState) -> int:
    """The heuristic's action for the acting player's view."""
    p = info.player
    decision = info.decision if info.decision is not None else Decision.LEAD
    return heuristic_action(
        info.legal_mask,
        decision,
        info.hand,
        info.trump,
        info.lead_card,
        info.declared,
        info.points[p],
        info.pending[p],
        info.tricks[p],
        info.won_cards[0] | info.won_cards[1],
        info.stock_size,
        info.stock_bottom,
        info.closed_by < 0 and info.stock_size > 0,
        info.rules.deck_mask,
    )


def heuristic_deal_action(deal: Deal) -> int:
    """The heuristic's action for ``deal.current_player``, reading only what that player may know.

    Faster than building an ``InfoState``; the search agents use it for playouts."""
    p = deal.current
    stock = deal.stock
    return heuristic_action(
        deal.legal_mask(),
        deal.decision,
        deal.hands[p],
        deal.trump,
        deal.lead_card,
        deal.declared,
        deal.points[p],
        deal.pending[p],
        deal.tricks[p],
        deal.won_cards[0] | deal.won_cards[1],
        len(stock),
        stock[0] if stock else -1,
        deal.closed_by < 0 and bool(stock),
        deal.rules.deck_mask,
    )


def heuristic_playout(deal: Deal) -> Deal:
    """Play ``deal`` to its end in place with the heuristic for both players; returns it."""
    while deal.outcome is None:
        deal.apply(heuristic_deal_action(deal))
    return deal


class HeuristicAgent:
    """The rule list of the module docstring; ignores ``rng`` (fully deterministic)."""

    name = "heuristic"

    def act(self, info: InfoState, rng: random.Random) -> int:
        return heuristic_info_action(info)

    def __repr__(self) -> str:
        return "HeuristicAgent()"
