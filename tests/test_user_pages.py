"""What a newcomer reads: the README and the documentation pages say what is true for a user's
machine, without the project's bookkeeping (issue numbers, test counts that go stale)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sixtysix_env
from sixtysix_env.agents import pimc
from sixtysix_env.cards import CARD_POINTS, NUM_RANKS, RANK_LETTERS, SUIT_SYMBOLS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
USER_PAGES = [
    ROOT / "README.md",
    *sorted(DOCS.rglob("*.md")),
    *(
        ROOT / folder / "README.md"
        for folder in ("baselines", "benchmarks", "examples")
        if (ROOT / folder / "README.md").exists()
    ),
    *sorted((ROOT / "sixtysix_env").rglob("*.py")),  # the API reference renders their docstrings
]
"""The site's pages: docs/, the READMEs it copies under repo/, and the modules' docstrings."""


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_user_pages_cite_no_issue_numbers():
    """A reader cannot open the project's issue tracker: 'issue 23' tells him nothing."""
    pattern = re.compile(r"\bissues?[ -]#?\d+|#\d+\b(?![\w-])", re.IGNORECASE)
    found = [
        f"{page.relative_to(ROOT)}:{n}: {m.group(0)}"
        for page in USER_PAGES
        for n, line in enumerate(_text(page).splitlines(), 1)
        for m in pattern.finditer(line)
        if not line.lstrip().startswith(("<!--", "|---"))
    ]
    assert not found, "user pages cite issue numbers:\n" + "\n".join(found)


def test_the_issue_pattern_has_power():
    pattern = re.compile(r"\bissues?[ -]#?\d+|#\d+\b(?![\w-])", re.IGNORECASE)
    assert all(pattern.search(s) for s in ("(issue 23)", "Issue #12", "issues 12", "see #21", "issue-23"))
    assert not any(pattern.search(s) for s in ("[x](oracle.md#measured-with)", "open issues", "color #fff"))


def test_the_development_page_states_no_test_count_or_time_that_goes_stale():
    text = _text(DOCS / "development.md")
    stale = re.findall(r"\b\d[\d,]* tests\b|\btests in \d", text)
    assert not stale, f"docs/development.md states numbers that go stale: {stale}"


def test_the_frameworks_page_does_not_promise_a_cpu_build_from_a_plain_pin():
    """`pip install torch==X` is the CUDA build on a user's Linux machine: only CI's local files are CPU."""
    text = _text(DOCS / "frameworks.md")
    for line in text.splitlines():
        if re.search(r"pip install torch==", line):
            assert "CPU" not in line, f"docs/frameworks.md: {line.strip()!r}"
    assert "CPU wheel index" in text or "CPU-only" in text


def test_the_readme_says_to_import_the_package_before_pettingzoo_make():
    text = _text(ROOT / "README.md")
    at = text.index('pettingzoo.make("aec", "sixtysix/sixtysix_v0")')
    assert "import sixtysix_env" in text[max(0, at - 400) : at], "the README must show `import sixtysix_env` first"
    # and it is true: in a fresh interpreter the id is missing until the package is imported
    code = (
        "import pettingzoo\n"
        "try:\n    pettingzoo.make('aec', 'sixtysix/sixtysix_v0'); print('found')\n"
        "except Exception:\n    print('missing')\n"
        "import sixtysix_env\n"
        "print(pettingzoo.make('aec', 'sixtysix/sixtysix_v0').metadata['name'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["missing", "sixtysix_v0"]


def test_the_bot_template_points_to_pages_that_exist():
    template = _text(Path(sixtysix_env.__file__).parent / "templates" / "bot.py.txt")
    assert "README's InfoState table" not in template
    named = re.findall(r"docs/[\w./-]+\.md", template)
    assert named, "the template should name the page that explains the InfoState"
    for page in named:
        assert (ROOT / page).is_file(), f"the bot template points to {page}, which does not exist"


def test_the_write_a_bot_page_gives_the_engines_card_order_and_points():
    text = _text(DOCS / "writing-a-bot.md")
    rows = {
        line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
        for line in text.splitlines()
        if line.startswith("| ") and not line.startswith("|---")
    }
    ranks = ["10" if r == "T" else r for r in RANK_LETTERS]
    assert rows["rank (ascending strength)"] == ranks
    assert rows["rank index"] == [str(i) for i in range(NUM_RANKS)]
    assert rows["card points"] == [str(p) for p in CARD_POINTS[:NUM_RANKS]]
    suits = rows["suit"]
    assert [s.split()[0] for s in suits] == list(SUIT_SYMBOLS)
    assert rows["card ids"] == [f"{6 * s}–{6 * s + 5}" for s in range(4)]


def test_the_pimc_docstring_says_what_and_why_and_the_measurements_are_in_the_docs():
    doc = pimc.__doc__ or ""
    assert len(doc.splitlines()) <= 30, f"pimc's module docstring has {len(doc.splitlines())} lines"
    agents = _text(DOCS / "agents.md")
    assert "## PIMC: what each option measured" in agents
    for fact in ("+0.037 points per deal", "75.1% of 1,000 games on seed 0", "+0.985 against +0.794"):
        assert fact in agents, f"docs/agents.md lost the PIMC measurement {fact!r}"


def _arena_commands(page: Path) -> list[str]:
    return [
        line.split("#")[0].strip()
        for line in _text(page).splitlines()
        if line.startswith("python -m sixtysix_env.arena ")
    ]


def test_the_training_page_evaluates_the_models_it_trains(tmp_path):
    """Each arena command of the training page runs on the file the training command before it
    writes (here a copy of the shipped model of that name), in a short run."""
    commands = _arena_commands(DOCS / "training.md")
    assert any("results/ppo_standard.npz" in c for c in commands), "no evaluation of train_ppo.py's model"
    assert any("results/fast_vu.npz" in c for c in commands), "no evaluation of train_fast.py's model"
    models = Path(sixtysix_env.__file__).parent / "models"
    (tmp_path / "results").mkdir()
    shutil.copy(models / "ppo_standard.npz", tmp_path / "results" / "ppo_standard.npz")
    shutil.copy(models / "fast_vu.npz", tmp_path / "results" / "fast_vu.npz")
    for command in commands:
        argv = shlex.split(command)[1:]
        argv = [*argv[: argv.index("--deals") + 1], "1", *argv[argv.index("--deals") + 2 :]]
        argv = [a for a in argv if not a.startswith("results/eval")]
        if "--out" in argv and argv.index("--out") == len(argv) - 1:
            argv.append(str(tmp_path / "eval"))
        out = subprocess.run(
            [sys.executable, *argv, "--no-progress"], cwd=tmp_path, capture_output=True, text=True, timeout=300
        )
        assert out.returncode == 0, f"{command}\n{out.stderr[-2000:]}"
        assert "Elo" in out.stdout


@pytest.mark.parametrize("page", ["frameworks.md", "two-players.md"])
def test_the_pages_that_promise_action_masks_say_how_through_a_wrapper(page):
    text = _text(DOCS / page)
    assert "action_masks()" in text and 'get_wrapper_attr("action_masks")' in text
