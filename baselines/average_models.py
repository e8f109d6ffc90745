#!/usr/bin/env python
"""Average trained networks into one: the ensemble the ``ppo`` agent plays as a single model.

    python baselines/average_models.py cleanrl_standard_long league_standard_solve \
        --out sixtysix_env/models/ensemble_standard.npz

Each name is a shipped model (a file stem in ``sixtysix_env/models``) or a path to a ``.npz``.
The result is one MLP whose logits and value are the mean of the members' (their hidden layers
side by side, :func:`sixtysix_env.agents.mlp.average_policies`), so it plays the action the
members' summed log-probabilities favour and runs wherever one network does. Uses numpy only.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.agents.mlp import average_policies  # noqa: E402
from sixtysix_env.agents.ppo import load_policy, shipped_model  # noqa: E402


def model_path(name: str) -> Path:
    """A path as given (it names a folder or ends in .npz), else a shipped model by name."""
    return Path(name) if "/" in name or name.endswith(".npz") else shipped_model(model=name)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        description="Average trained policy networks (.npz) into one network whose logits are their mean.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    ap.add_argument("models", nargs="+", help="shipped model names (sixtysix_env/models) or .npz paths, at least 2")
    ap.add_argument("--out", required=True, help="the .npz to write")
    return ap


def main(argv: Sequence[str] | None = None) -> Path:
    ap = parser()
    args = ap.parse_args(argv)
    if len(args.models) < 2:
        ap.error(f"give at least 2 models to average, got {len(args.models)}")
    if not str(args.out).endswith(".npz"):
        ap.error(f"--out must name a .npz file, got {args.out!r}")
    try:
        paths = [model_path(m) for m in args.models]
        policies = [load_policy(p) for p in paths]
        merged = average_policies(policies, source="mean of " + " + ".join(p.name for p in paths))
    except (ValueError, FileNotFoundError) as e:
        ap.error(str(e))
    out = merged.save(args.out)
    widths = [w.shape[0] for w, _ in merged.policy[:-1]]
    print(f"wrote {out}: the mean of {len(paths)} networks, hidden widths {widths}")
    return out


if __name__ == "__main__":
    main()
