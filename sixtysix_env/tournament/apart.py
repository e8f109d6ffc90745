"""``run_apart``: a thread pool that never runs two items of the same group at once.

The tournament groups the two seat orders of a block (the same cards, seats swapped): they
never run at the same time, so a bot cannot pass what it sees to its twin while both play.
Results come back in the order of the items, whatever the workers did first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

__all__ = ["run_apart"]

T = TypeVar("T")
R = TypeVar("R")


def run_apart(items: Sequence[T], group: Callable[[T], Hashable], workers: int, fn: Callable[[T], R]) -> list[R]:
    """``[fn(x) for x in items]`` on ``workers`` threads, each taking the first waiting item
    whose group is not running; the first exception stops the others taking more, and is raised."""
    pending = list(range(len(items)))
    busy: set[Hashable] = set()
    results: dict[int, R] = {}
    errors: list[BaseException] = []
    cond = threading.Condition()

    def take() -> int | None:
        with cond:
            while not errors and pending:
                for k, i in enumerate(pending):
                    if group(items[i]) not in busy:
                        busy.add(group(items[i]))
                        return pending.pop(k)
                cond.wait()
            return None

    def work() -> None:
        while (i := take()) is not None:
            try:
                value = fn(items[i])
            except BaseException as e:
                with cond:
                    errors.append(e)
                    cond.notify_all()
                return
            with cond:
                results[i] = value
                busy.discard(group(items[i]))
                cond.notify_all()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(workers, len(items))))]
    for t in threads:
        t.start()
    try:
        for t in threads:
            t.join()
    except BaseException as e:  # Ctrl-C in this thread: stop taking items, let it through
        with cond:
            errors.append(e)
            cond.notify_all()
        raise
    if errors:
        raise errors[0]
    return [results[i] for i in range(len(items))]
