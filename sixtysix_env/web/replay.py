"""Replay frames for the page: every position of a saved game record, with both hands face up.

A record is replayed (and so checked) by :func:`sixtysix_env.records.positions`; each position
becomes the same view dict the play page draws, seen from seat 0 with seat 1's hand added.
"""

from __future__ import annotations

from typing import Any

from ..engine import Deal
from ..records import positions
from .tableview import table_view
from .view import log_line, result_line, seat_view

__all__ = ["replay_frames"]


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """``{"players", "rules", "kind", "meta", "deals": [{"frames": [{"text", "view"}, ...]}]}``.

    Works for the two-, three- and four-player games; raises ``ValueError`` for a record that is
    malformed or describes an illegal game."""
    per_deal = positions(record)
    names = [str(p) for p in record["players"]]
    # a seat named "you" (a person's game from the page or the terminal) is shown as "You"
    shown = ["You" if n.lower() == "you" else n for n in names]
    bodies = record["deals"] if record["kind"] == "match" else [record]
    running = record.get("running_scores") or []
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
                text = log_line(prev, deal, bodies[i]["actions"][k - 1]["action"], names)
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
