"""The package's modules import one way: no import circle, however the import is written.

Every ``import`` statement counts, at module level, inside a function or under ``TYPE_CHECKING``:
a circle hidden in a function body is still a circle. Edges are read from the source with
``ast`` (nothing is imported); a package's ``__init__`` counts only when it is named itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "sixtysix_env"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _imports(name: str, source: str, known: set[str], is_package: bool = False) -> set[str]:
    """The package's modules that module ``name`` imports anywhere in ``source``."""
    here = name.split(".") if is_package else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            for a in node.names:  # ``from pkg import module`` names the module itself
                sub = f"{target}.{a.name}"
                out.add(sub if sub in known else target)
    return {m for m in out if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {
        name: _imports(name, path.read_text(encoding="utf-8"), known, path.name == "__init__.py")
        for name, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_circle():
    graph = import_graph()
    assert len(graph) > 40 and graph["sixtysix_env.engine"]  # the graph was read
    found = circles(graph)
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_check_sees_a_circle_hidden_in_a_function_or_type_checking_block():
    known = set(_modules())
    hidden = "def f():\n    from .engine import Deal\n"
    typing_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..engine import Deal\n"
    assert _imports("sixtysix_env.cards", hidden, known) == {"sixtysix_env.engine"}
    assert _imports("sixtysix_env.multiplayer.view", typing_only, known) == {"sixtysix_env.engine"}
    assert _imports("sixtysix_env.fast", "from . import kernels\n", known, is_package=True) == {
        "sixtysix_env.fast.kernels"
    }
    graph = import_graph()
    graph["sixtysix_env.cards"] = {*graph["sixtysix_env.cards"], "sixtysix_env.engine"}
    assert any({"sixtysix_env.cards", "sixtysix_env.engine"} <= set(c) for c in circles(graph))


def test_the_engine_layers_stay_below_the_adapters():
    graph = import_graph()
    engine_layer = [
        m for m in graph if m.split(".")[1:2] in (["cards"], ["rules"], ["deal_types"], ["engine"], ["infostate"])
    ]
    for m in engine_layer:
        assert not {d for d in graph[m] if ".envs" in d or ".agents" in d or ".fast" in d}, m
