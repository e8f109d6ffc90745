"""From its second decision on, sends a stale answer (action 9999) from a thread after the
question has arrived and before the real answer. Without a tie between an answer and its own
question, the host would read the stale message as the reply to the question just asked (and
count an illegal move, one message late) instead of disqualifying the bot."""

import json
import os
import threading


class LateAnswer:
    def __init__(self):
        self.decisions = 0

    def act(self, info, rng):
        self.decisions += 1
        if self.decisions > 1:
            print("SENDING LATE", flush=True)
            sender = threading.Thread(target=os.write, args=(3, json.dumps({"action": 9999}).encode()))
            sender.start()
            sender.join()
        return info.legal_actions()[0]
