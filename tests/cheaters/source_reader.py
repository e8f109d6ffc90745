"""Tries to read the other bots' code: its own folder's listing, then the other bots' staged files."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
DONE = []


class SourceReader:
    def act(self, info, rng):
        if not DONE:
            DONE.append(1)
            print("HERE", sorted(os.listdir(HERE)), flush=True)
            root = os.path.dirname(HERE)
            try:
                print("STAGING", sorted(os.listdir(root)), flush=True)
            except OSError as e:
                print("STAGING", type(e).__name__, flush=True)
            for j in range(8):
                if os.path.join(root, f"bot{j}") == HERE:
                    continue
                for name in ("memoriser.py", "_helper.py"):
                    try:
                        with open(os.path.join(root, f"bot{j}", name)) as f:
                            f.read()
                        print("READ", j, name, flush=True)
                    except OSError as e:
                        print("DENIED", j, name, type(e).__name__, flush=True)
        return info.legal_actions()[0]
