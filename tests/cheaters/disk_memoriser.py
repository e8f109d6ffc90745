"""Leaves the hand it was dealt in every folder it can write (/tmp, /var/tmp, /dev/shm, /run/lock,
its working folder) at the start of each task, and looks there for a hand one of its other tasks
left: the same trump card and a hand disjoint from its own is the opponent's (seats swapped)."""

import os

FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", ".")
DONE = []


class DiskMemoriser:
    def act(self, info, rng):
        if not DONE:
            DONE.append(1)
            for folder in FOLDERS:
                try:
                    names = [n for n in os.listdir(folder) if n.startswith("sixtysix-memo-")]
                except OSError:
                    continue
                for name in names:
                    try:
                        with open(os.path.join(folder, name)) as f:
                            trump, hand = map(int, f.read().split())
                    except (OSError, ValueError):
                        continue
                    print("FOUND", folder, name, flush=True)
                    if trump == info.trump_card and not hand & info.hand:
                        print("CHEAT: knows the opponent's hand from", folder, flush=True)
            for folder in FOLDERS:
                try:
                    with open(os.path.join(folder, f"sixtysix-memo-{info.trump_card}-{info.hand}"), "w") as f:
                        f.write(f"{info.trump_card} {info.hand}")
                    print("WROTE", folder, flush=True)
                except OSError as e:
                    print("CANNOT WRITE", folder, type(e).__name__, flush=True)
        return info.legal_actions()[0]
