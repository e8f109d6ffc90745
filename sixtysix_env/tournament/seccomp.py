"""A seccomp filter for a game process: the system calls that would let two games of one bot share
state through the kernel fail with ``EPERM`` (see docs/teachers.md).

Namespaces and a jail tree of its own (:mod:`.jail`) keep files, sockets, IPC and processes apart,
but some kernel state is keyed by the file or the user, not the namespace. The filter refuses:

- **file locks and leases**: ``flock``; ``fcntl`` with ``F_GETLK``/``F_SETLK``/``F_SETLKW``, the
  open-file-description locks ``F_OFD_*``, ``F_GETLEASE``/``F_SETLEASE`` and ``F_NOTIFY`` (a lock
  on a shared read-only file is seen by every process that opens it, even a stopped holder's);
- **file access watches**: ``inotify_*`` and ``fanotify_*`` (they report another game's reads);
- **pseudo-terminals**: ``ioctl`` ``TIOCGPTN``, ``TIOCSPTLCK``, ``TIOCGPTPEER`` (the jail tree
  has no ``/dev/ptmx`` either);
- **namespaces**: ``unshare``, ``setns``, and ``clone`` with any ``CLONE_NEW*`` flag (a user
  namespace would give the bot capabilities in it); ``clone3``, whose flags a filter cannot read,
  fails with ``ENOSYS`` so that the C library falls back to ``clone``;
- **page-cache residency probes and eviction**: ``mincore``, ``cachestat``, ``preadv2`` and
  ``pwritev2`` with ``RWF_NOWAIT``, the asynchronous I/O interfaces that take the same flag
  (``io_setup``, ``io_submit``, ``io_uring_*``), ``fadvise64`` and ``readahead``, ``madvise``
  with ``MADV_RANDOM``, ``MADV_SEQUENTIAL``, ``MADV_WILLNEED``, ``MADV_COLD`` or ``MADV_PAGEOUT``,
  and ``process_madvise`` (what is left, timing, is measured by benchmarks/bench_covert_channel.py);
- **kernel keyrings**: ``add_key``, ``request_key``, ``keyctl`` (a user's keyring outlives its
  processes);
- ``prctl(PR_SET_DUMPABLE)``: a game process stays non-dumpable, so its ``/proc`` files (the
  page map among them) stay root's;
- every call of another ABI (32-bit, x32).

:func:`install` puts it on this process (and every child it will have), after
``PR_SET_NO_NEW_PRIVS``; it raises :class:`OSError` saying why when it cannot (a CPU other than
x86_64 and aarch64, no seccomp in the kernel), so a caller can refuse to run bot code without it.
:func:`probe` tries it once in a throwaway process.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["ARCHES", "Arch", "in_child", "install", "probe", "probe_in_child"]

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
PR_SET_DUMPABLE = 4

RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
EPERM, ENOSYS = 1, 38

F_NOTIFY, F_GETLEASE, F_SETLEASE = 1026, 1025, 1024
LOCK_COMMANDS = (5, 6, 7, 36, 37, 38, F_SETLEASE, F_GETLEASE, F_NOTIFY)
"""``F_GETLK``, ``F_SETLK``, ``F_SETLKW``, ``F_OFD_GETLK``, ``F_OFD_SETLK``, ``F_OFD_SETLKW``, leases, ``F_NOTIFY``."""
PTY_IOCTLS = (0x80045430, 0x40045431, 0x5441)
"""``TIOCGPTN``, ``TIOCSPTLCK``, ``TIOCGPTPEER``."""
CLONE_NAMESPACES = 0x7E020080
"""Every ``CLONE_NEW*`` flag: ``NEWTIME``, ``NEWNS``, ``NEWCGROUP``, ``NEWUTS``, ``NEWIPC``,
``NEWUSER``, ``NEWPID``, ``NEWNET``."""
RWF_NOWAIT = 0x8
MADVICE = (1, 2, 3, 20, 21)
"""``MADV_RANDOM``, ``MADV_SEQUENTIAL`` (read-ahead control: without them a probe of the page
cache costs a read-ahead window of pages per bit, not one page), ``MADV_WILLNEED``,
``MADV_COLD``, ``MADV_PAGEOUT``."""


@dataclass(frozen=True)
class Arch:
    """One CPU's ``AUDIT_ARCH`` value and system call numbers (``nr``: name -> number)."""

    audit: int
    nr: dict[str, int]
    x32: bool = False


_DENIED = (
    "flock",
    "mincore",
    "cachestat",
    "fadvise64",
    "readahead",
    "unshare",
    "setns",
    "io_setup",
    "io_submit",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "inotify_init",
    "inotify_init1",
    "inotify_add_watch",
    "fanotify_init",
    "fanotify_mark",
    "add_key",
    "request_key",
    "keyctl",
    "process_madvise",
)
"""Refused whatever their arguments."""

_COMMON = {
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "clone3": 435,
    "process_madvise": 440,
    "cachestat": 451,
}
"""Calls added from Linux 5.1 on: one number on every CPU (the kernel's shared table)."""

ARCHES = {
    "x86_64": Arch(
        0xC000003E,
        {
            "ioctl": 16,
            "mincore": 27,
            "madvise": 28,
            "clone": 56,
            "fcntl": 72,
            "flock": 73,
            "prctl": 157,
            "readahead": 187,
            "io_setup": 206,
            "io_submit": 209,
            "fadvise64": 221,
            "add_key": 248,
            "request_key": 249,
            "keyctl": 250,
            "inotify_init": 253,
            "inotify_add_watch": 254,
            "unshare": 272,
            "inotify_init1": 294,
            "fanotify_init": 300,
            "fanotify_mark": 301,
            "setns": 308,
            "preadv2": 327,
            "pwritev2": 328,
            **_COMMON,
        },
        x32=True,
    ),
    "aarch64": Arch(
        0xC00000B7,
        {
            "io_setup": 0,
            "io_submit": 2,
            "fcntl": 25,
            "inotify_init1": 26,
            "inotify_add_watch": 27,
            "ioctl": 29,
            "flock": 32,
            "unshare": 97,
            "prctl": 167,
            "readahead": 213,
            "add_key": 217,
            "request_key": 218,
            "keyctl": 219,
            "clone": 220,
            "fadvise64": 223,
            "mincore": 232,
            "madvise": 233,
            "fanotify_init": 262,
            "fanotify_mark": 263,
            "setns": 268,
            "preadv2": 286,
            "pwritev2": 287,
            **_COMMON,
        },
    ),
}
"""The CPUs the filter knows (``os.uname().machine``); aarch64 has no ``inotify_init``."""

# classic BPF opcodes
_LD_W_ABS, _JEQ, _JGE, _JSET, _RET, _JA = 0x20, 0x15, 0x35, 0x45, 0x06, 0x05
_NR, _ARCH = 0, 4


def _arg(i: int) -> int:
    """Offset of the low 32 bits of argument ``i`` in ``struct seccomp_data`` (little-endian)."""
    return 16 + 8 * i


def _program(arch: Arch) -> list[tuple[int, int, int, int]]:
    """The filter as ``(code, jt, jf, k)`` instructions, jumps resolved from labels."""
    out: list[tuple[int, str | int, str | int, int]] = []  # jt/jf: a label or a count

    def test(op: int, value: int, then: str | int, otherwise: str | int = 0) -> None:
        out.append((op, then, otherwise, value))

    labels: dict[str, int] = {}
    out.append((_LD_W_ABS, 0, 0, _ARCH))
    test(_JEQ, arch.audit, 0, "deny")  # another ABI: refused
    out.append((_LD_W_ABS, 0, 0, _NR))
    if arch.x32:
        test(_JGE, 0x40000000, "deny")
    for name in _DENIED:
        if name in arch.nr:
            test(_JEQ, arch.nr[name], "deny")
    test(_JEQ, arch.nr["clone3"], "enosys")
    checks = {
        "clone": (0, [(_JSET, CLONE_NAMESPACES)]),
        "fcntl": (1, [(_JEQ, c) for c in LOCK_COMMANDS]),
        "ioctl": (1, [(_JEQ, c) for c in PTY_IOCTLS]),
        "preadv2": (5, [(_JSET, RWF_NOWAIT)]),
        "pwritev2": (5, [(_JSET, RWF_NOWAIT)]),
        "madvise": (2, [(_JEQ, c) for c in MADVICE]),
        "prctl": (0, [(_JEQ, PR_SET_DUMPABLE)]),
    }
    for name in checks:
        test(_JEQ, arch.nr[name], name)
    out.append((_RET, 0, 0, RET_ALLOW))
    for name, (arg, conds) in checks.items():
        labels[name] = len(out)
        out.append((_LD_W_ABS, 0, 0, _arg(arg)))
        for op, value in conds:
            test(op, value, "deny")
        out.append((_RET, 0, 0, RET_ALLOW))
    labels["deny"] = len(out)
    out.append((_RET, 0, 0, RET_ERRNO | EPERM))
    labels["enosys"] = len(out)
    out.append((_RET, 0, 0, RET_ERRNO | ENOSYS))

    resolved = []
    for i, (code, jt, jf, k) in enumerate(out):
        offsets = [labels[j] - i - 1 if isinstance(j, str) else j for j in (jt, jf)]
        if not all(0 <= o <= 255 for o in offsets):
            raise AssertionError(f"seccomp filter: jump out of range at instruction {i}")
        resolved.append((code, offsets[0], offsets[1], k))
    return resolved


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def install() -> None:
    """Put the filter on this process and its future children; OSError saying why when it cannot
    (then nothing is installed)."""
    machine = os.uname().machine
    arch = ARCHES.get(machine)
    if arch is None:
        raise OSError(f"no seccomp filter for a {machine} CPU (the tournament host knows x86_64 and aarch64)")
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        raise OSError("no prctl() here (Linux only): no seccomp filter") from None
    code = _program(arch)
    filters = (_Filter * len(code))(*[_Filter(*c) for c in code])
    program = _Program(len(code), filters)
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(err)}; no seccomp filter")
    if prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.cast(ctypes.byref(program), ctypes.c_void_p), 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"the kernel refused the seccomp filter: {os.strerror(err)}")


def _why(e: BaseException) -> bytes:
    return (str(e) or type(e).__name__).encode()[:500]


def in_child(run: Callable[[], bytes], failed: Callable[[BaseException], bytes] = _why) -> bytes:
    """``run()`` in a throwaway forked child, its bytes back through a pipe (``failed(e)`` when it
    raises ``e``; by default the message, at most 500 bytes), so nothing the child installs or
    enters touches this process."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            result = run()
        except BaseException as e:
            result = failed(e)
        os.write(write, result)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return data


def probe_in_child(attempt: Callable[[], str]) -> str:
    """Run ``attempt`` in a throwaway forked child: ``""`` when it returns ``""``, else the reason
    it returned or the exception it raised (at most 500 bytes)."""
    return in_child(lambda: attempt().encode()[:500]).decode("utf-8", "replace")


def _install_and_fork() -> str:  # pragma: no cover - runs in the child of probe_in_child
    install()
    if os.fork() == 0:  # the filter must not break an ordinary fork
        os._exit(0)
    os.wait()
    return ""


def probe() -> str:
    """Install the filter in a throwaway child: ``""`` when it works here, else why not."""
    return probe_in_child(_install_and_fork)
