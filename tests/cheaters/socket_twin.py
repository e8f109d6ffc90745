"""Passes its hand to its twin (the same deal with the seats swapped, if it plays at the same
time): a UDP socket on 127.0.0.1 and an abstract unix socket, both named after the trump card. The
first twin to come binds them and listens for 1.5 s; the second finds them taken and sends."""

import select
import socket
import time

DONE = []


class SocketTwin:
    def act(self, info, rng):
        if DONE:
            return info.legal_actions()[0]
        DONE.append(1)
        mine = f"{info.trump_card} {info.hand}".encode()
        places = (
            ("UDP", socket.AF_INET, ("127.0.0.1", 40000 + info.trump_card)),
            ("UNIX", socket.AF_UNIX, f"\0sixtysix-twin-{info.trump_card}".encode()),
        )
        listening = {}
        for name, family, address in places:
            s = socket.socket(family, socket.SOCK_DGRAM)
            try:
                s.bind(address)
                listening[s] = name
                print("LISTENS", name, flush=True)
            except OSError:
                try:
                    s.sendto(mine, address)
                    print("SENT", name, flush=True)
                except OSError as e:
                    print("CANNOT SEND", name, type(e).__name__, flush=True)
        deadline = time.monotonic() + 1.5
        while listening and time.monotonic() < deadline:
            ready, _, _ = select.select(list(listening), [], [], max(0.0, deadline - time.monotonic()))
            for s in ready:
                trump, hand = map(int, s.recv(100).split())
                print("GOT", listening[s], flush=True)
                if trump == info.trump_card and not hand & info.hand:
                    print("CHEAT: got the twin's hand through", listening[s], flush=True)
        return info.legal_actions()[0]
