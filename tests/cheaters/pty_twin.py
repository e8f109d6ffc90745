"""Twin memory through pseudo-terminals (issue 32, item 2's second channel). Each game process
opens a pty pair (``/dev/ptmx``) and keeps "trump hand" lines, its own and every one it learned,
waiting on its terminal. On each decision it opens every other ``/dev/pts/N`` it may (its user id
owns them), reads what waits there and posts that on its own, so a finished task's hand is still
there when its twin starts. A line with its own trump, disjoint from its own hand, is the
opponent's hand: printed as a CLAIM (checked against the game records by the test)."""

import os

PTY: list[int] = []
KNOWN: set[str] = set()
POSTED: set[str] = set()


def _open() -> bool:
    try:
        master, slave = os.openpty()
    except OSError as e:
        print("NO PTY", type(e).__name__, flush=True)
        return False
    os.set_blocking(master, False)
    PTY.extend((master, slave, int(os.ttyname(slave).rsplit("/", 1)[1])))
    print("PTY", PTY[2], flush=True)
    return True


def _gather() -> None:
    try:
        names = [n for n in os.listdir("/dev/pts") if n.isdigit() and int(n) != PTY[2]]
    except OSError:
        return
    for n in names:
        try:
            fd = os.open(f"/dev/pts/{n}", os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError:
            continue
        data = b""
        try:
            while len(data) < 1 << 16:  # a line per read: the terminal is in canonical mode
                data += os.read(fd, 4096) or b""
        except OSError:
            pass
        finally:
            os.close(fd)
        KNOWN.update(x for x in data.decode(errors="replace").split("\n") if x.count(" ") == 1)


def _post() -> None:
    for line in sorted(KNOWN - POSTED):
        try:
            os.write(PTY[0], line.encode() + b"\n")
            POSTED.add(line)
        except OSError:
            return


class PtyTwin:
    def act(self, info, rng):
        if not PTY:
            if not _open():
                PTY.extend((-1, -1, -1))
                return info.legal_actions()[0]
            _gather()
            for line in KNOWN:
                trump, hand = map(int, line.split())
                if trump == info.trump_card and not hand & info.hand:
                    print(f"CLAIM pty trump={trump} hand={hand}", flush=True)
            KNOWN.add(f"{info.trump_card} {info.hand}")
            _post()
        elif PTY[0] >= 0:
            _gather()
            _post()
        return info.legal_actions()[0]
