"""Spreads its memory over six children of 160 MiB each (under ``--memory-mb 200`` each process
fits, the bot as a whole holds about 1 GB). Each child writes every page, then reports through a
pipe; the bot waits until each child holds its memory or is gone (10 s at most), sampling every
20 ms how many live children hold all their memory, and prints "HELD k of 6" (how many ever got
it all) and "AT ONCE <MiB>" (the most memory its live children held at one time)."""

import os
import select
import time

CHILDREN = 6
MIB = 160
STARTED = []


def _holding(held: set[int], live: set[int]) -> int:
    """Children alive now that hold all their memory (the dead ones reaped and dropped)."""
    for pid in list(live):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            live.discard(pid)
    return len(held & live)


class MemoryChildren:
    def act(self, info, rng):
        if not STARTED:
            read, write = os.pipe()
            for _ in range(CHILDREN):
                pid = os.fork()
                if pid == 0:  # never returns into the bot's code
                    try:
                        os.close(read)
                        memory = b"x" * (MIB << 20)  # every page written: resident
                        os.write(write, f"{os.getpid()}\n".encode())
                        while memory:
                            time.sleep(1)
                    except BaseException as e:
                        print(f"CHILD {type(e).__name__}", flush=True)
                    finally:
                        os._exit(0)
                STARTED.append(pid)
            os.close(write)
            live, held, text = set(STARTED), set(), b""
            most, end = 0, time.monotonic() + 10.0
            while time.monotonic() < end and any(p in live and p not in held for p in STARTED):
                ready, _, _ = select.select([read], [], [], 0.02)
                if ready:
                    data = os.read(read, 4096)
                    if not data:
                        break
                    text += data
                    *lines, text = text.split(b"\n")
                    held.update(int(x) for x in lines)
                most = max(most, _holding(held, live))
            most = max(most, _holding(held, live))
            print(f"HELD {len(held)} of {CHILDREN}", flush=True)
            print(f"AT ONCE {most * MIB}", flush=True)
        return info.legal_actions()[0]
