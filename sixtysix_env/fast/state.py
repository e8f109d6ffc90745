"""The array layout of the batched engine, and ``Rules`` turned into a small int vector.

One deal is one row of ``NUM_FIELDS`` int32 in a ``(N, NUM_FIELDS)`` array, so a batch is one
contiguous block the kernels walk env by env, and resetting, copying or saving a batch is one
array operation. The columns mirror the attributes of :class:`~sixtysix_env.engine.Deal`
(per-player attributes take two columns, ``HAND + p``); card sets are 24-bit masks. The rules
the kernels read live in one int64 vector (``encode_rules``), so every preset and every field
combination runs through the same compiled code.

Beside the state the batch keeps, per env: the arrangement it was dealt from (``deck_size``
int8: hand 0, hand 1, then the stock bottom first), the actions played (``MAX_DEAL_ACTIONS``
int8, so any env can be replayed into a reference ``Deal``), and two splitmix64 RNG states
(uint64: one for shuffling deals, one for sampled actions).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from ..cards import Rank, parse_cards
from ..checks import check_int
from ..engine import MAX_DEAL_ACTIONS, Decision, Termination
from ..observers import BINARY_SIZE, VECTOR_LAYOUT, VECTOR_SIZE
from ..rules import Rules, get_rules

__all__ = [
    "NUM_FIELDS",
    "STATE_DTYPE",
    "MAX_STOCK",
    "NUM_PARAMS",
    "encode_rules",
    "arrangement_rows",
    "UnsupportedRuleError",
]

# ---------------------------------------------------------------- state columns (int32)
_SCALAR_FIELDS = (
    "DEALER",
    "TRUMP",  # trump suit
    "TRUMP_CARD",  # the card turned up
    "EXCHANGE_CARD",  # trump nine (schnapsen: jack)
    "CURRENT",  # Deal.current: the player to act (kept after the deal ends)
    "DECISION",  # engine.Decision
    "LEADER",
    "LEAD_CARD",  # -1 when no trick is open
    "DECLARED",  # suit declared on this lead, -1 if none
    "JUST_CLOSED",
    "CLOSED_BY",  # -1 while not closed
    "CLOSED_OPP_TRICKS",
    "CLOSED_OPP_POINTS",
    "CLOSED_OWN_TRICKS",  # the closer's tricks at closing (the 6-point rule)
    "TRICK_COUNT",
    "MASK",  # legal action mask, cached after every change (bit 31 makes it negative as int32)
    "WINNER",  # outcome: -1 drawn (or still running)
    "GAME_POINTS",
    "TERMINATION",  # engine.Termination, -1 while the deal runs
    "NUM_MOVES",  # actions played so far (the length of the history row)
    "STOCK_LEN",
)
_PAIR_FIELDS = ("HAND", "KNOWN", "WON", "POINTS", "PENDING", "TRICKS", "MARRIAGES", "CLAIM", "SCORES")
MAX_STOCK = 12
"""Stock slots (24-card deck: 12 cards); ``STOCK + 0`` is the bottom (face-up) card."""

_columns: dict[str, int] = {}
for _name in _SCALAR_FIELDS:
    _columns[_name] = len(_columns)
for _name in _PAIR_FIELDS:
    _columns[_name] = len(_columns)
    _columns[_name + "_1"] = len(_columns)
_columns["STOCK"] = len(_columns)
NUM_FIELDS = len(_columns) + MAX_STOCK - 1
"""Columns of one deal's int32 state row."""
COLUMNS: dict[str, int] = {k: v for k, v in _columns.items() if not k.endswith("_1")}
"""Column of each field; a per-player field ``F`` has player ``p`` at ``COLUMNS[F] + p``."""

DEALER = COLUMNS["DEALER"]
TRUMP = COLUMNS["TRUMP"]
TRUMP_CARD = COLUMNS["TRUMP_CARD"]
EXCHANGE_CARD = COLUMNS["EXCHANGE_CARD"]
CURRENT = COLUMNS["CURRENT"]
DECISION = COLUMNS["DECISION"]
LEADER = COLUMNS["LEADER"]
LEAD_CARD = COLUMNS["LEAD_CARD"]
DECLARED = COLUMNS["DECLARED"]
JUST_CLOSED = COLUMNS["JUST_CLOSED"]
CLOSED_BY = COLUMNS["CLOSED_BY"]
CLOSED_OPP_TRICKS = COLUMNS["CLOSED_OPP_TRICKS"]
CLOSED_OPP_POINTS = COLUMNS["CLOSED_OPP_POINTS"]
CLOSED_OWN_TRICKS = COLUMNS["CLOSED_OWN_TRICKS"]
TRICK_COUNT = COLUMNS["TRICK_COUNT"]
MASK = COLUMNS["MASK"]
WINNER = COLUMNS["WINNER"]
GAME_POINTS = COLUMNS["GAME_POINTS"]
TERMINATION = COLUMNS["TERMINATION"]
NUM_MOVES = COLUMNS["NUM_MOVES"]
STOCK_LEN = COLUMNS["STOCK_LEN"]
HAND = COLUMNS["HAND"]
KNOWN = COLUMNS["KNOWN"]
WON = COLUMNS["WON"]
POINTS = COLUMNS["POINTS"]
PENDING = COLUMNS["PENDING"]
TRICKS = COLUMNS["TRICKS"]
MARRIAGES = COLUMNS["MARRIAGES"]
CLAIM = COLUMNS["CLAIM"]
SCORES = COLUMNS["SCORES"]
STOCK = COLUMNS["STOCK"]

STATE_DTYPE = np.int32
"""The dtype of the state rows."""
HISTORY_LEN = MAX_DEAL_ACTIONS
RUNNING = -1
"""``TERMINATION`` of a deal still running."""

# Decisions and terminations as plain ints for the kernels (the engine's enums are the source).
LEAD, FOLLOW, DRAW, CLOSING_EXCHANGE, CLAIM_DECISION = (int(d) for d in Decision)
WENT_OUT, FALSE_CLAIM, CLOSER_FAILED, PLAYED_OUT, DRAWN = (int(t) for t in Termination)

# ---------------------------------------------------------------- rules vector (int64)
_PARAMS = (
    "DECK_SIZE",
    "DECK_MASK",
    "HAND_SIZE",
    "STOCK_SIZE",
    "EXCHANGE_RANK",
    "EXCHANGE_REQUIRES",
    "EXCHANGE_TIMING",
    "EXCHANGE_AT_CLOSING",
    "CLOSING",
    "CLOSING_MIN_STOCK",
    "CLOSE_BEFORE_DRAWING",
    "MARRIAGES_AFTER_STOCK",
    "MARRIAGE_ON_FIRST_LEAD",
    "MARRIAGE_COUNTS",
    "MARRIAGE_LEAD",
    "LAST_TRICK_BONUS",
    "PLAYED_OUT_WINNER",
    "MUST_WIN_TRICK",
    "SCHWARZ",
    "CLOSER_WIN",
    "CLOSER_FAIL",
    "FAILED_CLOSE_SIX",
    "MATCH_TARGET",
    "CLAIMING",
)
PARAM_INDEX = {name: i for i, name in enumerate(_PARAMS)}
NUM_PARAMS = len(_PARAMS)
"""Entries of the int32 rules row that parametrises the kernels."""
R_DECK_SIZE = PARAM_INDEX["DECK_SIZE"]
R_DECK_MASK = PARAM_INDEX["DECK_MASK"]
R_HAND_SIZE = PARAM_INDEX["HAND_SIZE"]
R_STOCK_SIZE = PARAM_INDEX["STOCK_SIZE"]
R_EXCHANGE_RANK = PARAM_INDEX["EXCHANGE_RANK"]
R_EXCHANGE_REQUIRES = PARAM_INDEX["EXCHANGE_REQUIRES"]
R_EXCHANGE_TIMING = PARAM_INDEX["EXCHANGE_TIMING"]
R_EXCHANGE_AT_CLOSING = PARAM_INDEX["EXCHANGE_AT_CLOSING"]
R_CLOSING = PARAM_INDEX["CLOSING"]
R_CLOSING_MIN_STOCK = PARAM_INDEX["CLOSING_MIN_STOCK"]
R_CLOSE_BEFORE_DRAWING = PARAM_INDEX["CLOSE_BEFORE_DRAWING"]
R_MARRIAGES_AFTER_STOCK = PARAM_INDEX["MARRIAGES_AFTER_STOCK"]
R_MARRIAGE_ON_FIRST_LEAD = PARAM_INDEX["MARRIAGE_ON_FIRST_LEAD"]
R_MARRIAGE_COUNTS = PARAM_INDEX["MARRIAGE_COUNTS"]
R_MARRIAGE_LEAD = PARAM_INDEX["MARRIAGE_LEAD"]
R_LAST_TRICK_BONUS = PARAM_INDEX["LAST_TRICK_BONUS"]
R_PLAYED_OUT_WINNER = PARAM_INDEX["PLAYED_OUT_WINNER"]
R_MUST_WIN_TRICK = PARAM_INDEX["MUST_WIN_TRICK"]
R_SCHWARZ = PARAM_INDEX["SCHWARZ"]
R_CLOSER_WIN = PARAM_INDEX["CLOSER_WIN"]
R_CLOSER_FAIL = PARAM_INDEX["CLOSER_FAIL"]
R_FAILED_CLOSE_SIX = PARAM_INDEX["FAILED_CLOSE_SIX"]
R_MATCH_TARGET = PARAM_INDEX["MATCH_TARGET"]
R_CLAIMING = PARAM_INDEX["CLAIMING"]

# Each choice field as an int: the kernels compare against these names, not strings.
CHOICE_CODES: dict[str, dict[str, int]] = {
    "exchange_requires": {"won_trick": 0, "after_first_trick": 1, "any": 2},
    "exchange_timing": {"lead": 0, "any_turn": 1},
    "marriage_counts": {"any_trick": 0, "next_trick": 1},
    "marriage_lead": {"king_or_queen": 0, "king": 1},
    "played_out_winner": {"points": 0, "last_trick": 1},
    "schwarz": {"no_trick": 0, "no_points": 1},
    "closer_win": {"at_end": 0, "at_closing": 1, "always_3": 2},
    "closer_fail": {"2_or_3": 0, "always_3": 1},
    "failed_close_six": {"never": 0, "closer_no_trick": 1, "or_opponent_no_trick": 2},
    "claiming": {"auto": 0, "explicit": 1},
}
EXCHANGE_AFTER_WON_TRICK, EXCHANGE_AFTER_FIRST_TRICK, EXCHANGE_ANY = 0, 1, 2
EXCHANGE_ANY_TURN = 1
MARRIAGE_COUNTS_NEXT_TRICK = 1
MARRIAGE_LEAD_KING = 1
PLAYED_OUT_LAST_TRICK = 1
SCHWARZ_NO_POINTS = 1
CLOSER_WIN_AT_CLOSING, CLOSER_WIN_ALWAYS_3 = 1, 2
CLOSER_FAIL_ALWAYS_3 = 1
SIX_NEVER, SIX_CLOSER_NO_TRICK, SIX_OR_OPPONENT_NO_TRICK = 0, 1, 2
CLAIMING_EXPLICIT = 1

_INT_FIELDS = (
    "deck_size",
    "exchange_at_closing",
    "closing",
    "closing_min_stock",
    "close_before_drawing",
    "marriages_after_stock",
    "marriage_on_first_lead",
    "last_trick_bonus",
    "must_win_trick",
    "match_target",
)
_NOT_IN_A_DEAL = ("name", "drawn_deal", "next_dealer")
"""Fields that only matter between deals (match play), not to the batched deal engine."""


class UnsupportedRuleError(ValueError):
    """A ``Rules`` field (or value) the batched engine does not implement."""


def encode_rules(rules: str | Rules | None) -> np.ndarray:
    """The int64 parameter vector the kernels read. Raises ``UnsupportedRuleError`` naming any
    ``Rules`` field this engine does not know whose value differs from the standard default, so a
    new rule can never be silently ignored."""
    r = get_rules(rules)
    out = np.zeros(NUM_PARAMS, dtype=np.int64)
    known = set(_INT_FIELDS) | set(CHOICE_CODES) | set(_NOT_IN_A_DEAL) | {"exchange_rank"}
    for f in dataclasses.fields(r):
        value = getattr(r, f.name)
        if f.name not in known and (f.default is dataclasses.MISSING or value != f.default):
            raise UnsupportedRuleError(
                f"Rules.{f.name}={value!r} is not supported by the batched engine (sixtysix_env.fast); "
                f"use the reference engine, or the default {f.default!r}"
            )
    for name in _INT_FIELDS:
        out[PARAM_INDEX[name.upper()]] = int(getattr(r, name))
    for name, codes in CHOICE_CODES.items():
        value = getattr(r, name)
        if value not in codes:
            raise UnsupportedRuleError(f"Rules.{name}={value!r} is not supported by the batched engine")
        out[PARAM_INDEX[name.upper()]] = codes[value]
    out[R_EXCHANGE_RANK] = int(Rank(r.exchange_rank))
    out[R_DECK_MASK] = r.deck_mask
    out[R_HAND_SIZE] = r.hand_size
    out[R_STOCK_SIZE] = r.stock_size
    if r.stock_size > MAX_STOCK:
        raise UnsupportedRuleError(f"a stock of {r.stock_size} cards does not fit the {MAX_STOCK} stock slots")
    return out


def arrangement_rows(
    arrangements: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int], int]], rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """Deck rows and dealers from ``Deal.arrangement``-style tuples ``(hand0, hand1, stock top
    first, dealer)`` (cards as ids or strings); a row is hand 0, hand 1, then the stock bottom
    first (the face-up card). Raises ``ValueError``/``TypeError`` naming the arrangement."""
    rows = np.empty((len(arrangements), rules.deck_size), dtype=np.int64)
    dealers = np.empty(len(arrangements), dtype=np.int64)
    n, m = rules.hand_size, rules.stock_size
    for i, arr in enumerate(arrangements):
        if isinstance(arr, str) or not isinstance(arr, Sequence) or len(arr) != 4:
            raise ValueError(f"arrangement {i} must be (hand0, hand1, stock top first, dealer), got {arr!r}")
        h0, h1, stock, dealer = arr
        try:
            h0, h1, stock = parse_cards(h0), parse_cards(h1), parse_cards(stock)
        except ValueError as e:
            raise ValueError(f"arrangement {i}: {e}") from None
        if len(h0) != n or len(h1) != n or len(stock) != m:
            raise ValueError(
                f"arrangement {i}: {rules.name} rules need hands of {n} and a stock of {m} cards, "
                f"got {len(h0)}, {len(h1)} and {len(stock)}"
            )
        rows[i, :n] = h0
        rows[i, n : 2 * n] = h1
        rows[i, 2 * n :] = list(reversed(stock))
        dealers[i] = check_int(f"dealer of arrangement {i}", dealer, 0, 1)
    return rows, dealers


def check_rows(rows: np.ndarray, dealers: np.ndarray, rules: Rules) -> None:
    """Raise ``ValueError`` naming the first env whose deck row is not a permutation of the deck."""
    deck = np.array([c for c in range(24) if rules.deck_mask >> c & 1], dtype=np.int8)
    if rows.ndim != 2 or rows.shape[1] != len(deck):
        raise ValueError(f"deck rows must have shape (N, {len(deck)}), got {rows.shape}")
    bad = np.flatnonzero((np.sort(rows, axis=1) != deck).any(axis=1))
    if len(bad):
        raise ValueError(
            f"arrangement of env {bad[0]} is not a deal of the {rules.deck_size}-card deck: "
            f"{rows[bad[0]].tolist()} (each card exactly once)"
        )
    bad = np.flatnonzero((dealers != 0) & (dealers != 1))
    if len(bad):
        raise ValueError(f"dealer of env {bad[0]} must be 0 or 1, got {dealers[bad[0]]}")


# ---------------------------------------------------------------- observation offsets
_EXPECTED_LAYOUT = (
    ("hand", 24),
    ("known_opponent", 24),
    ("won_by_me", 24),
    ("won_by_opponent", 24),
    ("lead_card", 24),
    ("trump_card", 24),
    ("stock_bottom", 24),
    ("unseen", 24),
    ("trump_suit", 4),
    ("trump_location", 4),
    ("decision", 5),
    ("declared_suit", 4),
    ("my_marriages", 4),
    ("opponent_marriages", 4),
    ("closed_by_me", 1),
    ("closed_by_opponent", 1),
    ("stock_exhausted", 1),
    ("my_won_trick", 1),
    ("opponent_won_trick", 1),
    ("i_am_dealer", 1),
    ("i_am_leader", 1),
    ("claim_chance", 1),
    ("stock_size", 1),
    ("my_points", 1),
    ("opponent_points", 1),
    ("my_pending", 1),
    ("opponent_pending", 1),
    ("my_hand_size", 1),
    ("opponent_hand_size", 1),
    ("my_game_points", 1),
    ("opponent_game_points", 1),
    ("trick_count", 1),
)
if tuple((name, p.size) for name, p in VECTOR_LAYOUT.items()) != _EXPECTED_LAYOUT:
    raise ImportError(
        "observers.VECTOR_LAYOUT changed: update sixtysix_env/fast (state.py offsets and "
        "kernels.encode_observation) to the new layout"
    )
OBS = {name: p.start for name, p in VECTOR_LAYOUT.items()}
OBS_SIZE = VECTOR_SIZE
OBS_BINARY_SIZE = BINARY_SIZE
