"""A bot's own process: it imports the bot, builds it and answers one decision at a time.

The tournament talks to it over a pipe (:class:`BotProcess`). Running every bot in a process of
its own keeps the tournament safe from it: a bot that hangs is stopped and replaced, a bot that
crashes the interpreter loses a deal and nothing else, and a bot sees only the ``InfoState`` it
is sent, never the deal in memory. What a bot prints goes to its log file. This isolates faults,
it is no sandbox: the process runs with the teacher's rights and no memory limit.

Messages (parent -> bot): ``("load",)`` import the file and find the agent; ``("new", seed,
rules)`` build a fresh agent and a ``random.Random(seed)`` for it, and run the agent's optional
one-off ``prepare(rules)`` (compiling a search, as in the arena), which then counts against the
build time and not the first decision's; ``("act", info)`` one decision;
``("stop",)``. Answers: ``("ok", text)``, ``("error", text)``, ``("action", int, seconds)``,
``("raised", text, seconds)``, ``("returned", repr of a value that is no int, seconds)``.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import operator
import os
import random
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection
from typing import Any

from ..agents.spec import AgentSpec, load_module
from ..arena.play import ready_agent

__all__ = ["BotDied", "BotProcess", "NoAnswer", "describe_exception", "host_main"]


def describe_exception(e: BaseException) -> str:
    """``"ZeroDivisionError: division by zero (crash.py, line 12, in act)"``: the exception and
    the innermost line of the bot's own code."""
    frames = traceback.extract_tb(e.__traceback__)
    where = ""
    for frame in reversed(frames):
        if "sixtysix_env" not in frame.filename.replace("\\", "/").split("/")[-3:-1]:
            where = f" ({os.path.basename(frame.filename)}, line {frame.lineno}, in {frame.name})"
            break
    return f"{type(e).__name__}: {e}{where}"


def _redirect_output(log_path: str | None) -> None:
    if log_path is None:
        return
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for stream, target in ((sys.stdout, 1), (sys.stderr, 2)):
        if stream is not None:
            stream.flush()
        os.dup2(fd, target)
    os.close(fd)
    sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115


def _load(spec: AgentSpec) -> tuple[AgentSpec, str]:
    """Import a file bot and fill in its agent attribute by the folder convention."""
    if spec.source and not spec.attribute:
        from .discover import agent_attribute

        name = agent_attribute(load_module(spec.source))
        spec = AgentSpec(spec.label, name, spec.options, spec.source, name)
    return spec, spec.attribute or spec.name


def _exit_with(parent_pid: int) -> None:
    """End this process soon after the tournament's (even a bot stuck in ``act`` goes)."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(parent_pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # the pid was reused by another user's process
                os._exit(1)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def host_main(conn: Connection, spec: AgentSpec, log_path: str | None, parent_pid: int | None = None) -> None:
    """The bot process's loop (the target of :class:`BotProcess`)."""
    if parent_pid is not None:
        _exit_with(parent_pid)
    _redirect_output(log_path)
    if spec.source.endswith(".py"):  # the bot's folder, last: its helper modules import, nothing is shadowed
        folder = os.path.dirname(os.path.abspath(spec.source))
        if folder not in sys.path:
            sys.path.append(folder)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    agent: Any = None
    rng = random.Random(0)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        kind = msg[0]
        if kind == "stop":
            return
        if kind == "act":
            start = time.perf_counter()
            try:
                value = agent.act(msg[1], rng)
            except BaseException as e:  # a bot may raise anything, SystemExit included
                reply: tuple[Any, ...] = ("raised", describe_exception(e), time.perf_counter() - start)
            else:
                seconds = time.perf_counter() - start
                try:
                    reply = ("action", operator.index(value), seconds)
                except TypeError:
                    reply = ("returned", f"{value!r:.80}", seconds)
        else:
            try:
                if kind == "load":
                    spec, found = _load(spec)
                    reply = ("ok", found)
                else:  # "new"
                    agent = ready_agent(spec, msg[2])
                    rng = random.Random(msg[1])
                    reply = ("ok", "")
            except BaseException as e:
                reply = ("error", str(e) if isinstance(e, ValueError) else describe_exception(e))
        conn.send(reply)


class NoAnswer(Exception):
    """The bot did not answer in time; its process was stopped."""


class BotDied(Exception):
    """The bot's process ended (the message gives its exit code)."""


class BotProcess:
    """The parent's handle on one bot process."""

    def __init__(self, ctx: multiprocessing.context.BaseContext, spec: AgentSpec, log_path: str | None) -> None:
        self.spec = spec
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=host_main, args=(child, spec, log_path, os.getpid()), daemon=True, name=spec.label
        )
        self.process.start()
        child.close()

    def ask(self, msg: tuple[Any, ...], timeout_s: float) -> tuple[Any, ...]:
        """Send ``msg`` and wait for the answer; stops the process on a timeout (``NoAnswer``)."""
        try:
            self.conn.send(msg)
            if self.conn.poll(timeout_s):
                return self.conn.recv()
        except (EOFError, OSError):
            self.process.join(1.0)
            code = self.process.exitcode
            self.kill()
            raise BotDied(f"its process ended (exit code {code})") from None
        self.kill()
        raise NoAnswer(f"no answer within {timeout_s:.1f} s")

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self) -> None:
        """Ask the process to end, then make sure it has."""
        with contextlib.suppress(OSError):
            self.conn.send(("stop",))
        self.process.join(1.0)
        self.kill()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5.0)
        self.conn.close()
