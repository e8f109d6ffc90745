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
    assert _imports("sixtysix_env.table.view", typing_only, known) == {"sixtysix_env.engine"}
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


# ---------------------------------------------------------------------- the layers
CORE = ("cards", "actions", "rules", "deal_types", "engine", "infostate", "match", "observers", "rewards", "perft")
CORE += ("checks", "cli_options", "text_safety", "table")
"""The rules and what every layer reads (the table game's rules too)."""
TOOLS = ("arena", "tournament", "web", "play", "integrations", "distributed", "demo", "newbot", "table_arena")
TOOLS += ("replay", "records", "textplay", "render", "render_image", "vu_compat", "registration")
TOOLS += ("exploitability",)
"""What sits above the environments and agents."""
RULES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("the engine imports no adapter", CORE, ("fast", "agents", "envs", *TOOLS)),
    ("the batched engine imports neither agents nor envs", ("fast",), ("agents", "envs", *TOOLS)),
    # sixtysix_env.jax, the JAX engine, is a batched engine like fast (of fast it reads fast.state's rule
    # encoding); nothing in the package imports it, so `import sixtysix_env` never imports jax.
    ("the JAX engine imports neither agents nor envs", ("jax",), ("agents", "envs", *TOOLS)),
    ("nothing imports the JAX engine", (*CORE, "fast", "agents", "envs", *TOOLS), ("jax",)),
    ("the agents import no environment", ("agents",), ("envs", *TOOLS)),
    (
        "distributed imports none of its callers",
        ("distributed",),
        ("arena", "tournament", "web", "play", "integrations", "envs"),
    ),
)
"""(what, importers, what they must not import), by the package or top-level module's name."""


def _under(module: str, names: tuple[str, ...]) -> bool:
    return any(module == f"{PACKAGE}.{n}" or module.startswith(f"{PACKAGE}.{n}.") for n in names)


def layer_breaks(graph: dict[str, set[str]]) -> list[str]:
    """Every import, lazy ones included, that points up a layer (see ``RULES``)."""
    return sorted(
        f"{what}: {m} imports {d}"
        for what, importers, banned in RULES
        for m, deps in graph.items()
        if _under(m, importers)
        for d in deps
        if _under(d, banned)
    )


def _package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def private_imports() -> list[str]:
    """``from X import _name`` where X is in another package (or top-level module) than the importer."""
    found = []
    for name, path in _modules().items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not (node.level or (node.module or "").startswith(PACKAGE)):
                continue
            base = here[: len(here) - node.level + 1] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            for a in node.names:
                private = a.name.startswith("_") and not a.name.startswith("__")
                if private and _package_of(target) != _package_of(name):
                    found.append(f"{name} imports {target}.{a.name}")
    return found


def test_no_import_points_up_a_layer():
    graph = import_graph()
    breaks = layer_breaks(graph)
    assert not breaks, "imports that point up a layer:\n" + "\n".join(breaks)


def test_the_layer_check_sees_a_lazy_import_up():
    graph = import_graph()
    graph["sixtysix_env.fast.batch"] = {*graph["sixtysix_env.fast.batch"], "sixtysix_env.agents.mlp"}
    graph["sixtysix_env.engine"] = {*graph["sixtysix_env.engine"], "sixtysix_env.envs.vector"}
    graph["sixtysix_env.distributed.local"] = {*graph["sixtysix_env.distributed.local"], "sixtysix_env.arena.run"}
    assert len(layer_breaks(graph)) == 3
    lazy = "def f():\n    from ..agents.mlp import MLPPolicy\n"
    assert _imports("sixtysix_env.fast.batch", lazy, set(_modules())) == {"sixtysix_env.agents.mlp"}


def test_no_module_imports_another_packages_private_name():
    found = private_imports()
    assert not found, "private names imported across packages:\n" + "\n".join(found)


def test_the_agent_registry_loads_without_numpy() -> None:
    """Building the registry costs nothing: the agents that need numpy (``ppo``, ``pimc:prior=``)
    import it when one is made. A tournament's bot process, under its memory cap, holds only what
    it uses (an eager numpy import once left a bot 13 MiB less and broke the cap's test)."""
    import subprocess
    import sys

    code = "import sys, sixtysix_env.agents, sixtysix_env.agents.spec; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
