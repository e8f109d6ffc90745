"""Keeps the hand it was dealt in its user keyring (add_key), which outlives its processes, and
looks there for the hand one of its other tasks left (request_key, keyctl read)."""

import ctypes
import os

CALLS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}
DONE = []


class KeyringMemoriser:
    def act(self, info, rng):
        if not DONE and os.uname().machine in CALLS:
            DONE.append(1)
            add, request, keyctl = CALLS[os.uname().machine]
            libc = ctypes.CDLL(None, use_errno=True)
            mine = f"{info.trump_card} {info.hand}".encode()
            name = f"sixtysix-{info.trump_card}".encode()
            key = libc.syscall(request, b"user", name, None, 0)
            if key > 0:
                buf = ctypes.create_string_buffer(100)
                n = libc.syscall(keyctl, 11, key, buf, 100)  # KEYCTL_READ
                trump, hand = map(int, buf.raw[:n].split())
                print("FOUND", buf.raw[:n], flush=True)
                if trump == info.trump_card and not hand & info.hand:
                    print("CHEAT: knows the opponent's hand from the keyring", flush=True)
            r = libc.syscall(add, b"user", name + f"-{info.hand}".encode(), mine, len(mine), -4)  # @u
            print("ADD_KEY", "ok" if r > 0 else os.strerror(ctypes.get_errno()), flush=True)
            r = libc.syscall(add, b"user", name, mine, len(mine), -4)
        return info.legal_actions()[0]
