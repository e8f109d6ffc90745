"""Duplicate strength tests for the three- and four-player games.

    python -m sixtysix_env.table_arena --game four --rules russian --agents pimc,heuristic,random --deals 100

Every pair of agents (A, B) meets on the same ``--deals`` deals (shuffled from ``--seed`` and the
deal index only). Each deal is played in every seat rotation: with four players A's team sits at
0+2 and then at 1+3; with three players A takes each seat in turn against two copies of B. So
each side holds every hand once, and the luck of the cards mostly cancels. Deals decided by the
cut (Russian game) have no decision and are dealt again.

Reported per pair, from A's side: A's payoff per deal (his stakes, or his team's game points less
the other team's) averaged over the rotations of a deal, with a 95% normal interval over the
deals; the share of plays A won (a payoff of 0 counts half) with a 95% Wilson interval (the
rotations of one deal are not independent, so this interval is a little narrow); and in the
Russian game how often A's side named the contract, and won it. CPU milliseconds per decision
(decisions with one legal action excluded) are listed per agent.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from ..agents import agent_names
from ..agents.spec import parse_agent_spec
from ..agents.table.base import TableAgent
from ..cli_options import add_deals, add_rules, add_seed
from ..table import FOUR_PRESETS, THREE_PRESETS, FourDeal, TableTermination, ThreeDeal
from ..table.deal import TableDeal
from . import mean_interval, wilson_interval

__all__ = ["PairStats", "play_table_deal", "run_pair", "main"]

GAMES: dict[str, tuple[type[TableDeal], dict]] = {"three": (ThreeDeal, THREE_PRESETS), "four": (FourDeal, FOUR_PRESETS)}


@dataclass
class PairStats:
    """A's results against B over the deals played."""

    a: str
    b: str
    per_deal: list[float] = field(default_factory=list)
    plays: int = 0
    wins: float = 0.0
    contracts: int = 0
    contracts_won: int = 0


def _new_deal(game: type[TableDeal], rules, seed: int, k: int) -> TableDeal:
    """Deal ``k`` of the run: the same cards for every pair and rotation."""
    rng = random.Random(seed * 1_000_003 + k)
    while True:
        d = game.new(rules, rng, dealer=k % game.n_players)
        if d.outcome is None:
            return d


def play_table_deal(
    deal: TableDeal, agents: Sequence[TableAgent], rng: random.Random, clock: dict[int, list[float]] | None = None
) -> TableDeal:
    """Play ``deal`` (a copy) to the end, seat ``p`` by ``agents[p]`` through its own view;
    ``clock`` collects CPU seconds per decision by ``id(agent)``."""
    d = deal.clone()
    while d.outcome is None:
        p = d.current_player
        view = d.information_state(p)
        if clock is not None and view.legal_mask & (view.legal_mask - 1):
            start = time.process_time()
            a = agents[p].act(view, rng)
            clock.setdefault(id(agents[p]), []).append(time.process_time() - start)
        else:
            a = agents[p].act(view, rng)
        d.apply(a)
    return d


def run_pair(
    game: type[TableDeal],
    rules,
    a: tuple[str, TableAgent],
    b: tuple[str, TableAgent],
    deals: int,
    seed: int,
    clock: dict[int, list[float]],
    progress=None,
) -> PairStats:
    """A against B on ``deals`` deals, every deal in every seat rotation."""
    stats = PairStats(a[0], b[0])
    n = game.n_players
    rotations = range(2) if n == 4 else range(3)
    for k in range(deals):
        base = _new_deal(game, rules, seed, k)
        total = 0.0
        for r in rotations:
            seats_a = [p for p in range(n) if (p % 2 == r if n == 4 else p == r)]
            agents = [a[1] if p in seats_a else b[1] for p in range(n)]
            d = play_table_deal(base, agents, random.Random(seed * 7_919 + k * 31 + r), clock)
            outcome = d.outcome
            assert outcome is not None  # play_table_deal plays the deal to its end
            pay = outcome.payoffs[seats_a[0]]
            total += pay
            stats.plays += 1
            stats.wins += 1.0 if pay > 0 else 0.5 if pay == 0 else 0.0
            if outcome.contract and d.bidder in seats_a:
                stats.contracts += 1
                stats.contracts_won += outcome.termination == TableTermination.CONTRACT_WON
        stats.per_deal.append(total / len(rotations))
        if progress is not None:
            progress.update(1)
    return stats


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    try:
        from tabulate import tabulate
    except ImportError:  # pragma: no cover - tabulate is in the dev extras
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        return "\n".join(lines + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])
    return tabulate(rows, headers=list(headers), tablefmt="github", disable_numparse=True)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sixtysix_env.table_arena",
        description="Duplicate strength tests between agents of the three- and four-player games.",
    )
    p.add_argument("--game", choices=sorted(GAMES), default="four", help="three or four players (default four)")
    add_rules(
        p,
        default=None,
        presets=[*THREE_PRESETS, *FOUR_PRESETS],
        help="preset: three pagat/marriage, four pagat/russian (default pagat)",
    )
    p.add_argument(
        "--agents",
        default="heuristic,random",
        help=f"comma-separated agents ({', '.join(agent_names('four'))}; options as pimc:samples=8); every pair meets",
    )
    add_deals(p, default=100, help="deals per pair, each in every seat rotation (default 100)")
    add_seed(p, help="seed of the deals and of the agents' randomness (default 0)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sixtysix_env.table_arena``: every pair on the same deals in every seat rotation; the exit status."""
    args = _parser().parse_args(argv)
    game, presets = GAMES[args.game]
    rules_name = args.rules or "pagat"
    if rules_name not in presets:
        _parser().error(f"unknown {args.game}-player rules {rules_name!r}: choose one of {', '.join(presets)}")
    if args.deals < 1:
        _parser().error(f"--deals must be at least 1, got {args.deals}")
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    if len(specs) < 2:
        _parser().error(f"--agents needs two or more agents, got {args.agents!r}")
    try:
        # the game's registry builds table agents (a user's class is trusted to play the game)
        agents = [(s, cast(TableAgent, parse_agent_spec(s, game=args.game).make())) for s in specs]
    except ValueError as e:
        _parser().error(str(e))
    rules = presets[rules_name]
    pairs = [(agents[i], agents[j]) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    clock: dict[int, list[float]] = defaultdict(list)
    progress = None
    if not args.no_progress:
        try:
            from tqdm import tqdm

            progress = tqdm(total=len(pairs) * args.deals, unit="deal", desc="table arena", file=sys.stderr)
        except ImportError:  # pragma: no cover - tqdm is in the dev extras
            progress = None
    results = [run_pair(game, rules, a, b, args.deals, args.seed, clock, progress) for a, b in pairs]
    if progress is not None:
        progress.close()
    unit = "stakes" if args.game == "three" else "game points"
    headers = ["A", "B", "deals", f"A's {unit} per deal [95%]", "A's plays won [95%]"]
    if getattr(rules, "contracts", False):
        headers += ["A named the contract", "A's contracts won"]
    rows = []
    for s in results:
        mean, lo, hi = mean_interval(s.per_deal)
        w_lo, w_hi = wilson_interval(s.wins, s.plays)
        row = [s.a, s.b, str(len(s.per_deal)), f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}]"]
        row.append(f"{s.wins / s.plays:.3f} [{w_lo:.3f}, {w_hi:.3f}]")
        if len(headers) > 5:
            row += [f"{s.contracts / s.plays:.3f}", f"{s.contracts_won}/{s.contracts}"]
        rows.append(row)
    print(f"{args.game}-player game, rules {rules_name}, {args.deals} deals per pair, seed {args.seed}\n")
    print(_table(headers, rows))
    timing = [[s, f"{1000 * sum(clock[id(a)]) / max(1, len(clock[id(a)])):.2f}"] for s, a in agents]
    print("\n" + _table(["agent", "CPU ms per decision"], timing))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
