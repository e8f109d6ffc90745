#!/usr/bin/env python
"""Teacher labels for expert iteration: a search agent's decisions, to distil into a network.

    python baselines/make_labels.py --teacher pimc:solver=fast --minutes 20 --out results/labels_standard.npz
    python baselines/train_fast.py --teacher-labels results/labels_standard.npz ...

The teacher plays both seats of fresh deals (with ``--explore`` of the moves replaced by random
legal ones, so the positions are not only its own lines); every decision where it had a choice
gives one row. With ``--player`` another agent makes the moves and the teacher only labels the
positions that agent reaches (DAgger: a network's own positions, labelled by the search, so a
clone is taught where it actually goes). A row holds the observation the envs give
(``encode_vector``, 235 floats), the legal mask (32 bools), the teacher's action, and the game
points that player ended the deal with (a value target; the random moves are played but not
labelled). With ``--values`` a row also holds the teacher's value of every legal action (``q``,
32 floats, NaN where illegal; teachers with an ``action_values`` method, such as ``pimc``),
which says how much each choice matters. Uses only the engine and the agents (no torch):
``--workers`` processes split the deals, each seeded from ``--seed`` and its index, so a run is
reproducible for a fixed number of deals (``--deals``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.actions import NUM_ACTIONS  # noqa: E402
from sixtysix_env.agents.pimc import best_action  # noqa: E402
from sixtysix_env.agents.spec import parse_agent_spec  # noqa: E402
from sixtysix_env.checks import cli_float  # noqa: E402
from sixtysix_env.cli_options import add_deals, add_rules, add_seed, add_workers  # noqa: E402
from sixtysix_env.engine import Deal  # noqa: E402
from sixtysix_env.envs.sixtysix_v0 import mask_array  # noqa: E402
from sixtysix_env.observers import VECTOR_SIZE, encode_vector  # noqa: E402
from sixtysix_env.rules import get_rules  # noqa: E402

Rows = tuple[list[np.ndarray], list[np.ndarray], list[int], list[float], list[np.ndarray]]


def label_deal(
    teacher: object, rules: str, seed: int, explore: float, values: bool = False, player: object | None = None
) -> Rows:
    """One deal played in both seats by the player (the teacher when None): the teacher's rows."""
    rng = random.Random(seed)
    deal = Deal.new(get_rules(rules), rng, dealer=rng.randrange(2))
    obs, masks, actions, seats, qs = [], [], [], [], []
    while deal.outcome is None:
        legal = deal.legal_actions()
        if len(legal) == 1:
            deal.apply(legal[0])
            continue
        if rng.random() < explore:  # played, not labelled
            deal.apply(rng.choice(legal))
            continue
        info = deal.information_state(deal.current)
        if values:  # act's choice rule on the values it maximises (the same move, bar ties)
            q = teacher.action_values(info, rng)  # type: ignore[attr-defined]
            action = best_action(info, q)
            row = np.full(NUM_ACTIONS, np.nan, dtype=np.float32)
            row[list(q)] = list(q.values())
            qs.append(row)
        else:
            action = teacher.act(info, rng)  # type: ignore[attr-defined]
        obs.append(encode_vector(info))
        masks.append(mask_array(deal.legal_mask()).astype(bool))
        actions.append(action)
        seats.append(deal.current)
        deal.apply(action if player is None else player.act(info, rng))  # type: ignore[attr-defined]
    returns = deal.returns()
    return obs, masks, actions, [float(returns[p]) for p in seats], qs


def _worker(job: tuple[str, str | None, str, list[int], float, float, bool]) -> Rows:
    spec, player_spec, rules, seeds, explore, deadline, values = job
    teacher = parse_agent_spec(spec).make()
    player = parse_agent_spec(player_spec).make() if player_spec else None
    out: Rows = ([], [], [], [], [])
    for s in seeds:
        if time.time() > deadline:
            break
        for dst, src in zip(out, label_deal(teacher, rules, s, explore, values, player), strict=True):
            dst.extend(src)  # type: ignore[arg-type]
    return out


def _built(ap: argparse.ArgumentParser, flag: str, spec: str) -> object:
    """The agent a spec names, built once here so that a bad spec is refused before any work."""
    try:
        return parse_agent_spec(spec).make()
    except ValueError as e:
        ap.error(f"{flag}: {e}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--teacher", default="pimc:solver=fast", help="agent spec of the teacher (as in the arena)")
    ap.add_argument(
        "--player", default=None, help="agent spec that makes the moves (default: the teacher); the teacher labels them"
    )
    add_rules(ap)
    add_deals(ap, default=100_000, help="deals to play (at most; see --minutes)")
    ap.add_argument("--minutes", type=cli_float, default=None, help="stop after this wall time (then fewer deals)")
    ap.add_argument("--explore", type=cli_float, default=0.1, help="share of the moves made at random (not labelled)")
    add_workers(ap, help="processes")
    add_seed(ap, help="seed of the deals and of the random moves")
    ap.add_argument("--values", action="store_true", help="also store the teacher's value of every action (q)")
    ap.add_argument("--out", default=None, help="output .npz (default results/labels_<rules>.npz)")
    args = ap.parse_args(argv)
    for name in ("deals", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if args.minutes is not None and args.minutes <= 0:
        ap.error(f"--minutes must be above 0, got {args.minutes}")
    if not 0.0 <= args.explore < 1.0:
        ap.error(f"--explore must be in [0, 1), got {args.explore}")
    teacher = _built(ap, "--teacher", args.teacher)
    if args.player is not None:
        _built(ap, "--player", args.player)
    if args.values and not hasattr(teacher, "action_values"):
        ap.error(f"--values: the teacher {args.teacher!r} has no action_values method (pimc has)")
    out = Path(args.out or f"results/labels_{args.rules}.npz")
    out.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + 60 * args.minutes if args.minutes is not None else float("inf")
    seeds = [args.seed * 1_000_003 + i for i in range(args.deals)]
    jobs = [
        (args.teacher, args.player, args.rules, seeds[w :: args.workers], args.explore, deadline, args.values)
        for w in range(args.workers)
    ]
    start = time.time()
    if args.workers == 1:
        parts = [_worker(jobs[0])]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            parts = list(pool.map(_worker, jobs))
    obs = [o for p in parts for o in p[0]]
    q = [row for p in parts for row in p[4]]
    np.savez_compressed(
        out,
        **({"q": np.asarray(q, dtype=np.float32).reshape(-1, NUM_ACTIONS)} if args.values else {}),
        obs=np.asarray(obs, dtype=np.float32).reshape(-1, VECTOR_SIZE),
        mask=np.asarray([m for p in parts for m in p[1]], dtype=bool).reshape(-1, NUM_ACTIONS),
        action=np.asarray([a for p in parts for a in p[2]], dtype=np.int64),
        value=np.asarray([v for p in parts for v in p[3]], dtype=np.float32),
    )
    print(
        f"{out}: {len(obs)} labelled positions from {args.teacher} on {args.rules}"
        f"{f' (moves by {args.player})' if args.player else ''}, "
        f"{time.time() - start:.0f} s wall, {os.cpu_count()} cores",
        flush=True,
    )


if __name__ == "__main__":
    main()
