"""Keeps two busy helpers in its process group and, on each of its decisions, starts a waker
that leaves the group (setsid) and sends SIGCONT to the group every millisecond, so that the
helpers run again while the bot is stopped on its opponent's turn. Writes the helpers' pids to
PIDS, one a line, for the test's opponent to measure their CPU during its own turns."""

import os
import signal
import time

PIDS = "/tmp/sixtysix-waker-pids"
HELPERS = []


def _busy() -> None:
    while True:
        pass


class SetsidWaker:
    def act(self, info, rng):
        group = os.getpgid(0)
        if not HELPERS:
            for _ in range(2):
                pid = os.fork()
                if pid == 0:
                    _busy()
                HELPERS.append(pid)
                with open(PIDS, "a") as f:
                    f.write(f"{pid}\n")
        if os.fork() == 0:
            os.setsid()
            while True:
                try:
                    os.killpg(group, signal.SIGCONT)
                except OSError:
                    os._exit(0)
                time.sleep(0.001)
        return info.legal_actions()[0]
