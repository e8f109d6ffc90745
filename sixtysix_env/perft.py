"""Perft: count legal action sequences, the move generator's fingerprint (as in chess engines)."""

from __future__ import annotations

from collections import Counter

from .engine import Deal

__all__ = ["perft", "result_counts"]


def perft(deal: Deal, depth: int) -> int:
    """Number of legal action sequences of exactly ``depth`` actions after which the deal still runs.

    A sequence that finishes the deal stops there and is not counted at any depth (the convention
    of ``tests/data/perft_golden.txt``); :func:`result_counts` counts the finished ones instead.
    """
    if deal.outcome is not None:
        return 0
    if depth == 0:
        return 1
    total = 0
    for a in deal.legal_actions():
        child = deal.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def result_counts(deal: Deal) -> Counter[tuple[int, int]]:
    """For every complete continuation, the (winner, game points) it ends in (winner -1 = drawn)."""
    counts: Counter[tuple[int, int]] = Counter()
    stack = [deal]
    while stack:
        d = stack.pop()
        if d.outcome is not None:
            counts[(d.outcome.winner, d.outcome.game_points)] += 1
            continue
        for a in d.legal_actions():
            child = d.clone()
            child.apply(a)
            stack.append(child)
    return counts
