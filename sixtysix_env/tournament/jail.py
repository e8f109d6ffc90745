"""Linux namespaces and a jail tree for a game process, so that nothing a bot leaves behind or
sends reaches its other tasks (the same deal with the seats swapped).

:func:`enter` (as root, before any bot code runs) unshares a mount, network, IPC and PID
namespace and moves the process into a tree of its own: a fresh tmpfs root, read-only, that holds
only what :func:`tree` lists (the Python installation, the site-packages a bot may import, this
package and the shared libraries they load, bound read-only from the copy of them in memory that
:mod:`.treecopy` mounted over the host's files in the zygote's namespace), the bot's own staged folder, a
few device files (:data:`DEVICES`: no ``/dev/ptmx``, no ``/dev/pts``), and a fresh size-capped
tmpfs of the game alone at ``/tmp``, ``/dev/shm`` and each world-writable folder of the host
(:func:`writable_dirs`). No ``/etc``, no other file of ``/usr`` or ``/opt``, no other bot's folder.
There is no network (no loopback either: no TCP/UDP on 127.0.0.1, no abstract unix socket shared
with another task), SysV IPC and POSIX message queues are private. The next child forked is pid 1
of a PID namespace of its own: :func:`mount_proc` gives it a ``/proc`` that shows only its own
processes. A fresh user id per game (:func:`game_uid`) and a seccomp filter (:mod:`.seccomp`:
file locks, ptys, namespaces, page-cache probes, keyrings) close what a shared kernel keys by file
or by user. Everything is gone when the task ends. :func:`probe` says once, up front, whether this
works here (root with ``CAP_SYS_ADMIN`` on Linux, x86_64 or aarch64).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import stat
import sys
from collections.abc import Sequence

from . import seccomp

__all__ = ["GAME_UIDS", "TMPFS_OPTIONS", "enter", "game_uid", "mount_proc", "probe", "tree", "writable_dirs"]

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_MOVE, MS_REC, MS_PRIVATE = 32, 4096, 8192, 16384, 1 << 18

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


DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
"""The device files of the jail tree (no ``/dev/ptmx``, ``/dev/pts`` or any other)."""
LIBRARY_DIRS = ("/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib")
"""Where the dynamic linker looks for a shared library (after ``/lib/ARCH-linux-gnu`` and the
like, and a library's own run path)."""
MAX_SCANNED = 200_000
"""The most files :func:`tree` looks at under the kept folders (shared objects are looked into)."""


def _elf_deps(path: str) -> tuple[list[str], list[str], str]:
    """``(needed libraries, run path folders, interpreter)`` of a 64-bit little-endian ELF file;
    empty for anything else (the dynamic section, read with :mod:`struct`)."""
    import struct

    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
                return [], [], ""
            phoff, phentsize, phnum = struct.unpack_from("<Q", head, 32)[0], *struct.unpack_from("<HH", head, 54)
            f.seek(phoff)
            table = f.read(phentsize * phnum)
            loads, dynamic, interp = [], None, ""
            for i in range(phnum):
                kind, _flags, offset, vaddr, _paddr, filesz = struct.unpack_from("<IIQQQQ", table, i * phentsize)
                if kind == 1:
                    loads.append((vaddr, offset, filesz))
                elif kind == 2:
                    dynamic = (offset, filesz)
                elif kind == 3:
                    f.seek(offset)
                    interp = f.read(filesz).rstrip(b"\0").decode("utf-8", "replace")
            if dynamic is None:
                return [], [], interp
            f.seek(dynamic[0])
            raw = f.read(min(dynamic[1], 1 << 16))
            entries = [struct.unpack_from("<qQ", raw, i) for i in range(0, len(raw) - 15, 16)]
            strtab = next((v for t, v in entries if t == 5), None)
            if strtab is None:
                return [], [], interp
            base = next((off + strtab - va for va, off, size in loads if va <= strtab < va + size), None)
            if base is None:
                return [], [], interp

            def text(at: int) -> str:
                f.seek(base + at)
                return f.read(4096).split(b"\0", 1)[0].decode("utf-8", "replace")

            needed = [text(v) for t, v in entries if t == 1]
            runpath = [p for t, v in entries if t in (15, 29) for p in text(v).split(":") if p]
    except (OSError, struct.error, ValueError):
        return [], [], ""
    origin = os.path.dirname(path)
    return needed, [p.replace("$ORIGIN", origin).replace("${ORIGIN}", origin) for p in runpath], interp


def _library_dirs() -> list[str]:
    machine = os.uname().machine
    arch = [f"/lib/{machine}-linux-gnu", f"/usr/lib/{machine}-linux-gnu"]
    return [*arch, *LIBRARY_DIRS, os.path.join(sys.base_prefix, "lib")]


def tree(keep: Sequence[str], executable: str = "", exclude: Sequence[str] = ()) -> list[str]:
    """What a bot's Python needs, for the jail tree: the ``keep`` folders (less ``exclude``), the
    Python ``executable`` (and ``pyvenv.cfg`` beside a venv's), and every shared library that it
    and the extension modules under ``keep`` load (recursively) from outside them. Built once per
    tournament by the host (reading the ELF headers, never running anything)."""
    out = [p for p in dict.fromkeys(os.path.abspath(k) for k in keep) if os.path.exists(p)]
    todo: list[str] = []
    seen = 0
    for folder in out:
        if not os.path.isdir(folder) or not os.stat(folder).st_mode & 0o004:
            continue  # a folder others cannot list (the bots' staging): its bots' own files only
        for root, dirs, names in os.walk(folder):
            dirs[:] = [d for d in dirs if not _under(os.path.join(root, d), exclude)]
            names = [n for n in names if not _under(os.path.join(root, n), exclude)]
            seen += len(names)
            if seen > MAX_SCANNED:
                break
            todo += [os.path.join(root, n) for n in names if ".so" in n]
    if executable:
        exe = os.path.abspath(executable)
        todo.append(os.path.realpath(exe))
        out.append(exe)
        cfg = os.path.join(os.path.dirname(os.path.dirname(exe)), "pyvenv.cfg")
        if os.path.isfile(cfg):
            out.append(cfg)
    dirs = _library_dirs()
    done: set[str] = set()
    while todo:
        path = todo.pop()
        real = os.path.realpath(path)
        if real in done:
            continue
        done.add(real)
        needed, runpath, interp = _elf_deps(real)
        if interp and os.path.exists(interp) and interp not in out:
            out.append(interp)
            todo.append(interp)
        for name in needed:
            for folder in [*runpath, *dirs]:
                candidate = os.path.join(folder, name)
                if os.path.exists(candidate):
                    if not _under(candidate, out):
                        out.append(candidate)
                    todo.append(candidate)
                    break
    return out


def _parts(path: str) -> list[str]:
    return [c for c in path.split("/") if c]


def _resolve(path: str, links: dict[str, str]) -> str:
    """``path`` with its symlinks followed one component at a time (each one found goes to
    ``links``, to be made again in the tree); the real path."""
    rest, cur, hops = _parts(path), "/", 0
    while rest:
        nxt = os.path.join(cur, rest.pop(0))
        if os.path.islink(nxt) and hops < 40:
            hops += 1
            target = os.readlink(nxt)
            links[nxt] = target
            rest = _parts(os.path.normpath(os.path.join(cur, target))) + rest
            cur = "/"
        else:
            cur = nxt
    return cur


def _plan(keep: Sequence[str], gid: int | None) -> tuple[list[str], dict[str, str]]:
    """The real paths to bind into the tree (outermost only) and the symlinks to make there. A
    kept folder others cannot list (the bots' staging folder) gives only its entries of group ``gid``
    and those every user may read."""
    links: dict[str, str] = {}
    wanted: list[str] = []
    for path in keep:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and not st.st_mode & 0o004:
            with contextlib.suppress(OSError):
                for name in sorted(os.listdir(path)):
                    inner = os.path.join(path, name)
                    st_inner = os.lstat(inner)
                    if (gid is not None and st_inner.st_gid == gid) or st_inner.st_mode & 0o004:
                        wanted.append(_resolve(inner, links))
            wanted.append(_resolve(path, links) + "/")  # the folder itself, empty
            continue
        wanted.append(_resolve(path, links))
    binds: list[str] = []
    for path in sorted(dict.fromkeys(wanted), key=lambda p: (p.count("/"), p)):
        if not any(_under(path.rstrip("/"), [b]) for b in binds if not b.endswith("/")):
            binds.append(path)
    links = {k: v for k, v in links.items() if not any(_under(k, [b]) for b in binds if not b.endswith("/"))}
    return binds, links


def _modes(paths: Sequence[str]) -> dict[str, int]:
    """The mode each folder on the way to ``paths`` gets in the tree: its host folder's, but
    always passable (``o+x``) and never writable by others, so that a bot reaches what it needs
    and lists no more than the host lets it (read before the tree covers anything)."""
    out: dict[str, int] = {}
    for path in paths:
        cur = "/"
        for part in _parts(path):
            cur = os.path.join(cur, part)
            if cur not in out:
                try:
                    out[cur] = (os.stat(cur).st_mode & 0o755) | 0o111
                except OSError:
                    out[cur] = 0o755
    return out


HOME = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
"""The folder Python imports this package from (a checkout, or site-packages), as a real path:
the tree's folders are named by their real paths (:func:`_resolve`)."""


def _listable_home(modes: dict[str, int]) -> dict[str, int]:
    """``modes`` with :data:`HOME` listable by every user. Python imports a package only from a
    folder it can list, and in the tree that folder holds nothing but what the tree binds (this
    package, a venv inside a checkout), so a checkout in a 0700 folder (a clone in ``/root``, in
    ``mktemp -d``) serves bots as one anyone may read does."""
    if HOME in modes:
        modes[HOME] |= 0o555
    return modes


def _skeleton(root: str, path: str, modes: dict[str, int]) -> None:
    """Make the folders of ``path`` under ``root`` with their :func:`_modes`."""
    cur = "/"
    for part in _parts(path):
        cur = os.path.join(cur, part)
        inside = root + cur
        if not os.path.lexists(inside):
            os.mkdir(inside)
            os.chmod(inside, modes.get(cur, 0o755))


def _tmpfs_options(uid: int | None, gid: int | None) -> str:
    if uid is None:
        return TMPFS_OPTIONS
    return TMPFS_OPTIONS.replace("mode=1777", f"mode=0700,uid={uid},gid={gid if gid is not None else uid}")


def _pivot(root: str) -> None:
    """Make ``root`` this mount namespace's ``/`` and drop the old one (``pivot_root``; where the
    old root is the initial ramfs, which cannot be pivoted, move it and ``chroot``)."""
    os.chdir(root)
    nr = {"x86_64": 155, "aarch64": 41}.get(os.uname().machine)
    done = False
    if nr is not None and _libc is not None:
        done = _libc.syscall(ctypes.c_long(nr), b".", b".") == 0
    if done:
        _call("umount2", b".", ctypes.c_int(2))  # MNT_DETACH: the old root, stacked on the new
    else:
        _mount(".", "/", None, MS_MOVE)
        _call("chroot", b".")
    os.chdir("/")


def enter(private: Sequence[str], keep: Sequence[str] = (), gid: int | None = None, uid: int | None = None) -> None:
    """Unshare the namespaces and move into a jail tree of the game's own: a fresh tmpfs root,
    read-only, holding only ``keep`` (bound read-only where it is on the host, see :func:`tree`;
    of a folder others cannot list, only the entries of group ``gid`` and those every user may
    read), the :data:`DEVICES`, an empty ``/proc`` to mount, and a fresh size-capped tmpfs owned
    by ``uid`` at ``/tmp``, ``/dev/shm`` and each of ``private`` (the world-writable folders of
    the host). No other file of the host is there. OSError (nothing done that a bot could use)
    when it cannot."""
    covered = list(dict.fromkeys(["/tmp", "/dev/shm", *(p for p in private if os.path.isdir(p))]))
    binds, links = _plan([*keep, *DEVICES], gid)
    bound = [b for b in binds if not b.endswith("/")]
    covered = [p for p in covered if not _under(p, bound)]  # inside a read-only bind: nothing to write
    modes = _listable_home(_modes([*(b.rstrip("/") for b in binds), *links, *covered, "/proc"]))
    _call("unshare", CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID)
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    sources = {}
    try:
        for path in binds:
            real = path.rstrip("/")
            if not path.endswith("/"):
                sources[path] = os.open(real, os.O_PATH | os.O_CLOEXEC)
        root = "/tmp"  # this namespace's own mount over it: the host's /tmp is not touched
        _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=16384,mode=0755")
        for path in covered:  # first: a staged folder under /tmp is bound into the fresh one
            _skeleton(root, path, modes)
            _mount("tmpfs", root + path, "tmpfs", MS_NOSUID | MS_NODEV, _tmpfs_options(uid, gid))
        for path in binds:
            real = path.rstrip("/")
            _skeleton(root, os.path.dirname(real), modes)
            inside = root + real
            if path.endswith("/"):
                _skeleton(root, real, modes)
                continue
            if stat.S_ISDIR(os.fstat(sources[path]).st_mode):
                os.makedirs(inside, exist_ok=True)
            else:
                os.close(os.open(inside, os.O_CREAT | os.O_WRONLY, 0o444))
            _mount(f"/proc/self/fd/{sources[path]}", inside, None, MS_BIND)  # not its submounts: all read-only
            flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID
            if not real.startswith("/dev/"):
                flags |= MS_NODEV
            _mount(None, inside, None, flags)
        for link, target in links.items():
            _skeleton(root, os.path.dirname(link), modes)
            if not os.path.lexists(root + link):
                os.symlink(target, root + link)
        _skeleton(root, "/proc", modes)
    finally:
        for fd in sources.values():
            os.close(fd)
    _pivot(root)
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def game_uid(bot_uid: int, n: int) -> int:
    """The user id of game ``n`` of the bot with user id ``bot_uid``: fresh for each of its next
    65536 games, never a bot's or a real user's (from :data:`GAME_UIDS` up, 65536 per bot)."""
    return GAME_UIDS + (bot_uid % 2048) * 65536 + n % 65536


GAME_UIDS = 0x70000000
"""The first user id of a game process (above the ranges Linux tools give to users and containers)."""


def mount_proc() -> None:
    """In pid 1 of the new PID namespace: a ``/proc`` of this namespace only."""
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def probe(private: Sequence[str], keep: Sequence[str] = ()) -> str:
    """Try the seccomp filter, :func:`enter` and :func:`mount_proc` in throwaway processes:
    ``""`` when they work, else why not."""

    def attempt() -> str:  # pragma: no cover - runs in the child of probe_in_child
        refused = seccomp.probe()
        if refused:
            raise OSError(f"the seccomp filter cannot be installed ({refused})")
        enter(private, keep)
        child = os.fork()
        if child == 0:
            try:
                mount_proc()
                seccomp.install()
                os._exit(0)
            except BaseException:
                os._exit(1)
        if os.waitpid(child, 0)[1] != 0:
            return "mounting a /proc of its own or the seccomp filter failed"
        return ""

    return seccomp.probe_in_child(attempt)
