"""What a tournament host sets up around its bots, locally and on each node of a cluster.

Private copies of the bot files under their own user ids (root only), the folders a bot's Python
imports from, a host memory that bots cannot read, and bans (with the journal that records them).
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..agents.spec import AgentSpec
from .discover import bot_files
from .journal import Journal
from .remote import HostPool
from .sandbox import PR_SET_DUMPABLE

__all__ = ["FIRST_UID", "ban", "python_paths", "set_dumpable", "stage", "unreadable_by_others"]


def stage(specs: list[AgentSpec], bots_dir: Path, staging: Path, uids: dict[str, int]) -> list[AgentSpec]:
    """Private copies of the bot files for bots under their own user ids (root only): each bot
    gets a read-only folder only it can read, with its own file and the folder's other files
    (``_helper.py`` and the like) but no other bot's file, so no bot reads another's code."""
    others = {p.name for p in bot_files(bots_dir)}
    os.chmod(staging, 0o711)
    out = []
    for i, spec in enumerate(specs):
        src = Path(spec.source) if spec.source.endswith(".py") else None
        if src is not None:
            home = staging / f"bot{i}"
            if src.parent == bots_dir:
                skip = others - {src.name}

                def ignored(folder: str, names: list[str], skip: set[str] = skip) -> list[str]:
                    top = Path(folder) == bots_dir
                    return [n for n in names if n == "__pycache__" or (top and n in skip)]

                shutil.copytree(bots_dir, home, ignore=ignored)
            else:
                home.mkdir()
                shutil.copy2(src, home / src.name)
            spec = replace(spec, source=str(home / src.name))
            gid = uids[spec.label]  # the bot's group: it reads, cannot write or chmod (root owns it)
            for root, _dirs, names in os.walk(home):
                os.chown(root, 0, gid)
                os.chmod(root, 0o750)
                for n in names:
                    os.chown(os.path.join(root, n), 0, gid)
                    os.chmod(os.path.join(root, n), 0o640)
        out.append(spec)
    return out


def python_paths() -> list[str]:
    """The folders a bot's Python imports from: the standard library, site-packages, this package."""
    paths = sysconfig.get_paths()
    found = [paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths]
    return [*dict.fromkeys(found), str(Path(__file__).resolve().parents[2])]


def unreadable_by_others(folders: Sequence[str]) -> str | None:
    """The first of ``folders`` or of their parents that a user other than its owner (a bot under
    a user id of its own) cannot enter or list; None when they all can."""
    for folder in folders:
        path = Path(folder).resolve()
        for part in [*reversed(path.parents), path]:
            try:
                mode = part.stat().st_mode
            except OSError:
                break  # not there: nothing to import from it
            if not mode & 0o001 or (part == path and not mode & 0o004):
                return str(part)
    return None


FIRST_UID = 61000
"""Run as root, bot ``i`` plays under user id ``FIRST_UID + i`` (no such user needs to exist)."""


def ban(pool: HostPool, journal: Journal | None, label: str, reason: str) -> None:
    """Disqualify ``label`` for the rest of the tournament (its running games end), writing the
    ban to the journal the first time, so a resumed run keeps it."""
    if label not in pool.disqualified and journal is not None:
        journal.disqualified(label, reason)
    pool.disqualify(label, reason)


def set_dumpable(on: bool) -> bool:
    """Make this process (non-)dumpable: not dumpable, a bot of the same user cannot read its
    memory (``/proc/PID/mem``, ``ptrace``). The previous setting."""
    from .sandbox import _libc, prctl

    before = bool(_libc.prctl(3, 0, 0, 0, 0)) if _libc is not None and hasattr(_libc, "prctl") else True
    prctl(PR_SET_DUMPABLE, int(on))
    return before
