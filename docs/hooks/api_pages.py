"""MkDocs hook: the API reference, one page per public module of ``sixtysix_env``, rendered by
mkdocstrings from the docstrings of the names in each module's ``__all__``.

Public means no part of the module's path starts with ``_``. A name of ``__all__`` without a
docstring is a warning, so ``mkdocs build --strict`` fails until it has one; constants take an
attribute docstring (a string literal on the line after the assignment). Everything is read from
the source (griffe), nothing imported, so the build needs only the ``docs`` extra.

The navigation groups the pages by layer (``LAYERS``: engine, environments, agents, tools) and
lists only the modules a user imports from (``in_nav``); the internal modules keep their pages,
reached from the index and from links, but stay out of the sidebar.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel

log = get_plugin_logger("api_pages")

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "sixtysix_env"
API_DIR = "api"


@dataclass
class ModuleDoc:
    """What one module's page shows: its names rendered here, and those rendered elsewhere."""

    path: str
    exports: list[str] | None
    members: list[str] = field(default_factory=list)
    elsewhere: dict[str, str] = field(default_factory=dict)
    """name -> the full path of the object, documented on its own module's page."""
    missing: list[str] = field(default_factory=list)
    """names of ``__all__`` without a docstring."""


def _public_modules(pkg: Any) -> list[Any]:
    out = [pkg]
    for name, sub in sorted(pkg.modules.items()):
        if not name.startswith("_") and not sub.is_alias:
            out += _public_modules(sub)
    return out


@cache
def collect(package: str = PACKAGE, root: Path = ROOT) -> tuple[ModuleDoc, ...]:
    """Every public module of ``package`` (found in ``root``) with what its page shows and the names
    of ``__all__`` lacking a docstring."""
    import griffe

    pkg = griffe.load(package, search_paths=[str(root)], resolve_aliases=True, resolve_external=False)
    mods = _public_modules(pkg)
    exported = {m.path: [n if isinstance(n, str) else n.name for n in (m.exports or [])] for m in mods}
    docs = []
    for m in mods:
        names = exported[m.path] if m.exports is not None else None
        doc = ModuleDoc(m.path, names)
        for name in names or []:
            full, documented = _describe(m, name)
            if not documented:
                doc.missing.append(name)
            home, _, short = full.rpartition(".")
            if full != f"{m.path}.{name}" and short in exported.get(home, ()) and home != m.path:
                doc.elsewhere[name] = full
            elif name in m.members:
                doc.members.append(name)
            else:
                doc.elsewhere[name] = full
        docs.append(doc)
    return tuple(docs)


def _describe(module: Any, name: str) -> tuple[str, bool]:
    """(the object's full path, whether it has a docstring) for one name of ``module.__all__``.

    Read from the source alone, never by importing: a name the module imports lazily (in its
    ``__getattr__``, as ``sixtysix_env.web`` does with the Flask app) is found through that import,
    so the docs build needs only the ``docs`` extra."""
    target = None
    if name in module.members:
        target = _follow(module.members[name])
    if target is None:
        target = _lazy_target(module, name)
    if target is None:
        return f"{module.path}.{name}", False
    return target.path, bool(target.docstring and target.docstring.value.strip())


def _follow(obj: Any) -> Any:
    try:
        return obj.final_target if obj.is_alias else obj
    except Exception:  # an alias griffe cannot follow
        return None


def _lazy_target(module: Any, name: str) -> Any:
    """The object a module imports lazily under ``name``: a ``from .x import name`` anywhere in
    its source, or a module path string (``"sixtysix_env.envs.gym_env"``) whose module defines ``name``
    or is itself called ``name``."""
    import ast

    root = module.package
    tree = ast.parse(Path(module.filepath).read_text(encoding="utf-8"))
    is_init = Path(module.filepath).name == "__init__.py"
    package = module.path if is_init else module.path.rpartition(".")[0]
    candidates: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            base = package
            for _ in range(max(node.level - 1, 0)):
                base = base.rpartition(".")[0]
            source = f"{base}.{node.module}" if node.level else (node.module or "")
            real = next(a.name for a in node.names if (a.asname or a.name) == name)
            candidates.append(f"{source}.{real}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(root.path + "."):
            candidates += [node.value] if node.value.rpartition(".")[2] == name else [f"{node.value}.{name}"]
    for full in candidates:
        try:
            return _follow(root[full[len(root.path) + 1 :]])
        except Exception:  # a string that is not a path of the package
            continue
    return None


def module_page(doc: ModuleDoc) -> str:
    """The Markdown of one module's page; an internal module's page says so, and where it belongs,
    since the sidebar does not show it."""
    lines = [f"# `{doc.path}`", ""]
    if not in_nav(doc.path):
        parent = doc.path.rpartition(".")[0]
        lines += [
            f"*Internal module* of the {layer(doc.path).lower()} layer, part of [`{parent}`][{parent}]: the",
            "sidebar lists the modules you import from, the [API reference](index.md) every module.",
            "",
        ]
    lines += [f"::: {doc.path}", "    options:", "      show_root_heading: false"]
    if doc.exports is not None:
        members = ", ".join(f'"{n}"' for n in doc.members) or ""
        lines.append(f"      members: [{members}]" if members else "      members: false")
    if doc.elsewhere:
        lines += ["", "Also exported here, documented where they are defined:", ""]
        lines += [f"- [`{name}`][{full}]" for name, full in doc.elsewhere.items()]
    return "\n".join(lines) + "\n"


INDEX_MARKER = "<!-- api-index -->"
"""Where docs/api/index.md gets the tables of every module page, layer by layer."""

LAYERS: dict[str, tuple[str, ...]] = {
    "Engine": (
        "sixtysix_env",
        "sixtysix_env.cards",
        "sixtysix_env.actions",
        "sixtysix_env.rules",
        "sixtysix_env.engine",
        "sixtysix_env.deal_types",
        "sixtysix_env.infostate",
        "sixtysix_env.match",
        "sixtysix_env.perft",
        "sixtysix_env.checks",
        "sixtysix_env.rulesdoc",
        "sixtysix_env.table",
    ),
    "Environments": (
        "sixtysix_env.envs",
        "sixtysix_env.observers",
        "sixtysix_env.rewards",
        "sixtysix_env.registration",
        "sixtysix_env.table.observers",
        "sixtysix_env.table.rewards",
        "sixtysix_env.fast",
    ),
    "Agents": ("sixtysix_env.agents",),
    "Tools": (),
}
"""The layers of the reference, each with the modules (and, but for the package itself, the
packages) it holds; the longest match wins, and a module no entry matches is a tool."""

ENTRY_POINTS = frozenset(
    {
        "sixtysix_env.table.actions",
        "sixtysix_env.table.rules",
        "sixtysix_env.table.deal",
        "sixtysix_env.table.observers",
        "sixtysix_env.envs.sixtysix_v0",
        "sixtysix_env.envs.sixtysix_three_v0",
        "sixtysix_env.envs.sixtysix_four_v0",
        "sixtysix_env.envs.gym_env",
        "sixtysix_env.envs.wrappers",
        "sixtysix_env.fast.batch",
        "sixtysix_env.envs.vector",
        "sixtysix_env.envs.sb3",
        "sixtysix_env.agents.base",
        "sixtysix_env.agents.spec",
        "sixtysix_env.agents.random_agent",
        "sixtysix_env.agents.heuristic",
        "sixtysix_env.agents.alphabeta",
        "sixtysix_env.agents.pimc",
        "sixtysix_env.agents.ismcts",
        "sixtysix_env.agents.ppo",
        "sixtysix_env.agents.oracle",
        "sixtysix_env.agents.table.base",
        "sixtysix_env.integrations.evaluate",
    }
)
"""The submodules a user imports from (the env modules, the agent classes); the other submodules
are internal: their pages exist (the index and the links reach them) but the sidebar leaves them out."""

INTERNAL = frozenset({"sixtysix_env.checks", "sixtysix_env.rulesdoc", "sixtysix_env.demo", "sixtysix_env.text_safety"})
"""Top-level modules that are internal all the same (shared argument checks, the generator of a
docs page, the demo script, the escaping of text others control)."""


def layer(path: str) -> str:
    """The layer of a module's page (see ``LAYERS``)."""
    best, size = "Tools", 0
    for name, entries in LAYERS.items():
        for entry in entries:
            matches = path == entry or (entry != PACKAGE and path.startswith(entry + "."))
            if matches and len(entry) > size:
                best, size = name, len(entry)
    return best


def in_nav(path: str) -> bool:
    """Whether a module's page is in the sidebar: the package, its top-level modules and
    subpackages, and the entry points; not the internal modules."""
    if path in INTERNAL:
        return False
    return path.count(".") <= 1 or path in ENTRY_POINTS


def _title(path: str) -> str:
    return path if path == PACKAGE else path.removeprefix(PACKAGE + ".")


def nav(docs: tuple[ModuleDoc, ...]) -> list[Any]:
    """The "API reference" section: the index, then one section per layer of its modules in the sidebar."""
    out: list[Any] = [f"{API_DIR}/index.md"]
    for name in LAYERS:
        pages = [
            {_title(d.path): f"{API_DIR}/{_page_name(d.path)}"}
            for d in docs
            if layer(d.path) == name and in_nav(d.path)
        ]
        if pages:
            out.append({name: pages})
    return out


def index_table(docs: tuple[ModuleDoc, ...]) -> str:
    """Every public module, layer by layer, with its page and the first paragraph of its docstring."""
    out = []
    for name in LAYERS:
        mine = [d for d in docs if layer(d.path) == name]
        if not mine:
            continue
        out += [f"## {name}", "", "| module | what it is |", "|---|---|"]
        out += [f"| [`{d.path}`]({_page_name(d.path)}) | {_summary(d.path)} |" for d in mine if in_nav(d.path)]
        internal = [f"[`{_title(d.path)}`]({_page_name(d.path)})" for d in mine if not in_nav(d.path)]
        if internal:
            out += ["", "Internal modules (not in the sidebar): " + ", ".join(internal) + "."]
        out.append("")
    return "\n".join(out)


def _summary(path: str) -> str:
    import ast

    base = ROOT.joinpath(*path.split("."))
    src = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
    text = ast.get_docstring(ast.parse(src.read_text(encoding="utf-8"))) or ""
    first = text.strip().split("\n\n")[0].replace("\n", " ")
    return _roles().convert(first, _roles().package_resolver(path)).replace("|", "\\|")


def _roles() -> Any:
    """docs/hooks/roles.py (mkdocs loads each hook on its own, not as a package), loaded once."""
    import importlib.util
    import sys

    if "docs_hook_roles" not in sys.modules:
        spec = importlib.util.spec_from_file_location("docs_hook_roles", Path(__file__).with_name("roles.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["docs_hook_roles"]


def _page_name(path: str) -> str:
    return f"{path}.md"


def on_config(config: Any) -> Any:
    """Put the module pages under the nav's "API reference" entry, grouped by layer."""
    for i, entry in enumerate(config["nav"] or []):
        if isinstance(entry, dict) and "API reference" in entry:
            config["nav"][i] = {"API reference": nav(collect())}
    return config


def on_files(files: Files, config: Any) -> Files:
    """Add the generated API pages (the internal ones marked as not in the nav); warn for every
    public name without a docstring."""
    docs = collect()
    for doc in docs:
        for name in doc.missing:
            log.warning(f"{doc.path}.{name} is in __all__ but has no docstring")
        inclusion = InclusionLevel.UNDEFINED if in_nav(doc.path) else InclusionLevel.NOT_IN_NAV
        uri = f"{API_DIR}/{_page_name(doc.path)}"
        files.append(File.generated(config, uri, content=module_page(doc), inclusion=inclusion))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the table of modules into the API reference's index page."""
    if page.file.src_uri == f"{API_DIR}/index.md":
        markdown = markdown.replace(INDEX_MARKER, index_table(collect()))
    return markdown
