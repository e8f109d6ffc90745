"""Decisions under a wall-clock limit (``--decision-limit``) for a user's bot (code the project
does not know): its ``act`` runs in a thread of its own, and the arena stops waiting after the
limit. Built-in agents play in the arena's thread and their time is checked after each answer
(no hand-over per decision; they do not hang).

A Python thread cannot be stopped, so a decision that runs over is left to finish in the
background. Until it has, that bot is not asked again: every decision it is due meanwhile
forfeits at once. So a bot that hangs costs the limit once (per process), not once per deal, and
never runs two decisions at a time; one that only sleeps long is asked again once it answers.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

from ..infostate import InfoState
from .play import BotFault

__all__ = ["TimedAgent"]

# bot key -> the "done" event of a decision of that bot that ran over its limit and still runs; shared
# by the bot's instances in this process (each task builds its own), so a hung bot stays benched.
_OVERRUN: dict[str, threading.Event] = {}
_OVERRUN_LOCK = threading.Lock()


class TimedAgent:
    """``agent`` answering each decision within ``limit_s`` seconds of wall time, else a
    :class:`BotFault`. ``last_seconds`` and ``last_wall``: the CPU and wall time of its last
    answered decision, measured in its thread."""

    def __init__(self, agent: Any, limit_s: float, key: str) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", key)
        self.limit_s = limit_s
        self.key = key  # the bot's identity in this process (its spec), whatever its label
        self.last_seconds: float | None = None
        self.last_wall: float | None = None
        self._jobs: queue.SimpleQueue[tuple[Any, ...] | None] | None = None  # the bot's thread's queue

    def _serve(self, jobs: queue.SimpleQueue[tuple[Any, ...] | None]) -> None:
        while (job := jobs.get()) is not None:
            info, rng, done, answer = job
            start, wall = time.process_time(), time.perf_counter()
            try:
                answer.append(("ok", self.agent.act(info, rng)))
            except BaseException as e:  # the bot's own fault, whatever it raised (SystemExit too)
                answer.append(("raised", e))
            answer += [time.process_time() - start, time.perf_counter() - wall]
            done.set()

    def act(self, info: InfoState, rng: Any) -> int:
        self.last_seconds = self.last_wall = None
        with _OVERRUN_LOCK:
            late = _OVERRUN.get(self.key)
            if late is not None and late.is_set():
                del _OVERRUN[self.key]
                late = None
        if late is not None:
            raise BotFault(f"not asked: still busy with an earlier decision that ran over the {self.limit_s:g} s limit")
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            threading.Thread(target=self._serve, args=(self._jobs,), name=f"arena bot {self.name}", daemon=True).start()
        done = threading.Event()
        answer: list[Any] = []
        self._jobs.put((info, rng, done, answer))
        if not done.wait(self.limit_s):
            with _OVERRUN_LOCK:
                _OVERRUN[self.key] = done
            self.close()  # the thread ends once the late decision does; a new one serves the next
            raise BotFault(f"took more than the {self.limit_s:g} s limit over one decision (--decision-limit)")
        (kind, value), self.last_seconds, self.last_wall = answer
        if kind == "raised":
            if isinstance(value, Exception):
                raise value
            raise BotFault(f"raised {type(value).__name__}: {value}")
        return value

    def close(self) -> None:
        """End the bot's thread (after the decision it is running, if one ran over)."""
        if self._jobs is not None:
            self._jobs.put(None)
            self._jobs = None
