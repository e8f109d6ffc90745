"""Game records of an arena or tournament run (``--records DIR``), in the format of
:mod:`sixtysix_env.records`.

Files are grouped by pair and named by where the game sits in the schedule, so a game found in
``deals.csv`` or ``faults.csv`` (pair, block, track, deal index) is found on disk:

- the arena writes one **match** record per match:
  ``DIR/<A>-vs-<B>/block<k>-track<t>-match<m>.json``;
- the tournament writes one **deal** record per deal, so that a forfeited deal is a record of its
  own, up to the faulty decision, with the bot and the reason in its ``meta``:
  ``DIR/<A>-vs-<B>/block<k>-track<t>-<deal index>.json`` (``deal7``, ``extra0-1``).

``players`` are the agents' labels in seat order; ``meta`` holds the source, the pair, block,
track, match and deal indices and the run's seed.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..records import match_record, save_record, to_record
from .play import DealRecord, FaultRecord, TaskResult
from .schedule import Task

__all__ = ["file_label", "pair_folder", "write_task_records"]


def file_label(label: str) -> str:
    """An agent label as a file-name part: the file name of a file bot without its folder, and
    only letters, digits and ``._=-`` (``pimc:samples=20`` -> ``pimc_samples=20``)."""
    head, sep, tail = label.rpartition(".py:")
    if sep:
        label = Path(head + ".py").name + ":" + tail
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", label).strip("_") or "agent"


def pair_folder(task: Task) -> str:
    return f"{file_label(task.specs[0].label)}-vs-{file_label(task.specs[1].label)}"


def _meta(source: str, task: Task, **more: Any) -> dict[str, Any]:
    return {
        "source": source,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "pair": [task.specs[0].label, task.specs[1].label],
        "block": task.block,
        "track": task.track,
        "seed": task.seed,
        **more,
    }


def write_task_records(root: Path, task: Task, res: TaskResult, source: str = "arena") -> list[Path]:
    """Write the records of one task's deals (kept with ``keep_deals``): match records for the
    arena, deal records for the tournament (see the module docstring)."""
    folder = root / pair_folder(task)
    players = list(task.seat_labels())
    written = []
    prefix = f"block{task.block}-track{task.track}"
    if source == "tournament":
        faults: dict[str, FaultRecord] = {f.index: f for f in res.faults}
        for rec, deal in zip(res.deals, res.played, strict=True):
            more: dict[str, Any] = {"match": rec.match, "deal": rec.index}
            fault = faults.get(rec.index)
            if fault is not None:
                more["forfeit"] = {"bot": fault.bot, "reason": fault.reason, "game_points": rec.game_points}
            name = f"{prefix}-{rec.index.replace('/', '', 1).replace('/', '-')}.json"
            written.append(
                save_record(folder / name, to_record(deal, players=players, meta=_meta(source, task, **more)))
            )
        return written
    by_match: dict[int, list[tuple[DealRecord, Any]]] = {}
    for rec, deal in zip(res.deals, res.played, strict=True):
        by_match.setdefault(rec.match, []).append((rec, deal))
    for m, entries in by_match.items():
        meta = _meta(source, task, match=m, deals=[rec.index for rec, _ in entries])
        record = match_record([deal for _, deal in entries], players=players, meta=meta)
        written.append(save_record(folder / f"{prefix}-match{m}.json", record))
    return written
