"""The exact perfect-information search: the reference alpha-beta against the numba one.

    python benchmarks/bench_solver.py              # ~3 minutes
    python benchmarks/bench_solver.py --quick      # ~1 minute

Positions come from heuristic self-play of the standard game, stopped at a lead with a given
number of cards left in an open stock (0 means the stock is exhausted), with fresh transposition
tables for every position. Each row is the median and 90th percentile wall time of every legal
action's exact value (``solve_actions`` / ``FastSolver.action_values``, what PIMC needs) and the
ratio of the medians. The reference search is skipped above ``--max-reference-stock`` cards: it
takes seconds to minutes there. The last rows solve whole deals from their first decision with the
numba search only (what the oracle does once per deal). Both searches are checked to agree.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.agents.alphabeta import solve_actions  # noqa: E402
from sixtysix_env.agents.fast.solver import FastSolver  # noqa: E402
from sixtysix_env.agents.heuristic import heuristic_deal_action  # noqa: E402
from sixtysix_env.cli_options import add_count, add_deals, add_seed, positive_int  # noqa: E402
from sixtysix_env.engine import Deal, Decision  # noqa: E402


def position(rng: random.Random, stock: int) -> Deal | None:
    """A lead with ``stock`` cards in the open stock (0: exhausted), or None if the deal ended first."""
    d = Deal.new("standard", rng, dealer=rng.randrange(2))
    while d.outcome is None:
        at_lead = d.decision == Decision.LEAD and d.closed_by < 0
        if at_lead and len(d.stock) == stock and len(d.legal_actions()) > 1:
            return d
        d.apply(heuristic_deal_action(d))
    return None


def quantiles(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(0.9 * len(xs)))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=positive_int, default=30, help="positions per stock size")
    add_deals(ap, default=20, help="whole deals solved by the numba search")
    add_count(ap, "--max-reference-stock", default=4, at_least=0, help="largest stock the reference search gets")
    add_seed(ap, help="seed of the positions and deals")
    ap.add_argument("--quick", action="store_true", help="10 positions per size, 5 whole deals")
    args = ap.parse_args(argv)
    if args.quick:
        args.positions, args.deals = 10, 5
    from tabulate import tabulate

    rng = random.Random(args.seed)
    fast = FastSolver("standard")
    start = time.perf_counter()
    fast.value(Deal.new("standard", random.Random(0)))  # compiles the search (not timed)
    print(f"numba compile and first solve: {time.perf_counter() - start:.1f} s", flush=True)
    rows = []
    for stock in (0, 2, 4, 6, 8):
        ref_t: list[float] = []
        fast_t: list[float] = []
        while len(fast_t) < args.positions:
            d = position(rng, stock)
            if d is None:
                continue
            fast.clear()
            t = time.perf_counter()
            got = fast.action_values(d)
            fast_t.append(time.perf_counter() - t)
            if stock <= args.max_reference_stock:
                t = time.perf_counter()
                want = solve_actions(d)
                ref_t.append(time.perf_counter() - t)
                if got != {a: int(v) for a, v in want.items()}:
                    raise SystemExit(f"the searches disagree on {d.to_notation()}: {want} against {got}")
        fm, f90 = quantiles(fast_t)
        row = [f"{stock}" if stock else "0 (exhausted)", len(fast_t)]
        if ref_t:
            rm, r90 = quantiles(ref_t)
            row += [f"{1e3 * rm:.2f}", f"{1e3 * r90:.2f}", f"{1e3 * fm:.2f}", f"{1e3 * f90:.2f}", f"{rm / fm:.0f}x"]
        else:
            row += ["-", "-", f"{1e3 * fm:.2f}", f"{1e3 * f90:.2f}", "-"]
        rows.append(row)
        print(f"stock {stock}: done", file=sys.stderr, flush=True)
    whole = []
    for _ in range(args.deals):
        d = Deal.new("standard", rng, dealer=rng.randrange(2))
        fast.clear()
        t = time.perf_counter()
        fast.solve(d)
        whole.append(time.perf_counter() - t)
    wm, w90 = quantiles(whole)
    rows.append(["12 (whole deal, best move)", len(whole), "-", "-", f"{1e3 * wm:.0f}", f"{1e3 * w90:.0f}", "-"])
    headers = ["open stock at a lead", "positions", "reference ms (median)", "p90", "numba ms (median)", "p90", "ratio"]
    print(tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True))


if __name__ == "__main__":
    main()
