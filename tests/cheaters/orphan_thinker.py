"""Thinks in an orphaned helper (double fork: the zygote adopts it, it stays in the bot's process
group): 0.3 s of the helper's CPU on its first decision of a task; the bot process only waits."""

import os
import time

PIPES = []


def _helper(ask, reply):
    while os.read(ask, 1):
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
        os.write(reply, b".")
    os._exit(0)


class OrphanThinker:
    def act(self, info, rng):
        if not PIPES:
            ask_r, ask_w = os.pipe()
            reply_r, reply_w = os.pipe()
            middle = os.fork()
            if middle == 0:
                if os.fork() == 0:
                    _helper(ask_r, reply_w)
                os._exit(0)  # the helper is orphaned
            os.waitpid(middle, 0)
            PIPES.append((ask_w, reply_r))
            os.write(ask_w, b"?")
            os.read(reply_r, 1)
        return info.legal_actions()[0]
