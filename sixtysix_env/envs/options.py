"""Option checks shared by every environment, so each bad option gets the same kind of message."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from ..rules import Rules, get_rules

__all__ = ["check_option", "rules_with_claiming", "CLAIMING", "EPISODES"]

T = TypeVar("T")
CLAIMING = ("auto", "explicit")
EPISODES = ("deal", "match")


def check_option(name: str, value: T, allowed: Iterable[object]) -> T:
    """``value`` if it is one of ``allowed``, else a ``ValueError`` that lists the choices."""
    allowed = tuple(allowed)
    if value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name}={value!r} is not allowed: choose one of {choices}")
    return value


def rules_with_claiming(rules: str | Rules | None, claiming: str | None) -> Rules:
    """The preset (or ``Rules``) with ``claiming`` applied when given; None keeps the rules' own."""
    r = get_rules(rules)
    if claiming is None:
        return r
    return r.replace(claiming=check_option("claiming", claiming, CLAIMING))
