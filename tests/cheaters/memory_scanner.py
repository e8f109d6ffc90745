"""Searches its own process memory for anything that predicts the deal.

While the host builds it (``prepare``, when the message that carries its RNG seed is still alive)
and again at its first decision, it collects every text in its process that looks like one of the
host's seeds (64 hex digits, the form of an HMAC, optionally followed by a seed path such as
``/agent/0/1/0/1``): the strings and bytes that the objects the garbage collector tracks hold, the
locals of every frame on the stack, and the raw anonymous memory of the process (read through
``/proc/self/maps``, as the interpreter's own heap). Each text, and its 64-digit head under every
deck-seed pattern the arena and the tournament use (``HEAD/deal/G``, ``HEAD/extra/B/J``), is tried
as the seed of the deck: a deck that deals it its own hand and trump card would be a prediction.

It prints ``MYSEED`` when one of the texts it found is the seed of the RNG it was handed (the scan
reaches what the host sent it, so finding nothing else means something), and ``CHEAT`` when a
text predicts a deal.
"""

from __future__ import annotations

import ctypes
import gc
import random
import re
import sys

from sixtysix_env.engine import Deal

SEED_TEXT = re.compile(rb"[0-9a-f]{64}(?:/[a-z]+(?:/[0-9]{1,6}){1,5})?")
FOUND: set[str] = set()
STATE: dict[str, object] = {}
MAX_REGION = 64 * 2**20


def _from_objects() -> None:
    """Texts held by every object the garbage collector tracks, and every frame's locals."""
    values: list[object] = []
    for obj in gc.get_objects():
        try:
            values.extend(gc.get_referents(obj))
        except Exception:
            continue
    for frame in sys._current_frames().values():
        while frame is not None:
            values.extend(frame.f_locals.values())
            frame = frame.f_back
    for value in values:
        if isinstance(value, str) and 64 <= len(value) <= 200:
            data = value.encode("ascii", "ignore")
        elif isinstance(value, (bytes, bytearray)) and 64 <= len(value) <= 1 << 22:
            data = bytes(value)
        else:
            continue
        FOUND.update(m.group().decode() for m in SEED_TEXT.finditer(data))


def _from_raw_memory() -> None:
    """Texts in the process's anonymous readable memory (the heap, where freed objects linger)."""
    try:
        with open("/proc/self/maps") as f:
            lines = f.read().splitlines()
    except OSError:
        return
    for line in lines:
        parts = line.split()
        perms = parts[1]
        path = parts[5] if len(parts) > 5 else ""
        if not perms.startswith("r") or path not in ("", "[heap]"):
            continue
        start, end = (int(x, 16) for x in parts[0].split("-"))
        if end - start > MAX_REGION:
            continue
        try:
            data = ctypes.string_at(start, end - start)
        except Exception:
            continue
        FOUND.update(m.group().decode() for m in SEED_TEXT.finditer(data))


def _scan() -> None:
    _from_objects()
    _from_raw_memory()


def _guesses() -> list[tuple[str, str]]:
    out = []
    for text in sorted(FOUND):
        out.append((text, text))
        head = text[:64]
        out += [(text, f"{head}/deal/{g}") for g in range(64)]
        out += [(text, f"{head}/extra/{b}/{j}") for b in range(8) for j in range(8)]
    return out


class MemoryScanner:
    def prepare(self, rules):
        _scan()
        print("SCANNED at build:", len(FOUND), "seed-like texts")

    def act(self, info, rng):
        if "start" not in STATE:
            STATE["start"] = rng.getstate()  # the first use of the RNG the host seeded
            _scan()
            print("SCANNED at the first decision:", len(FOUND), "seed-like texts")
            if any(random.Random(text).getstate() == STATE["start"] for text in FOUND):
                print("MYSEED: found the seed text of my own RNG")
        if info.trick_count == 0 and bin(info.hand).count("1") == info.rules.hand_size:
            for text, seed in _guesses():
                deal = Deal.new(info.rules, random.Random(seed))
                if deal.hands[info.player] == info.hand and deal.trump_card == info.trump_card:
                    print("CHEAT: predicted the deal from", text, "as", seed)
                    break
        return info.legal_actions()[0]
