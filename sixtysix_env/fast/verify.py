"""Differential check of the batched engine against the reference engine.

Both engines start from the same arrangements and are driven by the same random legal actions;
at every step the legal masks, the player to act and the vector observations of BOTH players
must be identical (bit for bit), and at every step the rewards of every scheme, and at the end
the outcome. ``tests/test_fast_engine.py`` runs it at CI size; for the full check run::

    python -m sixtysix_env.fast.verify --deals 10000
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np

from ..actions import CLOSE, GO_OUT, action_str
from ..cards import Rank
from ..checks import cli_int
from ..cli_options import add_deals, add_seed
from ..engine import Deal
from ..infostate import InfoState
from ..observers import VECTOR_LAYOUT, encode_vector
from ..rewards import REWARD_SCHEMES, step_rewards
from ..rules import PRESETS, Rules, get_rules
from .batch import BatchedDeals

__all__ = ["DifferentialError", "differential", "random_rules", "configurations"]


class DifferentialError(AssertionError):
    """The engines disagree; the message names the env, the step, what differs and the position."""


def _policy(deal: Deal, rng: np.random.Generator, patient: bool) -> int:
    """A random legal action. Going out is taken a fifth of the time when something else is
    legal, so explicit-claiming deals reach their late phases; a ``patient`` player also closes
    rarely and goes out mostly when he has 66, so that deals get played out too."""
    legal = deal.legal_actions()
    if len(legal) > 1:
        p = deal.current_player
        keep_out = rng.random() > (0.05 if patient and deal.points[p] < 66 else 0.2)
        if GO_OUT in legal and keep_out and not (patient and deal.points[p] >= 66):
            legal.remove(GO_OUT)
        if patient and CLOSE in legal and len(legal) > 1 and rng.random() > 0.05:
            legal.remove(CLOSE)
    return legal[int(rng.integers(len(legal)))]


def _first_difference(a: np.ndarray, b: np.ndarray) -> str:
    k = int(np.flatnonzero(a.view(np.uint32) != b.view(np.uint32))[0])
    part = next(p for p in VECTOR_LAYOUT.values() if p.start <= k < p.start + p.size)
    return f"{part.name}[{k - part.start}]: batched {a[k]!r}, reference {b[k]!r}"


def differential(rules: str | Rules, num_deals: int, seed: int = 0) -> dict[str, int]:
    """Play ``num_deals`` random deals in both engines and raise ``DifferentialError`` at the first
    difference. Returns counts: deals, steps (decisions compared), the terminations seen and the
    game points scored (``game_points_N``)."""
    r = get_rules(rules)
    rng = np.random.default_rng(seed)
    deals = [Deal.new(r, rng, dealer=int(rng.integers(2))) for _ in range(num_deals)]
    arrangements = [d.arrangement for d in deals]
    assert all(a is not None for a in arrangements)
    # One batch per reward scheme; the first one steps through the fused step_observe path.
    batches = {s: BatchedDeals(num_deals, r, reward=s, autoreset=False, seed=seed) for s in REWARD_SCHEMES}
    views = {s: b.reset(arrangements=arrangements) for s, b in batches.items()}  # type: ignore[arg-type]
    main = batches[REWARD_SCHEMES[0]]
    fused_obs, fused_masks = (v.copy() for v in views[REWARD_SCHEMES[0]])
    steps = 0
    terminations: dict[str, int] = {}
    history: list[list[int]] = [[] for _ in deals]

    def fail(i: int, what: str) -> None:
        played = " ".join(action_str(a) for a in history[i])
        raise DifferentialError(
            f"{r.name}: env {i} after {len(history[i])} actions ({played}): {what}\n"
            f"  reference: {deals[i].to_notation()}\n  rules: {r}"
        )

    for _ in range(200):
        live = [i for i, d in enumerate(deals) if d.outcome is None]
        # -- compare the positions
        for b in batches.values():
            cp = b.current_player
            bits = b.legal_mask_bits()
            for i, d in enumerate(deals):
                if cp[i] != d.current_player:
                    fail(i, f"current player: batched {cp[i]}, reference {d.current_player}")
                if int(bits[i]) != d.legal_mask():
                    fail(i, f"legal mask: batched {int(bits[i]):#x}, reference {d.legal_mask():#x}")
        for p in (0, 1):
            ref = np.stack([encode_vector(InfoState.of(d, p)) for d in deals])
            for b in batches.values():
                got = b.observe(p)
                bad = np.flatnonzero((got.view(np.uint32) != ref.view(np.uint32)).any(axis=1))
                if len(bad):
                    fail(int(bad[0]), f"observation of player {p}: {_first_difference(got[bad[0]], ref[bad[0]])}")
        masks = main.legal_masks()
        for i in live:  # the fused path's view is the player to act's
            if not np.array_equal(fused_masks[i], masks[i]):
                fail(i, "step_observe masks differ from legal_masks()")
            ref = encode_vector(InfoState.of(deals[i], deals[i].current_player))
            if not np.array_equal(fused_obs[i].view(np.uint32), ref.view(np.uint32)):
                fail(i, f"step_observe observation: {_first_difference(fused_obs[i], ref)}")
        if not live:
            break
        # -- one action per live deal, the same in both engines
        actions = np.full(num_deals, -1, dtype=np.int64)
        before = [(d.points[0], d.points[1]) for d in deals]
        for i in live:
            a = _policy(deals[i], rng, patient=i % 2 == 1)
            actions[i] = a
            history[i].append(a)
            deals[i].apply(a)
        steps += len(live)
        results = {}
        for s, b in batches.items():
            if s == REWARD_SCHEMES[0]:
                fused_obs, fused_masks, rew, done = (v.copy() for v in b.step_observe(actions))
            else:
                rew, done = b.step(actions)
            results[s] = (rew, done)
        for i in live:
            d = deals[i]
            for s, (rew, done) in results.items():
                want = step_rewards(s, d, before[i])
                if (rew[i, 0], rew[i, 1]) != want:
                    fail(i, f"{s} rewards: batched {tuple(rew[i])}, reference {want}")
                if bool(done[i]) != (d.outcome is not None):
                    fail(i, f"done: batched {bool(done[i])}, reference {d.outcome}")
            if d.outcome is not None:
                out = main.outcome(i)
                last = (int(main.last_winner[i]), int(main.last_game_points[i]), int(main.last_termination[i]))
                if out != d.outcome or last != (d.outcome.winner, d.outcome.game_points, int(d.outcome.termination)):
                    fail(i, f"outcome: batched {out} / {last}, reference {d.outcome}")
                for name in (d.outcome.termination.name, f"game_points_{d.outcome.game_points}"):
                    terminations[name] = terminations.get(name, 0) + 1
    else:
        raise DifferentialError("deals did not finish within 200 steps")
    # The batch's own replay of an env must be the reference deal (history and arrangement kept).
    for i in range(0, num_deals, max(1, num_deals // 20)):
        if main.deal(i).to_notation() != deals[i].to_notation():
            fail(i, "BatchedDeals.deal(i) does not replay the reference deal")
    return {"deals": num_deals, "steps": steps, **terminations}


def random_rules(rng: np.random.Generator) -> Rules:
    """A random valid combination of every ``Rules`` field (for fuzzing rule interactions)."""
    from ..rules import FIELD_CHOICES

    fields = {f.name for f in dataclasses.fields(Rules)}
    changes: dict[str, object] = {"name": "random"}
    for name, allowed in FIELD_CHOICES.items():
        if name in fields:
            changes[name] = allowed[int(rng.integers(len(allowed)))]
    deck = int(rng.choice([24, 20]))
    stock = 12 if deck == 24 else 10
    changes.update(
        deck_size=deck,
        exchange_rank=Rank.JACK if deck == 20 or rng.random() < 0.2 else Rank.NINE,
        exchange_at_closing=bool(rng.integers(2)),
        closing=bool(rng.random() < 0.85),
        closing_min_stock=int(rng.choice(np.arange(2, stock + 1, 2))),
        close_before_drawing=bool(rng.integers(2)),
        marriages_after_stock=bool(rng.integers(2)),
        marriage_on_first_lead=bool(rng.integers(2)),
        last_trick_bonus=int(rng.choice([0, 10])),
        must_win_trick=bool(rng.integers(2)),
        match_target=int(rng.choice([7, 8, 11])),
    )
    for f in dataclasses.fields(Rules):  # boolean fields added later: random too
        if f.name not in changes and isinstance(getattr(Rules(), f.name), bool):
            changes[f.name] = bool(rng.integers(2))
    return Rules(**changes)  # type: ignore[arg-type]


def configurations() -> dict[str, Rules]:
    """Every preset, every preset with explicit claiming, and both readings of the 6-point rule."""
    out = dict(PRESETS)
    for name, r in PRESETS.items():
        if r.claiming != "explicit":
            out[f"{name}+explicit"] = r.replace(name=f"{name}+explicit", claiming="explicit")
    for six in ("closer_no_trick", "or_opponent_no_trick"):
        out[f"standard+six-{six}"] = PRESETS["standard"].replace(name=f"standard+six-{six}", failed_close_six=six)
    out["marriage+explicit+six"] = PRESETS["marriage"].replace(
        name="marriage+explicit+six", claiming="explicit", failed_close_six="or_opponent_no_trick"
    )
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_deals(ap, default=10_000, help="random deals per configuration")
    ap.add_argument("--random-rules", type=cli_int, default=20, help="random Rules combinations to fuzz")
    ap.add_argument("--random-deals", type=cli_int, default=1_000, help="deals per random Rules combination")
    add_seed(ap, help="seed of the random deals and rules")
    args = ap.parse_args(argv)
    print("| configuration | deals | decisions compared | result | seconds |")
    print("|---|---:|---:|---|---:|")
    for name, r in configurations().items():
        t = time.perf_counter()
        stats = differential(r, args.deals, seed=args.seed)
        print(f"| {name} | {stats['deals']:,} | {stats['steps']:,} | identical | {time.perf_counter() - t:.1f} |")
    rng = np.random.default_rng(args.seed)
    for k in range(args.random_rules):
        r = random_rules(rng)
        t = time.perf_counter()
        stats = differential(r, args.random_deals, seed=args.seed + k)
        secs = time.perf_counter() - t
        print(f"| random rules {k} | {stats['deals']:,} | {stats['steps']:,} | identical | {secs:.1f} |")


if __name__ == "__main__":
    main()
