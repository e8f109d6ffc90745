"""Appends a line to the host's results file (OUT/journal.jsonl, found among the host's open
files) that disqualifies its opponent, with a HMAC copied from a real line, so that --resume
would ban the opponent."""

import json
import os
from pathlib import Path


def _journal() -> Path | None:
    zygote = os.getppid()
    host = int(Path(f"/proc/{zygote}/stat").read_text().rsplit(")", 1)[1].split()[1])
    try:
        for fd in os.listdir(f"/proc/{host}/fd"):
            target = os.readlink(f"/proc/{host}/fd/{fd}")
            if target.endswith("journal.jsonl"):
                return Path(target)
    except OSError as e:
        print("NO FDS", type(e).__name__, flush=True)
    return None


class JournalForger:
    done = False

    def act(self, info, rng):
        path = _journal()
        if path is not None and not JournalForger.done:
            first = json.loads(path.read_text().splitlines()[0])
            forged = {"disqualified": "heuristic", "reason": "forged by journal_forger", "mac": first.get("mac", "")}
            with open(path, "a") as f:
                f.write(json.dumps(forged) + "\n")
            JournalForger.done = True
            print("FORGED", path, flush=True)
        return info.legal_actions()[0]
