"""Before the first game: can a bot process import what a bot written from the template imports?

A bot runs as the host would run it: the same interpreter, forked by a zygote of the host's
pool, under a user id of its own and in its jail when the host is root. Where Python or its
packages sit in a folder those user ids cannot read (pyenv under root's 0700 home, a venv in a
0700 folder), every bot that imports numpy would fail to load and fill the league table with
numpy's 30-line ImportError. The preflight plays a probe bot first, under a user id no bot has:
it imports every module the template (``python -m sixtysix_env.newbot``) imports and numpy, uses
numpy once, and lists the folders Python imports from. If any of that fails the tournament stops
before playing, with the fix in one line (:class:`PreflightError`).
"""

from __future__ import annotations

import ast
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from .hosting import unreadable_by_others

__all__ = ["PREFLIGHT", "PreflightError", "check_message", "probe_source", "template_imports"]

PREFLIGHT = "(preflight)"
"""The probe bot's label (no bot file can have it: a label is a file name without ``.py``)."""

EXTRA = ("numpy",)
"""Imported too: what nearly every bot imports beyond the template."""

MARK = "preflight-report:"


class PreflightError(RuntimeError):
    """A bot process cannot import what the template imports: the message says why and the fix."""


def template_imports() -> list[str]:
    """Every module the bot template imports (read from it, so the check follows the template),
    then :data:`EXTRA`."""
    from ..newbot import render

    names: list[str] = []
    for node in ast.walk(ast.parse(render("mybot"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and node.module != "__future__":
            names.append(node.module)
    return list(dict.fromkeys([*names, *EXTRA]))


PROBE = '''"""The tournament host's preflight probe: imports what a bot from the template imports."""

import importlib
import json
import os

MODULES = {modules!r}
FOLDERS = {folders!r}


def _root(e):
    while e.__cause__ is not None or e.__context__ is not None:
        e = e.__cause__ or e.__context__
    return e


report = {{"imports": [], "folders": []}}
for name in MODULES:
    try:
        importlib.import_module(name)
    except BaseException as e:
        root = _root(e)
        report["imports"].append([name, (type(root).__name__ + ": " + str(root)).strip().splitlines()[0]])
if not report["imports"]:
    try:
        import numpy

        numpy.random.default_rng(0).integers(3, size=4).sum()
        numpy.linalg.norm(numpy.ones(3))
    except BaseException as e:
        root = _root(e)
        report["imports"].append(["numpy (in use)", (type(root).__name__ + ": " + str(root)).strip().splitlines()[0]])
for folder in FOLDERS:
    try:
        os.listdir(folder)
    except OSError as e:
        report["folders"].append([folder, type(e).__name__])
if report["imports"] or report["folders"]:
    raise ImportError({mark!r} + json.dumps(report))


class Probe:
    def act(self, info, rng):
        return info.legal_actions()[0]
'''


def probe_source(modules: Sequence[str], folders: Sequence[str]) -> str:
    """The probe bot's file: imports ``modules``, uses numpy, lists ``folders``."""
    return PROBE.format(modules=list(modules), folders=list(folders), mark=MARK)


def write_probe(folder: Path, modules: Sequence[str], folders: Sequence[str]) -> Path:
    """The probe file in ``folder`` (made readable by every user: it holds nothing secret)."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    path = folder / "preflight_probe.py"
    path.write_text(probe_source(modules, folders), encoding="utf-8")
    os.chmod(path, 0o644)
    return path


STOP = "preflight: a bot process"
"""How every stop message of :func:`check_message` begins (the test suite recognises it by this)."""


def check_message(error: str, uid: int | None, jailed: bool) -> str:
    """The one-line stop message from the probe's failure ``error`` (the load error it sent)."""
    who = STOP + (f" (user id {uid}{', in its jail' if jailed else ''})" if uid is not None else "")
    at = error.find(MARK)
    if at < 0:
        return (
            f"{who} could not load the preflight probe ({error.strip().splitlines()[0][:300]}); "
            f"check that {sys.executable} runs and imports sixtysix_env for other users, then run again"
        )
    report = json.loads(error[at + len(MARK) :].strip().splitlines()[0])
    failed = [f"{m} ({why})" for m, why in report.get("imports", [])]
    folders = [f for f, _ in report.get("folders", [])]
    hidden = unreadable_by_others([*folders, sys.prefix, sys.base_prefix])
    what = "; ".join(
        [
            *([f"cannot import {', '.join(failed)}"] if failed else []),
            *([f"cannot read {', '.join(folders)}"] if folders else []),
        ]
    )
    if hidden is not None and uid is not None:
        fix = (
            f"Python or its packages are under {hidden}, which the bots' user ids cannot read: install "
            f"Python outside a 0700 home (e.g. under /opt or /usr/local, venv included) or run chmod o+rx {hidden}"
        )
    elif failed:
        fix = f"install what is missing for the Python the bots run on ({sys.executable} -m pip install numpy)"
    else:
        fix = f"make {', '.join(folders)} readable by the bots' user ids"
    return f"{who} {what}. {fix}, then run again"
