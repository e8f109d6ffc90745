"""What a tournament host sets up around its bots, locally and on each node of a cluster.

Private copies of the bot files under their own user ids (root only), the folders a bot's Python
imports from, a host memory that bots cannot read, and bans (with the journal that records them).
"""

from __future__ import annotations

import ast
import functools
import os
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..agents.spec import AgentSpec
from ..text_safety import terminal_text
from .discover import bot_files
from .jail import tree
from .journal import Journal
from .remote import HostPool
from .sandbox import PR_SET_DUMPABLE

__all__ = [
    "FIRST_UID",
    "ban",
    "jail_paths",
    "own_files",
    "python_paths",
    "set_dumpable",
    "stage",
    "unreadable_by_others",
]


def _imports(path: Path) -> set[str]:
    """The top-level module names a Python file imports (``import x``, ``from x import y``)."""
    try:
        tree_ = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    for node in ast.walk(tree_):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out


def own_files(name: str, folder: Path, bots: list[str]) -> list[str]:
    """The entries of the bots' ``folder`` that bot ``name`` gets: its file ``NAME.py``, the files
    and folders named after it (``_NAME``, ``_NAME_helper.py``, ``_NAME_data/``; an entry that fits
    several bots' names goes to the longest), and the helper modules named after no bot
    (``_helper.py``) that its own files import, directly or through one another. Nothing else: no
    other bot's file, helper, data file or folder."""
    entries = sorted(e for e in os.listdir(folder) if e != "__pycache__")

    def owner(entry: str) -> str | None:
        fits = [
            b for b in bots if entry == f"{b}.py" or entry.split(".", 1)[0] == f"_{b}" or entry.startswith(f"_{b}_")
        ]
        return max(fits, key=len) if fits else None

    mine = [e for e in entries if owner(e) == name]
    shared = {e[:-3]: e for e in entries if e.endswith(".py") and e.startswith("_") and owner(e) is None}
    todo = [folder / e for e in mine if e.endswith(".py")]
    while todo:
        for module in _imports(todo.pop()) & set(shared):
            entry = shared.pop(module)
            mine.append(entry)
            todo.append(folder / entry)
    return sorted(mine)


def stage(specs: list[AgentSpec], bots_dir: Path, staging: Path, uids: dict[str, int]) -> list[AgentSpec]:
    """Private copies of the bot files for bots under their own user ids (root only): each bot
    gets a read-only folder that only its group can read, holding only its own files
    (:func:`own_files`): no other bot's file, helper module, data file or folder. The entries
    given to no bot are named once on stderr."""
    bots = [p.stem for p in bot_files(bots_dir)]
    entries = sorted(os.listdir(bots_dir)) if bots_dir.is_dir() else []
    bots += [Path(s.source).stem for s in specs if s.source.endswith(".py") and Path(s.source).parent == bots_dir]
    os.chmod(staging, 0o711)
    out, given = [], set()
    for i, spec in enumerate(specs):
        src = Path(spec.source) if spec.source.endswith(".py") else None
        if src is not None:
            home = staging / f"bot{i}"
            home.mkdir()
            if src.parent == bots_dir:
                mine = own_files(src.stem, bots_dir, bots)
                given.update(mine)
                for entry in mine:
                    path = bots_dir / entry
                    if path.is_dir():
                        shutil.copytree(path, home / entry, ignore=shutil.ignore_patterns("__pycache__"))
                    else:
                        shutil.copy2(path, home / entry)
            else:
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
    left = [e for e in entries if e not in given and e != "__pycache__" and not e.startswith(("test_", "."))]
    if left and any(Path(s.source).parent == bots_dir for s in specs if s.source.endswith(".py")):
        shown = ", ".join(terminal_text(name) for name in left[:10]) + (" ..." if len(left) > 10 else "")
        print(
            f"tournament: these files of {terminal_text(bots_dir)!r} belong to no bot and are given to none: "
            f"{shown} (a bot's helpers and data are "
            "named _BOTNAME_anything, or are helper modules _name.py that the bot imports)",
            file=sys.stderr,
        )
    return out


def python_paths() -> list[str]:
    """The folders a bot's Python imports from: the standard library, site-packages, this package."""
    paths = sysconfig.get_paths()
    found = [paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths]
    return [*dict.fromkeys(found), str(Path(__file__).resolve().parents[2])]


def jail_paths(staging: Path) -> list[str]:
    """What the jail tree of every game holds (:func:`.jail.tree`), listed once per tournament:
    the staged bots (each game gets only its own bot's folder), the Python installation and
    site-packages, this package's folder, the interpreter and the shared libraries they load."""
    return [str(staging), *_python_tree()]


@functools.lru_cache(maxsize=1)
def _python_tree() -> tuple[str, ...]:
    """:func:`.jail.tree` of this Python and package (the same for every tournament of a process)."""
    package = str(Path(__file__).resolve().parents[1])
    return tuple(tree([*python_paths()[:-1], package], sys.executable))


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
