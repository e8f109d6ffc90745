"""Asks for 8 GiB on its first decision (malloc: pages never touched, so no real memory is used
where it is allowed)."""

import ctypes

HELD = []


class MemoryHog:
    def act(self, info, rng):
        if not HELD:
            malloc = ctypes.CDLL(None).malloc
            malloc.restype = ctypes.c_void_p
            HELD.append(malloc(ctypes.c_size_t(8 << 30)))
            if not HELD[0]:
                raise MemoryError("malloc refused 8 GiB")
            print("GOT 8 GiB", flush=True)
        return info.legal_actions()[0]
