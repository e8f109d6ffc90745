"""Sends the tournament host every signal it can catch, once each: the fault signals (SIGTRAP,
SIGABRT, SIGBUS, SIGSEGV, SIGSYS), SIGSTKFLT, SIGIO, SIGPWR, SIGRTMIN to SIGRTMAX and the rest
(not SIGKILL, SIGSTOP). Unguarded, the first of them would end the host."""

import os
import signal
from pathlib import Path


def _host() -> int:
    zygote = os.getppid()
    return int(Path(f"/proc/{zygote}/stat").read_text().rsplit(")", 1)[1].split()[1])


class SignalStorm:
    def act(self, info, rng):
        if os.getppid() == 0:  # pid 1 of a PID namespace of its own: the host is not in sight
            print("NO HOST in sight", flush=True)
            return info.legal_actions()[0]
        host = _host()
        # the signals of the review first (the host disqualifies and kills the bot while it sends)
        first = [signal.SIGTRAP, signal.SIGABRT, signal.SIGBUS, signal.SIGSEGV, signal.SIGSYS, signal.SIGSTKFLT]
        first += [signal.SIGIO, signal.SIGPWR, signal.SIGRTMIN]
        rest = sorted(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP} - set(first))
        for sig in first + rest:
            try:
                os.kill(host, sig)
                print("SENT", int(sig), flush=True)
            except OSError as e:
                print("REFUSED", int(sig), type(e).__name__, flush=True)
        return info.legal_actions()[0]
