"""Option checks shared by every environment, so each bad option gets the same kind of message."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from ..checks import check_choice, check_int, check_real
from ..rules import Rules, get_rules

__all__ = [
    "check_agent",
    "check_option",
    "check_real",
    "check_seed",
    "deal_spec",
    "carry_over_option",
    "given_deal",
    "rules_with_claiming",
    "CLAIMING",
    "EPISODES",
]

T = TypeVar("T")
CLAIMING = ("auto", "explicit")
"""The values of the ``claiming`` option."""
EPISODES = ("deal", "match")
"""The values of the ``episode`` option: one deal, or a match."""


def check_option(name: str, value: T, allowed: Iterable[object]) -> T:
    """``value`` if it is one of ``allowed``, else a ``ValueError`` that lists the choices."""
    check_choice(name, value, allowed)
    return value


def rules_with_claiming(rules: str | Rules | None, claiming: str | None) -> Rules:
    """The preset (or ``Rules``) with ``claiming`` applied when given; None keeps the rules' own."""
    r = get_rules(rules)
    if claiming is None:
        return r
    return r.replace(claiming=check_option("claiming", claiming, CLAIMING))


def check_agent(agent: object, possible_agents: list[str]) -> int:
    """The seat of ``agent`` (an agent name of this env), else a ``ValueError`` naming them."""
    if isinstance(agent, str) and agent in possible_agents:
        return possible_agents.index(agent)
    raise ValueError(f"agent={agent!r} is not allowed: choose one of {', '.join(possible_agents)}")


def check_seed(seed: object) -> int | None:
    """A reset seed: None or an int of 0 or more (numpy's seeding takes nothing else)."""
    return None if seed is None else check_int("seed", seed, 0)


def deal_spec(options: object) -> Any:
    """``options["deal"]`` (None when not given). Other keys are ignored, as PettingZoo's
    ``api_test`` requires of every env."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise ValueError(f"options={options!r} is not allowed: give None or a dict such as {{'deal': ...}}")
    return options.get("deal")


def carry_over_option(options: object) -> bool:
    """``options["carry_over"]`` (False when not given): True starts the next match from the
    points the finished one carries over (docs/carry-over.md)."""
    if options is None:
        return False
    value = options.get("carry_over", False)  # type: ignore[attr-defined]
    if not isinstance(value, bool):
        raise ValueError(f"options['carry_over']={value!r} is not allowed: use True or False")
    return value


def given_deal(deal: Any, rules: object) -> Any:
    """A copy of a deal passed as ``options["deal"]``: it must be running and of the env's rules.
    The env plays on the copy, so the caller's object never changes."""
    if deal.outcome is not None:
        raise ValueError(f"options['deal'] is a finished deal ({deal.outcome}): give a deal still in play")
    if deal.rules != rules:
        raise ValueError(
            f"options['deal'] is a deal of the rules {deal.rules.name!r}, this env plays {rules.name!r}: "  # type: ignore[attr-defined]
            "build it with the env's rules (env.rules)"
        )
    return deal.clone()
