"""The jail tree's files as a private copy in memory, made once per tournament, so that no page a
bot reads is a page of the host's disk cache.

A bot that reads a file of the host's disk leaves its pages cached, and its twin (the same deal
with the seats swapped) can tell a cached page from one that is not by how long a read takes:
memory that outlives the game. So, as root, the host starts a *keeper* (:func:`keeper_main`, in a
process of its own): it unshares a mount namespace, fills a fresh tmpfs with the files of the jail
tree (:func:`.jail.tree`, less what :func:`copy_plan` leaves out), owners, modes and times kept,
and mounts each copy read-only over the host path it came from. The host keeps a handle on that
namespace (:class:`TreeCopy`) and every bot's zygote joins it and starts again
(:func:`join_and_restart`), so the interpreter, its libraries and every module a game imports are
the copies: tmpfs pages, always in memory, the same for every read. Nothing is left on the host:
the namespace, and the copy with it, ends with the host's handle and the last zygote.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from .jail import (
    CLONE_NEWNS,
    MS_BIND,
    MS_NODEV,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    _call,
    _mount,
    _resolve,
    _under,
)

__all__ = ["TreeCopy", "copy_plan", "join_and_restart", "keeper_main"]

KEEPER = (
    "import sys; sys.path.insert(1, sys.argv[1]); "
    "from sixtysix_env.tournament.treecopy import keeper_main; keeper_main()"
)
"""The keeper's program; its argument: the folder this package is in. Its plan comes on stdin."""
START_S = 300.0
"""The longest the host waits for the copy (hundreds of MiB take seconds)."""


def copy_plan(keep: Sequence[str]) -> list[str]:
    """The real paths to copy (outermost only): each of ``keep`` with its symlinks followed, as
    :func:`.jail.enter` binds them."""
    real = {_resolve(os.path.abspath(p), {}) for p in keep if os.path.lexists(p)}
    wanted = sorted(real, key=lambda p: (p.count("/"), p))
    out: list[str] = []
    for path in wanted:
        if not _under(path, out):
            out.append(path)
    return out


def _copy(src: str, dest: str, exclude: Sequence[str]) -> tuple[int, int]:
    """Copy ``src`` (file, symlink or folder, less ``exclude``) to ``dest`` with its owners, modes
    and times (timestamped ``.pyc`` files stay valid): ``(files, bytes)``."""
    files = size = 0
    st = os.lstat(src)
    if stat.S_ISLNK(st.st_mode):
        os.symlink(os.readlink(src), dest)
        os.lchown(dest, st.st_uid, st.st_gid)
        return 1, 0
    if not stat.S_ISDIR(st.st_mode):
        if not stat.S_ISREG(st.st_mode):
            return 0, 0  # a device, FIFO or socket: nothing a bot imports
        shutil.copy2(src, dest, follow_symlinks=False)
        os.chown(dest, st.st_uid, st.st_gid)
        return 1, st.st_size
    os.mkdir(dest)
    for name in sorted(os.listdir(src)):
        inner = os.path.join(src, name)
        if not _under(inner, exclude):
            f, s = _copy(inner, os.path.join(dest, name), exclude)
            files, size = files + f, size + s
    os.chown(dest, st.st_uid, st.st_gid)
    os.chmod(dest, stat.S_IMODE(st.st_mode))
    os.utime(dest, ns=(st.st_atime_ns, st.st_mtime_ns))
    return files, size


def _skeleton(root: str, path: str) -> None:
    cur = ""
    for part in [c for c in path.split("/") if c][:-1]:
        cur += "/" + part
        if not os.path.isdir(root + cur):
            os.mkdir(root + cur, 0o755)


def keeper_main() -> None:
    """The keeper: read ``{"paths", "exclude"}`` (JSON) on stdin, copy and mount as the module says,
    answer ``{"ok": {...}}`` or ``{"error": text}`` on stdout, then wait for stdin to close."""
    plan = json.loads(sys.stdin.readline())
    try:
        started = time.perf_counter()
        _call("unshare", CLONE_NEWNS)
        _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing of this namespace reaches the host's
        root = tempfile.mkdtemp(prefix="sixtysix-tree-")
        _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700")
        files = size = 0
        for path in plan["paths"]:
            _skeleton(root, path)
            f, s = _copy(path, root + path, plan["exclude"])
            files, size = files + f, size + s
        for path in plan["paths"]:
            _mount(root + path, path, None, MS_BIND)
            _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
        _call("umount2", root.encode(), ctypes.c_int(2))  # MNT_DETACH: the copies live on in their mounts
        os.rmdir(root)
        answer: dict[str, object] = {
            "ok": {"files": files, "bytes": size, "seconds": round(time.perf_counter() - started, 2)}
        }
    except (OSError, ValueError, KeyError, TypeError) as e:
        answer = {"error": str(e) or type(e).__name__}
    print(json.dumps(answer), flush=True)
    sys.stdin.read()  # the host opens our namespace, then closes stdin


class TreeCopy:
    """The host's handle on the keeper's namespace (:attr:`fd`, to pass to each zygote), or why
    there is none (:attr:`error`). :attr:`summary` says what was copied."""

    def __init__(self, keep: Sequence[str], exclude: Sequence[str]) -> None:
        self.fd: int | None = None
        self.error = ""
        self.summary: dict[str, float] = {}
        package = str(Path(__file__).resolve().parents[2])
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", KEEPER, package],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                cwd="/",
                start_new_session=True,
            )
        except OSError as e:
            self.error = f"the keeper of the jail tree did not start ({e})"
            return
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write((json.dumps({"paths": copy_plan(keep), "exclude": list(exclude)}) + "\n").encode())
            proc.stdin.flush()
            line = _read_line(proc, START_S)
            answer = json.loads(line) if line else {"error": "it ended without a word"}
            if "ok" in answer:
                self.fd = os.open(f"/proc/{proc.pid}/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
                self.summary = answer["ok"]
            else:
                self.error = f"the jail tree could not be copied ({answer.get('error')})"
        except (OSError, ValueError) as e:
            self.error = f"the jail tree could not be copied ({e})"
        finally:
            with contextlib.suppress(OSError):
                proc.stdin.close()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stderr is not None:
                proc.stderr.close()
            proc.stdout.close()

    def describe(self) -> str:
        s = self.summary
        size = s.get("bytes", 0) / 2**20
        return f"{int(s.get('files', 0)):,} files, {size:.0f} MiB, copied in {s.get('seconds', 0)} s"

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _read_line(proc: subprocess.Popen[bytes], timeout_s: float) -> str:
    import select

    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout_s)
    return proc.stdout.readline().decode("utf-8", "replace") if ready else ""


def join_and_restart(fd: int) -> None:
    """In a zygote that has just started (one thread): join the namespace of the copy (``setns``)
    and start this program again there, so that every file it maps is a copy. Never returns."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNS) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")
    os.close(fd)
    os.chdir("/")
    argv = list(sys.orig_argv)
    os.execv(sys.executable, [sys.executable, *argv[1:-1]])  # the same program, less the namespace's fd
