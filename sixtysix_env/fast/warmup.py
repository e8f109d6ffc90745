"""Compile the batched engine's numba kernels ahead of first use.

    python -m sixtysix_env.fast.warmup

The kernels are compiled with ``cache=True``: the first process that uses them compiles them
(tens of seconds) and numba writes the machine code next to the sources, in
``sixtysix_env/fast/__pycache__`` (or, where that folder is read-only, a user-wide folder such
as ``~/.cache/numba``; ``NUMBA_CACHE_DIR`` overrides both). Later processes load it in about a
second. The first use prints one line saying so; this command pays the cost up front (after an
install, in a Docker build, before a CI run).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from .cache import cache_dir, is_cached

__all__ = ["warm_up", "main"]


def warm_up() -> None:
    """Run every kernel once: self-play and both built-in opponents, every view and policy."""
    from .batch import OPPONENTS, BatchedDeals

    deals = BatchedDeals(2, "standard", seed=0)
    deals.observe()
    deals.legal_masks()
    for _ in range(3):
        deals.step_observe(deals.heuristic_actions())
        deals.step(deals.sample_actions())
    deals.reset(arrangements=[deals.arrangement(0), deals.arrangement(1)])
    _warm_playouts()
    for opponent in OPPONENTS:  # the built-in opponents, as the vector env steps them
        games = BatchedDeals(2, "standard", seed=0, opponent=opponent, final_observation_seat="learner")
        games.observe()
        for _ in range(3):
            masks = games.legal_masks()
            games.step_observe(np.array([np.flatnonzero(m)[0] for m in masks]))


def _warm_playouts() -> None:
    """PIMC's playout kernel (``agents.fast.playout``), without the exact search it hands closed
    positions to (that one compiles at first use, it cannot be cached)."""
    import random

    from ..engine import Deal
    from . import kernels as K
    from .rows import row_of
    from .state import NUM_FIELDS, encode_rules

    deal = Deal.new("standard", random.Random(0), dealer=0)
    legal = np.array(deal.legal_actions(), dtype=np.int64)
    n = len(legal)
    work = np.zeros((n, NUM_FIELDS), dtype=np.int32)
    values, unsolved = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    R = encode_rules(deal.rules)
    K.heuristic_playout_values(row_of(deal), R, legal, n, 0, False, False, 0, work, values, unsolved)


def main(argv: list[str] | None = None) -> int:
    """``python -m sixtysix_env.fast.warmup``: compile the numba kernels now; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m sixtysix_env.fast.warmup",
        description="Compile (or load) the batched engine's numba kernels now, so the first real use is fast.",
    )
    parser.parse_args(argv)
    before = is_cached()
    start = time.perf_counter()
    warm_up()
    took = time.perf_counter() - start
    what = "loaded from the cache" if before else "compiled and cached"
    print(f"numba kernels {what} in {took:.1f} s ({cache_dir()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
