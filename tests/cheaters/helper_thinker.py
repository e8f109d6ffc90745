"""Thinks in a helper process it keeps alive (never reaped): 0.3 s of the helper's CPU on its
first decision of a task, while the bot process itself only waits for the helper's reply."""

import os
import time

PIPES = []


class HelperThinker:
    def act(self, info, rng):
        if not PIPES:
            ask_r, ask_w = os.pipe()
            reply_r, reply_w = os.pipe()
            if os.fork() == 0:
                while os.read(ask_r, 1):
                    end = time.process_time() + 0.3
                    while time.process_time() < end:
                        pass
                    os.write(reply_w, b".")
                os._exit(0)
            PIPES.append((ask_w, reply_r))
            os.write(ask_w, b"?")
            os.read(reply_r, 1)
        return info.legal_actions()[0]
