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

A file is checked before any array is read: each member's declared size and shape against
``MAX_FILE_BYTES`` and ``MAX_ARRAY_ELEMENTS`` (a crafted header or a zip bomb is refused, never
allocated or inflated), then every weight against ``MAX_WEIGHT`` (finite but absurd magnitudes
would overflow the logits). An agent built on a policy masks illegal actions before choosing
and refuses non-finite logits, so no weights make it answer an illegal action.

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

__all__ = [
    "ACTIVATIONS",
    "FORMAT",
    "VERSION",
    "MLPPolicy",
    "MAX_WEIGHT",
    "MAX_ARRAY_ELEMENTS",
    "MAX_FILE_BYTES",
    "MAX_MEMBERS",
    "average_policies",
    "linear_layers",
    "vector_policy",
]

FORMAT = "sixtysix-mlp"
"""The ``format`` tag of an MLP weights file (.npz), checked on loading."""
VERSION = 1
"""The weights file format version this module reads and writes."""
ACTIVATIONS = ("tanh", "relu")
"""The hidden-layer activations a weights file may name."""
MAX_WEIGHT = 1e4
"""The largest absolute weight or bias a file may hold (trained networks stay below 10)."""
MAX_ARRAY_ELEMENTS = 1 << 22
"""The most numbers one array may declare (the shipped networks' largest has 65,536)."""
MAX_FILE_BYTES = 64 << 20
"""The most bytes a file's arrays may take once inflated (the shipped ones take 1 MB)."""
_META_KEYS = ("activation", "observation", "observation_size", "num_actions", "normalization")

Layers = tuple[tuple[np.ndarray, np.ndarray], ...]


def linear_layers(modules: Any) -> Layers:
    """``(weight, bias)`` float32 copies of torch ``Linear`` modules, in order (duck-typed: no torch
    import here)."""
    return tuple(
        (m.weight.detach().cpu().numpy().astype(np.float32), m.bias.detach().cpu().numpy().astype(np.float32))
        for m in modules
    )


def vector_policy(policy: Layers, value: Layers, *, activation: str, rules: str, source: str) -> MLPPolicy:
    """A policy reading the 235-float vector observation as it is, what every trainer here exports
    (SB3's MlpPolicy, ``train_fast.py``, the CleanRL-style example)."""
    from ..actions import NUM_ACTIONS
    from ..observers import VECTOR_SIZE

    meta = {
        "activation": activation,
        "observation": "vector",
        "observation_size": VECTOR_SIZE,
        "num_actions": NUM_ACTIONS,
        "normalization": "none",  # Box observations reach the networks as plain floats
        "rules": rules,
        "source": source,
    }
    return MLPPolicy(policy, value, meta)


def _average_layers(stacks: list[Layers]) -> Layers:
    """One network whose output is the mean of the ``stacks``' outputs: the first layers stacked
    (their hidden units side by side), the middle ones block-diagonal, the last ones side by side
    and scaled by 1/n. Exact, as each member's units see only their own inputs."""
    n = len(stacks)
    depth = len(stacks[0])
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for i in range(depth):
        ws = [s[i][0].astype(np.float32) for s in stacks]
        bs = [s[i][1].astype(np.float32) for s in stacks]
        if i == depth - 1:
            w = np.concatenate([x / n for x in ws], axis=1) if depth > 1 else sum(ws) / n
            b = sum(bs) / n
        elif i == 0:
            w, b = np.concatenate(ws, axis=0), np.concatenate(bs)
        else:
            w = np.zeros((sum(x.shape[0] for x in ws), sum(x.shape[1] for x in ws)), dtype=np.float32)
            r = c = 0
            for x in ws:
                w[r : r + x.shape[0], c : c + x.shape[1]] = x
                r, c = r + x.shape[0], c + x.shape[1]
            b = np.concatenate(bs)
        out.append((np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)))
    return tuple(out)


def average_policies(policies: list[MLPPolicy], *, source: str) -> MLPPolicy:
    """An ensemble written as one wider network: its logits (and value) are the mean of the
    members', so it plays the argmax of their summed log-probabilities. Being one plain MLP, it
    runs wherever a single network does (the batched opponents, the variance reduction's playouts)."""
    if len(policies) < 2:
        raise ValueError(f"averaging needs at least 2 networks, got {len(policies)}")
    first = policies[0]
    for k, p in enumerate(policies[1:], start=1):
        for key in ("activation", "observation", "observation_size", "num_actions"):
            if p.meta[key] != first.meta[key]:
                raise ValueError(
                    f"network {k} has {key}={p.meta[key]!r}, network 0 {first.meta[key]!r}: they cannot be averaged"
                )
        if len(p.policy) != len(first.policy) or len(p.value) != len(first.value):
            raise ValueError(f"network {k} has a different number of layers than network 0: they cannot be averaged")
    rules = sorted({str(p.meta.get("rules", "unknown")) for p in policies})
    meta = {key: first.meta[key] for key in _META_KEYS}
    meta.update(rules="+".join(rules), source=source)
    return MLPPolicy(_average_layers([p.policy for p in policies]), _average_layers([p.value for p in policies]), meta)


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def _forward(layers: Layers, x: np.ndarray, activation: str) -> np.ndarray:
    """The network on one observation (size,) or a batch of rows (k, size): matmul, so a batch
    runs on BLAS (einsum without ``optimize`` loops in C: about 5x slower on 256 rows)."""
    act = np.tanh if activation == "tanh" else _relu
    last = len(layers) - 1
    for i, (w, b) in enumerate(layers):
        x = x @ w.T + b
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
                big = max(float(np.abs(w).max(initial=0.0)), float(np.abs(b).max(initial=0.0)))
                if big > MAX_WEIGHT:
                    raise ValueError(
                        f"{name} layer {i} holds a weight of magnitude {big:.3g}: at most {MAX_WEIGHT:g} is allowed"
                    )
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

    def batch_logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits (k, ``num_actions``) for k observations (k, size) at once: the batched
        engine's network opponents (``sixtysix_env.envs.vector_opponents``)."""
        return _forward(self.policy, np.asarray(obs, dtype=np.float32), self.activation)

    def predict_value(self, obs: np.ndarray) -> float:
        """The value network's estimate for one observation."""
        return float(_forward(self.value, np.asarray(obs, dtype=np.float32), self.activation)[0])

    def probabilities(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Softmax of the logits over the ``legal`` actions (bool array); 0 elsewhere. Non-finite
        logits of a legal action are refused (``ValueError``): no probability is made up from them."""
        legal = np.asarray(legal, dtype=bool)
        if not legal.any():
            raise ValueError("no legal action to give a probability to")
        logits = self.logits(obs).astype(np.float64)
        if not np.isfinite(logits[legal]).all():
            raise ValueError(
                f"the policy's logits for the legal actions {np.flatnonzero(legal).tolist()} are not all finite "
                f"({logits[legal].tolist()}): the weights are unusable"
            )
        z = np.where(legal, logits, -np.inf)
        e = np.exp(z - z.max())
        return np.where(legal, e / e.sum(), 0.0)

    # ------------------------------------------------------------------ files
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the ``.npz`` (compressed float32 weights, JSON metadata)."""
        p = Path(path)
        if p.suffix != ".npz":
            raise ValueError(f"policy weights go to a .npz file, got {str(p)!r}")
        meta = json.dumps({"format": FORMAT, "version": VERSION, **self.meta})
        arrays: dict[str, Any] = {"meta": np.array(meta)}  # Any: savez's stub types a key allow_pickle
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
        if not p.exists():
            raise FileNotFoundError(f"no policy weights at {p}")
        if not p.is_file():  # never opened: a FIFO would block the reader
            raise ValueError(f"{p} is not a policy weights file: it is a folder, FIFO or device, not a .npz file")
        try:
            _check_members(p)
            _check_sizes(p)
            with np.load(p, allow_pickle=False) as f:
                data = {k: f[k] for k in f.files}
        except (ValueError, OSError, zipfile.BadZipFile, EOFError, MemoryError) as e:
            raise ValueError(f"{p} is not a policy weights file (.npz of plain arrays): {e}") from None
        if "meta" not in data or data["meta"].dtype.kind != "U" or data["meta"].ndim != 0:
            raise ValueError(f"{p} has no 'meta' text array: not a {FORMAT} file")
        try:
            meta = json.loads(str(data.pop("meta")), parse_int=_meta_int)
        except RecursionError:
            raise ValueError(f"{p}: 'meta' is JSON nested too deeply to be metadata") from None
        except ValueError as e:  # JSONDecodeError, or a number no metadata holds
            raise ValueError(f"{p}: 'meta' is not metadata JSON: {str(e)[:200]}") from None
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


MAX_META_DIGITS = 40
"""Longest integer the ``meta`` JSON may hold (sizes and counts have a few digits)."""
MAX_MEMBERS = 64
"""The most arrays a weights file may hold (a network of 30 layers has 61 with its ``meta``)."""
_MAX_DIRECTORY_BYTES = MAX_MEMBERS * 512
"""The largest zip directory those members can need (names are short)."""


def _meta_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_META_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-')):,} digits (at most {MAX_META_DIGITS})")
    return int(text)


def _check_members(path: Path) -> None:
    """Refuse a zip that declares more than ``MAX_MEMBERS`` members, or a directory larger than
    they need, from its end record alone (a few bytes): the directory itself is never parsed then."""
    with path.open("rb") as f:
        size = f.seek(0, os.SEEK_END)
        tail_size = min(size, 22 + 0xFFFF + 20)  # the end record, its longest comment, a zip64 locator
        f.seek(size - tail_size)
        tail = f.read(tail_size)
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < 22:
            raise ValueError("it is not a zip archive (no end of central directory)")
        count = int.from_bytes(tail[at + 10 : at + 12], "little")
        directory = int.from_bytes(tail[at + 12 : at + 16], "little")
        if (count == 0xFFFF or directory == 0xFFFFFFFF) and at >= 20 and tail[at - 20 : at - 16] == b"PK\x06\x07":
            f.seek(int.from_bytes(tail[at - 12 : at - 4], "little"))  # the zip64 end record
            record = f.read(56)
            if record[:4] == b"PK\x06\x06" and len(record) == 56:
                count = int.from_bytes(record[32:40], "little")
                directory = int.from_bytes(record[40:48], "little")
    if count > MAX_MEMBERS:
        raise ValueError(f"it holds {count:,} members: a weights file has at most {MAX_MEMBERS}")
    if directory > _MAX_DIRECTORY_BYTES:
        raise ValueError(
            f"its zip directory takes {directory:,} bytes: a weights file needs at most {_MAX_DIRECTORY_BYTES:,}"
        )


def _check_sizes(path: Path) -> None:
    """Refuse a file whose members declare more than the limits, reading only the zip directory
    and each array's header: nothing is allocated or inflated for a crafted size."""
    with zipfile.ZipFile(path) as z:
        members = z.infolist()
        total = sum(m.file_size for m in members)
        if total > MAX_FILE_BYTES:
            raise ValueError(
                f"its arrays would take {total:,} bytes once inflated: at most {MAX_FILE_BYTES:,} are allowed"
            )
        for m in members:
            with z.open(m) as f:
                version = np.lib.format.read_magic(f)
                if version == (1, 0):
                    shape, _, dtype = np.lib.format.read_array_header_1_0(f, max_header_size=10_000)
                else:
                    shape, _, dtype = np.lib.format.read_array_header_2_0(f, max_header_size=10_000)
            count = 1
            for k in shape:
                count *= int(k)
            if count > MAX_ARRAY_ELEMENTS:
                raise ValueError(
                    f"member {m.filename!r} declares shape {shape} ({count:,} numbers): at most "
                    f"{MAX_ARRAY_ELEMENTS:,} are allowed per array"
                )
            if count * dtype.itemsize > m.file_size:
                raise ValueError(f"member {m.filename!r} declares shape {shape} but holds only {m.file_size:,} bytes")
