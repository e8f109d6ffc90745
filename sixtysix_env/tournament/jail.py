"""Linux namespaces for a game process, so that nothing a bot leaves behind or sends reaches its
other tasks (the same deal with the seats swapped).

:func:`enter` (as root, before any bot code runs) unshares a mount, network, IPC and PID
namespace: every mount becomes private and read-only (and ``nosuid``), a fresh size-capped
tmpfs covers every world-writable directory (:func:`writable_dirs`) and ``/tmp``, there is no
network (no loopback either: no TCP/UDP on 127.0.0.1, no abstract unix socket shared with
another task), SysV IPC and POSIX message queues are private. The next child forked is pid 1 of
a PID namespace of its own: :func:`mount_proc` gives it a ``/proc`` that shows only its own
processes, so it cannot see or signal another task's, and :func:`deny_keyrings` keeps it off the
kernel keyrings (which belong to a user id, not a namespace). Everything is gone when the task ends.
:func:`probe` says once, up front, whether this works here (root with ``CAP_SYS_ADMIN`` on Linux).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import stat
from collections.abc import Sequence

__all__ = ["TMPFS_OPTIONS", "deny_keyrings", "enter", "mount_proc", "probe", "writable_dirs"]

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18

TMPFS_OPTIONS = "size=16m,nr_inodes=4096,mode=1777"
"""Each fresh tmpfs of a game process: 16 MiB and 4096 files at most, writable by the bot."""

STANDARD = ("/tmp", "/var/tmp", "/dev/shm", "/run/shm", "/run/lock", "/var/lock", "/dev/mqueue")
SCANNED = ("/", "/var", "/run", "/dev", "/home", "/srv", "/opt", "/mnt", "/media", "/usr", "/usr/local", "/var/lib")
SKIPPED = ("/proc", "/sys")

try:
    _libc: ctypes.CDLL | None = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - not Linux
    _libc = None


def _call(name: str, *args: object) -> None:
    """``libc.name(*args)``; OSError with the errno when it fails or does not exist."""
    fn = getattr(_libc, name, None)
    if fn is None:
        raise OSError(f"no {name}() here (Linux only)")
    if fn(*args) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{name}{args[:2]!r}: {os.strerror(err)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = [None if x is None else x.encode() for x in (source, target, fstype, data)]
    _call("mount", enc[0], enc[1], enc[2], ctypes.c_ulong(flags), enc[3])


def mount_points() -> list[str]:
    """Every mount point of this mount namespace, parents first (``/proc/self/mountinfo``; none
    where there is no such file)."""
    out = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", "rb") as f:
        for line in f:
            raw = line.split()[4].decode("utf-8", "replace")
            out.append(raw.encode().decode("unicode_escape"))  # \040 is a space
    return out


def _skipped(path: str) -> bool:
    return any(path == s or path.startswith(s + "/") for s in SKIPPED)


def writable_dirs() -> list[str]:
    """The world-writable directories a bot could leave a file in (resolved, outermost only):
    the standard ones, every mount point, and the folders in and just under the standard roots."""
    found: set[str] = set()
    candidates = [*STANDARD, *mount_points()]
    for root in SCANNED:
        with contextlib.suppress(OSError):
            candidates += [os.path.join(root, n) for n in os.listdir(root)]
    for path in candidates:
        real = os.path.realpath(path)
        if _skipped(real) or real == "/":
            continue
        with contextlib.suppress(OSError):
            mode = os.stat(real).st_mode
            if stat.S_ISDIR(mode) and mode & 0o002:
                found.add(real)
    out: list[str] = []
    for path in sorted(found):
        if not any(path.startswith(p + "/") for p in out):
            out.append(path)
    return out


def _under(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def enter(private: Sequence[str], keep: Sequence[str] = ()) -> None:
    """Unshare the namespaces and cover ``private`` (and ``/tmp``) with fresh tmpfs, every
    other mount read-only, but ``keep`` (the bots' staged files, Python) visible read-only where
    it was; OSError (nothing done that a bot could use) when it cannot."""
    covered = [p for p in dict.fromkeys([*private, "/tmp"]) if os.path.isdir(p)]
    _call("unshare", CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID)
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    for point in mount_points():
        if _skipped(point):
            continue
        try:
            flags = os.statvfs(point).f_flag & (MS_NODEV | MS_NOEXEC)
        except OSError:  # gone, or not a folder this process can reach: nothing to write to
            continue
        try:
            _mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | flags)
        except OSError as e:
            raise OSError(f"cannot make {point} read-only for the bots ({e})") from None
    kept = {p: os.open(p, os.O_PATH | os.O_DIRECTORY) for p in keep if os.path.isdir(p) and _under(p, covered)}
    try:
        for path in covered:
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, TMPFS_OPTIONS)
        for path, fd in kept.items():
            os.makedirs(path, mode=0o755, exist_ok=True)
            _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
            _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID)
    finally:
        for fd in kept.values():
            os.close(fd)


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


KEY_SYSCALLS = {"x86_64": (0xC000003E, (248, 249, 250)), "aarch64": (0xC00000B7, (217, 218, 219))}
"""``AUDIT_ARCH`` and the numbers of ``add_key``, ``request_key``, ``keyctl``."""


def deny_keyrings() -> bool:
    """A seccomp filter: ``add_key``, ``request_key`` and ``keyctl`` fail (EPERM), as do calls of
    another ABI (32-bit), for this process and its children: a user's keyring outlives its
    processes, so it would carry data between tasks. False on another CPU (nothing done)."""
    arch = KEY_SYSCALLS.get(os.uname().machine)
    if arch is None:
        return False
    audit, (add, request, keyctl) = arch
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    deny, allow = 0x00050000 | 1, 0x7FFF0000
    code = [(ld, 0, 0, 4), (jeq, 0, 6, audit), (ld, 0, 0, 0), (jeq, 4, 0, add), (jeq, 3, 0, request)]
    code += [(jeq, 2, 0, keyctl), (jge, 1, 0, 0x40000000), (ret, 0, 0, allow), (ret, 0, 0, deny)]
    filters = (_Filter * len(code))(*[_Filter(*c) for c in code])
    program = _Program(len(code), filters)
    _call("prctl", 38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    _call("prctl", 22, 2, ctypes.byref(program), 0, 0)  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
    return True


def mount_proc() -> None:
    """In pid 1 of the new PID namespace: a ``/proc`` of this namespace only."""
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def probe(private: Sequence[str], keep: Sequence[str] = ()) -> str:
    """Try :func:`enter` and :func:`mount_proc` in throwaway processes: ``""`` when they work,
    else why not."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        why = b""
        try:
            enter(private, keep)
            child = os.fork()
            if child == 0:
                try:
                    mount_proc()
                    deny_keyrings()
                    os._exit(0)
                except BaseException:
                    os._exit(1)
            if os.waitpid(child, 0)[1] != 0:
                why = b"mounting a /proc of its own or the seccomp filter failed"
        except BaseException as e:
            why = str(e).encode()[:500] or type(e).__name__.encode()
        os.write(write, why)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        why = f.read().decode("utf-8", "replace")
    os.waitpid(pid, 0)
    return why
