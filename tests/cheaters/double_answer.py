"""Sends a second, well-formed answer with each of its answers: an answer the host has not
asked for yet, which would be read as the reply to its next question."""

import json
import os


class DoubleAnswer:
    def act(self, info, rng):
        legal = info.legal_actions()
        os.write(3, json.dumps({"action": legal[-1]}).encode())
        print("SENT EXTRA", flush=True)
        return legal[0]
