"""``RayExecutor``: ``map(fn, tasks)`` over a Ray cluster, results in task order.

It stands where the arena, the gap benchmark and the tournament use a process pool: ``map``
is lazy and ordered like ``concurrent.futures.Executor.map``, and :func:`ray_map` mirrors
``distributed.local.map_tasks``. Every task already carries its own seeds, so a result depends on
the task alone, never on the node or the order in which they finish: a run on a cluster gives
the same tables as the local run with the same seed.

Each task is one Ray task (one CPU): the worker first applies the caller's agent registrations
and one compute thread per process (``distributed.local.init_worker``), then calls ``fn(task)``.
At most ``window`` tasks are in flight (default twice the cluster's CPUs), so an interrupt or
an error cancels little work, and the pending ones are cancelled before the error goes up.

The workers import ``sixtysix_env`` (and a bot's file from its path): install the package in the
same environment on every node, as ``docs/ray.md`` says. A node without it fails the first task
it takes, and the run stops with an error saying so (no task is retried elsewhere).

What Ray itself does here (Ray 2.60; ``docs/ray.md``): a ``"local"`` cluster is no loopback-only
cluster: its GCS and raylet listen on every interface of the machine, and Ray turns token
authentication on for it by default. A driver that names a cluster as ``HOST:PORT`` sends a token
only with ``RAY_AUTH_MODE=token`` in its environment (``"auto"`` turns it on by itself when a
token file exists); without it a cluster that checks tokens refuses it, and :meth:`RayExecutor.start`
says which variable to set.
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from ..checks import as_value_error, check_int
from .address import RAY_MISSING, check_ray_address
from .local import init_worker

__all__ = ["THREAD_VARS", "RayExecutor", "connection_hint", "import_ray", "ray_map"]

T = TypeVar("T")
R = TypeVar("R")

THREAD_VARS = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
"""Environment of every Ray worker: one math thread each (see ``distributed.local.init_worker``)."""


def import_ray() -> Any:
    """The ``ray`` module, or an ImportError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ImportError(RAY_MISSING) from None
    return ray


def _ship_by_value(fn: Callable[..., Any]) -> None:
    """A function from a script that the workers cannot import (``benchmarks/bench_gap.py``
    loaded from its path) travels by value, with its module's classes, instead of by name."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    name = getattr(fn, "__module__", None) or "__main__"
    module = sys.modules.get(name)
    if name == "__main__" or module is None:
        return  # __main__ is sent by value already
    if importlib.machinery.PathFinder.find_spec(name.partition(".")[0]) is None:
        from ray import cloudpickle

        cloudpickle.register_pickle_by_value(module)


def _run_one(packed: tuple[Callable[[Any], Any], dict[str, Any]], task: Any) -> Any:
    """One task on a Ray worker: the caller's registrations and one thread, then ``fn(task)``."""
    fn, registrations = packed
    init_worker(registrations)
    _interruptible()
    return fn(task)


def _interruptible() -> None:
    """Let a cancel reach this task: Ray delivers it as a KeyboardInterrupt, which a worker never
    raises where SIGINT is ignored, as it is in everything a shell starts in the background
    (``nohup ... &``, a CI job) and so in the driver's workers. Restored in the main thread only,
    where Ray runs a task and where Python allows it."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


class RayExecutor:
    """A Ray connection that maps functions over tasks (use it as a context manager).

    ``address``: see :mod:`.address` (``"local"`` starts a cluster of ``num_cpus`` CPUs in this
    process and stops it at the end). When Ray is already initialized in this process, that
    connection is used and left open. ``registrations``: agent names the caller added with
    ``register_agent`` (``distributed.local.registrations_for``), applied on every worker."""

    def __init__(
        self,
        address: str = "local",
        *,
        num_cpus: int | None = None,
        registrations: dict[str, Any] | None = None,
        window: int | None = None,
    ) -> None:
        self.address = check_ray_address(address)
        num_cpus, window = (
            None if value is None else as_value_error(check_int, name, value, 1, what=f"{name} takes None or an int")
            for name, value in (("num_cpus", num_cpus), ("window", window))
        )
        if num_cpus is not None and self.address != "local":
            raise ValueError(f"num_cpus={num_cpus} sizes a local cluster only; the cluster at {address!r} has its own")
        self.num_cpus = num_cpus
        self.registrations = dict(registrations or {})
        self.window = window
        self._ray: Any = None
        self._owns = False
        self._remote: Any = None

    def __enter__(self) -> RayExecutor:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def start(self) -> None:
        """Connect (or start the local cluster); a second call does nothing."""
        if self._ray is not None:
            return
        ray = import_ray()
        if not ray.is_initialized():
            env = {"env_vars": dict(THREAD_VARS)}
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "runtime_env": env}
            if self.address == "local":
                # A one-machine cluster for this run. Not loopback-only: Ray listens on every
                # interface (a loopback node address only changes what it advertises), with
                # token authentication on by default (docs/ray.md, "Which interfaces Ray binds").
                ray.init(num_cpus=self.num_cpus, **kwargs)
            else:
                try:
                    ray.init(address=self.address, **kwargs)
                except ConnectionError as e:
                    raise ConnectionError(connection_hint(self.address, e)) from e
            self._owns = True
        self._ray = ray
        self._remote = ray.remote(num_cpus=1, max_retries=0)(_run_one)

    def shutdown(self) -> None:
        """Disconnect; a local cluster started here stops."""
        if self._ray is not None and self._owns:
            self._ray.shutdown()
        self._ray, self._owns, self._remote = None, False, None

    def cluster_cpus(self) -> int:
        """The cluster's CPUs (at least 1): the default window is twice that."""
        self.start()
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """``fn(t)`` for each task, yielded in task order as the cluster finishes them. A sequence
        is read item by item as each is sent (the tournament builds its jobs then)."""
        self.start()
        return self._ordered(fn, tasks if isinstance(tasks, Sequence) else list(tasks))

    def _ordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        ray = self._ray
        window = self.window or 2 * self.cluster_cpus()
        _ship_by_value(fn)
        packed = ray.put((fn, self.registrations))
        index_of: dict[Any, int] = {}
        done: dict[int, Any] = {}
        submitted = delivered = 0
        try:
            while delivered < len(tasks):
                while submitted < len(tasks) and len(index_of) < window:
                    index_of[self._remote.remote(packed, tasks[submitted])] = submitted
                    submitted += 1
                if delivered not in done:
                    ready, _ = ray.wait(list(index_of), num_returns=1)
                    for ref in ready:
                        done[index_of.pop(ref)] = ref
                    continue
                yield _get(ray, done.pop(delivered))
                delivered += 1
        finally:
            _cancel(ray, list(index_of))  # an error, an interrupt or a consumer that stopped early


CANCEL_WAIT_S = 10.0
"""How long a cancelled task may take to stop before its worker is killed."""


def _cancel(ray: Any, refs: list[Any]) -> None:
    """Cancel ``refs`` and see them stop. A cancel is a request that reaches a running task as a
    KeyboardInterrupt between two Python instructions: one sent while the task's worker is still
    starting can be lost, one sent just before the caller shuts a local cluster down too, and none
    interrupts a blocking call (github.com/ray-project/ray/issues/32954). So it is sent again each second to what has
    not stopped, and after :data:`CANCEL_WAIT_S` the workers of what still runs are killed."""
    deadline = time.monotonic() + CANCEL_WAIT_S
    left = refs
    while left:
        for ref in left:
            ray.cancel(ref)
        wait = deadline - time.monotonic()
        if wait <= 0:
            for ref in left:
                ray.cancel(ref, force=True)
            return
        _, left = ray.wait(left, num_returns=len(left), timeout=min(1.0, wait))


def connection_hint(address: str, error: Exception) -> str:
    """Ray's connection error with what to check: the token a ``HOST:PORT`` driver does not send
    unless asked to (the usual cause on a cluster that ``ray start`` started), then the address."""
    text = f"could not connect to the Ray cluster at {address}: {error}"
    if address.startswith("ray://"):
        return f"{text}. Check that the head runs Ray Client (port 10001) and that this machine reaches it"
    if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
        return (
            f"{text}. If the cluster uses token authentication (Ray 2.60 turns it on wherever a token "
            "exists, ~/.ray/auth_token), a driver that names it as HOST:PORT must set RAY_AUTH_MODE=token, "
            "with the token in ~/.ray/auth_token or RAY_AUTH_TOKEN; on a machine of the cluster, "
            "'--ray auto' finds it by itself (docs/ray.md)"
        )
    return f"{text}. Check the address, and that the token (~/.ray/auth_token or RAY_AUTH_TOKEN) is the cluster's"


_MISSING_PACKAGE = "No module named 'sixtysix_env'"


def _get(ray: Any, ref: Any) -> Any:
    """The task's result; its own exception (a ValueError stays one) when it raised. A node that
    cannot import this package (installed on the driver only) is named as the cause."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if _MISSING_PACKAGE in str(cause):  # Ray's "failed to import on the worker", or the import itself
            raise RuntimeError(
                f"a Ray worker could not import sixtysix_env ({_MISSING_PACKAGE}) and the run stops: every node "
                "needs the same Python environment with sixtysix-env installed (docs/ray.md)"
            ) from e
        if isinstance(cause, Exception):
            raise cause from None
        raise


def ray_map(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    address: str,
    *,
    registrations: dict[str, Any] | None = None,
    on_result: Callable[[T, R], None] | None = None,
    num_cpus: int | None = None,
) -> list[R]:
    """``distributed.local.map_tasks`` on the Ray cluster at ``address``: ``[fn(t) for t in tasks]``
    in order, ``on_result`` seeing each in order as it arrives."""
    out: list[R] = []
    with RayExecutor(address, num_cpus=num_cpus, registrations=registrations) as ex:
        for task, res in zip(tasks, ex.map(fn, tasks), strict=True):
            out.append(res)
            if on_result is not None:
                on_result(task, res)
    return out
