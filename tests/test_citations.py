"""The repository carries what it cites: no path outside it, links that resolve, and source
citations ("pagat :259", "ru-old-and-marriage :33") that name a line the source file has."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "docs" / "rules-sources"
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".html", ".js", ".css", ".cfg", ".ini", ".yml", ".yaml"}
PACKAGE_WRITING_DOCS = "sixtysix_env/rulesdoc.py"
"""Writes docs/rules.md, so its links are relative to docs/."""
OUTSIDE = re.compile(r"\.\./shared|\bshared/(?:RULES|rules-sources|perft)|/work/|/home/|/tmp/studio")

MENTION = re.compile(r"(?<!docs/)RULES\.md")
RELATIVE_MENTION = re.compile(r"(?<!docs/)(?<!\[)(?<!\]\()RULES\.md")
"""In docs/ (and the module writing docs/rules.md) a markdown link [RULES.md](RULES.md) is fine."""
NAV_ENTRY = re.compile(r":\s+RULES\.md$")
"""mkdocs.yml names its pages relative to docs/: its nav entry for docs/RULES.md is fine."""

# Each citation name, the source file it points into, and the numbered lines that source spans.
_TRANSLATED = "ru-translated-pages.txt"
NAMES: dict[str, tuple[str, range]] = {
    "pagat": (_TRANSLATED, range(227, 313)),
    "the first page": (_TRANSLATED, range(196, 227)),
    "first page": (_TRANSLATED, range(196, 227)),
    "PlayingCardDecks": (_TRANSLATED, range(321, 346)),
    "Britannica": (_TRANSLATED, range(346, 354)),
    "gamerules": (_TRANSLATED, range(393, 425)),
    "santase": (_TRANSLATED, range(425, 439)),
    "ru-translated-pages.txt": (_TRANSLATED, range(1, 10_000)),
    "ru-classic-66.txt": ("ru-classic-66.txt", range(1, 10_000)),
    "ru-classic": ("ru-classic-66.txt", range(1, 10_000)),
    "ru-old-and-marriage.txt": ("ru-old-and-marriage.txt", range(1, 10_000)),
    "ru-old-and-marriage": ("ru-old-and-marriage.txt", range(1, 10_000)),
    "ru-old": ("ru-old-and-marriage.txt", range(1, 36)),
    "Марьяж": ("ru-old-and-marriage.txt", range(84, 191)),
}
_NUM = r"(\d+)(?:\s?[-–]\s?(\d+))?"
CITATION = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(n) for n in sorted(NAMES, key=len, reverse=True)) + r")\s?:" + _NUM
)
MORE = re.compile(r"\s*,\s*:" + _NUM)
BARE = re.compile(r"(?<![\w.:/])\(?:" + _NUM)


def _files() -> list[Path]:
    """The repository's own text files (not the sources, caches, builds or a virtual environment):
    what git tracks or would track (an ignored ``results/`` folder of someone's runs is not the
    repository's), else every file below the root but the usual build and cache folders."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        listed = None
    if listed:
        out = [ROOT / n for n in listed if Path(n).suffix in TEXT_SUFFIXES and (ROOT / n).is_file()]
        out = [p for p in out if SOURCES not in p.parents and p != Path(__file__).resolve()]
        run = ROOT / ".ci" / "run"
        return [*out, run] if run.exists() and run not in out else out
    skip = {".git", ".venv", "venv", "build", "dist", "site", "node_modules", "__pycache__"}  # site: mkdocs
    out = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip and not d.startswith(".") and not d.endswith(".egg-info")]
        here = Path(folder)
        if here == SOURCES:
            continue
        out += [here / n for n in names if Path(n).suffix in TEXT_SUFFIXES]
    out = [p for p in out if p != Path(__file__).resolve()]  # this file names the patterns it forbids
    return [*out, ROOT / ".ci" / "run"] if (ROOT / ".ci" / "run").exists() else out


def _numbered_lines(name: str) -> set[int]:
    text = (SOURCES / name).read_text(encoding="utf-8")
    return {int(m.group(1)) for m in re.finditer(r"^\s*(\d+):", text, re.MULTILINE)}


def _cited(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every named citation in ``text``, continuations included."""
    out = []
    for m in CITATION.finditer(text):
        name, a, b = m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))
        out.append((name, a, b))
        end = m.end()
        while more := MORE.match(text, end):
            out.append((name, int(more.group(1)), int(more.group(2) or more.group(1))))
            end = more.end()
    return out


def _bad_citations(text: str, where: str) -> list[str]:
    bad = []
    for name, a, b in _cited(text):
        file, span = NAMES[name]
        have = _numbered_lines(file)
        for n in {a, b}:
            if n not in have or n not in span:
                bad.append(f"{where}: '{name} :{n}' is not a numbered line of {file} in {span.start}-{span.stop - 1}")
    return bad


def test_nothing_cites_a_path_outside_the_repository():
    found = []
    for p in _files():
        for k, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{p.relative_to(ROOT)}:{k}: {line.strip()}")
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_the_rules_document_is_cited_where_it_is():
    assert (ROOT / "docs" / "RULES.md").is_file()
    found = []
    writes_docs = {ROOT / "docs", ROOT / PACKAGE_WRITING_DOCS}
    for p in _files():
        inside_docs = p.parent in writes_docs or p == ROOT / PACKAGE_WRITING_DOCS
        for k, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if p == ROOT / "mkdocs.yml" and NAV_ENTRY.search(line):
                continue
            if (RELATIVE_MENTION if inside_docs else MENTION).search(line):
                found.append(f"{p.relative_to(ROOT)}:{k}: {line.strip()}")
    assert not found, "RULES.md cited without its place, docs/RULES.md:\n" + "\n".join(found)


def test_relative_links_in_the_documentation_resolve():
    broken = []
    for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted(ROOT.glob("*/README.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", p.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (p.parent / target).exists():
                broken.append(f"{p.relative_to(ROOT)}: {target}")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_every_source_citation_names_a_line_of_its_source():
    bad = []
    for p in _files():
        bad += _bad_citations(p.read_text(encoding="utf-8", errors="replace"), str(p.relative_to(ROOT)))
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    russian = rules[rules.index("### 5.3") : rules.index("## 6.")]  # bare ":N" there cite Марьяж
    have = _numbered_lines("ru-old-and-marriage.txt")
    for m in BARE.finditer(russian):
        for n in {int(m.group(1)), int(m.group(2) or m.group(1))}:
            if n not in have or n not in range(84, 191):
                bad.append(f"docs/RULES.md 5.3: ':{n}' is not a line of Марьяж (ru-old-and-marriage.txt 84-190)")
    assert not bad, "\n".join(bad)
    assert len(_cited(rules)) > 80  # the rules document cites its sources throughout


def test_the_citation_check_catches_a_wrong_line():
    assert _bad_citations("as pagat :259 says", "x") == []
    assert _bad_citations("(pagat :259, :999)", "x") and _bad_citations("(Britannica :300)", "x")
    assert [c[1:] for c in _cited("ru-classic-66.txt:17, :36 and santase :425-438")] == [(17, 17), (36, 36), (425, 438)]
    assert OUTSIDE.search("see ../shared/RULES.md") and not OUTSIDE.search("see docs/RULES.md")
