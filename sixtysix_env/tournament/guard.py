"""Signals sent to the tournament host: a bot's are ignored and disqualify it, others stop it.

The host blocks every signal it can (all but ``SIGKILL`` and ``SIGSTOP``: the real-time ones,
``SIGTRAP``, ``SIGABRT``, ``SIGBUS``, ``SIGSEGV``, ``SIGSYS`` and the rest too) and waits for
them in a thread (``sigtimedwait``), which tells who sent each one (``si_pid``). A sender whose
parent chain leads to a bot's zygote is that bot: the signal is ignored and the bot disqualified.
A signal a bot arranged through a file it owns (``F_SETOWN``/``F_SETSIG`` on a socket, which
names no sender) is ignored, and the bot holding a file in that mode (``O_ASYNC``) disqualified.
Ctrl-C from the terminal, and ``SIGTERM``/``SIGINT``/``SIGHUP``/``SIGQUIT`` from any other
process, stop the tournament as before. A sender that is gone by the time the guard looks (``kill``
from a shell exits at once; so can a bot's helper) cannot be told apart: a stopping signal from it
stops the tournament (``--resume`` continues), any other is ignored, and neither disqualifies.

The fault signals (``SIGSEGV``, ``SIGBUS``, ``SIGILL``, ``SIGFPE``, ``SIGTRAP``, ``SIGSYS``,
``SIGABRT``) are blocked but get no handler of their own: one the host's own code raises (a real
fault) is delivered by the kernel whatever the mask, and ends the host as before; one sent with
``kill`` waits, blocked, for the guard. ``SIGKILL`` and ``SIGSTOP`` cannot be caught: a bot
running under the host's own user id can still send them (the results written so far survive;
``--resume`` continues). Run as root, the host puts each bot under its own user id, and then it
cannot.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable

from .sandbox import proc_stat

__all__ = ["SignalGuard", "WATCHED"]

STOPPING = frozenset({signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT})
FAULTS = frozenset(
    getattr(signal, n)
    for n in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGTRAP", "SIGSYS", "SIGABRT")
    if hasattr(signal, n)
)
"""Blocked, never handled in Python: a Python handler that returns would re-run a faulting instruction."""
WATCHED = frozenset(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP}
"""Every signal that can be blocked (the real-time ones from ``SIGRTMIN`` on; glibc's own two
below ``SIGRTMIN`` are not in ``valid_signals``)."""
HANDLED = WATCHED - FAULTS - {signal.SIGPIPE, signal.SIGCHLD}
"""Those that get a no-op handler too, for a thread that does not block them (one started
before the guard): a signal it receives is then only noted, never the end of the host.
``SIGPIPE`` keeps Python's ``SIG_IGN`` and ``SIGCHLD`` its default (ignored)."""
SI_USER_CODES = frozenset({0, -1, -3, -4, -5, -6, -60})
"""``si_code`` of a signal a process sent (``SI_USER``, ``SI_QUEUE``, ``SI_MESGQ``,
``SI_ASYNCIO``, ``SI_SIGIO``, ``SI_TKILL``, ``SI_ASYNCNL``): ``si_pid`` names the sender."""
SI_KERNEL = 0x80
"""The kernel's own (Ctrl-C and a hang-up from the terminal)."""
FASYNC = 0o20000
"""``O_ASYNC`` in ``/proc/PID/fdinfo/FD`` flags: the file sends its owner signals."""


def ancestors(pid: int, limit: int = 64) -> list[int]:
    """``pid`` and its parents up to init, from ``/proc``."""
    chain = [pid]
    while len(chain) < limit:
        st = proc_stat(chain[-1])
        if st is None or st[0] <= 1:
            break
        chain.append(st[0])
    return chain


class SignalGuard:
    """While active (a ``with`` block in the main thread): ``owner(pid)`` names the bot a process
    belongs to (or None); ``on_bot(label, signame)`` disqualifies it; ``on_stop()`` stops the
    tournament."""

    def __init__(
        self,
        owner: Callable[[int], str | None],
        on_bot: Callable[[str, str], None],
        on_stop: Callable[[], None],
    ) -> None:
        self.owner = owner
        self.on_bot = on_bot
        self.on_stop = on_stop
        self.active = threading.current_thread() is threading.main_thread() and hasattr(signal, "sigtimedwait")
        self._done = threading.Event()
        self._old: dict[int, object] = {}
        self._thread: threading.Thread | None = None

    def __enter__(self) -> SignalGuard:
        if self.active:
            for sig in HANDLED:  # a signal that reaches a thread without the mask is only noted
                with contextlib.suppress(OSError, ValueError):
                    self._old[sig] = signal.signal(sig, _noted)
            signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)
            self._thread = threading.Thread(target=self._wait, daemon=True, name="signal guard")
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.active:
            self._done.set()
            if self._thread is not None:
                self._thread.join(2.0)
            stops: list[int] = []
            on_stop, self.on_stop = self.on_stop, lambda: None
            while True:  # take what is still pending, so nothing a bot sent lands once unblocked
                try:
                    info = signal.sigtimedwait(WATCHED, 0)
                except OSError:
                    break
                if info is None:
                    break
                self.on_stop = functools.partial(stops.append, info.si_signo)
                self.handle(info.si_signo, info.si_pid, info.si_code)
            self.on_stop = on_stop
            for sig, old in self._old.items():
                with contextlib.suppress(TypeError, ValueError, OSError):
                    signal.signal(sig, old)  # type: ignore[arg-type]
            signal.pthread_sigmask(signal.SIG_UNBLOCK, WATCHED)
            for signo in stops:  # the teacher's stop that came as the tournament ended: as if unguarded
                signal.raise_signal(signo)

    def _wait(self) -> None:
        while not self._done.is_set():
            try:
                info = signal.sigtimedwait(WATCHED, 0.2)
            except OSError:
                continue
            if info is not None:
                self.handle(info.si_signo, info.si_pid, info.si_code)

    def _bot_of(self, pid: int) -> str | None:
        return next((b for b in map(self.owner, ancestors(pid)) if b is not None), None)

    def handle(self, signo: int, sender: int, code: int) -> None:
        try:
            name = signal.Signals(signo).name
        except ValueError:
            name = f"signal {signo}"
        if code in SI_USER_CODES and sender > 0:
            bot = self._bot_of(sender)
            if bot is not None:
                self.on_bot(bot, name)
                return
            if proc_stat(sender) is None:  # gone before it could be told apart from a bot's
                if signo in STOPPING:  # most often the teacher's kill(1), which exits at once
                    print(f"tournament: {name} from process {sender} (gone already): stopping", file=sys.stderr)
                    self.on_stop()
                else:
                    print(f"tournament: ignored {name} from process {sender}, gone already", file=sys.stderr)
                return
            if signo in STOPPING:
                self.on_stop()
            return
        if code == SI_KERNEL or code in SI_USER_CODES:  # the terminal (Ctrl-C, hang-up) or the kernel
            if signo in STOPPING:
                self.on_stop()
            return
        if signo == signal.SIGCHLD:  # a zygote of the host's ended: the pool sees it
            return
        # a positive si_code names no sender: a file's owner signal (F_SETOWN, F_SETSIG), which
        # only a bot arranges (the host sets no file to O_ASYNC): find the bots with such a file
        found = sorted({b for b in map(self._bot_of, async_holders()) if b is not None})
        for bot in found:
            self.on_bot(bot, f"{name} (through a file set to signal the host, O_ASYNC)")
        if not found:
            print(f"tournament: ignored {name} (si_code {code}) from a sender it does not name", file=sys.stderr)


def _noted(signo: int, frame: object) -> None:
    """The handler of a watched signal in a thread that does not block it: nothing happens."""


def async_holders() -> list[int]:
    """Processes with a file in ``O_ASYNC`` mode (one that sends its owner ``SIGIO`` or the
    ``F_SETSIG`` signal), other than this one."""
    me = os.getpid()
    out = []
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == me:
                continue
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{name}/fdinfo"):
                    with contextlib.suppress(OSError, ValueError), open(f"/proc/{name}/fdinfo/{fd}") as f:
                        flags = next((line.split()[1] for line in f if line.startswith("flags:")), "0")
                        if int(flags, 8) & FASYNC:
                            out.append(int(name))
                            break
    return out
