"""Decisions per second of every way to run Sixty-Six, and of comparable games in other libraries.

One run, one process, one Markdown table, so the ratios compare rates measured under the same
load (these machines are shared). Every decision is counted with what a learner needs at that
point, an observation and the legal actions:

- reference engine: ``Deal`` + ``encode_vector(InfoState.of(...))`` + ``legal_actions()`` per decision;
- AEC env: ``sixtysix_v0.env()`` (wrapped, vector observation with its mask) under PettingZoo's
  ``agent_iter`` / ``last`` / ``step`` loop, like ``tictactoe_v3`` and ``leduc_holdem_v4``;
- Gymnasium env: ``gymnasium.make("SixtySix-v0", opponent=...)``, counting the learner's steps
  (the opponent's moves are played inside ``step`` and not counted);
- batched engine: ``BatchedDeals.sample_actions`` + ``step_observe`` (both players' decisions,
  (N, 235) observations and (N, 32) masks, finished deals re-dealt); ``SixtySixVectorEnv``
  counts learner decisions only;
- OpenSpiel ``skat`` (``observation_tensor``) and ``euchre`` (no observation tensor: its
  ``information_state_tensor``) with chance outcomes sampled and not counted;
- Pgx ``leduc_holdem`` on the CPU: ``jit(vmap(step))`` with auto-reset and random legal actions
  drawn from ``legal_action_mask`` inside the jitted function, timed after compilation.

Rows run round-robin (``--repeats`` rounds over all rows) and each figure is the median, so a
burst of load hits every row alike. The comparison libraries come from the ``bench`` extra; a
row whose library is missing is skipped with the reason.

    python benchmarks/bench_all.py              # ~3 minutes
    python benchmarks/bench_all.py --quick      # ~1 minute
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_batched import batched_rate, vector_env_rate
from bench_env import aec_rate, engine_rate

from sixtysix_env.cli_options import add_rules, positive_float, positive_int

Rate = Callable[[float], float]
"""A timed run: seconds -> decisions per second (all setup and compilation done before)."""


@dataclass
class Row:
    name: str
    batch: int
    run: Rate
    rates: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)


# ---------------------------------------------------------------------- our environments
def gym_rate(opponent: str, rules: str, seconds: float) -> float:
    """Learner steps per second of ``SixtySix-v0`` made with ``gymnasium.make`` (its wrappers
    included), random legal actions from ``info["action_mask"]``."""
    import gymnasium

    import sixtysix_env  # noqa: F401  (registers SixtySix-v0)

    env = gymnasium.make("SixtySix-v0", opponent=opponent, rules=rules)
    rng = random.Random(0)
    n = 0
    episode = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        _obs, info = env.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _r, term, trunc, info = env.step(action)
            done = term or trunc
            n += 1
    env.close()
    return n / (time.perf_counter() - start)


def vector_opponents() -> tuple[str, ...]:
    """The opponents the batched vector env offers in this checkout (a heuristic one is coming)."""
    try:
        from sixtysix_env.envs.vector import OPPONENTS
    except ImportError:
        return ()
    return tuple(OPPONENTS)


# ---------------------------------------------------------------------- other libraries
def open_spiel_rate(game_name: str) -> tuple[Rate, str]:
    """A timed run of random legal play in an OpenSpiel game, with the decision player's
    observation tensor (or information-state tensor when the game has none) at each decision."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    game_type = game.get_type()
    use_obs = bool(game_type.provides_observation_tensor)
    if not use_obs and not game_type.provides_information_state_tensor:
        raise RuntimeError(f"{game_name} provides neither an observation nor an information-state tensor")
    tensor = "observation_tensor" if use_obs else "information_state_tensor"

    def run(seconds: float) -> float:
        rng = random.Random(0)
        n = 0
        start = time.perf_counter()
        end = start + seconds
        while time.perf_counter() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probs)[0])
                    continue
                player = state.current_player()
                if use_obs:
                    state.observation_tensor(player)
                else:
                    state.information_state_tensor(player)
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                n += 1
        return n / (time.perf_counter() - start)

    return run, tensor


def pgx_rate(env_id: str, batch: int) -> Rate:
    """A timed run of ``batch`` Pgx envs stepped by one jitted function (random legal actions,
    auto-reset), compiled and warmed up before it is returned."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(env_id)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def play(state: pgx.State, key: jax.Array) -> pgx.State:
        k_act, k_step = jax.random.split(key)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        actions = jax.random.categorical(k_act, logits, axis=-1)
        return step(state, actions, jax.random.split(k_step, batch))

    key = jax.random.PRNGKey(0)
    box = {"state": jax.jit(jax.vmap(env.init))(jax.random.split(key, batch)), "key": key}

    def run(seconds: float) -> float:
        state, key = box["state"], box["key"]
        steps = 0
        start = time.perf_counter()
        end = start + seconds
        while time.perf_counter() < end:
            for _ in range(8):
                key, sub = jax.random.split(key)
                state = play(state, sub)
            jax.block_until_ready(state.observation)
            steps += 8
        rate = steps * batch / (time.perf_counter() - start)
        box["state"], box["key"] = state, key
        return rate

    run(0.5)  # compile and warm up
    return run


# ---------------------------------------------------------------------- table
def fmt_us(rate: float) -> str:
    us = 1e6 / rate
    return f"{us:.1f}" if us >= 10 else f"{us:.2f}" if us >= 0.1 else f"{us:.3f}"


def fmt_ratio(x: float) -> str:
    return f"{x:,.0f}×" if x >= 100 else f"{x:.1f}×" if x >= 1 else f"{x:.2f}×"


def build_rows(args: argparse.Namespace, skipped: list[str]) -> list[Row]:
    """The rows to time, set up (compiled, warmed up); a missing library adds a note to ``skipped``."""
    rules: str = args.rules
    rows = [
        Row(
            "sixtysix reference engine (`Deal`, obs + legal actions)", 1, lambda s: engine_rate(s, rules, observe=True)
        ),
        Row("sixtysix reference engine, actions only (no obs)", 1, lambda s: engine_rate(s, rules)),
    ]
    from sixtysix_env import sixtysix_v0

    rows.append(Row("sixtysix_v0.env (AEC, wrapped, vector obs)", 1, lambda s: aec_rate(sixtysix_v0.env, s)))
    for opponent in args.gym_opponents:
        rows.append(Row(f"SixtySix-v0 Gymnasium (opponent={opponent}, learner steps)", 1, _gym(opponent, rules)))
    try:
        from sixtysix_env.fast import PARALLEL_MIN_ENVS

        for n in args.sizes:
            threads = "all cores" if n >= PARALLEL_MIN_ENVS else "1 thread"
            rows.append(Row(f"BatchedDeals.step_observe ({threads})", n, _batched(rules, n)))
        for opponent in vector_opponents():
            name = f"SixtySixVectorEnv (opponent={opponent}, learner steps)"
            rows.append(Row(name, args.vector_size, _vector(rules, args.vector_size, opponent)))
    except ImportError as e:
        skipped.append(f"batched engine: {e}")
    try:
        from pettingzoo.classic import tictactoe_v3

        rows.append(Row("PettingZoo tictactoe_v3 (wrapped)", 1, lambda s: aec_rate(tictactoe_v3.env, s)))
    except ImportError as e:
        skipped.append(f"PettingZoo tictactoe_v3: {e}")
    try:
        from pettingzoo.classic import leduc_holdem_v4

        rows.append(Row("PettingZoo leduc_holdem_v4 (wrapped)", 1, lambda s: aec_rate(leduc_holdem_v4.env, s)))
    except ImportError as e:
        skipped.append(f"PettingZoo leduc_holdem_v4 (needs rlcard): {e}")
    for game in ("skat", "euchre"):
        try:
            run, tensor = open_spiel_rate(game)
            rows.append(Row(f"OpenSpiel {game} (`{tensor}`)", 1, run))
        except Exception as e:  # ImportError, or a pyspiel build without the game
            skipped.append(f"OpenSpiel {game}: {type(e).__name__}: {e}")
    try:
        rows.append(Row("Pgx leduc_holdem (CPU, jit + vmap)", args.pgx_batch, pgx_rate("leduc_holdem", args.pgx_batch)))
    except Exception as e:  # ImportError, or jax failing to start on this CPU
        skipped.append(f"Pgx leduc_holdem: {type(e).__name__}: {e}")
    return rows


def _gym(opponent: str, rules: str) -> Rate:
    return lambda s: gym_rate(opponent, rules, s)


def _batched(rules: str, n: int) -> Rate:
    return lambda s: batched_rate(rules, n, None, s)


def _vector(rules: str, n: int, opponent: str) -> Rate:
    return lambda s: vector_env_rate(rules, n, s, opponent)


def library_versions() -> str:
    """Versions of the libraries behind the rows, for the table's caption."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for dist in ("numpy", "numba", "gymnasium", "pettingzoo", "rlcard", "open-spiel", "pgx", "jax", "jaxlib"):
        with contextlib.suppress(PackageNotFoundError):
            out.append(f"{dist} {version(dist)}")
    return ", ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rules(parser, notation=True, help="Sixty-Six preset for our rows")
    parser.add_argument("--seconds", type=positive_float, default=1.5, help="length of one timed run")
    parser.add_argument("--repeats", type=positive_int, default=5, help="rounds over all rows; the median is reported")
    parser.add_argument("--quick", action="store_true", help="0.5 s runs, 3 rounds (about a minute)")
    parser.add_argument("--sizes", type=positive_int, nargs="+", default=[1, 64, 1024, 4096, 65536], help="batch sizes")
    parser.add_argument("--vector-size", type=positive_int, default=4096, help="batch of the SixtySixVectorEnv rows")
    parser.add_argument("--pgx-batch", type=positive_int, default=4096, help="batch of the Pgx row")
    parser.add_argument(
        "--gym-opponents", nargs="*", default=["random", "heuristic"], help="opponents for the Gymnasium rows"
    )
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.repeats = 0.5, 3

    t0 = time.perf_counter()
    skipped: list[str] = []
    rows = build_rows(args, skipped)
    for row in rows:  # numba compilation (or loading its cache), imports, first allocations
        row.run(0.05)
    print(f"set up {len(rows)} rows in {time.perf_counter() - t0:.0f} s; timing...", file=sys.stderr, flush=True)
    for k in range(args.repeats):
        for row in rows:
            row.rates.append(row.run(args.seconds))
        print(f"  round {k + 1}/{args.repeats} done", file=sys.stderr, flush=True)

    ref = rows[0].rate
    ttt = next((r.rate for r in rows if "tictactoe" in r.name), None)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Random legal play, {date.today()}, {os.cpu_count()} cores, load average {load:.1f} at the end; "
        f"median of {args.repeats} rounds of {args.seconds:g} s per row, one process; "
        f"{time.perf_counter() - t0:.0f} s in all."
    )
    print(f"Libraries: {library_versions()}.")
    print()
    print("| environment | batch | decisions/s | µs/decision | vs reference engine | vs tictactoe_v3 |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        vs_ttt = fmt_ratio(row.rate / ttt) if ttt else "n/a"
        print(
            f"| {row.name} | {row.batch:,} | {row.rate:,.0f} | {fmt_us(row.rate)} | "
            f"{fmt_ratio(row.rate / ref)} | {vs_ttt} |"
        )
    if skipped:
        print("\nSkipped (install the `bench` extra):")
        for note in skipped:
            print(f"- {note}")


if __name__ == "__main__":
    main()
