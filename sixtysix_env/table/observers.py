"""Observation encoders for the three- and four-player games: a ``TableView`` in, numbers out.

Seats are relative to the observer, clockwise: ``me``, ``left``, then ``right`` (three players)
or ``left``, ``partner``, ``right`` (four players), so one policy plays any seat. Sides are the
players themselves (three players) or ``my_team`` and ``their_team`` (four players). The layout
grows with the number of players; ``table_layout(n)`` names every slice, and
``docs``-style tables come from :func:`layout_table`:

* ``"vector"``: a flat ``float32`` array (``table_vector_size(n)`` long: 318 for three players,
  512 for four, whose last parts are the Russian game's and stay zero in the other presets).
* ``"dict"``: the same parts as named arrays.
* ``"history"``: ``{"state": vector, "events": (MAX_TABLE_ACTIONS, n + NUM_TABLE_ACTIONS + 1)}``: the deal's
  actions in order as the observer saw them, each as [relative seat one-hot, action one-hot, hidden]:
  another player's card committed or discarded face down sets only "hidden", never the card.

Encoders see only a ``TableView``, which holds no hidden card, so they cannot leak one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from ..observers import Part
from .actions import HIDDEN_ACTION, NUM_TABLE_ACTIONS
from .deal import MAX_TABLE_ACTIONS, TableDecision
from .view import TableView

__all__ = [
    "TABLE_ENCODERS",
    "seat_names",
    "side_names",
    "table_layout",
    "table_vector_size",
    "encode_table_vector",
    "encode_table_dict",
    "encode_table_history",
    "table_observation_space",
    "layout_table",
]

_SEATS = {3: ("me", "left", "right"), 4: ("me", "left", "partner", "right")}
_SIDES = {3: ("me", "left", "right"), 4: ("my_team", "their_team")}
_THREE_SCORE_SCALE = 20.0


def seat_names(n: int) -> tuple[str, ...]:
    """The relative seat names of ``n`` players (me, left, ...), as the layout names them."""
    if n not in _SEATS:
        raise ValueError(f"no table game for {n} players: choose 3 or 4")
    return _SEATS[n]


def side_names(n: int) -> tuple[str, ...]:
    """The scoring sides of ``n`` players: each player with three, the two teams with four."""
    seat_names(n)
    return _SIDES[n]


@cache
def table_layout(n: int) -> dict[str, Part]:
    """Named slices of the vector for ``n`` players (``Part.high`` is the upper bound; the match
    score parts may be negative for three players, see ``low`` in :func:`table_observation_space`)."""
    seats, sides = seat_names(n), side_names(n)
    parts: list[tuple[str, int, float, str]] = [("hand", 24, 1.0, "my cards (while trump is chosen: my first 3)")]
    parts += [
        (f"known_{s}", 24, 1.0, f"cards shown in the {s} player's hand (turned trump card, marriages)")
        for s in seats[1:]
    ]
    parts += [(f"won_{s}", 24, 1.0, f"cards in the tricks the {s} player won") for s in seats]
    parts += [(f"trick_{s}", 24, 1.0, f"the card the {s} player put on the current trick") for s in seats]
    parts += [
        ("unseen", 24, 1.0, "cards I cannot place (other hands' unshown cards, my own unseen packets)"),
        ("trump_card", 24, 1.0, "the card turned for trump, if trump was not named"),
        ("trump_suit", 4, 1.0, "trump suit one-hot (all zero while it is being chosen)"),
        (
            "decision",
            len(TableDecision),
            1.0,
            "decision one-hot in TableDecision order: trump, lead, follow, partner's marriage, claim, redeal, "
            "bid, hold a nine, commit, leave a nine, discard",
        ),
        ("declared_suit", 4, 1.0, "marriage the leader declared on this lead"),
    ]
    parts += [(f"marriages_{s}", 4, 1.0, f"suits of the marriages the {s} player declared") for s in seats]
    parts += [
        ("leader", n, 1.0, "who leads the current trick (relative seat one-hot)"),
        ("dealer", n, 1.0, "who dealt (relative seat one-hot)"),
        ("claim_chance", 1, 1.0, "explicit claiming: my side may go out now"),
    ]
    parts += [(f"points_{s}", 1, 4.0, f"counted points of {s} / 66") for s in sides]
    parts += [(f"pending_{s}", 1, 2.0, f"marriage points of {s} waiting for a trick / 66") for s in sides]
    parts += [(f"tricks_{s}", 1, 1.0, f"tricks won by {s} / tricks in a deal") for s in sides]
    parts += [(f"hand_size_{s}", 1, 1.0, f"cards in the {s} player's hand / hand size") for s in seats]
    scale = "20" if n == 3 else "the match target"
    parts += [(f"score_{s}", 1, 1.0, f"match score of {s} / {scale}, clipped to [-1, 1]") for s in sides]
    parts += [("trick_count", 1, 1.0, "tricks played / tricks in a deal")]
    if n == 4:
        parts += _russian_parts(seats, sides)
    out: dict[str, Part] = {}
    pos = 0
    for name, size, high, desc in parts:
        out[name] = Part(name, pos, size, high, desc)
        pos += size
    return out


def _russian_parts(seats: tuple[str, ...], sides: tuple[str, ...]) -> list[tuple[str, int, float, str]]:
    """The Russian game's parts (docs/RULES.md 5.3); all zero in the other four-player presets."""
    parts = [
        ("out_mine", 24, 1.0, "my cards out of play, face down (discards; my hand while I sit out)"),
        ("committed_mine", 24, 1.0, "the card I committed against three nines (unseen by the others)"),
        ("committed_shown", 24, 1.0, "committed cards shown: they matched the nine left"),
        ("nines_shown", 4, 1.0, "suits of the three nines shown"),
        ("nine_left", 4, 1.0, "suit of the nine the declarer left"),
        ("bid", 4, 1.0, "highest contract named so far: five, six, fur coat, suit"),
        ("contract", 4, 1.0, "the contract being played (trumps have no rank)"),
        ("pair_trumps", 2, 1.0, "my pair's answer on trumps: [condition (c) holds, it does not]"),
        ("cut_nines", 1, 1.0, "nines the cut showed before this deal / 3"),
    ]
    parts += [(f"bidder_{s}", 1, 1.0, f"the {s} player named the highest contract") for s in seats]
    parts += [(f"nines_by_{s}", 1, 1.0, f"the {s} player declared three nines") for s in seats]
    parts += [(f"committed_{s}", 1, 1.0, f"the {s} player committed a card against three nines") for s in seats]
    parts += [(f"sitting_out_{s}", 1, 1.0, f"the {s} player sits out the contract") for s in seats]
    parts += [(f"out_size_{s}", 1, 1.0, f"cards the {s} player has out of play / hand size") for s in seats]
    parts += [(f"to_bid_{s}", 1, 1.0, f"the {s} player has yet to decide in this round") for s in seats]
    parts += [(f"trumps_asked_{s}", 1, 1.0, f"{s} asked about trumps") for s in sides]
    parts += [(f"deal_scored_{s}", 1, 1.0, f"game points {s} scored in this deal so far / match target") for s in sides]
    return parts


def table_vector_size(n: int) -> int:
    """Length of the vector observation for ``n`` players."""
    last = list(table_layout(n).values())[-1]
    return last.start + last.size


def _set_cards(out: np.ndarray, start: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[start + low.bit_length() - 1] = 1.0
        mask ^= low


def encode_table_vector(v: TableView) -> np.ndarray:
    """The flat float32 observation; ``table_layout(n)`` names its slices."""
    n, me = v.n_players, v.player
    L = table_layout(n)
    seats, sides = seat_names(n), side_names(n)
    out = np.zeros(table_vector_size(n), dtype=np.float32)
    _set_cards(out, L["hand"].start, v.hand)
    for q in range(n):
        rel = (q - me) % n
        if rel:
            _set_cards(out, L[f"known_{seats[rel]}"].start, v.known[q])
        _set_cards(out, L[f"won_{seats[rel]}"].start, v.won_cards[q])
        m = v.marriages[q]
        for s in range(4):
            if m >> s & 1:
                out[L[f"marriages_{seats[rel]}"].start + s] = 1.0
        out[L[f"hand_size_{seats[rel]}"].start] = v.hand_sizes[q] / (24 // n)
    for q, c in zip(v.trick_seats(), v.trick, strict=False):
        out[L[f"trick_{seats[(q - me) % n]}"].start + c] = 1.0
    _set_cards(out, L["unseen"].start, v.unseen)
    if v.trump_card >= 0:
        out[L["trump_card"].start + v.trump_card] = 1.0
    if v.trump >= 0:
        out[L["trump_suit"].start + v.trump] = 1.0
    if v.decision is not None:
        out[L["decision"].start + int(v.decision)] = 1.0
    if v.declared >= 0:
        out[L["declared_suit"].start + v.declared] = 1.0
    out[L["leader"].start + (v.leader - me) % n] = 1.0
    out[L["dealer"].start + (v.dealer - me) % n] = 1.0
    if v.claim_chance[v.side]:
        out[L["claim_chance"].start] = 1.0
    tricks = 24 // n
    scale = _THREE_SCORE_SCALE if n == 3 else float(v.rules.match_target)
    for side in range(v.n_sides):
        rel = (side - v.side) % v.n_sides
        name = sides[rel]
        out[L[f"points_{name}"].start] = v.points[side] / 66.0
        out[L[f"pending_{name}"].start] = v.pending[side] / 66.0
        out[L[f"tricks_{name}"].start] = v.side_tricks[side] / tricks
        out[L[f"score_{name}"].start] = max(-1.0, min(1.0, v.scores[side] / scale))
    out[L["trick_count"].start] = v.trick_count / tricks
    if n == 4:
        _encode_russian(out, v, L)
    return out


def _encode_russian(out: np.ndarray, v: TableView, L: dict[str, Part]) -> None:
    n, me = v.n_players, v.player
    seats, sides = seat_names(n), side_names(n)
    _set_cards(out, L["out_mine"].start, v.out_mine)
    for q, c in enumerate(v.committed):
        rel = seats[(q - me) % n]
        if c != -1:
            out[L[f"committed_{rel}"].start] = 1.0
        if c >= 0:
            out[L["committed_mine" if q == me else "committed_shown"].start + c] = 1.0
        out[L[f"out_size_{rel}"].start] = v.out_sizes[q] / 6
    for s in range(4):
        if v.nines_shown >> (6 * s) & 1:
            out[L["nines_shown"].start + s] = 1.0
    if v.nine_left >= 0:
        out[L["nine_left"].start + v.nine_left // 6] = 1.0
    if v.bid:
        out[L["bid"].start + v.bid - 1] = 1.0
        out[L[f"bidder_{seats[(v.bidder - me) % n]}"].start] = 1.0
    if v.contract:
        out[L["contract"].start + v.contract - 1] = 1.0
    if v.pair_answer >= 0:
        out[L["pair_trumps"].start + (0 if v.pair_answer else 1)] = 1.0
    out[L["cut_nines"].start] = len(v.cuts) / 3
    if v.nines_by >= 0:
        out[L[f"nines_by_{seats[(v.nines_by - me) % n]}"].start] = 1.0
    if v.sitting_out >= 0:
        out[L[f"sitting_out_{seats[(v.sitting_out - me) % n]}"].start] = 1.0
    if v.decision is not None:
        for q in v.queue:
            out[L[f"to_bid_{seats[(q - me) % n]}"].start] = 1.0
    target = float(v.rules.match_target)
    for side in range(v.n_sides):
        name = sides[(side - v.side) % v.n_sides]
        if v.trumps_asked[side]:
            out[L[f"trumps_asked_{name}"].start] = 1.0
        out[L[f"deal_scored_{name}"].start] = min(1.0, v.deal_scored[side] / target)


def encode_table_dict(v: TableView) -> dict[str, np.ndarray]:
    """The vector observation split into named arrays (``table_layout(n)``'s parts)."""
    vec = encode_table_vector(v)
    return {name: vec[p.slice].copy() for name, p in table_layout(v.n_players).items()}


def encode_table_events(v: TableView) -> np.ndarray:
    """The actions of this deal as the observer saw them, oldest first, as
    (MAX_TABLE_ACTIONS, n + NUM_TABLE_ACTIONS + 1) one-hots; the last column marks a face-down card
    decision of another player (the view's ``HIDDEN_ACTION``)."""
    n = v.n_players
    ev = np.zeros((MAX_TABLE_ACTIONS, n + NUM_TABLE_ACTIONS + 1), dtype=np.float32)
    for i, x in enumerate(v.history[:MAX_TABLE_ACTIONS]):
        ev[i, ((x >> 6) - v.player) % n] = 1.0
        a = x & 63
        ev[i, n + (NUM_TABLE_ACTIONS if a == HIDDEN_ACTION else a)] = 1.0
    return ev


def encode_table_history(v: TableView) -> dict[str, np.ndarray]:
    """The vector observation plus the public history as event rows."""
    return {"state": encode_table_vector(v), "events": encode_table_events(v)}


TABLE_ENCODERS: dict[str, Callable[[TableView], Any]] = {
    "vector": encode_table_vector,
    "dict": encode_table_dict,
    "history": encode_table_history,
}
"""The ``observation`` encoders of the three- and four-player envs, by name."""


def _low(part: str) -> float:
    return -1.0 if part.startswith("score_") else 0.0


def table_observation_space(name: str, n: int) -> Any:
    """The gymnasium space of an encoder's output for ``n`` players (gymnasium imported lazily)."""
    from gymnasium import spaces

    if name not in TABLE_ENCODERS:
        raise ValueError(f"unknown observation encoder {name!r}: choose one of {', '.join(TABLE_ENCODERS)}")
    layout = table_layout(n)
    lows = np.array([_low(p.name) for p in layout.values() for _ in range(p.size)], dtype=np.float32)
    highs = np.array([p.high for p in layout.values() for _ in range(p.size)], dtype=np.float32)
    vector = spaces.Box(lows, highs, dtype=np.float32)
    if name == "vector":
        return vector
    if name == "dict":
        return spaces.Dict(
            {
                k: spaces.Box(
                    -1.0 if k.startswith("score_") else 0.0, np.float32(p.high), shape=(p.size,), dtype=np.float32
                )
                for k, p in layout.items()
            }
        )
    events = spaces.Box(0.0, 1.0, shape=(MAX_TABLE_ACTIONS, n + NUM_TABLE_ACTIONS + 1), dtype=np.float32)
    return spaces.Dict({"state": vector, "events": events})


def layout_table(n: int) -> str:
    """The vector layout as a Markdown table (for env docstrings and docs)."""
    rows = ["| slice | name | meaning |", "|---|---|---|"]
    for name, p in table_layout(n).items():
        rows.append(f"| {p.start}:{p.start + p.size} | `{name}` | {p.description} |")
    return "\n".join(rows)
