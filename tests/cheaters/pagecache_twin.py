"""Twin memory through the page cache (issue 32, item 1). It picks the largest world-readable file
it can see in /usr/bin, /usr/lib, /opt or Python's own folders, sets POSIX_FADV_RANDOM (so that a 1-byte
read caches exactly one page), and first reads back what an earlier task left: for its trump
card's slot of 32 pages, a cached page is a card of the hand written there, probed with
preadv2(RWF_NOWAIT), which fails with EAGAIN on a page that is not cached (mincore() is
tried too, but shows every page as cached to a process that may not write the file). Then
it evicts its slot (POSIX_FADV_DONTNEED) and writes its own dealt hand as cached pages. A hand of
6 cards with its own trump, disjoint from its own hand, is its opponent's: it prints it as a
CLAIM (checked against the game records by the test)."""

import ctypes
import os
import sys
import time

PAGE = os.sysconf("SC_PAGE_SIZE")
PROT_READ = MAP_SHARED = 1
SLOT = 32  # pages per trump card: one per card id
DONE = []


def _largest() -> list[str]:
    found = []
    arch = f"{os.uname().machine}-linux-gnu"
    folders = ["/usr/bin", "/usr/lib", f"/usr/lib/{arch}", "/usr/local/lib", "/opt"]
    folders += [os.path.join(sys.base_prefix, "lib"), os.path.join(sys.base_prefix, "bin")]
    for folder in dict.fromkeys(folders):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for n in names:
            path = os.path.join(folder, n)
            try:
                st = os.stat(path)
            except OSError:
                continue
            if st.st_size > 8 << 20 and st.st_mode & 0o004 and os.path.isfile(path):
                found.append((-st.st_size, path))
    return [path for _, path in sorted(found)]


def _evictable(path: str) -> bool:
    """Its pages can be dropped (no running program maps it), as far as preadv2 tells."""
    fd = os.open(path, os.O_RDONLY)
    last = os.fstat(fd).st_size // PAGE - 1  # a page no slot uses: the slots are left as they are
    try:
        os.posix_fadvise(fd, last * PAGE, PAGE, os.POSIX_FADV_DONTNEED)
        cached = _nowait(fd, last, quiet=True)
        time.sleep(0.02)
        os.posix_fadvise(fd, last * PAGE, PAGE, os.POSIX_FADV_DONTNEED)
    except OSError:
        cached = None
    os.close(fd)
    return not cached


def _mincore(fd: int, length: int) -> list[bool] | None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    addr = libc.mmap(None, length, PROT_READ, MAP_SHARED, fd, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        return None
    pages = (length + PAGE - 1) // PAGE
    vec = (ctypes.c_ubyte * pages)()
    r = libc.mincore(ctypes.c_void_p(addr), ctypes.c_size_t(length), vec)
    err = ctypes.get_errno()
    libc.munmap(ctypes.c_void_p(addr), ctypes.c_size_t(length))
    if r != 0:
        print("REFUSED mincore", os.strerror(err), flush=True)
        return None
    return [bool(v & 1) for v in vec]


def _nowait(fd: int, page: int, quiet: bool = False) -> bool | None:
    try:
        os.preadv(fd, [bytearray(1)], page * PAGE, os.RWF_NOWAIT)
        return True
    except BlockingIOError:
        return False
    except OSError as e:
        if not quiet:
            print("REFUSED preadv2", type(e).__name__, flush=True)
        return None


class PagecacheTwin:
    def act(self, info, rng):
        if DONE:
            return info.legal_actions()[0]
        DONE.append(1)
        path = next((p for p in _largest()[:8] if _evictable(p)), None)
        if path is None:
            print("NO FILE", flush=True)
            return info.legal_actions()[0]
        fd = os.open(path, os.O_RDONLY)
        pages = os.fstat(fd).st_size // PAGE
        slots = max(1, pages // SLOT - 2)
        first = (1 + info.trump_card % slots) * SLOT
        print("FILE", path, pages, "pages", flush=True)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
        except OSError as e:
            print("REFUSED fadvise", type(e).__name__, flush=True)
        if first + SLOT > pages:
            print("TOO SMALL", flush=True)
            return info.legal_actions()[0]
        seen = _mincore(fd, (first + SLOT) * PAGE)  # all ones for a file the bot cannot write
        print("MINCORE", "refused" if seen is None else "ok", flush=True)
        bits, how = [_nowait(fd, first + c) for c in range(SLOT)], "preadv2"
        if None not in bits:
            hand = sum(1 << c for c in range(SLOT) if bits[c])
            print("READ", how, bin(hand).count("1"), "pages cached", flush=True)
            if bin(hand).count("1") == bin(info.hand).count("1") and not hand & info.hand:
                print(f"CLAIM {how} trump={info.trump_card} hand={hand}", flush=True)
        time.sleep(0.05)  # the reads a probe started are done: the eviction below takes them all
        try:
            os.posix_fadvise(fd, first * PAGE, SLOT * PAGE, os.POSIX_FADV_DONTNEED)
        except OSError as e:
            print("REFUSED dontneed", type(e).__name__, flush=True)
        for c in range(SLOT):
            if info.hand >> c & 1:
                os.pread(fd, 1, (first + c) * PAGE)
        print("WROTE", flush=True)
        os.close(fd)
        return info.legal_actions()[0]
