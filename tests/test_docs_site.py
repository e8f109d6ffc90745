"""The documentation site: it builds in strict mode, its generated tables equal the code, a
missing docstring or a broken link fails the build, and every Python example on it runs."""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import logging
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.docs_build import ROOT, built_site, require_mkdocs

HOOKS = ROOT / "docs" / "hooks"


def _hook(name: str):
    spec = importlib.util.spec_from_file_location(f"docs_hook_{name}", HOOKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site() -> Path:
    require_mkdocs()
    build = built_site()
    assert build.returncode == 0, build.output[-4000:]
    return build.site


class _Tables(HTMLParser):
    """Every table of a page as rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _tables(site: Path, page: str, header: list[str]) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed((site / page / "index.html").read_text(encoding="utf-8"))
    found = [t[1:] for t in parser.tables if t and t[0] == header]
    assert found, f"{page}: no table with the header {header}"
    return found


def _span(start: int, size: int) -> str:
    return f"{start}–{start + size - 1}" if size > 1 else str(start)


def test_the_site_builds_in_strict_mode_without_a_warning(site: Path) -> None:
    build = built_site()
    assert "WARNING" not in build.output, build.output
    for page in ("index.html", "two-players/index.html", "api/index.html", "variant-table/index.html"):
        assert (site / page).is_file(), page
    assert (site / "search" / "search_index.json").is_file()


def test_the_observation_tables_equal_the_layouts_in_the_code(site: Path) -> None:
    from sixtysix_env.observers import VECTOR_LAYOUT
    from sixtysix_env.table.observers import table_layout

    layouts = {"two-players": VECTOR_LAYOUT, "three-players": table_layout(3), "four-players": table_layout(4)}
    for page, layout in layouts.items():
        (rows,) = _tables(site, page, ["index", "part", "meaning"])
        want = [[_span(p.start, p.size), name, " ".join(p.description.split())] for name, p in layout.items()]
        assert rows == want, page


def test_the_action_tables_equal_the_action_functions(site: Path) -> None:
    from sixtysix_env.actions import NUM_ACTIONS, action_label, action_str
    from sixtysix_env.table.actions import NUM_TABLE_ACTIONS, table_action_label, table_action_str

    (rows,) = _tables(site, "two-players", ["id", "text", "action"])
    assert rows == [[str(a), action_str(a), action_label(a)] for a in range(NUM_ACTIONS)]
    for page in ("three-players", "four-players"):
        (rows,) = _tables(site, page, ["id", "text", "action"])
        assert len(rows) == NUM_TABLE_ACTIONS
        for a, row in enumerate(rows):
            try:
                assert row == [str(a), table_action_str(a), table_action_label(a)]
            except ValueError:
                assert row == [str(a), "", "never legal in this game"]


def test_the_option_tables_list_every_parameter_with_its_default(site: Path) -> None:
    from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0, sixtysix_v0
    from sixtysix_env.envs.gym_env import SixtySixEnv

    def params(fn: object) -> list[list[str]]:
        ps = inspect.signature(fn).parameters.values()
        return [
            [p.name, "" if p.default is p.empty else repr(p.default)]
            for p in ps
            if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
        ]

    envs = {"two-players": sixtysix_v0, "three-players": sixtysix_three_v0, "four-players": sixtysix_four_v0}
    for page, module in envs.items():
        (rows,) = _tables(site, page, ["option", "default", "allowed", "of"])
        assert [r[:2] for r in rows] == params(module.raw_env.__init__) + params(module.env), page
    (rows,) = _tables(site, "two-players", ["option", "default", "allowed"])
    assert [r[:2] for r in rows] == params(SixtySixEnv.__init__)
    rules_row = next(r for r in rows if r[0] == "rules")
    from sixtysix_env.rules import preset_names

    assert all(f'"{name}"' in rules_row[2] for name in preset_names())


def _markdown_tables(text: str) -> list[list[str]]:
    """The first column of every Markdown table, markup removed."""
    tables: list[list[str]] = []
    previous = ""
    for line in text.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|[-:| ]+\|", line):
            if not previous.startswith("|"):
                tables.append([])
            cell = re.split(r"(?<!\\)\|", line)[1]
            tables[-1].append(" ".join(re.sub(r"[`*]", "", cell).split()))
        previous = line
    return tables


def test_the_variant_table_page_is_the_rulesdoc_rendering(site: Path) -> None:
    from sixtysix_env.rulesdoc import render_rules_page

    parser = _Tables()
    parser.feed((site / "variant-table" / "index.html").read_text(encoding="utf-8"))
    shown = [[row[0] for row in table] for table in parser.tables]
    want = _markdown_tables(render_rules_page())
    assert len(want) > 3 and shown == want


def test_every_public_name_has_its_api_entry(site: Path) -> None:
    api = _hook("api_pages")
    docs = api.collect()
    assert not [f"{d.path}.{n}" for d in docs for n in d.missing]
    for doc in docs:
        html = (site / "api" / doc.path / "index.html").read_text(encoding="utf-8")
        for name in doc.members:
            assert f'id="{doc.path}.{name}"' in html, f"{doc.path}.{name}"


def test_a_public_name_without_a_docstring_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_mkdocs()
    pkg = tmp_path / "toypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        '"""A toy."""\n__all__ = ["f", "g", "X", "Y"]\n\n'
        'def f():\n    """Documented."""\n\n\ndef g():\n    pass\n\n\n'
        'X = 1\n"""Documented."""\nY = 2\n',
        encoding="utf-8",
    )
    (pkg / "_private.py").write_text('__all__ = ["h"]\n\ndef h():\n    pass\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    api = _hook("api_pages")
    (doc,) = api.collect("toypkg", tmp_path)
    assert doc.missing == ["g", "Y"]
    assert doc.members == ["f", "g", "X", "Y"]


def test_a_lazily_imported_name_is_found_from_the_source_without_importing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``sixtysix_env.web.create_app``: the package imports it in ``__getattr__`` from a module
    that needs a package the docs extra lacks (Flask), so the hook must not import it."""
    require_mkdocs()
    pkg = tmp_path / "lazypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        '"""A toy."""\n__all__ = ["make"]\n\n\ndef __getattr__(name):\n'
        '    if name == "make":\n        from .heavy import make\n\n        return make\n'
        "    raise AttributeError(name)\n",
        encoding="utf-8",
    )
    (pkg / "heavy.py").write_text(
        '"""Needs a package that is not installed."""\nimport not_an_installed_package\n\n'
        '__all__ = ["make"]\n\n\ndef make():\n    """Documented."""\n',
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    api = _hook("api_pages")
    init, heavy = api.collect("lazypkg", tmp_path)
    assert init.missing == [] and init.elsewhere == {"make": "lazypkg.heavy.make"}
    assert heavy.members == ["make"]
    assert "lazypkg.heavy" not in sys.modules


def test_a_link_to_a_missing_file_is_a_warning_and_outside_links_point_into_the_copy(
    caplog: pytest.LogCaptureFixture,
) -> None:
    require_mkdocs()
    from mkdocs.structure.files import Files

    hook = _hook("repo_files")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="training.md", generated_by=None))
    text = "See [the baselines](../baselines/README.md#fast), [gone](../nowhere.md) and\n```\n[code](x.md)\n```\n"
    with caplog.at_level(logging.WARNING):
        out = hook.on_page_markdown(text, page, {}, Files([]))
    assert "[the baselines](repo/baselines/README.md#fast)" in out
    assert "[code](x.md)" in out  # code blocks are left alone
    assert any("nowhere.md" in r.getMessage() for r in caplog.records)


# The Python examples: every ```python block of the pages (and the README) runs as a script.
EXAMPLE = re.compile(r"^(<!-- example: fragment -->\n)?```python\n(.*?)^```", re.M | re.S)
"""A block after the line ``<!-- example: fragment -->`` is part of a larger program: it is only compiled."""
SHORTER = {"learn(50_000)": "learn(256)"}
"""Examples that train: the same code with a budget a test can afford."""
OPTIONAL = {"torch", "sb3_contrib", "stable_baselines3", "numba", "moviepy", "PIL", "pyspiel", "ray", "flask"}
"""Extras an example may need: without them it skips here, and fails under CI (which installs them)."""
OPTIONAL |= {"jax", "pgx"}  # the JAX engine's page (docs/jax.md)


def _examples() -> list[tuple[str, str]]:
    out = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for k, m in enumerate(EXAMPLE.finditer(text), 1):
            out.append((f"{page.relative_to(ROOT)}#{k}", ("#fragment\n" if m.group(1) else "") + m.group(2)))
    return out


@pytest.mark.parametrize(("where", "code"), _examples(), ids=[w for w, _ in _examples()])
def test_every_python_example_runs(where: str, code: str, tmp_path: Path) -> None:
    if code.startswith("#fragment\n"):
        compile(code, where, "exec")
        return
    for old, new in SHORTER.items():
        code = code.replace(old, new)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900
    )
    if done.returncode != 0:
        missing = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", done.stderr)
        if missing and missing.group(1).split(".")[0] in OPTIONAL and not os.environ.get("CI"):
            pytest.skip(f"{where} needs {missing.group(1)} (an optional extra)")
    assert done.returncode == 0, f"{where} failed:\n{code}\n{done.stderr[-3000:]}"


# The API reference and the env pages: roles as links, constants as values, the sidebar by layer.
RAW_ROLE = re.compile(r":(?:py:)?(?:class|mod|func|meth|data|attr|obj|exc|const|type):(?:`|<code>)")
"""A Sphinx role as it shows when nothing resolved it: ``:class:`` before the quoted name."""


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("index.html"))


def test_no_page_shows_a_raw_sphinx_role_and_roles_became_links(site: Path) -> None:
    raw = [str(p.relative_to(site)) for p in _pages(site) if RAW_ROLE.search(p.read_text(encoding="utf-8"))]
    assert not raw, f"pages showing a raw :role: {raw}"
    host = (site / "api" / "sixtysix_env.tournament.host" / "index.html").read_text(encoding="utf-8")
    # the module docstring's :class:`Zygote` and :mod:`.sandbox`, now links to their entries
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]*href="#sixtysix_env\.tournament\.host\.Zygote"', host)
    assert re.search(r'href="\.\./sixtysix_env\.tournament\.sandbox/#sixtysix_env\.tournament\.sandbox"', host)


def test_roles_resolve_as_sphinx_resolves_them() -> None:
    require_mkdocs()
    roles = _hook("roles")
    resolve = roles.package_resolver("sixtysix_env.web")
    assert resolve(".view") == "sixtysix_env.web.view"  # the nearest of web.view, play.view, multiplayer.view
    assert resolve(".app") == "sixtysix_env.web.app"
    assert resolve("html.escape") is None
    host = roles.package_resolver("sixtysix_env.tournament.host")
    assert host("Zygote") == "sixtysix_env.tournament.host.Zygote"
    assert host(".sandbox.MAX_MESSAGE") == "sixtysix_env.tournament.sandbox.MAX_MESSAGE"
    assert host("..engine.Deal") == "sixtysix_env.engine.Deal"  # two dots: a relative import's parent
    assert host("sixtysix_env.engine.Deal") == "sixtysix_env.engine.Deal"
    text = roles.convert("see :func:`~.x.y`, :class:`Deal <sixtysix_env.engine.Deal>` and :mod:`.gone`", host)
    assert ":func:" not in text and ":class:" not in text and ":mod:" not in text
    assert '<autoref identifier="sixtysix_env.engine.Deal" optional><code>Deal</code></autoref>' in text
    assert "`y`" in text and "`gone`" in text  # unresolved: plain code, never a broken link


def test_constants_render_as_values_under_a_plain_heading(site: Path) -> None:
    html = (site / "api" / "sixtysix_env.rules" / "index.html").read_text(encoding="utf-8")
    heading = re.search(r'<h2 id="sixtysix_env\.rules\.PRESETS"[^>]*>(.*?)</h2>', html, re.S)
    assert heading, "no heading for PRESETS"
    assert "standard" not in heading.group(1) and "=" not in re.sub(r"<[^>]+>", "", heading.group(1))
    after = html[heading.end() : heading.end() + 3000]
    assert "PRESETS" in after and "standard" in after and "russian" in after  # the value, in a code block


def test_the_api_sidebar_is_grouped_by_layer_and_leaves_internal_modules_out(site: Path) -> None:
    api = _hook("api_pages")
    docs = api.collect()
    sections = api.nav(docs)
    assert [next(iter(s)) for s in sections[1:]] == ["Engine", "Environments", "Agents", "Tools"]
    listed = {path for s in sections[1:] for entry in next(iter(s.values())) for path in entry.values()}
    internal = [d.path for d in docs if not api.in_nav(d.path)]
    assert len(listed) < 70 and len(internal) > 40, (len(listed), len(internal))
    assert {api.layer(p) for p in ("sixtysix_env.engine", "sixtysix_env.table.deal")} == {"Engine"}
    assert api.layer("sixtysix_env.table.observers") == "Environments"
    assert api.layer("sixtysix_env.fast.batch") == "Environments"
    assert api.layer("sixtysix_env.agents.pimc") == "Agents"
    assert api.layer("sixtysix_env.arena.run") == "Tools"
    html = (site / "api" / "sixtysix_env.rules" / "index.html").read_text(encoding="utf-8")
    sidebar = html[html.index('class="md-nav md-nav--primary"') : html.index('md-sidebar--secondary"')]
    for name in ("Engine", "Environments", "Agents", "Tools"):
        assert re.search(rf">\s*{name}\s*<", sidebar), f"no {name} section in the sidebar"
    assert "sixtysix_env.arena.checks/" not in sidebar  # an internal module: its page exists, unlisted
    assert (site / "api" / "sixtysix_env.arena.checks" / "index.html").is_file()
    index = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert all(f"{d.path}/" in index for d in docs)  # the index reaches every page, internal ones too


ENV_PAGES = {"two-players": "sixtysix_v0", "three-players": "sixtysix_three_v0", "four-players": "sixtysix_four_v0"}


def test_env_pages_are_the_docstring_and_generated_tables_without_hand_copies(site: Path) -> None:
    import ast

    for page, name in ENV_PAGES.items():
        source = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
        hand = [line for line in source.splitlines() if line.startswith("|")]
        assert not hand, f"docs/{page}.md has a hand-written table: {hand[:2]}"
        html = (site / page / "index.html").read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse((ROOT / "sixtysix_env" / "envs" / f"{name}.py").read_text(encoding="utf-8")))
        first = doc.split("\n")[0]
        assert first in html, f"{page}: the docstring of {name} is not on the page"
        assert html.index(first) < html.index('id="options"' if page != "two-players" else 'id="environment-options"')
        assert "Registry id" in html and f"sixtysix/{name}" in html
        assert "see below" not in html, f"{page} says 'see below'"
    (rows,) = _tables(site, "two-players", ["option", "default", "allowed", "of"])
    assert all(row[2] for row in rows), rows
    wrapper = next(r for r in rows if r[0] == "wrapper")
    assert wrapper[2] == '"fused", "pettingzoo"'  # read from the check in the code


def test_no_docstring_table_row_is_split_over_two_lines() -> None:
    import ast

    split = []
    for path in sorted((ROOT / "sixtysix_env").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (ast.get_docstring(node) or "").splitlines()
                for before, line in itertools.pairwise(lines):
                    if (
                        re.match(r"\|\s+\|", line)
                        and before.startswith("|")
                        and not re.fullmatch(r"\|[-:| ]+\|", before)
                    ):
                        split.append(f"{path.relative_to(ROOT)}: {line.strip()[:60]}")
    assert not split, split
