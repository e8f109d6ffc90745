"""Bots in their own processes, seen by the referee as agents: :class:`RemoteBot`.

Each task gets a fresh game process per bot (:mod:`.sandbox`), built with a seed derived from the
tournament's secret key. A decision is timed by the host (:mod:`.host`): over ``decision_ms`` of
the host's clock, or of CPU time, loses the deal (``BotFault``). No answer by the hard deadline
(``kill_after_s``): the process is killed, the deal is lost, and the next decision starts a fresh
process. A bot killed on ``strikes`` decisions in a row is *retired*: it forfeits each later deal
without being asked. A bot that cheats (forged, oversized, undecodable or unasked messages,
signals to the host) is *disqualified*: it forfeits every later deal and is listed with the
reason. What a bot chose to say (its exception, what it returned) enters a reason through
:func:`bot_text` only.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..agents.spec import AgentSpec
from ..arena.play import BotFault, TaskResult, play_task
from ..arena.schedule import Task
from ..infostate import InfoState
from ..rules import Rules
from ..text_safety import terminal_text
from .host import BotDied, Cheated, Game, LogBudget, NoAnswer, Zygote
from .treecopy import TreeCopy

__all__ = ["NPROC", "REASON_CHARS", "HostPool", "Limits", "RemoteBot", "Stopped", "bot_text", "play_remote"]

REASON_CHARS = 400
"""The most characters of a bot's own text (its exception, what it returned) kept in a reason."""


def bot_text(value: object) -> str:
    """Text a bot chose (its exception's message, a value it returned), safe in every report and
    terminal: control characters, escape sequences and bidi overrides made visible
    (:func:`..text_safety.terminal_text`), one line, at most :data:`REASON_CHARS` characters."""
    return terminal_text(value, limit=REASON_CHARS)


NPROC = 64
"""Processes (threads count) one game of a bot may have at a time when it runs under a user id of
its own (``RLIMIT_NPROC`` counts per user id, and each game has a fresh one: a fork bomb stops
there; where cgroups hold, the game's ``pids`` cap bounds it too)."""


class Stopped(KeyboardInterrupt):
    """The tournament is being stopped (Ctrl-C, SIGTERM): not a bot's fault."""


@dataclass(frozen=True)
class Limits:
    """``decision_ms``: a decision's budget (host clock and CPU); ``kill_after_s``: when a silent
    bot is killed; ``build_s``: importing and building a bot; ``memory_mb``: address space of
    each bot process; ``log_bytes``: the cap of a bot's log."""

    decision_ms: float
    kill_after_s: float
    build_s: float = 30.0
    strikes: int = 3
    memory_mb: int = 4096
    log_bytes: int = 10 * 1024 * 1024

    @classmethod
    def of(
        cls,
        decision_ms: float,
        kill_after_s: float | None = None,
        build_s: float = 30.0,
        strikes: int = 3,
        memory_mb: int = 4096,
        log_bytes: int = 10 * 1024 * 1024,
    ) -> Limits:
        kill = kill_after_s if kill_after_s is not None else 2 * decision_ms / 1000 + 1.0
        return cls(decision_ms, kill, build_s, strikes, memory_mb, log_bytes)


class HostPool:
    """One zygote per bot label (started on first use, again if it dies), the bots' user ids
    and log paths, strikes and disqualifications; thread-safe."""

    def __init__(
        self,
        limits: Limits,
        logs: dict[str, str | None],
        uids: dict[str, int] | None = None,
        jail_keep: list[str] | None = None,
        jail_exclude: list[str] | None = None,
    ) -> None:
        self.limits = limits
        self.logs = logs
        self.uids = uids or {}
        self.jail_keep = jail_keep
        self.jail_exclude = jail_exclude or []
        self.tree: TreeCopy | None = None
        """The jail tree's copy in memory (:mod:`.treecopy`), made before the first zygote."""
        self.unjailed: dict[str, str] = {}
        """Bots whose games run without namespaces of their own, and why (see :mod:`.jail`)."""
        self._zygotes: dict[str, Zygote] = {}
        self._log_budgets: dict[str, LogBudget] = {}
        """Each bot's log cap, shared by every zygote it has over the tournament."""
        self._lock = threading.Lock()
        self._tree_lock = threading.Lock()
        self.started = 0
        self.kills_in_a_row: dict[str, int] = {}
        self.disqualified: dict[str, str] = {}
        self.stopping = threading.Event()
        self._games: set[Game] = set()
        self._game_numbers: dict[str, int] = {}
        """How many games each bot has had in this pool (their fresh uids: :func:`.jail.game_uid`)."""
        self.on_ban: Callable[[str, str], None] | None = None
        """How :meth:`ban` bans (the host sets one that also journals the ban); else :meth:`disqualify`."""

    def strike(self, label: str, killed: bool) -> int:
        with self._lock:
            n = self.kills_in_a_row[label] = self.kills_in_a_row.get(label, 0) + 1 if killed else 0
            return n

    def disqualify(self, label: str, reason: str) -> None:
        """Ban ``label`` for the rest of the tournament and end its running games."""
        with self._lock:
            self.disqualified.setdefault(label, reason)
            games = [g for g in self._games if g.label == label]
        for g in games:
            g.kill()

    def ban(self, label: str, reason: str) -> None:
        """Disqualify ``label`` for cheating, through :attr:`on_ban` when set (so a resumed run keeps it)."""
        (self.on_ban or self.disqualify)(label, reason)

    def owner(self, pid: int) -> str | None:
        """The bot whose zygote is ``pid``."""
        with self._lock:
            return next((label for label, z in self._zygotes.items() if z.pid == pid), None)

    def _zygote(self, label: str) -> Zygote:
        with self._lock:
            z = self._zygotes.get(label)
            if z is not None and z.alive:
                return z
        config: dict[str, Any] = {"memory_bytes": self.limits.memory_mb * 1024 * 1024}
        uid = self.uids.get(label)
        if uid is not None:
            config.update(uid=uid, nproc=NPROC)
        tree = self._tree()
        if tree is not None and tree.fd is not None:
            config.update(jail=True, keep=self.jail_keep)
        with self._lock:
            budget = self._log_budgets.setdefault(label, LogBudget(self.limits.log_bytes))
        z = Zygote(config, self.logs.get(label), budget, self.limits.build_s, tree.fd if tree else None)
        if tree is not None and tree.error:
            z.unjailed = tree.error
        if z.unjailed:
            with self._lock:
                self.unjailed[label] = z.unjailed
        with self._lock:
            old = self._zygotes.get(label)
            if old is not None and old.alive:  # another thread started one meanwhile
                z.close()
                return old
            self._zygotes[label] = z
            self.started += 1
        return z

    def _tree(self) -> TreeCopy | None:
        """The jail tree's copy, made on first use (None when games are not jailed)."""
        if self.jail_keep is None:
            return None
        with self._tree_lock:
            if self.tree is None:
                self.tree = TreeCopy(self.jail_keep, self.jail_exclude)
                if self.tree.fd is not None:
                    print(f"tournament: the jail tree in memory: {self.tree.describe()}", file=sys.stderr)
            return self.tree

    def game(self, spec: AgentSpec, cwd: str | None = None) -> Game:
        """A fresh game process of ``spec``'s bot."""
        if self.stopping.is_set():
            raise Stopped
        with self._lock:  # numbered by the host, so a zygote started again never reuses a game's uid
            number = self._game_numbers[spec.label] = self._game_numbers.get(spec.label, 0) + 1
        g = self._zygote(spec.label).game({"cwd": cwd, "number": number})
        g.label = spec.label
        with self._lock:
            self._games.add(g)
        return g

    def done(self, g: Game) -> None:
        g.kill()
        with self._lock:
            self._games.discard(g)

    def close_bot(self, label: str) -> None:
        """End ``label``'s games and its zygote (a bot that plays no more)."""
        with self._lock:
            games = [g for g in self._games if g.label == label]
            self._games.difference_update(games)
            z = self._zygotes.pop(label, None)
        for g in games:
            g.kill()
        if z is not None:
            z.close()

    def close(self) -> None:
        """End every game and every zygote."""
        with self._lock:
            games, self._games = list(self._games), set()
            zygotes, self._zygotes = list(self._zygotes.values()), {}
        for g in games:
            g.kill()
        for z in zygotes:
            z.close()
        with self._tree_lock:
            if self.tree is not None:
                self.tree.close()

    def interrupt(self) -> None:
        """Make every waiting and later decision end the tournament (``Stopped``)."""
        self.stopping.set()
        with self._lock:
            games = list(self._games)
        for g in games:
            g.kill()


class RemoteBot:
    """An agent whose ``act`` runs in a game process of its own; ``seed`` seeds the agent's RNG
    there (the ``rng`` argument of ``act`` is not used), ``rules`` goes to its ``prepare``."""

    def __init__(self, spec: AgentSpec, pool: HostPool, limits: Limits, seed: str, rules: Rules) -> None:
        self.spec = spec
        self.rules = rules
        self.name = spec.label
        self.pool = pool
        self.limits = limits
        self.seed = seed
        self.last_seconds: float | None = None
        self.cpu_seconds = 0.0
        self.restarts = 0
        self._game: Game | None = None

    def _cheated(self, e: Cheated) -> BotFault:
        self.pool.ban(self.name, str(e))
        self._lost()
        return BotFault(f"disqualified: {e}")

    def _process(self) -> Game:
        if self._game is None:
            try:
                g = self.pool.game(self.spec)
            except BotDied as e:
                raise BotFault(f"could not be started: {e}") from None
            self._game = g
            seed = self.seed if not self.restarts else f"{self.seed}/restart/{self.restarts}"
            try:
                answer, _, _ = g.ask(("new", self.spec, seed, self.rules), self.limits.build_s)
            except (NoAnswer, BotDied) as e:
                self._lost()
                raise BotFault(f"could not be built: {e}") from None
            except Cheated as e:
                raise self._cheated(e) from None
            if "ok" not in answer:
                self._lost()
                raise BotFault(f"could not be built: {bot_text(answer.get('error', answer))}")
        return self._game

    def act(self, info: InfoState, rng: Any = None) -> int:
        self.last_seconds = None
        limits = self.limits
        if self.pool.stopping.is_set():
            raise Stopped
        banned = self.pool.disqualified.get(self.name)
        if banned is not None:
            raise BotFault(f"disqualified: {banned}")
        if self.pool.kills_in_a_row.get(self.name, 0) >= limits.strikes:
            raise BotFault(f"retired after {limits.strikes} decisions in a row without an answer")
        g = self._process()
        try:
            answer, wall, cpu = g.ask(("act", info), limits.kill_after_s)
        except Cheated as e:
            raise self._cheated(e) from None
        except (NoAnswer, BotDied) as e:
            self._lost()
            if self.pool.stopping.is_set():
                raise Stopped from None
            banned = self.pool.disqualified.get(self.name)
            if banned is not None:
                raise BotFault(f"disqualified: {banned}") from None
            if isinstance(e, BotDied):
                raise BotFault(f"{e}; it will be replaced") from None
            self.pool.strike(self.name, killed=True)
            raise BotFault(
                f"{e} (limit {limits.decision_ms:g} ms): its process was stopped and will be replaced"
            ) from None
        self.pool.strike(self.name, killed=False)
        self.last_seconds = wall
        self.cpu_seconds += cpu
        if "raised" in answer:
            raise BotFault(f"raised {bot_text(answer['raised'])}")
        if "returned" in answer:
            raise BotFault(
                f"returned {bot_text(answer['returned'])}, not an action id (an int from info.legal_actions())"
            )
        value = answer.get("action")
        if type(value) is not int:
            raise self._cheated(Cheated(f"sent a message that is not an answer ({answer!r:.60})"))
        for what, spent in (("the host's clock", wall), ("CPU time", cpu)):
            if spent * 1000 > limits.decision_ms:
                raise BotFault(
                    f"took {spent * 1000:.0f} ms of {what} over one decision (limit {limits.decision_ms:g} ms)"
                )
        return value

    def _lost(self) -> None:
        if self._game is not None:
            self.pool.done(self._game)
        self._game = None
        self.restarts += 1

    def release(self) -> None:
        """End the task's game process (nothing of it survives into another task)."""
        if self._game is not None:
            with contextlib.suppress(Exception):
                self.pool.done(self._game)
            self._game = None


def play_remote(
    task: Task,
    specs: tuple[AgentSpec, AgentSpec],
    seeds: tuple[str, str],
    pool: HostPool,
    limits: Limits,
    points: int,
    keep_deals: bool,
    on_deal: Callable[[], None] | None = None,
) -> tuple[TaskResult, dict[str, int], dict[str, float]]:
    """Play ``task`` with its two bots (``specs``, ``seeds``: A's and B's) in fresh game processes
    of ``pool``, ended with the task; the result, and each bot's restarts and CPU seconds."""
    bots = [RemoteBot(spec, pool, limits, seed, task.rules) for spec, seed in zip(specs, seeds, strict=True)]
    try:
        res = play_task(task, (bots[0], bots[1]), forfeit_points=points, keep_deals=keep_deals, on_deal=on_deal)
    finally:
        for b in bots:
            b.release()
    return res, {b.name: b.restarts for b in bots}, {b.name: b.cpu_seconds for b in bots}
