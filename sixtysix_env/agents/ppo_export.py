"""Convert a MaskablePPO ``.zip`` (stable-baselines3) into the ``.npz`` weights the ``ppo`` agent plays from.

    python -m sixtysix_env.agents.ppo_export MODEL.zip [--out MODEL.npz] [--rules standard]

Loading an SB3 zip unpickles Python objects, so it can run code: convert only files you trust.
The ``.npz`` it writes holds plain arrays (:mod:`sixtysix_env.agents.mlp`) and plays without torch.
This module needs the ``train`` extra (torch, stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..actions import NUM_ACTIONS
from ..cli_options import add_rules
from ..observers import VECTOR_SIZE
from .mlp import MLPPolicy, linear_layers, vector_policy

__all__ = ["UNTRUSTED_WARNING", "UntrustedModelWarning", "export_policy", "load_sb3_model", "main"]

UNTRUSTED_WARNING = (
    "loading {path}: a stable-baselines3 .zip is unpickled, which runs any code a crafted file holds. "
    "Load only files you trust; play from .npz weights (python -m sixtysix_env.agents.ppo_export converts)."
)
"""The warning given before unpickling an SB3 .zip (``{path}`` is filled in): loading one can run code."""


class UntrustedModelWarning(UserWarning):
    """Issued whenever an SB3 ``.zip`` is loaded: unpickling it can run code."""


_INSTALL_HINT = (
    "reading a MaskablePPO .zip needs torch, stable-baselines3 and sb3-contrib: install the 'train' extra "
    "(pip install 'sixtysix-env[train]'; README, install notes). Playing from .npz weights needs none of them."
)


def load_sb3_model(path: str | os.PathLike[str]) -> Any:
    """A MaskablePPO model on the CPU, after a loud warning that the file is unpickled.

    Schedules saved with the model are replaced by constants: inference never uses them, and
    unpickling saved lambdas is what breaks across Python versions."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no PPO model at {p}: train one with baselines/train_ppo.py (see baselines/README.md)")
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise ImportError(_INSTALL_HINT) from e
    warnings.warn(UNTRUSTED_WARNING.format(path=p), UntrustedModelWarning, stacklevel=2)
    custom = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0}
    model = MaskablePPO.load(p, device="cpu", custom_objects=custom)
    shape = getattr(model.observation_space, "shape", None)
    if shape != (VECTOR_SIZE,) or getattr(model.action_space, "n", None) != NUM_ACTIONS:
        raise ValueError(
            f"{p} was trained on observations of shape {shape} and {model.action_space}; the ppo agent "
            f"needs the vector observation ({VECTOR_SIZE},) and Discrete({NUM_ACTIONS})"
        )
    model.policy.set_training_mode(False)
    return model


def export_policy(policy: Any, *, rules: str = "standard", source: str = "") -> MLPPolicy:
    """The numpy copy of an SB3 ``MaskableActorCriticPolicy`` with an MLP extractor.

    Refuses what the numpy forward pass would not reproduce: image normalisation, a features
    extractor other than flattening, layers other than Linear and the policy's activation."""
    import torch
    from stable_baselines3.common.torch_layers import FlattenExtractor

    names = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}
    activation = names.get(policy.activation_fn)
    if activation is None:
        raise ValueError(f"activation {policy.activation_fn!r} is not one of {sorted(names.values())}")
    extractors = [policy.features_extractor, getattr(policy, "pi_features_extractor", None)]
    if not all(e is None or isinstance(e, FlattenExtractor) for e in extractors):
        raise ValueError(f"features extractor {type(policy.features_extractor).__name__} is not FlattenExtractor")

    def layers(body: torch.nn.Sequential, head: torch.nn.Linear) -> tuple:
        out = []
        for m in body:
            if isinstance(m, torch.nn.Linear):
                out.append(m)
            elif not isinstance(m, policy.activation_fn):
                raise ValueError(f"layer {m!r} is neither Linear nor the policy's activation")
        out.append(head)
        return linear_layers(out)

    mlp = policy.mlp_extractor
    return vector_policy(
        layers(mlp.policy_net, policy.action_net),
        layers(mlp.value_net, policy.value_net),
        activation=activation,
        rules=rules,
        source=source,
    )


def main(argv: Sequence[str] | None = None) -> Path:
    """``python -m sixtysix_env.agents.ppo_export model.zip``: write the weights as .npz; returns the path."""
    ap = argparse.ArgumentParser(
        prog="python -m sixtysix_env.agents.ppo_export",
        description=__doc__.split("\n\n")[0],
        epilog="The zip is unpickled: convert only files you trust.",
    )
    ap.add_argument("model", help="a MaskablePPO .zip (baselines/train_ppo.py writes one)")
    ap.add_argument("--out", default="", help="the .npz to write (default: next to the zip, same name)")
    add_rules(ap, help="the rules preset the model was trained on (recorded; default standard)")
    args = ap.parse_args(argv)
    src = Path(args.model)
    if src.suffix != ".zip":
        ap.error(f"model {args.model!r} is not a .zip file")
    out = Path(args.out) if args.out else src.with_suffix(".npz")
    if out.suffix != ".npz":
        ap.error(f"--out {args.out!r} must end in .npz")
    try:
        model = load_sb3_model(src)
    except (FileNotFoundError, ValueError, ImportError) as e:
        ap.error(str(e))
    policy = export_policy(model.policy, rules=args.rules, source=src.name)
    policy.save(out)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB) from {src}")
    return out


if __name__ == "__main__":
    main()
