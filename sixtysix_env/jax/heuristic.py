"""The heuristic player (``agents.heuristic``) as a pure JAX function of the state.

A port of ``fast/heuristic.py`` (``choose``), rule by rule in the same order with the same
tie-breaks; the numba function is itself checked against the Python agent. Each rule is a
``jnp.where`` on a "decided yet" flag instead of an early ``return``, so the function is one
straight line of bit operations: jit- and vmap-able, for single-agent training entirely under jit.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import NUM_CARDS
from ..engine import GOAL
from .engine import (
    CARD_POINTS_T,
    CLAIM_DECISION,
    DRAW,
    HIGHER_IN_SUIT_T,
    LEAD,
    MARRIAGE_PAIR_T,
    SUIT_MASK_T,
    WINNING_FOLLOWS_T,
    getp,
)
from .rules import Params
from .state import Game, State

__all__ = ["heuristic_action", "choose"]

_CARDS = (1 << NUM_CARDS) - 1
_CHEAP_ORDER_NP = np.array(sorted(range(NUM_CARDS), key=lambda c: (c % 6, c // 6)), dtype=np.int32)
_CHEAP_ORDER = jnp.asarray(_CHEAP_ORDER_NP)
"""Card ids "cheapest first": by rank (rank order is card-point order), then suit."""
_SHIFTS = jnp.arange(NUM_CARDS, dtype=jnp.int32)
_RANK_IN_ORDER = jnp.arange(NUM_CARDS, dtype=jnp.int32)


def _cheapest(mask: jax.Array) -> jax.Array:
    """The first card of ``mask`` in cheapest-first order (-1 if empty)."""
    present = ((mask >> _CHEAP_ORDER) & 1) != 0
    k = jnp.argmax(present)
    return jnp.where(present.any(), _CHEAP_ORDER[k], -1)


def _dearest(mask: jax.Array) -> jax.Array:
    present = ((mask >> _CHEAP_ORDER) & 1) != 0
    k = NUM_CARDS - 1 - jnp.argmax(present[::-1])
    return jnp.where(present.any(), _CHEAP_ORDER[k], -1)


def _lowest_bit(mask: jax.Array) -> jax.Array:
    """Index of the lowest set bit (``mask`` > 0)."""
    return 31 - jax.lax.clz(mask & -mask)


def _marriage_cards(hand: jax.Array) -> jax.Array:
    pairs = MARRIAGE_PAIR_T
    return jnp.bitwise_or.reduce(jnp.where((hand & pairs) == pairs, pairs, 0))


def _masters(hand: jax.Array, outside: jax.Array) -> jax.Array:
    """Cards in ``hand`` that no card in ``outside`` beats within their own suit."""
    beaten = (outside & HIGHER_IN_SUIT_T) != 0
    in_hand = ((hand >> _SHIFTS) & 1) != 0
    return jnp.sum(jnp.where(in_hand & ~beaten, jnp.left_shift(1, _SHIFTS), 0)).astype(jnp.int32)


def _throw(cards: jax.Array, trumps: jax.Array, hand: jax.Array) -> jax.Array:
    """The cheapest card to give away: a non-trump outside a marriage, then any non-trump, then a trump."""
    plain = cards & ~trumps
    free = plain & ~_marriage_cards(hand)
    return jnp.where(free != 0, _cheapest(free), _cheapest(jnp.where(plain != 0, plain, cards)))


def _sure_points(hand: Any, trump: Any, outside: Any, my_points: Any, my_pending: Any, my_tricks: Any) -> jax.Array:
    """Counted points the player is sure to reach after closing (rule 3)."""
    trumps = SUIT_MASK_T[trump]
    masters = _masters(hand & trumps, outside)
    masters = jnp.where((outside & trumps) == 0, masters | _masters(hand, outside), masters)
    sure = my_points + jnp.sum(jnp.where(((masters >> _SHIFTS) & 1) != 0, CARD_POINTS_T, 0))
    pair = MARRIAGE_PAIR_T[trump]
    bonus = my_pending + jnp.where((hand & pair) == pair, 40, jnp.where(_marriage_cards(hand) != 0, 20, 0))
    return sure + jnp.where((masters != 0) | (my_tricks != 0), bonus, 0)


def choose(
    legal: Any,
    decision: Any,
    hand: Any,
    trump: Any,
    lead_card: Any,
    declared: Any,
    my_points: Any,
    my_pending: Any,
    my_tricks: Any,
    played: Any,
    stock_size: Any,
    stock_bottom: Any,
    stock_open: Any,
    deck_mask: Any,
) -> jax.Array:
    """``agents.heuristic.heuristic_action`` with the same arguments (``legal`` uint32; -1 if empty)."""
    legal = jnp.asarray(legal, jnp.uint32)
    i32 = jnp.int32
    done = jnp.bool_(False)
    out = i32(-1)

    def rule(cond: Any, action: Any) -> None:
        nonlocal done, out
        take = ~done & cond
        out = jnp.where(take, jnp.asarray(action, i32), out)
        done = done | cond

    rule(legal == 0, -1)
    # 1. going out / claiming
    has_go = ((legal >> GO_OUT) & 1) != 0
    rule(has_go & (my_points >= GOAL), GO_OUT)
    rule(has_go & (decision == CLAIM_DECISION), PASS)
    legal = jnp.where(has_go, legal & jnp.uint32(~(1 << GO_OUT) & 0xFFFFFFFF), legal)
    # 2. exchange
    rule(((legal >> EXCHANGE) & 1) != 0, EXCHANGE)
    trumps = SUIT_MASK_T[trump]
    lead_bit = jnp.where(lead_card >= 0, jnp.left_shift(1, jnp.maximum(lead_card, 0)), 0)
    outside = deck_mask & ~hand & ~played & ~lead_bit
    outside = jnp.where(stock_size != 0, outside & ~jnp.left_shift(1, jnp.maximum(stock_bottom, 0)), outside)
    # 3. closing
    has_close = ((legal >> CLOSE) & 1) != 0
    rule(has_close & (_sure_points(hand, trump, outside, my_points, my_pending, my_tricks) >= GOAL), CLOSE)
    rule(has_close & (decision == DRAW), PASS)
    # 4. marriages: the trump marriage first, else the lowest suit
    marriages = ((legal >> MARRIAGE) & 0xF).astype(i32)
    rule((marriages != 0) & (((marriages >> trump) & 1) != 0), MARRIAGE + trump)
    rule(marriages != 0, MARRIAGE + _lowest_bit(marriages))
    cards = (legal & jnp.uint32(_CARDS)).astype(i32)
    # 5. lead after declaring: the queen (keep the king), else the king
    rule(declared >= 0, _cheapest(cards))
    plain = cards & ~trumps
    plain_or_cards = _cheapest(jnp.where(plain != 0, plain, cards))
    throw = _throw(cards, trumps, hand)
    is_lead = decision == LEAD
    # 6. lead low, save trumps
    rule(is_lead & stock_open, throw)
    # 7. stock closed or exhausted: the highest master card, trumps first while the opponent may hold one
    masters = _masters(cards, outside)
    rule(is_lead & ((outside & trumps) != 0) & ((masters & trumps) != 0), _dearest(masters & trumps))
    rule(is_lead & (masters != 0), _dearest(masters))
    rule(is_lead, plain_or_cards)
    # FOLLOW: the cards that would win the trick
    lead = jnp.maximum(lead_card, 0)
    winners = cards & WINNING_FOLLOWS_T[trump, lead]
    # 8. stock open
    same = winners & SUIT_MASK_T[lead // 6]
    cheapest = _cheapest(jnp.where(same != 0, same, winners))
    gain = CARD_POINTS_T[lead] + CARD_POINTS_T[jnp.maximum(cheapest, 0)] + my_pending
    rule(stock_open & (winners != 0) & ((my_points + gain >= GOAL) | (lead % 6 >= 4)), cheapest)  # (a), (b)
    same_plain = same & ~trumps & ~_marriage_cards(hand)  # (c) a higher card of the suit
    rule(stock_open & (winners != 0) & (same_plain != 0), _cheapest(same_plain))
    rule(stock_open, throw)  # (d)
    # 9. stock closed or exhausted: the cheapest winner, else the cheapest card, non-trumps first
    rule(winners != 0, _cheapest(winners))
    rule(jnp.bool_(True), plain_or_cards)
    return out


def heuristic_action(state: State | Game, params: Params | None = None) -> jax.Array:
    """The heuristic's action (int32) for the player to act, from what that player may know
    (the inputs of ``heuristic_info_action``); -1 for a finished deal. ``params`` defaults to the
    state's own rules (it is accepted for symmetry with the numba kernel; it must match them)."""
    g = state._game if isinstance(state, State) else state
    P = g.params if params is None else params
    p = g.current
    stock_size = g.stock_len
    return choose(
        g.mask,
        g.decision,
        getp(g.hand, p),
        g.trump,
        g.lead_card,
        g.declared,
        getp(g.points, p),
        getp(g.pending, p),
        getp(g.tricks, p),
        g.won[0] | g.won[1],
        stock_size,
        jnp.where(stock_size > 0, g.stock[0], -1),
        (g.closed_by < 0) & (stock_size > 0),
        jnp.int32(P.deck_mask),
    )
