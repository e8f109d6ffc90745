"""Statistics of the arena: intervals for rates and means, a Bradley-Terry Elo fit, and the
cross-fitted reduced mean of the variance-reduced estimates."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..checks import as_value_error, check_real

__all__ = ["MIN_FOLD", "Z95", "Reduced", "bradley_terry_elo", "mean_interval", "reduce_values", "wilson_interval"]

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


# ------------------------------------------------ a reduced estimate from many units (cross-fitting)
MIN_FOLD = 20
"""The fewest units a fold needs for its fitted coefficient to be used; below, the coefficient is 1."""


@dataclass(frozen=True)
class Reduced:
    """The reduced mean with its 95% interval beside the plain one, over ``n`` units (deal pairs
    or deals). ``ratio``: plain variance / reduced variance = how many times fewer units give the
    same interval width. ``betas``: each fold's coefficient (fitted on the other fold)."""

    n: int
    mean: float
    low: float
    high: float
    plain_mean: float
    plain_low: float
    plain_high: float
    ratio: float
    betas: tuple[float, float]


def _beta(values: Sequence[float], corrections: Sequence[float]) -> float:
    """The variance-minimising coefficient ``cov(value, correction) / var(correction)``; 1 (plain
    AIVAT) for a fold too small to fit, or one whose corrections do not vary."""
    if len(values) < MIN_FOLD:
        return 1.0
    var = statistics.variance(corrections)
    if var <= 0:
        return 1.0
    return statistics.covariance(values, corrections) / var


def reduce_values(values: Sequence[float], corrections: Sequence[float], folds: Sequence[int]) -> Reduced:
    """``value - beta * correction`` per unit, ``beta`` fitted on the other fold (``folds[i]`` is
    0 or 1): cross-fitting keeps the estimate exactly unbiased, since each unit's correction has
    mean zero and is independent of the other fold's coefficient. Units must be independent
    (deal pairs; in the arena, blocks of deals)."""
    if not len(values) == len(corrections) == len(folds):
        lengths = f"{len(values)}, {len(corrections)}, {len(folds)}"
        raise ValueError(f"values, corrections and folds differ in length: {lengths}")
    if any(f not in (0, 1) for f in folds):
        raise ValueError("folds must be 0 or 1")
    n = len(values)
    if n == 0:
        nan = math.nan
        return Reduced(0, nan, nan, nan, nan, nan, nan, nan, (1.0, 1.0))
    split = {f: [i for i in range(n) if folds[i] == f] for f in (0, 1)}
    betas = tuple(_beta([values[i] for i in split[1 - f]], [corrections[i] for i in split[1 - f]]) for f in (0, 1))
    reduced = [values[i] - betas[folds[i]] * corrections[i] for i in range(n)]
    mean, lo, hi = mean_interval(reduced)
    pmean, plo, phi = mean_interval(list(values))
    rv = statistics.variance(reduced) if n > 1 else math.nan
    ratio = statistics.variance(values) / rv if n > 1 and rv > 0 else math.nan
    return Reduced(n, mean, lo, hi, pmean, plo, phi, ratio, (betas[0], betas[1]))
