"""The tutorials (docs/tutorials/): every page runs from top to bottom, as its reader would run it.

Each page's ``python`` blocks are joined in order into one program and run in a fresh process
in an empty folder, with ``SIXTYSIX_TUTORIAL_QUICK=1`` (the budget switch the pages document:
a few hundred training steps, a few deals). A page that needs an extra which is not installed
skips here and fails under CI, which installs every extra.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = ROOT / "docs" / "tutorials"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
OPTIONAL = {"torch", "sb3_contrib", "stable_baselines3", "numba", "PIL"}
"""Extras a tutorial may need (train, fast, render)."""
PAGES = sorted(p.name for p in TUTORIALS.glob("*.md") if p.name != "index.md")


def program(page: str) -> str:
    """The page's Python blocks, in order, as one program."""
    return "\n\n".join(BLOCK.findall((TUTORIALS / page).read_text(encoding="utf-8")))


def test_there_are_the_six_tutorials_and_the_index_and_nav_list_each() -> None:
    assert len(PAGES) == 6, PAGES
    index = (TUTORIALS / "index.md").read_text(encoding="utf-8")

    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    section = nav.split("  - Tutorials:\n", 1)[1].split("\n  - ", 1)[0]  # its indented entries
    for page in PAGES:
        assert f"({page})" in index, f"the tutorials index does not link {page}"
        assert f": tutorials/{page}\n" in section + "\n", f"{page} is not in the nav's Tutorials section"
        assert program(page).count("\n") > 10, f"{page} has almost no code"


@pytest.mark.parametrize("page", PAGES)
def test_the_tutorial_runs(page: str, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "SIXTYSIX_TUTORIAL_QUICK": "1",
        "PYTHONPATH": str(ROOT),
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", program(page)], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900
    )
    if done.returncode != 0:
        missing = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", done.stderr)
        if missing and missing.group(1).split(".")[0] in OPTIONAL and not os.environ.get("CI"):
            pytest.skip(f"{page} needs {missing.group(1)} (an optional extra)")
    assert done.returncode == 0, f"{page} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"{page} printed nothing"
