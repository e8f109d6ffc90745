"""A policy network as plain numpy arrays, stored in a file that cannot run code.

The file is a numpy ``.npz`` read with ``allow_pickle=False``: only numeric arrays and one text
array (``meta``, JSON) are accepted, so a crafted file can at worst be refused, never execute
anything (an SB3 ``.zip`` unpickles, which can). Layout, version 1:

- ``meta``: JSON text with ``format`` (``"sixtysix-mlp"``), ``version`` (1), ``activation``
  (``"tanh"`` or ``"relu"``), ``observation`` (the encoder, ``"vector"``), ``observation_size``,
  ``num_actions``, ``normalization`` (``"none"``: the network reads the encoder's floats as they
  are), ``rules`` (what it was trained on) and ``source`` (where it came from);
- ``policy_w0, policy_b0, ..., policy_wK, policy_bK``: ``x -> act(W @ x + b)`` for every layer but
  the last, whose output is the action logits (``W`` has shape ``(out, in)``, as in torch);
- ``value_w0, ...`` likewise for the value network (its last layer gives one number).

The forward pass uses ``np.einsum`` (numpy's own loops, not BLAS), so its speed does not depend on
how many BLAS or torch threads the caller allows: on a busy machine, multithreaded BLAS calls on
matrices this small wait for cores instead of computing.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ACTIVATIONS", "FORMAT", "VERSION", "MLPPolicy"]

FORMAT = "sixtysix-mlp"
VERSION = 1
ACTIVATIONS = ("tanh", "relu")
_META_KEYS = ("activation", "observation", "observation_size", "num_actions", "normalization")

Layers = tuple[tuple[np.ndarray, np.ndarray], ...]


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def _forward(layers: Layers, x: np.ndarray, activation: str) -> np.ndarray:
    act = np.tanh if activation == "tanh" else _relu
    last = len(layers) - 1
    for i, (w, b) in enumerate(layers):
        x = np.einsum("ij,j->i", w, x) + b
        if i < last:
            x = act(x)
    return x


@dataclass(frozen=True, eq=False)
class MLPPolicy:
    """Policy and value networks (float32 weights, as stored) and their metadata."""

    policy: Layers
    value: Layers
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key in _META_KEYS:
            if key not in self.meta:
                raise ValueError(f"policy metadata lacks {key!r} (has {sorted(self.meta)})")
        if self.meta["activation"] not in ACTIVATIONS:
            raise ValueError(f"activation {self.meta['activation']!r} is not one of {ACTIVATIONS}")
        if self.meta["normalization"] != "none":
            raise ValueError(f"normalization {self.meta['normalization']!r} is not supported (only 'none')")
        for name, layers, out in (("policy", self.policy, self.meta["num_actions"]), ("value", self.value, 1)):
            if not layers:
                raise ValueError(f"the {name} network has no layers")
            size = self.meta["observation_size"]
            for i, (w, b) in enumerate(layers):
                if w.ndim != 2 or b.shape != (w.shape[0],) or w.shape[1] != size:
                    raise ValueError(f"{name} layer {i}: weight {w.shape} and bias {b.shape} do not take {size} inputs")
                if not (np.isfinite(w).all() and np.isfinite(b).all()):
                    raise ValueError(f"{name} layer {i} holds non-finite numbers")
                size = w.shape[0]
            if size != out:
                raise ValueError(f"the {name} network ends in {size} outputs, expected {out}")

    @property
    def activation(self) -> str:
        return str(self.meta["activation"])

    @property
    def observation_size(self) -> int:
        return int(self.meta["observation_size"])

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits (float32, ``num_actions``) for one observation, computed as SB3 does in float32."""
        return _forward(self.policy, np.asarray(obs, dtype=np.float32), self.activation)

    def predict_value(self, obs: np.ndarray) -> float:
        """The value network's estimate for one observation."""
        return float(_forward(self.value, np.asarray(obs, dtype=np.float32), self.activation)[0])

    def probabilities(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Softmax of the logits over the ``legal`` actions (bool array); 0 elsewhere."""
        if not legal.any():
            raise ValueError("no legal action to give a probability to")
        z = np.where(legal, self.logits(obs).astype(np.float64), -np.inf)
        e = np.exp(z - z.max())
        return e / e.sum()

    # ------------------------------------------------------------------ files
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the ``.npz`` (compressed float32 weights, JSON metadata)."""
        p = Path(path)
        if p.suffix != ".npz":
            raise ValueError(f"policy weights go to a .npz file, got {str(p)!r}")
        meta = json.dumps({"format": FORMAT, "version": VERSION, **self.meta})
        arrays: dict[str, np.ndarray] = {"meta": np.array(meta)}
        for name, layers in (("policy", self.policy), ("value", self.value)):
            for i, (w, b) in enumerate(layers):
                arrays[f"{name}_w{i}"] = w.astype(np.float32)
                arrays[f"{name}_b{i}"] = b.astype(np.float32)
        p.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(p, **arrays)
        return p

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MLPPolicy:
        """Read a ``.npz`` written by :meth:`save`; anything else is a ``ValueError`` naming the file."""
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"no policy weights at {p}")
        try:
            with np.load(p, allow_pickle=False) as f:
                data = {k: f[k] for k in f.files}
        except (ValueError, OSError, zipfile.BadZipFile, EOFError) as e:
            raise ValueError(f"{p} is not a policy weights file (.npz of plain arrays): {e}") from None
        if "meta" not in data or data["meta"].dtype.kind != "U" or data["meta"].ndim != 0:
            raise ValueError(f"{p} has no 'meta' text array: not a {FORMAT} file")
        try:
            meta = json.loads(str(data.pop("meta")))
        except json.JSONDecodeError as e:
            raise ValueError(f"{p}: 'meta' is not JSON: {e}") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("version") != VERSION:
            raise ValueError(f"{p} is not a {FORMAT} version {VERSION} file (meta: {meta!r})")
        networks: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {"policy": [], "value": []}
        for name, layers in networks.items():
            while f"{name}_w{len(layers)}" in data:
                i = len(layers)
                w, b = data.pop(f"{name}_w{i}"), data.pop(f"{name}_b{i}", None)
                if b is None:
                    raise ValueError(f"{p}: {name}_w{i} has no {name}_b{i}")
                if w.dtype != np.float32 or b.dtype != np.float32:
                    raise ValueError(f"{p}: {name} layer {i} is {w.dtype}/{b.dtype}, expected float32")
                layers.append((w, b))
        if data:
            raise ValueError(f"{p}: unexpected arrays {sorted(data)}")
        meta = {k: v for k, v in meta.items() if k not in ("format", "version")}
        try:
            return cls(tuple(networks["policy"]), tuple(networks["value"]), meta)
        except ValueError as e:
            raise ValueError(f"{p}: {e}") from None
