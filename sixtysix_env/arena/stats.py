"""Statistics of the arena: intervals for rates and means, and a Bradley-Terry Elo fit."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..checks import as_value_error, check_real

__all__ = ["Z95", "bradley_terry_elo", "mean_interval", "wilson_interval"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal, for the intervals."""


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate ``successes / n`` (half successes allowed for draws)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..n, got {successes!r} of {n!r}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the normal-approximation interval from the sample standard deviation."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def bradley_terry_elo(
    names: Sequence[str],
    scores: dict[tuple[str, str], tuple[float, float]],
    *,
    prior: float = 1.0,
    anchor: str | None = None,
    anchor_value: float = 0.0,
    mean_value: float = 1500.0,
    tol: float = 1e-12,
    max_iter: int = 100_000,
) -> dict[str, float]:
    """Elo ratings from pairwise results by Bradley-Terry maximum likelihood (Hunter's MM updates).

    ``scores[(a, b)] = (score of a, games)`` with a draw counted as half a win; each unordered
    pair may appear once in either order. ``prior`` adds that many virtual games per pair, half
    won by each side, so a perfect score still gives a finite rating. Ratings are
    ``400 * log10(strength)``, shifted so ``anchor`` has ``anchor_value``, or (no anchor) so the
    mean is ``mean_value``."""
    names = list(names)
    if len(set(names)) != len(names):
        raise ValueError(f"agent names must be distinct, got {names}")
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not among {names}")
    prior = as_value_error(check_real, "prior", prior, 0)
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    games = [[0.0] * k for _ in range(k)]
    won = [0.0] * k
    for (a, b), (s, n) in scores.items():
        if a not in idx or b not in idx or a == b:
            raise ValueError(f"bad pair {(a, b)!r}: both must be distinct names from {names}")
        if not 0 <= s <= n:
            raise ValueError(f"score {s!r} of pair {(a, b)!r} is outside 0..{n!r}")
        i, j = idx[a], idx[b]
        games[i][j] += n
        games[j][i] += n
        won[i] += s
        won[j] += n - s
    if prior:
        for i in range(k):
            for j in range(i + 1, k):
                games[i][j] += prior
                games[j][i] += prior
                won[i] += prior / 2
                won[j] += prior / 2
    for i in range(k):
        if won[i] <= 0 or won[i] >= sum(games[i]):
            raise ValueError(f"{names[i]!r} won all or none of its games: its rating is infinite; use prior > 0")
    strength = [1.0] * k
    for _ in range(max_iter):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i and games[i][j])
            new.append(won[i] / denom)
        log_mean = sum(math.log(x) for x in new) / k
        new = [x / math.exp(log_mean) for x in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tol:
            break
    elo = [400 * math.log10(s) for s in strength]
    shift = anchor_value - elo[idx[anchor]] if anchor is not None else mean_value - sum(elo) / k
    return {n: elo[i] + shift for i, n in enumerate(names)}
