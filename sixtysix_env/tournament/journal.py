"""The results file (``OUT/journal.jsonl``): each finished duplicate block, as it finishes.

A tournament stopped or killed keeps the blocks it finished; ``--resume`` reads them back and
plays only the rest. The first line says which tournament it is (key fingerprint, bots, rules,
deals, block); a resume with other settings is refused. A block is written once both its tracks
are played, so the file never shows the cards of a deal still to be played.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..arena.play import DealRecord, FaultRecord, MatchRecord, TaskResult

__all__ = ["Journal", "read_journal"]

NAME = "journal.jsonl"


def _result(d: dict[str, Any]) -> TaskResult:
    return TaskResult(
        deals=[DealRecord(**x) for x in d["deals"]],
        matches=[MatchRecord(**x) for x in d["matches"]],
        faults=[FaultRecord(**x) for x in d["faults"]],
        seconds=list(d["seconds"]),
        decisions=list(d["decisions"]),
    )


def read_journal(
    path: Path, header: dict[str, Any]
) -> tuple[dict[tuple[int, int, int], dict[str, Any]], dict[str, str]]:
    """The finished tasks of a journal, by (pair, block, track), and its disqualifications; a
    ValueError when it belongs to another tournament."""
    done: dict[tuple[int, int, int], dict[str, Any]] = {}
    banned: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    if not lines:
        return done, banned
    first = json.loads(lines[0])
    for k, v in header.items():
        if first.get(k) != v:
            raise ValueError(
                f"--resume: {path} is another tournament's ({k} was {first.get(k)!r}, now {v!r}); "
                "give the same bots, settings and --key-file, or a new --out"
            )
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except ValueError:  # a line cut short by a kill
            continue
        if "disqualified" in entry:
            banned[entry["disqualified"]] = entry["reason"]
            continue
        for t in entry["tasks"]:
            res = _result(t["result"])
            done[(t["pair"], t["block"], t["track"])] = {"result": res, "restarts": t["restarts"], "cpu": t["cpu"]}
    return done, banned


class Journal:
    """Appends lines to the results file (mode 0600), flushed and synced at once; thread-safe."""

    def __init__(self, path: Path, header: dict[str, Any], fresh: bool) -> None:
        self.path = path
        self._lock = threading.Lock()
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if fresh else 0)
        self._fd = os.open(path, flags, 0o600)
        if fresh or os.path.getsize(path) == 0:
            self._write(header)

    def _write(self, obj: dict[str, Any]) -> None:
        data = (json.dumps(obj) + "\n").encode()
        with self._lock:
            os.write(self._fd, data)
            os.fsync(self._fd)

    def block(self, tasks: list[tuple[int, int, int, TaskResult, dict[str, int], dict[str, float]]]) -> None:
        self._write(
            {
                "tasks": [
                    {
                        "pair": p,
                        "block": b,
                        "track": t,
                        "result": {k: v for k, v in asdict(res).items() if k != "played"},
                        "restarts": restarts,
                        "cpu": cpu,
                    }
                    for p, b, t, res, restarts, cpu in tasks
                ]
            }
        )

    def disqualified(self, label: str, reason: str) -> None:
        self._write({"disqualified": label, "reason": reason})

    def close(self) -> None:
        os.close(self._fd)
