"""Decisions per second of the JAX engine against the numba batched engine and Pgx's leduc_holdem.

The same run for every engine: B deals, random legal actions for whichever seat is to act (both
seats' decisions count), finished deals replaced at once (auto-reset), the next observation and
legal mask produced at every step. Each timed call steps every deal ``--steps`` times:

- ``jax``: ``sixtysix_env.jax.SixtySix``, ``jax.jit`` of a ``lax.scan`` of ``--steps`` steps of
  ``jax.vmap(pgx.experimental.auto_reset(env.step, env.init))``, a uniformly random legal action
  per deal drawn with ``random_legal`` (one uniform float per deal; ``jax.random.categorical``
  cost more than the engine's step); timed after ``block_until_ready``. The first
  call (tracing and XLA compilation, one per batch size) is timed apart: the ``compile s`` column.
- ``jax-compact``: the same with ``sixtysix_env.jax.compact_auto_reset`` instead of Pgx's
  ``auto_reset``: under ``vmap`` the latter deals a new deal for every env at every step (its
  ``lax.cond`` becomes a select) and dealing costs about a step; the compact one deals at most
  B/8 per step and observes the batch once. A step on a deal left over for want of a new one is not counted.
- ``jax-heuristic``: the same as ``jax``, with seat 1 played by ``heuristic_action`` (the built-in heuristic
  in JAX) instead of random actions: what a heuristic opponent costs inside the loop.
- ``numba``: ``sixtysix_env.fast.BatchedDeals(B, opponent=None, autoreset=True)``:
  ``sample_actions`` + ``step_observe`` (the step fused with the next player's (B, 235)
  observation and (B, 32) mask, what the JAX step also returns; ``--numba-call step`` times the
  step alone). Threads from 16,384 deals on (``PARALLEL_MIN_ENVS``), as a user gets them.
- ``leduc``: Pgx's ``leduc_holdem`` in the JAX loop above (a much smaller game, for scale).

Every figure is the median of ``--repeats`` timed runs; a run repeats the call until it has
made at least ``--min-decisions`` decisions. The engines take turns within each batch size, so a
burst of load from other jobs hits them alike: read the ``jax / numba`` column, the ratio of
two figures of the same run.

    python benchmarks/bench_jax.py                                   # ~5 minutes on 2 CPU cores
    python benchmarks/bench_jax.py --sizes 1024 4096 --repeats 3 --json results/bench_jax.json
    JAX_PLATFORMS=cuda python benchmarks/bench_jax.py --device-label "H100"   # benchmarks/gpu_jax.sh
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from sixtysix_env.cli_options import add_rules, positive_int

ENGINES = ("jax", "jax-compact", "jax-heuristic", "numba", "leduc")
"""The rows ``--engines`` may name."""
SIZES = (1, 4, 16, 64, 256, 1024, 4096, 16384)

Runner = Callable[[], int]
"""One timed call: runs it and returns the decisions it made (the work is finished on return)."""


def random_legal(key: Any, legal: Any) -> Any:
    """A uniformly random legal action per row of a ``(B, A)`` bool mask from one uniform float
    per row: the random policy of the numba engine's ``sample_actions``. ``jax.random.categorical``
    draws Gumbel noise for every action and cost several times a step of the engine at B = 4,096
    on the CPU (3.6 ms against 0.55 ms for this), so the loop would time the sampler. The k-th
    legal action's index is the number of actions with at most k legal ones up to them: a count,
    cheaper than an argmax (0.21 ms against 0.31 ms at B = 4,096), the same pick."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    n = legal.shape[-1]
    upto = jnp.asarray(np.triu(np.ones((n, n), np.float32)))  # a matmul: cheaper than cumsum on a CPU
    rank = jnp.dot(legal.astype(jnp.float32), upto)  # legal actions up to each one: exact small ints
    count = rank[:, -1]
    k = jnp.minimum(jnp.floor(jax.random.uniform(key, count.shape) * count), count - 1)
    return jnp.sum(rank <= k[:, None], axis=-1, dtype=jnp.int32)


def jax_runner(
    env: Any,
    batch: int,
    steps: int,
    seed: int,
    heuristic: Callable[[Any], Any] | None = None,
    compact: bool = False,
) -> Runner:
    """The JAX loop on a Pgx env: one jitted ``lax.scan`` of ``steps`` auto-reset steps of
    ``batch`` deals per call (the state stays on the device between calls)."""
    import jax
    import jax.numpy as jnp

    from sixtysix_env.jax.reset import batched_auto_reset

    if compact:
        from sixtysix_env.jax import RUNNING
    step = batched_auto_reset(env, batch, compact)

    pick = jax.vmap(heuristic) if heuristic is not None else None

    def scan(state: Any, key: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        def body(carry: tuple[Any, jax.Array, jax.Array], _: None) -> tuple[Any, None]:
            state, key, made = carry
            key, k_act, k_step = jax.random.split(key, 3)
            action = random_legal(k_act, state.legal_action_mask)
            if pick is not None:
                action = jnp.where(state.current_player == 1, pick(state), action)
            made += jnp.sum(state.game.termination == RUNNING) if compact else batch
            return (step(state, action, k_step), key, made), None

        (state, key, made), _ = jax.lax.scan(body, (state, key, jnp.int32(0)), None, steps)
        return state, key, made

    run = jax.jit(scan, donate_argnums=(0,))
    key = jax.random.PRNGKey(seed)
    box = {"state": jax.jit(jax.vmap(env.init))(jax.random.split(key, batch)), "key": key}

    def call() -> int:
        box["state"], box["key"], made = run(box["state"], box["key"])
        return int(made)  # waits for the result

    return call


def numba_runner(rules: str, batch: int, steps: int, seed: int, fused: bool = True) -> Runner:
    """``BatchedDeals`` self-play with auto-reset: ``steps`` calls of ``sample_actions`` + ``step_observe``
    (or ``step``) per timed call."""
    from sixtysix_env.fast import BatchedDeals

    deals = BatchedDeals(batch, rules, opponent=None, autoreset=True, seed=seed)
    deals.reset()
    actions = deals.sample_actions()
    move = deals.step_observe if fused else deals.step

    def call() -> int:
        for _ in range(steps):
            deals.sample_actions(actions)
            move(actions)
        return steps * batch

    return call


def make_runner(engine: str, rules: str, batch: int, steps: int, seed: int, numba_call: str) -> Runner:
    if engine == "numba":
        return numba_runner(rules, batch, steps, seed, fused=numba_call == "step_observe")
    if engine == "leduc":
        import pgx

        return jax_runner(pgx.make("leduc_holdem"), batch, steps, seed)
    from sixtysix_env.jax import SixtySix, heuristic_action

    heuristic = heuristic_action if engine == "jax-heuristic" else None
    return jax_runner(SixtySix(rules=rules), batch, steps, seed, heuristic, compact=engine == "jax-compact")


def measure(runner: Runner, repeats: int, min_decisions: int) -> tuple[float, list[float]]:
    """(seconds of the first call, decisions per second of each timed run)."""
    start = time.perf_counter()
    runner()
    first = time.perf_counter() - start
    rates = []
    for _ in range(repeats):
        made = 0
        start = time.perf_counter()
        while made < min_decisions:
            made += runner()
        rates.append(made / (time.perf_counter() - start))
    return first, rates


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("numpy", "numba", "jax", "jaxlib", "pgx"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_rules(parser)
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=list(SIZES), help="batch sizes B")
    parser.add_argument("--steps", type=positive_int, default=32, help="steps of every deal per timed call")
    parser.add_argument("--repeats", type=positive_int, default=5, help="timed runs per row (the median is shown)")
    parser.add_argument(
        "--min-decisions", type=positive_int, default=65536, help="a timed run makes at least this many decisions"
    )
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES), help="rows to measure")
    parser.add_argument(
        "--numba-call", choices=("step_observe", "step"), default="step_observe", help="the numba engine's step call"
    )
    parser.add_argument("--device-label", default=None, help="what to call the device in the table (default: JAX's)")
    parser.add_argument("--seed", type=positive_int, default=1)
    parser.add_argument("--json", default=None, help="write the rows and the setup here")
    args = parser.parse_args(argv)

    import jax
    from tabulate import tabulate

    device = args.device_label or str(jax.devices()[0].device_kind if hasattr(jax.devices()[0], "device_kind") else "")
    print(f"JAX devices: {jax.devices()} ({device}); {versions()}", flush=True)
    rows: list[dict[str, Any]] = []
    wall = time.perf_counter()
    for batch in args.sizes:
        found: dict[str, float] = {}
        for engine in args.engines:
            try:
                runner = make_runner(engine, args.rules, batch, args.steps, args.seed, args.numba_call)
            except ImportError as e:
                print(f"skipped {engine}: {e}", flush=True)
                continue
            first, rates = measure(runner, args.repeats, args.min_decisions)
            median = statistics.median(rates)
            found[engine] = median
            row = {
                "engine": engine,
                "batch": batch,
                "decisions_per_s": round(median),
                "min": round(min(rates)),
                "max": round(max(rates)),
                "first_call_s": round(first, 2),
            }
            rows.append(row)
            print(
                f"B={batch:>6} {engine:<14} {median:>13,.0f}/s (runs {min(rates):,.0f}-{max(rates):,.0f}), "
                f"first call {first:.2f} s",
                flush=True,
            )
        if "numba" in found:
            for row in rows:
                if row["batch"] == batch and row["engine"] != "numba":
                    row["vs_numba"] = round(row["decisions_per_s"] / found["numba"], 3)
    table = [
        [
            r["engine"],
            r["batch"],
            f"{r['decisions_per_s']:,}",
            f"{1e6 / r['decisions_per_s']:.3f}",
            f"{r['vs_numba']:.2f}x" if "vs_numba" in r else "",
            f"{r['first_call_s']:.2f}",
        ]
        for r in sorted(rows, key=lambda r: (ENGINES.index(r["engine"]), r["batch"]))
    ]
    headers = ["engine", "B", "decisions/s (median)", "µs/decision", "/ numba", "first call s (compile)"]
    print()
    print(tabulate(table, headers=headers, tablefmt="github", colalign=("left", "right", "right", "right", "right")))
    print(
        f"\n{device}, rules {args.rules}, {args.steps} steps per call, median of {args.repeats} runs of at least "
        f"{args.min_decisions:,} decisions; numba: {args.numba_call}; {time.perf_counter() - wall:.0f} s in all"
    )
    result = {"device": device, "jax_devices": [str(d) for d in jax.devices()], "options": vars(args)}
    result |= {"versions": versions(), "rows": rows}
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {args.json}")
    return result


if __name__ == "__main__":
    main()
