"""The tournament on a Ray cluster (``--ray ADDRESS``): every block played by a host on some node.

The driver keeps what a tournament has only once: the secret key, the journal, the records,
bans and kill streaks. It cuts the schedule into duplicate blocks (both seat orders of one block
of one pair) and sends each as a :class:`~.node.BlockJob` (the seeds derived from the key for
that block, the bans known when it is sent; the bots' files go once, with the function) through
:class:`~sixtysix_env.distributed.RayExecutor`. On the node, a Ray worker starts a fresh
tournament host process (:mod:`.node`) that plays the two seat orders one after the other, so
twins never overlap there either, with every guarantee of the local host. Results come back in
schedule order and are journalled as they arrive; a block's deals depend on its seeds alone, so
the tables equal the local run's for the same key.

What differs from one host: a ban (a bot that cheats) reaches the blocks sent after the driver
learns of it, not those already in flight, and a kill streak (``--strikes``) is carried from
block to block in the same way.
"""

from __future__ import annotations

import functools
import os
import pickle
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, overload

from ..agents.spec import AgentSpec
from ..arena.play import TaskResult
from ..arena.schedule import Task
from .host import log_cut
from .keys import bot_seeds
from .node import BlockJob, BlockResult
from .remote import HostPool, Limits

__all__ = ["MAX_SHIPPED_BYTES", "bot_bundle", "play_on_ray", "run_block"]

MAX_SHIPPED_BYTES = 64 * 1024 * 1024
"""The most bytes of bot files a Ray tournament sends to the cluster (once, for every block)."""

Played = tuple[TaskResult, dict[str, int], dict[str, float]]


def bot_bundle(specs: Sequence[AgentSpec], bots_dir: Path) -> tuple[dict[str, bytes], dict[str, str]]:
    """The files a node needs to run ``specs``: the bots' folder (every file, as ``bots/...``,
    since a bot may import its helpers) when a bot comes from it, and each bot file included from
    elsewhere alone (``extra/N/NAME.py``); and each file bot's path among them, by label."""
    files: dict[str, bytes] = {}
    sources: dict[str, str] = {}
    folder = bots_dir.resolve()
    for i, spec in enumerate(specs):
        if not spec.source.endswith(".py"):
            continue
        path = Path(spec.source).resolve()
        if path.parent == folder:
            sources[spec.label] = f"bots/{path.name}"
        else:
            sources[spec.label] = f"extra/{i}/{path.name}"
            files[sources[spec.label]] = path.read_bytes()
    if any(rel.startswith("bots/") for rel in sources.values()):
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                path = Path(root, name)
                if path.is_file():
                    files["bots/" + path.relative_to(folder).as_posix()] = path.read_bytes()
    total = sum(len(b) for b in files.values())
    if total > MAX_SHIPPED_BYTES:
        raise ValueError(
            f"the bots' files come to {total} bytes, more than the {MAX_SHIPPED_BYTES} a Ray tournament sends "
            f"to the cluster: keep data files out of {str(bots_dir)!r}"
        )
    return files, sources


def run_block(job: BlockJob, files: dict[str, bytes] | None = None) -> BlockResult:
    """On a Ray worker: play ``job`` in a fresh tournament host process (:mod:`.node`) and return
    its result; ``files``, when given, are the bots' files the job was sent without (the driver
    sends them once, with this function, rather than with every job). Cancelled (the run
    stopped), the host is told to stop, then killed."""
    if files:
        job = replace(job, files=files)
    first = job.tasks[0]
    proc = subprocess.Popen(
        [sys.executable, "-m", "sixtysix_env.tournament.node"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:
        proc.send_signal(signal.SIGTERM)  # the host ends its bots' games and exits
        try:
            proc.wait(10.0)
        except subprocess.TimeoutExpired:
            proc.kill()
        raise
    if proc.returncode != 0 or not out:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-5:]
        raise RuntimeError(
            f"the tournament host for pair {first.pair}, block {first.block} on {socket.gethostname()} exited "
            f"with status {proc.returncode}: " + (" | ".join(tail) or "no output")
        )
    result = pickle.loads(out)
    if not isinstance(result, BlockResult):
        raise RuntimeError(f"the tournament host answered a {type(result).__name__}, not a BlockResult")
    return result


class _Jobs(Sequence[BlockJob]):
    """The blocks as jobs, each built when the executor sends it, with the bans known then."""

    def __init__(self, blocks: list[list[Task]], make: Callable[[list[Task]], BlockJob]) -> None:
        self.blocks = blocks
        self.make = make

    def __len__(self) -> int:
        return len(self.blocks)

    @overload
    def __getitem__(self, i: int) -> BlockJob: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[BlockJob]: ...
    def __getitem__(self, i: int | slice) -> BlockJob | Sequence[BlockJob]:
        if isinstance(i, slice):
            return [self.make(b) for b in self.blocks[i]]
        return self.make(self.blocks[i])


def play_on_ray(
    address: str,
    todo: list[Task],
    pool: HostPool,
    limits: Limits,
    points: int,
    secret: bytes,
    bundle: tuple[dict[str, bytes], dict[str, str]],
    uids: dict[str, int],
    keep_deals: bool,
    on_block: Callable[[list[tuple[Task, TaskResult, dict[str, int], dict[str, float]]]], None],
    on_ban: Callable[[str, str], None],
    log_paths: dict[str, str | None],
    bar: Any = None,
) -> dict[tuple[int, int, int], Played]:
    """Play ``todo`` block by block on the cluster at ``address``; ``on_block`` sees each finished
    block in schedule order, ``on_ban(label, reason)`` each new ban. The played tasks by
    (pair, block, track)."""
    from ..distributed import RayExecutor

    groups: dict[tuple[int, int], list[Task]] = {}
    for t in todo:
        groups.setdefault((t.pair, t.block), []).append(t)
    blocks = [sorted(ts, key=lambda t: t.track) for ts in groups.values()]
    files, sources = bundle

    def make(block: list[Task]) -> BlockJob:
        seeds = tuple(bot_seeds(secret, t) for t in block)
        labels = {s.label for t in block for s in t.specs}
        return BlockJob(
            tuple(block),
            seeds,
            limits,
            points,
            {},  # the files travel once, with the function
            {k: v for k, v in sources.items() if k in labels},
            {k: v for k, v in uids.items() if k in labels},
            {k: v for k, v in pool.disqualified.items() if k in labels},
            {k: v for k, v in pool.kills_in_a_row.items() if k in labels},
            keep_deals,
        )

    played: dict[tuple[int, int, int], Played] = {}
    with RayExecutor(address) as ex:
        results: Iterator[BlockResult] = ex.map(functools.partial(run_block, files=files), _Jobs(blocks, make))
        for block, res in zip(blocks, results, strict=True):
            for label, reason in res.disqualified.items():
                if label not in pool.disqualified:
                    on_ban(label, reason)
            pool.kills_in_a_row.update(res.streaks)
            pool.unjailed.update(res.unjailed)
            _append_logs(res.logs, log_paths, limits.log_bytes)
            for t, r in zip(block, res.results, strict=True):
                played[(t.pair, t.block, t.track)] = r
            on_block([(t, *r) for t, r in zip(block, res.results, strict=True)])
            if bar is not None:
                bar.update(sum(t.size for t in block))
    return played


def _append_logs(texts: dict[str, bytes], paths: dict[str, str | None], cap: int) -> None:
    """Add a block's bot logs to the bots' log files on the driver, each at most ``cap`` bytes."""
    for label, data in texts.items():
        path = paths.get(label)
        if path is None or not data:
            continue
        size = os.path.getsize(path) if os.path.exists(path) else 0
        if size >= cap:
            continue
        with open(path, "ab") as f:
            f.write(data[: cap - size])
            if len(data) > cap - size:
                f.write(log_cut(cap))
