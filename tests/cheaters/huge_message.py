"""Floods the host with one message of 4 MiB."""

import socket


class HugeMessage:
    def act(self, info, rng):
        sock = socket.socket(fileno=3)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 23)
        try:
            sock.send(b"[" * (1 << 22))
        except OSError:
            sock.send(b"[" * (1 << 17))
        sock.detach()
        return info.legal_actions()[0]
