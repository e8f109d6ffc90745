"""Replaying a tournament deal lost by forfeit says who forfeited, why, and what it cost."""

from __future__ import annotations

import io

from sixtysix_env.newbot import write_bot
from sixtysix_env.replay import main
from sixtysix_env.tournament import run_tournament

CRASH = """
class CrashBot:
    def act(self, info, rng):
        return 1 // 0
"""


def test_replaying_a_forfeited_deal_says_why_it_ended(tmp_path) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "crash.py").write_text(CRASH)
    write_bot("student", folder)
    t = run_tournament(folder, deals=1, block=1, records=tmp_path / "rec")
    assert t.arena.faults
    files = sorted((tmp_path / "rec" / "crash-vs-student").glob("*.json"))
    assert files
    for path in files:
        out = io.StringIO()
        assert main([str(path), "--ascii"], stdout=out) == 0
        text = out.getvalue()
        assert "(the record ends here)" not in text
        lines = [x for x in text.splitlines() if "forfeited by" in x]
        assert len(lines) == 1
        assert lines[0].startswith("  result: forfeited by crash (raised ZeroDivisionError: integer division")
        assert "crash.py, line 4, in act" in lines[0] and lines[0].endswith("; 3 game points to student")
