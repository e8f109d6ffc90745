"""Twin memory through the page cache, read by timing alone (no call the filter refuses): the
channel a shared disk cache leaves once mincore, preadv2(RWF_NOWAIT) and fadvise are refused.

It lays the large files it can see (over 4 MiB, in path order) end to end and cuts them into
positions 256 KiB apart (the kernel's read-ahead window: a 1-byte read caches its neighbours, not
the next position). Each trump card has a slot of 25 positions: a flag, then one per card id.
The first task of a deal times a 1-byte read of the flag: slow (read from disk), nobody wrote
here, so it writes its dealt hand by reading the positions of its cards. The flag is cached by
that probe, so the twin (the same deal, seats swapped) times the flag as fast, times each card
position, and takes the fast ones as its opponent's hand: a CLAIM when they are a hand of the
right size disjoint from its own (checked against the game records by the test).

In a jail tree held in memory every read is fast: the flag says "written" to every task, and the
card positions show every card, which is no hand."""

import os
import sys
import time

STRIDE = 256 * 1024
SLOT = 25
DONE = []


def _positions() -> list[tuple[str, int]]:
    files = {}
    # "/" and the folders Python imports from: a folder on the way to them may be one it can pass
    # through but not list (a checkout in a 0700 home)
    for top in ["/", *sorted(p for p in sys.path if p.startswith("/"))]:
        for root, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if os.path.join(root, d) not in ("/proc", "/dev", "/sys"))
            for n in sorted(names):
                path = os.path.realpath(os.path.join(root, n))
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                if st.st_size > 4 << 20 and os.path.isfile(path) and os.access(path, os.R_OK):
                    files[path] = st.st_size
    return [(path, off) for path, size in sorted(files.items()) for off in range(STRIDE, size - STRIDE, STRIDE)]


def _time_read(place: tuple[str, int]) -> float:
    fd = os.open(place[0], os.O_RDONLY)
    try:
        start = time.perf_counter_ns()
        os.pread(fd, 1, place[1])
        return (time.perf_counter_ns() - start) / 1000
    finally:
        os.close(fd)


class PagecacheTimingTwin:
    def act(self, info, rng):
        if DONE:
            return info.legal_actions()[0]
        DONE.append(1)
        places = _positions()
        first = info.trump_card * SLOT
        if first + SLOT > len(places):
            print("TOO FEW POSITIONS", len(places), flush=True)
            return info.legal_actions()[0]
        slot = places[first : first + SLOT]
        _time_read(places[-1])
        fast = min(_time_read(places[-1]) for _ in range(5))  # a cached page: the reference
        slow = max(8.0, 5 * fast)
        flag = _time_read(slot[0])
        print("POSITIONS", len(places), "FLAG", "slow" if flag > slow else "fast", round(flag, 1), flush=True)
        if flag > slow:
            for c in range(SLOT - 1):
                if info.hand >> c & 1:
                    _time_read(slot[1 + c])
            print("WROTE", flush=True)
        else:
            times = [_time_read(slot[1 + c]) for c in range(SLOT - 1)]
            hand = sum(1 << c for c, t in enumerate(times) if t <= slow)
            print("READ", bin(hand).count("1"), "fast of", SLOT - 1, flush=True)
            if bin(hand).count("1") == bin(info.hand).count("1") and not hand & info.hand:
                print(f"CLAIM timing trump={info.trump_card} hand={hand}", flush=True)
        return info.legal_actions()[0]
