"""``Rules`` as a static, hashable parameter tuple for the JAX engine.

The JAX engine reads the same rule fields as the numba engine (``fast.state.encode_rules``), so
the same rule sets are supported and the same ``UnsupportedRuleError`` is raised for any other.
The parameters are plain Python ints, not arrays: every rule is a trace-time constant, so ``jit``
compiles one specialised program per rule set and no rule costs a runtime branch.
"""

from __future__ import annotations

from typing import NamedTuple

from ..fast.state import PARAM_INDEX, UnsupportedRuleError, encode_rules
from ..rules import Rules

__all__ = ["Params", "make_params", "UnsupportedRuleError"]


class Params(NamedTuple):
    """The rules vector of ``fast.state.encode_rules`` as named Python ints (hashable: a static jit argument)."""

    deck_size: int
    deck_mask: int
    hand_size: int
    stock_size: int
    exchange_rank: int
    exchange_requires: int
    exchange_timing: int
    exchange_at_closing: int
    closing: int
    closing_min_stock: int
    close_before_drawing: int
    marriages_after_stock: int
    marriage_on_first_lead: int
    marriage_counts: int
    marriage_lead: int
    last_trick_bonus: int
    played_out_winner: int
    must_win_trick: int
    schwarz: int
    closer_win: int
    closer_fail: int
    failed_close_six: int
    match_target: int
    claiming: int


assert tuple(n.upper() for n in Params._fields) == tuple(PARAM_INDEX), "fast.state._PARAMS changed: update Params"


def make_params(rules: str | Rules | Params | None = "standard") -> Params:
    """The static parameters of a preset name or ``Rules`` (a ``Params`` passes through).

    Raises ``UnsupportedRuleError`` (a ``ValueError``) for a rule the batched engines do not
    implement, and ``ValueError`` for an unknown preset name (from ``rules.get_rules``)."""
    if isinstance(rules, Params):
        return rules
    vector = encode_rules(rules)
    return Params(*(int(v) for v in vector))
