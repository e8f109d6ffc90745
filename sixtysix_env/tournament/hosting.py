"""What a tournament host sets up around its bots, locally and on each node of a cluster.

Private copies of the bot files under their own user ids (root only), the folders a bot's Python
imports from, a host memory that bots cannot read, and bans (with the journal that records them).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import os
import re
import shutil
import sys
import sysconfig
from collections.abc import Iterable, Sequence
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
    "jail_exclude",
    "jail_paths",
    "missing_from_tree",
    "needed_distributions",
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


def jail_paths(staging: Path, exclude: Sequence[str] = ()) -> list[str]:
    """What the jail tree of every game holds (:func:`.jail.tree`), listed once per tournament:
    the staged bots (each game gets only its own bot's folder), the Python installation and
    site-packages less ``exclude`` (:func:`jail_exclude`), this package's folder, the interpreter
    and the shared libraries they load."""
    return [str(staging), *_python_tree(tuple(exclude)), *locale_files()]


def locale_files() -> list[str]:
    """The C.UTF-8 locale and the character-set cache that Python maps at start (under
    ``LANG=C.UTF-8``), where they are: in the tree, they are copies like the rest."""
    arch = f"{os.uname().machine}-linux-gnu"
    found = ["/usr/lib/locale/C.utf8", "/usr/lib/locale/C.UTF-8", f"/usr/lib/{arch}/gconv/gconv-modules.cache"]
    return [p for p in [*found, "/usr/lib64/gconv/gconv-modules.cache"] if os.path.exists(p)]


@functools.lru_cache(maxsize=4)
def _python_tree(exclude: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`.jail.tree` of this Python and package (the same for every tournament of a process)."""
    package = str(Path(__file__).resolve().parents[1])
    return tuple(tree([*python_paths()[:-1], package], sys.executable, exclude))


JAIL_EXTRAS = ("fast",)
"""The extras of this package whose packages every jail tree holds (numba: the search agents'
fast solver)."""
STDLIB_LEFT_OUT = ("test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3", "site-packages")
"""The standard library's folders no bot needs (its test suite, the GUI toolkits, the installer
of pip, and the system site-packages beside a virtual environment's)."""


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def needed_distributions(modules: Iterable[str]) -> set[str]:
    """The installed distributions a bot may import (canonical names): this package with its
    requirements and :data:`JAIL_EXTRAS`, the distributions of ``modules`` (top-level names), and
    everything they require, recursively."""
    from importlib import metadata

    by_module = metadata.packages_distributions()
    todo = ["sixtysix-env", *(d for m in modules for d in by_module.get(m, []))]
    seen: set[str] = set()
    while todo:
        name = _canonical(todo.pop())
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
        for req in dist.requires or []:
            found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
            extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)", req.partition(";")[2])
            if found and (extra is None or (name == "sixtysix-env" and extra.group(1) in JAIL_EXTRAS)):
                todo.append(found.group(1))
    return seen


def _site_entries(distributions: set[str], site: str) -> set[str]:
    """The entries of the folder ``site`` that belong to ``distributions`` (from their file lists)."""
    from importlib import metadata

    out: set[str] = set()
    for dist in metadata.distributions(path=[site]):
        if _canonical(dist.metadata["Name"] or "") not in distributions:
            continue
        for f in dist.files or []:
            rel = os.path.relpath(os.path.normpath(str(dist.locate_file(f))), site)
            if not rel.startswith(".."):
                out.add(rel.split(os.sep, 1)[0])
    return out


def jail_exclude(staging: Path | None = None, imports: Iterable[str] = ()) -> list[str]:
    """What the jail tree leaves out of the Python installation: :data:`STDLIB_LEFT_OUT`, and
    every entry of site-packages that belongs to no distribution a bot may import
    (:func:`needed_distributions` of ``imports``, the template's, and of every staged bot file's)."""
    modules = {m.split(".")[0] for m in imports}
    if staging is not None:
        for path in staging.rglob("*.py"):
            modules |= _imports(path)
    dists = needed_distributions(modules)
    paths = sysconfig.get_paths()
    sites = list(dict.fromkeys(paths[k] for k in ("purelib", "platlib") if k in paths))
    out: list[str] = []
    for stdlib in dict.fromkeys(paths[k] for k in ("stdlib", "platstdlib") if k in paths):
        out += [os.path.join(stdlib, n) for n in STDLIB_LEFT_OUT if os.path.join(stdlib, n) not in sites]
        with contextlib.suppress(OSError):
            out += [os.path.join(stdlib, n) for n in os.listdir(stdlib) if n.startswith("config-")]
    for site in sites:
        kept = _site_entries(dists, site)
        with contextlib.suppress(OSError):
            out += [os.path.join(site, n) for n in sorted(os.listdir(site)) if n not in kept]
    return out


def missing_from_tree(error: str) -> str:
    """The hint for a bot's ``No module named 'X'`` where X is installed here but not in the jail
    tree (imported only by a computed name); ``""`` otherwise."""
    import importlib.util

    found = re.search(r"No module named '([A-Za-z0-9_.]+)'", error)
    if found is None:
        return ""
    top = found.group(1).split(".")[0]
    try:
        here = importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        here = False
    if not here:
        return ""
    return (
        f" ({top} is installed on the host but not in the jail tree, which holds the packages a bot's files"
        f" import by name: write 'import {top}' in the bot's file)"
    )


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
