"""MkDocs hook: the pages link repository files the way GitHub shows them (``../examples/x.py``,
``../baselines/README.md#part``, ``rules-sources/``), and the site keeps those links working.

A link that leaves docs/ gets a copy of its target under ``repo/`` in the site (a Markdown file
becomes a page, its own links followed in turn); a link to a folder gets a generated listing
page. Every link is resolved against the file's real place, so a target that does not exist is
a warning, and ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files

log = get_plugin_logger("repo_files")

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
REPO_PREFIX = "repo"
"""Where copies of files outside docs/ sit in the site."""
RENAMED = {"rules.md": "variant-table.md"}
"""docs/rules.md and docs/RULES.md would both be site/rules/ on a case-insensitive disk."""

LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\))")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def _is_relative(target: str) -> bool:
    return not (target.startswith(("#", "/", "mailto:")) or "://" in target)


def _real_path(src_uri: str) -> Path:
    """Where the file of a site path lives in the repository."""
    if src_uri.startswith(REPO_PREFIX + "/"):
        return ROOT / src_uri[len(REPO_PREFIX) + 1 :]
    return DOCS / src_uri


def _site_uri(real: Path) -> str:
    """The site path of a repository file (inside docs/ as it is, else under repo/)."""
    try:
        return real.relative_to(DOCS).as_posix()
    except ValueError:
        return f"{REPO_PREFIX}/{real.relative_to(ROOT).as_posix()}"


def _links(markdown: str) -> list[tuple[str, str]]:
    """(path, anchor) of every relative link outside code blocks."""
    out = []
    for m in LINK.finditer(FENCE.sub("", markdown)):
        target = m.group(2)
        if _is_relative(target):
            path, _, anchor = target.partition("#")
            if path:
                out.append((path, anchor))
    return out


def _resolve(src_uri: str, path: str) -> Path:
    return (_real_path(src_uri).parent / path).resolve()


def _listing(real: Path) -> str:
    """A page listing the files of a linked folder."""
    rel = real.relative_to(ROOT).as_posix()
    rows = [f"- [{p.name}]({p.name})" for p in sorted(real.iterdir()) if p.is_file() and not p.name.startswith(".")]
    return f"# {rel}/\n\nThe files of `{rel}/` in the repository:\n\n" + "\n".join(rows) + "\n"


def on_files(files: Files, config: Any) -> Files:
    """Add the repository files and folder listings that the pages link to."""
    for old, new in RENAMED.items():
        f = files.get_file_from_path(old)
        if f is not None:
            stem = new.removesuffix(".md")
            f.dest_uri = f"{stem}/index.html" if config["use_directory_urls"] else f"{stem}.html"
    pages = {f.src_uri for f in files.documentation_pages()}
    queue = sorted(pages)
    seen = set(queue)
    while queue:
        src_uri = queue.pop()
        text = _real_path(src_uri).read_text(encoding="utf-8")
        for path, _ in _links(text):
            real = _resolve(src_uri, path)
            if not real.exists() or ROOT not in real.parents:
                continue  # on_page_markdown reports it
            if real.is_dir():
                uri = _site_uri(real) + "/index.md"
                if files.get_file_from_path(uri) is None and uri not in seen:
                    files.append(File.generated(config, uri, content=_listing(real)))
                    _add_folder_files(files, config, real)
                seen.add(uri)
                continue
            uri = _site_uri(real)
            if files.get_file_from_path(uri) is None:
                files.append(_repo_file(config, uri, real))
            if uri.endswith(".md") and uri not in seen:
                seen.add(uri)
                queue.append(uri)
    _add_to_nav(config, sorted(u for u in seen if u not in pages))
    return files


def _add_to_nav(config: Any, pages: list[str]) -> None:
    """List the copies and folder listings under "Repository files", so no page is left out of the nav."""
    nav = config["nav"]
    if nav is None or not pages:
        return
    nav[:] = [e for e in nav if not (isinstance(e, dict) and "Repository files" in e)]
    nav.append({"Repository files": pages})


def _repo_file(config: Any, uri: str, real: Path) -> File:
    """A file of the repository, served at ``uri`` in the site."""
    f = File(uri, src_dir=str(ROOT), dest_dir=config["site_dir"], use_directory_urls=config["use_directory_urls"])
    f.abs_src_path = str(real)
    return f


def _add_folder_files(files: Files, config: Any, folder: Path) -> None:
    for p in sorted(folder.iterdir()):
        uri = _site_uri(p)
        if p.is_file() and files.get_file_from_path(uri) is None:
            files.append(_repo_file(config, uri, p))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Point every relative link at the site path of its real target; warn on a missing one."""
    src_uri = page.file.src_uri
    if page.file.generated_by is not None:
        return markdown
    here = posixpath.dirname(src_uri)

    def fix(m: re.Match[str]) -> str:
        target = m.group(2)
        if not _is_relative(target):
            return m.group(0)
        path, hash_, anchor = target.partition("#")
        if not path:
            return m.group(0)
        if files.get_file_from_path(posixpath.normpath(posixpath.join(here, path))) is not None:
            return m.group(0)  # a page of the site itself (generated ones included)
        real = _resolve(src_uri, path)
        if not real.exists():
            log.warning(f"{src_uri}: the link {target!r} names {real}, which does not exist")
            return m.group(0)
        uri = _site_uri(real) + ("/index.md" if real.is_dir() else "")
        new = posixpath.relpath(uri, here or ".") + hash_ + anchor
        return m.group(1) + new + m.group(3)

    parts = re.split(r"(^(?:```|~~~)[^\n]*\n.*?^(?:```|~~~)[ \t]*$)", markdown, flags=re.M | re.S)
    return "".join(p if i % 2 else LINK.sub(fix, p) for i, p in enumerate(parts))
