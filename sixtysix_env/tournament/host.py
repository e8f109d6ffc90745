"""The host's handles on a bot's processes: :class:`Zygote` (one per bot) and :class:`Game`
(one fresh process per task, see :mod:`.sandbox`).

The host times every decision itself: its own clock from sending the question to reading the
answer, and the CPU time the OS counts for the game process's tree (its live helper processes,
and every child any of them reaped); the bot's clocks are never asked. Between its decisions a
bot's whole process group is stopped (``SIGSTOP``), so nothing it started can take CPU from its
opponent; at the end of the task the group is killed. What a bot prints goes through a pipe to
its log, cut at a cap. An answer is one JSON object of at most :data:`.sandbox.MAX_MESSAGE`
bytes; anything else is :class:`Cheated`.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from .sandbox import MAX_MESSAGE, describe_exception, tree_cpu

__all__ = ["BotDied", "Cheated", "Game", "NoAnswer", "Zygote", "describe_exception", "log_cut"]

ZYGOTE = "import sys; from sixtysix_env.tournament.sandbox import zygote_main; zygote_main(int(sys.argv[1]))"
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


def _drain(fd: int, path: str | None, cap: int) -> None:
    """Copy a bot's printed output from its pipe to its log, at most ``cap`` bytes; read (and
    drop) the rest, so a bot that floods its log only wastes its own time."""
    out = open(path, "ab") if path is not None else None  # noqa: SIM115
    written = 0
    try:
        while True:
            data = os.read(fd, 1 << 16)
            if not data:
                break
            if out is not None and written < cap:
                part = data[: cap - written]
                out.write(part)
                written += len(part)
                if written >= cap:
                    out.write(log_cut(cap))
                out.flush()
    finally:
        os.close(fd)
        if out is not None:
            out.close()


def _clean_env() -> dict[str, str]:
    """The environment of a bot's processes: nothing of the teacher's but what Python needs."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "PYTHONPATH": package_root}
    env.update({v: "1" for v in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")})
    return env


def _read_json(sock: socket.socket, timeout_s: float) -> dict[str, Any]:
    ready, _, _ = select.select([sock], [], [], max(0.0, timeout_s))
    if not ready:
        raise NoAnswer(f"no answer within {timeout_s:.1f} s")
    try:
        data = sock.recv(MAX_MESSAGE + 1)
    except OSError:
        data = b""
    if not data:
        raise BotDied("its process ended")
    if len(data) > MAX_MESSAGE:
        raise Cheated(f"sent a message of more than {MAX_MESSAGE} bytes to the tournament")
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Cheated(f"sent something that is not a JSON answer ({data[:40]!r})") from None
    if not isinstance(obj, dict) or len(obj) != 1 or not ANSWER_KEYS.issuperset(obj):
        raise Cheated(f"sent a message that is not an answer ({data[:40]!r})")
    return obj


class Zygote:
    """A bot's zygote process (started with a clean environment, in its own session) and the
    pipe that carries its games' printed output to ``log_path``."""

    def __init__(self, config: dict[str, Any], log_path: str | None, log_cap: int, timeout_s: float) -> None:
        self.lock = threading.Lock()
        host, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        read, write = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", ZYGOTE, str(child.fileno())],
                pass_fds=(child.fileno(),),
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
        obj: dict[str, Any] = json.loads(data)
        return obj

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def game(self, settings: dict[str, Any]) -> Game:
        """A fresh game process (forked by the zygote, ``settings`` added to its config)."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with self.lock:
                socket.send_fds(self.ctl, [pickle.dumps(("game", settings))], [theirs.fileno()])
                pid = int(self._reply(10.0)["pid"])
        except (OSError, KeyError, ValueError) as e:
            mine.close()
            raise BotDied(f"its zygote failed ({e})") from None
        finally:
            theirs.close()
        return Game(mine, pid, self.pid)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.ctl.close()
        with contextlib.suppress(OSError):
            self.proc.wait(2.0)
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5.0)


class Game:
    """One game process: ``ask`` a question, timed by the host; stopped between questions."""

    def __init__(self, sock: socket.socket, pid: int, zygote: int | None = None) -> None:
        self.sock = sock
        self.pid = pid
        self.zygote = zygote
        self.closed = False
        self.label = ""

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.pid, sig)

    def cpu(self) -> float:
        """CPU seconds of the game process's tree so far (its helpers and their children too)."""
        return tree_cpu(self.pid, self.zygote)

    def ask(self, msg: tuple[Any, ...], timeout_s: float) -> tuple[dict[str, Any], float, float]:
        """Send ``msg``; ``(answer, wall seconds, CPU seconds)``. Kills the process on a timeout
        (``NoAnswer``), a death (``BotDied``) or a forged answer (``Cheated``)."""
        if self.closed:
            raise BotDied("its process ended")
        data = pickle.dumps(msg)
        self._signal(signal.SIGCONT)
        cpu = self.cpu()
        start = time.monotonic()
        try:
            self.sock.sendall(data)
            answer = _read_json(self.sock, timeout_s)
        except (NoAnswer, BotDied, Cheated):
            self.kill()
            raise
        except OSError:
            self.kill()
            raise BotDied("its process ended") from None
        wall = time.monotonic() - start
        self._signal(signal.SIGSTOP)
        return answer, wall, max(0.0, self.cpu() - cpu)

    def kill(self) -> None:
        """End the game process and its whole process group."""
        if not self.closed:
            self.closed = True
            self._signal(signal.SIGKILL)
            self.sock.close()
