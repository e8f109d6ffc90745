"""MkDocs hook: the API reference, one page per public module of ``sixtysix_env``, rendered by
mkdocstrings from the docstrings of the names in each module's ``__all__``.

Public means no part of the module's path starts with ``_``. A name of ``__all__`` without a
docstring is a warning, so ``mkdocs build --strict`` fails until it has one; constants take an
attribute docstring (a string literal on the line after the assignment).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files

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


def _runtime(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def _runtime_path(obj: Any, fallback: str) -> str:
    if inspect.ismodule(obj):
        return obj.__name__
    mod, qual = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{mod}.{qual}" if mod and qual else fallback


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
    """(the object's full path, whether it has a docstring) for one name of ``module.__all__``."""
    if name in module.members:
        obj = module.members[name]
        try:
            target = obj.final_target if obj.is_alias else obj
            return target.path, bool(target.docstring and target.docstring.value.strip())
        except Exception:  # an alias griffe cannot follow (a lazy import): ask Python
            pass
    value = _runtime(module.path, name)
    has_doc = (inspect.ismodule(value) or inspect.isclass(value) or callable(value)) and bool(
        (value.__doc__ or "").strip()
    )
    return _runtime_path(value, f"{module.path}.{name}"), has_doc


def module_page(doc: ModuleDoc) -> str:
    """The Markdown of one module's page."""
    lines = [f"# `{doc.path}`", "", f"::: {doc.path}", "    options:", "      show_root_heading: false"]
    if doc.exports is not None:
        members = ", ".join(f'"{n}"' for n in doc.members) or ""
        lines.append(f"      members: [{members}]" if members else "      members: false")
    if doc.elsewhere:
        lines += ["", "Also exported here, documented where they are defined:", ""]
        lines += [f"- [`{name}`][{full}]" for name, full in doc.elsewhere.items()]
    return "\n".join(lines) + "\n"


INDEX_MARKER = "<!-- api-index -->"
"""Where docs/api/index.md gets the table of every module page."""


def index_table(docs: tuple[ModuleDoc, ...]) -> str:
    """Every public module with its page and the first paragraph of its docstring."""
    lines = ["| module | what it is |", "|---|---|"]
    for doc in docs:
        lines.append(f"| [`{doc.path}`]({_page_name(doc.path)}) | {_summary(doc.path)} |")
    return "\n".join(lines)


def _summary(path: str) -> str:
    import ast

    base = ROOT.joinpath(*path.split("."))
    src = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
    text = ast.get_docstring(ast.parse(src.read_text(encoding="utf-8"))) or ""
    first = text.strip().split("\n\n")[0].replace("\n", " ")
    return first.replace("|", "\\|")


def _page_name(path: str) -> str:
    return f"{path}.md"


def on_config(config: Any) -> Any:
    """List every module page under the nav's "API reference" entry."""
    pages = [f"{API_DIR}/index.md", *(f"{API_DIR}/{_page_name(d.path)}" for d in collect())]
    for i, entry in enumerate(config["nav"] or []):
        if isinstance(entry, dict) and "API reference" in entry:
            config["nav"][i] = {"API reference": pages}
    return config


def on_files(files: Files, config: Any) -> Files:
    """Add the generated API pages; warn for every public name without a docstring."""
    docs = collect()
    for doc in docs:
        for name in doc.missing:
            log.warning(f"{doc.path}.{name} is in __all__ but has no docstring")
        files.append(File.generated(config, f"{API_DIR}/{_page_name(doc.path)}", content=module_page(doc)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the table of modules into the API reference's index page."""
    if page.file.src_uri == f"{API_DIR}/index.md":
        markdown = markdown.replace(INDEX_MARKER, index_table(collect()))
    return markdown
