"""Game records of an arena or tournament run (``--records DIR``), in the format of
:mod:`sixtysix_env.records`.

Files are grouped by pair and named by where the game sits in the schedule, so a game found in
``deals.csv`` or ``faults.csv`` (pair, block, track, deal index) is found on disk:

- the arena writes one **match** record per match:
  ``DIR/<A>-vs-<B>/block<k>-track<t>-match<m>.json``, except for a match with a forfeited deal
  (a match record replays scores from finished deals only): its deals get deal records, as below;
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
    """The folder name of a pair's game records, ``<A>-vs-<B>`` (labels made safe for file names)."""
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
    prefix = f"block{task.block}-track{task.track}"
    entries = list(zip(res.deals, res.played, strict=True))
    if source == "tournament":
        return _deal_records(folder, prefix, entries, res.faults, players, source, task)
    by_match: dict[int, list[tuple[DealRecord, Any]]] = {}
    for rec, deal in entries:
        by_match.setdefault(rec.match, []).append((rec, deal))
    written = []
    for m, match in by_match.items():
        if any(rec.termination == "forfeit" for rec, _ in match):  # a match record cannot hold a forfeit
            written += _deal_records(folder, prefix, match, res.faults, players, source, task)
            continue
        meta = _meta(source, task, match=m, deals=[rec.index for rec, _ in match])
        record = match_record([deal for _, deal in match], players=players, meta=meta)
        written.append(save_record(folder / f"{prefix}-match{m}.json", record))
    return written


def _deal_records(
    folder: Path,
    prefix: str,
    entries: list[tuple[DealRecord, Any]],
    faults: list[FaultRecord],
    players: list[str],
    source: str,
    task: Task,
) -> list[Path]:
    """One deal record per deal; a forfeited one stops at the faulty decision and names the bot
    and the reason in its ``meta``."""
    by_index = {f.index: f for f in faults}
    written = []
    for rec, deal in entries:
        more: dict[str, Any] = {"match": rec.match, "deal": rec.index}
        fault = by_index.get(rec.index)
        if fault is not None:
            more["forfeit"] = {"bot": fault.bot, "reason": fault.reason, "game_points": rec.game_points}
        name = f"{prefix}-{rec.index.replace('/', '', 1).replace('/', '-')}.json"
        written.append(save_record(folder / name, to_record(deal, players=players, meta=_meta(source, task, **more))))
    return written
