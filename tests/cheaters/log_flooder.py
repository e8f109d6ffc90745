"""Writes 50 MiB to its log on its first decision."""

import sys

DONE = []


class LogFlooder:
    def act(self, info, rng):
        if not DONE:
            DONE.append(1)
            line = "x" * 1023 + "\n"
            for _ in range(50 * 1024):
                sys.stdout.write(line)
        return info.legal_actions()[0]
