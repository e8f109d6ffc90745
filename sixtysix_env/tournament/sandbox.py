"""The bot's side of the tournament: a zygote per bot, and a fresh game process per task.

``zygote_main(FD)`` (started by :class:`.host.Zygote`) is the *zygote* of one bot, started by the host
(:mod:`.host`) with a clean environment. It imports this package once, never the bot's code, and
forks one *game process* per task on request: that process alone imports the bot, builds it and
answers decisions, then dies with everything it remembered. So no bot state survives into a game
whose cards it has seen, and no bot code ever runs in a long-lived process.

A game process, before any bot code runs: leaves the zygote's session (``setsid``: its own
process group, which the host stops between its decisions), closes every file descriptor but
its socket and its log pipe, and, when the host runs as root, enters namespaces and a jail tree
of its own (:mod:`.jail`: a read-only root holding only what a bot's Python needs, copies in
memory (:mod:`.treecopy`), private
writable folders, no network, private IPC, its own PID namespace, whose pid 1 it forks to play
while it waits), gets an address-space limit and a process cap (``RLIMIT_NPROC``), and drops to a
fresh user id of its own (:func:`.jail.game_uid`, in its bot's group). It is not dumpable (no
``ptrace``, no ``/proc/PID/mem``), and last, it installs the seccomp filter (:mod:`.seccomp`;
jailed, a game that cannot exits; unjailed, it gets it where the kernel allows). It dies with the
zygote, which ends within 0.3 s of the host. The zygote
is the subreaper of a bot's processes and kills any that leaves the game's process group (a
``setsid`` escape from the freeze).

Wire: the host sends pickled ``(nonce, message)`` pairs (trusted direction); a game process
answers one JSON object per message, carrying the nonce under ``"n"`` (the host never unpickles
what a bot sends, and takes no answer without the nonce of the question just asked).
Messages: ``("load", spec)`` import the file and find the agent -> ``{"ok": attribute}``;
``("new", spec, seed, rules)`` build a fresh agent and its ``random.Random(seed)``, run its
``prepare(rules)`` -> ``{"ok": ""}``;
``("act", info)`` -> ``{"action": int}``, ``{"raised": text}`` or ``{"returned": text}``. Either
may be ``{"error": text}``.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import pickle
import random
import resource
import select
import signal
import socket
import sys
import traceback
from typing import Any

from . import jail, seccomp

__all__ = [
    "MAX_MESSAGE",
    "children",
    "describe_exception",
    "prctl",
    "proc_stat",
    "stat_fields",
    "tree_cpu",
    "zygote_main",
]

MAX_MESSAGE = 64 * 1024
"""The longest answer a bot may send (bytes); a longer one disqualifies it."""

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
GAME_FD = 3

try:
    _libc: Any = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - not Linux
    _libc = None


def prctl(option: int, value: int) -> bool:
    """Linux ``prctl(option, value)``; False where it is not available or refused."""
    if _libc is None or not hasattr(_libc, "prctl"):
        return False
    return _libc.prctl(option, value, 0, 0, 0) == 0


def stat_fields(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first); None when the
    process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rfind(b")") + 2 :].split()


def proc_stat(pid: int) -> tuple[int, int, float] | None:
    """``(ppid, process group, CPU seconds of it and its reaped children)`` from ``/proc``; None
    when the process is gone."""
    fields = stat_fields(pid)
    if fields is None:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[1]), int(fields[2]), sum(int(x) for x in fields[11:15]) / ticks


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (``/proc/PID/task/*/children``)."""
    out: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def tree_cpu(root: int, zygote: int | None = None) -> float:
    """CPU seconds of ``root``, every live process under it and every process it or they
    reaped; with ``zygote``, also the orphans of ``root``'s process group the zygote adopted."""
    todo = [root]
    if zygote is not None:
        for pid in children(zygote):
            st = proc_stat(pid)
            if pid != root and st is not None and st[1] == root:
                todo.append(pid)
    seen: set[int] = set()
    total = 0.0
    while todo and len(seen) < 4096:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        st = proc_stat(pid)
        if st is not None:
            total += st[2]
            todo += children(pid)
    return total


def _answer(sock: socket.socket, **obj: Any) -> None:
    sock.sendall(json.dumps(obj).encode())


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


def _describe(e: BaseException) -> str:
    return describe_exception(e)


def _act(agent: Any, info: Any, rng: random.Random) -> dict[str, Any]:
    try:
        value = agent.act(info, rng)
    except BaseException as e:  # a bot may raise anything, SystemExit included
        return {"raised": _describe(e)}
    if isinstance(value, bool):  # True is not action 1
        return {"returned": f"{value!r}"}
    try:
        import operator

        return {"action": operator.index(value)}
    except TypeError:
        return {"returned": f"{value!r:.80}"}


def _game(sock: socket.socket) -> None:
    """A game process's loop: one bot, one task."""
    from ..agents.spec import AgentSpec, load_module
    from ..arena.play import ready_agent
    from .discover import agent_attribute

    agent: Any = None
    rng = random.Random(0)
    while True:
        data = sock.recv(1 << 22)
        if not data:
            return
        nonce, msg = pickle.loads(data)  # from the host: trusted
        kind = msg[0]
        if kind == "act":
            reply = _act(agent, msg[1], rng)
        elif kind in ("load", "new"):
            spec: AgentSpec = msg[1]
            if spec.source.endswith(".py"):  # the bot's folder, last: helpers import, nothing is shadowed
                folder = os.path.dirname(spec.source)
                if folder not in sys.path:
                    sys.path.append(folder)
            try:
                if kind == "load":
                    found = agent_attribute(load_module(spec.source)) if spec.source and not spec.attribute else ""
                    reply = {"ok": found or spec.attribute or spec.name}
                else:
                    agent = ready_agent(spec, msg[3])
                    rng = random.Random(msg[2])
                    reply = {"ok": ""}
            except BaseException as e:
                reply = {"error": str(e) if isinstance(e, ValueError) else _describe(e)}
        else:
            return
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        sock.sendall(json.dumps({"n": nonce, **reply}).encode())


def _become_game(fd: int, config: dict[str, Any]) -> None:
    """In the forked child: shed the zygote, lock itself down, then play (never returns)."""
    code = 0
    try:
        if config.get("cgroup"):  # the game's cgroup (.cgroups), joined first: all it ever starts is in it
            from .cgroups import join

            join(config["cgroup"])
        os.setsid()
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        os.dup2(fd, GAME_FD)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.closerange(GAME_FD + 1, 1 << 20)
        jailed = bool(config.get("jailed"))
        uid, gid = config.get("game_uid"), config.get("uid")  # a fresh user id; the bot's group
        if jailed:  # namespaces and a jail tree of its own; it forks pid 1 of its PID namespace, which plays
            jail.enter(config["private"], config.get("keep", ()), gid=gid, uid=uid)
            if os.getppid() != config["zygote"]:
                os._exit(1)
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            child = os.fork()
            if child:
                os.close(GAME_FD)  # the host sees the socket close when the player dies
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(child, 0)
                os._exit(0)
            jail.mount_proc()
        mem = config.get("memory_bytes")
        if mem:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if uid is not None and gid is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (config["nproc"], config["nproc"]))
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
        prctl(PR_SET_DUMPABLE, 0)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if jailed or config.get("filter"):  # last: it refuses PR_SET_DUMPABLE; jailed, no filter is no game
            seccomp.install()
        if not jailed and os.getppid() != config["zygote"]:
            os._exit(1)
        os.umask(0o077)
        core = config.get("core")
        if core is not None and hasattr(os, "sched_setaffinity"):
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, {core})
        with contextlib.suppress(OSError):
            os.chdir(config.get("cwd") or ("/tmp" if jailed else "/"))
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, ValueError):
                stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]
        _game(socket.socket(fileno=GAME_FD))
    except BaseException:
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _descendants(root: int) -> dict[int, int]:
    """Every process under ``root`` (``/proc`` scan): pid -> process group."""
    parents: dict[int, tuple[int, int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = proc_stat(int(name))
            if st is not None:
                parents[int(name)] = (st[0], st[1])
    out: dict[int, int] = {}
    for pid in parents:
        p, seen = pid, 0
        while p in parents and p != root and seen < 64:
            p, seen = parents[p][0], seen + 1
        if p == root and pid != root:
            out[pid] = parents[pid][1]
    return out


def _sweep(games: set[int]) -> None:
    """Reap ended games; kill any process of this bot outside a live game's process group."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
        games.discard(pid)
    with contextlib.suppress(OSError):
        for pid, group in _descendants(os.getpid()).items():
            if group not in games and pid not in games:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def zygote_main(fd: int) -> None:
    """The zygote's loop on its control socket ``fd`` (a SOCK_SEQPACKET pair with the host)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, ())  # the host's guard blocks every signal; bots start with none
    ctl = socket.socket(fileno=fd)
    config: dict[str, Any] = pickle.loads(ctl.recv(1 << 20))
    if os.getppid() != config["host"]:
        return
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ[var] = "1"
    import sixtysix_env.agents
    import sixtysix_env.arena.play  # noqa: F401

    config["zygote"] = os.getpid()
    why = "not asked (bots under the host's user id)"
    if config.get("jail"):
        private = jail.writable_dirs()
        why = jail.probe(private, config.get("keep", ()))
        config.update(jailed=not why, private=private)
    config["filter"] = not seccomp.probe()  # where it can be had, unjailed games get it too
    games: set[int] = set()
    started = 0
    _answer(ctl, ready=os.getpid(), jail=why)
    while True:
        ready, _, _ = select.select([ctl], [], [], 0.3)
        _sweep(games)
        if os.getppid() != config["host"]:  # the host is gone (no PDEATHSIG: it fires on a thread's end)
            break
        if not ready:
            continue
        try:
            data, fds, _, _ = socket.recv_fds(ctl, 1 << 20, 1)
        except OSError:
            data, fds = b"", []
        if not data:
            break
        msg = pickle.loads(data)
        if msg[0] == "game" and fds:
            sys.stdout.flush()
            sys.stderr.flush()
            started = int(msg[1].get("number", started + 1))  # the host's count: fresh across zygotes
            fresh = {"game_uid": jail.game_uid(config["uid"], started)} if config.get("uid") is not None else {}
            pid = os.fork()
            if pid == 0:
                ctl.close()
                _become_game(fds[0], {**config, **msg[1], **fresh})
            os.close(fds[0])
            games.add(pid)
            _answer(ctl, pid=pid)
        else:
            for f in fds:
                os.close(f)
            break
    for pid in list(games):
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
    _sweep(set())
