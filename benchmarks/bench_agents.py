"""Decision time of each baseline agent on the same positions of the standard game.

    python benchmarks/bench_agents.py [--positions 300] [--seed 0] [--agents random,heuristic,...]

Positions are every decision with at least two legal actions in deals played by the heuristic
with 30% random moves mixed in (so closings, exchanges and odd endgames occur); a sample of them
is given to each agent. Times are CPU seconds of this process (``time.process_time``, all its
threads), so a busy shared machine slows the numbers less than wall time would; the wall-clock
median is shown too (an agent whose threads wait for busy cores shows it there). Each agent is
built as the arena builds it, its one-off ``prepare`` (compiling a numba search) done before the
clock starts. Phase 1 is
"stock open", phase 2 is "stock closed or exhausted". Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from sixtysix_env import Deal
from sixtysix_env.agents.heuristic import heuristic_deal_action
from sixtysix_env.agents.spec import parse_agent_spec
from sixtysix_env.arena.play import ready_agent
from sixtysix_env.checks import cli_int
from sixtysix_env.cli_options import add_seed
from sixtysix_env.rules import get_rules

DEFAULT_AGENTS = "random,heuristic,alphabeta,pimc,pimc:endgame=solve:samples=10,ismcts,ppo"


def positions(n: int, seed: int, rules: str = "standard") -> list[Deal]:
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < 4 * n:
        d = Deal.new(rules, rng, dealer=rng.randrange(2))
        while d.outcome is None:
            legal = d.legal_actions()
            if len(legal) > 1:
                out.append(d.clone())
            d.apply(rng.choice(legal) if rng.random() < 0.3 else heuristic_deal_action(d))
    return rng.sample(out, n)


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=cli_int, default=300)
    add_seed(ap, help="seed of the positions and of the agents' random sources")
    ap.add_argument("--agents", default=DEFAULT_AGENTS, help="comma-separated agent specs, as in the arena")
    args = ap.parse_args()
    if args.positions < 1:
        ap.error("--positions must be at least 1")
    pos = positions(args.positions, args.seed)
    print(f"{len(pos)} positions of the standard game, CPU ms per decision\n")
    print("| agent | median | p90 | mean | max | median phase 1 | median phase 2 | median wall |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for spec_text in args.agents.split(","):
        spec = parse_agent_spec(spec_text)
        agent = ready_agent(spec, get_rules("standard"))  # its prepare() first: compiling is no decision
        rng = random.Random(args.seed)
        times: list[float] = []
        wall: list[float] = []
        phase = {True: [], False: []}
        for d in pos:
            info = d.information_state(d.current)
            start, start_wall = time.process_time(), time.perf_counter()
            agent.act(info, rng)
            ms = 1000 * (time.process_time() - start)
            wall.append(1000 * (time.perf_counter() - start_wall))
            times.append(ms)
            phase[d.stock_open].append(ms)
        print(
            f"| {spec.label} | {statistics.median(times):.3f} | {_pct(times, 0.9):.3f} | {statistics.fmean(times):.3f} "
            f"| {max(times):.1f} | {statistics.median(phase[True]):.3f} | {statistics.median(phase[False]):.3f} "
            f"| {statistics.median(wall):.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
