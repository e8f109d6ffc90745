"""Signals sent to the tournament host: a bot's are ignored and disqualify it, others stop it.

The host blocks the catchable signals that would stop it and waits for them in a thread
(``sigtimedwait``), which tells who sent each one (``si_pid``). A sender whose parent chain
leads to a bot's zygote is that bot: the signal is ignored and the bot disqualified. Ctrl-C from
the terminal, and ``SIGTERM``/``SIGINT``/``SIGHUP``/``SIGQUIT`` from any other process, stop the
tournament as before. ``SIGKILL`` and ``SIGSTOP`` cannot be caught: a bot running under the
host's own user id can still send them (the results written so far survive; ``--resume``
continues). Run as root, the host puts each bot under its own user id, and then it cannot.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable

from .sandbox import proc_stat

__all__ = ["SignalGuard"]

STOPPING = frozenset({signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT})
WATCHED = STOPPING | {
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGVTALRM,
    signal.SIGPROF,
    signal.SIGTSTP,
    signal.SIGTTIN,
    signal.SIGTTOU,
    signal.SIGXCPU,
    signal.SIGXFSZ,
}
SI_USER_CODES = (0, -1, -6)  # SI_USER, SI_QUEUE, SI_TKILL: sent by a process


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
            for sig in WATCHED:  # a signal that reaches a thread without the mask is only noted
                self._old[sig] = signal.signal(sig, lambda *_: None)
            signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)
            self._thread = threading.Thread(target=self._wait, daemon=True, name="signal guard")
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.active:
            self._done.set()
            if self._thread is not None:
                self._thread.join(2.0)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, WATCHED)
            for sig, old in self._old.items():
                with contextlib.suppress(TypeError, ValueError):
                    signal.signal(sig, old)  # type: ignore[arg-type]

    def _wait(self) -> None:
        while not self._done.is_set():
            info = signal.sigtimedwait(WATCHED, 0.2)
            if info is not None:
                self.handle(info.si_signo, info.si_pid, info.si_code)

    def handle(self, signo: int, sender: int, code: int) -> None:
        name = signal.Signals(signo).name
        if code in SI_USER_CODES and sender > 0:
            chain = ancestors(sender)
            bot = next((b for b in map(self.owner, chain) if b is not None), None)
            if bot is not None:
                self.on_bot(bot, name)
                return
            if proc_stat(sender) is None:  # gone before it could be told apart from a bot's
                print(f"tournament: ignored {name} from process {sender}, gone already", file=sys.stderr)
                return
        if signo in STOPPING:
            self.on_stop()
