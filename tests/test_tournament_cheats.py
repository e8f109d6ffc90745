"""Cheating and hostile bots (tests/cheaters/) against the tournament host: each is neutralised.

Each test plays one cheater against ``heuristic`` (one pair, few deals), so a test names the fix
it guards (issue 20 items 7 to 11) and stays quick on a loaded machine.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

from sixtysix_env.arena.play import BotFault
from sixtysix_env.rules import get_rules
from sixtysix_env.tournament import league_markdown, run_tournament
from sixtysix_env.tournament.guard import SignalGuard
from sixtysix_env.tournament.remote import Limits, RemoteBot

from .tournament_helpers import alive

CHEATERS = Path(__file__).with_name("cheaters")
KEY = b"teacher-secret-key-0123456789"


def _bots(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "bots"
    folder.mkdir()
    for n in names:
        shutil.copy(CHEATERS / f"{n}.py", folder)
    return folder


def _log(tmp_path: Path, name: str) -> str:
    return (tmp_path / "logs" / f"{name}.log").read_text(errors="replace")


def _vs_heuristic(tmp_path: Path, name: str, **kw):
    """``name`` (a file of tests/cheaters) against heuristic, 2 duplicate deals in blocks of 1."""
    settings = {"deals": 2, "block": 1, "key": KEY, "log_dir": tmp_path / "logs", "kill_after_s": 15.0, **kw}
    return run_tournament(_bots(tmp_path, name), include=["heuristic"], **settings)


def _status(t) -> dict[str, tuple[str, str]]:
    return {b.label: (b.status, b.reason) for b in t.bots}


def _timing_row(t, bot: str) -> list[str]:
    section = league_markdown(t).split("## Decision time")[1]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == bot:
            return cells
    raise AssertionError(f"{bot} has no row in the decision time table")


def test_seed_reader_cannot_rebuild_a_deal_nor_read_the_key_or_the_teachers_env(tmp_path, monkeypatch) -> None:
    """Item 7, seeds: deal seeds are HMACs of a secret key; the bot's RNG is not the deck's."""
    monkeypatch.setenv("TEACHER_TOKEN", "do-not-leak")
    t = _vs_heuristic(tmp_path, "seed_reader")
    seen = _log(tmp_path, "seed_reader")
    assert "RNG" in seen and "CHEAT" not in seen
    assert KEY.decode() not in seen and KEY.hex() not in seen and "do-not-leak" not in seen
    assert not t.arena.faults


def test_a_memoriser_never_meets_cards_it_has_seen(tmp_path) -> None:
    """Item 7, memory: a fresh process per task, so module globals die with the task."""
    t = _vs_heuristic(tmp_path, "memoriser", deals=1)
    remembered = _log(tmp_path, "memoriser")
    counts = [int(line.split()[1]) for line in remembered.splitlines() if line.startswith("REMEMBERED")]
    assert counts and "CHEAT" not in remembered
    assert counts.count(1) == len({(d.block, d.track) for d in t.arena.deal_records})  # one fresh start per task


def test_a_bot_that_stops_its_clocks_is_timed_by_the_host(tmp_path) -> None:
    """Item 8: the host's clock, not the bot's, times a decision (1.5 s asleep, limit 600 ms)."""
    t = _vs_heuristic(tmp_path, "clock_faker", deals=1, time_limit_ms=600)
    faker = [f.reason for f in t.arena.faults if f.bot == "clock_faker"]
    assert faker and all("of the host's clock" in r and "limit 600 ms" in r for r in faker)
    assert len(faker) == len(t.arena.deal_records)


@pytest.mark.parametrize("name", ["child_thinker", "helper_thinker", "orphan_thinker"])
def test_cpu_time_of_a_bots_process_tree_is_counted(tmp_path, name) -> None:
    """Item 8: CPU comes from /proc, of the bot's whole process tree: a child it waited for, a
    helper it keeps alive, an orphaned one (0.3 s of CPU per task; the bot process only waits)."""
    t = _vs_heuristic(tmp_path, name, deals=1, time_limit_ms=30_000, kill_after_s=60.0)
    tasks = len({(d.block, d.track) for d in t.arena.deal_records})
    assert not t.arena.faults
    assert t.cpu_seconds[name] >= 0.25 * tasks


class _FakeGame:
    label = "bot"

    def __init__(self, wall: float, cpu: float) -> None:
        self.spent = (wall, cpu)

    def ask(self, msg, timeout_s):
        return ({"ok": ""}, 0.0, 0.0) if msg[0] == "new" else ({"action": 3}, *self.spent)

    def kill(self) -> None:
        pass


class _FakePool:
    def __init__(self, game: _FakeGame) -> None:
        self.g, self.disqualified, self.kills_in_a_row, self.stopping = game, {}, {}, threading.Event()

    def game(self, spec):
        return self.g

    def done(self, g) -> None:
        pass

    def strike(self, label, killed):
        return 0


@pytest.mark.parametrize(("wall", "cpu", "what"), [(0.1, 0.5, "of CPU time"), (0.5, 0.1, "of the host's clock")])
def test_a_decision_over_the_limit_by_either_clock_is_a_forfeit(wall, cpu, what) -> None:
    from sixtysix_env.agents.spec import AgentSpec

    limits = Limits.of(300.0)
    bot = RemoteBot(AgentSpec("bot", "bot", (), "", ""), _FakePool(_FakeGame(wall, cpu)), limits, "s", get_rules())  # type: ignore[arg-type]
    with pytest.raises(BotFault, match=f"took \\d+ ms {what} over one decision \\(limit 300 ms\\)"):
        bot.act(None)  # type: ignore[arg-type]
    ok = RemoteBot(AgentSpec("bot", "bot", (), "", ""), _FakePool(_FakeGame(0.2, 0.2)), limits, "s", get_rules())  # type: ignore[arg-type]
    assert ok.act(None) == 3  # type: ignore[arg-type]


HONEST = """
import time

PIDS = {pids!r}


def _state(pid):
    try:
        with open(f"/proc/{{pid}}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


class Honest:
    def act(self, info, rng):
        try:
            with open(PIDS) as f:
                hogs = [int(line.split()[0]) for line in f if line.split()[1] == "0"]
        except OSError:
            hogs = []
        for pid in hogs:  # each must be stopped (T) on my turn; a stop may take a moment to land
            deadline = time.monotonic() + 3.0
            while _state(pid) not in ("T", "Z", "gone") and time.monotonic() < deadline:
                time.sleep(0.01)
            if _state(pid) not in ("T", "Z", "gone"):
                print("RAN", pid, _state(pid), flush=True)
        return info.legal_actions()[0]
"""


def test_a_cpu_hogs_processes_are_stopped_between_its_turns_and_killed_with_its_task(tmp_path) -> None:
    """Item 9: the hog's process group is stopped on the opponent's turn, its children (the one
    that left the group too) are dead when its task ends."""
    pids = tmp_path / "hog_pids"
    folder = tmp_path / "bots"
    folder.mkdir()
    hog = (CHEATERS / "cpu_hog.py").read_text().replace('"/tmp/sixtysix-hog-pids"', repr(str(pids)))
    (folder / "cpu_hog.py").write_text(hog)
    (folder / "honest.py").write_text(HONEST.format(pids=str(pids)))
    survivors: list[int] = []

    def after_block(task, res) -> None:
        listed = [int(line.split()[0]) for line in pids.read_text().splitlines()] if pids.is_file() else []
        deadline = time.monotonic() + 5
        while [p for p in listed if alive(p)] and time.monotonic() < deadline:
            time.sleep(0.05)
        survivors.extend(p for p in listed if alive(p))

    t = run_tournament(
        folder, deals=2, block=1, time_limit_ms=5000, key=KEY, log_dir=tmp_path / "logs", own_uids=False,
        on_task=after_block,
    )  # fmt: skip
    assert not t.arena.faults
    started = pids.read_text().splitlines()
    assert len(started) == 3 * len({(d.block, d.track) for d in t.arena.deal_records})
    assert "RAN" not in _log(tmp_path, "honest")
    assert not survivors  # every child was dead once its task ended, the setsid one too


def test_a_memory_hog_hits_the_address_space_limit(tmp_path) -> None:
    """Item 9: --memory-mb caps each bot process's address space."""
    t = _vs_heuristic(tmp_path, "memory_hog", deals=1, memory_mb=2048)
    reasons = {f.reason for f in t.arena.faults if f.bot == "memory_hog"}
    assert reasons and all("MemoryError: malloc refused 8 GiB (memory_hog.py" in r for r in reasons)
    assert "GOT" not in _log(tmp_path, "memory_hog")


def test_a_log_flooder_is_cut_at_the_cap(tmp_path) -> None:
    """Item 9: a bot's log is cut at --log-kb; the rest is dropped, the bot plays on."""
    t = _vs_heuristic(tmp_path, "log_flooder", deals=1, log_bytes=64 * 1024, time_limit_ms=30_000, kill_after_s=60.0)
    assert (tmp_path / "logs" / "log_flooder.log").stat().st_size < 65 * 1024
    assert "[log cut at 65536 bytes" in _log(tmp_path, "log_flooder")
    assert not [f for f in t.arena.faults if f.bot == "log_flooder"]


def test_a_pickle_sent_to_the_host_is_never_unpickled(tmp_path, monkeypatch) -> None:
    """Item 10: the host reads JSON only; a forged message disqualifies the bot."""
    marker = tmp_path / "pwned"
    monkeypatch.setenv("MARKER", str(marker))  # bots get a clean env: the pickle would touch /tmp/...
    target = Path("/tmp/sixtysix-pwned")
    target.unlink(missing_ok=True)
    t = _vs_heuristic(tmp_path, "pipe_forger", deals=1)
    assert not marker.exists() and not target.exists()
    status = _status(t)
    assert status["pipe_forger"][0] == "disqualified" and "not a JSON answer" in status["pipe_forger"][1]
    assert {f.bot for f in t.arena.faults} == {"pipe_forger"}


def test_a_huge_message_disqualifies_and_a_bot_that_never_answered_shows_no_nan(tmp_path) -> None:
    """Items 10 and 11: answers are capped at 64 KiB; a bot with no answered decision shows "-"."""
    t = _vs_heuristic(tmp_path, "huge_message", deals=1)
    status = _status(t)
    assert status["huge_message"][0] == "disqualified" and "more than 65536 bytes" in status["huge_message"][1]
    assert all("disqualified" in f.reason for f in t.arena.faults) and t.arena.faults
    assert _timing_row(t, "huge_message")[1:] == ["0", "-", "-"]
    assert "nan" not in league_markdown(t)


def test_true_is_not_action_one(tmp_path) -> None:
    """Item 11: True and False are refused as actions."""
    t = _vs_heuristic(tmp_path, "bool_bot", deals=1)
    assert {f.reason for f in t.arena.faults} == {"returned True, not an action id (an int from info.legal_actions())"}


def test_a_bot_that_signals_the_host_is_disqualified_and_the_tournament_finishes(tmp_path) -> None:
    """Item 10: SIGTERM from a bot is ignored and disqualifies it; the journal keeps the ban."""
    journal = tmp_path / "journal.jsonl"
    try:
        t = _vs_heuristic(tmp_path, "signaller", own_uids=False, journal=journal)
    except KeyboardInterrupt:
        pytest.fail("the bot's SIGTERM stopped the tournament")
    status = _status(t)
    assert "SENT SIGTERM" in _log(tmp_path, "signaller")
    # the first of its signals the host takes (the lowest pending number first) is the reason
    assert status["signaller"][0] == "disqualified"
    assert re.fullmatch("sent SIG(TERM|INT|USR1) to the tournament host", status["signaller"][1])
    assert t.arena.deal_records and status["heuristic"][0] == "plays"
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert {"disqualified": "signaller", "reason": status["signaller"][1]} in [
        {k: v for k, v in x.items() if k != "mac"}
        for x in lines  # each line also carries its HMAC
    ]
    assert sum("tasks" in x for x in lines) == 2  # both blocks journaled


def test_run_as_root_a_bot_cannot_signal_the_host_at_all(tmp_path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root (bots under their own user ids)")
    t = _vs_heuristic(tmp_path, "signaller", deals=1)
    seen = _log(tmp_path, "signaller")
    jailed = not t.isolation  # pid 1 of a PID namespace of its own: no host in sight
    assert t.own_uids and ("NO HOST in sight, pid 1" if jailed else "REFUSED SIGTERM PermissionError") in seen
    assert "SENT" not in seen
    assert {b.status for b in t.bots} == {"plays"}


def test_run_as_root_a_bot_cannot_read_the_other_bots_code(tmp_path) -> None:
    """Item 7: each bot's staged copy is its own to read (not to write), with its own helpers only."""
    if os.geteuid() != 0:
        pytest.skip("needs root (bots under their own user ids)")
    folder = _bots(tmp_path, "source_reader", "memoriser")
    (folder / "_source_reader_helper.py").write_text("X = 1\n")
    t = run_tournament(folder, include=["heuristic"], deals=1, block=1, key=KEY, log_dir=tmp_path / "logs")
    seen = _log(tmp_path, "source_reader")
    assert "HERE ['_source_reader_helper.py', 'source_reader.py']" in seen and "STAGING PermissionError" in seen
    assert "READ" not in seen and seen.count("DENIED") == 14 * seen.count("HERE")
    assert {b.status for b in t.bots} == {"plays"} and not t.arena.faults


def test_the_guard_tells_a_bots_signal_from_the_teachers() -> None:
    bots, stops = [], []
    me = os.getpid()
    guard = SignalGuard(
        lambda pid: "bot" if pid == me else None, lambda b, s: bots.append((b, s)), lambda: stops.append(1)
    )
    guard.handle(signal.SIGTERM, me, 0)  # from a process under a bot's zygote
    assert bots == [("bot", "SIGTERM")] and not stops
    guard.handle(signal.SIGINT, 0, 0x80)  # Ctrl-C on the terminal
    guard.handle(signal.SIGTERM, os.getppid(), 0)  # the teacher's kill
    guard.handle(signal.SIGUSR1, os.getppid(), 0)  # not a stopping signal
    assert stops == [1, 1]


def test_the_same_key_replays_the_tournament_and_another_key_deals_other_cards(tmp_path) -> None:
    folder = _bots(tmp_path, "memoriser")
    runs = [run_tournament(folder, include=["heuristic"], deals=2, block=2, key=k) for k in (KEY, KEY, KEY[::-1])]
    rows = [[(d.index, d.track, d.a_return, d.termination) for d in r.arena.deal_records] for r in runs]
    assert rows[0] == rows[1]
    assert runs[0].arena.seed == runs[1].arena.seed != runs[2].arena.seed  # the key's fingerprint
    assert KEY.hex() not in str(runs[0].arena.seed)
