"""Rules as data for the three- and four-player games (docs/RULES.md 5.1 and 5.2).

These are different games from the two-player one (no stock, every player bound to follow from
the first trick), so they have their own dataclasses; field docstrings cite the sources as
``sixtysix_env.rules`` does (``pagat :308`` is line 308 of ru-translated-pages.txt).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from ..rules import check_name, parse_rules_text, rules_text, settled_name

__all__ = [
    "ThreeRules",
    "FourRules",
    "THREE_PRESETS",
    "FOUR_PRESETS",
    "get_three_rules",
    "get_four_rules",
    "THREE_NOTES",
    "FOUR_NOTES",
]

ThreeTrump = Literal["choose", "dealer_last"]
FourTrump = Literal["dealer_bottom", "choose"]
Claiming = Literal["auto", "explicit"]


def _check(obj: object) -> None:
    """Type checks shared by both dataclasses: clear errors instead of odd play."""
    check_name(obj)
    for f in dataclasses.fields(obj):  # type: ignore[arg-type]
        value = getattr(obj, f.name)
        if f.type == "bool" and not isinstance(value, bool):
            raise ValueError(f"{type(obj).__name__}.{f.name}={value!r} is not allowed: use True or False")
        if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"{type(obj).__name__}.{f.name}={value!r} is not allowed: use an int")
        if f.type == "int" and value < 0:
            raise ValueError(f"{type(obj).__name__}.{f.name}={value!r} is not allowed: use 0 or more")


@dataclass(frozen=True)
class ThreeRules:
    """Three players, 8 cards each, no stock; settled in stakes after all 8 tricks (docs/RULES.md 5.1)."""

    name: str = "pagat"
    """Preset name, or a label for a custom rule set."""

    trump: ThreeTrump = "choose"
    """'choose': the player left of the dealer sees his first 3 cards and names trump (actions
    32-35) or passes (36), and the first card of his second packet is turned for trump (pagat
    :308). 'dealer_last': the dealer's last card is turned (Марьяж втроём, ru-old-and-marriage
    :101). Either way the turned card stays in its holder's hand, in sight of all."""

    must_beat: bool = True
    """Follow suit and beat the best card so far if able; void, trump and over-trump a trump in the
    trick if able (pagat :308 'побить самую старшую карту'). When off: follow suit, else trump
    (Марьяж втроём, ru-old-and-marriage :101). A player who cannot over-trump still plays a trump."""

    last_trick_bonus: int = 10
    """Points for the last trick; not stated by the sources, as in the two-player game."""

    match_deals: int = 6
    """A match is this many deals (the deal passes to the left, so 6 gives everyone two); 0 for no
    limit. Not stated by the sources."""

    match_target: int = 0
    """The match also ends once a player's stake balance reaches this many; 0 for no target."""

    def __post_init__(self) -> None:
        _check(self)
        if self.trump not in ("choose", "dealer_last"):
            raise ValueError(f"ThreeRules.trump={self.trump!r} is not allowed: choose one of choose, dealer_last")
        if not self.match_deals and not self.match_target:
            raise ValueError("ThreeRules: a match needs match_deals > 0 or match_target > 0 (or both)")
        object.__setattr__(self, "name", settled_name(self, globals().get("THREE_PRESETS")))

    def replace(self, **changes: object) -> ThreeRules:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def notation(self) -> str:
        """Text that :func:`get_three_rules` reads back to exactly these rules (as ``Rules.notation``)."""
        return rules_text(self, THREE_PRESETS)


@dataclass(frozen=True)
class FourRules:
    """Four players in fixed partnerships (0 and 2 against 1 and 3), 6 cards each, no stock; the
    first team to 66 goes out and scores 1/2/3 game points as in the two-player game (docs/RULES.md 5.2)."""

    name: str = "pagat"
    """Preset name, or a label for a custom rule set."""

    trump: FourTrump = "dealer_bottom"
    """'dealer_bottom': the bottom card of the deck is the dealer's and sets trump (pagat :310).
    'choose': the player left of the dealer names trump after his first 3 cards (32-35) or passes
    (36) and his last card is turned (the Russian version, ru-old-and-marriage :104)."""

    must_beat: bool = True
    """As with three players: follow and beat the best card so far, else follow, else trump and
    over-trump, else any card (pagat :310 'такие же, как в игре с тремя'). When off: follow suit,
    else trump (the Russian version, ru-old-and-marriage :171-173)."""

    partner_marriages: bool = True
    """When a player leads, his partner may then declare a marriage too, only showing it (pagat
    :310). Each suit's marriage counts once a deal."""

    last_trick_bonus: int = 10
    """Points for the last trick (as in the two-player game). A deal played out without a team
    going out gives 1 game point to the team that took the last trick (ru-old-and-marriage :180)."""

    claiming: Claiming = "auto"
    """'auto': a team reaching 66 after a trick or a marriage goes out at once. 'explicit': going
    out is an action (31) of the player who just won the trick or declared; fewer than 66 gives
    the other team 2 game points (as pagat :253-256 for two players)."""

    match_target: int = 7
    """Team game points that win the match (as in the two-player game)."""

    def __post_init__(self) -> None:
        _check(self)
        if self.trump not in ("dealer_bottom", "choose"):
            raise ValueError(f"FourRules.trump={self.trump!r} is not allowed: choose one of dealer_bottom, choose")
        if self.claiming not in ("auto", "explicit"):
            raise ValueError(f"FourRules.claiming={self.claiming!r} is not allowed: choose one of auto, explicit")
        if self.match_target < 1:
            raise ValueError(f"FourRules.match_target={self.match_target} must be at least 1")
        object.__setattr__(self, "name", settled_name(self, globals().get("FOUR_PRESETS")))

    def replace(self, **changes: object) -> FourRules:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def notation(self) -> str:
        """Text that :func:`get_four_rules` reads back to exactly these rules (as ``Rules.notation``)."""
        return rules_text(self, FOUR_PRESETS)


THREE_PRESETS: dict[str, ThreeRules] = {
    "pagat": ThreeRules(),
    "marriage": ThreeRules(name="marriage", trump="dealer_last", must_beat=False),
}
FOUR_PRESETS: dict[str, FourRules] = {
    "pagat": FourRules(),
    "russian": FourRules(name="russian", trump="choose", must_beat=False),
}

THREE_NOTES: tuple[str, ...] = (
    "Marriages: one per lead, 20 or 40, leading its K or Q; they count once the declarer has a trick "
    "(as in the two-player game; not stated by the sources).",
    "The player with the most counted points wins; a tie for the most is a drawn deal in which nobody pays "
    "(not stated by the sources). The winner always has 33 or more: 130 points are shared by three.",
    "Presets: `pagat` is docs/RULES.md 5.1 (pagat :308); `marriage` is Марьяж втроём (ru-old-and-marriage :101).",
    "The deal passes to the left after every deal (not stated by the sources).",
)
FOUR_NOTES: tuple[str, ...] = (
    "Marriages count for the team once it has a trick (as in the two-player game; not stated by the sources).",
    "The partner is asked about a marriage whenever public facts leave one possible for him, so that being "
    "asked reveals nothing about his hand; otherwise play goes on without the question.",
    "Presets: `pagat` is docs/RULES.md 5.2 (pagat :310); `russian` takes the trump choice and the obligations of the "
    "Russian version (ru-old-and-marriage :104-182). Its redeal rules and contracts ('три девятки', 'на пять', "
    "'на шесть', 'на шубу', 'на костюм') are not implemented.",
    "The deal passes to the left after every deal (not stated by the sources).",
)


def get_three_rules(rules: str | ThreeRules | None = None) -> ThreeRules:
    """A three-player preset by name (``None``: pagat), or a ``ThreeRules`` passed through."""
    if rules is None:
        return THREE_PRESETS["pagat"]
    if isinstance(rules, ThreeRules):
        return rules
    if isinstance(rules, str):
        return parse_rules_text(rules, THREE_PRESETS, "three-player rules")
    raise ValueError(f"unknown three-player rules {rules!r}: choose {', '.join(THREE_PRESETS)} or pass ThreeRules")


def get_four_rules(rules: str | FourRules | None = None) -> FourRules:
    """A four-player preset by name (``None``: pagat), or a ``FourRules`` passed through."""
    if rules is None:
        return FOUR_PRESETS["pagat"]
    if isinstance(rules, FourRules):
        return rules
    if isinstance(rules, str):
        return parse_rules_text(rules, FOUR_PRESETS, "four-player rules")
    raise ValueError(f"unknown four-player rules {rules!r}: choose {', '.join(FOUR_PRESETS)} or pass FourRules")
