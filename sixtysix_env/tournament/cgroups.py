"""Per-game cgroups: the kernel's own accounting, freezer and limits for a bot's game process
and everything it ever starts.

Why: a bot's helpers can hide from every per-process control. A child reaped by the kernel
(``SIGCHLD`` set to ``SIG_IGN``) leaves its CPU time to nobody's ``cutime``; a child that calls
``setsid`` can send ``SIGCONT`` to a stopped process group; ``RLIMIT_AS`` bounds each process, not
their sum. A cgroup holds every process the game ever had, whatever they do:

- **CPU**: the group's own counter (v2 ``cpu.stat`` ``usage_usec``, v1 ``cpuacct.usage``) counts
  every process that ever ran in it, reaped or not, live or gone.
- **Freeze**: between the bot's turns the whole group is frozen (v2 ``cgroup.freeze``, v1
  ``freezer.state``); no signal from inside thaws it.
- **Memory**: ``memory.max`` (v2, with ``memory.swap.max`` 0) or ``memory.limit_in_bytes`` (v1,
  with ``memory.memsw.limit_in_bytes`` where swap is accounted, else ``memory.swappiness`` 0) caps
  the sum of all its processes; the kernel's OOM killer acts inside the group and the host sees
  it in ``oom_kill``.
- **Processes**: ``pids.max`` caps the tasks (processes and threads) of the group.

Each guarantee uses cgroup v2 where the v2 hierarchy offers it, else the v1 controller mounted
for it (``cpuacct``, ``freezer``, ``memory``, ``pids``), else it does not hold and the host falls
back to its per-process controls (rusage of the process tree, ``SIGSTOP`` of the process group,
``RLIMIT_AS``). Creating groups needs root. :func:`support` probes once, up front, what works
here; :meth:`Support.summary` says which guarantees hold. The host creates one group per game
(:func:`new_group`) under a group of its own, the game process joins it (:func:`join`) before any
bot code runs, and the host removes it, killing what is left, when the task ends
(:meth:`GameGroup.destroy`).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "GUARANTEES",
    "PIDS_MAX",
    "GameGroup",
    "Support",
    "join",
    "new_group",
    "probe",
    "support",
    "with_isolation",
]

GUARANTEES = ("cpu", "freeze", "memory", "pids")
"""What a game's cgroup can guarantee, each from v2 or v1 (see the module docstring)."""

PIDS_MAX = 64
"""Tasks (processes and threads) one game may have at a time when ``pids`` holds."""

V1_CONTROLLER = {"cpu": "cpuacct", "freeze": "freezer", "memory": "memory", "pids": "pids"}
V2_CONTROLLER = {"memory": "memory", "pids": "pids"}
"""Controllers v2 must enable for a guarantee; CPU accounting and the freezer are core in v2."""

FREEZE_WAIT_S = 1.0
"""How long a freeze waits for every task to stop (a task in an uninterruptible sleep delays it)."""

_counter = itertools.count()


@dataclass(frozen=True)
class _Tree:
    """One hierarchy a guarantee uses: its version and the host's own base group in it."""

    version: str
    base: str


def _mounts(mountinfo: str = "/proc/self/mountinfo") -> list[tuple[str, str, str, set[str]]]:
    """Every cgroup mount: ``(fstype, mount point, mounted root, super options)``."""
    out = []
    with contextlib.suppress(OSError), open(mountinfo, encoding="utf-8", errors="replace") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
                continue
            point = fields[4].encode().decode("unicode_escape")
            out.append((tail[0], point, fields[3], set(tail[2].split(","))))
    return out


def _own_paths(path: str = "/proc/self/cgroup") -> tuple[dict[str, str], str | None]:
    """This process's cgroup in each v1 controller, and in v2 (None where there is no v2 line)."""
    v1: dict[str, str] = {}
    v2 = None
    with contextlib.suppress(OSError), open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) != 3:
                continue
            if parts[0] == "0" and parts[1] == "":
                v2 = parts[2]
            for name in parts[1].split(","):
                if name:
                    v1[name] = parts[2]
    return v1, v2


def _under(point: str, root: str, own: str | None) -> str:
    """The directory of cgroup ``own`` in a hierarchy mounted at ``point`` (showing ``root``)."""
    if own is None:
        return point
    rel = own if root == "/" else own[len(root) :] if own.startswith(root) else ""
    path = os.path.join(point, rel.lstrip("/"))
    return path if os.path.isdir(path) else point


def _read(path: str) -> str:
    with open(path, encoding="ascii", errors="replace") as f:
        return f.read()


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as f:
        f.write(value)


def _mkdir(path: str) -> None:
    """A cgroup directory only root can enter: no bot reads another game's usage or pids."""
    os.mkdir(path, 0o700)
    try:
        os.chmod(path, 0o700)  # whatever the umask made of mkdir's mode
    except OSError:
        with contextlib.suppress(OSError):
            os.rmdir(path)
        raise


def _field(text: str, key: str) -> int:
    """The value of ``key`` in a flat-keyed cgroup file (``"usage_usec 12"``); 0 where absent."""
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == key:
            return int(parts[1])
    return 0


@dataclass
class Support:
    """What this machine's cgroups guarantee for a game: ``trees`` maps each guarantee that holds
    to its hierarchy, ``why`` says for each one that does not why not."""

    trees: dict[str, _Tree] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)
    swap: str = ""
    """How swap is kept out of the memory cap: ``"counted"``, ``"off"`` or ``""`` (no memory cap)."""

    @property
    def usable(self) -> bool:
        """Whether a game gets a cgroup at all."""
        return bool(self.trees)

    def holds(self, guarantee: str) -> bool:
        return guarantee in self.trees

    def version(self, guarantee: str) -> str | None:
        tree = self.trees.get(guarantee)
        return tree.version if tree is not None else None

    def summary(self) -> str:
        """One line: which guarantees hold, from which cgroup version; what falls back and why."""
        names = {
            "cpu": "CPU counted for every process the game ever had",
            "freeze": "frozen between turns (no SIGCONT thaws it)",
            "memory": "memory capped for all its processes together" + (f" (swap {self.swap})" if self.swap else ""),
            "pids": f"at most {PIDS_MAX} tasks",
        }
        held = [f"{names[g]} [cgroup {self.trees[g].version}]" for g in GUARANTEES if g in self.trees]
        fallback = {
            "cpu": "CPU from the process tree's rusage (children reaped by the kernel are not counted)",
            "freeze": "SIGSTOP of the process group (a helper that calls setsid can send SIGCONT)",
            "memory": "address space capped per process (RLIMIT_AS), not for the sum",
            "pids": "process count capped per user id only (RLIMIT_NPROC, bots under their own uids)",
        }
        missing = [f"{fallback[g]}: {self.why[g]}" for g in GUARANTEES if g not in self.trees]
        text = "each game in a cgroup of its own: " + "; ".join(held) if held else "no cgroups for the games"
        if missing:
            text += ". Not held, falling back: " + "; ".join(missing)
        return text

    def warning(self) -> str:
        """``""`` when every guarantee holds, else what does not (for the report)."""
        missing = [g for g in GUARANTEES if g not in self.trees]
        return "" if not missing else self.summary()


def _clear_stale(parent: str) -> None:
    """Remove the empty base groups a host that is gone left under ``parent`` (one killed with
    ``SIGKILL`` never ran its clean-up). Only empty ones: a pid that looks dead here may be a
    live host of another PID namespace, whose games must not be touched."""
    with contextlib.suppress(OSError):
        for name in os.listdir(parent):
            parts = name.split("-")
            if len(parts) != 3 or parts[0] != "sixtysix" or not parts[1].isdigit():
                continue
            try:
                os.kill(int(parts[1]), 0)
                continue
            except ProcessLookupError:
                pass
            except OSError:
                continue
            base = os.path.join(parent, name)
            with contextlib.suppress(OSError):
                for game in os.listdir(base):
                    if os.path.isdir(os.path.join(base, game)) and not _procs(os.path.join(base, game)):
                        with contextlib.suppress(OSError):
                            os.rmdir(os.path.join(base, game))
                os.rmdir(base)


def _v2_tree(parent: str, needs: Sequence[str], why: dict[str, str]) -> tuple[str | None, set[str]]:
    """The host's base group under ``parent`` (its own v2 cgroup) and which of ``needs``
    (controllers) it could enable for its games' groups."""
    _clear_stale(parent)
    base = os.path.join(parent, f"sixtysix-{os.getpid()}-{next(_counter)}")
    try:
        _mkdir(base)
    except OSError as e:
        for g in ("cpu", "freeze", *needs):
            why.setdefault(g, f"cannot create a cgroup v2 group under {parent} ({e.strerror})")
        return None, set()
    available = set(_read(os.path.join(parent, "cgroup.controllers")).split())
    enabled: set[str] = set()
    for name in needs:
        if name not in available:
            continue
        try:  # a controller reaches the base's children once the parent and the base enable it
            _write(os.path.join(parent, "cgroup.subtree_control"), f"+{name}")
            _write(os.path.join(base, "cgroup.subtree_control"), f"+{name}")
            enabled.add(name)
        except OSError as e:
            why.setdefault(
                name,
                f"cgroup v2 cannot enable {name} under {parent} ({e.strerror}; the host's own cgroup "
                "must hold no processes: run it in a delegated cgroup, e.g. systemd-run --scope -p Delegate=yes)",
            )
    return base, enabled


def probe(prefer: Sequence[str] = ("v2", "v1")) -> Support:
    """Find, for each guarantee, the first cgroup version of ``prefer`` that gives it here: create
    the host's base groups and try a game group with a live process in it (join, freeze, thaw,
    limits, removal). Needs root; without it, nothing holds and ``why`` says so."""
    sup = Support()
    if sys.platform != "linux":
        sup.why = dict.fromkeys(GUARANTEES, "cgroups are Linux only")
        return sup
    if os.geteuid() != 0:
        sup.why = dict.fromkeys(GUARANTEES, "the host does not run as root (creating cgroups needs root)")
        return sup
    mounts = _mounts()
    own_v1, own_v2 = _own_paths()
    v2_mount = next(((p, r) for t, p, r, _ in mounts if t == "cgroup2"), None)
    v1_mounts: dict[str, tuple[str, str]] = {}
    for t, p, r, opts in mounts:
        if t == "cgroup":
            for name in opts:
                v1_mounts.setdefault(name, (p, r))
    bases: dict[str, str] = {}
    for version in prefer:
        todo = [g for g in GUARANTEES if g not in sup.trees]
        if not todo:
            break
        if version == "v2" and v2_mount is not None and own_v2 is not None:
            own = _under(v2_mount[0], v2_mount[1], own_v2)
            needs = [V2_CONTROLLER[g] for g in todo if g in V2_CONTROLLER]
            base, enabled = _v2_tree(own, needs, sup.why)
            if base is None:
                continue
            bases[base] = "v2"
            if not os.path.exists(os.path.join(base, "cgroup.freeze")):
                sup.why.setdefault("freeze", "the kernel's cgroup v2 has no freezer (needs Linux 5.2)")
            for g in todo:
                if g in V2_CONTROLLER and V2_CONTROLLER[g] not in enabled:
                    sup.why.setdefault(g, f"cgroup v2 does not offer the {V2_CONTROLLER[g]} controller here")
                    continue
                if g == "freeze" and not os.path.exists(os.path.join(base, "cgroup.freeze")):
                    continue
                sup.trees[g] = _Tree("v2", base)
        elif version == "v1":
            for g in todo:
                name = V1_CONTROLLER[g]
                if name not in v1_mounts:
                    sup.why.setdefault(g, f"no cgroup v1 {name} hierarchy is mounted")
                    continue
                point, root = v1_mounts[name]
                own = _under(point, root, own_v1.get(name))
                base = next((b for b in bases if os.path.dirname(b) == own), None)
                if base is None:
                    _clear_stale(own)
                    base = os.path.join(own, f"sixtysix-{os.getpid()}-{next(_counter)}")
                    try:
                        _mkdir(base)
                    except OSError as e:
                        sup.why.setdefault(g, f"cannot create a cgroup v1 {name} group under {own} ({e.strerror})")
                        continue
                    bases[base] = "v1"
                sup.trees[g] = _Tree("v1", base)
    if sup.holds("memory"):
        mem = sup.trees["memory"]
        if mem.version == "v2":
            sup.swap = "counted" if os.path.exists(os.path.join(mem.base, "memory.swap.max")) else "off"
        else:
            sup.swap = "counted" if os.path.exists(os.path.join(mem.base, "memory.memsw.limit_in_bytes")) else "off"
    for base in list(bases):  # a base no guarantee uses goes now
        if base not in {t.base for t in sup.trees.values()}:
            with contextlib.suppress(OSError):
                os.rmdir(base)
            del bases[base]
    _check(sup)
    used = sorted({t.base for t in sup.trees.values()}, key=len, reverse=True)
    if used:
        atexit.register(_remove_bases, used)
    return sup


def _check(sup: Support) -> None:
    """Try a real game group with a live process: whatever fails is dropped from ``sup``."""
    if not sup.usable:
        return
    try:
        group = GameGroup(sup, 1 << 30, PIDS_MAX)
    except OSError as e:
        for g in list(sup.trees):
            sup.why[g] = f"cannot create a game's cgroup ({e})"
        sup.trees.clear()
        return
    proc = subprocess.Popen(
        [sys.executable, "-S", "-c", "import time\nwhile True: time.sleep(0.01)"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for d in group.dirs:
            try:
                _write(os.path.join(d, "cgroup.procs"), str(proc.pid))
            except OSError as e:
                for g, t in list(sup.trees.items()):
                    if os.path.dirname(d) == t.base:
                        sup.why[g] = f"a process cannot join a cgroup {t.version} group ({e.strerror})"
                        del sup.trees[g]
        if sup.holds("freeze"):
            group.freeze()
            frozen = group.frozen()
            group.thaw()
            if not frozen:
                sup.why["freeze"] = f"a cgroup {sup.version('freeze')} group did not freeze within {FREEZE_WAIT_S} s"
                del sup.trees["freeze"]
    finally:
        proc.kill()
        proc.wait()
        group.destroy()


def _remove_bases(bases: Iterable[str]) -> None:
    """At exit: remove the host's base groups (the games' groups are gone by then)."""
    for base in bases:
        with contextlib.suppress(OSError):
            for name in os.listdir(base):
                path = os.path.join(base, name)
                if os.path.isdir(path):
                    _kill_dir(path, "v2" if os.path.exists(os.path.join(path, "cgroup.kill")) else "v1")
                    with contextlib.suppress(OSError):
                        os.rmdir(path)
            os.rmdir(base)


_support: Support | None = None
_support_lock = threading.Lock()


def support() -> Support:
    """This machine's cgroup guarantees, probed once per host process."""
    global _support
    with _support_lock:
        if _support is None:
            _support = probe()
        return _support


def _procs(d: str) -> list[int]:
    try:
        return [int(x) for x in _read(os.path.join(d, "cgroup.procs")).split()]
    except (OSError, ValueError):
        return []


def _kill_dir(d: str, version: str) -> None:
    """Kill every process of group ``d``: v2's ``cgroup.kill`` where there is one, else SIGKILL
    to each (frozen first in v1, so none can fork meanwhile, then thawed so the kills land)."""
    if version == "v2" and os.path.exists(os.path.join(d, "cgroup.kill")):
        with contextlib.suppress(OSError):
            _write(os.path.join(d, "cgroup.kill"), "1")
        return
    state = os.path.join(d, "freezer.state")
    frozen = os.path.exists(state)
    if frozen:
        with contextlib.suppress(OSError):
            _write(state, "FROZEN")
    for pid in _procs(d):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    if frozen:
        with contextlib.suppress(OSError):
            _write(state, "THAWED")


class GameGroup:
    """The cgroup of one game: one directory per hierarchy used (see :class:`Support`)."""

    def __init__(self, sup: Support, memory_bytes: int | None, pids_max: int | None) -> None:
        self.support = sup
        self.memory_bytes = memory_bytes
        name = f"game-{next(_counter)}"
        self.dirs: list[str] = []
        self.path: dict[str, str] = {}
        self.versions: dict[str, str] = {}
        """Each directory's cgroup version (fixed at creation, whatever the probe drops later)."""
        try:
            for g, tree in sup.trees.items():
                d = os.path.join(tree.base, name)
                if d not in self.dirs:
                    _mkdir(d)
                    self.dirs.append(d)
                    self.versions[d] = tree.version
                self.path[g] = d
            self._limit(memory_bytes, pids_max)
        except OSError:
            self.destroy()
            raise
        self.removed = False

    @property
    def procs(self) -> list[str]:
        """The ``cgroup.procs`` files a process writes its pid to, to join (:func:`join`)."""
        return [os.path.join(d, "cgroup.procs") for d in self.dirs]

    def _limit(self, memory_bytes: int | None, pids_max: int | None) -> None:
        if memory_bytes and "memory" in self.path:
            d = self.path["memory"]
            if self.version_of(d) == "v2":
                _write(os.path.join(d, "memory.max"), str(memory_bytes))
                if os.path.exists(os.path.join(d, "memory.swap.max")):
                    _write(os.path.join(d, "memory.swap.max"), "0")
            else:
                _write(os.path.join(d, "memory.limit_in_bytes"), str(memory_bytes))
                memsw = os.path.join(d, "memory.memsw.limit_in_bytes")
                if os.path.exists(memsw):
                    _write(memsw, str(memory_bytes))
                else:
                    with contextlib.suppress(OSError):
                        _write(os.path.join(d, "memory.swappiness"), "0")
        if pids_max and "pids" in self.path:
            _write(os.path.join(self.path["pids"], "pids.max"), str(pids_max))

    def cpu_seconds(self) -> float | None:
        """CPU seconds of every process that ever ran in the group; None when ``cpu`` does not hold."""
        d = self.path.get("cpu")
        if d is None:
            return None
        try:
            if self.version_of(d) == "v2":
                return _field(_read(os.path.join(d, "cpu.stat")), "usage_usec") / 1e6
            return int(_read(os.path.join(d, "cpuacct.usage")).strip()) / 1e9
        except (OSError, ValueError):
            return None

    def freeze(self) -> bool:
        """Freeze every process of the group and wait (at most :data:`FREEZE_WAIT_S`) until they
        all are; False when ``freeze`` does not hold or it did not settle."""
        d = self.path.get("freeze")
        if d is None:
            return False
        try:
            if self.version_of(d) == "v2":
                _write(os.path.join(d, "cgroup.freeze"), "1")
            else:
                _write(os.path.join(d, "freezer.state"), "FROZEN")
        except OSError:
            return False
        end = time.monotonic() + FREEZE_WAIT_S
        delay = 0.0001
        while not self.frozen():
            if time.monotonic() > end:
                return False
            time.sleep(delay)
            delay = min(2 * delay, 0.01)
        return True

    def frozen(self) -> bool:
        """Whether every process of the group is frozen now."""
        d = self.path.get("freeze")
        if d is None:
            return False
        try:
            if self.version_of(d) == "v2":
                return _field(_read(os.path.join(d, "cgroup.events")), "frozen") == 1
            return _read(os.path.join(d, "freezer.state")).strip() == "FROZEN"
        except OSError:
            return False

    def thaw(self) -> None:
        """Let the group's processes run again."""
        d = self.path.get("freeze")
        if d is None:
            return
        with contextlib.suppress(OSError):
            if self.version_of(d) == "v2":
                _write(os.path.join(d, "cgroup.freeze"), "0")
            else:
                _write(os.path.join(d, "freezer.state"), "THAWED")

    def oom_kills(self) -> int:
        """Processes of the group the kernel killed for going over its memory cap."""
        d = self.path.get("memory")
        if d is None:
            return 0
        try:
            if self.version_of(d) == "v2":
                return _field(_read(os.path.join(d, "memory.events")), "oom_kill")
            return _field(_read(os.path.join(d, "memory.oom_control")), "oom_kill")
        except (OSError, ValueError):
            return 0

    def peak_memory(self) -> int | None:
        """The most memory the group's processes held together (bytes); None without ``memory``."""
        d = self.path.get("memory")
        if d is None:
            return None
        name = "memory.peak" if self.version_of(d) == "v2" else "memory.max_usage_in_bytes"
        try:
            return int(_read(os.path.join(d, name)).strip())
        except (OSError, ValueError):
            return None

    def pids(self) -> list[int]:
        """The processes in the group now."""
        return sorted({p for d in self.dirs for p in _procs(d)})

    def destroy(self, wait_s: float = 5.0) -> bool:
        """Kill every process of the group and remove it (waiting at most ``wait_s`` for the
        processes to go); True when every directory is gone."""
        for d in self.dirs:
            _kill_dir(d, self.version_of(d))
        end = time.monotonic() + wait_s
        left = list(self.dirs)
        delay = 0.0005
        while left:
            for d in list(left):
                if not _procs(d):
                    try:
                        os.rmdir(d)
                        left.remove(d)
                        continue
                    except FileNotFoundError:
                        left.remove(d)
                        continue
                    except OSError:
                        pass
                _kill_dir(d, self.version_of(d))
            if not left or time.monotonic() > end:
                break
            time.sleep(delay)
            delay = min(2 * delay, 0.05)
        self.removed = not left
        return self.removed

    def version_of(self, d: str) -> str:
        """The cgroup version of directory ``d`` of this group."""
        return self.versions.get(d, "v1")


def new_group(memory_bytes: int | None, pids_max: int | None = PIDS_MAX) -> GameGroup | None:
    """A fresh cgroup for one game (limits set), or None where no guarantee holds."""
    sup = support()
    if not sup.usable:
        return None
    return GameGroup(sup, memory_bytes, pids_max)


def join(procs: Sequence[str]) -> None:
    """Move the calling process into a game's cgroup (run in the game process, as root, before
    any bot code); every process it starts inherits the group. Raises OSError when it cannot."""
    me = str(os.getpid())
    for path in procs:
        _write(path, me)


def with_isolation(warning: str) -> str:
    """The tournament's isolation warning ``warning`` with what the games' cgroups do not
    guarantee here added (:meth:`Support.warning`); ``""`` when everything holds."""
    return "; ".join(part for part in (warning, support().warning()) if part)
