"""Bots in their own processes, seen by the referee as agents: :class:`RemoteBot`.

A decision is timed inside the bot's process (wall clock around ``act``). Slower than the limit:
the bot loses the deal (``BotFault``). No answer by the hard deadline (twice the limit plus one
second, unless set): its process is killed, the deal is lost, and the next decision starts a
fresh process with a new agent. A process that dies is replaced the same way. A bot killed on
``strikes`` decisions in a row (default 3) is *retired*: it forfeits each later deal at once,
without being asked, so a bot that always hangs costs the tournament seconds, not hours.
"""

from __future__ import annotations

import multiprocessing
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents.spec import AgentSpec
from ..arena.play import BotFault
from ..infostate import InfoState
from ..rules import Rules
from .host import BotDied, BotProcess, NoAnswer

__all__ = ["HostPool", "Limits", "RemoteBot", "Stopped"]


class Stopped(BaseException):
    """The tournament is being stopped (Ctrl-C): not a bot's fault, so not an ``Exception``."""


@dataclass(frozen=True)
class Limits:
    """``decision_ms``: a decision's time budget; ``kill_after_s``: when a silent bot is killed;
    ``build_s``: how long importing and building a bot may take."""

    decision_ms: float
    kill_after_s: float
    build_s: float = 30.0
    strikes: int = 3

    @classmethod
    def of(
        cls, decision_ms: float, kill_after_s: float | None = None, build_s: float = 30.0, strikes: int = 3
    ) -> Limits:
        kill = kill_after_s if kill_after_s is not None else 2 * decision_ms / 1000 + 1.0
        return cls(decision_ms, kill, build_s, strikes)


class HostPool:
    """Idle bot processes kept for reuse (starting one costs an import of the bot), at most
    ``keep`` of them; thread-safe."""

    def __init__(self, ctx: multiprocessing.context.BaseContext, log_dir: Path | None, keep: int) -> None:
        self.ctx = ctx
        self.log_dir = log_dir
        self.keep = keep
        self._idle: list[BotProcess] = []
        self._lock = threading.Lock()
        self.started = 0
        self.kills_in_a_row: dict[str, int] = {}  # per bot label, across tasks
        self.stopping = threading.Event()
        self._all: set[BotProcess] = set()

    def strike(self, label: str, killed: bool) -> int:
        """Count a decision that ended in a kill (or reset the count on an answer); the count."""
        with self._lock:
            n = self.kills_in_a_row[label] = self.kills_in_a_row.get(label, 0) + 1 if killed else 0
            return n

    def log_path(self, spec: AgentSpec) -> str | None:
        return str(self.log_dir / f"{spec.label}.log") if self.log_dir is not None else None

    def start(self, spec: AgentSpec) -> BotProcess:
        if self.stopping.is_set():
            raise Stopped
        proc = BotProcess(self.ctx, spec, self.log_path(spec))
        with self._lock:
            self.started += 1
            self._all = {p for p in self._all if p.alive}
            self._all.add(proc)
        return proc

    def checkout(self, spec: AgentSpec) -> BotProcess:
        """An idle process of this bot, or a new one."""
        with self._lock:
            for i, proc in enumerate(self._idle):
                if proc.spec.label == spec.label:
                    del self._idle[i]
                    if proc.alive:
                        return proc
                    proc.kill()
                    break
        return self.start(spec)

    def checkin(self, proc: BotProcess) -> None:
        if not proc.alive:
            proc.kill()
            return
        with self._lock:
            self._idle.append(proc)
            evicted = self._idle[: -self.keep] if len(self._idle) > self.keep else []
            del self._idle[: len(evicted)]
        for old in evicted:
            old.stop()

    def close(self) -> None:
        """Stop the idle processes and kill any still busy (an interrupted tournament)."""
        with self._lock:
            idle, self._idle = self._idle, []
            busy = self._all - set(idle)
            self._all = set()
        for proc in idle:
            proc.stop()
        for proc in busy:
            proc.kill()

    def interrupt(self) -> None:
        """Make every waiting and later decision end the tournament (``Stopped``)."""
        self.stopping.set()
        with self._lock:
            busy = list(self._all)
        for proc in busy:
            proc.process.kill()


class RemoteBot:
    """An agent whose ``act`` runs in the bot's process; ``seed`` seeds the agent's RNG there
    (the ``rng`` argument of ``act`` is not used), ``rules`` goes to the agent's ``prepare``."""

    def __init__(self, spec: AgentSpec, pool: HostPool, limits: Limits, seed: str, rules: Rules) -> None:
        self.spec = spec
        self.rules = rules
        self.name = spec.label
        self.pool = pool
        self.limits = limits
        self.seed = seed
        self.last_seconds: float | None = None
        self.restarts = 0
        self._proc: BotProcess | None = None

    def _process(self) -> BotProcess:
        if self._proc is None:
            proc = self.pool.checkout(self.spec)
            seed = self.seed if not self.restarts else f"{self.seed}/restart/{self.restarts}"
            try:
                answer = proc.ask(("new", seed, self.rules), self.limits.build_s)
            except (NoAnswer, BotDied) as e:
                raise BotFault(f"could not be built: {e}") from None
            if answer[0] != "ok":
                proc.stop()
                raise BotFault(f"could not be built: {answer[1]}")
            self._proc = proc
        return self._proc

    def act(self, info: InfoState, rng: Any = None) -> int:
        self.last_seconds = None
        limits = self.limits
        if self.pool.stopping.is_set():
            raise Stopped
        if self.pool.kills_in_a_row.get(self.name, 0) >= limits.strikes:
            raise BotFault(f"retired after {limits.strikes} decisions in a row without an answer")
        proc = self._process()
        try:
            answer = proc.ask(("act", info), limits.kill_after_s)
        except (NoAnswer, BotDied) as e:
            self._lost()
            if self.pool.stopping.is_set():
                raise Stopped from None
            if isinstance(e, BotDied):
                raise BotFault(f"{e}; it will be replaced") from None
            self.pool.strike(self.name, killed=True)
            raise BotFault(
                f"{e} (limit {limits.decision_ms:g} ms): its process was stopped and will be replaced"
            ) from None
        self.pool.strike(self.name, killed=False)
        kind, value, seconds = answer
        self.last_seconds = seconds
        if kind == "raised":
            raise BotFault(f"raised {value}")
        if kind == "returned":
            raise BotFault(f"returned {value}, not an action id (an int from info.legal_actions())")
        if seconds * 1000 > limits.decision_ms:
            raise BotFault(f"took {seconds * 1000:.0f} ms over one decision (limit {limits.decision_ms:g} ms)")
        return value

    def _lost(self) -> None:
        self._proc = None
        self.restarts += 1

    def release(self) -> None:
        """Give the process back to the pool (the end of a task)."""
        if self._proc is not None:
            self.pool.checkin(self._proc)
            self._proc = None
