"""Starts busy processes that would keep running after its answers, one leaving its process group
(setsid). Writes their pids to PIDS ("pid escaped" lines) for the test's honest bot to watch."""

import os

PIDS = "/tmp/sixtysix-hog-pids"
STARTED = []


class CpuHog:
    def act(self, info, rng):
        if not STARTED:
            for escape in (False, False, True):
                pid = os.fork()
                if pid == 0:
                    if escape:
                        os.setsid()
                    while True:
                        pass
                STARTED.append(pid)
                with open(PIDS, "a") as f:
                    f.write(f"{pid} {int(escape)}\n")
                print("HOG", pid, flush=True)
        return info.legal_actions()[0]
