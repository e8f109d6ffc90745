"""The golden perft counts and full-tree result counts in tests/data/perft_golden.txt."""

from pathlib import Path

import pytest

from sixtysix_env import PRESETS, Deal
from sixtysix_env.perft import perft, result_counts

from .conftest import GOLDEN, golden_blocks

GOLDEN_VU = GOLDEN.with_name("perft_golden_vu.txt")  # the shared file has no vu: tests/data/make_vu_golden.py
BLOCKS = golden_blocks() + golden_blocks(GOLDEN_VU)


def _position(block):
    deal = Deal.from_arrangement(
        [block["hands0"], block["hands1"]], block["stock"], int(block["dealer"]), block["preset"]
    )
    return deal.apply_all(block["played"])


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b['preset']}-{i}" for i, b in enumerate(BLOCKS)])
def test_perft_matches_golden(block):
    deal = _position(block)
    want = [int(x) for x in block["perft"].split()]
    assert [perft(deal, d) for d in range(1, len(want) + 1)] == want


WITH_RESULTS = [b for b in BLOCKS if "results" in b]


@pytest.mark.parametrize("block", WITH_RESULTS, ids=[f"{b['preset']}-{i}" for i, b in enumerate(WITH_RESULTS)])
def test_result_counts_match_golden(block):
    counts = result_counts(_position(block))
    got = " ".join(f"{w}:{g}={n}" for (w, g), n in sorted(counts.items()))
    assert got == block["results"]


def test_the_golden_files_are_in_the_repository():
    repo = Path(__file__).resolve().parents[1]
    for path in (GOLDEN, GOLDEN_VU):
        assert path.is_relative_to(repo) and path.is_file()
    assert len(BLOCKS) >= 25


def test_every_preset_is_covered_by_golden_counts():
    """Every preset of the two-player game, from the rules' own list (vu included)."""
    for preset in PRESETS:
        covered = [b for b in BLOCKS if b["preset"] == preset]
        assert covered, f"no golden perft counts for the {preset!r} preset"
        assert any("results" in b for b in covered), f"no golden result counts for the {preset!r} preset"
