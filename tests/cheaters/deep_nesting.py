"""Writes 5000 opening brackets to the host's socket at import time: JSON nested so deep that
the host's decoder recurses out (it crashed the whole tournament once)."""

import os

os.write(3, b"[" * 5000)


class DeepNesting:
    def act(self, info, rng):
        return info.legal_actions()[0]
