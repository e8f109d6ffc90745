"""The tournament's secret key and everything derived from it (deal and bot seeds).

Deal seeds come from ``HMAC-SHA256(key, "deals/PAIR/BLOCK")``: without the key nothing a bot
sees or can read determines a deal. A bot's RNG seed comes from the same key under another label
(``"bot/..."``), so the seed a bot is sent says nothing about the cards. The key is random per run
unless the teacher gives ``--key-file`` (the same key replays the same tournament); it never
leaves the host process: bots get derived seeds only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

from ..arena.schedule import Task, agent_seed

__all__ = ["KEY_BYTES_MIN", "bot_seeds", "derive", "fingerprint", "new_key", "read_key_file"]

KEY_BYTES_MIN = 16
"""The shortest key accepted, in bytes."""


def new_key() -> bytes:
    """A fresh random key (32 bytes from the OS)."""
    return secrets.token_bytes(32)


def read_key_file(path: str | Path) -> bytes:
    """The key in ``path`` (its bytes, trailing whitespace dropped); a ValueError when it is
    missing, unreadable or shorter than 16 bytes."""
    p = Path(path)
    try:
        data = p.read_bytes().rstrip()
    except OSError as e:
        raise ValueError(f"key file {str(path)!r} cannot be read: {e.strerror or e}") from None
    if len(data) < KEY_BYTES_MIN:
        raise ValueError(
            f"key file {str(path)!r} holds {len(data)} bytes; a key needs at least {KEY_BYTES_MIN} "
            '(make one with: python -c "import secrets; print(secrets.token_hex(32))" > KEYFILE)'
        )
    return data


def derive(key: bytes, label: str) -> str:
    """``HMAC-SHA256(key, label)`` as hex: a seed text for ``random.Random``."""
    return hmac.new(key, label.encode(), hashlib.sha256).hexdigest()


def bot_seeds(key: bytes, task: Task) -> tuple[str, str]:
    """The RNG seeds of the task's two bots, (A's, B's): each derived from the key and the seat
    it plays in, so the same key gives each bot the same random source wherever it plays."""
    return (
        derive(key, f"bot/{agent_seed(task, task.a_seat)}"),
        derive(key, f"bot/{agent_seed(task, 1 - task.a_seat)}"),
    )


def fingerprint(key: bytes) -> str:
    """A short public name of the key (in reports and the journal): says which key, reveals nothing."""
    return derive(key, "fingerprint")[:12]
