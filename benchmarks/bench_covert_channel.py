"""What a shared kernel still lets two game processes of one bot say to each other, measured.

The jail (sixtysix_env/tournament/jail.py) and its seccomp filter (seccomp.py) take away files,
sockets, IPC, signals, file locks, ptys, keyrings and the page-cache probes (``mincore``,
``cachestat``, ``RWF_NOWAIT``, ``fadvise``, ``readahead``). Timing channels remain, and this script
measures the two that matter between two processes that use only calls the filter allows:

- ``pagecache-time``: the sender reads chosen pages of a file both can read (in a game, a file
  of the shared Python tree); later, the receiver times a plain 1-byte ``pread`` of each page
  (a cached page answers in microseconds, one on disk much later). One-shot: a page once read
  stays cached, so each region of 64 pages carries one bit, once, until memory pressure evicts
  it. Bits are spaced by the kernel's read-ahead window (the filter refuses ``fadvise``,
  ``MADV_RANDOM`` and ``readahead``, which would let a bot choose it).
- ``cpu``: both run at once; the sender spins for a 1 and sleeps for a 0 in each time slot, the
  receiver counts how much work it gets done per slot.

The same page cache channel on a file in a tmpfs (``--memory-dir``): the jail tree is such a copy
(sixtysix_env/tournament/treecopy.py), whose pages are all in memory. What the receiver still
sees there is the CPU's cache (the lines the sender's reads brought in), right after the sender
(``tmpfs, at once``) and ``--gap-s`` later: twin tasks are never closer than that (a game process
ends, the next ones start and import the bots).

For each: bits sent, bit errors, seconds per bit, and capacity: the raw rate times the
capacity of a binary symmetric channel with that error rate, ``1 - H(errors/bits)`` (and for the
page cache, the bits the Python tree holds). The page cache channel carries data between tasks that
never run at once (the twins of a deal); the CPU channel needs both ends running (a bot's games
against other opponents, with ``--workers`` 2 or more, during their own decisions).

Run: ``python benchmarks/bench_covert_channel.py [--bits 256] [--dir DIR]`` (a few seconds; it
writes one scratch file of ``bits`` x 256 KiB in DIR, default the temporary folder, and drops its
pages from the cache with ``fadvise``, which only the benchmark, not a bot, may call).
"""

from __future__ import annotations

import argparse
import math
import mmap
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.checks import cli_float, cli_int  # noqa: E402

PAGE = mmap.PAGESIZE
STRIDE = 64
"""Pages between two bits: more than the default read-ahead window (128 KiB = 32 pages)."""


def _scratch(folder: str, bits: int) -> str:
    fd, path = tempfile.mkstemp(prefix="covert-", dir=folder)
    block = os.urandom(STRIDE * PAGE)
    for _ in range(bits + 2):
        os.write(fd, block)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
    return path


def _evict(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)


def _in_child(fn, *args) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            fn(*args)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def _send_reads(path: str, message: list[int]) -> None:
    fd = os.open(path, os.O_RDONLY)
    for i, bit in enumerate(message):
        if bit:
            os.pread(fd, 1, (i + 1) * STRIDE * PAGE)
    os.close(fd)


def _receive_times(path: str, n: int) -> list[float]:
    fd = os.open(path, os.O_RDONLY)
    out = []
    for i in range(n):
        start = time.perf_counter_ns()
        os.pread(fd, 1, (i + 1) * STRIDE * PAGE)
        out.append((time.perf_counter_ns() - start) / 1000)
    os.close(fd)
    return out


def _pipe_result(fn, *args):
    """``fn(*args)`` in a child process (the receiver is another process), its result back."""
    import json

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.write(write, json.dumps(fn(*args)).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return json.loads(data)


def pagecache(path: str, bits: int, gap_s: float = 0.0) -> dict[str, float]:
    rng = random.Random(1)
    message = [rng.randrange(2) for _ in range(bits)]
    _evict(path)
    _in_child(_send_reads, path, message)
    time.sleep(gap_s)
    start = time.perf_counter()
    seen = _pipe_result(_receive_times, path, bits)
    ones = [t for t, b in zip(seen, message, strict=True) if b]
    zeros = [t for t, b in zip(seen, message, strict=True) if not b]
    threshold = (statistics.median(ones) * statistics.median(zeros)) ** 0.5  # a receiver calibrates alike
    got = [int(t < threshold) for t in seen]
    extra = {"cached us": statistics.median(ones), "on disk us": statistics.median(zeros)}
    spent = time.perf_counter() - start
    errors = sum(a != b for a, b in zip(got, message, strict=True))
    return {"bits": bits, "errors": errors, "s/bit": spent / bits, "bits/s": bits / spent, **extra}


def _spin_or_sleep(message: list[int], slot: float, t0: float) -> None:
    for i, bit in enumerate(message):
        end = t0 + (i + 1) * slot
        if bit:
            while time.perf_counter() < end:
                pass
        else:
            time.sleep(max(0.0, end - time.perf_counter()))


def _count(n: int, slot: float, t0: float) -> list[int]:
    out = []
    for i in range(n):
        end, work = t0 + (i + 1) * slot, 0
        while time.perf_counter() < end:
            work += 1
        out.append(work)
    return out


def cpu(bits: int, slot: float, same_core: bool) -> dict[str, float]:
    rng = random.Random(2)
    message = [rng.randrange(2) for _ in range(bits)]
    t0 = time.perf_counter() + 0.2
    pid = os.fork()
    if pid == 0:
        if same_core and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {0})
        _spin_or_sleep(message, slot, t0)
        os._exit(0)
    if same_core and hasattr(os, "sched_setaffinity"):
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {0})
    work = _count(bits, slot, t0)
    os.waitpid(pid, 0)
    if same_core and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, before)
    threshold = statistics.median(work)
    got = [int(w < threshold) for w in work]  # less work done: the sender was spinning
    errors = sum(a != b for a, b in zip(got, message, strict=True))
    return {"bits": bits, "errors": errors, "s/bit": slot, "bits/s": 1 / slot}


def _entropy(p: float) -> float:
    """Binary entropy in bits (an error rate above 1/2 is a flipped channel)."""
    p = min(p, 1 - p)
    return 0.0 if p <= 0 else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bits", type=cli_int, default=256, help="bits per channel (default 256)")
    parser.add_argument("--slot-ms", type=cli_float, default=10.0, help="the CPU channel's time slot (default 10 ms)")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where the scratch file goes")
    parser.add_argument(
        "--gap-s",
        type=cli_float,
        default=0.2,
        help="the second tmpfs row's wait between sender and receiver (twin tasks are further apart)",
    )
    parser.add_argument(
        "--memory-dir",
        default="/dev/shm",
        help="a tmpfs folder, for the same page cache channel on files kept in memory, as the jail tree's "
        "copy is (default /dev/shm; '' skips it)",
    )
    args = parser.parse_args(argv)
    if args.bits < 8 or args.slot_ms <= 0:
        parser.error(f"--bits must be at least 8 and --slot-ms above 0, got {args.bits} and {args.slot_ms}")
    if not hasattr(os, "posix_fadvise"):
        print("needs Linux (posix_fadvise, fork)", file=sys.stderr)
        return 2
    path = _scratch(args.dir, args.bits)
    try:
        rows = {"pagecache-time": pagecache(path, args.bits)}
    finally:
        os.unlink(path)
    if args.memory_dir and os.path.isdir(args.memory_dir):
        path = _scratch(args.memory_dir, args.bits)
        try:
            rows["tmpfs, at once"] = pagecache(path, args.bits)
            rows[f"tmpfs, {args.gap_s:g} s later"] = pagecache(path, args.bits, args.gap_s)
        finally:
            os.unlink(path)
    rows["cpu, same core"] = cpu(args.bits, args.slot_ms / 1000, True)
    rows["cpu, any core"] = cpu(args.bits, args.slot_ms / 1000, False)
    print(f"{os.cpu_count()} CPUs; scratch file in {args.dir}; {STRIDE} pages ({STRIDE * PAGE // 1024} KiB) per bit")
    print(f"{'channel':22} {'bits':>5} {'errors':>6} {'ms/bit':>8} {'raw bits/s':>10} {'capacity bits/s':>15}  notes")
    for name, r in rows.items():
        notes = ", ".join(f"{k} {v:.1f}" for k, v in r.items() if k not in ("bits", "errors", "s/bit", "bits/s"))
        capacity = r["bits/s"] * (1 - _entropy(r["errors"] / r["bits"]))
        print(
            f"{name:22} {r['bits']:5d} {r['errors']:6d} {1000 * r['s/bit']:8.3f} {r['bits/s']:10.0f} "
            f"{capacity:15.1f}  {notes}"
        )
    tree = sum(
        os.path.getsize(os.path.join(root, n))
        for folder in dict.fromkeys([sys.base_prefix, sys.prefix])
        for root, _dirs, names in os.walk(folder)
        for n in names
        if os.path.isfile(os.path.join(root, n))
    )
    print(
        f"one-shot page cache capacity of this Python tree on disk, as unjailed bots read it ({tree / 2**30:.2f} GiB): "
        f"about {tree // (STRIDE * PAGE)} bits at {STRIDE} pages per bit (fewer once files are cached)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
