"""No state shared between a bot's games (issue 32, items 1, 2, 11 and 13): the jail tree of a game
process (tournament/jail.py), its fresh user id, the seccomp filter (tournament/seccomp.py), the
staged folder of a bot and its environment.

The hostile bots of tests/cheaters/ (pagecache_twin, lock_relay, pty_twin) try to pass their dealt
hand to their twin (the same deal with the seats swapped); each prints a ``CLAIM`` when it thinks
it learned the opponent's hand, and the test checks every claim against the game records.
"""

from __future__ import annotations

import ctypes
import json
import mmap
import os
import shutil
import struct
import sys
from pathlib import Path

import pytest

from sixtysix_env.cards import parse_cards
from sixtysix_env.tournament import run_tournament, seccomp

from .tournament_helpers import no_jail

CHEATERS = Path(__file__).with_name("cheaters")
KEY = b"teacher-secret-key-0123456789"
MACHINE = os.uname().machine if hasattr(os, "uname") else ""


NO_JAIL = no_jail()
needs_root = pytest.mark.skipif(bool(NO_JAIL), reason=NO_JAIL)
needs_seccomp = pytest.mark.skipif(
    MACHINE not in seccomp.ARCHES or not sys.platform.startswith("linux"),
    reason=f"the seccomp filter knows x86_64 and aarch64 Linux only, not {MACHINE or sys.platform}",
)


# --- the filter, call by call, in a forked child --------------------------------------------------

_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
FLOCK = "hhqqi"


def _raw(name: str, *args: int) -> int:
    """``syscall(nr, *args)``: 0 or more, else ``-errno``."""
    assert _libc is not None
    nr = seccomp.ARCHES[MACHINE].nr[name]
    r = _libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    return r if r >= 0 else -ctypes.get_errno()


def _errno(fn) -> int:
    """0 when ``fn()`` works, else its errno."""
    try:
        fn()
    except OSError as e:
        return e.errno or -1
    return 0


def _probes(path: str) -> dict[str, int]:
    """Each call of the filter's list and a few that must keep working: name -> errno (0: worked)."""
    import fcntl

    fd = os.open(path, os.O_RDONLY)
    lock = struct.pack(FLOCK, fcntl.F_RDLCK, os.SEEK_SET, 0, 1, 0)
    count = ctypes.c_int()
    out = {
        "F_SETLK": _errno(lambda: fcntl.fcntl(fd, fcntl.F_SETLK, lock)),
        "F_SETLKW": _errno(lambda: fcntl.fcntl(fd, fcntl.F_SETLKW, lock)),
        "F_GETLK": _errno(lambda: fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack(FLOCK, fcntl.F_WRLCK, 0, 0, 1, 0))),
        "F_OFD_SETLK": _errno(lambda: fcntl.fcntl(fd, 37, lock)),
        "F_OFD_GETLK": _errno(lambda: fcntl.fcntl(fd, 36, lock)),
        "F_SETLEASE": _errno(lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)),
        "flock": _errno(lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)),
        "lockf": _errno(lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, 0)),
        "TIOCGPTN": -min(0, _raw("ioctl", fd, 0x80045430, 0)),  # unfiltered: ENOTTY (not a terminal)
        "TIOCSPTLCK": -min(0, _raw("ioctl", fd, 0x40045431, 0)),
        "fadvise": _errno(lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)),
        "readahead": -min(0, _raw("readahead", fd, 0, 4096)),
        "preadv2 RWF_NOWAIT": _errno(lambda: os.preadv(fd, [bytearray(1)], 0, os.RWF_NOWAIT)),
        "pwritev2 RWF_NOWAIT": -min(0, _raw("pwritev2", fd, 0, 0, 0, 0, seccomp.RWF_NOWAIT)),
        "cachestat": -min(0, _raw("cachestat", fd, 0, 0, 0)),
        "io_uring_setup": -min(0, _raw("io_uring_setup", 1, 0)),
        "io_setup": -min(0, _raw("io_setup", 1, 0)),
        "inotify_init1": -min(0, _raw("inotify_init1", 0)),
        "unshare(CLONE_NEWUSER)": -min(0, _raw("unshare", 0x10000000)),
        "setns": -min(0, _raw("setns", fd, 0)),
        "keyctl": -min(0, _raw("keyctl", 0, -3, 0, 0, 0)),
        "prctl(PR_SET_DUMPABLE)": -min(0, _raw("prctl", 4, 1, 0, 0, 0)),
        # still allowed
        "fcntl F_GETFD": _errno(lambda: fcntl.fcntl(fd, fcntl.F_GETFD)),
        "preadv2 plain": _errno(lambda: os.preadv(fd, [bytearray(1)], 0, 0)),
        "pread": _errno(lambda: os.pread(fd, 1, 0)),
        "ioctl FIONREAD": -min(0, _raw("ioctl", fd, 0x541B, ctypes.addressof(count))),
    }
    anon = mmap.mmap(-1, 2 * mmap.PAGESIZE)  # page-aligned
    cell = ctypes.c_char.from_buffer(anon)
    page, vec = ctypes.addressof(cell), (ctypes.c_ubyte * 1)()
    out["mincore"] = -min(0, _raw("mincore", page, 1, ctypes.addressof(vec)))
    out["madvise(MADV_PAGEOUT)"] = -min(0, _raw("madvise", page, mmap.PAGESIZE, 21))
    out["madvise(MADV_RANDOM)"] = -min(0, _raw("madvise", page, mmap.PAGESIZE, 1))
    out["madvise(MADV_DONTNEED) allowed"] = -min(0, _raw("madvise", page, mmap.PAGESIZE, 4))
    del cell
    anon.close()
    pid = _raw("clone", 0x10000000 | 17, 0, 0, 0, 0)  # CLONE_NEWUSER | SIGCHLD
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
    out["clone(CLONE_NEWUSER)"] = -min(0, pid)
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    out["fork allowed"] = 0
    out["clone3"] = -min(0, _raw("clone3", 0, 0))
    os.close(fd)
    return out


def _in_child(filtered: bool, path: str) -> dict[str, int]:
    def run() -> bytes:  # pragma: no cover - the child
        if filtered:
            seccomp.install()
        return json.dumps(_probes(path)).encode()

    return json.loads(seccomp.in_child(run, lambda e: json.dumps({"error": repr(e)}).encode()))


REFUSED = [
    "F_SETLK", "F_SETLKW", "F_GETLK", "F_OFD_SETLK", "F_OFD_GETLK", "F_SETLEASE", "flock", "lockf",
    "TIOCGPTN", "TIOCSPTLCK", "fadvise", "readahead", "preadv2 RWF_NOWAIT", "pwritev2 RWF_NOWAIT",
    "cachestat", "io_uring_setup", "io_setup", "inotify_init1", "unshare(CLONE_NEWUSER)", "setns",
    "keyctl", "prctl(PR_SET_DUMPABLE)", "mincore", "madvise(MADV_PAGEOUT)", "madvise(MADV_RANDOM)",
    "clone(CLONE_NEWUSER)",
]  # fmt: skip
ALLOWED = [
    "fcntl F_GETFD",
    "preadv2 plain",
    "pread",
    "ioctl FIONREAD",
    "madvise(MADV_DONTNEED) allowed",
    "fork allowed",
]


@needs_seccomp
def test_the_filter_refuses_each_listed_call_and_keeps_the_rest(tmp_path) -> None:
    path = tmp_path / "shared.bin"
    path.write_bytes(b"x" * 3 * mmap.PAGESIZE)
    seen = _in_child(True, str(path))
    assert "error" not in seen, seen
    assert {name: seen[name] for name in REFUSED} == dict.fromkeys(REFUSED, 1)  # EPERM each
    assert {name: seen[name] for name in ALLOWED} == dict.fromkeys(ALLOWED, 0)
    assert seen["clone3"] == 38  # ENOSYS: the C library falls back to clone, which the filter reads


@needs_seccomp
def test_without_the_filter_the_same_calls_work(tmp_path) -> None:
    """The probes above can fail: unfiltered, the lock, lease-free and cache calls succeed."""
    path = tmp_path / "shared.bin"
    path.write_bytes(b"x" * 3 * mmap.PAGESIZE)
    seen = _in_child(False, str(path))
    works = ["F_SETLK", "F_GETLK", "F_OFD_SETLK", "flock", "lockf", "fadvise", "readahead", "mincore", "pread"]
    assert {name: seen[name] for name in works} == dict.fromkeys(works, 0)
    assert seen["preadv2 RWF_NOWAIT"] in (0, 11)  # worked, or EAGAIN: the page was not cached
    assert seen["prctl(PR_SET_DUMPABLE)"] == 0


def test_an_unknown_cpu_fails_closed_with_a_reason(monkeypatch) -> None:
    monkeypatch.setattr(seccomp.os, "uname", lambda: os.uname_result(("Linux", "h", "6", "1", "riscv64")))
    with pytest.raises(OSError, match="no seccomp filter for a riscv64 CPU"):
        seccomp.install()


def test_every_filter_jump_lands_inside_the_program() -> None:
    for arch in seccomp.ARCHES.values():
        code = seccomp._program(arch)
        assert code[-2:] == [(0x06, 0, 0, 0x00050001), (0x06, 0, 0, 0x00050026)]
        for i, (op, jt, jf, _k) in enumerate(code):
            if op in (0x15, 0x35, 0x45):
                assert i + 1 + max(jt, jf) < len(code)


# --- the cheaters of items 1 and 2, in whole tournaments -----------------------------------------


def _dealt(records: Path) -> set[int]:
    """Every hand dealt in the tournament's game records (card bitmasks)."""
    hands = set()
    for path in records.rglob("*.json"):
        data = json.loads(path.read_text())
        for deal in data.get("deals", [data]):
            hands.update(sum(1 << c for c in parse_cards(hand)) for hand in deal.get("hands", []))
    return hands


def _claims(log: str) -> list[int]:
    return [int(line.rsplit("hand=", 1)[1]) for line in log.splitlines() if line.startswith("CLAIM")]


def _cheat(tmp_path: Path, name: str, workers: int, deals: int = 2, opponents: tuple[str, ...] = ("heuristic",)):
    """The cheater ``name`` plays in jailed games: none faults and it claims no hand; its log."""
    folder = tmp_path / "bots"
    folder.mkdir()
    shutil.copy(CHEATERS / f"{name}.py", folder)
    t = run_tournament(
        folder, include=list(opponents), deals=deals, block=1, key=KEY, log_dir=tmp_path / "logs",
        records=tmp_path / "records", workers=workers, time_limit_ms=5000, kill_after_s=20.0,
    )  # fmt: skip
    log = (tmp_path / "logs" / f"{name}.log").read_text(errors="replace")
    claims = _claims(log)
    right = [c for c in claims if c in _dealt(tmp_path / "records")]
    assert t.isolation == "" and not t.arena.faults
    assert not right and not claims
    return log


@needs_root
@pytest.mark.parametrize("workers", [1, 2])
def test_a_page_cache_twin_learns_nothing(tmp_path, workers) -> None:
    """Item 1: mincore, preadv2(RWF_NOWAIT) and fadvise are refused, so no page tells a hand."""
    log = _cheat(tmp_path, "pagecache_twin", workers)
    assert log.count("WROTE") == 4
    assert log.count("REFUSED mincore") == 4 and log.count("REFUSED preadv2") == 4 * 32
    assert log.count("REFUSED fadvise") == 4


@needs_root
@pytest.mark.parametrize("workers", [1, 2])
def test_a_page_cache_timing_twin_learns_nothing(tmp_path, workers) -> None:
    """Item 1 with the calls the filter cannot refuse (a plain read, timed): the jail tree is a
    copy in memory (tournament/treecopy.py), so a page the sender read is no faster to its twin."""
    log = _cheat(tmp_path, "pagecache_timing_twin", workers)
    assert log.count("POSITIONS") == 4 and "TOO FEW" not in log and log.count("FLAG") == 4


@needs_root
@pytest.mark.parametrize("workers", [1, 2])
def test_a_lock_relay_learns_nothing(tmp_path, workers) -> None:
    """Item 2: POSIX locks are refused (F_SETLK and F_GETLK), so no game holds or reads a code."""
    log = _cheat(tmp_path, "lock_relay", workers, deals=3, opponents=("heuristic", "random"))
    tasks = log.count("FILE ")
    assert tasks == 12 and log.count("HOLDS 0") == tasks and "REFUSED F_GETLK" in log


@needs_root
@pytest.mark.parametrize("workers", [1, 2])
def test_a_pty_twin_gets_no_terminal(tmp_path, workers) -> None:
    """Item 2, second channel: the jail tree has no /dev/ptmx nor /dev/pts."""
    log = _cheat(tmp_path, "pty_twin", workers, deals=3, opponents=("heuristic", "random"))
    assert log.count("NO PTY FileNotFoundError") == 12 and not [x for x in log.splitlines() if x.startswith("PTY ")]


# --- items 11 and 13: a bot's staged folder and its environment -------------------------------------


def test_each_bot_is_staged_with_its_own_files_only(tmp_path) -> None:
    """Item 11: named after the bot, or a helper module named after no bot that it imports."""
    from sixtysix_env.tournament.hosting import own_files

    folder = tmp_path / "bots"
    folder.mkdir()
    for name, text in {
        "alice.py": "import _shared\nfrom _alice_util import x\n",
        "bob.py": "import json\n",
        "al.py": "",
        "_shared.py": "import _deeper\n",
        "_deeper.py": "",
        "_unused.py": "",
        "_alice_util.py": "import _bob_secret\n",
        "_bob_secret.py": "",
        "_al_x.py": "",
        "notes.txt": "",
    }.items():
        (folder / name).write_text(text)
    (folder / "_alice_data").mkdir()
    (folder / "data").mkdir()
    bots = ["al", "alice", "bob"]
    assert own_files("alice", folder, bots) == ["_alice_data", "_alice_util.py", "_deeper.py", "_shared.py", "alice.py"]
    assert own_files("bob", folder, bots) == ["_bob_secret.py", "bob.py"]
    assert own_files("al", folder, bots) == ["_al_x.py", "al.py"]


def test_the_bots_environment_has_none_of_the_teachers_paths(monkeypatch) -> None:
    """Item 13: a fixed PATH, no PYTHONPATH (the zygote is told where this package is)."""
    from sixtysix_env.tournament import host

    monkeypatch.setenv("PATH", "/opt/teacher/bin:/usr/bin")
    monkeypatch.setenv("PYTHONPATH", "/opt/teacher/lib")
    env = host._clean_env()
    assert env["PATH"] == "/usr/bin:/bin" and "PYTHONPATH" not in env
    assert "teacher" not in json.dumps(env)


@needs_root
def test_as_root_a_bot_sees_its_jail_tree_and_a_uid_of_each_game(tmp_path) -> None:
    """The jail tree holds no /etc, no /dev/ptmx, no other bot's folder; every game has a fresh uid;
    every file it maps or reaches is a copy in memory (tmpfs), not a page of the host's disk cache."""
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "looker.py").write_text(LOOKER)
    (folder / "_looker_data.txt").write_text("mine\n")
    (folder / "_other.txt").write_text("nobody's\n")
    t = run_tournament(folder, include=["heuristic"], deals=2, block=1, key=KEY, log_dir=tmp_path / "logs")
    log = (tmp_path / "logs" / "looker.log").read_text()
    assert t.isolation == "" and not t.arena.faults, log
    lines = [json.loads(x[5:]) for x in log.splitlines() if x.startswith("SEEN ")]
    assert len(lines) == 4
    uids = [x["uid"] for x in lines]
    assert len(set(uids)) == 4 and all(u >= 0x70000000 for u in uids) and len({x["gid"] for x in lines}) == 1
    for x in lines:
        assert x["here"] == ["_looker_data.txt", "looker.py"]
        assert x["missing"] == ["/dev/ptmx", "/dev/pts", "/etc/passwd", "/etc", "/usr/bin", "/opt", "/home"]
        assert set(x["dev"]) <= {"null", "zero", "random", "urandom", "shm"} and x["numpy"]
        # every page a bot reads is in memory: none tells its twin what it read (a cached page)
        assert x["filesystems"] == {"mapped": ["tmpfs"], "reached": ["tmpfs"]}
        assert x["env"] == [
            "LANG",
            "MKL_NUM_THREADS",
            "NUMBA_NUM_THREADS",
            "OMP_NUM_THREADS",
            "OPENBLAS_NUM_THREADS",
            "PATH",
        ]


LOOKER = """
import json
import os
import stat

DONE = []


def filesystems():
    # the kind of file system of every file this process maps and of every file it can reach
    kinds = {}
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            kinds[fields[2]] = fields[fields.index("-") + 1]
    mapped, reached = set(), set()
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 6 and fields[4] != "0":
                major, minor = fields[3].split(":")
                mapped.add(kinds.get(f"{int(major, 16)}:{int(minor, 16)}", "unknown " + fields[3]))
    for root, dirs, names in os.walk("/"):
        if root == "/":
            dirs[:] = [d for d in dirs if d != "proc"]
        for n in names:
            st = os.lstat(os.path.join(root, n))
            if stat.S_ISREG(st.st_mode):
                reached.add(kinds.get(f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}", "unknown"))
    return {"mapped": sorted(mapped), "reached": sorted(reached)}


class Looker:
    def act(self, info, rng):
        if not DONE:
            DONE.append(1)
            import numpy

            paths = ["/dev/ptmx", "/dev/pts", "/etc/passwd", "/etc", "/usr/bin", "/opt", "/home"]
            seen = {
                "uid": os.getuid(),
                "gid": os.getgid(),
                "here": sorted(os.listdir(os.path.dirname(os.path.abspath(__file__)))),
                "missing": [p for p in paths if not os.path.exists(p)],
                "dev": sorted(os.listdir("/dev")),
                "numpy": bool(numpy.zeros(2).shape),
                "env": sorted(os.environ),
                "filesystems": filesystems(),
            }
            print("SEEN " + json.dumps(seen), flush=True)
        return info.legal_actions()[0]
"""


# --- the jail tree holds the packages a bot imports by name -------------------------------------


def test_a_module_missing_from_the_tree_is_named_with_the_fix() -> None:
    from sixtysix_env.tournament.hosting import missing_from_tree

    hint = missing_from_tree("ModuleNotFoundError: No module named 'hypothesis.strategies'")
    assert "hypothesis is installed on the host but not in the jail tree" in hint
    assert "write 'import hypothesis'" in hint
    assert missing_from_tree("ModuleNotFoundError: No module named 'no_such_module_here'") == ""
    assert missing_from_tree("ValueError: bad") == ""


@needs_root
def test_the_jail_tree_holds_what_a_bot_imports_by_name_and_says_what_it_lacks(tmp_path) -> None:
    """A package a bot's file imports is copied into the tree with what it requires; one imported
    only by a computed name is not there, and the disqualification says how to bring it."""
    bot = "class {name}:\n    def act(self, info, rng):\n        return info.legal_actions()[0]\n"
    files = {
        "named": "import hypothesis\n\n" + bot.format(name="Named"),
        "computed": "import importlib\n\nimportlib.import_module('hypo' + 'thesis')\n\n" + bot.format(name="Computed"),
    }
    out = {}
    for name, text in files.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.py").write_text(text)
        t = run_tournament(folder, include=["random", "heuristic"], deals=1, block=1, key=KEY)
        assert t.isolation == ""
        out[name] = {b.label: b.reason for b in t.disqualified}
    assert out["named"] == {}
    reason = out["computed"]["computed"]
    assert "No module named 'hypothesis'" in reason and "write 'import hypothesis' in the bot's file" in reason
