"""Tournament: a folder of bots, faults forfeited, hangs killed, broken files disqualified."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import types
from pathlib import Path

import pytest

from sixtysix_env.newbot import write_bot
from sixtysix_env.tournament import TournamentError, agent_attribute, bot_files, main, run_tournament

CRASH = """
class CrashBot:
    def act(self, info, rng):
        return 1 // 0
"""
ILLEGAL = """
class IllegalBot:
    def act(self, info, rng):
        return 99 if info.player == 0 else "QH"
"""
SLOW = """
import time


class SlowBot:
    def act(self, info, rng):
        print("thinking")
        time.sleep(3.0)  # far beyond the 1 s limit, whatever the machine's load
        return info.legal_actions()[0]
"""
HANG = """
import time


class HangBot:
    def act(self, info, rng):
        time.sleep(1000)
"""
SLOW_START = """
import time


class SlowStart:
    prepared = None

    def prepare(self, rules):
        time.sleep(2.5)
        type(self).prepared = rules.name

    def act(self, info, rng):
        assert self.prepared == info.rules.name
        return info.legal_actions()[0]
"""
BAD_PREPARE = """
class BadPrepare:
    def prepare(self, rules):
        raise RuntimeError(f"cannot compile for {rules.name}")

    def act(self, info, rng):
        return info.legal_actions()[0]
"""
BROKEN_IMPORT = "import no_such_module_here\n"
BAD_INIT = """
class BadInit:
    def __init__(self):
        raise RuntimeError("no model file")

    def act(self, info, rng):
        return 0
"""
TWO_CLASSES = """
class A:
    def act(self, info, rng):
        return info.legal_actions()[0]


class B(A):
    pass
"""


def _folder(tmp_path, **bots: str):
    folder = tmp_path / "bots"
    folder.mkdir(parents=True)
    for name, source in bots.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source))
    return folder


def test_faulty_bots_forfeit_and_broken_ones_are_disqualified(tmp_path) -> None:
    folder = _folder(
        tmp_path,
        crash=CRASH,
        illegal=ILLEGAL,
        slow=SLOW,
        broken_import=BROKEN_IMPORT,
        bad_init=BAD_INIT,
        two_classes=TWO_CLASSES,
        _helper="def first(legal):\n    return legal[0]\n",
        uses_helper="from _helper import first\n\n\nclass Helped:\n    def act(self, info, rng):\n"
        "        return first(info.legal_actions())\n",
    )
    write_bot("student", folder)
    t = run_tournament(
        folder, deals=1, block=1, time_limit_ms=1000, kill_after_s=10, workers=2, log_dir=tmp_path / "logs"
    )
    status = {b.label: (b.status, b.reason) for b in t.bots}
    assert set(status) == {
        "crash",
        "illegal",
        "slow",
        "broken_import",
        "bad_init",
        "two_classes",
        "student",
        "uses_helper",
    }
    assert status["broken_import"][0] == status["bad_init"][0] == status["two_classes"][0] == "disqualified"
    assert "no_such_module_here" in status["broken_import"][1]
    assert "no model file" in status["bad_init"][1] and "line 4" in status["bad_init"][1]
    assert "AGENT = A" in status["two_classes"][1]
    res = t.arena
    assert sorted(res.agents) == ["crash", "illegal", "slow", "student", "uses_helper"]
    why = {"crash": "ZeroDivisionError", "illegal": "illegal action 99", "slow": "limit 1000 ms"}
    assert any("returned 'QH', not an action id" in f.reason for f in res.faults if f.bot == "illegal")
    for d in res.deal_records:
        pair = res.pairs[d.pair]
        faulty = {pair.a, pair.b} & set(why)
        if not faulty:
            continue
        # every deal with a faulty bot ends at its first decision: a forfeit by it, 3 points to the other
        assert d.termination == "forfeit" and d.forfeit_by in faulty and d.game_points == t.forfeit_points == 3
        assert d.winner == ({pair.a, pair.b} - {d.forfeit_by}).pop()
    why["illegal"] = "action"
    assert res.faults and all(why[f.bot] in f.reason for f in res.faults)
    assert all(f.bot not in ("student", "uses_helper") for f in res.faults)
    assert {f.bot for f in res.faults} == set(why)
    assert all(f.position.startswith("standard; dealer=") for f in res.faults)
    assert "thinking" in (tmp_path / "logs" / "slow.log").read_text()
    student = next(p for p in res.pairs if {p.a, p.b} == {"crash", "student"})
    assert student.deals == student.wins + student.losses and student.matches == 2


def test_a_hanging_bot_is_killed_replaced_then_retired(tmp_path) -> None:
    folder = _folder(tmp_path, hang=HANG)
    t = run_tournament(folder, include=["heuristic"], deals=1, block=1, time_limit_ms=2000, kill_after_s=2.5, strikes=2)
    faults = t.arena.faults
    assert len(faults) == len(t.arena.deal_records) >= 4  # every deal forfeited by hang
    assert all(f.bot == "hang" for f in faults)
    assert all("no answer within 2.5 s" in f.reason for f in faults[:2])
    assert all("retired after 2 decisions in a row without an answer" in f.reason for f in faults[2:])
    assert t.restarts["hang"] == 2
    assert t.arena.pairs[0].matches == 2  # both tracks finished their match


def test_a_bots_prepare_runs_once_per_build_and_is_not_a_decision(tmp_path) -> None:
    """prepare(rules) (compiling a search) runs when the bot is built, on the tournament's rules,
    so a slow one is no late first decision; one that raises disqualifies the bot."""
    folder = _folder(tmp_path, slow_start=SLOW_START, bad_prepare=BAD_PREPARE)
    t = run_tournament(folder, include=["heuristic"], rules="schnapsen", deals=1, block=1, time_limit_ms=2000)
    status = {b.label: (b.status, b.reason) for b in t.bots}
    assert status["slow_start"][0] == "plays" and not t.arena.faults  # 2.5 s prepare, 2 s limit
    assert status["bad_prepare"] == ("disqualified", status["bad_prepare"][1])
    assert "cannot compile for schnapsen" in status["bad_prepare"][1]
    assert t.arena.pairs[0].deals >= 2


def test_cli_build_timeout_bounds_a_bots_prepare(tmp_path, capsys) -> None:
    # a 60 s prepare against a 5 s build time: loading the other bots takes well under a second,
    # but on a loaded machine it once took more than the 0.3 s this test used to allow
    folder = _folder(tmp_path, slow_start=SLOW_START.replace("time.sleep(2.5)", "time.sleep(60)"))
    argv = [str(folder), "--include", "random,heuristic", "--deals", "1", "--block", "1", "--no-progress"]
    assert main([*argv, "--out", str(tmp_path / "a"), "--build-timeout", "5"]) == 0
    assert "2 bots played, 1 disqualified" in capsys.readouterr().out
    bots = (tmp_path / "a" / "bots.csv").read_text()
    assert "slow_start" in bots and "no answer within 5.0 s" in bots  # its prepare ran past the build time
    quick = _folder(tmp_path / "quick", slow_start=SLOW_START)  # a 2.5 s prepare, the default 30 s
    assert main([str(quick), *argv[1:], "--out", str(tmp_path / "b")]) == 0
    assert "3 bots played, 0 disqualified" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main([*argv, "--build-timeout", "0"])
    assert e.value.code == 2


def test_fewer_than_two_bots_is_an_error(tmp_path) -> None:
    folder = _folder(tmp_path, broken=BROKEN_IMPORT, crash=CRASH)
    with pytest.raises(TournamentError, match="fewer than two bots") as e:
        run_tournament(folder, deals=1)
    assert {b.label: b.status for b in e.value.bots} == {"broken": "disqualified", "crash": "plays"}
    with pytest.raises(ValueError, match="not a folder"):
        run_tournament(tmp_path / "missing")
    with pytest.raises(ValueError, match="distinct"):
        run_tournament(_folder(tmp_path / "x", random=CRASH), include=["random"])


def test_agent_convention() -> None:
    mod = types.ModuleType("m")
    exec("class Bot:\n    def act(self, info, rng): return 0\nAGENT = Bot\nclass Other(Bot): pass\n", mod.__dict__)
    assert agent_attribute(mod) == "AGENT"
    del mod.AGENT
    with pytest.raises(ValueError, match="several"):
        agent_attribute(mod)
    imported = types.ModuleType("n")
    exec("from random import Random\nclass Mine:\n    def act(self, info, rng): return 0\n", imported.__dict__)
    assert agent_attribute(imported) == "Mine"  # classes imported from elsewhere do not count


def test_cli_writes_the_league(tmp_path, capsys) -> None:
    folder = _folder(tmp_path, crash=CRASH)
    write_bot("student", folder)
    out = tmp_path / "league"
    argv = [str(folder), "--include", "random", "--deals", "1", "--block", "1", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "3 bots played, 0 disqualified" in printed and "crash" in printed
    md = (out / "league.md").read_text()
    league = md.split("## League")[1].split("##")[0]
    assert "student" in league and "crash" in league and "random" in league
    assert "## Forfeits by bot" in md
    html = (out / "league.html").read_text()
    assert "<h2>Forfeits by bot</h2>" in html and "ZeroDivisionError" in html
    for name in ("bots.csv", "pairs.csv", "deals.csv", "faults.csv", "elo.csv"):
        assert (out / name).is_file()
    assert bot_files(folder) == [folder / "crash.py", folder / "student.py"]
    with pytest.raises(SystemExit) as e:
        main([str(folder), "--time-limit-ms", "nan", "--out", str(out)])
    assert e.value.code == 2


def test_records_one_deal_record_per_deal_with_forfeits(tmp_path) -> None:
    from sixtysix_env.records import from_record, load_record

    folder = _folder(tmp_path, crash=CRASH)
    write_bot("student", folder)
    t = run_tournament(folder, deals=1, block=1, records=tmp_path / "rec")
    files = sorted((tmp_path / "rec" / "crash-vs-student").glob("*.json"))
    assert len(files) == len(t.arena.deal_records)
    for d in t.arena.deal_records:
        name = f"block{d.block}-track{d.track}-{d.index.replace('/', '', 1).replace('/', '-')}.json"
        record = load_record(tmp_path / "rec" / "crash-vs-student" / name)
        assert record["meta"]["source"] == "tournament" and record["meta"]["deal"] == d.index
        forfeit = record["meta"]["forfeit"]
        assert forfeit["bot"] == "crash" and "ZeroDivisionError" in forfeit["reason"]
        deal = from_record(record)
        assert not deal.is_over  # recorded up to the faulty decision
        assert record["players"][deal.current_player] == "crash"


HANG_WITH_PID = """
import ctypes
import time


class HangBot:
    def act(self, info, rng):
        ctypes.CDLL(None).prctl(15, b"sixtysix-hang", 0, 0, 0)  # PR_SET_NAME: the host sees it
        print("started", flush=True)
        time.sleep(1000)
"""


def _named(comm: str) -> list[int]:
    """The processes called ``comm`` (as the host sees them: a bot's own pid may be 1 of its namespace)."""
    out = []
    for name in os.listdir("/proc"):
        try:
            if name.isdigit() and Path(f"/proc/{name}/comm").read_text().strip() == comm:
                out.append(int(name))
        except OSError:
            pass
    return out


def _gone(pid: int, wait_s: float = 10.0) -> bool:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_stopping_the_tournament_stops_every_bot(tmp_path) -> None:
    folder = _folder(tmp_path, hang=HANG_WITH_PID)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    cmd = [sys.executable, "-m", "sixtysix_env.tournament", str(folder), "--include", "random", "--deals", "50"]
    proc = subprocess.Popen(
        [*cmd, "--kill-after", "60", "--out", str(tmp_path / "out"), "--no-progress"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120

    while not _named("sixtysix-hang") and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    pids = _named("sixtysix-hang")
    if not pids and proc.poll() is not None:
        out, err = proc.communicate()
        pytest.fail(f"the tournament ended before the hanging bot started: {out[-2000:]} {err[-2000:]}")
    assert pids, "the hanging bot never started"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in err
    assert all(_gone(pid) for pid in pids)
