"""A node's tournament host: one duplicate block played in a fresh process of its own.

On a Ray cluster (:mod:`.cluster`) each block travels as a :class:`BlockJob` to whichever node
takes it, and that node's Ray worker starts ``python -m sixtysix_env.tournament.node``: a host
process like the local one (bots staged under their own user ids when root, a zygote per bot,
namespaces, the signal guard, host-side clocks), which plays the block's two seat orders one
after the other and answers a :class:`BlockResult`. The job carries the bots' files and the
seeds derived from the key, never the key itself; the job arrives on standard input, the result
leaves on a copy of standard output taken before any bot starts (bots write only to their logs).
"""

from __future__ import annotations

import os
import pickle
import shutil
import socket
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..agents.spec import AgentSpec
from ..arena.play import TaskResult
from ..arena.schedule import Task
from .guard import SignalGuard
from .hosting import ban, jail_exclude, jail_paths, set_dumpable, stage
from .preflight import template_imports
from .remote import HostPool, Limits, Stopped, play_remote

__all__ = ["BlockJob", "BlockResult", "play_block"]


@dataclass(frozen=True)
class BlockJob:
    """One block for a node: its tracks (played in this order), each track's bot seeds (A, B),
    the bots' files (``files``: relative path to bytes, added on the node by ``cluster.run_block``;
    ``sources``: a bot's file among them, by label), and the tournament's state when it was sent
    (bans, kill streaks)."""

    tasks: tuple[Task, ...]
    bot_seeds: tuple[tuple[str, str], ...]
    limits: Limits
    points: int
    files: dict[str, bytes]
    sources: dict[str, str]
    uids: dict[str, int]
    banned: dict[str, str] = field(default_factory=dict)
    streaks: dict[str, int] = field(default_factory=dict)
    keep_deals: bool = False


@dataclass
class BlockResult:
    """Each track's result, restarts and CPU seconds, and what the block changed: bans, kill
    streaks, which bots ran without namespaces (and why), and each bot's log of the block."""

    results: list[tuple[TaskResult, dict[str, int], dict[str, float]]]
    disqualified: dict[str, str]
    streaks: dict[str, int]
    unjailed: dict[str, str]
    logs: dict[str, bytes]


def _unpack(job: BlockJob, root: Path) -> dict[str, AgentSpec]:
    """Write the shipped files under ``root`` (the bots' folder as ``bots/``, a file included from
    elsewhere as ``extra/N/NAME.py``) and point each bot's spec at its copy."""
    for top in ("bots", "extra"):
        (root / top).mkdir(mode=0o700)
    for rel, data in job.files.items():
        path = (root / rel).resolve()
        if not path.is_relative_to(root.resolve()) or Path(rel).parts[0] not in ("bots", "extra"):
            raise ValueError(f"a shipped bot file {rel!r} lies outside the bots' folders")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    specs: dict[str, AgentSpec] = {}
    for task in job.tasks:
        for spec in task.specs:
            rel = job.sources.get(spec.label, "")
            specs[spec.label] = replace(spec, source=str(root / rel)) if rel else spec
    return specs


def play_block(job: BlockJob) -> BlockResult:
    """Play ``job`` here, as the tournament host of this node (call it from the main thread)."""
    root = Path(tempfile.mkdtemp(prefix="sixtysix-node-"))  # 0700: only this host reads the files
    try:
        specs = _unpack(job, root)
        uids = job.uids if os.geteuid() == 0 else {}  # only root can run bots under other user ids
        unjailed = (
            {} if uids or not job.uids else dict.fromkeys(specs, f"the host on {socket.gethostname()} is not root")
        )
        staging = None
        if uids:  # bots under their own user ids: they may pass through the folder, not list it
            os.chmod(root, 0o711)
            staging = root / "staging"
            staging.mkdir()
            staged = stage(list(specs.values()), root / "bots", staging, uids)
            specs = {s.label: s for s in staged}
        logs = root / "logs"
        logs.mkdir(mode=0o700)
        log_paths: dict[str, str | None] = {label: str(logs / f"{i}.log") for i, label in enumerate(specs)}
        exclude = jail_exclude(staging, template_imports()) if staging is not None else []
        keep = jail_paths(staging, exclude) if staging is not None else None
        pool = HostPool(job.limits, log_paths, uids, keep, exclude)
        pool.unjailed.update(unjailed)
        pool.disqualified.update(job.banned)
        pool.kills_in_a_row.update(job.streaks)
        guard = SignalGuard(
            pool.owner, lambda bot, sig: ban(pool, None, bot, f"sent {sig} to the tournament host"), pool.interrupt
        )
        dumpable = set_dumpable(False)
        results = []
        try:
            with guard:
                for task, seeds in zip(job.tasks, job.bot_seeds, strict=True):
                    pair = (specs[task.specs[0].label], specs[task.specs[1].label])
                    results.append(play_remote(task, pair, seeds, pool, job.limits, job.points, job.keep_deals))
                    if pool.stopping.is_set():
                        raise Stopped
        finally:
            pool.close()
            set_dumpable(dumpable)
        texts = {label: Path(p).read_bytes() if p and Path(p).is_file() else b"" for label, p in log_paths.items()}
        return BlockResult(results, dict(pool.disqualified), dict(pool.kills_in_a_row), dict(pool.unjailed), texts)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    """Read a pickled :class:`BlockJob` from standard input, play it, write the pickled
    :class:`BlockResult` to standard output. Only the Ray worker that started this process
    writes the job (it is never read from a bot)."""
    out = os.dup(1)  # not inherited: the bots' processes never hold the result's pipe
    os.dup2(2, 1)  # anything printed here goes to standard error
    job = pickle.load(sys.stdin.buffer)
    if not isinstance(job, BlockJob):
        raise TypeError(f"expected a BlockJob on standard input, got {type(job).__name__}")
    try:
        result = play_block(job)
    except KeyboardInterrupt:
        return 130
    with os.fdopen(out, "wb") as f:
        pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
    return 0


if __name__ == "__main__":  # run as a script, use the package's own classes (pickled by that name)
    from sixtysix_env.tournament.node import main as package_main

    sys.exit(package_main())
