"""Sphinx cross-reference roles (``:class:`Deal```, ``:mod:`.sandbox```, ``:func:`~.x.y```) as
links of the site, resolved when the site is built.

The docstrings keep one style, Sphinx's roles, which read well in ``help()`` and in an editor;
this module turns each role into an autorefs link to the object's entry in the API reference, so
no page shows a raw ``:role:``. It is a griffe extension for mkdocstrings (mkdocs.yml names it
under ``extensions``) and a function the hooks call on text they put into pages themselves (the
env docstrings on the env pages). A role whose target is not an object of the package (``html.escape``)
becomes inline code; one whose object has no entry on the site renders as code too (an optional
autoref), never as a broken link.

Resolution follows Sphinx: ``~`` shows only the last part; a leading ``.`` (or ``..``) is first read
as a relative import from the docstring's module, then as "any object whose path ends so", the one
nearest the docstring's module winning; a bare name is looked up in the scope of the docstring's
object (its class, then its module, following imports), then as a full path, then as a path suffix.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

try:  # mkdocs loads this file as a hook as well as griffe loads it as an extension
    import griffe
except ImportError:  # pragma: no cover - griffe comes with mkdocstrings[python] (the docs extra)
    griffe = None  # type: ignore[assignment]

ROLE = re.compile(r":(?:py:)?(class|mod|func|meth|data|attr|obj|exc|const|type):`([^`]+)`")
"""One Sphinx role: its kind and its text (``target``, ``~target`` or ``title <target>``)."""

Resolver = Callable[[str], "str | None"]
"""A role's target (without ``~``) -> the full path of the object it names, or ``None``."""


def convert(text: str, resolve: Resolver) -> str:
    """``text`` with every role replaced: a link (autoref) where ``resolve`` finds the target, else code."""

    def one(m: re.Match[str]) -> str:
        raw = m.group(2).strip()
        title, target = _title_and_target(raw)
        full = resolve(target)
        shown = html.escape(title)
        if full is None:
            return f"`{title}`"
        return f'<autoref identifier="{html.escape(full)}" optional><code>{shown}</code></autoref>'

    return ROLE.sub(one, text)


def _title_and_target(raw: str) -> tuple[str, str]:
    explicit = re.fullmatch(r"(.+?)\s*<([^>]+)>", raw)
    if explicit:
        return explicit.group(1), explicit.group(2).lstrip("~")
    short = raw.startswith("~")
    target = raw.lstrip("~")
    title = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
    return title, target


def _walk(obj: Any) -> Iterator[Any]:
    """Every object defined in ``obj`` (aliases left out), ``obj`` first."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)


def _public(path: str) -> bool:
    return not any(part.startswith("_") for part in path.split("."))


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("."), b.split("."), strict=False):
        if x != y:
            break
        n += 1
    return n


def griffe_resolver(obj: Any, paths: list[str]) -> Resolver:
    """The resolver of roles in the docstring of griffe object ``obj``; ``paths``: every object path
    of the package, to match a ``.suffix`` against."""
    module = obj if obj.is_module else obj.module
    root = module.package

    def lookup(full: str) -> str | None:
        if full == root.path:
            return full
        if not full.startswith(root.path + "."):
            return None
        try:
            found = root[full[len(root.path) + 1 :]]
            return found.final_target.path if found.is_alias else found.path
        except Exception:  # not an object of the package, or an import griffe cannot follow
            return None

    def by_suffix(suffix: str) -> str | None:
        hits = [p for p in paths if p.endswith(suffix) or p == suffix.lstrip(".")]
        if not hits:
            return None
        return max(hits, key=lambda p: (_public(p), _common(p, module.path), -len(p)))

    def relative(target: str) -> str | None:
        """``..x.y`` read as a relative import from the docstring's module (each dot one level up)."""
        dots = len(target) - len(target.lstrip("."))
        base = module.path if module.filepath and str(module.filepath).endswith("__init__.py") else module.parent.path
        for _ in range(dots - 1):
            base = base.rpartition(".")[0]
        return lookup(f"{base}.{target[dots:]}") if base else None

    def resolve(target: str) -> str | None:
        if target.startswith("."):
            return relative(target) or by_suffix("." + target.lstrip("."))
        head, _, rest = target.partition(".")
        scope = obj
        while scope is not None:
            if head in scope.members:
                found = lookup(f"{scope.path}.{head}")
                if found is not None:
                    return lookup(f"{found}.{rest}") if rest else found
            scope = scope.parent
        return lookup(target) or by_suffix("." + target)

    return resolve


class SphinxRoles(griffe.Extension if griffe else object):  # type: ignore[misc]
    """Rewrite the roles of every docstring of a loaded package into links (see the module docstring)."""

    def on_package(self, *, pkg: Any, **kwargs: Any) -> None:
        """Once the whole package is loaded, so that every target can be found."""
        objects = list(_walk(pkg))
        paths = [o.path for o in objects]
        for obj in objects:
            if obj.docstring is not None and ROLE.search(obj.docstring.value):
                obj.docstring.value = convert(obj.docstring.value, griffe_resolver(obj, paths))


def package_resolver(module_path: str, package: str = "sixtysix_env") -> Resolver:
    """The resolver for the docstring of module ``module_path``, for text a hook puts into a page."""
    if griffe is None:  # pragma: no cover
        return lambda target: None
    pkg, paths = _package(package)
    return griffe_resolver(pkg[module_path[len(package) + 1 :]] if module_path != package else pkg, paths)


_LOADED: dict[str, tuple[Any, list[str]]] = {}
"""package name -> (its griffe package, every object path in it), loaded once per build."""


def _package(package: str) -> tuple[Any, list[str]]:
    if package not in _LOADED:
        from pathlib import Path

        root = Path(__file__).resolve().parents[2]
        pkg = griffe.load(package, search_paths=[str(root)], resolve_aliases=True, resolve_external=False)
        _LOADED[package] = (pkg, [o.path for o in _walk(pkg)])
    return _LOADED[package]
