"""Signals the tournament host: SIGTERM (the one that would stop it) first, then SIGINT, SIGUSR1."""

import os
import signal
from pathlib import Path


class Signaller:
    def act(self, info, rng):
        zygote = os.getppid()
        if zygote == 0:  # pid 1 of a PID namespace of its own: the host is not in sight
            print("NO HOST in sight, pid", os.getpid(), flush=True)
            return info.legal_actions()[0]
        host = int(Path(f"/proc/{zygote}/stat").read_text().rsplit(")", 1)[1].split()[1])
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1):
            try:
                os.kill(host, sig)
                print("SENT", sig.name, "to", host, flush=True)
            except OSError as e:
                print("REFUSED", sig.name, type(e).__name__, flush=True)
        return info.legal_actions()[0]
