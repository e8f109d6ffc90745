"""On its first decision: starts a helper that sleeps, prints its pid, then writes 5000 opening
brackets to the host's socket before its real answer, which used to be read one message late."""

import os
import subprocess
import sys


class NestingInPlay:
    def act(self, info, rng):
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        print("HELPER", helper.pid, flush=True)
        os.write(3, b"[" * 5000)
        return info.legal_actions()[0]
