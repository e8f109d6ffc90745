"""Errors cross process boundaries whole: the arena, the gap benchmark and Ray run agents in worker
processes, and an exception whose ``__init__`` takes other arguments than its message cannot be
unpickled there unless it says how (``__reduce__``): the parent then fails on the unpickling, and
the worker's message is lost."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from sixtysix_env import Deal
from sixtysix_env.engine import IllegalActionError
from sixtysix_env.table.deal import TableIllegalActionError
from sixtysix_env.tournament.run import TournamentError

PACKAGE = Path(__file__).resolve().parents[1] / "sixtysix_env"


def _errors() -> list[BaseException]:
    deal = Deal.new("standard", __import__("random").Random(1))
    try:
        deal.apply(31)
    except IllegalActionError as e:
        raised = e
    out: list[BaseException] = [
        raised,
        IllegalActionError(40, [1, 2], "a test position"),
        TableIllegalActionError(40, [3], "a table position"),
        TournamentError("fewer than two bots load", []),
    ]
    try:
        from sixtysix_env.web.app import ApiError
    except ImportError:  # the web extra is not installed
        return out
    return [*out, ApiError(404, "no such game")]


@pytest.mark.parametrize("error", _errors(), ids=lambda e: type(e).__name__)
def test_an_error_pickles_whole(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert vars(back) == vars(error)


def _own_init_errors() -> list[str]:
    """Classes of the package that look like exceptions (a base named ...Error, ...Exception or an
    error of another such class) and define ``__init__`` but neither ``__reduce__`` nor a base of
    the package that does."""
    found: dict[str, tuple[list[str], bool, bool, str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases]
                methods = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
                where = f"{path.relative_to(PACKAGE.parent)}:{node.name}"
                found[node.name] = (bases, "__init__" in methods, "__reduce__" in methods, where)

    def is_error(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name.endswith(("Error", "Exception")) or name in {"Exception", "BaseException"}:
            return True
        return name in found and name not in seen and any(is_error(b, seen | {name}) for b in found[name][0])

    def reduces(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name not in found or name in seen:
            return False
        return found[name][2] or any(reduces(b, seen | {name}) for b in found[name][0])

    return [
        where
        for name, (bases, own_init, _, where) in found.items()
        if own_init and any(is_error(b) for b in bases) and not reduces(name)
    ]


def test_every_error_with_its_own_init_says_how_to_pickle_itself():
    assert _own_init_errors() == []
