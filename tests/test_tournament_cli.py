"""Tournament CLI: ``--resume`` after the host is killed (kill -9), ``--include path.py:Class``, and
the warning when bots under their own user ids cannot read Python."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from sixtysix_env.tournament import main
from sixtysix_env.tournament.run import python_paths, unreadable_by_others

STEADY = """
import time


class Steady:
    def act(self, info, rng):
        time.sleep(0.03)  # slow enough to kill the host mid-run
        return rng.choice(info.legal_actions())
"""
MINE = """
class MyBot:
    def act(self, info, rng):
        return info.legal_actions()[-1]
"""
COMPARED = ("deals.csv", "pairs.csv", "elo.csv", "faults.csv")


def _league(out: Path) -> str:
    return (out / "league.md").read_text().split("## League")[1].split("## Decision time")[0]


def test_resume_after_the_host_is_killed_gives_the_uninterrupted_standings(tmp_path, capsys) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "steady.py").write_text(textwrap.dedent(STEADY))
    key = tmp_path / "tournament.key"
    key.write_text("ab" * 32 + "\n")
    args = [str(folder), "--include", "random", "--deals", "6", "--block", "1", "--key-file", str(key)]
    killed = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    said = tmp_path / "killed.txt"  # what the host printed, shown if it ended on its own
    with said.open("w") as output:
        proc = subprocess.Popen(
            [sys.executable, "-m", "sixtysix_env.tournament", *args, "--out", str(killed), "--no-progress"],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    journal = killed / "journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.is_file() and journal.read_text().count("\n") >= 3:  # the header and two blocks
            break
        time.sleep(0.02)
    assert proc.poll() is None, f"the run ended before it could be killed: {said.read_text()[-3000:]}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    blocks_before = journal.read_text().count('"tasks"')
    assert 2 <= blocks_before < 6 and not (killed / "league.md").exists()

    assert main([*args, "--out", str(killed), "--resume", "--no-progress"]) == 0
    whole = tmp_path / "whole"
    assert main([*args, "--out", str(whole), "--no-progress"]) == 0
    capsys.readouterr()
    for name in COMPARED:
        assert (killed / name).read_text() == (whole / name).read_text(), name
    assert _league(killed) == _league(whole)
    lines = journal.read_text().splitlines()
    assert lines[0].startswith('{"journal": 1') and sum('"journal"' in x for x in lines) == 1
    assert sum('"tasks"' in x for x in lines) == 6  # the killed run's blocks kept, only the rest played


def test_resume_without_the_key_of_a_killed_run_is_refused(tmp_path) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "mine.py").write_text(MINE)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "journal.jsonl").write_text('{"journal": 1}\n')
    with pytest.raises(SystemExit) as e:
        main([str(folder), "--include", "random", "--out", str(tmp_path / "out"), "--resume"])
    assert e.value.code == 2


def _include_run(tmp_path: Path, spec: str, out: Path) -> int:
    folder = tmp_path / "bots"
    folder.mkdir(exist_ok=True)
    return main([str(folder), "--include", f"random,{spec}", "--deals", "1", "--block", "1", "--out", str(out)])


def test_include_a_bot_file_by_a_relative_path(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "extra").mkdir()
    (tmp_path / "extra" / "mybot.py").write_text(MINE)
    monkeypatch.chdir(tmp_path)
    assert _include_run(tmp_path, "extra/mybot.py:MyBot", Path("league")) == 0
    assert "2 bots played, 0 disqualified" in capsys.readouterr().out
    assert f"extra/mybot.py:MyBot,{tmp_path}/extra/mybot.py,plays" in (tmp_path / "league" / "bots.csv").read_text()
    assert (tmp_path / "league" / "logs" / "mybot.py_MyBot.log").is_file()
    with pytest.raises(SystemExit) as e:  # a path that is not there: a clear reason, before anything runs
        _include_run(tmp_path, "extra/nobot.py:MyBot", Path("other"))
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"bot file 'extra/nobot.py' not found (looked for {tmp_path / 'extra' / 'nobot.py'})" in err
    assert not (tmp_path / "other" / "logs").exists()


def test_include_a_bot_file_by_an_absolute_path_keeps_its_log_inside_out(tmp_path, capsys) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "mybot.py").write_text(MINE)
    out = tmp_path / "league"
    assert _include_run(tmp_path, f"{elsewhere / 'mybot.py'}:MyBot", out) == 0
    assert "2 bots played, 0 disqualified" in capsys.readouterr().out
    logs = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.log"))
    assert logs == [Path("league/logs/mybot.py_MyBot.log"), Path("league/logs/random.log")]


def test_a_python_that_other_users_cannot_read_is_named() -> None:
    root = Path(tempfile.mkdtemp())  # under /tmp: pytest's own tmp_path is not readable by others
    try:
        lib = root / "home" / "lib"
        lib.mkdir(parents=True)
        for p in (root, root / "home", lib):
            p.chmod(0o755)
        assert unreadable_by_others([str(lib), str(root / "missing")]) is None
        (root / "home").chmod(0o700)  # like /root/.pyenv: a bot under its own uid cannot enter it
        assert unreadable_by_others([str(lib)]) == str(root / "home")
        (root / "home").chmod(0o755)
        lib.chmod(0o711)  # can enter, cannot list
        assert unreadable_by_others([str(lib)]) == str(lib)
    finally:
        shutil.rmtree(root)
    assert str(Path(__file__).resolve().parents[1]) in python_paths()
