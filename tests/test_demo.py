"""``python -m sixtysix_env.demo``, the README's first command, run as a new user runs it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from sixtysix_env.demo import main
from sixtysix_env.rules import PRESETS

from .scripts import ROOT

FINAL = re.compile(r"\((\S+)\) wins the match (\d+)-(\d+) in (\d+) deals\.")


def _final_score(text: str, target: int) -> tuple[int, int]:
    found = FINAL.search(text)
    assert found, text[-2000:]
    a, b = int(found.group(2)), int(found.group(3))
    assert max(a, b) >= target > min(a, b) and int(found.group(4)) >= 1
    return a, b


def test_the_readme_command_plays_a_match_and_prints_the_final_score() -> None:
    """Exactly the README's command (the shipped PPO agent against PIMC), in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-m", "sixtysix_env.demo"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert done.stdout.startswith("Match to 7 game points, standard rules: player_0 (ppo) vs player_1 (pimc)")
    _final_score(done.stdout, PRESETS["standard"].match_target)
    assert "decisions, median" in done.stdout and "wall time" in done.stdout


def test_agents_with_options_other_rules_and_the_same_seed_twice(capsys) -> None:
    argv = ["--agents", "heuristic,pimc:samples=2", "--rules", "santase", "--seed", "5"]
    main(argv)
    first = capsys.readouterr().out
    assert _final_score(first, PRESETS["santase"].match_target)
    main(argv)
    again = capsys.readouterr().out
    assert FINAL.search(first).group(0) == FINAL.search(again).group(0)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "nope,random"], "unknown agent 'nope'"),
        (["--agents", "random"], "--agents takes two names"),
        (["--agents", "random,pimc:samples=0"], "pimc:samples=0"),
        (["--seed", "١٢"], "--seed"),
        (["--seed", "1_000"], "--seed"),
        (["--rules", "bridge"], "--rules"),
    ],
)
def test_bad_options_are_usage_errors(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
