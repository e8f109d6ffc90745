"""The results file (``OUT/journal.jsonl``): each finished duplicate block, as it finishes.

A tournament stopped or killed keeps the blocks it finished; ``--resume`` reads them back and
plays only the rest. The first line says which tournament it is (key fingerprint, bots, rules,
deals, block); a resume with other settings is refused. A block is written once both its tracks
are played, so the file never shows the cards of a deal still to be played.

Every line carries ``"mac"``: an HMAC-SHA256, under a key derived from the tournament's secret
key, of the line's content and of the previous line's ``"mac"`` (a chain). A bot running under
the host's user id can write the file, but not a line that ``--resume`` accepts: a forged,
altered, reordered or removed line is refused, naming the line. What the chain cannot tell from
a kill is a file cut short after a line: that only makes ``--resume`` play those blocks again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..arena.play import DealRecord, FaultRecord, MatchRecord, TaskResult
from .keys import derive

__all__ = ["Journal", "read_journal"]

NAME = "journal.jsonl"
MAC = "mac"
"""The key of each line's HMAC."""


def _mac_key(key: bytes) -> bytes:
    return bytes.fromhex(derive(key, "journal"))


def line_mac(key: bytes, previous: str, obj: dict[str, Any]) -> str:
    """The HMAC of a journal line's content (``obj`` without its ``"mac"``) chained to the
    previous line's (``""`` for the first line)."""
    content = json.dumps({k: v for k, v in obj.items() if k != MAC}, sort_keys=True, separators=(",", ":"))
    return hmac.new(_mac_key(key), f"{previous}\n{content}".encode(), hashlib.sha256).hexdigest()


def _refused(path: Path, number: int, why: str) -> ValueError:
    return ValueError(
        f"--resume: {path}, line {number}: {why}. The journal was altered after it was written (a bot "
        "running under your user id can write it): it cannot be trusted. Start a new run with a new --out"
    )


def _result(d: dict[str, Any]) -> TaskResult:
    return TaskResult(
        deals=[DealRecord(**x) for x in d["deals"]],
        matches=[MatchRecord(**x) for x in d["matches"]],
        faults=[FaultRecord(**x) for x in d["faults"]],
        seconds=list(d["seconds"]),
        decisions=list(d["decisions"]),
    )


def read_journal(
    path: Path, header: dict[str, Any], key: bytes
) -> tuple[dict[tuple[int, int, int], dict[str, Any]], dict[str, str], str]:
    """The finished tasks of a journal, by (pair, block, track), its disqualifications and its
    last line's HMAC (to chain on); a ValueError when it belongs to another tournament or a line
    does not carry the HMAC of ``key`` (forged or altered), naming the line."""
    done: dict[tuple[int, int, int], dict[str, Any]] = {}
    banned: dict[str, str] = {}
    with open(path, "rb") as f:
        raw = f.read()
    lines = raw.split(b"\n")
    complete = lines[:-1]  # the text after the last newline is a line cut short by a kill
    previous = ""
    checked: list[tuple[int, dict[str, Any]]] = []
    for number, data in enumerate(complete, 1):
        if not data.strip():
            continue
        try:
            entry = json.loads(data.decode("utf-8"))
        except Exception:  # not JSON at all, bad UTF-8, nesting too deep
            raise _refused(path, number, "it is not a JSON object") from None
        if not isinstance(entry, dict):
            raise _refused(path, number, "it is not a JSON object")
        mac = entry.get(MAC)
        if not isinstance(mac, str) or not hmac.compare_digest(mac, line_mac(key, previous, entry)):
            why = "it has no HMAC" if mac is None else "its HMAC is wrong"
            raise _refused(path, number, f"{why} (forged, altered, moved or after a removed line)")
        previous = mac
        checked.append((number, entry))
    if not checked:
        return done, banned, ""
    first = checked[0][1]
    for k, v in header.items():
        if first.get(k) != v:
            raise ValueError(
                f"--resume: {path} is another tournament's ({k} was {first.get(k)!r}, now {v!r}); "
                "give the same bots, settings and --key-file, or a new --out"
            )
    for number, entry in checked[1:]:
        try:
            if "disqualified" in entry:
                banned[str(entry["disqualified"])] = str(entry["reason"])
                continue
            for t in entry["tasks"]:
                res = _result(t["result"])
                done[(t["pair"], t["block"], t["track"])] = {
                    "result": res,
                    "restarts": t["restarts"],
                    "cpu": t["cpu"],
                }
        except (KeyError, TypeError, ValueError) as e:
            raise _refused(path, number, f"its content is not a block or a ban ({type(e).__name__}: {e})") from None
    return done, banned, previous


class Journal:
    """Appends lines to the results file (mode 0600), each with its chained HMAC under ``key``,
    flushed and synced at once; thread-safe. Appending (not ``fresh``), ``previous`` is the last
    line's HMAC (from :func:`read_journal`), and a line cut short by a kill is dropped first."""

    def __init__(self, path: Path, header: dict[str, Any], fresh: bool, key: bytes, previous: str = "") -> None:
        self.path = path
        self._key = key
        self._previous = "" if fresh else previous
        self._lock = threading.Lock()
        flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if fresh else 0)
        self._fd = os.open(path, flags, 0o600)
        size = os.fstat(self._fd).st_size
        if size:
            with open(path, "rb") as f:
                data = f.read()
            os.ftruncate(self._fd, data.rfind(b"\n") + 1)
        if fresh or os.fstat(self._fd).st_size == 0:
            self._previous = ""
            self._write(header)

    def _write(self, obj: dict[str, Any]) -> None:
        with self._lock:
            mac = line_mac(self._key, self._previous, obj)
            os.write(self._fd, (json.dumps({**obj, MAC: mac}) + "\n").encode())
            os.fsync(self._fd)
            self._previous = mac

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
