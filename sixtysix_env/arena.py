"""Arena: round-robin duplicate matches between agents, with confidence intervals and Elo.

    python -m sixtysix_env.arena --agents pimc,heuristic,random --deals 2000 --rules standard \\
        --seed 0 --out results/

Agents are registry names with optional constructor options after colons, such as
``pimc:samples=40:endgame=solve``; the whole spec is the agent's label in the tables.

**How a pair is played.** For every pair (A, B) the ``--deals`` deal indices are cut into blocks
of ``--block`` deals, and every block is played twice, as two *tracks*: track 0 with A in seat 0,
track 1 with B in seat 0. Deal ``k`` of a block has the same cards in both tracks (the deck is
shuffled by an RNG seeded from ``--seed`` and the deal index only, so every pair also meets the
same deals). Within a track the deals form consecutive matches to the rules' ``match_target``:
each deal starts with the match score (``Deal.new(..., scores=...)``), the next dealer follows the
rules (the winner deals, or the players alternate; after a drawn deal the same dealer deals again,
or the other one under ``drawn_deal="new_dealer"``; under ``"carry"`` the next deal's winner gets
one extra game point), a new match starts when one reaches the target, and the first dealer of a
block is seat ``block % 2`` in both tracks. A match still running when the block's deals are used
up is finished with extra deals (again the same cards in both tracks), so no match is cut short;
those deals count in the deal statistics too. The two plays of a deal get the same dealer as long
as the tracks' results mirror each other, which makes the comparison duplicate: luck of the cards
mostly cancels.

**What is reported**, per pair from A's side: deal win rate ((wins + draws/2) / deals) and match
win rate with 95% Wilson intervals; game points per deal with a 95% normal interval (deals taken
as independent, which overstates the variance of a duplicate design: the intervals are
conservative); and one Elo table, a Bradley-Terry maximum-likelihood fit to the deal results of all
pairs (one virtual drawn deal per pair keeps a perfect score finite), anchored at ``random`` = 0
when it plays, else at a mean of 1500. Mean CPU time per decision of each agent is listed too (it
is the only number that changes between runs of the same command; agents with a ``time_ms``
budget also play differently on a different machine).

Files written to ``--out``: ``summary.md`` (all tables), ``pairs.csv``, ``elo.csv``,
``deals.csv`` (one row per deal played) and ``timing.csv``. The progress bar needs ``tqdm`` and
the tables use ``tabulate`` when installed; neither is required.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .agents import Agent, agent_names
from .agents.spec import AgentSpec, parse_agent_spec
from .engine import Deal
from .rules import PRESETS, Rules, get_rules

__all__ = [
    "AgentSpec",
    "DealRecord",
    "MatchRecord",
    "PairResult",
    "ArenaResult",
    "parse_agent_spec",
    "wilson_interval",
    "mean_interval",
    "bradley_terry_elo",
    "play_deal",
    "run_arena",
    "main",
]

Z95 = 1.959963984540054


# ---------------------------------------------------------------------------- statistics
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
    if prior < 0:
        raise ValueError(f"prior must be non-negative, got {prior!r}")
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


# ---------------------------------------------------------------------------- playing
@dataclass(frozen=True)
class DealRecord:
    """One deal played: ``a_return`` is the game points of the pair's first agent (A)."""

    pair: int
    block: int
    index: str
    track: int
    dealer_seat: int
    winner: str
    game_points: int
    termination: str
    a_return: int
    match: int
    closer: str = ""


@dataclass(frozen=True)
class MatchRecord:
    pair: int
    block: int
    track: int
    match: int
    deals: int
    score_a: int
    score_b: int

    @property
    def a_won(self) -> bool:
        return self.score_a > self.score_b


@dataclass
class _TaskResult:
    deals: list[DealRecord] = field(default_factory=list)
    matches: list[MatchRecord] = field(default_factory=list)
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # per agent of the pair (A, B)
    decisions: list[int] = field(default_factory=lambda: [0, 0])


def play_deal(
    deal: Deal,
    agents: Sequence[Agent],
    rngs: Sequence[random.Random],
    clock: tuple[list[float], list[int]] | None = None,
) -> Deal:
    """Play ``deal`` to its end, seat ``p`` acting through ``agents[p]`` on its own view only;
    ``clock`` accumulates CPU seconds and decisions per seat.

    Raises ``ValueError`` naming the agent when one returns an illegal action."""
    while deal.outcome is None:
        p = deal.current
        info = deal.information_state(p)
        start = time.process_time()
        action = agents[p].act(info, rngs[p])
        if clock is not None:
            clock[0][p] += time.process_time() - start
            clock[1][p] += 1
        if not deal.is_legal(action):
            raise ValueError(
                f"agent {agents[p].name!r} (seat {p}) chose illegal action {action!r} in {deal.describe()}"
            )
        deal.apply(action)
    return deal


def _next_dealer(rules: Rules, dealer: int, winner: int) -> int:
    if winner < 0:
        return 1 - dealer if rules.drawn_deal == "new_dealer" else dealer
    return winner if rules.next_dealer == "winner" else 1 - dealer


def _deal_seeds(seed: int, block: int, start: int, size: int) -> Iterator[str]:
    """Deck seeds of a block: its own deal indices, then an endless stream of extra deals."""
    for g in range(start, start + size):
        yield f"{seed}/deal/{g}"
    j = 0
    while True:
        yield f"{seed}/extra/{block}/{j}"
        j += 1


@dataclass(frozen=True)
class _Task:
    pair: int
    block: int
    start: int
    size: int
    track: int
    specs: tuple[AgentSpec, AgentSpec]
    rules: Rules
    seed: int


def _run_task(task: _Task) -> _TaskResult:
    """One block of one pair in one track: consecutive matches over the block's deals."""
    rules = task.rules
    a, b = task.specs[0].make(), task.specs[1].make()
    seats = (a, b) if task.track == 0 else (b, a)
    a_seat = 0 if task.track == 0 else 1
    labels = (
        (task.specs[0].label, task.specs[1].label) if task.track == 0 else (task.specs[1].label, task.specs[0].label)
    )
    base = f"{task.seed}/agent/{task.pair}/{task.block}/{task.track}"
    rngs = (random.Random(f"{base}/0"), random.Random(f"{base}/1"))
    out = _TaskResult()
    clock: tuple[list[float], list[int]] = ([0.0, 0.0], [0, 0])
    dealer = task.block % 2
    scores = [0, 0]
    carry = 0
    match = 0
    match_deals = 0
    for played, deck_seed in enumerate(_deal_seeds(task.seed, task.block, task.start, task.size)):
        if played >= task.size and match_deals == 0:
            break
        deal = Deal.new(rules, random.Random(deck_seed), dealer=dealer, scores=(scores[0], scores[1]))
        play_deal(deal, seats, rngs, clock)
        outcome = deal.outcome
        assert outcome is not None
        match_deals += 1
        w = outcome.winner
        if w >= 0:
            scores[w] += outcome.game_points + carry
            carry = 0
        elif rules.drawn_deal == "carry":
            carry += 1
        ret = outcome.returns()[a_seat]
        out.deals.append(
            DealRecord(
                pair=task.pair,
                block=task.block,
                index=deck_seed.split("/", 1)[1],
                track=task.track,
                dealer_seat=dealer,
                winner=labels[w] if w >= 0 else "draw",
                game_points=outcome.game_points,
                termination=outcome.termination.name.lower(),
                a_return=ret,
                match=match,
                closer=labels[deal.closed_by] if deal.closed_by >= 0 else "",
            )
        )
        dealer = _next_dealer(rules, dealer, w)
        if max(scores) >= rules.match_target:
            out.matches.append(
                MatchRecord(task.pair, task.block, task.track, match, match_deals, scores[a_seat], scores[1 - a_seat])
            )
            scores = [0, 0]
            carry = 0
            match += 1
            match_deals = 0
    out.seconds = [clock[0][a_seat], clock[0][1 - a_seat]]
    out.decisions = [clock[1][a_seat], clock[1][1 - a_seat]]
    return out


# ---------------------------------------------------------------------------- results
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

    @property
    def deal_score(self) -> float:
        return self.wins + self.draws / 2


@dataclass
class ArenaResult:
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


def _pair_result(a: str, b: str, deals: list[DealRecord], matches: list[MatchRecord]) -> PairResult:
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
    )


def run_arena(
    agents: Sequence[str | AgentSpec],
    deals: int,
    rules: str | Rules = "standard",
    seed: int = 0,
    workers: int = 1,
    block: int = 50,
    elo_prior: float = 1.0,
    progress: bool = False,
) -> ArenaResult:
    """Play the round robin (see the module docstring) and compute every table."""
    specs = [a if isinstance(a, AgentSpec) else parse_agent_spec(a) for a in agents]
    labels = [s.label for s in specs]
    if len(specs) < 2:
        raise ValueError(f"the arena needs at least two agents, got {labels}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"agents must be distinct, got {labels}")
    if deals < 1:
        raise ValueError(f"deals must be at least 1, got {deals!r}")
    if block < 1:
        raise ValueError(f"block must be at least 1, got {block!r}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers!r}")
    r = get_rules(rules)
    pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    tasks = [
        _Task(p, b, start, min(block, deals - start), track, (specs[i], specs[j]), r, seed)
        for p, (i, j) in enumerate(pairs)
        for b, start in enumerate(range(0, deals, block))
        for track in (0, 1)
    ]
    results = _map(tasks, workers, progress)
    deal_records = [d for res in results for d in res.deals]
    match_records = [m for res in results for m in res.matches]
    seconds = dict.fromkeys(labels, 0.0)
    decisions = dict.fromkeys(labels, 0)
    for task, res in zip(tasks, results, strict=True):
        for side in (0, 1):
            seconds[task.specs[side].label] += res.seconds[side]
            decisions[task.specs[side].label] += res.decisions[side]
    pair_results = []
    for p, (i, j) in enumerate(pairs):
        pd = [d for d in deal_records if d.pair == p]
        pm = [m for m in match_records if m.pair == p]
        pair_results.append(_pair_result(labels[i], labels[j], pd, pm))
    elo = bradley_terry_elo(
        labels,
        {(pr.a, pr.b): (pr.deal_score, float(pr.deals)) for pr in pair_results},
        prior=elo_prior,
        anchor="random" if "random" in labels else None,
    )
    return ArenaResult(
        agents=labels,
        rules=r,
        seed=seed,
        deals=deals,
        block=block,
        pairs=pair_results,
        elo=elo,
        deal_records=deal_records,
        match_records=match_records,
        seconds_per_decision={k: seconds[k] / decisions[k] if decisions[k] else math.nan for k in labels},
        decisions=decisions,
    )


def _single_threaded_worker() -> None:
    """One compute thread per worker: several workers each running a multi-threaded math library
    (torch or BLAS behind a learned agent) on a small machine spin against each other; measured
    here, the ppo agent went from 0.9 to 12 ms per decision with two workers of two threads."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _map(tasks: list[_Task], workers: int, progress: bool) -> list[_TaskResult]:
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=sum(t.size for t in tasks), unit="deal", desc="arena")
        except ImportError:
            bar = None
    out: list[_TaskResult] = []
    if workers == 1:
        it: Iterator[_TaskResult] = map(_run_task, tasks)
        pool = None
    else:
        import multiprocessing

        pool = multiprocessing.Pool(workers, initializer=_single_threaded_worker)
        it = pool.imap(_run_task, tasks, chunksize=1)
    try:
        for task, res in zip(tasks, it, strict=True):
            out.append(res)
            if bar is not None:
                bar.update(task.size)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        if bar is not None:
            bar.close()
    return out


# ---------------------------------------------------------------------------- output
def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (``tabulate`` when installed, else plain formatting)."""
    cells = [[_fmt(c) for c in row] for row in rows]
    try:
        from tabulate import tabulate

        return tabulate(cells, headers=list(headers), tablefmt="github", disable_numparse=True)
    except ImportError:
        widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
        lines = [
            "| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |",
            "|" + "|".join("-" * (w + 2) for w in widths) + "|",
        ]
        lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in cells]
        return "\n".join(lines)


def _fmt(x: object) -> str:
    if isinstance(x, float):
        return "nan" if math.isnan(x) else f"{x:.3f}"
    return str(x)


def _ci(lo_hi: tuple[float, float]) -> str:
    return f"[{_fmt(lo_hi[0])}, {_fmt(lo_hi[1])}]"


_PAIR_HEADERS = (
    "A",
    "B",
    "deals",
    "A wins",
    "B wins",
    "draws",
    "A deal win rate",
    "95% CI",
    "A points/deal",
    "95% CI",
    "matches",
    "A match wins",
    "A match win rate",
    "95% CI",
)


def _pair_rows(res: ArenaResult) -> list[list[object]]:
    return [
        [
            p.a,
            p.b,
            p.deals,
            p.wins,
            p.losses,
            p.draws,
            p.deal_win_rate,
            _ci(p.deal_win_ci),
            p.points_per_deal,
            _ci(p.points_ci),
            p.matches,
            p.match_wins,
            p.match_win_rate,
            _ci(p.match_win_ci),
        ]
        for p in res.pairs
    ]


def _elo_rows(res: ArenaResult) -> list[list[object]]:
    return [[name, f"{res.elo[name]:.1f}"] for name in sorted(res.agents, key=lambda n: -res.elo[n])]


def summary_markdown(res: ArenaResult) -> str:
    """All tables as one Markdown document."""
    anchor = "random = 0" if "random" in res.agents else "mean = 1500"
    timing = [[n, res.decisions[n], round(1000 * res.seconds_per_decision[n], 3)] for n in res.agents]
    return "\n".join(
        [
            f"# Arena: {', '.join(res.agents)}",
            "",
            f"Rules `{res.rules.name}` (claiming {res.rules.claiming}, match to {res.rules.match_target}), "
            f"seed {res.seed}, {res.deals} duplicate deals per pair (blocks of {res.block}; each deal played "
            "with the seats swapped, plus the deals that finish open matches).",
            "",
            "## Pairs (from A's side)",
            "",
            _table(_PAIR_HEADERS, _pair_rows(res)),
            "",
            f"## Elo (Bradley-Terry fit to deal results, {anchor})",
            "",
            _table(("agent", "Elo"), _elo_rows(res)),
            "",
            "## Decision time (CPU, machine-dependent)",
            "",
            _table(("agent", "decisions", "mean ms/decision"), timing),
            "",
        ]
    )


def write_results(res: ArenaResult, out: str | Path) -> Path:
    """Write ``summary.md``, ``pairs.csv``, ``elo.csv``, ``deals.csv`` and ``timing.csv`` into ``out``."""
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    (path / "summary.md").write_text(summary_markdown(res), encoding="utf-8")
    with open(path / "pairs.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "a",
                "b",
                "deals",
                "a_wins",
                "b_wins",
                "draws",
                "a_deal_win_rate",
                "deal_ci_low",
                "deal_ci_high",
                "a_points_per_deal",
                "points_ci_low",
                "points_ci_high",
                "matches",
                "a_match_wins",
                "a_match_win_rate",
                "match_ci_low",
                "match_ci_high",
            ]
        )
        for p in res.pairs:
            w.writerow(
                [
                    p.a,
                    p.b,
                    p.deals,
                    p.wins,
                    p.losses,
                    p.draws,
                    f"{p.deal_win_rate:.6f}",
                    f"{p.deal_win_ci[0]:.6f}",
                    f"{p.deal_win_ci[1]:.6f}",
                    f"{p.points_per_deal:.6f}",
                    f"{p.points_ci[0]:.6f}",
                    f"{p.points_ci[1]:.6f}",
                    p.matches,
                    p.match_wins,
                    f"{p.match_win_rate:.6f}",
                    f"{p.match_win_ci[0]:.6f}",
                    f"{p.match_win_ci[1]:.6f}",
                ]
            )
    with open(path / "elo.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["agent", "elo"])
        w.writerows(_elo_rows(res))
    with open(path / "deals.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        names = [f.name for f in dataclasses.fields(DealRecord) if f.name != "pair"]
        w.writerow(["a", "b", *names])
        for d in res.deal_records:
            pr = res.pairs[d.pair]
            w.writerow([pr.a, pr.b, *(getattr(d, n) for n in names)])
    with open(path / "timing.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["agent", "decisions", "mean_ms_per_decision"])
        for n in res.agents:
            w.writerow([n, res.decisions[n], f"{1000 * res.seconds_per_decision[n]:.4f}"])
    return path


# ---------------------------------------------------------------------------- command line
def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sixtysix_env.arena",
        description="Round-robin duplicate matches between agents; writes Markdown and CSV tables.",
    )
    p.add_argument(
        "--agents",
        required=True,
        help=f"comma-separated agents, each name[:key=value...]; names: {', '.join(agent_names())}",
    )
    p.add_argument("--deals", type=int, default=200, help="duplicate deals per pair (each played twice)")
    p.add_argument("--rules", default="standard", help=f"rules preset: {', '.join(PRESETS)}")
    p.add_argument("--claiming", choices=("auto", "explicit"), default=None, help="override the preset's claiming")
    p.add_argument("--seed", type=int, default=0, help="seed for the deals and the agents' RNGs")
    p.add_argument("--out", default="results", help="folder for summary.md and the CSV files")
    p.add_argument("--workers", type=int, default=1, help="worker processes")
    p.add_argument("--block", type=int, default=50, help="deals per block of consecutive matches")
    p.add_argument("--elo-prior", type=float, default=1.0, help="virtual drawn deals per pair in the Elo fit")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        rules = get_rules(args.rules)
        if args.claiming is not None:
            rules = rules.replace(claiming=args.claiming)
        specs = [parse_agent_spec(s) for s in args.agents.split(",") if s.strip()]
        res = run_arena(
            specs,
            args.deals,
            rules,
            seed=args.seed,
            workers=args.workers,
            block=args.block,
            elo_prior=args.elo_prior,
            progress=not args.no_progress,
        )
    except ValueError as e:
        _parser().error(str(e))
    path = write_results(res, args.out)
    print(summary_markdown(res))
    print(f"written to {path}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
