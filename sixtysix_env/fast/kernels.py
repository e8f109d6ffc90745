"""Numba kernels of the batched engine: the rules of one deal, written once.

Every rule function below works on one env's state row ``s`` (see ``state.py``) and the rules
vector ``R``; it is a line-by-line translation of the method of the same name in
:class:`sixtysix_env.engine.Deal`, which stays the specification (the differential test runs
both on the same cards and actions). The batch drivers at the end loop these over the envs of
the arrays they are given.

Integers: state is int32, arithmetic int64. The legal mask is stored as int32 in ``s[MASK]``
(bit 31, go out, makes it negative); ``legal_mask(s)`` reads it back as a 32-bit unsigned value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import CARD_POINTS, SUIT_MASK
from ..engine import FOLLOWER_WINS, GOAL, HIGHER_IN_SUIT, KING_BIT, MARRIAGE_PAIR
from ..rewards import REWARD_SCHEMES
from .heuristic import heuristic_action
from .state import (
    CHOICE_CODES,
    CLAIM,
    CLAIM_DECISION,
    CLAIMING_EXPLICIT,
    CLOSED_BY,
    CLOSED_OPP_POINTS,
    CLOSED_OPP_TRICKS,
    CLOSED_OWN_TRICKS,
    CLOSER_FAIL_ALWAYS_3,
    CLOSER_FAILED,
    CLOSER_WIN_ALWAYS_3,
    CLOSER_WIN_AT_CLOSING,
    CLOSING_EXCHANGE,
    CURRENT,
    DEALER,
    DECISION,
    DECLARED,
    DRAW,
    DRAWN,
    EXCHANGE_AFTER_FIRST_TRICK,
    EXCHANGE_AFTER_WON_TRICK,
    EXCHANGE_ANY_TURN,
    EXCHANGE_CARD,
    FALSE_CLAIM,
    FOLLOW,
    GAME_POINTS,
    HAND,
    HISTORY_LEN,
    JUST_CLOSED,
    KNOWN,
    LEAD,
    LEAD_CARD,
    LEADER,
    MARRIAGE_COUNTS_NEXT_TRICK,
    MARRIAGE_LEAD_KING,
    MARRIAGES,
    MASK,
    NUM_MOVES,
    OBS,
    OBS_BINARY_SIZE,
    OBS_SIZE,
    PENDING,
    PLAYED_OUT,
    PLAYED_OUT_LAST_TRICK,
    POINTS,
    R_CLAIMING,
    R_CLOSE_BEFORE_DRAWING,
    R_CLOSER_FAIL,
    R_CLOSER_WIN,
    R_CLOSING,
    R_CLOSING_MIN_STOCK,
    R_DECK_MASK,
    R_EXCHANGE_AT_CLOSING,
    R_EXCHANGE_RANK,
    R_EXCHANGE_REQUIRES,
    R_EXCHANGE_TIMING,
    R_FAILED_CLOSE_SIX,
    R_HAND_SIZE,
    R_LAST_TRICK_BONUS,
    R_MARRIAGE_COUNTS,
    R_MARRIAGE_LEAD,
    R_MARRIAGE_ON_FIRST_LEAD,
    R_MARRIAGES_AFTER_STOCK,
    R_MATCH_TARGET,
    R_MUST_WIN_TRICK,
    R_PLAYED_OUT_WINNER,
    R_SCHWARZ,
    R_STOCK_SIZE,
    RUNNING,
    SCHWARZ_NO_POINTS,
    SCORES,
    SIX_NEVER,
    SIX_OR_OPPONENT_NO_TRICK,
    STOCK,
    STOCK_LEN,
    TERMINATION,
    TRICK_COUNT,
    TRICKS,
    TRUMP,
    TRUMP_CARD,
    WENT_OUT,
    WINNER,
    WON,
)

HEURISTIC_DIGEST = "8aab804ae516f0ba"
"""``digest.source_digest`` of ``heuristic.py``, compiled into these kernels' numba cache: numba
checks only this file for changes, so a new heuristic must change this line (a test checks it)."""

assert CHOICE_CODES["claiming"]["explicit"] == CLAIMING_EXPLICIT
assert REWARD_SCHEMES == ("game_points", "win_loss", "shaped"), "update REWARD_* below"

# Compiled without numba's reference-counting runtime (``_nrt=False``): the kernels never
# allocate, and its atomic reference counts on every array argument of every call cost three
# to four times as much as the rules themselves. ``nogil`` lets the batch run slices of envs on
# several threads.
_JIT: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}

# Tables from the reference engine, frozen into the compiled code as constants.
_CARD_POINTS = np.array(CARD_POINTS, dtype=np.int64)
_SUIT_MASK = np.array(SUIT_MASK, dtype=np.int64)
_HIGHER_IN_SUIT = np.array(HIGHER_IN_SUIT, dtype=np.int64)
_MARRIAGE_PAIR = np.array(MARRIAGE_PAIR, dtype=np.int64)
_KING_BIT = np.array(KING_BIT, dtype=np.int64)
_FOLLOWER_WINS = np.array(FOLLOWER_WINS, dtype=np.bool_)  # [trump, lead * 24 + follow]
_HALF = GOAL // 2
_MASK32 = 0xFFFFFFFF

# Reward schemes (rewards.REWARD_SCHEMES order) and dealer modes, as ints.
REWARD_GAME_POINTS, REWARD_WIN_LOSS, REWARD_SHAPED = 0, 1, 2
DEALER_ZERO, DEALER_ONE, DEALER_ALTERNATE, DEALER_RANDOM = 0, 1, 2, 3
# Config vector of the batch drivers.
C_REWARD, C_AUTORESET, C_DEALER_MODE, C_OPPONENT, C_WRITE_OBS, C_FINAL_SEAT, C_OPPONENT_SEAT = range(7)
NUM_CONFIG = 7
# C_OPPONENT: the built-in opponent's policy, or none (self-play).
NO_OPPONENT, OPPONENT_RANDOM, OPPONENT_HEURISTIC = -1, 0, 1
# C_OPPONENT_SEAT: 0 or 1, or drawn per deal; the drivers' ``seats`` array holds each env's current one.
SEAT_RANDOM = 2
# C_FINAL_SEAT: -1 (none), 0 or 1, or the seat facing the opponent in each env.
FINAL_SEAT_LEARNER = 2

# RNG streams per env: splitmix64 (one uint64 of state, any seed is fine).
RNG_DEAL, RNG_ACTION = 0, 1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


# ====================================================================== helpers
@njit(**_JIT)
def _next_u64(rng, i, stream):
    x = rng[i, stream] + _GOLDEN
    rng[i, stream] = x
    z = (x ^ (x >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(**_JIT)
def _below(rng, i, stream, n):
    """A uniform int in [0, n) (modulo bias below 1e-17)."""
    return np.int64(_next_u64(rng, i, stream) % np.uint64(n))


@njit(**_JIT)
def popcount(x):
    """Set bits of a 32-bit value (SWAR)."""
    x = np.int64(x) & _MASK32
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & _MASK32) >> 24


@njit(**_JIT)
def legal_mask(s):
    return np.int64(s[MASK]) & _MASK32


@njit(**_JIT)
def _bit(c):
    return np.int64(1) << np.int64(c)


# ====================================================================== rules (Deal methods)
@njit(**_JIT)
def stock_open(s):
    return s[CLOSED_BY] < 0 and s[STOCK_LEN] > 0


@njit(**_JIT)
def can_exchange(s, R, p):
    if s[CLOSED_BY] >= 0 or s[STOCK_LEN] < 2 or not (s[HAND + p] >> s[EXCHANGE_CARD]) & 1:
        return False
    need = R[R_EXCHANGE_REQUIRES]
    if need == EXCHANGE_AFTER_WON_TRICK:
        return s[TRICKS + p] > 0
    if need == EXCHANGE_AFTER_FIRST_TRICK:
        return s[TRICK_COUNT] > 0
    return True


@njit(**_JIT)
def can_close(s, R):
    return R[R_CLOSING] != 0 and s[CLOSED_BY] < 0 and s[STOCK_LEN] >= R[R_CLOSING_MIN_STOCK]


@njit(**_JIT)
def marriage_actions(s, R, p):
    if s[TRICK_COUNT] == 0 and R[R_MARRIAGE_ON_FIRST_LEAD] == 0:
        return np.int64(0)
    if not (stock_open(s) or R[R_MARRIAGES_AFTER_STOCK] != 0 or (s[JUST_CLOSED] != 0 and s[CLOSED_BY] == p)):
        return np.int64(0)
    hand = np.int64(s[HAND + p])
    m = np.int64(0)
    for suit in range(4):
        pair = _MARRIAGE_PAIR[suit]
        if hand & pair == pair:
            m |= _bit(MARRIAGE + suit)
    return m


@njit(**_JIT)
def follow_cards(s, R, hand):
    if stock_open(s):
        return hand
    lead = s[LEAD_CARD]
    same = hand & _SUIT_MASK[lead // 6]
    if same:
        if R[R_MUST_WIN_TRICK] != 0:
            higher = same & _HIGHER_IN_SUIT[lead]
            return higher if higher else same
        return same
    trumps = hand & _SUIT_MASK[s[TRUMP]]
    return trumps if trumps else hand


@njit(**_JIT)
def compute_mask(s, R):
    """Deal._compute_mask: the legal actions as a 32-bit int."""
    if s[TERMINATION] != RUNNING:
        return np.int64(0)
    p = s[CURRENT]
    d = s[DECISION]
    explicit = R[R_CLAIMING] == CLAIMING_EXPLICIT
    hand = np.int64(s[HAND + p])
    if d == FOLLOW:
        m = follow_cards(s, R, hand)
        if R[R_EXCHANGE_TIMING] == EXCHANGE_ANY_TURN and can_exchange(s, R, p):
            m |= _bit(EXCHANGE)
        return m
    if d == LEAD:
        claim = _bit(GO_OUT) if explicit and s[CLAIM + p] != 0 else np.int64(0)
        declared = s[DECLARED]
        if declared >= 0:
            pair = _KING_BIT[declared] if R[R_MARRIAGE_LEAD] == MARRIAGE_LEAD_KING else _MARRIAGE_PAIR[declared]
            return (hand & pair) | claim
        m = hand | claim | marriage_actions(s, R, p)
        if can_exchange(s, R, p):
            m |= _bit(EXCHANGE)
        if can_close(s, R):
            m |= _bit(CLOSE)
        return m
    if d == DRAW:
        return _bit(CLOSE) | _bit(PASS) | (_bit(GO_OUT) if explicit else np.int64(0))
    if d == CLOSING_EXCHANGE:
        return _bit(EXCHANGE) | _bit(PASS)
    return _bit(GO_OUT) | _bit(PASS)  # CLAIM_DECISION


@njit(**_JIT)
def _finish(s, winner, game_points, how):
    s[WINNER] = winner
    s[GAME_POINTS] = game_points
    s[TERMINATION] = how


@njit(**_JIT)
def _is_schwarz(R, points, tricks):
    return points == 0 if R[R_SCHWARZ] == SCHWARZ_NO_POINTS else tricks == 0


@njit(**_JIT)
def _game_points(R, loser_points, loser_tricks):
    if _is_schwarz(R, loser_points, loser_tricks):
        return 3
    return 2 if loser_points < _HALF else 1


@njit(**_JIT)
def _closer_fail_points(s, R):
    six = R[R_FAILED_CLOSE_SIX]
    if six != SIX_NEVER and s[TRICKS + s[CLOSED_BY]] == s[CLOSED_OWN_TRICKS]:
        return 6
    if six == SIX_OR_OPPONENT_NO_TRICK and s[CLOSED_OPP_TRICKS] == 0:
        return 6
    if R[R_CLOSER_FAIL] == CLOSER_FAIL_ALWAYS_3 or s[CLOSED_OPP_TRICKS] == 0:
        return 3
    return 2


@njit(**_JIT)
def _closer_win_points(s, R, opp):
    if R[R_CLOSER_WIN] == CLOSER_WIN_AT_CLOSING:
        pts, tricks = s[CLOSED_OPP_POINTS], s[CLOSED_OPP_TRICKS]
    else:
        pts, tricks = s[POINTS + opp], s[TRICKS + opp]
    return 3 if R[R_CLOSER_WIN] == CLOSER_WIN_ALWAYS_3 else _game_points(R, pts, tricks)


@njit(**_JIT)
def _go_out(s, R, p):
    o = 1 - p
    closed_by = s[CLOSED_BY]
    if s[POINTS + p] >= GOAL:
        if closed_by < 0:
            _finish(s, p, _game_points(R, s[POINTS + o], s[TRICKS + o]), WENT_OUT)
        elif closed_by == p:
            _finish(s, p, _closer_win_points(s, R, o), WENT_OUT)
        else:  # the closer's opponent went out first: the closer failed
            _finish(s, p, _closer_fail_points(s, R), CLOSER_FAILED)
    elif closed_by == p:
        _finish(s, o, _closer_fail_points(s, R), FALSE_CLAIM)
    else:
        _finish(s, o, 2, FALSE_CLAIM)


@njit(**_JIT)
def _score_played_out(s, R, last_winner):
    if s[CLOSED_BY] >= 0:
        _finish(s, 1 - s[CLOSED_BY], _closer_fail_points(s, R), CLOSER_FAILED)
    elif R[R_PLAYED_OUT_WINNER] == PLAYED_OUT_LAST_TRICK:
        _finish(s, last_winner, 1, PLAYED_OUT)
    else:
        a, b = s[POINTS], s[POINTS + 1]
        if a == b:
            _finish(s, -1, 0, DRAWN)
        else:
            w = 0 if a > b else 1
            _finish(s, w, _game_points(R, s[POINTS + 1 - w], s[TRICKS + 1 - w]), PLAYED_OUT)


@njit(**_JIT)
def _draw(s, winner):
    n = s[STOCK_LEN]
    s[HAND + winner] |= _bit(s[STOCK + n - 1])
    last = s[STOCK + n - 2]
    s[HAND + 1 - winner] |= _bit(last)
    s[STOCK_LEN] = n - 2
    if n == 2:  # the face-up card went to the loser, in sight of both
        s[KNOWN + 1 - winner] |= _bit(last)


@njit(**_JIT)
def _lead(s, p, c):
    bit = _bit(c)
    s[HAND + p] ^= bit
    s[KNOWN + p] &= ~bit
    s[LEAD_CARD] = c
    s[DECLARED] = -1
    s[JUST_CLOSED] = 0
    s[CLAIM + p] = 0
    s[CURRENT] = 1 - p
    s[DECISION] = FOLLOW


@njit(**_JIT)
def _follow(s, R, p, c):
    bit = _bit(c)
    s[HAND + p] ^= bit
    s[KNOWN + p] &= ~bit
    lead = s[LEAD_CARD]
    winner = p if _FOLLOWER_WINS[s[TRUMP], lead * 24 + c] else 1 - p
    s[WON + winner] |= bit | _bit(lead)
    s[POINTS + winner] += _CARD_POINTS[lead] + _CARD_POINTS[c] + s[PENDING + winner]
    s[PENDING + winner] = 0
    s[TRICKS + winner] += 1
    s[TRICK_COUNT] += 1
    s[LEAD_CARD] = -1
    s[LEADER] = winner
    s[CURRENT] = winner
    last = (s[HAND] | s[HAND + 1]) == 0
    if last and s[CLOSED_BY] < 0:
        s[POINTS + winner] += R[R_LAST_TRICK_BONUS]
    if R[R_CLAIMING] != CLAIMING_EXPLICIT:
        if s[POINTS + winner] >= GOAL:
            _go_out(s, R, winner)
            return
    else:
        s[CLAIM + winner] = 1
    if last:
        if R[R_CLAIMING] == CLAIMING_EXPLICIT:
            s[DECISION] = CLAIM_DECISION
        else:
            _score_played_out(s, R, winner)
        return
    if stock_open(s):
        if R[R_CLOSE_BEFORE_DRAWING] != 0 and can_close(s, R):
            s[DECISION] = DRAW
            return
        _draw(s, winner)
    s[DECISION] = LEAD


@njit(**_JIT)
def _declare(s, R, p, suit):
    value = 40 if suit == s[TRUMP] else 20
    s[MARRIAGES + p] |= _bit(suit)
    s[DECLARED] = suit
    s[KNOWN + p] |= _MARRIAGE_PAIR[suit]
    if R[R_MARRIAGE_COUNTS] != MARRIAGE_COUNTS_NEXT_TRICK and s[TRICKS + p] > 0:
        s[POINTS + p] += value
    else:
        s[PENDING + p] += value
    if R[R_CLAIMING] == CLAIMING_EXPLICIT:
        s[CLAIM + p] = 1
    elif s[POINTS + p] >= GOAL:
        _go_out(s, R, p)


@njit(**_JIT)
def _exchange(s, p):
    face_up = s[STOCK]
    s[HAND + p] ^= _bit(s[EXCHANGE_CARD]) | _bit(face_up)
    s[KNOWN + p] |= _bit(face_up)
    s[STOCK] = s[EXCHANGE_CARD]


@njit(**_JIT)
def _close(s, R, p):
    o = 1 - p
    s[CLOSED_BY] = p
    s[JUST_CLOSED] = 1
    s[CLOSED_OPP_TRICKS] = s[TRICKS + o]
    s[CLOSED_OPP_POINTS] = s[POINTS + o]
    s[CLOSED_OWN_TRICKS] = s[TRICKS + p]
    if R[R_EXCHANGE_AT_CLOSING] != 0 and s[STOCK_LEN] >= 2 and (s[HAND + o] >> s[EXCHANGE_CARD]) & 1:
        s[CURRENT] = o
        s[DECISION] = CLOSING_EXCHANGE
    else:
        s[DECISION] = LEAD


@njit(**_JIT)
def apply_action(s, R, a):
    """Deal.apply for a legal action ``a`` (the caller checked it), then cache the next mask."""
    p = s[CURRENT]
    d = s[DECISION]
    if d == FOLLOW:
        if a < MARRIAGE:
            _follow(s, R, p, a)
        else:  # exchange before following (exchange_timing="any_turn")
            _exchange(s, p)
    elif d == LEAD:
        if a < MARRIAGE:
            _lead(s, p, a)
        elif a < EXCHANGE:
            _declare(s, R, p, a - MARRIAGE)
        elif a == EXCHANGE:
            _exchange(s, p)
        elif a == CLOSE:
            _close(s, R, p)
        else:
            _go_out(s, R, p)
    elif d == DRAW:
        if a == PASS:
            _draw(s, p)
            s[DECISION] = LEAD
        elif a == CLOSE:
            _close(s, R, p)
        else:
            _go_out(s, R, p)
    elif d == CLOSING_EXCHANGE:
        if a == EXCHANGE:
            _exchange(s, p)
        s[CURRENT] = 1 - p
        s[DECISION] = LEAD
    elif a == GO_OUT:  # CLAIM_DECISION
        _go_out(s, R, p)
    else:
        _score_played_out(s, R, p)
    s[MASK] = compute_mask(s, R)


@njit(**_JIT)
def start_deal(s, R, deck, dealer):
    """Deal._start from one deck row (hand 0, hand 1, stock bottom first); keeps SCORES."""
    n = R[R_HAND_SIZE]
    m = R[R_STOCK_SIZE]
    scores0, scores1 = s[SCORES], s[SCORES + 1]
    s[:] = 0
    s[SCORES], s[SCORES + 1] = scores0, scores1
    h0 = np.int64(0)
    h1 = np.int64(0)
    for k in range(n):
        h0 |= _bit(deck[k])
        h1 |= _bit(deck[n + k])
    s[HAND] = h0
    s[HAND + 1] = h1
    for k in range(m):
        s[STOCK + k] = deck[2 * n + k]
    s[STOCK_LEN] = m
    tc = deck[2 * n]
    s[TRUMP_CARD] = tc
    s[TRUMP] = tc // 6
    s[EXCHANGE_CARD] = 6 * (tc // 6) + R[R_EXCHANGE_RANK]
    s[DEALER] = dealer
    s[CURRENT] = 1 - dealer
    s[DECISION] = LEAD
    s[LEADER] = 1 - dealer
    s[LEAD_CARD] = -1
    s[DECLARED] = -1
    s[CLOSED_BY] = -1
    s[WINNER] = -1
    s[TERMINATION] = RUNNING
    s[MASK] = compute_mask(s, R)


@njit(**_JIT)
def shuffle_deck(R, rng, i, deck):
    """Fisher-Yates over the cards of the deck, from env ``i``'s deal stream."""
    k = 0
    for c in range(24):
        if (R[R_DECK_MASK] >> c) & 1:
            deck[k] = c
            k += 1
    for j in range(k - 1, 0, -1):
        r = _below(rng, i, RNG_DEAL, j + 1)
        deck[j], deck[r] = deck[r], deck[j]


@njit(**_JIT)
def _next_dealer(s, rng, i, mode, first):
    if mode <= DEALER_ONE:  # a fixed dealer, 0 or 1
        return mode
    if mode == DEALER_ALTERNATE and not first:
        return 1 - s[DEALER]
    return _below(rng, i, RNG_DEAL, 2)


@njit(**_JIT)
def new_random_deal(S, R, decks, rng, i, dealer_mode, first):
    """Shuffle env ``i``'s next deal into its deck row and start it."""
    dealer = _next_dealer(S[i], rng, i, dealer_mode, first)
    shuffle_deck(R, rng, i, decks[i])
    start_deal(S[i], R, decks[i], dealer)


@njit(**_JIT)
def sample_legal(mask, rng, i):
    """A uniformly random set bit of ``mask`` from env ``i``'s action stream; -1 if empty."""
    n = popcount(mask)
    if n == 0:
        return -1
    k = _below(rng, i, RNG_ACTION, n)
    m = mask
    for _ in range(k):
        m &= m - 1
    low = m & -m
    a = 0
    while low > 1:
        low >>= 1
        a += 1
    return a


# ====================================================================== heuristic playouts
@njit(**_JIT)
def heuristic_playout_values(
    root, R, actions, n, player, solve_closed, solve_closing, solve_stock, work, values, unsolved
):
    """PIMC's playout of ``pimc._finish`` on a full (sampled) deal, for each of the first ``n``
    ``actions``: row ``work[k]`` is ``root`` after ``actions[k]``, then the heuristic plays both
    sides to the end, and ``values[k]`` is the result in game points for ``player``. Where the
    action leaves a running deal with the stock closed or exhausted (``solve_closed``: where the
    playout does, or where the open stock holds ``solve_stock`` cards or fewer), the playout
    stops there: ``unsolved[k] = 1`` and ``work[k]`` is that position, for the caller to solve
    exactly; with ``solve_closing`` false, closing is played out like any other action."""
    for k in range(n):
        s = work[k]
        for f in range(root.shape[0]):
            s[f] = root[f]
        apply_action(s, R, actions[k])
        values[k] = 0
        unsolved[k] = 0
        played_out = actions[k] == CLOSE and not solve_closing
        if solve_closed and not played_out:
            while s[TERMINATION] == RUNNING and stock_open(s) and s[STOCK_LEN] > solve_stock:
                apply_action(s, R, heuristic_action(s, R))
        exact = not stock_open(s) or (solve_closed and s[STOCK_LEN] <= solve_stock)
        if s[TERMINATION] == RUNNING and exact and not played_out:
            unsolved[k] = 1
            continue
        while s[TERMINATION] == RUNNING:
            apply_action(s, R, heuristic_action(s, R))
        if s[WINNER] >= 0:
            values[k] = s[GAME_POINTS] if s[WINNER] == player else -s[GAME_POINTS]


# ====================================================================== observation
_O_HAND = OBS["hand"]
_O_KNOWN_OPP = OBS["known_opponent"]
_O_WON_ME = OBS["won_by_me"]
_O_WON_OPP = OBS["won_by_opponent"]
_O_LEAD = OBS["lead_card"]
_O_TRUMP_CARD = OBS["trump_card"]
_O_STOCK_BOTTOM = OBS["stock_bottom"]
_O_UNSEEN = OBS["unseen"]
_O_TRUMP_SUIT = OBS["trump_suit"]
_O_TRUMP_LOC = OBS["trump_location"]
_O_DECISION = OBS["decision"]
_O_DECLARED = OBS["declared_suit"]
_O_MY_MARRIAGES = OBS["my_marriages"]
_O_OPP_MARRIAGES = OBS["opponent_marriages"]
_O_CLOSED_ME = OBS["closed_by_me"]
_O_CLOSED_OPP = OBS["closed_by_opponent"]
_O_EXHAUSTED = OBS["stock_exhausted"]
_O_MY_TRICK = OBS["my_won_trick"]
_O_OPP_TRICK = OBS["opponent_won_trick"]
_O_DEALER = OBS["i_am_dealer"]
_O_LEADER = OBS["i_am_leader"]
_O_CLAIM = OBS["claim_chance"]
_O_FLOATS = OBS_BINARY_SIZE
_O_SMALL = _O_TRUMP_SUIT
_SMALL_BYTES = (_O_FLOATS - _O_SMALL + 7) // 8
assert _O_SMALL == _O_UNSEEN + 24 and _O_CLAIM == _O_FLOATS - 1 and _O_SMALL + 8 * _SMALL_BYTES <= OBS_SIZE


# Float32 0/1 patterns of every byte: the binary part is written 8 floats at a time.
_BYTE_BITS = np.array([[(b >> k) & 1 for k in range(8)] for b in range(256)], dtype=np.float32)


@njit(**_JIT)
def _put_bytes(out, offset, bits, n_bytes):
    """Write the low ``8 * n_bytes`` bits of ``bits`` as 0.0/1.0 floats from ``out[offset]``."""
    for byte in range(n_bytes):
        row = (bits >> (8 * byte)) & 0xFF
        base = offset + 8 * byte
        for k in range(8):
            out[base + k] = _BYTE_BITS[row, k]


@njit(**_JIT)
def encode_observation(s, R, me, out):
    """observers.encode_vector(InfoState.of(deal, me)), written into ``out`` (235 float32)."""
    opp = 1 - me
    hand = np.int64(s[HAND + me])
    opp_hand = np.int64(s[HAND + opp])
    n_stock = s[STOCK_LEN]
    tc = s[TRUMP_CARD]
    if n_stock > 0:
        known_opp = np.int64(s[KNOWN + opp])
        stock_hidden = np.int64(0)
        for k in range(1, n_stock):
            stock_hidden |= _bit(s[STOCK + k])
        unseen = (opp_hand & ~known_opp) | stock_hidden
        bottom = _bit(s[STOCK])
    else:  # with the stock gone, every card not seen elsewhere is in the opponent's hand
        known_opp = opp_hand
        unseen = np.int64(0)
        bottom = np.int64(0)
    lead = s[LEAD_CARD]
    # The eight 24-card parts, in layout order.
    _put_bytes(out, _O_HAND, hand, 3)
    _put_bytes(out, _O_KNOWN_OPP, known_opp, 3)
    _put_bytes(out, _O_WON_ME, np.int64(s[WON + me]), 3)
    _put_bytes(out, _O_WON_OPP, np.int64(s[WON + opp]), 3)
    _put_bytes(out, _O_LEAD, _bit(lead) if lead >= 0 else np.int64(0), 3)
    _put_bytes(out, _O_TRUMP_CARD, _bit(tc), 3)
    _put_bytes(out, _O_STOCK_BOTTOM, bottom, 3)
    _put_bytes(out, _O_UNSEEN, unseen, 3)
    # The small parts (33 bits from trump_suit to claim_chance) packed into one int.
    if n_stock > 0 and s[STOCK] == tc:
        location = 0  # infostate.TRUMP_IN_STOCK
    elif (hand >> tc) & 1:
        location = 1  # TRUMP_WITH_ME
    elif (opp_hand >> tc) & 1:
        location = 2  # TRUMP_WITH_OPPONENT
    else:
        location = 3  # TRUMP_PLAYED
    declared = s[DECLARED]
    closed_by = s[CLOSED_BY]
    small = (
        _bit(s[TRUMP])
        | _bit(_O_TRUMP_LOC - _O_SMALL + location)
        | (_bit(_O_DECISION - _O_SMALL + s[DECISION]) if s[TERMINATION] == RUNNING else 0)
        | (_bit(_O_DECLARED - _O_SMALL + declared) if declared >= 0 else 0)
        | np.int64(s[MARRIAGES + me]) << (_O_MY_MARRIAGES - _O_SMALL)
        | np.int64(s[MARRIAGES + opp]) << (_O_OPP_MARRIAGES - _O_SMALL)
        | np.int64(closed_by == me) << (_O_CLOSED_ME - _O_SMALL)
        | np.int64(closed_by == opp) << (_O_CLOSED_OPP - _O_SMALL)
        | np.int64(closed_by < 0 and n_stock == 0) << (_O_EXHAUSTED - _O_SMALL)
        | np.int64(s[TRICKS + me] > 0) << (_O_MY_TRICK - _O_SMALL)
        | np.int64(s[TRICKS + opp] > 0) << (_O_OPP_TRICK - _O_SMALL)
        | np.int64(s[DEALER] == me) << (_O_DEALER - _O_SMALL)
        | np.int64(s[LEADER] == me) << (_O_LEADER - _O_SMALL)
        | np.int64(s[CLAIM + me] != 0) << (_O_CLAIM - _O_SMALL)
    )
    _put_bytes(out, _O_SMALL, small, _SMALL_BYTES)  # spills into the float part, written next
    hand_size = R[R_HAND_SIZE]
    target = R[R_MATCH_TARGET]
    f = _O_FLOATS
    out[f] = n_stock / R[R_STOCK_SIZE]
    out[f + 1] = s[POINTS + me] / 66.0
    out[f + 2] = s[POINTS + opp] / 66.0
    out[f + 3] = s[PENDING + me] / 66.0
    out[f + 4] = s[PENDING + opp] / 66.0
    out[f + 5] = popcount(hand) / hand_size
    out[f + 6] = popcount(opp_hand) / hand_size
    out[f + 7] = s[SCORES + me] / target
    out[f + 8] = s[SCORES + opp] / target
    out[f + 9] = s[TRICK_COUNT] / 12.0


# ====================================================================== one env, one step
@njit(**_JIT)
def _reward(s, scheme, scale, before0, before1):
    """rewards.step_rewards for player 0 (player 1 gets the negation)."""
    r0 = 0.0
    if s[TERMINATION] != RUNNING and s[WINNER] >= 0:
        if scheme == REWARD_WIN_LOSS:
            r0 = 1.0 if s[WINNER] == 0 else -1.0
        else:
            g = s[GAME_POINTS]
            r0 = float(g if s[WINNER] == 0 else -g)
    if scheme == REWARD_SHAPED:
        r0 += scale * ((s[POINTS] - before0) - (s[POINTS + 1] - before1))
    return r0


@njit(**_JIT)
def _play(S, R, hist, i, a, scheme, scale):
    """Apply one action to env ``i``, record it, and return player 0's reward for it."""
    s = S[i]
    before0, before1 = s[POINTS], s[POINTS + 1]
    n = s[NUM_MOVES]
    if n < HISTORY_LEN:
        hist[i, n] = a
    s[NUM_MOVES] = n + 1
    apply_action(s, R, a)
    return _reward(s, scheme, scale, before0, before1)


@njit(**_JIT)
def _record_end(S, i, done, winners, game_points, terminations):
    s = S[i]
    done[i] = True
    winners[i] = s[WINNER]
    game_points[i] = s[GAME_POINTS]
    terminations[i] = s[TERMINATION]


@njit(**_JIT)
def _write_view(S, R, i, obs, masks):
    """The current player's observation and legal mask (int8 per action) of env ``i``."""
    s = S[i]
    mask = legal_mask(s)
    for a in range(32):
        masks[i, a] = (mask >> a) & 1
    encode_observation(s, R, s[CURRENT], obs[i])


@njit(**_JIT)
def _opponent_action(S, R, rng, cfg, i):
    """The built-in opponent's choice: ``HeuristicAgent``'s, or uniform over the legal actions."""
    if cfg[C_OPPONENT] == OPPONENT_HEURISTIC:
        return heuristic_action(S[i], R)
    return sample_legal(legal_mask(S[i]), rng, i)


@njit(**_JIT)
def _opponent_moves(S, R, hist, rng, cfg, seats, i, scheme, scale):
    """The built-in opponent (seat ``seats[i]``) plays until the learner is to act or the deal
    ends; returns player 0's reward for those moves."""
    opponent = seats[i]
    r0 = 0.0
    while S[i, TERMINATION] == RUNNING and S[i, CURRENT] == opponent:
        r0 += _play(S, R, hist, i, _opponent_action(S, R, rng, cfg, i), scheme, scale)
    return r0


@njit(**_JIT)
def _draw_seat(rng, cfg, seats, i):
    """The opponent's seat for env ``i``'s new deal: fixed, or drawn from its deal stream."""
    if cfg[C_OPPONENT_SEAT] == SEAT_RANDOM:
        seats[i] = _below(rng, i, RNG_DEAL, 2)


@njit(**_JIT)
def _skip_to_learner(S, R, decks, hist, rng, cfg, seats, i):
    """After a random deal with a built-in opponent: the opponent's first moves; a deal it ends
    before the learner's first action (a false claim) is no episode for the learner and is dealt
    again."""
    _draw_seat(rng, cfg, seats, i)
    while True:
        _opponent_moves(S, R, hist, rng, cfg, seats, i, cfg[C_REWARD], 0.0)
        if S[i, TERMINATION] == RUNNING:
            return
        new_random_deal(S, R, decks, rng, i, cfg[C_DEALER_MODE], False)
        _draw_seat(rng, cfg, seats, i)


@njit(**_JIT)
def _step_env(S, R, decks, hist, rng, cfg, seats, scale, i, a, rewards, done, winners, game_points, terminations, io):
    """One env's step: the action (a < 0: no action), the built-in opponent's replies if there
    is one, auto-reset of a finished deal, and the view of the player to act next."""
    scheme = cfg[C_REWARD]
    r0 = 0.0
    done[i] = False
    if a >= 0:
        r0 = _play(S, R, hist, i, a, scheme, scale)
    if cfg[C_OPPONENT] != NO_OPPONENT:
        r0 += _opponent_moves(S, R, hist, rng, cfg, seats, i, scheme, scale)
    if S[i, TERMINATION] != RUNNING:
        _record_end(S, i, done, winners, game_points, terminations)
        seat = cfg[C_FINAL_SEAT]
        if seat == FINAL_SEAT_LEARNER:
            seat = 1 - seats[i]
        if seat >= 0:  # the finished deal as that seat sees it, before any reset
            encode_observation(S[i], R, seat, io[2][i])
        if cfg[C_AUTORESET] != 0:
            new_random_deal(S, R, decks, rng, i, cfg[C_DEALER_MODE], False)
            if cfg[C_OPPONENT] != NO_OPPONENT:
                _skip_to_learner(S, R, decks, hist, rng, cfg, seats, i)
    rewards[i, 0] = r0 + 0.0  # never -0.0
    rewards[i, 1] = 0.0 - r0
    if cfg[C_WRITE_OBS] != 0:
        _write_view(S, R, i, io[0], io[1])


@njit(**_JIT)
def first_illegal(S, actions):
    """Index of the first env whose action is not legal (-1 means no action), or -1."""
    for i in range(S.shape[0]):
        a = actions[i]
        if a != -1 and (a < 0 or a > 31 or not (legal_mask(S[i]) >> a) & 1):
            return i
    return -1


# ====================================================================== batch drivers
# One loop over envs each. The batch runs them on slices of its arrays from several threads
# (they release the GIL) when it is parallel; every env has its own RNG streams, so the result
# does not depend on how the envs are split.
@njit(**_JIT)
def step_envs(S, R, decks, hist, rng, cfg, seats, scale, actions, rewards, done, winners, points, terminations, io):
    """Step every env (actions already checked with ``first_illegal``); ``seats`` holds each env's
    opponent seat, ``io`` the output arrays (observations, masks, final observations)."""
    for i in range(S.shape[0]):
        a = actions[i]
        _step_env(S, R, decks, hist, rng, cfg, seats, scale, i, a, rewards, done, winners, points, terminations, io)


@njit(**_JIT)
def reset_envs(S, R, decks, hist, rng, cfg, seats, from_rows, dealers, obs, masks):
    """Start every env: from its deck row and dealer (``from_rows``) or a fresh random deal."""
    for i in range(S.shape[0]):
        if from_rows:  # given cards: the opponent's first moves are played, never dealt again
            start_deal(S[i], R, decks[i], dealers[i])
            if cfg[C_OPPONENT] != NO_OPPONENT:
                _draw_seat(rng, cfg, seats, i)
                _opponent_moves(S, R, hist, rng, cfg, seats, i, cfg[C_REWARD], 0.0)
        else:
            new_random_deal(S, R, decks, rng, i, cfg[C_DEALER_MODE], True)
            if cfg[C_OPPONENT] != NO_OPPONENT:
                _skip_to_learner(S, R, decks, hist, rng, cfg, seats, i)
        if cfg[C_WRITE_OBS] != 0:
            _write_view(S, R, i, obs, masks)


@njit(**_JIT)
def observe_envs(S, R, players, obs):
    """Observation of each env for ``players[i]`` (-1: the player to act)."""
    for i in range(S.shape[0]):
        p = players[i]
        encode_observation(S[i], R, S[i, CURRENT] if p < 0 else p, obs[i])


@njit(**_JIT)
def write_masks(S, masks):
    """Legal masks as (N, 32) int8."""
    for i in range(S.shape[0]):
        mask = legal_mask(S[i])
        for a in range(32):
            masks[i, a] = (mask >> a) & 1


@njit(**_JIT)
def sample_actions(S, rng, actions):
    """A uniformly random legal action per env from its action stream (-1 for a finished deal)."""
    for i in range(S.shape[0]):
        actions[i] = sample_legal(legal_mask(S[i]), rng, i)
