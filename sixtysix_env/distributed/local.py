"""Running tasks in this process or in a pool of worker processes, with any start method (the
local half of "where tasks run"; :mod:`.ray_backend` is the other).

A task carries only text and plain data (agent specs, rules), so it pickles. Under ``spawn`` and
``forkserver`` a worker starts from a fresh interpreter: file and module bots load from their
source, and agent names the caller added with ``register_agent`` travel to every worker with the
pool's initializer (their factories pickle by reference).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..agents import AGENTS
from ..agents.spec import AgentSpec

__all__ = ["START_METHODS", "check_start_method", "init_worker", "map_tasks", "registrations_for"]

START_METHODS = ("fork", "spawn", "forkserver")
"""The multiprocessing start methods the arena accepts (``--start-method``)."""

T = TypeVar("T")
R = TypeVar("R")


def check_start_method(method: str | None) -> str | None:
    """``method`` if this platform has it (None: the platform's default), else a ValueError."""
    if method is None:
        return None
    available = multiprocessing.get_all_start_methods()
    if method not in available:
        raise ValueError(f"start method {method!r} is not available here: choose one of {', '.join(available)}")
    return method


def registrations_for(specs: Sequence[AgentSpec], method: str | None) -> dict[str, Any]:
    """The registry entries the workers need for ``specs``; a ValueError before any game when one
    cannot reach a fresh worker (a lambda or a class made inside a function, under spawn)."""
    entries = {s.name: AGENTS[s.name] for s in specs if not s.source and s.name in AGENTS}
    if (method or multiprocessing.get_start_method()) == "fork":
        return {}
    for name, factory in entries.items():
        try:
            pickle.dumps(factory)
        except Exception as e:
            raise ValueError(
                f"agent {name!r} was registered with {factory!r}, which cannot be sent to {method or 'spawn'} "
                f"workers ({type(e).__name__}): define it at module level, name it as file.py:Class, or use "
                "--start-method fork or one worker"
            ) from None
    return entries


def init_worker(registrations: dict[str, Any]) -> None:
    """Worker set-up: the caller's agent registrations, and one compute thread. Several workers
    each running a multi-threaded math library (torch or BLAS behind a learned agent) on a small
    machine spin against each other; measured here, the ppo agent went from 0.9 to 12 ms per
    decision with two workers of two threads."""
    AGENTS.update(registrations)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def map_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    *,
    start_method: str | None = None,
    registrations: dict[str, Any] | None = None,
    on_result: Callable[[T, R], None] | None = None,
) -> list[R]:
    """``[fn(t) for t in tasks]``, in order, on ``workers`` processes (1: here); ``on_result`` sees
    each result as it arrives (progress bars)."""
    out: list[R] = []
    pool = None
    if workers == 1:
        it: Iterator[R] = map(fn, tasks)
    else:
        ctx = multiprocessing.get_context(start_method)
        pool = ctx.Pool(workers, initializer=init_worker, initargs=(registrations or {},))
        it = pool.imap(fn, tasks, chunksize=1)
    try:
        for task, res in zip(tasks, it, strict=True):
            out.append(res)
            if on_result is not None:
                on_result(task, res)
    finally:
        if pool is not None:
            pool.terminate() if len(out) < len(tasks) else pool.close()
            pool.join()
    return out
