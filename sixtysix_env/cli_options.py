"""The options every command line shares (``--rules``, ``--seed``, ``--workers``, ``--deals``,
``--records``, ``--out``) and the argparse number types, defined once so that each command spells,
defaults and refuses them the same way.

A bad value stops the parse itself (exit status 2, before anything is loaded or played), with a
message naming the option, the value and what is allowed. Numbers go through :mod:`.checks`
(``cli_int``, ``cli_float``: ASCII digits only, no ``"1_000"`` or ``"١٢"``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .checks import cli_float, cli_int
from .rules import PRESETS, get_rules

__all__ = [
    "AtLeast",
    "add_count",
    "add_deals",
    "add_out",
    "add_records",
    "add_rules",
    "add_seed",
    "add_workers",
    "non_negative_float",
    "positive_float",
    "positive_int",
    "rules_choice",
    "unit_float",
]


# ---------------------------------------------------------------------- number types
def positive_int(text: str) -> int:
    """An ``argparse`` type: a whole number of at least 1, in ASCII digits."""
    value = cli_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_float(text: str) -> float:
    """An ``argparse`` type: a finite number >= 0, in ASCII digits."""
    value = cli_float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """An ``argparse`` type: a finite number > 0, in ASCII digits."""
    value = cli_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text!r}")
    return value


def unit_float(text: str) -> float:
    """An ``argparse`` type: a finite number from 0 to 1 (a share, a probability, a discount)."""
    value = cli_float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {text!r}")
    return value


class AtLeast(argparse.Action):
    """Stores a number read by the option's ``type``, or stops the parse with
    ``--name must be at least N, got V``: unlike a ``type``, an action knows the option's name, so
    the message says which option is wrong in the words the commands have always used."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, at_least: int = 1, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.at_least = at_least

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if values < self.at_least:
            parser.error(f"{option_string or self.dest} must be at least {self.at_least}, got {values}")
        setattr(namespace, self.dest, values)


def add_count(
    parser: argparse.ArgumentParser, flag: str, *, default: int | None, help: str, at_least: int = 1
) -> argparse.Action:
    """A whole-number option of at least ``at_least`` (``--workers``, ``--deals``, ``--games``)."""
    return parser.add_argument(flag, type=cli_int, action=AtLeast, at_least=at_least, default=default, help=help)


def add_workers(
    parser: argparse.ArgumentParser,
    *,
    default: int = 1,
    help: str = "worker processes (the results do not depend on it)",
) -> argparse.Action:
    """``--workers N``: processes playing at once, at least 1."""
    return add_count(parser, "--workers", default=default, help=help)


def add_deals(parser: argparse.ArgumentParser, *, default: int, help: str, at_least: int = 1) -> argparse.Action:
    """``--deals N``: how many deals, at least ``at_least`` (1 unless a command takes 0)."""
    return add_count(parser, "--deals", default=default, help=help, at_least=at_least)


# ---------------------------------------------------------------------- seed, rules, folders
def add_seed(
    parser: argparse.ArgumentParser, *, default: int | None = 0, help: str = "seed for the deals and the agents' RNGs"
) -> argparse.Action:
    """``--seed N``: any whole number in ASCII digits (None as the default: a new one each run)."""
    return parser.add_argument("--seed", type=cli_int, default=default, help=help)


NOTATION = "preset(field=value, ...)"
"""How a command that takes rules notation (``get_rules``) writes a derived preset."""


def rules_choice(presets: Iterable[str], *, notation: bool = False) -> Callable[[str], str]:
    """An ``argparse`` type: one of ``presets`` (the text itself is kept), or with ``notation`` any
    rules :func:`~sixtysix_env.rules.get_rules` reads (``standard(must_win_trick=False)``)."""
    names = list(dict.fromkeys(presets))
    allowed = ", ".join(names) + (f", or write {NOTATION}" if notation else "")

    def parse(text: str) -> str:
        if text in names:
            return text
        if notation:
            try:
                get_rules(text)
            except ValueError as e:
                if "(" in text:  # a derived preset: say which field is wrong
                    raise argparse.ArgumentTypeError(str(e)) from None
            else:
                return text
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r}: choose one of {allowed}")

    parse.__name__ = "rules"  # argparse names the type in some messages
    return parse


def add_rules(
    parser: argparse.ArgumentParser,
    *,
    default: str | None = "standard",
    presets: Iterable[str] = PRESETS,
    notation: bool = False,
    help: str | None = None,
    metavar: str = "NAME",
) -> argparse.Action:
    """``--rules NAME``: a preset of ``presets`` (two-player by default), refused at parse time
    otherwise with the presets named; ``notation``: rules notation too (see :func:`rules_choice`)."""
    names = list(dict.fromkeys(presets))
    if help is None:
        help = f"rules preset: {', '.join(names)}" + (f", or {NOTATION}" if notation else "")
        help += f" (default {default})" if default is not None else ""
    return parser.add_argument(
        "--rules", type=rules_choice(names, notation=notation), default=default, metavar=metavar, help=help
    )


def add_records(
    parser: argparse.ArgumentParser, *, default: str | None = None, help: str, type: Callable[[str], Any] = str
) -> argparse.Action:
    """``--records DIR``: the folder that game records are written to."""
    return parser.add_argument("--records", type=type, default=default, metavar="DIR", help=help)


def add_out(parser: argparse.ArgumentParser, *, default: str, help: str) -> argparse.Action:
    """``--out DIR``: the folder of a command's tables and files."""
    return parser.add_argument("--out", default=default, help=help)
