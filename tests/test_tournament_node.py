"""The tournament's cluster path without Ray: each block played by a node host process of its own
(``tournament.node``, started by ``cluster.run_block``), the executor replaced by an in-process
map, gives the local tournament's tables; the bots' files travel, the key does not.

The same path on a real Ray cluster: ``tests/test_ray_backend.py`` (in the rllib venv).
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import ClassVar

import pytest

from sixtysix_env import distributed
from sixtysix_env.arena.writers import elo_rows, pair_rows
from sixtysix_env.tournament import cluster, run_tournament
from sixtysix_env.tournament.node import BlockJob

KEY = b"node-test-key-0123456789abcdef"
HELPER = "def first(info):\n    return info.legal_actions()[0]\n"
USES_HELPER = """
from _helper import first


class UsesHelper:
    def act(self, info, rng):
        print("deciding", info.player)
        return first(info)
"""
SOMETIMES_CRASHES = """
class SometimesCrashes:
    def act(self, info, rng):
        legal = info.legal_actions()
        if len(legal) == 4 and info.player == 1:
            raise RuntimeError("four choices")
        return legal[rng.randrange(len(legal))]
"""


class InProcess:
    """Stands in for ``RayExecutor``: maps the jobs here, one after the other, reading each job
    only when it is its turn (as the executor reads its window), and keeps the jobs it sent."""

    sent: ClassVar[list[BlockJob]] = []
    functions: ClassVar[list] = []

    def __init__(self, address: str) -> None:
        self.address = address

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def map(self, fn, jobs):
        type(self).functions.append(fn)
        for i in range(len(jobs)):
            job = jobs[i]
            type(self).sent.append(job)
            yield fn(job)


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "_helper.py").write_text(HELPER)
    (folder / "uses_helper.py").write_text(USES_HELPER)
    (folder / "sometimes_crashes.py").write_text(SOMETIMES_CRASHES)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "stale.pyc").write_bytes(b"\0")
    return folder


def _tables(res):
    a = res.arena
    return pair_rows(a), elo_rows(a), a.deal_records, a.match_records, a.faults, res.restarts, res.bots


def test_blocks_played_by_node_hosts_give_the_local_tables(bots, tmp_path, monkeypatch) -> None:
    kwargs = {"deals": 4, "block": 2, "key": KEY, "time_limit_ms": 5000.0}
    local = run_tournament(bots, ["random"], log_dir=tmp_path / "local-logs", **kwargs)
    assert local.arena.faults  # the crashing bot forfeits some deals, the same ones on every host
    monkeypatch.setattr(distributed, "RayExecutor", InProcess)
    monkeypatch.setattr(distributed, "import_ray", lambda: None)
    InProcess.sent, InProcess.functions = [], []
    remote = run_tournament(
        bots, ["random"], log_dir=tmp_path / "node-logs", ray_address="local", records=tmp_path / "rec", **kwargs
    )
    assert _tables(remote) == _tables(local)
    assert len(InProcess.sent) == 3 * 2  # three pairs, two blocks each: one job a block
    for job in InProcess.sent:
        assert [t.track for t in job.tasks] == [0, 1]  # both seat orders, one after the other
        assert KEY not in pickle.dumps(job) and KEY.hex().encode() not in pickle.dumps(job)
        assert job.files == {}  # the files travel once, with the function, not with every job
    (fn,) = InProcess.functions
    assert sorted(fn.keywords["files"]) == ["bots/_helper.py", "bots/sometimes_crashes.py", "bots/uses_helper.py"]
    assert "deciding" in (tmp_path / "node-logs" / "uses_helper.log").read_text()
    # one deal record per deal played (however many extra deals the bots' play needed)
    assert len(list((tmp_path / "rec").rglob("*.json"))) == len(remote.arena.deal_records)


def test_a_ban_reaches_the_blocks_sent_after_it(bots, tmp_path, monkeypatch) -> None:
    """A ban reported by one block's host is in every job sent after the driver read it."""
    monkeypatch.setattr(distributed, "RayExecutor", InProcess)
    monkeypatch.setattr(distributed, "import_ray", lambda: None)
    InProcess.sent = []
    real = cluster.run_block

    def banning(job: BlockJob, files=None):
        result = real(job, files)
        if job.tasks[0].block == 0 and "uses_helper" in {s.label for s in job.tasks[0].specs}:
            result.disqualified["uses_helper"] = "sent SIGUSR1 to the tournament host"
        return result

    monkeypatch.setattr(cluster, "run_block", banning)
    journal = tmp_path / "journal.jsonl"
    res = run_tournament(
        bots, ["random"], deals=4, block=2, key=KEY, time_limit_ms=5000.0, ray_address="local", journal=journal
    )
    assert {b.label: b.reason for b in res.disqualified} == {"uses_helper": "sent SIGUSR1 to the tournament host"}
    first = next(i for i, j in enumerate(InProcess.sent) if "uses_helper" in {s.label for s in j.tasks[0].specs})
    later = [j for j in InProcess.sent[first + 1 :] if "uses_helper" in {s.label for s in j.tasks[0].specs}]
    assert later and all(j.banned == {"uses_helper": "sent SIGUSR1 to the tournament host"} for j in later)
    assert '"disqualified": "uses_helper"' in journal.read_text()


def test_bot_files_travel_within_a_cap(bots, tmp_path, monkeypatch) -> None:
    outside = tmp_path / "elsewhere" / "mine.py"
    outside.parent.mkdir()
    outside.write_text("class Mine:\n    def act(self, info, rng):\n        return info.legal_actions()[0]\n")
    from sixtysix_env.agents.spec import AgentSpec

    specs = [
        AgentSpec("uses_helper", "UsesHelper", (), str(bots / "uses_helper.py"), "UsesHelper"),
        AgentSpec("mine", "Mine", (), str(outside), "Mine"),
        AgentSpec("heuristic", "heuristic", (), "", ""),
    ]
    files, sources = cluster.bot_bundle(specs, bots)
    assert sources == {"uses_helper": "bots/uses_helper.py", "mine": "extra/1/mine.py"}
    assert sorted(files) == [
        "bots/_helper.py",
        "bots/sometimes_crashes.py",
        "bots/uses_helper.py",
        "extra/1/mine.py",
    ]  # the folder's files without __pycache__, and the included file alone
    monkeypatch.setattr(cluster, "MAX_SHIPPED_BYTES", 100)
    with pytest.raises(ValueError, match=r"more than the 100 a Ray tournament sends to the cluster"):
        cluster.bot_bundle(specs, bots)


def test_a_node_host_that_fails_names_the_block_and_why() -> None:
    from sixtysix_env.agents.spec import parse_agent_spec
    from sixtysix_env.arena.schedule import make_tasks
    from sixtysix_env.rules import get_rules
    from sixtysix_env.tournament.remote import Limits

    tasks = make_tasks([parse_agent_spec("random"), parse_agent_spec("heuristic")], 2, 2, get_rules("standard"), 0)
    job = BlockJob(tuple(tasks[:2]), (("a", "b"), ("c", "d")), Limits.of(1000.0), 3, {"../escape.py": b""}, {}, {})
    with pytest.raises(
        RuntimeError, match=r"host for pair 0, block 0 on .* status 1: .*lies outside the bots' folders"
    ):
        cluster.run_block(job)
