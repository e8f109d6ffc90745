"""What knowing the opponent's hand is worth to PIMC, and from which trick on.

    python benchmarks/bench_hand_knowledge.py --deals 150 --from-trick 0,3,6

A measuring stick for inference (``pimc:model=``), not a fair agent: PIMC with 400 samples
(numba, closing played out: the gap table's strongest search) plays the gap benchmark's deal
pairs against the heuristic, but from trick ``k`` on each sample keeps the opponent's true hand
and shuffles only the face-down stock. ``plain`` samples his hand as the fair agent does. The
difference between rows says how much an agent that inferred his hand perfectly from that trick
on could gain: the ceiling of inference. Needs the ``fast`` extra.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "benchmarks"):
    if str(path) not in sys.path:  # run as a script from a checkout
        sys.path.insert(0, str(path))

from bench_gap import Z95, make_deals, play, player_rngs  # noqa: E402

from sixtysix_env.agents.heuristic import heuristic_deal_action  # noqa: E402
from sixtysix_env.agents.pimc import best_action, evaluate_actions, fast_playouts_for, fast_solver_for  # noqa: E402
from sixtysix_env.cli_options import add_deals, add_seed, positive_int  # noqa: E402
from sixtysix_env.engine import Deal  # noqa: E402
from sixtysix_env.rules import get_rules  # noqa: E402


def chooser(from_trick: int | None, samples: int):
    """PIMC whose samples keep the opponent's true hand from ``from_trick`` on (None: never)."""
    rules = get_rules("standard")
    exact, playouts = fast_solver_for(rules), fast_playouts_for(rules)

    def choose(deal: Deal, rng: random.Random) -> int:
        info = deal.information_state(deal.current)
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        knows = from_trick is not None and deal.trick_count >= from_trick
        if info.unseen == 0 or (knows and not deal.stock_open):
            values = exact.action_values(deal)
            return best_action(info, {a: values[a] for a in legal})
        totals = [0.0] * len(legal)
        for _ in range(samples):
            if knows:
                sample = deal.clone()
                face_down = sample.stock[1:]
                rng.shuffle(face_down)
                sample.stock[1:] = face_down
            else:
                sample = info.sample(rng)
            for i, v in enumerate(evaluate_actions(sample, legal, "playout", exact, playouts, "playout")):
                totals[i] += v
        return best_action(info, dict(zip(legal, totals, strict=True)))

    return choose


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_deals(p, default=150, help="deal pairs (the first of bench_gap's)")
    add_seed(p, help="bench_gap's seed")
    p.add_argument("--samples", type=positive_int, default=400)
    p.add_argument("--from-trick", default="0,3,6", help="comma-separated tricks from which the hand is known")
    args = p.parse_args(argv)
    rows = [("plain", None)] + [(f"his hand known from trick {k}", int(k)) for k in args.from_trick.split(",")]
    deals = make_deals(get_rules("standard"), args.deals, args.seed)
    plain: list[float] = []
    print("| samples | G vs heuristic [95% CI] | paired difference to plain [95% CI] |\n|---|---|---|")
    for label, k in rows:
        me = chooser(k, args.samples)
        means = []
        for i in range(args.deals):
            points = []
            for seat in (0, 1):
                them = lambda d, _rng: heuristic_deal_action(d)  # noqa: E731
                g, _, _ = play(deals[i], seat, me, them, player_rngs(args.seed, i, seat))
                points.append(g)
            means.append(sum(points) / 2)
        plain = plain or means
        half = Z95 * statistics.stdev(means) / len(means) ** 0.5
        diff = [a - b for a, b in zip(means, plain, strict=True)]
        d_half = Z95 * statistics.stdev(diff) / len(diff) ** 0.5 if any(diff) else 0.0
        g, d = statistics.fmean(means), statistics.fmean(diff)
        print(
            f"| {label} | {g:+.3f} [{g - half:+.3f}, {g + half:+.3f}] "
            f"| {d:+.3f} [{d - d_half:+.3f}, {d + d_half:+.3f}] |",
            flush=True,
        )


if __name__ == "__main__":
    main()
