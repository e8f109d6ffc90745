"""A bot that searches its own process memory learns nothing about the deals.

``tests/cheaters/memory_scanner.py`` collects every seed-like text in its process (objects,
frames, raw heap) while it is built and at its first decision, and tries each as the deck seed
of its deals. The bot seeds are derived from the tournament key under a label of their own
(``tournament/keys.py``), so the one seed it finds (its own, which it proves by rebuilding its
RNG) says nothing about the cards; a bot seed derived from the deal seeds would show here as a
``CHEAT`` line, whatever count of deals or decisions it changes elsewhere.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sixtysix_env.tournament import run_tournament

CHEATERS = Path(__file__).with_name("cheaters")
KEY = b"teacher-secret-key-0123456789"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_searching_its_own_memory_cannot_predict_a_deal(tmp_path: Path, workers: int) -> None:
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(CHEATERS / "memory_scanner.py", bots)
    t = run_tournament(
        bots,
        include=["heuristic"],
        deals=2,
        block=1,
        key=KEY,
        workers=workers,
        log_dir=tmp_path / "logs",
        kill_after_s=30.0,
        time_limit_ms=20000.0,
    )
    log = (tmp_path / "logs" / "memory_scanner.log").read_text(errors="replace")
    tasks = len({(d.block, d.track) for d in t.arena.deal_records})
    assert tasks == 4  # two blocks, both seat orders
    assert log.count("SCANNED at the first decision") == tasks, log  # a fresh process per task
    assert log.count("MYSEED") == tasks, log  # every scan reached the seed the host sent
    assert "CHEAT" not in log, log
    assert KEY.decode() not in log and KEY.hex() not in log
    assert not t.arena.faults
