"""Tasks of a bot cannot reach each other: files, sockets, IPC, processes (see tournament/jail.py),
and the two seat orders of a block never play at the same time (tournament/apart.py).

Each cheater of tests/cheaters/ plays ``heuristic`` on 2 duplicate deals in blocks of 1 with
``--workers 2``, so the twin tasks of a block (same cards, seats swapped) could overlap.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from sixtysix_env.tournament import league_markdown, run_tournament
from sixtysix_env.tournament import run as run_module
from sixtysix_env.tournament.apart import run_apart
from sixtysix_env.tournament.jail import writable_dirs
from sixtysix_env.tournament.remote import NPROC

from .tournament_helpers import no_jail

CHEATERS = Path(__file__).with_name("cheaters")
KEY = b"teacher-secret-key-0123456789"


NO_JAIL = no_jail()
needs_root = pytest.mark.skipif(bool(NO_JAIL), reason=NO_JAIL)


def _play(tmp_path: Path, name: str, **kw):
    folder = tmp_path / "bots"
    folder.mkdir()
    shutil.copy(CHEATERS / f"{name}.py", folder)
    settings = {"deals": 2, "block": 1, "key": KEY, "log_dir": tmp_path / "logs", "workers": 2, **kw}
    t = run_tournament(folder, include=["heuristic"], time_limit_ms=5000, kill_after_s=20.0, **settings)
    return t, (tmp_path / "logs" / f"{name}.log").read_text(errors="replace")


@pytest.fixture
def twins_overlap(monkeypatch):
    """Let the two seat orders of a block run at the same time (as without apart.py)."""
    monkeypatch.setattr(run_module, "run_apart", lambda items, group, workers, fn: run_apart(items, id, workers, fn))


def test_run_apart_never_runs_two_of_a_group_at_once() -> None:
    running: dict[int, int] = {}
    overlap, most = [], [0]
    lock = threading.Lock()

    def fn(x: tuple[int, int]) -> int:
        with lock:
            running[x[0]] = running.get(x[0], 0) + 1
            overlap.append(running[x[0]] > 1)
            most[0] = max(most[0], sum(running.values()))
        time.sleep(0.02)
        with lock:
            running[x[0]] -= 1
        return 10 * x[0] + x[1]

    items = [(block, track) for block in range(6) for track in (0, 1)]
    assert run_apart(items, lambda x: x[0], 3, fn) == [10 * b + t for b, t in items]  # in the items' order
    assert not any(overlap) and most[0] >= 2  # parallel, never two of a block


def test_run_apart_raises_the_first_error() -> None:
    def fn(x: int) -> int:
        if x == 3:
            raise KeyError(x)
        return x

    with pytest.raises(KeyError):
        run_apart(list(range(8)), lambda x: x // 2, 2, fn)


def test_results_do_not_depend_on_workers(tmp_path) -> None:
    runs = [
        run_tournament(tmp_path, include=["heuristic", "random"], deals=4, block=1, key=KEY, workers=w) for w in (1, 2)
    ]
    rows = [[(d.block, d.index, d.track, d.a_return, d.termination) for d in r.arena.deal_records] for r in runs]
    assert rows[0] == rows[1] and len(rows[0]) >= 8


def test_twins_never_play_at_once_so_an_unjailed_socket_twin_hears_nothing(tmp_path) -> None:
    """No namespaces (bots under the host's uid, as when not root): the schedule alone keeps the
    twins apart; the report warns which guarantees do not hold."""
    t, seen = _play(tmp_path, "socket_twin", own_uids=False)
    assert seen.count("LISTENS UDP") == 4 and "GOT" not in seen and "CHEAT" not in seen
    assert "not isolated" in t.isolation and "/tmp" in t.isolation
    assert t.isolation in league_markdown(t)


def test_writable_dirs_finds_tmp() -> None:
    found = writable_dirs()
    assert os.path.realpath("/tmp") in found and "/" not in found
    assert not [d for d in found if d.startswith(("/proc", "/sys"))]


@needs_root
def test_a_disk_memoriser_finds_nothing_its_other_tasks_left(tmp_path) -> None:
    t, seen = _play(tmp_path, "disk_memoriser")
    assert "FOUND" not in seen and "CHEAT" not in seen
    assert t.isolation == "" and not t.arena.faults
    assert seen.count("WROTE /tmp") == 4 and seen.count("WROTE .") == 4 and seen.count("WROTE /dev/shm") == 4


@needs_root
def test_twins_that_overlap_cannot_talk_over_sockets(tmp_path, twins_overlap) -> None:
    t, seen = _play(tmp_path, "socket_twin")
    assert "GOT" not in seen and "CHEAT" not in seen
    assert t.isolation == "" and not t.arena.faults
    assert seen.count("LISTENS UDP") == 4 and seen.count("LISTENS UNIX") == 4  # each its own network


@needs_root
def test_twins_that_overlap_cannot_see_or_signal_each_other(tmp_path, twins_overlap) -> None:
    t, seen = _play(tmp_path, "proc_twin")
    assert "CAN SIGNAL" not in seen
    assert t.isolation == "" and not t.arena.faults
    assert seen.count("LOOKED pid 1 sees 1") == 4  # pid 1 of its own namespace, alone in its /proc


@needs_root
def test_a_fork_bomb_stops_at_the_process_cap(tmp_path) -> None:
    _, seen = _play(tmp_path, "fork_bomb", deals=1)
    counts = [int(line.split()[1]) for line in seen.splitlines() if line.startswith("FORKED")]
    assert counts and all(0 < n < NPROC for n in counts) and "REFUSED BlockingIOError" in seen


@needs_root
def test_a_keyring_memoriser_cannot_use_the_kernel_keyrings(tmp_path) -> None:
    t, seen = _play(tmp_path, "keyring_memoriser")
    assert "FOUND" not in seen and "CHEAT" not in seen
    assert t.isolation == "" and seen.count("ADD_KEY Operation not permitted") == 4


def test_the_warning_names_why_and_what_does_not_hold() -> None:
    assert run_module.isolation_warning(True, {}) == ""
    text = run_module.isolation_warning(True, {"bot": "unshare(131072, 0): Operation not permitted"})
    assert "Operation not permitted" in text and "/tmp" in text and "network" in text
    unjailed = run_module.isolation_warning(False, {})
    assert "not isolated" in unjailed and "no process limit" in unjailed and "no process limit" not in text
