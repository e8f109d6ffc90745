"""Thinks in helpers the kernel reaps (SIGCHLD set to SIG_IGN), so their CPU reaches nobody's
``cutime``: on its first decision of a task, three helpers burn 0.1 s of CPU each while the bot
process only waits. Prints "HELPED <seconds>": the CPU the helpers measured for themselves."""

import contextlib
import os
import signal
import time

HELPERS = 3
BURN_S = 0.1
DONE = []


def _helper(report: int) -> None:
    end = time.process_time() + BURN_S
    while time.process_time() < end:
        pass
    os.write(report, f"{time.process_time():.6f}\n".encode())
    os._exit(0)


class SigchldIgnorer:
    def act(self, info, rng):
        if not DONE:
            signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
            read, write = os.pipe()
            for _ in range(HELPERS):
                if os.fork() == 0:
                    os.close(read)
                    _helper(write)
            os.close(write)
            with os.fdopen(read) as f:  # EOF once every helper has exited
                used = sum(float(line) for line in f)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(-1, 0)  # with SIG_IGN: waits for all of them, then ECHILD
            DONE.append(used)
            print(f"HELPED {used:.6f}", flush=True)
        return info.legal_actions()[0]
