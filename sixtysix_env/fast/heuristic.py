"""The heuristic player of ``sixtysix_env.agents.heuristic`` as a numba kernel over the batch's state.

``choose`` below mirrors ``agents.heuristic.heuristic_action`` rule by rule (same numbering,
same order, same tie-breaks), on the same plain inputs; ``heuristic_action(s, R)`` reads those
inputs for the player to act from one env's state row, exactly as
``heuristic_info_action(InfoState.of(deal, player))`` reads them from a deal. The Python
function stays the specification: ``tests/test_fast_heuristic.py`` checks that both pick the
same action at every decision of thousands of deals per preset.

Three uses: ``BatchedDeals.heuristic_actions()`` (a vectorised policy for the players to act,
e.g. one seat of a self-play batch), the built-in opponent of ``BatchedDeals(opponent="heuristic")``
(played inside ``kernels.step_envs``), and through it ``SixtySixVectorEnv`` and
``SixtySixSB3VecEnv``.

This module imports nothing from ``kernels.py`` (``kernels.py`` imports it). Numba's cache of
``kernels.py`` holds this code compiled in, but numba only checks whether the cached function's own
file changed; so ``kernels.HEURISTIC_DIGEST`` holds this file's digest: after editing this file,
put the new digest there (``tests/test_fast_heuristic.py`` prints it), or the built-in opponent
keeps the old rules. The whole chain, ``STATE_DIGEST`` below included: ``fast/digest.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import CARD_POINTS, NUM_CARDS, SUIT_MASK
from ..engine import FOLLOWER_WINS, GOAL, HIGHER_IN_SUIT, MARRIAGE_PAIR
from .state import (
    CLAIM_DECISION,
    CLOSED_BY,
    CURRENT,
    DECISION,
    DECLARED,
    DRAW,
    HAND,
    LEAD,
    LEAD_CARD,
    MASK,
    PENDING,
    POINTS,
    R_DECK_MASK,
    STOCK,
    STOCK_LEN,
    TRICKS,
    TRUMP,
    WON,
)

__all__ = ["heuristic_action", "choose", "heuristic_actions_kernel"]

STATE_DIGEST = "ebe7865f95064a70"
"""``digest.source_digest`` of ``state.py``, whose constants numba compiles into these functions
and the kernels: a new ``state.py`` must change this line (a test checks it; ``fast/digest.py``)."""

_JIT: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}  # as kernels.py: no allocation, GIL released

_CARDS = (1 << NUM_CARDS) - 1
_MASK32 = 0xFFFFFFFF
_CARD_POINTS = np.array(CARD_POINTS, dtype=np.int64)
_SUIT_MASK = np.array(SUIT_MASK, dtype=np.int64)
_HIGHER_IN_SUIT = np.array(HIGHER_IN_SUIT, dtype=np.int64)
_MARRIAGE_PAIR = np.array(MARRIAGE_PAIR, dtype=np.int64)
_FOLLOWER_WINS = np.array(FOLLOWER_WINS, dtype=np.bool_)  # [trump, lead * 24 + follow]
# Card ids "cheapest first": by rank (rank order is card-point order), then suit.
_CHEAP_ORDER = np.array(sorted(range(NUM_CARDS), key=lambda c: (c % 6, c // 6)), dtype=np.int64)


# ---------------------------------------------------------------- helpers (as in agents/heuristic.py)
@njit(**_JIT)
def _cheapest(mask):
    for k in range(NUM_CARDS):
        c = _CHEAP_ORDER[k]
        if (mask >> c) & 1:
            return c
    return -1


@njit(**_JIT)
def _dearest(mask):
    for k in range(NUM_CARDS - 1, -1, -1):
        c = _CHEAP_ORDER[k]
        if (mask >> c) & 1:
            return c
    return -1


@njit(**_JIT)
def _lowest_bit(mask):
    """Index of the lowest set bit (``mask`` > 0)."""
    low = mask & -mask
    k = 0
    while low > 1:
        low >>= 1
        k += 1
    return k


@njit(**_JIT)
def _marriage_cards(hand):
    out = np.int64(0)
    for suit in range(4):
        pair = _MARRIAGE_PAIR[suit]
        if hand & pair == pair:
            out |= pair
    return out


@njit(**_JIT)
def _masters(hand, outside):
    """Cards in ``hand`` that no card in ``outside`` beats within their own suit."""
    out = np.int64(0)
    m = hand
    while m:
        low = m & -m
        if not outside & _HIGHER_IN_SUIT[_lowest_bit(low)]:
            out |= low
        m ^= low
    return out


@njit(**_JIT)
def _throw(cards, trumps, hand):
    """The cheapest card to give away: a non-trump outside a marriage, then any non-trump, then a trump."""
    plain = cards & ~trumps
    free = plain & ~_marriage_cards(hand)
    if free:
        return _cheapest(free)
    return _cheapest(plain if plain else cards)


@njit(**_JIT)
def _sure_points(hand, trump, outside, my_points, my_pending, my_tricks):
    """Counted points the player is sure to reach after closing (rule 3)."""
    trumps = _SUIT_MASK[trump]
    masters = _masters(hand & trumps, outside)
    if not outside & trumps:
        masters |= _masters(hand, outside)
    sure = my_points
    for c in range(NUM_CARDS):
        if (masters >> c) & 1:
            sure += _CARD_POINTS[c]
    if masters or my_tricks:
        sure += my_pending
        if hand & _MARRIAGE_PAIR[trump] == _MARRIAGE_PAIR[trump]:
            sure += 40
        elif _marriage_cards(hand):
            sure += 20
    return sure


# ---------------------------------------------------------------- the rule list
@njit(**_JIT)
def choose(
    legal,
    decision,
    hand,
    trump,
    lead_card,
    declared,
    my_points,
    my_pending,
    my_tricks,
    played,
    stock_size,
    stock_bottom,
    stock_open,
    deck_mask,
):
    """``agents.heuristic.heuristic_action`` with the same arguments (ints; ``stock_open`` bool)."""
    # 1. going out / claiming
    if (legal >> GO_OUT) & 1:
        if my_points >= GOAL:
            return GO_OUT
        if decision == CLAIM_DECISION:
            return PASS
        legal &= ~(np.int64(1) << GO_OUT)
    # 2. exchange
    if (legal >> EXCHANGE) & 1:
        return EXCHANGE
    trumps = _SUIT_MASK[trump]
    lead_bit = np.int64(1) << lead_card if lead_card >= 0 else np.int64(0)
    outside = deck_mask & ~hand & ~played & ~lead_bit
    if stock_size:
        outside &= ~(np.int64(1) << stock_bottom)
    # 3. closing
    if (legal >> CLOSE) & 1:
        if _sure_points(hand, trump, outside, my_points, my_pending, my_tricks) >= GOAL:
            return CLOSE
        if decision == DRAW:
            return PASS
    # 4. marriages: the trump marriage first, else the lowest suit
    marriages = (legal >> MARRIAGE) & 0xF
    if marriages:
        if (marriages >> trump) & 1:
            return MARRIAGE + trump
        return MARRIAGE + _lowest_bit(marriages)
    cards = legal & _CARDS
    # 5. lead after declaring: the queen (keep the king), else the king
    if declared >= 0:
        return _cheapest(cards)
    if decision == LEAD:
        if stock_open:  # 6. lead low, save trumps
            return _throw(cards, trumps, hand)
        # 7. stock closed or exhausted: the highest master card, trumps first while the opponent may hold one
        masters = _masters(cards, outside)
        if outside & trumps and masters & trumps:
            return _dearest(masters & trumps)
        if masters:
            return _dearest(masters)
        plain = cards & ~trumps
        return _cheapest(plain if plain else cards)
    # FOLLOW: the cards that would win the trick
    winners = np.int64(0)
    m = cards
    while m:
        low = m & -m
        if _FOLLOWER_WINS[trump, lead_card * NUM_CARDS + _lowest_bit(low)]:
            winners |= low
        m ^= low
    if stock_open:  # 8.
        if winners:
            same = winners & _SUIT_MASK[lead_card // 6]
            cheapest = _cheapest(same if same else winners)
            gain = _CARD_POINTS[lead_card] + _CARD_POINTS[cheapest] + my_pending
            # (a) reach 66, (b) take a led ten or ace
            if my_points + gain >= GOAL or lead_card % 6 >= 4:
                return cheapest
            same_plain = same & ~trumps & ~_marriage_cards(hand)  # (c) a higher card of the suit
            if same_plain:
                return _cheapest(same_plain)
        return _throw(cards, trumps, hand)  # (d)
    # 9. stock closed or exhausted: the cheapest winner, else the cheapest card, non-trumps first
    if winners:
        return _cheapest(winners)
    plain = cards & ~trumps
    return _cheapest(plain if plain else cards)


@njit(**_JIT)
def heuristic_action(s, R):
    """The heuristic's action for the player to act in state row ``s`` (rules vector ``R``), from
    what that player may know (``heuristic_info_action``'s inputs); -1 for a finished deal."""
    legal = np.int64(s[MASK]) & _MASK32
    if legal == 0:
        return -1
    p = s[CURRENT]
    stock_size = s[STOCK_LEN]
    return choose(
        legal,
        s[DECISION],
        np.int64(s[HAND + p]),
        s[TRUMP],
        s[LEAD_CARD],
        s[DECLARED],
        s[POINTS + p],
        s[PENDING + p],
        s[TRICKS + p],
        np.int64(s[WON]) | np.int64(s[WON + 1]),
        stock_size,
        s[STOCK] if stock_size > 0 else -1,
        s[CLOSED_BY] < 0 and stock_size > 0,
        R[R_DECK_MASK],
    )


@njit(**_JIT)
def heuristic_actions_kernel(S, R, actions):
    """The heuristic's action for the player to act in every env (-1 where the deal is over)."""
    for i in range(S.shape[0]):
        actions[i] = heuristic_action(S[i], R)
