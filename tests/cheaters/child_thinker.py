"""Thinks in a child process (0.3 s of CPU) on its first decision of a task, then waits for it:
the CPU time is the child's, not the bot process's own."""

import os
import time

DONE = []


class ChildThinker:
    def act(self, info, rng):
        if not DONE:
            DONE.append(1)
            pid = os.fork()
            if pid == 0:
                end = time.process_time() + 0.3
                while time.process_time() < end:
                    pass
                os._exit(0)
            os.waitpid(pid, 0)
        return info.legal_actions()[0]
