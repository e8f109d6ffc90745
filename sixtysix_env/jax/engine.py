"""The rules of one deal as pure JAX functions: legal mask, apply an action, start a deal.

A line-by-line port of the numba kernels (``fast/kernels.py``), which are themselves a
translation of :class:`sixtysix_env.engine.Deal` (the specification). Every function takes a
``Game`` and returns a new one; rules are static (``Game.params``), so rule choices are Python
``if``s at trace time, and the state choices are ``jnp.where`` selects (what ``vmap`` makes of a
branch anyway), so one compiled step serves a whole batch without divergence.

Differences from the numba engine: no action history and no RNG streams in the state (deals come
from a JAX key, see ``random_deal``); nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import CARD_POINTS, SUIT_MASK
from ..engine import FOLLOWER_WINS, GOAL, HIGHER_IN_SUIT, KING_BIT, MARRIAGE_PAIR, Decision, Termination
from ..fast.state import (
    CLAIMING_EXPLICIT,
    CLOSER_FAIL_ALWAYS_3,
    CLOSER_WIN_ALWAYS_3,
    CLOSER_WIN_AT_CLOSING,
    EXCHANGE_AFTER_FIRST_TRICK,
    EXCHANGE_AFTER_WON_TRICK,
    EXCHANGE_ANY_TURN,
    MARRIAGE_COUNTS_NEXT_TRICK,
    MARRIAGE_LEAD_KING,
    PLAYED_OUT_LAST_TRICK,
    SCHWARZ_NO_POINTS,
    SIX_NEVER,
    SIX_OR_OPPONENT_NO_TRICK,
)
from .rules import Params, make_params
from .state import MAX_STOCK, Game

__all__ = [
    "apply_action",
    "compute_mask",
    "start_deal",
    "random_deal",
    "deck_cards",
    "stock_open",
    "RUNNING",
]

LEAD, FOLLOW, DRAW, CLOSING_EXCHANGE, CLAIM_DECISION = (int(d) for d in Decision)
WENT_OUT, FALSE_CLAIM, CLOSER_FAILED, PLAYED_OUT, DRAWN = (int(t) for t in Termination)
RUNNING = -1
"""``Game.termination`` of a deal still running."""
_HALF = GOAL // 2

# Tables from the reference engine, as int32 constants.
CARD_POINTS_T = jnp.asarray(np.array(CARD_POINTS, dtype=np.int32))
SUIT_MASK_T = jnp.asarray(np.array(SUIT_MASK, dtype=np.int32))
HIGHER_IN_SUIT_T = jnp.asarray(np.array(HIGHER_IN_SUIT, dtype=np.int32))
MARRIAGE_PAIR_T = jnp.asarray(np.array(MARRIAGE_PAIR, dtype=np.int32))
KING_BIT_T = jnp.asarray(np.array(KING_BIT, dtype=np.int32))
_wins = np.array(FOLLOWER_WINS, dtype=np.int64).reshape(4, 24, 24)  # [trump, lead, follow]
WINNING_FOLLOWS_T = jnp.asarray((_wins << np.arange(24)).sum(axis=2).astype(np.int32))
"""``[trump, lead]``: the 24-bit mask of the cards that win the trick when following ``lead``."""

I32 = jnp.int32
_SEATS = np.arange(2, dtype=np.int32)


def bit(c: Any) -> jax.Array:
    """``1 << c`` as int32 (cards 0..23)."""
    return jnp.left_shift(I32(1), jnp.asarray(c, I32))


def ubit(a: int) -> jax.Array:
    """Action bit ``a`` of a uint32 legal mask."""
    return jnp.uint32(1 << a)


def getp(arr: jax.Array, p: Any) -> jax.Array:
    """``arr[p]`` for a (2,) per-player field (a select, cheaper than a gather under vmap)."""
    return jnp.where(p == 0, arr[0], arr[1])


def setp(arr: jax.Array, p: Any, value: Any) -> jax.Array:
    """``arr`` with ``arr[p] = value``."""
    return jnp.where(p == _SEATS, jnp.asarray(value, arr.dtype), arr)


def select(pred: Any, a: Game, b: Game) -> Game:
    """``a`` where ``pred`` else ``b``, field by field."""
    return jax.tree.map(lambda x, y: jnp.where(pred, x, y), a, b)


# ====================================================================== rules (Deal methods)
def stock_open(g: Game) -> jax.Array:
    """Whether cards are still drawn: the stock is neither closed nor empty."""
    return (g.closed_by < 0) & (g.stock_len > 0)


def can_exchange(g: Game, p: Any) -> jax.Array:
    P = g.params
    ok = (g.closed_by < 0) & (g.stock_len >= 2) & (((getp(g.hand, p) >> g.exchange_card) & 1) != 0)
    if P.exchange_requires == EXCHANGE_AFTER_WON_TRICK:
        return ok & (getp(g.tricks, p) > 0)
    if P.exchange_requires == EXCHANGE_AFTER_FIRST_TRICK:
        return ok & (g.trick_count > 0)
    return ok


def can_close(g: Game) -> jax.Array:
    P = g.params
    if not P.closing:
        return jnp.bool_(False)
    return (g.closed_by < 0) & (g.stock_len >= P.closing_min_stock)


def marriage_actions(g: Game, p: Any) -> jax.Array:
    """The declarable marriages as uint32 action bits."""
    P = g.params
    ok = stock_open(g) | ((g.just_closed != 0) & (g.closed_by == p))
    if P.marriages_after_stock:
        ok = jnp.bool_(True)
    if not P.marriage_on_first_lead:
        ok = ok & (g.trick_count != 0)
    hand = getp(g.hand, p)
    m = jnp.uint32(0)
    for suit in range(4):
        pair = MARRIAGE_PAIR[suit]
        m = m | jnp.where((hand & pair) == pair, ubit(MARRIAGE + suit), jnp.uint32(0))
    return jnp.where(ok, m, jnp.uint32(0))


def follow_cards(g: Game, hand: jax.Array) -> jax.Array:
    lead = jnp.maximum(g.lead_card, 0)
    same = hand & SUIT_MASK_T[lead // 6]
    if g.params.must_win_trick:
        higher = same & HIGHER_IN_SUIT_T[lead]
        same_pick = jnp.where(higher != 0, higher, same)
    else:
        same_pick = same
    trumps = hand & SUIT_MASK_T[g.trump]
    closed = jnp.where(same != 0, same_pick, jnp.where(trumps != 0, trumps, hand))
    return jnp.where(stock_open(g), hand, closed)


def compute_mask(g: Game) -> jax.Array:
    """Deal._compute_mask: the legal actions as uint32 bits (0 once the deal is over)."""
    P = g.params
    p = g.current
    d = g.decision
    explicit = P.claiming == CLAIMING_EXPLICIT
    hand = getp(g.hand, p)
    uhand = hand.astype(jnp.uint32)
    zero = jnp.uint32(0)
    # FOLLOW
    m_follow = follow_cards(g, hand).astype(jnp.uint32)
    if P.exchange_timing == EXCHANGE_ANY_TURN:
        m_follow = m_follow | jnp.where(can_exchange(g, p), ubit(EXCHANGE), zero)
    # LEAD
    claim = jnp.where(getp(g.claim, p) != 0, ubit(GO_OUT), zero) if explicit else zero
    decl = jnp.maximum(g.declared, 0)
    pair = KING_BIT_T[decl] if P.marriage_lead == MARRIAGE_LEAD_KING else MARRIAGE_PAIR_T[decl]
    m_declared = (hand & pair).astype(jnp.uint32) | claim
    m_lead = uhand | claim | marriage_actions(g, p)
    m_lead = m_lead | jnp.where(can_exchange(g, p), ubit(EXCHANGE), zero)
    m_lead = m_lead | jnp.where(can_close(g), ubit(CLOSE), zero)
    m_lead = jnp.where(g.declared >= 0, m_declared, m_lead)
    m_draw = ubit(CLOSE) | ubit(PASS) | (ubit(GO_OUT) if explicit else zero)
    m_closing = ubit(EXCHANGE) | ubit(PASS)
    m_claim = ubit(GO_OUT) | ubit(PASS)
    m = jnp.where(
        d == FOLLOW,
        m_follow,
        jnp.where(
            d == LEAD, m_lead, jnp.where(d == DRAW, m_draw, jnp.where(d == CLOSING_EXCHANGE, m_closing, m_claim))
        ),
    )
    return jnp.where(g.termination != RUNNING, zero, m)


def _finish(g: Game, winner: Any, game_points: Any, how: Any) -> Game:
    w, gp, how = jnp.asarray(winner, I32), jnp.asarray(game_points, I32), jnp.asarray(how, I32)
    return g.replace(winner=w, game_points=gp, termination=how)  # type: ignore[attr-defined, no-any-return]


def _game_points(P: Params, loser_points: jax.Array, loser_tricks: jax.Array) -> jax.Array:
    schwarz = loser_points == 0 if P.schwarz == SCHWARZ_NO_POINTS else loser_tricks == 0
    return jnp.where(schwarz, 3, jnp.where(loser_points < _HALF, 2, 1)).astype(I32)


def _closer_fail_points(g: Game) -> jax.Array:
    P = g.params
    six = P.failed_close_six
    out = jnp.where((P.closer_fail == CLOSER_FAIL_ALWAYS_3) | (g.closed_opp_tricks == 0), 3, 2).astype(I32)
    if six == SIX_OR_OPPONENT_NO_TRICK:
        out = jnp.where(g.closed_opp_tricks == 0, 6, out)
    if six != SIX_NEVER:
        out = jnp.where(getp(g.tricks, g.closed_by) == g.closed_own_tricks, 6, out)
    return out


def _closer_win_points(g: Game, opp: Any) -> jax.Array:
    P = g.params
    if P.closer_win == CLOSER_WIN_ALWAYS_3:
        return I32(3)
    if P.closer_win == CLOSER_WIN_AT_CLOSING:
        return _game_points(P, g.closed_opp_points, g.closed_opp_tricks)
    return _game_points(P, getp(g.points, opp), getp(g.tricks, opp))


def _go_out(g: Game, p: Any) -> Game:
    o = 1 - p
    cb = g.closed_by
    reached = getp(g.points, p) >= GOAL
    fail = _closer_fail_points(g)
    plain = _game_points(g.params, getp(g.points, o), getp(g.tricks, o))
    gp_reached = jnp.where(cb < 0, plain, jnp.where(cb == p, _closer_win_points(g, o), fail))
    gp = jnp.where(reached, gp_reached, jnp.where(cb == p, fail, 2))
    how = jnp.where(reached, jnp.where((cb < 0) | (cb == p), WENT_OUT, CLOSER_FAILED), FALSE_CLAIM)
    return _finish(g, jnp.where(reached, p, o), gp, how)


def _score_played_out(g: Game, last_winner: Any) -> Game:
    P = g.params
    a, b = g.points[0], g.points[1]
    if P.played_out_winner == PLAYED_OUT_LAST_TRICK:
        w, gp, how = jnp.asarray(last_winner, I32), I32(1), I32(PLAYED_OUT)
    else:
        w_hi = jnp.where(a > b, 0, 1)
        gp_hi = _game_points(P, getp(g.points, 1 - w_hi), getp(g.tricks, 1 - w_hi))
        w = jnp.where(a == b, -1, w_hi)
        gp = jnp.where(a == b, 0, gp_hi)
        how = jnp.where(a == b, DRAWN, PLAYED_OUT)
    closed = g.closed_by >= 0
    return _finish(
        g,
        jnp.where(closed, 1 - g.closed_by, w),
        jnp.where(closed, _closer_fail_points(g), gp),
        jnp.where(closed, CLOSER_FAILED, how),
    )


def _draw(g: Game, winner: Any) -> Game:
    n = g.stock_len
    top = g.stock[jnp.clip(n - 1, 0, MAX_STOCK - 1)]
    last = g.stock[jnp.clip(n - 2, 0, MAX_STOCK - 1)]
    hand = g.hand | jnp.where(winner == _SEATS, bit(top), bit(last))
    known = jnp.where(n == 2, setp(g.known, 1 - winner, getp(g.known, 1 - winner) | bit(last)), g.known)
    return g.replace(hand=hand, known=known, stock_len=n - 2)  # type: ignore[attr-defined, no-any-return]


def _lead(g: Game, c: jax.Array) -> Game:
    p = g.current
    b = bit(c)
    return g.replace(  # type: ignore[attr-defined, no-any-return]
        hand=setp(g.hand, p, getp(g.hand, p) ^ b),
        known=setp(g.known, p, getp(g.known, p) & ~b),
        lead_card=c,
        declared=I32(-1),
        just_closed=I32(0),
        claim=setp(g.claim, p, 0),
        current=1 - p,
        decision=I32(FOLLOW),
    )


def _follow(g: Game, c: jax.Array) -> Game:
    P = g.params
    p = g.current
    b = bit(c)
    lead = jnp.maximum(g.lead_card, 0)
    wins = ((WINNING_FOLLOWS_T[g.trump, lead] >> c) & 1) != 0
    winner = jnp.where(wins, p, 1 - p)
    hand = setp(g.hand, p, getp(g.hand, p) ^ b)
    gain = CARD_POINTS_T[lead] + CARD_POINTS_T[c] + getp(g.pending, winner)
    last = (hand[0] | hand[1]) == 0
    if P.last_trick_bonus:
        gain = gain + jnp.where(last & (g.closed_by < 0), P.last_trick_bonus, 0)
    g = g.replace(  # type: ignore[attr-defined]
        hand=hand,
        known=setp(g.known, p, getp(g.known, p) & ~b),
        won=setp(g.won, winner, getp(g.won, winner) | b | bit(lead)),
        points=setp(g.points, winner, getp(g.points, winner) + gain),
        pending=setp(g.pending, winner, 0),
        tricks=setp(g.tricks, winner, getp(g.tricks, winner) + 1),
        trick_count=g.trick_count + 1,
        lead_card=I32(-1),
        leader=winner,
        current=winner,
    )
    explicit = P.claiming == CLAIMING_EXPLICIT
    if explicit:
        g = g.replace(claim=setp(g.claim, winner, 1))  # type: ignore[attr-defined]
        ended = g.replace(decision=I32(CLAIM_DECISION))  # type: ignore[attr-defined]
    else:
        ended = _score_played_out(g, winner)
    # the stock: draw, or (close_before_drawing) let the trick's winner close first
    if P.close_before_drawing:
        may_close = can_close(g)
        drawn = select(may_close, g.replace(decision=I32(DRAW)), _draw(g, winner).replace(decision=I32(LEAD)))  # type: ignore[attr-defined]
    else:
        drawn = _draw(g, winner).replace(decision=I32(LEAD))  # type: ignore[attr-defined]
    going_on = select(stock_open(g), drawn, g.replace(decision=I32(LEAD)))  # type: ignore[attr-defined]
    out = select(last, ended, going_on)
    if not explicit:
        out = select(getp(g.points, winner) >= GOAL, _go_out(g, winner), out)
    return out


def _declare(g: Game, suit: jax.Array) -> Game:
    P = g.params
    p = g.current
    value = jnp.where(suit == g.trump, 40, 20).astype(I32)
    direct = getp(g.tricks, p) > 0 if P.marriage_counts != MARRIAGE_COUNTS_NEXT_TRICK else jnp.bool_(False)
    g = g.replace(  # type: ignore[attr-defined]
        marriages=setp(g.marriages, p, getp(g.marriages, p) | bit(suit)),
        declared=suit,
        known=setp(g.known, p, getp(g.known, p) | MARRIAGE_PAIR_T[suit]),
        points=setp(g.points, p, getp(g.points, p) + jnp.where(direct, value, 0)),
        pending=setp(g.pending, p, getp(g.pending, p) + jnp.where(direct, 0, value)),
    )
    if P.claiming == CLAIMING_EXPLICIT:
        return g.replace(claim=setp(g.claim, p, 1))  # type: ignore[attr-defined, no-any-return]
    return select(getp(g.points, p) >= GOAL, _go_out(g, p), g)


def _exchange(g: Game) -> Game:
    p = g.current
    face_up = g.stock[0]
    return g.replace(  # type: ignore[attr-defined, no-any-return]
        hand=setp(g.hand, p, getp(g.hand, p) ^ (bit(g.exchange_card) | bit(face_up))),
        known=setp(g.known, p, getp(g.known, p) | bit(face_up)),
        stock=g.stock.at[0].set(g.exchange_card),
    )


def _close(g: Game) -> Game:
    P = g.params
    p = g.current
    o = 1 - p
    g = g.replace(  # type: ignore[attr-defined]
        closed_by=p,
        just_closed=I32(1),
        closed_opp_tricks=getp(g.tricks, o),
        closed_opp_points=getp(g.points, o),
        closed_own_tricks=getp(g.tricks, p),
    )
    if P.exchange_at_closing:
        offer = (g.stock_len >= 2) & (((getp(g.hand, o) >> g.exchange_card) & 1) != 0)
        return g.replace(  # type: ignore[attr-defined, no-any-return]
            current=jnp.where(offer, o, p), decision=jnp.where(offer, CLOSING_EXCHANGE, LEAD).astype(I32)
        )
    return g.replace(decision=I32(LEAD))  # type: ignore[attr-defined, no-any-return]


def _draw_pass(g: Game) -> Game:
    return _draw(g, g.current).replace(decision=I32(LEAD))  # type: ignore[attr-defined, no-any-return]


def _closing_exchange(g: Game, a: jax.Array) -> Game:
    out = select(a == EXCHANGE, _exchange(g), g)
    return out.replace(current=1 - g.current, decision=I32(LEAD))  # type: ignore[attr-defined, no-any-return]


# branch ids of apply_action (_B_KEEP: the deal unchanged)
_B_LEAD, _B_FOLLOW, _B_DECLARE, _B_EXCHANGE, _B_CLOSE, _B_GO_OUT, _B_DRAW, _B_CLOSING, _B_PLAYED, _B_KEEP = range(10)


def _branch(d: jax.Array, a: jax.Array) -> jax.Array:
    lead = jnp.where(
        a < MARRIAGE,
        _B_LEAD,
        jnp.where(
            a < EXCHANGE, _B_DECLARE, jnp.where(a == EXCHANGE, _B_EXCHANGE, jnp.where(a == CLOSE, _B_CLOSE, _B_GO_OUT))
        ),
    )
    follow = jnp.where(a < MARRIAGE, _B_FOLLOW, _B_EXCHANGE)
    draw = jnp.where(a == PASS, _B_DRAW, jnp.where(a == CLOSE, _B_CLOSE, _B_GO_OUT))
    claim = jnp.where(a == GO_OUT, _B_GO_OUT, _B_PLAYED)
    return jnp.where(
        d == FOLLOW,
        follow,
        jnp.where(d == LEAD, lead, jnp.where(d == DRAW, draw, jnp.where(d == CLOSING_EXCHANGE, _B_CLOSING, claim))),
    ).astype(I32)


def apply_action(g: Game, action: Any, keep: Any = False) -> Game:
    """Deal.apply for a legal ``action`` (the caller checks it: an illegal one leaves a garbage
    but well-formed state), then the next legal mask; ``keep`` (a bool) returns ``g`` unchanged
    instead, one more branch of the switch rather than a select over every field. Pure; jit- and
    vmap-able."""
    a = jnp.asarray(action, I32)
    card = jnp.clip(a, 0, 23)
    suit = jnp.clip(a - MARRIAGE, 0, 3)
    branches: list[Callable[[Game], Game]] = [
        lambda g: _lead(g, card),
        lambda g: _follow(g, card),
        lambda g: _declare(g, suit),
        _exchange,
        _close,
        lambda g: _go_out(g, g.current),
        _draw_pass,
        lambda g: _closing_exchange(g, a),
        lambda g: _score_played_out(g, g.current),
        lambda g: g,
    ]
    g = jax.lax.switch(jnp.where(keep, _B_KEEP, _branch(g.decision, a)), branches, g)
    return g.replace(mask=compute_mask(g))  # type: ignore[attr-defined, no-any-return]


# ====================================================================== starting a deal
def deck_cards(params: Params) -> np.ndarray:
    """The card ids of the rules' deck, ascending (int32)."""
    return np.array([c for c in range(24) if params.deck_mask >> c & 1], dtype=np.int32)


def start_deal(deck: Any, dealer: Any, params: Params | Any) -> Game:
    """Deal._start from one deck row (hand 0, hand 1, then the stock bottom first, as
    ``fast.state.arrangement_rows`` and ``BatchedDeals.reset(decks=...)``) and a dealer (0/1).
    The row is not checked (use ``fast.state.check_rows`` on host data)."""
    P = make_params(params)
    deck = jnp.asarray(deck, I32)
    n, m = P.hand_size, P.stock_size
    h0 = jnp.sum(bit(deck[:n]))  # distinct cards: the sum is the OR
    h1 = jnp.sum(bit(deck[n : 2 * n]))
    stock = jnp.zeros(MAX_STOCK, I32).at[:m].set(deck[2 * n :])
    return _start(h0, h1, stock, dealer, P)


def _start(h0: jax.Array, h1: jax.Array, stock: jax.Array, dealer: Any, P: Params) -> Game:
    """The first state of a deal from its two hands (card masks) and its stock (slot 0 the bottom card)."""
    dealer = jnp.asarray(dealer, I32)
    tc = stock[0]
    trump = tc // 6
    z = I32(0)
    z2 = jnp.zeros(2, I32)
    g = Game(  # type: ignore[call-arg]
        dealer=dealer,
        trump=trump,
        trump_card=tc,
        exchange_card=6 * trump + P.exchange_rank,
        current=1 - dealer,
        decision=I32(LEAD),
        leader=1 - dealer,
        lead_card=I32(-1),
        declared=I32(-1),
        just_closed=z,
        closed_by=I32(-1),
        closed_opp_tricks=z,
        closed_opp_points=z,
        closed_own_tricks=z,
        trick_count=z,
        mask=jnp.uint32(0),
        winner=I32(-1),
        game_points=z,
        termination=I32(RUNNING),
        stock_len=I32(P.stock_size),
        hand=jnp.stack([h0, h1]).astype(I32),
        known=z2,
        won=z2,
        points=z2,
        pending=z2,
        tricks=z2,
        marriages=z2,
        claim=z2,
        scores=z2,
        stock=stock,
        params=P,
    )
    return g.replace(mask=compute_mask(g))  # type: ignore[attr-defined, no-any-return]


def shuffle_ranks(key: jax.Array, size: int) -> jax.Array:
    """The place of each of ``size`` items in ``jax.random.permutation(key, items)``, without its sort.

    ``permutation`` makes one stable sort of the items by uint32 random keys (one round for up to
    a few thousand items); a sort is slow on the CPU under ``vmap`` (most of a deal's cost), so the
    place of item ``i`` is counted instead: the keys below its own, plus the equal keys of the
    items before it (the stable order). Same keys, same places: the same permutation, as uniform."""
    assert int(np.ceil(3 * np.log(max(1, size)) / np.log(np.iinfo(np.uint32).max))) == 1, size
    _, subkey = jax.random.split(key)  # as permutation's one round
    u = jax.random.bits(subkey, (size,), jnp.uint32)
    index = np.arange(size)
    before = (u[None, :] < u[:, None]) | ((u[None, :] == u[:, None]) & (index[None, :] < index[:, None]))
    return jnp.sum(before, axis=1, dtype=I32)


def random_deal(key: jax.Array, params: Params | Any) -> Game:
    """A uniformly shuffled deck and a random dealer from ``key``: the deal of
    ``start_deal(jax.random.permutation(k_deck, deck_cards(params)), dealer)``, built from the
    cards' places (``shuffle_ranks``) with compares and sums, no sort, gather or scatter."""
    P = make_params(params)
    k_deck, k_dealer = jax.random.split(key)
    cards = deck_cards(P)
    place = shuffle_ranks(k_deck, len(cards))
    n = P.hand_size
    bits = jnp.asarray(1 << cards, I32)
    h0 = jnp.sum(jnp.where(place < n, bits, 0))  # distinct cards: the sum is the OR
    h1 = jnp.sum(jnp.where((place >= n) & (place < 2 * n), bits, 0))
    slot_place = 2 * n + np.arange(MAX_STOCK)  # slots past the stock match no card: 0
    stock = jnp.sum(jnp.where(place[None, :] == slot_place[:, None], jnp.asarray(cards), 0), axis=1, dtype=I32)
    dealer = jax.random.randint(k_dealer, (), 0, 2, dtype=I32)
    return _start(h0, h1, stock, dealer, P)
