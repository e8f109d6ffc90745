"""Observation encoders: an ``InfoState`` in, numbers out, always from the observer's seat.

One layout, three shapes:

* ``"vector"``: a flat ``float32`` array for MLPs; ``VECTOR_LAYOUT`` names every slice.
* ``"dict"``: the same parts as named arrays, easy to read when debugging.
* ``"history"``: ``{"state": vector, "events": (MAX_DEAL_ACTIONS, 34)}``, the vector plus the
  deal's public actions in order (who acted, which action), zero-padded, for recurrent and
  transformer policies.

"me" is the observing player and "opponent" the other one, so one policy plays either seat.
Encoders see only an ``InfoState``, which holds no hidden card, so they cannot leak one.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from .actions import NUM_ACTIONS
from .engine import MAX_DEAL_ACTIONS, Decision
from .infostate import InfoState

__all__ = [
    "VECTOR_LAYOUT",
    "VECTOR_SIZE",
    "EVENT_SIZE",
    "ENCODERS",
    "Part",
    "encode_vector",
    "encode_dict",
    "encode_history",
    "decode_vector",
    "encoder_names",
    "observation_space",
    "encode",
]


class Part:
    """One named slice of the vector observation."""

    __slots__ = ("description", "high", "name", "size", "start")

    def __init__(self, name: str, start: int, size: int, high: float, description: str) -> None:
        self.name, self.start, self.size, self.high, self.description = name, start, size, high, description

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)

    def __repr__(self) -> str:
        return f"Part({self.name!r}, [{self.start}:{self.start + self.size}])"


# (name, size, high, description). Binary parts come first: they are packed as one int and
# unpacked in one numpy call, which keeps encoding to a few microseconds.
_BINARY_PARTS = [
    ("hand", 24, "my cards (card id = 6*suit + rank)"),
    (
        "known_opponent",
        24,
        "cards known to be in the opponent's hand (exchanged trump card, marriage partner; "
        "all of them once the stock is exhausted)",
    ),
    ("won_by_me", 24, "cards in the tricks I won"),
    ("won_by_opponent", 24, "cards in the tricks the opponent won"),
    ("lead_card", 24, "the card led to the current trick"),
    ("trump_card", 24, "the card turned up for trump"),
    ("stock_bottom", 24, "the known bottom card of the stock (trump card or the exchanged nine) while it is there"),
    ("unseen", 24, "cards I cannot place: opponent's unknown cards and the face-down stock"),
    ("trump_suit", 4, "trump suit, one-hot (clubs, spades, hearts, diamonds)"),
    ("trump_location", 4, "where the trump card is: stock, me, opponent, played"),
    ("decision", 5, "decision type: lead, follow, draw-or-close, exchange-at-closing, claim"),
    ("declared_suit", 4, "marriage I declared on this lead (then I must lead its K or Q)"),
    ("my_marriages", 4, "suits of the marriages I declared this deal"),
    ("opponent_marriages", 4, "suits of the marriages the opponent declared this deal"),
    ("closed_by_me", 1, "I closed the stock"),
    ("closed_by_opponent", 1, "the opponent closed the stock"),
    ("stock_exhausted", 1, "the stock is used up (phase 2 without closing)"),
    ("my_won_trick", 1, "I have won a trick this deal"),
    ("opponent_won_trick", 1, "the opponent has won a trick this deal"),
    ("i_am_dealer", 1, "I dealt this deal"),
    ("i_am_leader", 1, "I lead (or led) the current trick"),
    ("claim_chance", 1, "explicit claiming: I may go out now"),
]
_FLOAT_PARTS = [
    ("stock_size", 1.0, "cards in the stock / initial stock size"),
    ("my_points", 4.0, "my counted points / 66 (tricks plus marriages that count)"),
    ("opponent_points", 4.0, "opponent's counted points / 66"),
    ("my_pending", 2.0, "my declared marriage points not yet counted / 66"),
    ("opponent_pending", 2.0, "opponent's marriage points not yet counted / 66"),
    ("my_hand_size", 1.0, "cards in my hand / hand size"),
    ("opponent_hand_size", 1.0, "cards in the opponent's hand / hand size"),
    ("my_game_points", 1.0, "match mode: my game points / match target"),
    ("opponent_game_points", 1.0, "match mode: opponent's game points / match target"),
    ("trick_count", 1.0, "tricks played / 12"),
]

VECTOR_LAYOUT: dict[str, Part] = {}
"""Every named slice of the two-player vector observation, in order (a ``Part`` each)."""
_pos = 0
for _name, _size, _desc in _BINARY_PARTS:
    VECTOR_LAYOUT[_name] = Part(_name, _pos, _size, 1.0, _desc)
    _pos += _size
BINARY_SIZE = _pos
for _name, _high, _desc in _FLOAT_PARTS:
    VECTOR_LAYOUT[_name] = Part(_name, _pos, 1, _high, _desc)
    _pos += 1
VECTOR_SIZE = _pos
"""Length of the two-player vector observation (235)."""
EVENT_SIZE = 2 + NUM_ACTIONS
"""Per event: [by me, by opponent, one-hot action id]."""

_BYTES = (BINARY_SIZE + 7) // 8
# float32 bytes of the 8 bits of each byte value, least significant first: the packed binary
# parts become float32 bytes by table lookup, and numpy reads them in one call.
_BYTE_FLOATS = [
    np.unpackbits(np.array([b], dtype=np.uint8), bitorder="little").astype("<f4").tobytes() for b in range(256)
]
_FLOATS = struct.Struct(f"<{VECTOR_SIZE - BINARY_SIZE}f")
_L = {name: part.start for name, part in VECTOR_LAYOUT.items()}
_DECISION_BIT = {d: _L["decision"] + int(d) for d in Decision}


def _binary_bits(s: InfoState) -> int:
    me, opp = s.player, s.opponent
    bits = (
        s.hand
        | s.known_opponent << 24
        | s.won_cards[me] << 48
        | s.won_cards[opp] << 72
        | s.unseen << 168
        | 1 << (120 + s.trump_card)
        | 1 << (_L["trump_suit"] + s.trump)
        | 1 << (_L["trump_location"] + s.trump_location)
        | s.marriages[me] << _L["my_marriages"]
        | s.marriages[opp] << _L["opponent_marriages"]
    )
    if s.lead_card >= 0:
        bits |= 1 << (96 + s.lead_card)
    if s.stock_bottom >= 0:
        bits |= 1 << (144 + s.stock_bottom)
    if s.decision is not None:
        bits |= 1 << _DECISION_BIT[s.decision]
    if s.declared >= 0:
        bits |= 1 << (_L["declared_suit"] + s.declared)
    if s.closed_by >= 0:
        bits |= 1 << (_L["closed_by_me"] if s.closed_by == me else _L["closed_by_opponent"])
    elif not s.stock_size:
        bits |= 1 << _L["stock_exhausted"]
    if s.tricks[me]:
        bits |= 1 << _L["my_won_trick"]
    if s.tricks[opp]:
        bits |= 1 << _L["opponent_won_trick"]
    if s.dealer == me:
        bits |= 1 << _L["i_am_dealer"]
    if s.leader == me:
        bits |= 1 << _L["i_am_leader"]
    if s.claim_chance[me]:
        bits |= 1 << _L["claim_chance"]
    return bits


def encode_vector(s: InfoState) -> np.ndarray:
    """The flat float32 observation (``VECTOR_SIZE`` long); ``VECTOR_LAYOUT`` names its slices."""
    r = s.rules
    me, opp = s.player, s.opponent
    binary = b"".join([_BYTE_FLOATS[b] for b in _binary_bits(s).to_bytes(_BYTES, "little")])
    hand_size = r.hand_size
    target = r.match_target
    floats = _FLOATS.pack(
        s.stock_size / r.stock_size,
        s.points[me] / 66.0,
        s.points[opp] / 66.0,
        s.pending[me] / 66.0,
        s.pending[opp] / 66.0,
        s.hand.bit_count() / hand_size,
        s.opponent_hand_size / hand_size,
        s.scores[me] / target,
        s.scores[opp] / target,
        s.trick_count / 12.0,
    )
    return np.frombuffer(binary[: 4 * BINARY_SIZE] + floats, dtype=np.float32).copy()


def decode_vector(vector: np.ndarray) -> dict[str, np.ndarray]:
    """Split a vector observation into its named parts (views, not copies)."""
    return {name: vector[part.slice] for name, part in VECTOR_LAYOUT.items()}


def encode_dict(s: InfoState) -> dict[str, np.ndarray]:
    """The vector observation split into named arrays (``VECTOR_LAYOUT``'s parts)."""
    return {name: v.copy() for name, v in decode_vector(encode_vector(s)).items()}


def encode_events(s: InfoState) -> np.ndarray:
    """The public actions of this deal, oldest first, as (MAX_DEAL_ACTIONS, EVENT_SIZE) one-hots."""
    ev = np.zeros((MAX_DEAL_ACTIONS, EVENT_SIZE), dtype=np.float32)
    me = s.player
    for i, x in enumerate(s.history[:MAX_DEAL_ACTIONS]):
        ev[i, 0 if x >> 5 == me else 1] = 1.0
        ev[i, 2 + (x & 31)] = 1.0
    return ev


def encode_history(s: InfoState) -> dict[str, np.ndarray]:
    """The vector observation plus every public action of the deal as event rows."""
    return {"state": encode_vector(s), "events": encode_events(s)}


ENCODERS: dict[str, Callable[[InfoState], Any]] = {
    "vector": encode_vector,
    "dict": encode_dict,
    "history": encode_history,
}
"""The ``observation`` encoders of the two-player envs, by name."""


def encoder_names() -> list[str]:
    """The names of the observation encoders."""
    return list(ENCODERS)


def encode(name: str, s: InfoState) -> Any:
    """The observation of encoder ``name`` for an ``InfoState``."""
    return ENCODERS[name](s)


def observation_space(name: str) -> Any:
    """The gymnasium space of an encoder's output (imported lazily: the engine stays gym-free)."""
    from gymnasium import spaces

    if name not in ENCODERS:
        raise ValueError(f"unknown observation encoder {name!r}: choose one of {', '.join(ENCODERS)}")
    highs = np.array([part.high for part in VECTOR_LAYOUT.values() for _ in range(part.size)], dtype=np.float32)
    vector = spaces.Box(0.0, highs, dtype=np.float32)
    if name == "vector":
        return vector
    if name == "dict":
        return spaces.Dict(
            {
                n: spaces.Box(0.0, np.float32(p.high), shape=(p.size,), dtype=np.float32)
                for n, p in VECTOR_LAYOUT.items()
            }
        )
    return spaces.Dict(
        {"state": vector, "events": spaces.Box(0.0, 1.0, shape=(MAX_DEAL_ACTIONS, EVENT_SIZE), dtype=np.float32)}
    )
