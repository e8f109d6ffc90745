"""Helpers of the tournament tests: whether a process still lives, why games get no jail here."""

from __future__ import annotations

import os

from sixtysix_env.tournament.jail import probe, writable_dirs


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie), from ``/proc/PID/stat``."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def no_jail() -> str:
    """Why games get no namespaces here ("" when they do): the root tests skip, saying why."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root on Linux (namespaces per game need CAP_SYS_ADMIN)"
    why = probe(writable_dirs())
    return f"root, but namespaces per game fail here: {why}" if why else ""
