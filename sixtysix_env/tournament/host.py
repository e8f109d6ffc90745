"""The host's handles on a bot's processes: :class:`Zygote` (one per bot) and :class:`Game`
(one fresh process per task, see :mod:`.sandbox`).

The host times every decision itself: its own clock from sending the question to reading the
answer, and the CPU time the kernel counts for the game; the bot's clocks are never asked. Where
cgroups hold (:mod:`.cgroups`, root), each game runs in a cgroup of its own: its CPU is the
group's counter (every process it ever had, reaped by the kernel or not), between its decisions
the whole group is frozen (no ``SIGCONT`` from inside thaws it), its memory and task count are
capped for all its processes together (the kernel's OOM kill there faults the bot), and at the
end of the task the group is killed and removed. Without them: CPU is the game process's tree
(live helpers, and every child any of them reaped), its process group is stopped (``SIGSTOP``)
between decisions and killed at the end of the task. What a bot prints goes through a pipe to
its log, cut at a cap (per bot, over all its zygotes: :class:`LogBudget`), with its control
characters made visible. An answer is one JSON object of at most :data:`.sandbox.MAX_MESSAGE`
bytes; anything else is :class:`Cheated`: whatever the decoder raises (deep nesting, bad UTF-8),
an empty message, a message waiting before the question was sent, or one that does not carry
the question's random nonce (so an answer is never read one message late). Whatever ends a
question, the game's process group is killed with it.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import pickle
import secrets
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..text_safety import terminal_text
from . import cgroups
from .sandbox import MAX_MESSAGE, describe_exception, stat_fields, tree_cpu

__all__ = ["BotDied", "Cheated", "Game", "LogBudget", "NoAnswer", "Zygote", "describe_exception", "log_cut"]

ZYGOTE = (
    "import sys; sys.path.insert(1, sys.argv[2]); "
    "from sixtysix_env.tournament.treecopy import join_and_restart; "
    "len(sys.argv) > 3 and join_and_restart(int(sys.argv[3])); "
    "from sixtysix_env.tournament.sandbox import zygote_main; zygote_main(int(sys.argv[1]))"
)
"""The zygote's program; its arguments: the control socket, the folder this package is in, and
(jailed) the mount namespace of the jail tree's copy (:mod:`.treecopy`), which it joins, then starts
again without."""
ANSWER_KEYS = frozenset({"ok", "error", "action", "raised", "returned"})


class NoAnswer(Exception):
    """The bot did not answer in time; its process was stopped."""


class BotDied(Exception):
    """The bot's process ended."""


class Cheated(Exception):
    """The bot broke the protocol on purpose (a forged or oversized message): disqualify it."""


def log_cut(cap: int) -> bytes:
    """The line that ends a bot's log cut at ``cap`` bytes."""
    return f"\n[log cut at {cap} bytes; the rest was dropped]\n".encode()


class LogBudget:
    """What is left of a bot's log cap, shared by all its zygotes (a zygote started again after
    one died writes on the same budget: the cap is per bot per tournament); thread-safe."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.left = cap
        self._cut = False
        self._lock = threading.Lock()

    def take(self, n: int) -> tuple[int, bool]:
        """How many of ``n`` more bytes may be written, and whether the log is cut now (true once)."""
        with self._lock:
            k = min(n, self.left)
            self.left -= k
            cut = self.left == 0 and not self._cut
            self._cut = self._cut or cut
            return k, cut


def _drain(fd: int, path: str | None, cap: int | LogBudget) -> None:
    """Copy a bot's printed output from its pipe to its log, at most the cap's bytes (a
    :class:`LogBudget` shared by the bot's zygotes, or a number of bytes for this one); read
    (and drop) the rest, so a bot that floods its log only wastes its own time. Control
    characters and escape sequences are made visible (:func:`..text_safety.terminal_text`), so
    a teacher can print the log safely."""
    budget = cap if isinstance(cap, LogBudget) else LogBudget(cap)
    out = open(path, "ab") if path is not None else None  # noqa: SIM115
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    try:
        while True:
            data = os.read(fd, 1 << 16)
            if not data:
                break
            if out is not None and budget.left > 0:
                shown = terminal_text(decoder.decode(data), keep_newlines=True).encode()
                k, cut = budget.take(len(shown))
                out.write(shown[:k])
                if cut:
                    out.write(log_cut(budget.cap))
                out.flush()
    finally:
        os.close(fd)
        if out is not None:
            out.close()


def _clean_env() -> dict[str, str]:
    """The environment of a bot's processes: nothing of the teacher's (not their ``PATH`` nor
    ``PYTHONPATH``: the zygote is told where this package is in its arguments)."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    env.update({v: "1" for v in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")})
    return env


def _decode(data: bytes, nonce: str | None = None) -> dict[str, Any]:
    """One answer from its bytes, or :class:`Cheated`: whatever fails in decoding (bad UTF-8,
    not JSON, nesting so deep that the parser recurses out, a number too long to convert, any
    other exception of the decoder) is the bot's doing, never the host's crash. With ``nonce``
    (the question's), the answer must carry it under ``"n"``: a message that does not is one
    nobody asked for (a second answer, bytes written by the bot itself), so it is never taken
    as the reply to the question just sent, whenever it arrives."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except Exception as e:  # RecursionError, UnicodeDecodeError, ValueError and the rest
        raise Cheated(f"sent something that is not a JSON answer ({type(e).__name__}; {data[:40]!r})") from None
    if not isinstance(obj, dict):
        raise Cheated(f"sent a message that is not an answer ({data[:40]!r})")
    if nonce is not None:
        if obj.get("n") != nonce:
            raise Cheated(f"sent a message nobody asked for ({data[:40]!r})")
        obj = {k: v for k, v in obj.items() if k != "n"}
    if len(obj) != 1 or not ANSWER_KEYS.issuperset(obj):
        raise Cheated(f"sent a message that is not an answer ({data[:40]!r})")
    return obj


def _unasked(sock: socket.socket) -> None:
    """:class:`Cheated` when a message waits that nobody asked for (a second answer, bytes
    written at import time): the host only asks when nothing is pending, so an answer is always
    the reply to the question just sent, never one message late."""
    try:
        data = sock.recv(MAX_MESSAGE + 1, socket.MSG_DONTWAIT | socket.MSG_PEEK)
    except (BlockingIOError, InterruptedError):
        return
    except OSError:
        raise BotDied("its process ended") from None
    if not data:  # the end of the process, or an empty message: take it and look again
        with contextlib.suppress(OSError):
            sock.recv(1, socket.MSG_DONTWAIT)
        if not _empty_message(sock):
            raise BotDied("its process ended")
    raise Cheated(f"sent a message nobody asked for ({data[:40]!r})")


def _empty_message(sock: socket.socket) -> bool:
    """After ``recv`` gave no bytes: whether that was an empty message (the socket still open)
    rather than the end of the bot's process."""
    try:
        return sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) != b""
    except (BlockingIOError, InterruptedError):
        return True
    except OSError:
        return False


def _read_json(sock: socket.socket, timeout_s: float, nonce: str | None = None) -> dict[str, Any]:
    ready, _, _ = select.select([sock], [], [], max(0.0, timeout_s))
    if not ready:
        raise NoAnswer(f"no answer within {timeout_s:.1f} s")
    try:
        data = sock.recv(MAX_MESSAGE + 1)
    except OSError:
        data = b""
    if not data:
        if _empty_message(sock):
            raise Cheated("sent an empty message, not an answer")
        raise BotDied("its process ended")
    if len(data) > MAX_MESSAGE:
        raise Cheated(f"sent a message of more than {MAX_MESSAGE} bytes to the tournament")
    return _decode(data, nonce)


class Zygote:
    """A bot's zygote process (started with a clean environment, in its own session) and the
    pipe that carries its games' printed output to ``log_path``."""

    def __init__(
        self,
        config: dict[str, Any],
        log_path: str | None,
        log_cap: int | LogBudget,
        timeout_s: float,
        tree_fd: int | None = None,
    ) -> None:
        self.lock = threading.Lock()
        host, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        read, write = os.pipe()
        args = [str(child.fileno()), str(Path(__file__).resolve().parents[2])]
        if tree_fd is not None:
            args.append(str(tree_fd))
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", ZYGOTE, *args],
                pass_fds=(child.fileno(),) if tree_fd is None else (child.fileno(), tree_fd),
                stdin=subprocess.DEVNULL,
                stdout=write,
                stderr=write,
                env=_clean_env(),
                cwd="/",
                start_new_session=True,
            )
        finally:
            child.close()
            os.close(write)
        threading.Thread(target=_drain, args=(read, log_path, log_cap), daemon=True, name="bot log").start()
        self.ctl = host
        host.sendall(pickle.dumps({**config, "host": os.getpid()}))
        self.memory_bytes: int | None = config.get("memory_bytes")
        ready = self._reply(timeout_s)
        self.pid = int(ready.get("ready", 0))
        self.unjailed = str(ready.get("jail", ""))
        """Why its games get no namespaces of their own (:mod:`.jail`); ``""`` when they do."""

    def _reply(self, timeout_s: float) -> dict[str, Any]:
        ready, _, _ = select.select([self.ctl], [], [], timeout_s)
        data = self.ctl.recv(4096) if ready else b""
        if not data:
            self.close()
            raise BotDied("its zygote did not start" if not ready else "its zygote ended")
        try:
            obj = json.loads(data)
        except Exception:  # whatever the decoder raises, the zygote is lost
            obj = None
        if not isinstance(obj, dict):
            self.close()
            raise BotDied(f"its zygote sent something unreadable ({data[:40]!r})")
        return obj

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def game(self, settings: dict[str, Any]) -> Game:
        """A fresh game process (forked by the zygote, ``settings`` added to its config), in a
        cgroup of its own where they hold (it joins before any bot code runs)."""
        try:
            group = cgroups.new_group(self.memory_bytes)
        except OSError as e:
            raise BotDied(f"the host could not create its game's cgroup ({e})") from None
        if group is not None:
            settings = {**settings, "cgroup": group.procs}
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with self.lock:
                socket.send_fds(self.ctl, [pickle.dumps(("game", settings))], [theirs.fileno()])
                pid = int(self._reply(10.0)["pid"])
        except (OSError, KeyError, ValueError, TypeError) as e:
            mine.close()
            if group is not None:
                group.destroy()
            raise BotDied(f"its zygote failed ({e})") from None
        except BotDied:
            mine.close()
            if group is not None:
                group.destroy()
            raise
        finally:
            theirs.close()
        return Game(mine, pid, self.pid, group)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.ctl.close()
        with contextlib.suppress(OSError):
            self.proc.wait(2.0)
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5.0)


STOP_WAIT_S = 0.5
"""How long the host waits at most for ``SIGSTOP`` to land on a game's processes before it freezes
them (microseconds on an idle machine; tens of milliseconds on a loaded one, where a shorter wait
froze processes still running, which then show as sleeping rather than stopped)."""


FREEZE_TRIES = 3
"""How often the host tries to freeze a game's cgroup after an answer before it ends the game."""


class Game:
    """One game process (and its cgroup, where they hold): ``ask`` a question, timed by the
    host; stopped (and frozen) between questions."""

    def __init__(
        self, sock: socket.socket, pid: int, zygote: int | None = None, group: cgroups.GameGroup | None = None
    ) -> None:
        self.sock = sock
        self.pid = pid
        self.zygote = zygote
        self.group = group
        self.closed = False
        self.label = ""

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.pid, sig)

    def cpu(self) -> float:
        """CPU seconds of the game so far: its cgroup's counter (every process it ever had), else
        the game process's tree (its helpers and the children they reaped)."""
        counted = self.group.cpu_seconds() if self.group is not None else None
        return counted if counted is not None else tree_cpu(self.pid, self.zygote)

    def _stop(self) -> None:
        """Stop the process group, then freeze the cgroup: a process frozen before its stop
        lands would show as sleeping, not stopped, so the host waits (briefly) for the stop.

        A group that does not freeze (``FREEZE_TRIES`` times) could go on computing between
        questions, so the game is killed and the bot loses it (``BotDied``)."""
        self._signal(signal.SIGSTOP)
        if self.group is None or not self.group.support.holds("freeze"):
            return
        end = time.monotonic() + STOP_WAIT_S
        while time.monotonic() < end and not all(_stopped(p, self.pid) for p in self.group.pids()):
            time.sleep(0.0002)
        for _ in range(FREEZE_TRIES):
            if self.group.freeze():
                return
            self._signal(signal.SIGSTOP)  # a process may have left the stop (a SIGCONT of its own)
        self.kill()
        raise BotDied(
            f"its processes could not be frozen between questions ({FREEZE_TRIES} tries of "
            f"{cgroups.FREEZE_WAIT_S} s each), so the game was ended"
        )

    def _go(self) -> None:
        """Thaw the cgroup, then continue the process group."""
        if self.group is not None:
            self.group.thaw()
        self._signal(signal.SIGCONT)

    def _over_memory(self) -> BotDied | None:
        """Where the kernel killed one of the game's processes for its cgroup's memory cap."""
        if self.group is None or not self.group.oom_kills():
            return None
        mb = (self.group.memory_bytes or 0) // (1024 * 1024)
        return BotDied(f"its processes went over the memory limit of {mb} MiB (all of them together) and were killed")

    def ask(self, msg: tuple[Any, ...], timeout_s: float) -> tuple[dict[str, Any], float, float]:
        """Send ``msg``; ``(answer, wall seconds, CPU seconds)``. Kills the process on a timeout
        (``NoAnswer``), a death (``BotDied``) or a forged answer (``Cheated``)."""
        if self.closed:
            raise BotDied("its process ended")
        nonce = secrets.token_hex(8)  # unguessable: no answer can be sent before its question
        data = pickle.dumps((nonce, msg))
        cpu = self.cpu()
        self._go()
        start = time.monotonic()
        try:
            _unasked(self.sock)
            self.sock.sendall(data)
            answer = _read_json(self.sock, timeout_s, nonce)
        except (NoAnswer, BotDied, Cheated) as e:
            over = self._over_memory() if isinstance(e, BotDied) else None
            self.kill()
            if over is not None:
                raise over from None
            raise
        except OSError:
            over = self._over_memory()
            self.kill()
            raise (over or BotDied("its process ended")) from None
        except BaseException:  # whatever else happens, the bot's group does not run on
            self.kill()
            raise
        wall = time.monotonic() - start
        self._stop()
        spent = max(0.0, self.cpu() - cpu)
        over = self._over_memory()
        if over is not None:
            self.kill()
            raise over
        return answer, wall, spent

    def kill(self) -> None:
        """End the game process and its whole process group; remove its cgroup, killing every
        process left in it (one that left the process group too)."""
        if not self.closed:
            self.closed = True
            self._signal(signal.SIGKILL)
            self.sock.close()
            if self.group is not None:
                self.group.destroy()


def _stopped(pid: int, group: int) -> bool:
    """Whether ``pid`` is stopped, gone, or outside the process group ``group`` (which SIGSTOP of
    the group does not reach: only the freezer holds it)."""
    fields = stat_fields(pid)
    if fields is None:
        return True
    return fields[0] in (b"T", b"t", b"Z", b"X") or int(fields[2]) != group
