"""Makes the kernel signal the host for it: a socket of its own set to O_ASYNC, owned by the host
(F_SETOWN), with SIGTERM as its signal (F_SETSIG); writing to the other end sends SIGTERM,
whose siginfo names no sender. Unguarded, it stopped the tournament."""

import fcntl
import os
import signal
import socket
import time
from pathlib import Path

F_SETSIG = getattr(fcntl, "F_SETSIG", 10)
KEPT = []


class AsyncSignaller:
    def act(self, info, rng):
        if os.getppid() == 0:
            print("NO HOST in sight", flush=True)
            return info.legal_actions()[0]
        host = int(Path(f"/proc/{os.getppid()}/stat").read_text().rsplit(")", 1)[1].split()[1])
        a, b = socket.socketpair()
        KEPT.extend((a, b))
        try:
            fcntl.fcntl(a, fcntl.F_SETOWN, host)
            fcntl.fcntl(a, F_SETSIG, signal.SIGTERM)
            fcntl.fcntl(a, fcntl.F_SETFL, fcntl.fcntl(a, fcntl.F_GETFL) | os.O_ASYNC)
            b.send(b"x")
            print("ARMED", host, flush=True)
        except OSError as e:
            print("REFUSED", type(e).__name__, flush=True)
        time.sleep(0.5)  # holds the socket while the host looks for it
        return info.legal_actions()[0]
