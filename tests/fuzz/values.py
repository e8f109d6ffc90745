"""What the fuzz suite throws, and how it checks the answer.

``junk`` draws values of every kind an entry point may be handed by mistake: wrong types, NaN
and infinities, huge and negative integers, numpy scalars and 0-d arrays, strings, None,
containers of those, and finished or foreign deals. ``attempt`` runs one call and requires
that it either works or raises a documented exception (``ValueError``, which
``IllegalActionError`` is, or ``TypeError``) and that a rejected call changed nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from sixtysix_env import Deal

__all__ = ["DOCUMENTED", "Rejected", "attempt", "junk", "junk_scalar", "near_actions", "FINISHED", "FOREIGN"]

DOCUMENTED = (ValueError, TypeError)
"""The exceptions a bad argument may raise (``IllegalActionError`` is a ``ValueError``)."""


def _finished() -> Deal:
    d = Deal.new("standard", random.Random(11))
    while d.outcome is None:
        d.apply(d.legal_actions()[-1])
    return d


FINISHED = _finished()
FOREIGN = Deal.new("schnapsen", random.Random(12))

EDGE_INTS = [-(2**63), -(2**31), -256, -5, -1, 0, 1, 2, 3, 23, 24, 31, 32, 36, 37, 255, 256, 2**31, 2**63, 2**64 - 1]

junk_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.sampled_from(EDGE_INTS),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 0.5, 1.0, -0.0]),
    st.text(max_size=6),
    st.sampled_from(["", "0", "1", "QH", "10H", "player_0", "standard", "random", "nan", "-1"]),
    st.binary(max_size=3),
    st.builds(np.int64, st.integers(-(2**63), 2**63 - 1)),
    st.builds(np.uint64, st.integers(0, 2**64 - 1)),
    st.builds(np.int8, st.integers(-128, 127)),
    st.builds(np.float32, st.floats(width=32, allow_nan=True)),
    st.sampled_from([np.True_, np.False_]),
    st.builds(np.array, st.integers(-5, 40)),  # 0-d integer arrays
    st.builds(np.array, st.floats(allow_nan=True)),
    st.builds(lambda x: np.array([x]), st.integers(0, 31)),
    st.sampled_from([object(), FINISHED, FOREIGN, Ellipsis, 1j]),
)
junk = st.recursive(
    junk_scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner, inner),
        st.dictionaries(st.sampled_from(["deal", "hands", "stock", "dealer", "x"]), inner, max_size=3),
    ),
    max_leaves=5,
)
near_actions = st.one_of(st.integers(-6, 40), junk_scalar)
"""Mostly integers around the action ids (so legal ones come up), else anything."""


@dataclass
class Rejected:
    error: Exception


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def attempt(call: Callable[[], Any], snapshot: Callable[[], Any], value: Any = None, *, names: bool = True) -> Any:
    """``call()``'s result, or ``Rejected`` when it raised a documented exception; then the
    ``snapshot`` must be as before, and (with ``names``) the message must name ``value``."""
    before = snapshot()
    try:
        return call()
    except DOCUMENTED as e:
        assert _same(snapshot(), before), f"rejecting {value!r} ({type(e).__name__}: {e}) changed the object"
        if names:
            assert repr(value) in str(e), f"{type(e).__name__} for {value!r} does not name it: {e}"
        return Rejected(e)
