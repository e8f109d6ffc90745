"""Decisions per second of the batched engine (``sixtysix_env.fast``) against the reference engine.

Every decision is counted with its observation and legal mask produced: the batched engine runs
``sample_actions`` (a vectorised uniformly random legal policy) and ``step_observe`` (the step,
the auto-reset of finished deals, and the next player's (N, 235) observation and (N, 32) mask);
the reference engine plays random legal actions with ``Deal`` and encodes
``encode_vector(InfoState.of(deal, player))`` and ``legal_mask()`` before each decision. Each
figure is the best of ``--repeats`` timed runs in this one process (these machines are shared
and noisy); memory is bytes per env of the batch's arrays.

    python benchmarks/bench_batched.py                 # ~1 minute
    python benchmarks/bench_batched.py --sizes 1024 65536 --seconds 0.5 --compile-time
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from bench_env import engine_rate

from sixtysix_env.cli_options import add_rules, positive_float, positive_int
from sixtysix_env.fast import BatchedDeals


def batched_rate(rules: str, n: int, parallel: bool | None, seconds: float, fused: bool = True) -> float:
    """Decisions per second of ``n`` envs stepped together (every env decides once per step);
    ``parallel=None`` lets the batch choose (all cores from ``PARALLEL_MIN_ENVS`` envs on)."""
    deals = BatchedDeals(n, rules, seed=0, parallel=parallel)
    deals.reset()
    actions = deals.sample_actions()
    deals.step_observe(actions)
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(max(1, 4096 // n)):
            deals.sample_actions(actions)
            if fused:
                deals.step_observe(actions)
            else:  # the separate calls a custom loop would make
                deals.step(actions)
                deals.observe()
                deals.legal_masks()
            steps += 1
        if time.perf_counter() >= end:
            break
    return steps * n / (time.perf_counter() - start)


def vector_env_rate(rules: str, n: int, seconds: float, opponent: str = "random") -> float:
    """Learner decisions per second of ``SixtySixVectorEnv`` (the opponent's moves, made inside
    the batch, are not counted), with a vectorised random legal learner."""
    from sixtysix_env.envs.vector import SixtySixVectorEnv

    env = SixtySixVectorEnv(n, rules, opponent=opponent, seed=0)
    env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        env.step(env.deals.sample_actions())
        steps += 1
    return steps * n / (time.perf_counter() - start)


def compile_seconds(rules: str) -> tuple[float, float]:
    """Seconds to import, build and step a batch in a fresh process with an empty numba cache
    (cold compile), then again with that cache filled."""
    code = (
        "import time; t = time.perf_counter()\n"
        "from sixtysix_env.fast import BatchedDeals\n"
        f"for parallel in (False, True):\n"
        f"    d = BatchedDeals(8, {rules!r}, seed=0, parallel=parallel)\n"
        "    d.step_observe(d.sample_actions()); d.step(d.sample_actions()); d.observe(0); d.legal_masks()\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        times = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            times.append(float(out.stdout.strip().splitlines()[-1]))
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rules(parser, notation=True, help="preset name")
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=[1, 64, 1024, 4096, 65536], help="batch sizes")
    parser.add_argument("--seconds", type=positive_float, default=1.0, help="length of one timed run")
    parser.add_argument("--repeats", type=positive_int, default=3, help="timed runs per figure (the best is kept)")
    parser.add_argument(
        "--threads", choices=["serial", "parallel", "both"], default="both", help="kernels to time: one core or all"
    )
    parser.add_argument("--separate", action="store_true", help="also time step + observe + legal_masks as 3 calls")
    parser.add_argument("--compile-time", action="store_true", help="measure cold and cached compile time")
    args = parser.parse_args()

    modes = {"serial": [False], "parallel": [True], "both": [False, True]}[args.threads]
    ref = max(engine_rate(args.seconds, args.rules, observe=True) for _ in range(args.repeats))
    print(f"rules: {args.rules}; cores: {os.cpu_count()}; best of {args.repeats} x {args.seconds:.1f} s\n")
    print("| engine | batch size | threads | decisions/s | ns/decision | vs reference |")
    print("|---|---:|---|---:|---:|---:|")
    print(f"| reference `Deal` + `encode_vector` | 1 | 1 | {ref:,.0f} | {1e9 / ref:,.0f} | 1.0x |")
    best = 0.0
    for n in args.sizes:
        for parallel in modes:
            variants = [True, False] if args.separate else [True]
            for fused in variants:
                rate = max(batched_rate(args.rules, n, parallel, args.seconds, fused) for _ in range(args.repeats))
                best = max(best, rate)
                name = "`BatchedDeals.step_observe`" if fused else "`step` + `observe` + `legal_masks`"
                threads = "all" if parallel else "1"
                print(f"| {name} | {n:,} | {threads} | {rate:,.0f} | {1e9 / rate:,.0f} | {rate / ref:,.1f}x |")
    n = 4096 if 4096 in args.sizes else max(args.sizes)
    rate = max(vector_env_rate(args.rules, n, args.seconds) for _ in range(args.repeats))
    label = "`SixtySixVectorEnv.step` (learner only)"
    print(f"| {label} | {n:,} | auto | {rate:,.0f} | {1e9 / rate:,.0f} | {rate / ref:,.1f}x |")
    per_env = BatchedDeals(1, args.rules, seed=0).bytes_per_env
    print(f"\nbest: {best:,.0f} decisions/s, {best / ref:,.1f}x the reference engine")
    print(f"memory: {per_env} bytes per env ({per_env * 65536 / 2**20:.1f} MiB for 65,536 envs)")
    if args.compile_time:
        cold, warm = compile_seconds(args.rules)
        print(f"compile: {cold:.1f} s cold (empty numba cache), {warm:.1f} s with the cache filled")


if __name__ == "__main__":
    main()
