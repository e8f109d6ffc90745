"""Decisions per second under random legal play: our engine and envs against PettingZoo classics.

Every AEC environment is driven the same way (``agent_iter`` / ``last`` / a random legal action
from the mask / ``step``), so the ratios compare like with like. Each figure is the median of
``--repeats`` timed runs, all measured in this one process (these machines are shared and noisy).

    python benchmarks/bench_env.py            # ~1 minute
    python benchmarks/bench_env.py --seconds 0.5 --repeats 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from sixtysix_env import Deal, InfoState, sixtysix_v0
from sixtysix_env.cli_options import positive_float, positive_int
from sixtysix_env.observers import encode_vector


def engine_rate(seconds: float, rules: str = "standard", observe: bool = False) -> float:
    """The bare engine: new deals, legal actions, a random choice, apply; with ``observe`` also the
    vector observation of the player to act (what a learner needs at every decision)."""
    rng = random.Random(0)
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        deal = Deal.new(rules, rng, dealer=n & 1)
        while deal.outcome is None:
            if observe:
                encode_vector(InfoState.of(deal, deal.current_player))
            deal.apply(rng.choice(deal.legal_actions()))
            n += 1
    return n / (time.perf_counter() - start)


def aec_rate(make_env: Callable[[], object], seconds: float) -> float:
    """An AEC env under the standard PettingZoo driving loop with random legal actions."""
    env = make_env()
    rng = random.Random(0)
    n = 0
    episode = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        env.reset(seed=episode)  # type: ignore[attr-defined]
        episode += 1
        for _agent in env.agent_iter():  # type: ignore[attr-defined]
            obs, _r, term, trunc, _info = env.last()  # type: ignore[attr-defined]
            if term or trunc:
                env.step(None)  # type: ignore[attr-defined]
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
            n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive_float, default=1.5, help="length of one timed run")
    parser.add_argument("--repeats", type=positive_int, default=5, help="timed runs per row; the median is reported")
    args = parser.parse_args()

    rows: list[tuple[str, Callable[[], float]]] = [
        ("sixtysix engine (Deal, standard)", lambda: engine_rate(args.seconds)),
        ("sixtysix_v0.raw_env (vector obs)", lambda: aec_rate(sixtysix_v0.raw_env, args.seconds)),
        ("sixtysix_v0.env (wrapped, vector obs)", lambda: aec_rate(sixtysix_v0.env, args.seconds)),
        (
            "sixtysix_v0.env (wrapped, history obs)",
            lambda: aec_rate(lambda: sixtysix_v0.env(observation="history"), args.seconds),
        ),
    ]
    try:
        from pettingzoo.classic import tictactoe_v3

        rows.append(("pettingzoo tictactoe_v3 (wrapped)", lambda: aec_rate(tictactoe_v3.env, args.seconds)))
    except ImportError as e:  # pragma: no cover - optional comparison
        print(f"skipping tictactoe_v3: {e}")
    try:
        from pettingzoo.classic import leduc_holdem_v4

        rows.append(("pettingzoo leduc_holdem_v4 (wrapped)", lambda: aec_rate(leduc_holdem_v4.env, args.seconds)))
    except ImportError as e:  # pragma: no cover - optional comparison
        print(f"skipping leduc_holdem_v4 (pip install 'sixtysix-env[bench]'): {e}")

    results: dict[str, float] = {}
    for name, run in rows:
        rates = [run() for _ in range(args.repeats)]
        results[name] = statistics.median(rates)
        print(f"  measured {name}: {results[name]:,.0f}/s", flush=True)

    ref = results.get("pettingzoo tictactoe_v3 (wrapped)")
    wrapped = results["sixtysix_v0.env (wrapped, vector obs)"]
    print()
    print(f"Random legal play, median of {args.repeats} runs of {args.seconds:g} s, one process.")
    print()
    print("| environment | decisions/s | µs/decision | vs tictactoe_v3 | vs our wrapped env |")
    print("|---|---:|---:|---:|---:|")
    for name, rate in results.items():
        vs_ttt = f"{rate / ref:.2f}×" if ref else "n/a"
        print(f"| {name} | {rate:,.0f} | {1e6 / rate:.1f} | {vs_ttt} | {rate / wrapped:.2f}× |")


if __name__ == "__main__":
    main()
