"""Rules as data for the three- and four-player games (docs/RULES.md 5.1 and 5.2).

These are different games from the two-player one (no stock, every player bound to follow from
the first trick), so they have their own dataclasses; field docstrings cite the sources as
``sixtysix_env.rules`` does (``pagat :308`` is line 308 of ru-translated-pages.txt).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from ..cards import SUIT_MASK
from ..checks import MAX_INT_DIGITS
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
    "pair_lacks_trumps",
]

ThreeTrump = Literal["choose", "dealer_last"]
FourTrump = Literal["dealer_bottom", "choose"]
Claiming = Literal["auto", "explicit"]
CarryOver = Literal["none", "contracts", "all"]


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
        if f.type == "int" and value >= 10**MAX_INT_DIGITS:  # the notation reads back at most that many digits
            raise ValueError(
                f"{type(obj).__name__}.{f.name}={value!r} is not allowed: use at most {10**MAX_INT_DIGITS - 1}"
            )


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
    """Team game points that win the match (as in the two-player game; 8 in the Russian game,
    ru-old-and-marriage :147 'открывает на своей восьмерке')."""

    carry_over: CarryOver = "none"
    """Game points a team wins beyond the match target: 'none', lost; 'contracts', those a
    contract (or three nines) wins start the team's score in the next match (``TableMatch.next_match``;
    ru-old-and-marriage :155-157 says so of contracts); 'all', from any deal."""

    under_33_points: int = 2
    """Game points for going out when the other team has a trick but under 33 (docs/RULES.md 5.3 part 6,
    R: the two-player scale; ru-old-and-marriage :180 literally says 'одно очко', set 1 for that)."""

    cut_nines: int = 0
    """The Russian cut (:104): an opponent of the dealer cuts and the bottom card is shown; a nine
    is cut again, and this many nines in a row end the deal (no cards are played) with
    ``cut_points`` for the dealing team. R: each cut is a fresh uniformly random bottom card, and
    the deck is dealt as it lies after the last cut. 0: no cut."""

    cut_points: int = 1
    """Game points of the dealing team when the cut shows ``cut_nines`` nines in a row (:104)."""

    redeals: bool = False
    """Before any contract each player in turn from the left of the dealer may demand a redeal
    (37) or play on (30) (:105-112): when he holds under ``redeal_under`` card points, or four
    nines, or when he asked his partner about trumps (38, only with at most one trump) and the
    answer says that the pair holds no trump, one trump, or just the trump nine and jack split
    between them. The answer reaches both partners only. R: every player is asked in turn, so that
    being asked reveals nothing; a redeal is dealt again by the same dealer and scores nothing."""

    redeal_under: int = 13
    """Redeal condition (a): a hand with fewer card points than this (:105)."""

    three_nines: bool = False
    """In the bidding round a player with three or four nines may declare three nines (39,
    :114-135): he shows three (with four he holds one back, his choice), each opponent with a
    card of a shown suit commits one of them unseen, the declarer leaves one nine without seeing
    them, and ``nines_points`` go to the opponents if a committed card has the suit of the nine
    left, else to the declarer's team. Then bidding and play go on. R: an opponent without a card
    of the three suits commits nothing."""

    nines_points: int = 3
    """Game points that three nines win (:127-128)."""

    nines_partner_ask: bool = False
    """Toggle (:131-135): a player with two nines may ask his partner for a third (48); if the
    partner has one, the pair declares three nines together (R: the partner shows his lowest-suit
    nine; the asker leaves the nine)."""

    contracts: bool = False
    """A bidding round from the left of the dealer (R: one round, each names a contract above any
    named so far, 40-43, or passes): five < six < fur coat < suit (:136-170). The declarer's
    partner lays his cards down face down and sits out, trumps have no rank, everyone follows suit
    if able (R: else any card), and the declarer leads and must win every trick. Five: the
    declarer and both opponents discard one card face down; five, fur coat and suit need a card
    the opponents could beat (R: a card with a higher card of its suit outside his hand). Won:
    five 5, six 6, fur coat and suit win the match at once (scoring what is left to the target)
    at match stakes ``fur_coat_stake`` and ``suit_stake``; lost: five 5, the others 6 to the
    opponents. A new deal follows."""

    contract_ends_early: bool = True
    """R: a contract ends at the first trick the opponents win; when off it is played out (the
    result is the same, the remaining tricks are played)."""

    fur_coat_stake: int = 2
    """Match stake of a won fur coat (R: 'the match counts double', :158-163)."""

    suit_stake: int = 3
    """Match stake of a won suit (R: triple, :164-166)."""

    marriage_without_leading: bool = False
    """A leader may declare a marriage without leading from it (44-47), which ends the deal at
    once (:183-189): with 66 his team wins as by going out; with fewer the opponents score
    ``false_marriage_points``."""

    false_marriage_points: int = 1
    """Game points of the opponents after a marriage without leading that falls short of 66 (:188-189)."""

    def __post_init__(self) -> None:
        _check(self)
        if self.carry_over not in ("none", "contracts", "all"):
            raise ValueError(
                f"FourRules.carry_over={self.carry_over!r} is not allowed: choose one of none, contracts, all"
            )
        if self.trump not in ("dealer_bottom", "choose"):
            raise ValueError(f"FourRules.trump={self.trump!r} is not allowed: choose one of dealer_bottom, choose")
        if self.claiming not in ("auto", "explicit"):
            raise ValueError(f"FourRules.claiming={self.claiming!r} is not allowed: choose one of auto, explicit")
        if self.match_target < 1:
            raise ValueError(f"FourRules.match_target={self.match_target} must be at least 1")
        if self.cut_nines > 4:
            raise ValueError(f"FourRules.cut_nines={self.cut_nines} must be 0 (no cut) to 4")
        if self.cut_nines and self.cut_points >= self.match_target:
            raise ValueError(
                f"FourRules.cut_points={self.cut_points} must be under match_target={self.match_target}: "
                "a cut may not end a match before anyone plays"
            )
        for stake in ("fur_coat_stake", "suit_stake"):
            if getattr(self, stake) < 1:
                raise ValueError(f"FourRules.{stake}={getattr(self, stake)} is not allowed: it must be at least 1")
        object.__setattr__(self, "name", settled_name(self, globals().get("FOUR_PRESETS")))

    def replace(self, **changes: object) -> FourRules:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def notation(self) -> str:
        """Text that :func:`get_four_rules` reads back to exactly these rules (as ``Rules.notation``)."""
        return rules_text(self, FOUR_PRESETS)


def pair_lacks_trumps(a: int, b: int, trump: int) -> bool:
    """Redeal condition (c) for partners holding ``a`` and ``b`` (here, below the engine and the
    views that both ask it): no trump, a single trump, or
    just the trump nine and jack, one in each hand (:107-108)."""
    ta, tb = a & SUIT_MASK[trump], b & SUIT_MASK[trump]
    both = ta | tb
    if both.bit_count() <= 1:
        return True
    nine_jack = (1 << 6 * trump) | (1 << (6 * trump + 1))
    return both == nine_jack and bool(ta) and bool(tb)


THREE_PRESETS: dict[str, ThreeRules] = {
    "pagat": ThreeRules(),
    "marriage": ThreeRules(name="marriage", trump="dealer_last", must_beat=False),
}
"""The three-player presets by name."""
FOUR_PRESETS: dict[str, FourRules] = {
    "pagat": FourRules(),
    "russian": FourRules(
        name="russian",
        trump="choose",
        must_beat=False,
        match_target=8,
        carry_over="contracts",
        cut_nines=3,
        redeals=True,
        three_nines=True,
        contracts=True,
        marriage_without_leading=True,
    ),
}
"""The four-player presets by name."""

THREE_NOTES: tuple[str, ...] = (
    "Marriages: one per lead, 20 or 40, leading its K or Q; they count once the declarer has a trick "
    "(as in the two-player game; not stated by the sources).",
    "The player with the most counted points wins; a tie for the most is a drawn deal in which nobody pays "
    "(not stated by the sources). The winner always has 33 or more: 130 points are shared by three.",
    "Presets: `pagat` is docs/RULES.md 5.1 (pagat :308); `marriage` is Марьяж втроём (ru-old-and-marriage :101).",
    "The deal passes to the left after every deal (not stated by the sources).",
)
"""Rules of the three-player game the sources leave open, and what the engine does there."""
FOUR_NOTES: tuple[str, ...] = (
    "Marriages count for the team once it has a trick (as in the two-player game; not stated by the sources).",
    "The partner is asked about a marriage whenever public facts leave one possible for him, so that being "
    "asked reveals nothing about his hand; otherwise play goes on without the question.",
    "Presets: `pagat` is docs/RULES.md 5.2 (pagat :310); `russian` is the Russian game of docs/RULES.md 5.3 "
    "(ru-old-and-marriage :104-190): the cut, trump named, redeals, three nines, the contracts five, six, fur coat "
    "and suit ('на пять', 'на шесть', 'на шубу', 'на костюм'), marriage without leading, the match to 8.",
    "The deal passes to the left after every deal (not stated by the sources); a redeal is dealt by the same "
    "dealer; a deal the cut decides (three nines) passes the deal on.",
    "Russian game, R readings that are choices rather than fields: the redeal round asks every player; the "
    "bidding round is one round, and the declarer of three nines may still name a contract in his turn; an "
    "opponent's committed card stays hidden unless it matches the nine left; three nines that take a team to the "
    "match target end the deal and the match at once; a seated-out partner's cards lie face down, unseen by all; "
    "no marriages in a contract; observations keep perfect recall (:189-190 forbids looking back; that is left "
    "to the agent).",
    "Russian game in deal episodes: a deal the cut decides has no decision, so the environment deals on and the "
    "episode is the next deal played; its point shows in the score fields.",
)
"""Rules of the four-player game the sources leave open, and what the engine does there."""


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
