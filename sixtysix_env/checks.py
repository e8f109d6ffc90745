"""Argument checks shared by every entry point, so a bad value always fails the same way.

Each check returns the value in its plain Python form (``int``, ``float``) or raises before
anything changes: a ``TypeError`` for a value of the wrong kind (a float dealer, a string
budget), a ``ValueError`` for a value of the right kind out of range (a dealer of 7, a NaN
reward). Both messages name the argument, the value given and what is allowed. Integers may be
Python ints, numpy integer scalars or 0-d integer arrays (anything ``operator.index`` takes),
never bools: ``True`` as a dealer or a card count is a bug in the caller.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Iterable
from numbers import Real
from operator import index
from typing import Any, TypeVar

_T = TypeVar("_T")

__all__ = [
    "as_index",
    "as_value_error",
    "check_bool",
    "check_choice",
    "check_int",
    "check_real",
    "cli_float",
    "cli_int",
    "is_choice",
    "parse_float_text",
    "parse_int_text",
]


def as_index(value: object) -> int | None:
    """``value`` as a Python int when it is an integer (not a bool), else None."""
    if isinstance(value, bool):
        return None
    try:
        return index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _range_text(lo: int | float | None, hi: int | float | None) -> str:
    if lo is not None and hi is not None:
        return f" in {lo}..{hi}"
    if lo is not None:
        return f" of {lo} or more"
    return f" of {hi} or less" if hi is not None else ""


def check_int(name: str, value: object, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int in ``lo..hi`` (inclusive; None: unbounded)."""
    out = as_index(value)
    if out is None:
        raise TypeError(f"{name}={value!r} is not allowed: use an int{_range_text(lo, hi)}")
    if (lo is not None and out < lo) or (hi is not None and out > hi):
        raise ValueError(f"{name}={value!r} is not allowed: use an int{_range_text(lo, hi)}")
    return out


def check_real(
    name: str, value: object, lo: float | None = None, hi: float | None = None, *, above: bool = False
) -> float:
    """``value`` as a finite float in ``lo..hi`` (``above``: strictly above ``lo``)."""
    number = value
    if isinstance(value, bool) or not isinstance(value, Real):
        if not (hasattr(value, "ndim") and getattr(value, "ndim", 1) == 0 and hasattr(value, "item")):
            raise TypeError(f"{name}={value!r} is not allowed: use a finite number")
        number = value.item()  # type: ignore[attr-defined]  # a 0-d array: hasattr checked above
        if isinstance(number, bool) or not isinstance(number, Real):
            raise TypeError(f"{name}={value!r} is not allowed: use a finite number")
    try:
        out = float(number)  # type: ignore[arg-type]
    except OverflowError:  # an int too large for a float
        out = math.inf
    at_most = f" and at most {hi}" if hi is not None else ""
    bound = f" above {lo}{at_most}" if above else _range_text(lo, hi)
    if not math.isfinite(out):
        raise ValueError(f"{name}={value!r} is not allowed: use a finite number{bound}")
    if (lo is not None and (out <= lo if above else out < lo)) or (hi is not None and out > hi):
        raise ValueError(f"{name}={value!r} is not allowed: use a finite number{bound}")
    return out


def check_bool(name: str, value: object) -> bool:
    """``value`` when it is True or False (a numpy bool too); 1, "yes" or None are refused."""
    if isinstance(value, bool) or (type(value).__module__ == "numpy" and type(value).__name__ == "bool"):
        return bool(value)
    raise TypeError(f"{name}={value!r} is not allowed: use True or False")


def is_choice(value: object, choice: object) -> bool:
    """``value`` is ``choice``: equal, and no bool or float standing in for an int (``1.0 == 1``)."""
    try:
        if not bool(value == choice):
            return False
    except (TypeError, ValueError):  # an array compares element-wise
        return False
    if isinstance(value, bool) != isinstance(choice, bool):
        return False
    if isinstance(choice, bool):
        return True
    return not isinstance(choice, int) or as_index(value) is not None


def check_choice(name: str, value: object, allowed: Iterable[object]) -> object:
    """``value`` if it is one of ``allowed`` (see :func:`is_choice`), else a ``ValueError`` listing them."""
    allowed = tuple(allowed)
    if not any(is_choice(value, a) for a in allowed):
        raise ValueError(f"{name}={value!r} is not allowed: choose one of {', '.join(repr(a) for a in allowed)}")
    return value


def as_value_error(check: Callable[..., _T], *args: Any, what: str = "", **kwargs: Any) -> _T:
    """``check(*args, **kwargs)`` with a value of the wrong type refused by a ``ValueError`` too (the
    same message, after ``what: `` when given): for the entry points that have always raised
    ``ValueError`` for every bad option (``run_arena``, ``run_tournament``), whose callers catch it."""
    try:
        return check(*args, **kwargs)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: {e}" if what else str(e)) from None


# Text from outside (rules text, agent options, command lines) is read as a number only when it is
# written in ASCII digits: Python's int() and float() also take "١٢", "1_000" and " 7 ", which no user
# means as a number and which made one spelling name two values.
_INT_TEXT = re.compile(r"[+-]?[0-9]+")
_FLOAT_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
MAX_INT_DIGITS = 18  # longer digit strings are refused before they are converted (no 5,000-digit ints)


def parse_int_text(text: str) -> int | None:
    """``text`` as an int when it is ASCII digits with an optional sign (at most 18 digits), else None."""
    if not isinstance(text, str) or _INT_TEXT.fullmatch(text) is None:
        return None
    if len(text.lstrip("+-")) > MAX_INT_DIGITS:
        return None
    return int(text)


def parse_float_text(text: str) -> float | None:
    """``text`` as a finite float when it is an ASCII decimal number (``0.5``, ``1e-3``), else None."""
    if not isinstance(text, str) or len(text) > 64 or _FLOAT_TEXT.fullmatch(text) is None:
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def cli_int(text: str) -> int:
    """An ``argparse`` type: an int written in ASCII digits, with a message saying so."""
    value = parse_int_text(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: write it in digits 0-9 (at most 18)")
    return value


def cli_float(text: str) -> float:
    """An ``argparse`` type: a finite number written in ASCII (``0.5``, ``1e-3``)."""
    value = parse_float_text(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number: write it in digits 0-9, like 0.5 or 1e-3")
    return value
