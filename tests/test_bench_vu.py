"""``benchmarks/bench_vu.py``: our agents against the ``schnapsen`` package's bots in its own engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .scripts import load_script

pytest.importorskip("schnapsen")  # in the `test` extra, so CI has it (and a skip fails there)

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "bench_vu.py"


def _bench_vu():
    return load_script("benchmarks/bench_vu.py")


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), "--no-progress", *args]
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)


def test_four_games_of_random_against_rand_add_up(tmp_path) -> None:
    out = tmp_path / "vu.json"
    done = _run(tmp_path, "--agents", "random", "--opponent", "rand", "--games", "4", "--seed", "3", "--json", str(out))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(line for line in lines if line.startswith("| agent"))
    assert "win rate vs rand [95% CI]" in header and "its CPU ms/decision" in header
    row = next(line for line in lines if line.startswith("| random"))
    assert row.split("|")[2].strip() == "4"
    doc = json.loads(out.read_text())
    (agent,) = doc["agents"]
    games, s = agent["games"], agent["summary"]
    assert [g["index"] for g in games] == [0, 1, 2, 3]
    assert [g["seat"] for g in games] == [0, 1, 0, 1]  # bot1 in even games, bot2 in odd ones
    assert all(g["error"] is None for g in games)
    assert all(1 <= abs(g["points"]) <= 3 and (g["points"] > 0) == g["won"] for g in games)
    assert all(g["our_decisions"] >= 1 and g["their_decisions"] >= 1 for g in games)  # a trick each at least
    assert s["games"] == 4 and s["errors"] == 0
    assert s["first_games"] == s["second_games"] == 2
    assert s["wins"] == s["first_wins"] + s["second_wins"] == sum(g["won"] for g in games)
    assert 0 <= s["win_rate"] <= 1 and s["win_rate"] == s["wins"] / 4
    lo, hi = s["win_rate_ci"]
    assert 0 <= lo <= s["win_rate"] <= hi <= 1
    assert s["points_per_game"] == sum(g["points"] for g in games) / 4


def test_same_seed_same_games_whatever_the_workers(tmp_path) -> None:
    bench = _bench_vu()
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        args = ["--agents", "random,heuristic", "--opponent", "bully", "--games", "6", "--seed", "5"]
        bench.main([*args, "--workers", workers, "--json", str(out), "--no-progress"])
        doc = json.loads(out.read_text())
        runs.append([[(g["won"], g["points"], g["our_decisions"]) for g in a["games"]] for a in doc["agents"]])
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[0][1]  # the two agents played differently on the same decks


def test_opponents_by_text() -> None:
    bench = _bench_vu()
    import random

    from schnapsen.bots import BullyBot, RandBot, RdeepBot

    assert isinstance(bench.make_opponent("rdeep:8:2", random.Random(0)), RdeepBot)
    assert isinstance(bench.make_opponent("rand", random.Random(0)), RandBot)
    assert isinstance(bench.make_opponent("bully", random.Random(0)), BullyBot)
    assert bench.opponent_label("rdeep") == "RdeepBot(16, 4)" == bench.opponent_label("rdeep:16:4")
    allowed = r"unknown opponent 'rdep'.*rdeep\[:SAMPLES\[:DEPTH\]\].*rand.*bully.*alphabeta"
    with pytest.raises(ValueError, match=allowed):
        bench.make_opponent("rdep", random.Random(0))
    with pytest.raises(ValueError, match="SAMPLES must be at least 1, got 0"):
        bench.make_opponent("rdeep:0", random.Random(0))


def test_phase_two_opponent_plays_whole_games(tmp_path) -> None:
    done = _run(tmp_path, "--agents", "heuristic", "--opponent", "alphabeta:bully", "--games", "2")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("| heuristic"))
    assert row.split("|")[2].strip() == "2" and row.split("|")[-2].strip() == "0"  # two games, no errors


def test_bad_input_is_named(tmp_path, capsys) -> None:
    bench = _bench_vu()
    for args, message in (
        (["--opponent", "nope"], "unknown opponent 'nope'"),
        (["--agents", "sixtysix_env.agents.table.pimc:TablePIMCAgent"], "is a table agent"),
        (["--agents", "pimc,nobody"], "unknown agent 'nobody'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--json", str(tmp_path / "missing" / "x.json")], "not a file in a writable folder"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            bench.main(["--games", "2", "--no-progress", *args])
        assert exit_info.value.code == 2 and message in capsys.readouterr().err, args


def test_without_the_package_it_names_the_pip_command(monkeypatch) -> None:
    bench = _bench_vu()
    for name in ("schnapsen", "schnapsen.bots", "schnapsen.game"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(SystemExit, match="pip install schnapsen"):
        bench.main(["--games", "1", "--no-progress"])


def test_statistics_of_a_handful_of_games() -> None:
    bench = _bench_vu()
    results = [
        bench.GameResult(0, 0, True, 2, 0.010, 10, 0.100, 10),
        bench.GameResult(1, 1, False, -1, 0.010, 10, 0.100, 10),
        bench.GameResult(2, 0, False, 0, 0.0, 3, 0.0, 3, error="ValueError: no consistent deal"),
        bench.GameResult(3, 1, True, 3, 0.010, 10, 0.100, 10),
    ]
    s = bench.summarize("x", results, wall_s=1.0)
    assert (s["games"], s["errors"], s["wins"]) == (3, 1, 2)
    assert s["win_rate_ci"] == pytest.approx((0.2077, 0.9385), abs=1e-4)  # Wilson, 2 of 3
    assert (s["first_wins"], s["first_games"], s["second_wins"], s["second_games"]) == (1, 1, 1, 2)
    assert s["points_per_game"] == pytest.approx(4 / 3)
    assert s["our_ms_per_decision"] == pytest.approx(1.0) and s["their_ms_per_decision"] == pytest.approx(10.0)
    text = bench.table([s], "RdeepBot(16, 4)")
    assert "0.667 [" in text and "+1.333 [" in text
