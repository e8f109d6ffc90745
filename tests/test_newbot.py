"""The course kit: the newbot template (writes, refuses, plays legally, tests itself) and InfoState's docs."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sixtysix_env import PRESETS, Deal, InfoState
from sixtysix_env.agents import RandomAgent
from sixtysix_env.agents.spec import parse_agent_spec
from sixtysix_env.arena import play_deal
from sixtysix_env.newbot import class_name, main, write_bot

ROOT = Path(__file__).resolve().parents[1]


def test_writes_a_bot_and_never_overwrites(tmp_path, capsys) -> None:
    path = write_bot("my_bot", tmp_path)
    assert path == tmp_path / "my_bot.py"
    text = path.read_text()
    assert "class MyBot:" in text and 'name = "my_bot"' in text and "def act(self, info: InfoState" in text
    assert "python -m sixtysix_env.tournament" in text and "python -m sixtysix_env.arena" in text
    path.write_text("# my work\n")
    with pytest.raises(ValueError, match="already exists"):
        write_bot("my_bot", tmp_path)
    assert path.read_text() == "# my work\n"
    with pytest.raises(SystemExit) as e:
        main(["my_bot", "--dir", str(tmp_path)])
    assert e.value.code == 2 and "already exists" in capsys.readouterr().err
    assert main(["alice", "--dir", str(tmp_path)]) == 0
    assert "AliceBot" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("3bots", "identifier"),
        ("my-bot", "identifier"),
        ("class", "keyword"),
        ("_x", "_"),
        ("random", "module"),
        ("numpy", "module"),
        ("sixtysix_env", "module"),
        ("", "identifier"),
    ],
)
def test_bad_names_are_refused(tmp_path, name, why) -> None:
    with pytest.raises(ValueError, match=why):
        write_bot(name, tmp_path)
    assert not list(tmp_path.iterdir())


def test_bad_folder_is_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        write_bot("ok_bot", tmp_path / "nowhere")


def test_class_names() -> None:
    assert [class_name(n) for n in ("my_bot", "alice", "deep_q_bot", "x2")] == [
        "MyBot",
        "AliceBot",
        "DeepQBot",
        "X2Bot",
    ]


def test_template_plays_legally_under_every_preset(tmp_path) -> None:
    bot = parse_agent_spec(f"{write_bot('student', tmp_path)}:StudentBot").make()
    for k, rules in enumerate([*PRESETS.values(), PRESETS["standard"].replace(claiming="explicit")]):
        for i in range(15):
            deal = Deal.new(rules, random.Random(f"{k}/{i}"), dealer=i % 2)
            play_deal(
                deal, (bot, RandomAgent()) if i % 2 else (RandomAgent(), bot), (random.Random(i), random.Random(i))
            )
            assert deal.is_over


def test_template_is_lint_clean_and_runs_as_a_script(tmp_path) -> None:
    path = write_bot("student", tmp_path)
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff is not None, "ruff is part of the test extra"
    config = ["--config", str(ROOT / "pyproject.toml")]
    for cmd in (["check", *config, str(path)], ["format", "--check", *config, str(path)]):
        done = subprocess.run([ruff, *cmd], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(path), "--deals", "2", "--opponent", "random"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "every action legal" in done.stdout
    # it promises what it plays: 2 duplicate deals, each twice plus the extras that finish a match
    found = re.search(r"student against random, 2 duplicate deals \((\d+) played: each twice", done.stdout)
    assert found and int(found.group(1)) >= 4, done.stdout


def _documented_fields() -> list[str]:
    return [name for name in InfoState.__slots__ if not name.startswith("_")]


def test_every_infostate_field_is_documented() -> None:
    doc = InfoState.__doc__ or ""
    page = (ROOT / "docs" / "writing-a-bot.md").read_text(encoding="utf-8")
    section = page.split("## What an `InfoState` holds")[1].split("\n## ")[0]
    rows = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", section, re.M)}
    for name in _documented_fields():
        assert f"- ``{name}`` (" in doc, f"InfoState docstring lacks {name}"
        assert name in rows, f"docs/writing-a-bot.md InfoState table lacks {name}"
    assert rows <= set(_documented_fields())
