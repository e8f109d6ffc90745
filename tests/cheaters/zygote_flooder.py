"""On each decision: writes 60 KiB to its log, then kills its zygote (its parent, when it runs
under the host's user id), so that the host starts a new one, whose log cap used to start again."""

import os
import signal
import sys


class ZygoteFlooder:
    def act(self, info, rng):
        sys.stdout.write(("y" * 1023 + "\n") * 60)
        sys.stdout.flush()
        if os.getppid() > 1:
            try:
                os.kill(os.getppid(), signal.SIGKILL)
            except OSError as e:
                print("REFUSED", type(e).__name__, flush=True)
        return info.legal_actions()[0]
