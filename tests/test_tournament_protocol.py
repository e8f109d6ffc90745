"""The host against bots that attack it rather than the game: undecodable answers, unasked
messages, signals, a forged journal, control characters in their text, a log spread over many
processes, and a host whose Python the bots cannot read (issue 32, items 6, 8, 9, 10, 12, 14, 15).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sixtysix_env.tournament import run_tournament
from sixtysix_env.tournament.host import Cheated, _read_json
from sixtysix_env.tournament.hosting import python_paths, unreadable_by_others
from sixtysix_env.tournament.journal import read_journal

from .tournament_helpers import alive, no_jail

CHEATERS = Path(__file__).with_name("cheaters")
KEY = b"teacher-secret-key-0123456789"
ROOT = Path(__file__).resolve().parents[1]


def _bots(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "bots"
    folder.mkdir(exist_ok=True)
    for n in names:
        shutil.copy(CHEATERS / f"{n}.py", folder)
    return folder


def _log(tmp_path: Path, name: str) -> str:
    return (tmp_path / "logs" / f"{name}.log").read_text(errors="replace")


def _vs_heuristic(tmp_path: Path, name: str, include: tuple[str, ...] = ("heuristic",), **kw):
    """``name`` (a file of tests/cheaters) against heuristic, 2 duplicate deals in blocks of 1."""
    settings = {"deals": 2, "block": 1, "key": KEY, "log_dir": tmp_path / "logs", "kill_after_s": 15.0, **kw}
    return run_tournament(_bots(tmp_path, name), include=list(include), **settings)


def _status(t) -> dict[str, tuple[str, str]]:
    return {b.label: (b.status, b.reason) for b in t.bots}


# Item 6: the protocol


@pytest.mark.parametrize(
    "data",
    [b"[" * 5000, b"{" * 60_000, b"\xff\xfe{}", b'{"action": ' + b"9" * 5000 + b"}", b""],
)
def test_every_undecodable_answer_is_cheating_never_a_crash(data) -> None:
    host, bot = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with host, bot:
        bot.send(data)
        with pytest.raises(Cheated, match=r"not a JSON answer|not an answer"):
            _read_json(host, 1.0)


def test_json_nested_deep_at_import_disqualifies_the_bot_by_name(tmp_path) -> None:
    t = _vs_heuristic(tmp_path, "deep_nesting", ("heuristic", "random"), deals=1)
    status = _status(t)
    assert status["deep_nesting"][0] == "disqualified"
    assert "not a JSON answer (RecursionError" in status["deep_nesting"][1]
    assert status["heuristic"] == ("plays", "")


def test_json_nested_deep_in_play_disqualifies_and_ends_the_bots_whole_group(tmp_path) -> None:
    t = _vs_heuristic(tmp_path, "nesting_in_play", deals=1, own_uids=False)
    status = _status(t)
    assert status["nesting_in_play"][0] == "disqualified"
    assert "not a JSON answer (RecursionError" in status["nesting_in_play"][1]
    reasons = {f.reason for f in t.arena.faults if f.bot == "nesting_in_play"}
    assert reasons and all(r.startswith("disqualified: ") for r in reasons)
    helpers = [int(line.split()[1]) for line in _log(tmp_path, "nesting_in_play").splitlines() if "HELPER" in line]
    assert helpers
    deadline = time.monotonic() + 5
    while any(map(alive, helpers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, helpers))  # its helper died with its group


def test_a_cheat_in_play_is_journaled_so_a_resumed_run_keeps_the_ban(tmp_path) -> None:
    journal = tmp_path / "journal.jsonl"
    first = _vs_heuristic(tmp_path, "double_answer", deals=1, journal=journal)
    reason = _status(first)["double_answer"][1]
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [x["reason"] for x in lines if x.get("disqualified") == "double_answer"] == [reason]
    again = run_tournament(
        tmp_path / "bots", include=["heuristic"], deals=1, block=1, key=KEY, journal=journal, resume=True
    )
    assert _status(again)["double_answer"] == ("disqualified", reason)


def test_an_answer_nobody_asked_for_is_never_read_as_the_next_reply(tmp_path) -> None:
    t = _vs_heuristic(tmp_path, "double_answer", deals=1)
    status = _status(t)
    assert "SENT EXTRA" in _log(tmp_path, "double_answer")
    assert status["double_answer"][0] == "disqualified"
    assert "sent a message nobody asked for" in status["double_answer"][1]
    assert status["heuristic"] == ("plays", "")


def test_an_answer_sent_between_questions_is_never_read_as_the_next_reply(tmp_path) -> None:
    t = _vs_heuristic(tmp_path, "late_answer", deals=1)
    status = _status(t)
    assert "SENDING LATE" in _log(tmp_path, "late_answer")
    assert status["late_answer"][0] == "disqualified"
    assert "sent a message nobody asked for" in status["late_answer"][1]
    # the stale 9999 was never read as a move (an illegal one, a forfeit) before the ban
    assert not [f.reason for f in t.arena.faults if f.bot == "late_answer" and "illegal action 9999" in f.reason]
    assert status["heuristic"] == ("plays", "")


def test_an_answer_without_the_questions_nonce_is_refused() -> None:
    host, bot = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with host, bot:
        bot.send(b'{"n": "abc", "action": 3}')
        assert _read_json(host, 1.0, "abc") == {"action": 3}
        for stale in (b'{"action": 3}', b'{"n": "old", "action": 3}'):
            bot.send(stale)
            with pytest.raises(Cheated, match="nobody asked for"):
                _read_json(host, 1.0, "abc")


# Item 8: signals, when the bots run under the host's user id (as when it is not root)

HOST = """
import json, sys
from pathlib import Path
from sixtysix_env.tournament import run_tournament

folder, out = Path(sys.argv[1]), Path(sys.argv[2])
t = run_tournament(
    folder, include=["heuristic", "random"], deals=1, block=1, key=b"teacher-secret-key-0123456789",
    log_dir=out / "logs", journal=out / "journal.jsonl", own_uids=False, kill_after_s=15.0,
)
print("RESULT", json.dumps({b.label: [b.status, b.reason] for b in t.bots}))
"""


def _host_process(tmp_path: Path, name: str) -> tuple[subprocess.CompletedProcess[str], dict[str, list[str]]]:
    """A tournament of ``name``, heuristic and random in a host process of its own (a signal that
    got through ends that process, not the test run); its exit and the bots' statuses."""
    folder = _bots(tmp_path, name)
    proc = subprocess.run(
        [sys.executable, "-c", HOST, str(folder), str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    return proc, json.loads(lines[0][7:]) if lines else {}


def test_a_storm_of_every_catchable_signal_disqualifies_the_sender_and_the_host_finishes(tmp_path) -> None:
    proc, status = _host_process(tmp_path, "signal_storm")
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    sent = {int(line.split()[1]) for line in _log(tmp_path, "signal_storm").splitlines() if line.startswith("SENT")}
    # The host kills the bot's group once it disqualifies it, which can land mid-storm on a loaded
    # machine: the review's signals go first; every one sent was survived (the host exited 0).
    assert {signal.SIGTRAP, signal.SIGABRT, signal.SIGBUS, signal.SIGSEGV} <= sent
    assert status["signal_storm"][0] == "disqualified"
    assert status["signal_storm"][1].startswith("sent SIG") and "to the tournament host" in status["signal_storm"][1]
    assert status["heuristic"] == ["plays", ""] and status["random"] == ["plays", ""]


GUARDED = """
import json, os, signal, subprocess, sys, time
from sixtysix_env.tournament.guard import WATCHED, SignalGuard

# SIGCONT apart: the kernel drops a pending SIGCONT when a stop signal (SIGTSTP...) comes, and the
# other way round, so it is sent once the guard has taken the rest
SENDER = (
    "import os, sys, time; [os.kill(os.getppid(), int(s)) for s in sys.argv[2:]]; sys.stdin.readline();"
    "os.kill(os.getppid(), int(sys.argv[1])); time.sleep(30)"
)
rest = sorted(int(s) for s in WATCHED - {signal.SIGCONT})
banned, stops = [], []
bot = subprocess.Popen([sys.executable, "-c", SENDER, str(int(signal.SIGCONT)), *map(str, rest)], stdin=subprocess.PIPE)
owner = lambda pid: "bot" if pid == bot.pid else None  # noqa: E731


def wait_for(done):
    deadline = time.monotonic() + 20
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


with SignalGuard(owner, lambda b, sig: banned.append(sig), lambda: stops.append(1)):
    wait_for(lambda: len(banned) >= len(rest))
    bot.stdin.write(b"go\\n")
    bot.stdin.flush()
    wait_for(lambda: len(banned) > len(rest))
    bot.kill()
    bot.wait()
    gone = subprocess.run([sys.executable, "-c", "import os, signal; os.kill(os.getppid(), signal.SIGTERM)"])
    wait_for(lambda: stops)
names = [signal.Signals(s).name if s in signal.Signals._value2member_map_ else f"signal {s}" for s in WATCHED]
print("RESULT", json.dumps({"wanted": names, "banned": banned, "stops": len(stops)}))
"""


def test_every_catchable_signal_from_a_bots_process_is_caught_and_names_the_bot() -> None:
    """The guard alone, in a process of its own (a signal that got through ends that process,
    not the test run): a live bot process sends every catchable signal one after the other
    (SIGSYS, SIGSTKFLT, SIGIO, SIGPWR and the real-time ones too), then a process that exits at
    once (as ``kill`` from a shell does) sends SIGTERM."""
    proc = subprocess.run([sys.executable, "-c", GUARDED], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    result = json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert sorted(result["banned"]) == sorted(result["wanted"])
    assert {"SIGSYS", "SIGSTKFLT", "SIGIO", "SIGPWR", "SIGTRAP", "SIGSEGV", "SIGRTMIN"} <= set(result["banned"])
    assert result["stops"] == 1  # the teacher's kill(1) stops the tournament though its sender is gone


def test_a_stopping_signal_from_a_sender_gone_already_stops_the_tournament() -> None:
    """``kill`` from a shell exits before the guard can look at it: its SIGTERM still stops the
    tournament (a bot's helper that does the same cannot be told apart; any other signal from a
    gone sender is ignored)."""
    from sixtysix_env.tournament.guard import SignalGuard

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(gone.stdout)
    banned, stops = [], []
    guard = SignalGuard(lambda p: None, lambda b, sig: banned.append(sig), lambda: stops.append(1))
    guard.handle(signal.SIGTERM, pid, 0)
    guard.handle(signal.SIGUSR1, pid, 0)
    assert stops == [1] and banned == []


def test_a_signal_sent_through_a_files_owner_disqualifies_the_bot_that_armed_it(tmp_path) -> None:
    proc, status = _host_process(tmp_path, "async_signaller")
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert "ARMED" in _log(tmp_path, "async_signaller")
    assert status["async_signaller"][0] == "disqualified"
    assert "SIGTERM (through a file set to signal the host, O_ASYNC)" in status["async_signaller"][1]
    assert status["heuristic"] == ["plays", ""]


# Item 9: the journal's lines carry a chained HMAC of the key


def test_a_forged_journal_line_is_refused_on_resume_naming_the_line(tmp_path) -> None:
    journal = tmp_path / "journal.jsonl"
    first = _vs_heuristic(tmp_path, "journal_forger", deals=1, own_uids=False, journal=journal)
    assert "FORGED" in _log(tmp_path, "journal_forger")
    assert {b.status for b in first.bots} == {"plays"}
    lines = journal.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "forged by journal_forger" in line)
    with pytest.raises(ValueError, match=f"journal.jsonl, line {number}: its HMAC is wrong"):
        run_tournament(
            tmp_path / "bots", include=["heuristic"], deals=1, block=1, key=KEY, journal=journal, resume=True,
            own_uids=False,
        )  # fmt: skip


PLAIN = """
class Plain:
    def act(self, info, rng):
        return info.legal_actions()[0]
"""


def _journal_of_two_blocks(tmp_path: Path) -> Path:
    journal = tmp_path / "journal.jsonl"
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "plain.py").write_text(PLAIN)
    run_tournament(folder, include=["random"], deals=2, block=1, key=KEY, journal=journal, own_uids=False)
    return journal


def _resume(journal: Path):
    folder = journal.parent / "bots"
    return run_tournament(
        folder, include=["random"], deals=2, block=1, key=KEY, journal=journal, resume=True, own_uids=False
    )


def test_an_altered_moved_or_removed_journal_line_is_refused_and_a_cut_one_is_not(tmp_path) -> None:
    journal = _journal_of_two_blocks(tmp_path)
    good = journal.read_text().splitlines()
    assert len(good) == 3 and all(json.loads(line)["mac"] for line in good)
    header = {k: v for k, v in json.loads(good[0]).items() if k != "mac"}
    altered = json.loads(good[1])
    altered["tasks"][0]["result"]["deals"][0]["a_return"] += 1
    for lines, number, why in [
        ([good[0], json.dumps(altered), good[2]], 2, "its HMAC is wrong"),
        ([good[0], good[2], good[1]], 2, "its HMAC is wrong"),  # moved
        ([good[0], good[2]], 2, "its HMAC is wrong"),  # a block removed
        ([good[0], good[1], "{not json", good[2]], 3, "it is not a JSON object"),
        ([good[0], good[1], '{"disqualified": "random", "reason": "x"}'], 3, "it has no HMAC"),
        (["[" * 5000, *good[1:]], 1, "it is not a JSON object"),
    ]:
        journal.write_text("\n".join(lines) + "\n")
        with pytest.raises(ValueError, match=f"line {number}: {why}"):
            read_journal(journal, header, KEY)
    journal.write_text("\n".join([*good[:2], '{"disqualified": "random", "reason": "forged"}']) + "\n")
    with pytest.raises(ValueError, match=r"journal\.jsonl, line 3: it has no HMAC"):
        _resume(journal)  # the run stops with it
    journal.write_text("\n".join(good) + "\n" + good[2][:40])  # the last line cut short by a kill
    again = _resume(journal)
    assert {b.status for b in again.bots} == {"plays"}
    assert journal.read_text().splitlines()[:3] == good  # the cut line was dropped before appending
    _resume(journal)  # and the file it left reads back


# Items 10 and 15: what the teacher reads


CONTROL = ("\x1b", "\x07", "\x9b", "\u202e", "\u202c")


def test_a_bots_escape_sequences_and_markdown_never_reach_the_terminal_or_the_reports(tmp_path, capsys) -> None:
    from sixtysix_env.tournament.cli import main

    folder = _bots(tmp_path, "escape_writer")
    (folder / "named\x1b]0;T\x07\u202e| # forged.py").write_text(PLAIN)  # a file name is a label
    (folder / "notes\x1b]0;T\x07\u202e.txt").write_text("no bot's")  # named in the staging notice
    out = tmp_path / "out"
    args = [str(folder), "--include", "random", "--deals", "1", "--block", "1", "--out", str(out), "--no-progress"]
    assert main(args) == 0
    printed = capsys.readouterr()
    md = (out / "league.md").read_text()
    html = (out / "league.html").read_text()
    faults = (out / "faults.csv").read_text() + (out / "pairs.csv").read_text() + (out / "bots.csv").read_text()
    assert "named\\x1b" in faults and "pwned title" in md and "ZXZpbA==" in printed.out  # shown, as text
    for text in (printed.out, printed.err, md, html, faults):
        assert not [c for c in CONTROL if c in text]
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert headings[0] == "# Tournament" and not [h for h in headings if "forged" in h or "Winner" in h]
    assert not [line for line in md.splitlines() if "forged" in line and not line.startswith("|")]  # in its cell
    rows = [line for line in md.split("## League")[1].split("##")[0].splitlines() if line.startswith("|")]
    assert len(rows) == 2 + 3  # header, rule, the three bots: no forged row
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "\\<script\\>" in md and "\\#\\# League" in md


HANG = """
import time


class Hang:
    def act(self, info, rng):
        time.sleep(60)
"""


def test_a_retired_bot_reads_retired_and_its_forfeits_are_one_line_on_stdout(tmp_path, capsys) -> None:
    from sixtysix_env.tournament.cli import main

    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "hang.py").write_text(HANG)
    out = tmp_path / "out"
    args = [str(folder), "--include", "random", "--deals", "3", "--block", "1", "--out", str(out), "--no-progress"]
    assert main([*args, "--time-limit-ms", "300", "--kill-after", "0.6", "--strikes", "2"]) == 0
    printed = capsys.readouterr().out
    md = (out / "league.md").read_text()
    assert "2 bots play (1 retired)" in md and "## Retired" in md and "## Disqualified" not in md
    retired = md.split("## Retired")[1].split("##")[0]
    assert "| hang" in retired and "retired after 2 decisions in a row" in retired
    assert "hang,retired,retired after 2 decisions" in (out / "bots.csv").read_text().replace(f"{folder}/hang.py,", "")
    assert "2 bots played, 0 disqualified, 1 retired" in printed
    forfeits = len((out / "faults.csv").read_text().splitlines()) - 1
    assert forfeits >= 6
    hang_lines = [line for line in printed.splitlines() if "hang" in line]
    assert len(hang_lines) == 6  # league, retired, forfeits by bot, pairs, timing, summary: no row per deal
    by_bot = printed.split("## Forfeits by bot")[1].split("##")[0]
    assert [c.strip() for c in by_bot.splitlines()[4].strip("|").split("|")][:3] == ["hang", str(forfeits), "2"]
    assert f"{forfeits} deals forfeited (hang {forfeits})" in printed


# Item 12: the log cap is per bot per tournament


def test_the_log_cap_holds_across_zygote_restarts(tmp_path) -> None:
    _vs_heuristic(tmp_path, "zygote_flooder", deals=2, own_uids=False, log_bytes=100 * 1024)
    log = tmp_path / "logs" / "zygote_flooder.log"
    assert log.stat().st_size < 101 * 1024
    assert _log(tmp_path, "zygote_flooder").count("[log cut at 102400 bytes") == 1


def test_a_log_shows_a_bots_escape_sequences_as_text(tmp_path) -> None:
    _vs_heuristic(tmp_path, "escape_writer", ("heuristic", "random"), deals=1)
    log = _log(tmp_path, "escape_writer")
    assert "pwned title" in log and "\n## League (forged)" in log  # printed lines stay lines
    assert not [c for c in CONTROL if c in log]


# Item 14: the preflight

NUMPY_BOT = """
import numpy as np


class NpBot:
    def act(self, info, rng):
        return int(np.asarray(info.legal_actions())[0])
"""


def _numpy_bots(tmp_path: Path) -> Path:
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "npbot.py").write_text(NUMPY_BOT)
    return folder


def _without_a_jail(monkeypatch) -> None:
    """As on a host without namespaces: the bots run under their own user ids, on the host's files."""
    import sixtysix_env.tournament.run as run_module

    monkeypatch.setattr(run_module, "jail_paths", lambda staging, exclude=(): None, raising=False)


def test_a_folder_python_imports_from_that_bots_cannot_read_stops_the_tournament_before_it_plays(
    tmp_path, monkeypatch
) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root (bots under their own user ids)")
    import sixtysix_env.tournament.run as run_module

    private = tmp_path / "private"  # a 0700 home with a folder of Python's path in it
    (private / "site").mkdir(parents=True)
    (private / "site" / "helpers.py").write_text("X = 1\n")
    private.chmod(0o700)
    real = run_module.python_paths
    monkeypatch.setattr(run_module, "python_paths", lambda: [*real(), str(private / "site")])
    _without_a_jail(monkeypatch)
    played: list[object] = []
    with pytest.raises(run_module.TournamentError) as e:
        run_tournament(
            _numpy_bots(tmp_path), include=["random"], deals=1, block=1, key=KEY, on_task=lambda *a: played.append(a)
        )
    message = str(e.value)
    assert message.startswith("preflight: a bot process (user id ") and "\n" not in message
    assert f"cannot read {private / 'site'}" in message or f"{private / 'site'}" in message
    assert "chmod o+rx " in message and "install Python outside a 0700 home" in message
    assert not played  # stopped before the first game


@pytest.mark.skipif(
    os.geteuid() != 0 or unreadable_by_others(python_paths()) is None,
    reason="needs root and a Python that other users cannot read (pyenv under /root, a venv in a 0700 folder)",
)
def test_a_python_under_a_0700_home_stops_the_tournament_with_the_fix_not_a_league_of_import_errors(
    tmp_path, monkeypatch
) -> None:
    hidden = unreadable_by_others(python_paths())
    _without_a_jail(monkeypatch)
    with pytest.raises(ValueError) as e:
        run_tournament(_numpy_bots(tmp_path), include=["random"], deals=1, block=1, key=KEY)
    message = str(e.value)
    assert message.startswith("preflight: ") and "\n" not in message and len(message) < 1000
    assert "cannot import numpy" in message and f"chmod o+rx {hidden}" in message


FROM_A_PRIVATE_CHECKOUT = """
import sys
from pathlib import Path

import sixtysix_env
from sixtysix_env.tournament import run_tournament

assert Path(sixtysix_env.__file__).is_relative_to(sys.argv[2]), sixtysix_env.__file__
t = run_tournament(Path(sys.argv[1]), include=["random"], deals=1, block=1, key=b"teacher-secret-key-0123456789")
statuses = sorted((b.label, b.status) for b in t.bots)
print("STATUS", statuses, "ISOLATION", repr(t.isolation), "FAULTS", len(t.arena.faults))
"""


@pytest.mark.skipif(bool(no_jail()), reason=no_jail() or "")
def test_a_checkout_in_a_0700_folder_plays_in_the_jail(tmp_path) -> None:
    """A clone in /root or in ``mktemp -d``, run from source: in the jail tree the folder Python
    imports the package from is listable (it holds only what the tree binds), so the bots load."""
    home = tmp_path / "home"
    shutil.copytree(ROOT / "sixtysix_env", home / "sixtysix_env", ignore=shutil.ignore_patterns("__pycache__"))
    home.chmod(0o700)
    env = {**os.environ, "PYTHONPATH": str(home)}
    bots = _numpy_bots(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", FROM_A_PRIVATE_CHECKOUT, str(bots), str(home)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "STATUS [('npbot', 'plays'), ('random', 'plays')] ISOLATION '' FAULTS 0" in run.stdout


def test_the_preflight_passes_where_the_bots_can_read_python(tmp_path) -> None:
    """Under the host's user id (as when it is not root) numpy imports: the numpy bot plays."""
    t = run_tournament(_numpy_bots(tmp_path), include=["random"], deals=1, block=1, key=KEY, own_uids=False)
    assert {b.label: b.status for b in t.bots} == {"npbot": "plays", "random": "plays"}
    assert not t.arena.faults


def test_the_preflight_imports_what_the_template_imports() -> None:
    from sixtysix_env.newbot import render
    from sixtysix_env.tournament.preflight import template_imports

    wanted = template_imports()
    assert wanted[-1] == "numpy" and "sixtysix_env.infostate" in wanted and "random" in wanted
    for line in render("mybot").splitlines():
        words = line.split()
        if words[:1] == ["import"] or (words[:1] == ["from"] and words[1] != "__future__"):
            assert words[1] in wanted, line


def test_the_text_helpers_make_every_control_character_visible_and_markdown_inert() -> None:
    from sixtysix_env.text_safety import html_text, is_clean, markdown_text, terminal_text

    evil = "a\x1b]52;c;ZXZpbA==\x07b\x9b2J\u202ec\u200bd\ud800e\nf\tg\x7f"
    shown = terminal_text(evil)
    assert shown == "a\\x1b]52;c;ZXZpbA==\\x07b\\x9b2J\\u202ec\\u200bd\\ud800e\\nf\\tg\\x7f"
    assert is_clean(shown) and not is_clean(evil) and is_clean("plain ♥ text, ü")
    assert terminal_text("a\nb\tc\rd", keep_newlines=True) == "a\nb\tc\\rd"
    assert terminal_text("x" * 50, limit=10) == "x" * 7 + "..."
    assert markdown_text("## h | *b* [l](u) <i> `c` ~s~ &amp; _u_") == (
        "\\#\\# h \\| \\*b\\* \\[l\\](u) \\<i\\> \\`c\\` \\~s\\~ \\&amp; \\_u\\_"
    )
    assert [markdown_text(s) for s in ("- item", "+ x", "1. one", "> q", "=== ", "a-b 1.5", "my_bot", "a__b_")] == [
        "\\- item", "\\+ x", "1\\. one", "\\> q", "\\=== ", "a-b 1.5", "my_bot", "a\\_\\_b\\_",
    ]  # fmt: skip
    assert html_text('<b a="1">\x1b') == "&lt;b a=&quot;1&quot;&gt;\\x1b"


class _Unfreezable:
    """A cgroup whose freeze never settles (a process held out of the freezer)."""

    class support:  # mirrors the one method of cgroups.Support used here
        @staticmethod
        def holds(what: str) -> bool:
            return what == "freeze"

    def __init__(self) -> None:
        self.tries = 0
        self.destroyed = False

    def pids(self) -> list[int]:
        return []

    def freeze(self) -> bool:
        self.tries += 1
        return False

    def destroy(self) -> None:
        self.destroyed = True


def test_a_game_whose_group_will_not_freeze_is_ended_and_lost_not_left_running() -> None:
    from sixtysix_env.tournament.host import FREEZE_TRIES, BotDied, Game

    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    mine, theirs = socket.socketpair()
    group = _Unfreezable()
    game = Game(mine, proc.pid, None, group)  # type: ignore[arg-type]
    try:
        with pytest.raises(BotDied, match="could not be frozen between questions"):
            game._stop()
        assert group.tries == FREEZE_TRIES
        assert game.closed and group.destroyed
        assert proc.wait(5.0) == -signal.SIGKILL  # the game's processes are killed, not left running
    finally:
        theirs.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
