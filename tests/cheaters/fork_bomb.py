"""Forks sleeping children until the system says no, and says how many it got."""

import os
import time

DONE = []


class ForkBomb:
    def act(self, info, rng):
        if not DONE:
            DONE.append(1)
            n = 0
            while n < 500:
                try:
                    pid = os.fork()
                except OSError as e:
                    print("REFUSED", type(e).__name__, flush=True)
                    break
                if pid == 0:
                    time.sleep(60)
                    os._exit(0)
                n += 1
            print("FORKED", n, flush=True)
        return info.legal_actions()[0]
