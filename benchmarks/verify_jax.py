"""Lockstep check of the JAX engine (``sixtysix_env.jax``) against the numba and reference engines.

For each rule configuration, N random deals are played in lockstep, driven by the same random
legal actions (``fast/verify.py``'s policy idea: going out and closing are kept rare in half the
deals, so deals reach their late phases and get played out). Two comparisons, stated in the output:

- **JAX vs numba** (every deal): at every step the legal mask (``Game.mask`` and pgx's
  ``legal_action_mask``), the player to act, the vector observations of BOTH players (bit for
  bit, and ``State.observation`` for the player to act), the rewards (pgx ``rewards`` against
  ``BatchedDeals``' ``game_points`` rewards), termination, the heuristic's action
  (``jax.heuristic_action`` against ``fast.heuristic``), and at the end the outcome (winner,
  game points, termination). The numba engine is itself verified against the reference engine
  by ``python -m sixtysix_env.fast.verify``.
- **JAX vs the reference engine** (``engine.Deal``, the first ``--reference`` deals of each
  configuration): at every step the legal mask, the player to act, ``observers.encode_vector``
  of ``InfoState.of(deal, p)`` for both players, ``rewards.step_rewards("game_points", ...)``,
  and at the end ``deal.outcome``.

The JAX side runs batched (``jax.jit(jax.vmap(env.step))``, ``--batch`` deals at a time), the
numba side as one ``BatchedDeals``, the reference side in Python. Any difference raises with the
configuration, deal, step and what differs; the run prints one table row per configuration::

    python benchmarks/verify_jax.py --deals 100000 --reference 2000
    python benchmarks/verify_jax.py --presets standard schnapsen --deals 1000 --random-rules 0
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

from sixtysix_env.actions import CLOSE, GO_OUT, action_str
from sixtysix_env.cli_options import add_count, positive_int
from sixtysix_env.engine import Deal
from sixtysix_env.fast import BatchedDeals
from sixtysix_env.fast.state import COLUMNS
from sixtysix_env.fast.verify import configurations, random_rules
from sixtysix_env.infostate import InfoState
from sixtysix_env.jax import SixtySix, encode_observation, heuristic_action
from sixtysix_env.jax.engine import deck_cards
from sixtysix_env.observers import VECTOR_LAYOUT, encode_vector
from sixtysix_env.rewards import step_rewards
from sixtysix_env.rules import Rules, get_rules

__all__ = ["LockstepError", "Counts", "lockstep", "policy_actions"]

MAX_STEPS = 200


class LockstepError(AssertionError):
    """The engines disagree; the message names the configuration, deal, step and what differs."""


@dataclass
class Counts:
    deals: int = 0
    steps: int = 0  # decisions compared with the numba engine
    reference_deals: int = 0
    reference_steps: int = 0  # decisions compared with the reference engine
    heuristic_steps: int = 0  # heuristic choices compared
    outcomes: dict[str, int] = field(default_factory=dict)

    def add(self, other: Counts) -> None:
        self.deals += other.deals
        self.steps += other.steps
        self.reference_deals += other.reference_deals
        self.reference_steps += other.reference_steps
        self.heuristic_steps += other.heuristic_steps
        for k, v in other.outcomes.items():
            self.outcomes[k] = self.outcomes.get(k, 0) + v


def policy_actions(masks: np.ndarray, points: np.ndarray, players: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per deal from uint32 ``masks`` (-1 where the mask is empty). As
    ``fast.verify._policy``: going out is kept a fifth of the time when something else is legal;
    in odd deals (``patient``) going out is mostly kept for 66 points and closing is rare."""
    n = len(masks)
    bits = ((masks[:, None].astype(np.uint64) >> np.arange(32, dtype=np.uint64)) & 1).astype(bool)
    count = bits.sum(axis=1)
    patient = (np.arange(n) % 2) == 1
    mine = points[np.arange(n), np.clip(players, 0, 1)]
    u1, u2, u3 = rng.random(n), rng.random(n), rng.random(n)
    several = count > 1
    keep_out = u1 > np.where(patient & (mine < 66), 0.05, 0.2)
    drop_go = several & bits[:, GO_OUT] & keep_out & ~(patient & (mine >= 66))
    bits[drop_go, GO_OUT] = False
    drop_close = several & patient & bits[:, CLOSE] & (bits.sum(axis=1) > 1) & (u2 > 0.05)
    bits[drop_close, CLOSE] = False
    count = bits.sum(axis=1)
    k = np.minimum((u3 * count).astype(np.int64), np.maximum(count - 1, 0))
    ranks = np.cumsum(bits, axis=1) - 1
    pick = bits & (ranks == k[:, None])
    return np.where(count > 0, pick.argmax(axis=1), -1)


class _Jitted:
    """The jitted, vmapped JAX functions of one rule set (compiled once per batch size)."""

    def __init__(self, rules: Rules) -> None:
        self.env = env = SixtySix(rules)
        self.init = jax.jit(jax.vmap(env.init_from_deck))
        self.step = jax.jit(jax.vmap(env.step))
        both = jax.vmap(lambda g: jnp.stack([encode_observation(g, 0), encode_observation(g, 1)]))
        self.observe = jax.jit(lambda s: both(s._game))
        self.heuristic = jax.jit(jax.vmap(heuristic_action))


def _first_difference(a: np.ndarray, b: np.ndarray) -> str:
    k = int(np.flatnonzero(a.view(np.uint32) != b.view(np.uint32))[0])
    part = next(p for p in VECTOR_LAYOUT.values() if p.start <= k < p.start + p.size)
    return f"{part.name}[{k - part.start}]: jax {a[k]!r}, other {b[k]!r}"


def _batch(
    jit: _Jitted, r: Rules, rows: np.ndarray, dealers: np.ndarray, rng: np.random.Generator, n_reference: int, name: str
) -> Counts:
    """One batch in lockstep; the first ``n_reference`` deals also against ``engine.Deal``."""
    b = len(rows)
    counts = Counts(deals=b, reference_deals=n_reference)
    numba = BatchedDeals(b, r, autoreset=False, seed=0)
    numba.reset(decks=rows, dealers=dealers)
    state = jit.init(jnp.asarray(rows, jnp.int32), jnp.asarray(dealers, jnp.int32))
    n = r.hand_size
    refs = [
        Deal.from_arrangement(
            (rows[i, :n].tolist(), rows[i, n : 2 * n].tolist()), rows[i, 2 * n :][::-1].tolist(), int(dealers[i]), r
        )
        for i in range(n_reference)
    ]
    history: list[list[int]] = [[] for _ in range(b)]

    def fail(i: int, what: str) -> None:
        played = " ".join(action_str(a) for a in history[i])
        raise LockstepError(f"{name}: deal {i} after {len(history[i])} actions ({played}): {what}\n  rules: {r}")

    def bad(a: np.ndarray, ref: np.ndarray) -> np.ndarray:
        return np.flatnonzero((a != ref).reshape(len(a), -1).any(axis=1))

    for _ in range(MAX_STEPS):
        g = state._game
        mask = np.asarray(g.mask).astype(np.uint32)
        current = np.asarray(state.current_player)
        terminated = np.asarray(state.terminated)
        # -- against numba: every deal
        for i in bad(mask, numba.legal_mask_bits().astype(np.uint32)):
            fail(i, f"legal mask: jax {int(mask[i]):#x}, numba {int(numba.legal_mask_bits()[i]):#x}")
        numba_current = numba.state[:, COLUMNS["CURRENT"]]  # kept after the end, as in the JAX state
        for i in bad(current, numba_current):
            fail(i, f"current player: jax {current[i]}, numba {numba_current[i]}")
        for i in bad(terminated, numba.is_over):
            fail(i, f"terminated: jax {terminated[i]}, numba {numba.is_over[i]}")
        pgx_mask = np.asarray(state.legal_action_mask)
        want_mask = np.where(terminated[:, None], True, (mask[:, None] >> np.arange(32, dtype=np.uint32)) & 1 == 1)
        for i in bad(pgx_mask, want_mask):
            fail(i, "legal_action_mask is not Game.mask's bits (all True once terminated)")
        obs = np.asarray(jit.observe(state))  # (b, 2, 235)
        for p in (0, 1):
            ref = numba.observe(p)
            for i in bad(obs[:, p].view(np.uint32), ref.view(np.uint32)):
                fail(i, f"observation of player {p} vs numba: {_first_difference(obs[i, p], ref[i])}")
        own = np.asarray(state.observation)
        mine = obs[np.arange(b), current]
        for i in bad(own.view(np.uint32), mine.view(np.uint32)):
            fail(i, f"State.observation is not the player to act's: {_first_difference(own[i], mine[i])}")
        h_jax = np.asarray(jit.heuristic(state))
        h_numba = numba.heuristic_actions()
        for i in bad(h_jax, h_numba):
            fail(i, f"heuristic action: jax {h_jax[i]}, numba {h_numba[i]}")
        live = ~terminated
        counts.heuristic_steps += int(live.sum())
        # -- against the reference: the first n_reference deals
        for i, d in enumerate(refs):
            if int(mask[i]) != d.legal_mask():
                fail(i, f"legal mask: jax {int(mask[i]):#x}, reference {d.legal_mask():#x}")
            if d.outcome is None and current[i] != d.current_player:
                fail(i, f"current player: jax {current[i]}, reference {d.current_player}")
            if bool(terminated[i]) != (d.outcome is not None):
                fail(i, f"terminated: jax {terminated[i]}, reference {d.outcome}")
            for p in (0, 1):
                ref = encode_vector(InfoState.of(d, p))
                if not np.array_equal(obs[i, p].view(np.uint32), ref.view(np.uint32)):
                    fail(i, f"observation of player {p} vs reference: {_first_difference(obs[i, p], ref)}")
        if not live.any():
            break
        # -- one action per live deal, the same in every engine
        points = np.asarray(g.points)
        actions = policy_actions(np.where(live, mask, 0).astype(np.uint32), points, current, rng)
        for i in np.flatnonzero(live):
            history[i].append(int(actions[i]))
        before = [(d.points[0], d.points[1]) for d in refs]
        for i, d in enumerate(refs):
            if d.outcome is None:
                d.apply(int(actions[i]))
        counts.steps += int(live.sum())
        counts.reference_steps += sum(1 for i in range(n_reference) if live[i])
        state = jit.step(state, jnp.asarray(np.maximum(actions, 0), jnp.int32))
        rew_numba, done = numba.step(actions)
        rewards = np.asarray(state.rewards)
        for i in bad(rewards, np.where(live[:, None], rew_numba, 0.0).astype(np.float32)):
            fail(i, f"rewards: jax {tuple(rewards[i])}, numba {tuple(rew_numba[i])}")
        for i, d in enumerate(refs):
            if live[i] and tuple(rewards[i]) != step_rewards("game_points", d, before[i]):
                fail(i, f"rewards: jax {tuple(rewards[i])}, reference {step_rewards('game_points', d, before[i])}")
        ended = np.flatnonzero(live & np.asarray(state.terminated))
        g = state._game
        outcome = np.stack([np.asarray(g.winner), np.asarray(g.game_points), np.asarray(g.termination)], axis=1)
        numba_outcome = np.stack([numba.last_winner, numba.last_game_points, numba.last_termination], axis=1)
        for i in ended:
            if not done[i] or tuple(outcome[i]) != tuple(numba_outcome[i]):
                fail(
                    i,
                    f"outcome (winner, points, how): jax {tuple(outcome[i])}, numba {tuple(numba_outcome[i])}",
                )
            if i < n_reference:
                o = refs[i].outcome
                assert o is not None
                if tuple(outcome[i]) != (o.winner, o.game_points, int(o.termination)):
                    fail(i, f"outcome: jax {tuple(outcome[i])}, reference {o}")
            key = f"termination_{int(outcome[i, 2])}"
            counts.outcomes[key] = counts.outcomes.get(key, 0) + 1
    else:
        raise LockstepError(f"{name}: deals did not finish within {MAX_STEPS} steps")
    return counts


def lockstep(
    rules: str | Rules,
    num_deals: int,
    seed: int = 0,
    batch: int = 4096,
    reference: int = 0,
    name: str | None = None,
    jitted: _Jitted | None = None,
) -> Counts:
    """Play ``num_deals`` random deals (rounded up to whole batches) in the JAX and numba engines,
    the first ``reference`` of them in the reference engine too; raise ``LockstepError`` at the
    first difference, else return the counts."""
    r = get_rules(rules)
    name = name or r.name
    rng = np.random.default_rng(seed)
    jit = jitted or _Jitted(r)
    size = min(batch, num_deals)
    total = Counts()
    cards = deck_cards(jit.env.params)
    left_reference = reference
    for _ in range(-(-num_deals // size)):
        rows = rng.permuted(np.tile(cards, (size, 1)), axis=1).astype(np.int64)
        dealers = rng.integers(0, 2, size=size)
        n_ref = min(left_reference, size)
        left_reference -= n_ref
        total.add(_batch(jit, r, rows, dealers, rng, n_ref, name))
    return total


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    configs = configurations()
    ap.add_argument(
        "--deals", type=positive_int, default=100_000, help="random deals per configuration (whole batches)"
    )
    add_count(ap, "--reference", default=1_000, at_least=0, help="of them, deals also played in engine.Deal")
    ap.add_argument("--presets", nargs="*", default=None, choices=sorted(configs), metavar="NAME",
                    help=f"configurations (default all): {', '.join(configs)}")  # fmt: skip
    add_count(ap, "--random-rules", default=5, at_least=0, help="random Rules combinations (fast.verify.random_rules)")
    ap.add_argument("--random-deals", type=positive_int, default=4_096, help="deals per random Rules combination")
    ap.add_argument("--batch", type=positive_int, default=4096, help="deals stepped together in JAX and numba")
    add_count(ap, "--seed", default=0, at_least=0, help="seed of the deals, actions and random rules")
    args = ap.parse_args(argv)
    names = args.presets if args.presets is not None else list(configs)
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}; batch {args.batch}")
    print("| configuration | deals vs numba | decisions vs numba | heuristic choices | deals vs reference "
          "| decisions vs reference | disagreements | seconds |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    grand = Counts()
    todo: list[tuple[str, Rules, int]] = [(n, configs[n], args.deals) for n in names]
    rng = np.random.default_rng(args.seed)
    todo += [(f"random rules {k}", random_rules(rng), args.random_deals) for k in range(args.random_rules)]
    for k, (name, r, deals) in enumerate(todo):
        t = time.perf_counter()
        c = lockstep(r, deals, seed=args.seed + k, batch=args.batch, reference=min(args.reference, deals), name=name)
        grand.add(c)
        print(f"| {name} | {c.deals:,} | {c.steps:,} | {c.heuristic_steps:,} | {c.reference_deals:,} "
              f"| {c.reference_steps:,} | 0 | {time.perf_counter() - t:.1f} |", flush=True)  # fmt: skip
    print(f"| total | {grand.deals:,} | {grand.steps:,} | {grand.heuristic_steps:,} | {grand.reference_deals:,} "
          f"| {grand.reference_steps:,} | 0 | |")  # fmt: skip
    print(f"terminations: {dict(sorted(grand.outcomes.items()))}")


if __name__ == "__main__":
    main()
