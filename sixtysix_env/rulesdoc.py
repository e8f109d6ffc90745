"""Writes ``docs/rules.md`` from the code: ``python -m sixtysix_env.rulesdoc [--check] [--output PATH]``.

The page is built only from the rules dataclasses (field docstrings, defaults, presets) and
``PRESET_INFO``, so the documentation cannot drift from what the engines play: a test compares
the committed page with a fresh rendering. Attribute docstrings are not kept at run time, so
they are read from the source with ``ast``.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import itertools
import sys
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import Any

from . import rules as rules_module
from .rules import PRESET_INFO, PRESETS, SOURCES, Rules

__all__ = ["field_docs", "render_rules_page", "main"]

DEFAULT_OUTPUT = Path("docs") / "rules.md"


def field_docs(cls: type) -> dict[str, str]:
    """``{field: docstring}`` for a dataclass whose fields are each followed by a string literal."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"cls={cls!r} is not allowed: give a dataclass such as Rules")
    tree = ast.parse(inspect.getsource(inspect.getmodule(cls)))  # type: ignore[arg-type]
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            out = {}
            body = node.body
            for stmt, after in itertools.pairwise(body):
                if (
                    isinstance(stmt, ast.AnnAssign)
                    and isinstance(stmt.target, ast.Name)
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    out[stmt.target.id] = inspect.cleandoc(after.value.value)
            return out
    raise ValueError(f"class {cls.__name__} not found in its module's source")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Enum):
        return v.name.lower()
    if v is None:
        return "-"
    return str(v)


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _fields(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.name != "name"]


def _two_player_section() -> list[str]:
    docs = field_docs(Rules)
    names = list(PRESETS)
    std = PRESETS["standard"]
    out = [
        "## Two players: the presets at a glance",
        "",
        "One row per rule field of `sixtysix_env.rules.Rules`; bold cells differ from `standard`, and "
        "`*` marks a setting the preset's sources do not state (the project's choice: the standard rule "
        "unless the cell is bold).",
        "",
        "| field | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for f in _fields(Rules):
        cells = []
        for n in names:
            v = getattr(PRESETS[n], f)
            cell = _value(v)
            if n != "standard" and v != getattr(std, f):
                cell = f"**{cell}**"
            if f in PRESET_INFO[n].unstated:
                cell += " *"
            cells.append(cell)
        out.append(f"| `{f}` | " + " | ".join(cells) + " |")
    out += ["", "Derived: hand size " + ", ".join(f"{n} {PRESETS[n].hand_size}" for n in names) + ".", ""]

    out += ["## Two players: what each field changes", ""]
    for field in dataclasses.fields(Rules):
        if field.name == "name":
            continue
        choices = rules_module.FIELD_CHOICES.get(field.name)
        kind = " / ".join(f"`{c}`" for c in choices) if choices else f"`{field.type}`"
        out += [f"### `{field.name}`", "", f"{kind}; standard: `{_value(getattr(std, field.name))}`.", ""]
        out += [docs.get(field.name, "(undocumented)"), ""]

    for n in names:
        r, info = PRESETS[n], PRESET_INFO[n]
        out += [f"## Preset `{n}`: {info.title}", "", info.summary, ""]
        out += ["Sources: " + "; ".join(info.sources) + ".", ""]
        diff = r.differences(std)
        if diff:
            out += ["| field | here | standard | what it changes |", "|---|---|---|---|"]
            for f, (mine, theirs) in diff.items():
                star = " *" if f in info.unstated else ""
                out.append(f"| `{f}` | {_value(mine)}{star} | {_value(theirs)} | {_one_line(docs.get(f, ''))} |")
            out.append("")
        elif n == "standard":
            out += ["Every other preset is listed below as its differences from this one.", ""]
        same = sorted(info.unstated - diff.keys())
        if same:
            out += [
                "Not stated by the sources; standard rule used (*): " + ", ".join(f"`{f}`" for f in same) + ".",
                "",
            ]
        for f, note in info.notes:
            out += [f"- `{f}`: {note}."]
        if info.notes:
            out.append("")
        out += [
            f"Use: `sixtysix_v0.env(rules={n!r})`, `Deal.new({n!r}, rng)`, "
            f'`get_rules("{n}").replace(...)` for a custom variant.',
            "",
        ]
    return out


def _multiplayer_sections() -> list[str]:
    try:
        from .table.rules import FOUR_NOTES, FOUR_PRESETS, THREE_NOTES, THREE_PRESETS, FourRules, ThreeRules
    except ImportError:  # pragma: no cover - the package is part of the project
        return []
    out: list[str] = []
    for title, cls, presets, notes, env in (
        ("Three players (docs/RULES.md 5.1)", ThreeRules, THREE_PRESETS, THREE_NOTES, "sixtysix_three_v0"),
        ("Four players in partnerships (docs/RULES.md 5.2)", FourRules, FOUR_PRESETS, FOUR_NOTES, "sixtysix_four_v0"),
    ):
        docs = field_docs(cls)
        names = list(presets)
        out += [f"## {title}", "", _one_line(inspect.getdoc(cls) or ""), ""]
        out += ["| field | " + " | ".join(f"`{n}`" for n in names) + " | what it changes |"]
        out += ["|---|" + "---|" * (len(names) + 1)]
        for f in _fields(cls):
            cells = " | ".join(_value(getattr(presets[n], f)) for n in names)
            out.append(f"| `{f}` | {cells} | {_one_line(docs.get(f, ''))} |")
        out += ["", *(f"- {note}" for note in notes), ""]
        out += [f"Use: `{env}.env(rules=...)` with a preset name above or a `{cls.__name__}` object.", ""]
    return out


def render_rules_page() -> str:
    """The whole ``docs/rules.md`` text."""
    lines = [
        "# Rule variants",
        "",
        "<!-- Generated by `python -m sixtysix_env.rulesdoc` from sixtysix_env/rules.py and "
        "sixtysix_env/table/rules.py: edit those, not this page. -->",
        "",
        "Every variant is data: a preset of the `Rules` dataclass played by the one two-player engine, "
        "or of `ThreeRules` / `FourRules` for the three- and four-player games. The rules themselves are "
        "described in full in [RULES.md](RULES.md). Sources are cited by name and line, such as `pagat :259`: "
        "the line numbered 259 in that source's file in [rules-sources/](rules-sources/):",
        "",
        *(f"- {name}: {where}" for name, where in SOURCES.items()),
        "",
        *_two_player_section(),
        *_multiplayer_sections(),
    ]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sixtysix_env.rulesdoc [--check]``: write (or compare) docs/rules.md; returns the exit status."""
    parser = argparse.ArgumentParser(description="Write the rule variants page (docs/rules.md) from the code.")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="where to write (default docs/rules.md)")
    parser.add_argument("--check", action="store_true", help="only check that the page is up to date")
    args = parser.parse_args(argv)
    text = render_rules_page()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else None
        if current != text:
            print(f"{args.output} is out of date: run python -m sixtysix_env.rulesdoc", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
