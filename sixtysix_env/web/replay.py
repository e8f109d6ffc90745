"""Replay frames for the page: every position of a saved game record, with both hands face up.

A record is replayed (and so checked) by :func:`sixtysix_env.records.positions`; each position
becomes the same view dict the play page draws, seen from seat 0 with seat 1's hand added.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import Deal
from ..records import check_nesting, positions
from ..textplay import EVERY_SEAT
from .table import table_view
from .view import log_line, result_line, seat_view

__all__ = ["MAX_DEALS", "MAX_FRAMES", "MAX_META_BYTES", "MAX_NAME_CHARS", "check_replay_size", "replay_frames"]

MAX_DEALS = 64
"""Most deals one replay shows (a match to 11 game points has at most 21 with a point each)."""
MAX_FRAMES = 2000
"""Most positions one replay shows, over all its deals (a four-player deal has about 30): each is
a full view of about 2 KB, so a replay answer stays under about 4 MiB."""
MAX_NAME_CHARS = 100
"""Longest player name a replayed record may hold (every frame repeats the names)."""
MAX_META_BYTES = 16 * 1024
"""Largest ``meta`` of a replayed record, as JSON."""


def check_replay_size(record: Any) -> None:
    """Refuse a record too big to replay, before any replaying: a ValueError naming the limit.
    The shape is checked later (:func:`~sixtysix_env.records.positions`); only counts are read here."""
    if not isinstance(record, dict):
        return
    check_nesting(record)  # before json.dumps(meta) below
    bodies = record.get("deals") if record.get("kind") == "match" else [record]
    if not isinstance(bodies, list):
        return
    if len(bodies) > MAX_DEALS:
        raise ValueError(f"this record has {len(bodies)} deals: a replay shows at most {MAX_DEALS} deals")
    frames = sum(1 + len(b["actions"]) for b in bodies if isinstance(b, dict) and isinstance(b.get("actions"), list))
    if frames > MAX_FRAMES:
        raise ValueError(f"this record has {frames} positions: a replay shows at most {MAX_FRAMES} positions")
    players = record.get("players")
    if isinstance(players, list) and any(isinstance(p, str) and len(p) > MAX_NAME_CHARS for p in players):
        raise ValueError(f"a player name of this record is longer than {MAX_NAME_CHARS} characters")
    meta = record.get("meta")
    if meta is not None and len(json.dumps(meta, ensure_ascii=False, default=str)) > MAX_META_BYTES:
        raise ValueError(f"the record's meta is larger than {MAX_META_BYTES // 1024} KiB")


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """``{"players", "rules", "kind", "meta", "deals": [{"frames": [{"text", "view"}, ...]}]}``.

    Works for the two-, three- and four-player games; raises ``ValueError`` for a record that is
    malformed, describes an illegal game or is larger than the limits above."""
    check_replay_size(record)
    per_deal = positions(record)
    names = [str(p) for p in record["players"]]
    # a seat named "you" (a person's game from the page or the terminal) is shown as "You"
    shown = ["You" if n.lower() == "you" else n for n in names]
    bodies = record["deals"] if record["kind"] == "match" else [record]
    # a match record's running scores were checked by replaying it; a deal record has none
    running = record["running_scores"] if record["kind"] == "match" else []
    deals = []
    for i, deal_positions in enumerate(per_deal):
        frames = []
        prev: Any = None
        for k, deal in enumerate(deal_positions):
            scores = tuple(running[i]) if deal.is_over and i < len(running) else None
            result = result_line(deal, names) if deal.is_over else ""
            info = deal.information_state(0)
            if isinstance(deal, Deal):
                view = seat_view(info, shown, you=None, other_hand=deal.hands[1], scores=scores, result=result)
            else:
                view = table_view(info, shown, you=None, other_hands=deal.hands, scores=scores, result=result)
            if prev is None:
                trump = f"trump {view['trump']['symbol']}" if view["trump"]["suit"] is not None else "trump to be named"
                text = f"Deal {i + 1}: {names[deal.dealer]} dealt, {trump}"
            else:
                text = log_line(prev, deal, bodies[i]["actions"][k - 1]["action"], names, EVERY_SEAT)
            frames.append({"text": text, "view": view})
            prev = deal
        deals.append({"frames": frames, "outcome": bodies[i].get("outcome")})
    return {
        "kind": record["kind"],
        "players": shown,
        "rules": record["rules"].get("name", "custom"),
        "meta": record.get("meta", {}),
        "deals": deals,
        "final_scores": record.get("final_scores"),
    }
