"""Twin memory through a relay of POSIX record locks (issue 32, item 2). Every game process of
the bot holds 1-byte read locks on a world-readable file (``/etc/passwd``, else the bot's own
Python's ``os.py``): a lock at offset ``(trump << 40) | hand`` is the code of a hand dealt with
that trump card. Locks are kept by the kernel per file, whatever the mount and PID namespaces,
even while their holder is stopped. On each decision the game reads every code the others hold
(``F_GETLK``, walking up the offsets) and copies them, so a finished task's hand is still there
when its twin starts. A code with its own trump, disjoint from its own hand, is the opponent's
hand: printed as a CLAIM (checked against the game records by the test)."""

import fcntl
import os
import struct

SHIFT = 40
SEEN: set[int] = set()
FD: list[int] = []
ME: list[int] = []
FLOCK = "hhqqi"  # struct flock on Linux 64-bit: l_type, l_whence, l_start, l_len, l_pid


def _file() -> str:
    for path in ("/etc/passwd", os.__file__):
        if os.access(path, os.R_OK):
            return path
    return os.__file__


def _hold(code: int) -> None:
    try:
        fcntl.lockf(FD[0], fcntl.LOCK_SH | fcntl.LOCK_NB, 1, code, os.SEEK_SET)
        SEEN.add(code)
    except OSError as e:
        print("REFUSED F_SETLK", type(e).__name__, flush=True)


def _codes() -> list[int]:
    """Every code held by another process: F_GETLK for a write lock from each offset on."""
    out, start = [], 1 << SHIFT
    while len(out) < 64:
        query = struct.pack(FLOCK, fcntl.F_WRLCK, os.SEEK_SET, start, 0, 0)
        try:
            got = fcntl.fcntl(FD[0], fcntl.F_GETLK, query)
        except OSError as e:
            print("REFUSED F_GETLK", type(e).__name__, flush=True)
            return out
        kind, _, at, length, _ = struct.unpack(FLOCK, got)
        if kind == fcntl.F_UNLCK:
            return out
        out.append(at)
        start = at + max(1, length)
    return out


class LockRelay:
    def act(self, info, rng):
        if not FD:
            FD.append(os.open(_file(), os.O_RDONLY))
            ME.append((info.trump_card << SHIFT) | info.hand)
            print("FILE", _file(), flush=True)
            for code in _codes():
                trump, hand = code >> SHIFT, code & ((1 << SHIFT) - 1)
                if trump == info.trump_card and not hand & info.hand and bin(hand).count("1") == 6:
                    print(f"CLAIM lock trump={trump} hand={hand}", flush=True)
            _hold(ME[0])
            print("HOLDS", len(SEEN), flush=True)
        for code in _codes():  # relay: copy what the others hold
            if code not in SEEN:
                _hold(code)
        return info.legal_actions()[0]
