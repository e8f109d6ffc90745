"""Tables from the played deals: pair statistics, Elo, decision times."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules import Rules
from .play import DealRecord, FaultRecord, MatchRecord, TaskResult
from .schedule import Task, round_robin
from .stats import bradley_terry_elo, mean_interval, reduce_values, wilson_interval

__all__ = ["ArenaResult", "PairResult", "collect", "pair_result"]


@dataclass(frozen=True)
class PairResult:
    """Pair statistics from A's side; intervals are 95%."""

    a: str
    b: str
    deals: int
    wins: int
    losses: int
    draws: int
    deal_win_rate: float
    deal_win_ci: tuple[float, float]
    points_per_deal: float
    points_ci: tuple[float, float]
    matches: int
    match_wins: int
    match_win_rate: float
    match_win_ci: tuple[float, float]
    points_reduced: float = math.nan
    """Game points per deal, variance-reduced (:mod:`.variance`; nan when not computed)."""
    points_reduced_ci: tuple[float, float] = (math.nan, math.nan)
    variance_ratio: float = math.nan
    """Plain / reduced variance per deal: how many times fewer deals give the reduced interval's width."""

    @property
    def deal_score(self) -> float:
        return self.wins + self.draws / 2


@dataclass
class ArenaResult:
    """A whole round robin: every pair's result, the Elo table and the timings, as the writers print them."""

    agents: list[str]
    rules: Rules
    seed: int
    deals: int
    block: int
    pairs: list[PairResult]
    elo: dict[str, float]
    deal_records: list[DealRecord]
    match_records: list[MatchRecord]
    seconds_per_decision: dict[str, float]
    decisions: dict[str, int]
    faults: list[FaultRecord] = field(default_factory=list)
    elo_prior: float = 1.0
    wall_seconds_per_decision: dict[str, float] = field(default_factory=dict)
    slowest_wall_s: dict[str, float] = field(default_factory=dict)
    """The longest wall time one answered decision of each agent took."""
    deal_corrections: list[float] = field(default_factory=list)
    """Each deal's draw correction for A (in ``deal_records`` order; nan where not computed)."""
    reduce_playouts: str = ""
    """Who played the reduced estimate's playouts (one of ``run.REDUCE_PLAYOUTS``); "" without one."""

    @property
    def elo_anchor(self) -> str:
        return "random = 0" if "random" in self.agents else "mean = 1500"


def pair_result(
    a: str,
    b: str,
    deals: Sequence[DealRecord],
    matches: Sequence[MatchRecord],
    corrections: Sequence[float] | None = None,
) -> PairResult:
    """The summary of one pairing (win rates with Wilson intervals, points per deal) from its deals
    and matches; with each deal's draw ``corrections`` (:mod:`.variance`) the reduced points per
    deal too, cross-fitted over the blocks (odd blocks' coefficient from the even ones and back)."""
    wins = sum(d.a_return > 0 for d in deals)
    losses = sum(d.a_return < 0 for d in deals)
    draws = len(deals) - wins - losses
    n = len(deals)
    score = wins + draws / 2
    mean, lo, hi = mean_interval([float(d.a_return) for d in deals])
    mw = sum(m.a_won for m in matches)
    return PairResult(
        a=a,
        b=b,
        deals=n,
        wins=wins,
        losses=losses,
        draws=draws,
        deal_win_rate=score / n if n else math.nan,
        deal_win_ci=wilson_interval(score, n),
        points_per_deal=mean,
        points_ci=(lo, hi),
        matches=len(matches),
        match_wins=mw,
        match_win_rate=mw / len(matches) if matches else math.nan,
        match_win_ci=wilson_interval(mw, len(matches)),
        **_reduced(deals, corrections),
    )


def _reduced(deals: Sequence[DealRecord], corrections: Sequence[float] | None) -> dict[str, Any]:
    if not corrections or len(corrections) != len(deals):
        return {}
    r = reduce_values([float(d.a_return) for d in deals], corrections, [d.block % 2 for d in deals])
    return {"points_reduced": r.mean, "points_reduced_ci": (r.low, r.high), "variance_ratio": r.ratio}


def collect(
    labels: Sequence[str],
    tasks: Sequence[Task],
    results: Sequence[TaskResult],
    *,
    rules: Rules,
    seed: int,
    deals: int,
    block: int,
    elo_prior: float,
) -> ArenaResult:
    """Every table of a finished round robin of ``labels`` from its tasks' results."""
    labels = list(labels)
    deal_records = [d for res in results for d in res.deals]
    match_records = [m for res in results for m in res.matches]
    seconds = dict.fromkeys(labels, 0.0)
    wall = dict.fromkeys(labels, 0.0)
    slowest = dict.fromkeys(labels, 0.0)
    decisions = dict.fromkeys(labels, 0)
    for task, res in zip(tasks, results, strict=True):
        for side in (0, 1):
            label = task.specs[side].label
            seconds[label] += res.seconds[side]
            wall[label] += res.wall_seconds[side]
            slowest[label] = max(slowest[label], res.slowest_wall[side])
            decisions[label] += res.decisions[side]
    pairs = []
    corrections = {
        id(d): c
        for res in results
        if len(res.corrections) == len(res.deals)
        for d, c in zip(res.deals, res.corrections, strict=True)
    }
    for p, (i, j) in enumerate(round_robin(len(labels))):
        pd = [d for d in deal_records if d.pair == p]
        pm = [m for m in match_records if m.pair == p]
        pc = [corrections[id(d)] for d in pd] if pd and all(id(d) in corrections for d in pd) else None
        pairs.append(pair_result(labels[i], labels[j], pd, pm, pc))
    elo = bradley_terry_elo(
        labels,
        {(pr.a, pr.b): (pr.deal_score, float(pr.deals)) for pr in pairs},
        prior=elo_prior,
        anchor="random" if "random" in labels else None,
    )
    return ArenaResult(
        agents=labels,
        rules=rules,
        seed=seed,
        deals=deals,
        block=block,
        pairs=pairs,
        elo=elo,
        deal_records=deal_records,
        match_records=match_records,
        seconds_per_decision={k: seconds[k] / decisions[k] if decisions[k] else math.nan for k in labels},
        wall_seconds_per_decision={k: wall[k] / decisions[k] if decisions[k] else math.nan for k in labels},
        slowest_wall_s=slowest,
        decisions=decisions,
        faults=[f for res in results for f in res.faults],
        elo_prior=elo_prior,
        deal_corrections=[corrections.get(id(d), math.nan) for d in deal_records],
        reduce_playouts=tasks[0].reduce if tasks else "",
    )
