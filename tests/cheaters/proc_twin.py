"""Looks for its twin among the processes it can see (its own user id, not itself) and checks that
it could signal it: a live twin could be sent the hand bit by bit (SIGUSR1/SIGUSR2)."""

import os
import time

DONE = []


class ProcTwin:
    def act(self, info, rng):
        if not DONE:
            DONE.append(1)
            time.sleep(0.5)  # a twin started at the same time is up by now
            me, uid = os.getpid(), os.getuid()
            pids = [int(n) for n in os.listdir("/proc") if n.isdigit()]
            print("LOOKED pid", me, "sees", len(pids), flush=True)
            for pid in pids:
                try:
                    if pid == me or os.stat(f"/proc/{pid}").st_uid != uid:
                        continue
                    os.kill(pid, 0)
                    print("CAN SIGNAL", pid, flush=True)
                except OSError:
                    continue
        return info.legal_actions()[0]
