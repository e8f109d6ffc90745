"""MkDocs hook: tables written from the code at build time, so the site cannot drift from it.

A page asks for one with a comment line such as ``<!-- generated: vector-layout -->``; the
variant table page (docs/rules.md) is replaced by a fresh ``rulesdoc`` rendering. An unknown
name is a warning, which fails the strict build.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger

log = get_plugin_logger("generated")

ROOT = Path(__file__).resolve().parents[2]
"""The repository: the README and pyproject.toml that tables are read from."""
MARKER = re.compile(r"^<!-- generated: ([\w-]+) -->$", re.M)


def _row(*cells: object) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def _span(start: int, size: int) -> str:
    return f"{start}–{start + size - 1}" if size > 1 else str(start)


def vector_layout() -> str:
    """The two-player vector observation, one row per ``VECTOR_LAYOUT`` part."""
    from sixtysix_env.observers import VECTOR_LAYOUT

    rows = ["| index | part | meaning |", "|---|---|---|"]
    rows += [_row(_span(p.start, p.size), f"`{name}`", p.description) for name, p in VECTOR_LAYOUT.items()]
    return "\n".join(rows)


def table_layout(n: int) -> str:
    """The three- or four-player vector observation, one row per ``table_layout(n)`` part."""
    from sixtysix_env.table.observers import table_layout as layout

    rows = ["| index | part | meaning |", "|---|---|---|"]
    rows += [_row(_span(p.start, p.size), f"`{name}`", p.description) for name, p in layout(n).items()]
    return "\n".join(rows)


def _action_rows(ids: range, text: Callable[[int], str], label: Callable[[int], str]) -> list[str]:
    rows = ["| id | text | action |", "|---:|---|---|"]
    for a in ids:
        try:
            rows.append(_row(a, f"`{text(a)}`", label(a)))
        except ValueError:
            rows.append(_row(a, "", "never legal in this game"))
    return rows


def actions_two() -> str:
    """Every two-player action id with its text form and label (``sixtysix_env.actions``)."""
    from sixtysix_env.actions import NUM_ACTIONS, action_label, action_str

    return "\n".join(_action_rows(range(NUM_ACTIONS), action_str, action_label))


def actions_table() -> str:
    """Every three- and four-player action id (``sixtysix_env.table.actions``)."""
    from sixtysix_env.table.actions import NUM_TABLE_ACTIONS, table_action_label, table_action_str

    return "\n".join(_action_rows(range(NUM_TABLE_ACTIONS), table_action_str, table_action_label))


def _allowed(module: Any) -> dict[str, str]:
    """The values the code accepts for the common options of one env module."""
    from sixtysix_env.envs.options import CLAIMING, EPISODES
    from sixtysix_env.observers import ENCODERS
    from sixtysix_env.rewards import REWARD_SCHEMES

    def quoted(values: Any) -> str:
        return ", ".join(f'`"{v}"`' for v in values)

    name = module.raw_env.metadata["name"]
    if name == "sixtysix_v0":
        from sixtysix_env.rules import preset_names

        presets = quoted(preset_names()) + ", or a `Rules` object"
    else:
        from sixtysix_env.table.rules import FOUR_PRESETS, THREE_PRESETS

        kind = "ThreeRules" if name == "sixtysix_three_v0" else "FourRules"
        presets = quoted(THREE_PRESETS if kind == "ThreeRules" else FOUR_PRESETS) + f", or a `{kind}` object"
    return {
        "rules": presets,
        "observation": quoted(ENCODERS),
        "reward": quoted(REWARD_SCHEMES),
        "episode": quoted(EPISODES),
        "claiming": quoted(CLAIMING) + " or `None` (as the rules say)",
        "render_mode": quoted(module.raw_env.metadata["render_modes"]) + " or `None`",
    }


def _checked_values() -> dict[str, tuple[Any, ...]]:
    """The values each ``check_option("name", value, (...))`` call of the env modules allows, read
    from their source (``seat``, ``wrapper``, ``illegal_action``: options without a constant)."""
    import ast

    import sixtysix_env.envs as envs

    out: dict[str, tuple[Any, ...]] = {}
    for path in sorted(Path(envs.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check_option"):
                continue
            if len(node.args) == 3 and isinstance(node.args[0], ast.Constant):
                try:
                    out[node.args[0].value] = tuple(ast.literal_eval(node.args[2]))
                except ValueError:  # a name, not a literal: the constants of _allowed cover those
                    continue
    return out


OPTION_NOTES = {
    "opponent": "an agent name (`sixtysix_env.agents.agent_names()`), an object with `act(info, rng)`, "
    "or a callable `f(info, rng)`",
    "illegal_reward": "a number, or `None`: minus the largest loss of a deal (−1 with `win_loss`)",
}
"""Options whose values are not a list the code checks against: what they take, in words."""


def _allowed_text(p: inspect.Parameter, allowed: dict[str, str], checked: dict[str, tuple[Any, ...]]) -> str:
    """What one option takes: the code's list of values, else its note, else its annotation."""
    if p.name in allowed:
        return allowed[p.name]
    if p.name in checked:
        return ", ".join(f"`{v!r}`".replace("'", '"') for v in checked[p.name])
    if p.name in OPTION_NOTES:
        return OPTION_NOTES[p.name]
    annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
    if annotation == "bool":
        return "`True` or `False`"
    return f"any `{annotation}`" if annotation else "any value"


def env_options(module: Any) -> str:
    """The keyword options of an env module's ``env()`` and ``raw_env()``, defaults from their signatures."""
    allowed, checked = _allowed(module), _checked_values()
    rows = ["| option | default | allowed | of |", "|---|---|---|---|"]
    params = [(p, "`raw_env()`, `env()`") for p in inspect.signature(module.raw_env.__init__).parameters.values()]
    params += [(p, "`env()` only") for p in inspect.signature(module.env).parameters.values()]
    for p, where in params:
        if p.name == "self" or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
            continue
        default = "" if p.default is p.empty else f"`{p.default!r}`"
        rows.append(_row(f"`{p.name}`", default, _allowed_text(p, allowed, checked), where))
    return "\n".join(rows)


def gym_options() -> str:
    """The keyword options of ``gymnasium.make("SixtySix-v0", ...)`` from ``SixtySixEnv``'s signature."""
    from sixtysix_env.envs import sixtysix_v0
    from sixtysix_env.envs.gym_env import SixtySixEnv

    allowed, checked = _allowed(sixtysix_v0), _checked_values()
    rows = ["| option | default | allowed |", "|---|---|---|"]
    for p in inspect.signature(SixtySixEnv.__init__).parameters.values():
        if p.name == "self" or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
            continue
        default = "" if p.default is p.empty else f"`{p.default!r}`"
        rows.append(_row(f"`{p.name}`", default, _allowed_text(p, allowed, checked)))
    return "\n".join(rows)


def env_docstring(module: Any) -> str:
    """An env module's docstring, as PettingZoo's env pages begin: its summary table, actions,
    arguments and rewards, with its Sphinx roles made links."""
    import ast

    # the docstring as written: the three- and four-player modules append their layout table to
    # ``__doc__`` at import, which the page's Observations section already generates
    text = ast.get_docstring(ast.parse(Path(module.__file__).read_text(encoding="utf-8"))) or ""
    text = text.removesuffix("Vector observation layout:").rstrip()
    return _roles().convert(text, _roles().package_resolver(module.__name__))


def _roles() -> Any:
    """docs/hooks/roles.py (mkdocs loads each hook on its own, not as a package)."""
    import importlib.util
    import sys

    if "docs_hook_roles" not in sys.modules:
        spec = importlib.util.spec_from_file_location("docs_hook_roles", Path(__file__).with_name("roles.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["docs_hook_roles"]


ENV_PAGES = {
    "sixtysix_v0": "two-players.md",
    "sixtysix_three_v0": "three-players.md",
    "sixtysix_four_v0": "four-players.md",
}
"""Each env module's page."""


def envs_overview() -> str:
    """One row per env: players, action space, vector size and registry ids, read from a fresh env."""
    rows = ["| environment | players | actions | vector observation | registry id |", "|---|---|---|---|---|"]
    for name, page in ENV_PAGES.items():
        env = _env(name).raw_env()
        agent = env.possible_agents[0]
        (size,) = env.observation_space(agent)["observation"].shape
        ids = f"`sixtysix/{name}`" + ("; Gymnasium `SixtySix-v0`" if name == "sixtysix_v0" else "")
        space = env.action_space(agent)
        rows.append(
            _row(f"[`{name}`]({page})", len(env.possible_agents), f"`Discrete({space.n})`", f"{size} floats", ids)
        )
    return "\n".join(rows)


def _env(name: str) -> Any:
    import importlib

    return importlib.import_module(f"sixtysix_env.envs.{name}")


def commands() -> str:
    """Every command of the package, from the list ``python -m sixtysix_env`` prints."""
    from sixtysix_env.__main__ import COMMANDS

    rows = ["| command | what it does |", "|---|---|"]
    rows += [_row(f"`python -m sixtysix_env.{name}`", what) for name, what in COMMANDS]
    return "\n".join(rows)


def readme_section(title: str) -> str:
    """A section of the README (its quick start, its ten lines), so that the site and the README
    say the same: the README is the one place each is written."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    if f"\n## {title}\n" not in readme:
        log.warning(f"README.md has no section {title!r}")
        return ""
    return readme.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0].strip()


def extras() -> str:
    """Every optional extra of ``pyproject.toml``: what it installs and, from the comment above it
    there, why (the one place each reason is written)."""
    import ast

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    rows = ["| extra | installs | why |", "|---|---|---|"]
    why: list[str] = []
    lines = iter(section.splitlines())
    for line in lines:
        if line.startswith("#"):
            why.append(line.lstrip("# ").strip())
            continue
        m = re.match(r"^([\w-]+) = (\[.*)$", line)
        if not m:
            why = []
            continue
        body = [m.group(2)]
        while not body[-1].rstrip().endswith("]"):
            body.append(next(lines))
        items = ast.literal_eval("".join(re.sub(r"\s#.*$", "", b) for b in body if not b.strip().startswith("#")))
        shown = ", ".join(f"`{x}`" for x in items)
        rows.append(_row(f"`{m.group(1)}`", shown, " ".join(why)))
        why = []
    return "\n".join(rows)


GENERATORS: dict[str, Callable[[], str]] = {
    "extras": extras,
    "commands": commands,
    "quick-start": lambda: readme_section("Quick start"),
    "ten-lines": lambda: readme_section("Ten lines"),
    "envs-overview": envs_overview,
    "vector-layout": vector_layout,
    "table-layout-3": lambda: table_layout(3),
    "table-layout-4": lambda: table_layout(4),
    "actions-two": actions_two,
    "actions-table": actions_table,
    "options-two": lambda: env_options(_env("sixtysix_v0")),
    "options-three": lambda: env_options(_env("sixtysix_three_v0")),
    "options-four": lambda: env_options(_env("sixtysix_four_v0")),
    "options-gym": gym_options,
    "docstring-two": lambda: env_docstring(_env("sixtysix_v0")),
    "docstring-three": lambda: env_docstring(_env("sixtysix_three_v0")),
    "docstring-four": lambda: env_docstring(_env("sixtysix_four_v0")),
}
"""Every table a page may ask for, by the name in its marker."""


def expand(markdown: str, where: str) -> str:
    """``markdown`` with every marker replaced by its table."""

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in GENERATORS:
            log.warning(f"{where}: no generated table {name!r}; known: {', '.join(GENERATORS)}")
            return m.group(0)
        return GENERATORS[name]()

    return MARKER.sub(one, markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Fill the markers; the variant table page is rendered afresh from the rules dataclasses."""
    if page.file.src_uri == "rules.md":
        from sixtysix_env.rulesdoc import render_rules_page

        markdown = render_rules_page()
    return expand(markdown, page.file.src_uri)
