"""Command lines read numbers in ASCII digits only (``checks.cli_int`` / ``cli_float``): Python's
int() would take "١٢" (Arabic-Indic digits) as 12 and "1_000" as 1000."""

from __future__ import annotations

import re

import pytest

from sixtysix_env.arena import main as arena_main
from sixtysix_env.arena.table import main as table_arena_main
from sixtysix_env.demo import main as demo_main
from sixtysix_env.fast.verify import main as verify_main
from sixtysix_env.play import main as play_main
from sixtysix_env.replay import main as replay_main

from .scripts import ROOT


@pytest.mark.parametrize("bad", ["١٢", "1_000", " 12", "12.0", "0x10"])
def test_the_arena_refuses_deals_not_written_in_digits(bad: str, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        arena_main(["--agents", "heuristic,random", "--deals", bad, "--out", str(tmp_path / "r"), "--no-progress"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --deals: {bad!r} is not a whole number: write it in digits 0-9" in err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("main", "argv"),
    [
        (arena_main, ["--agents", "heuristic,random", "--seed"]),
        (arena_main, ["--agents", "heuristic,random", "--trial-timeout"]),
        (arena_main, ["--agents", "heuristic,random", "--decision-limit"]),
        (table_arena_main, ["--deals"]),
        (table_arena_main, ["--seed"]),
        (play_main, ["--seed"]),
        (play_main, ["--seat"]),
        (replay_main, ["record.json", "--deal"]),
        (demo_main, ["--seed"]),
        (verify_main, ["--deals"]),
    ],
)
@pytest.mark.parametrize("bad", ["١٢", "1_000"])
def test_every_command_refuses_numbers_not_in_digits(main, argv: list[str], bad: str, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main([*argv, bad])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert bad in err and "digits 0-9" in err


def test_no_command_line_reads_numbers_with_int_or_float() -> None:
    """Every argparse number in the package, baselines and benchmarks goes through the strict
    parsers (the examples and bench_gap.py belong to their own owners)."""
    files = [*(ROOT / "sixtysix_env").rglob("*.py"), *(ROOT / "baselines").glob("*.py")]
    files += [p for p in (ROOT / "benchmarks").glob("*.py") if p.name != "bench_gap.py"]
    loose = re.compile(r"type\s*=\s*(int|float)\b")
    offenders = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in files
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if loose.search(line)
    ]
    assert not offenders, offenders
