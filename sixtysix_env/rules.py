"""Rules as data: one frozen dataclass, one named preset per rule system.

Every rule that differs between the systems in RULES.md section 5 is a field
here, and the engine reads these fields; there is no second copy of the
engine per variant. ``get_rules("russian")`` returns a preset;
``get_rules("standard").replace(claiming="explicit")`` derives a new one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from .cards import Rank

__all__ = ["Rules", "PRESETS", "get_rules", "preset_names"]

ExchangeRequires = Literal["won_trick", "after_first_trick", "any"]
DrawnDeal = Literal["same_dealer", "new_dealer", "carry"]
NextDealer = Literal["winner", "alternate"]
Schwarz = Literal["no_trick", "no_points"]
CloserWin = Literal["at_end", "at_closing", "always_3"]
CloserFail = Literal["2_or_3", "always_3"]
PlayedOut = Literal["points", "last_trick"]
MarriageCounts = Literal["any_trick", "next_trick"]
MarriageLead = Literal["king_or_queen", "king"]
Claiming = Literal["auto", "explicit"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "exchange_requires": ("won_trick", "after_first_trick", "any"),
    "drawn_deal": ("same_dealer", "new_dealer", "carry"),
    "next_dealer": ("winner", "alternate"),
    "schwarz": ("no_trick", "no_points"),
    "closer_win": ("at_end", "at_closing", "always_3"),
    "closer_fail": ("2_or_3", "always_3"),
    "played_out_winner": ("points", "last_trick"),
    "marriage_counts": ("any_trick", "next_trick"),
    "marriage_lead": ("king_or_queen", "king"),
    "claiming": ("auto", "explicit"),
}


@dataclass(frozen=True)
class Rules:
    """One two-player rule system. Defaults are the standard game (RULES.md section 2)."""

    name: str = "standard"
    """Preset name, or a label for a custom rule set (shown in notation and renders)."""

    deck_size: int = 24
    """24 cards (9 to ace), or 20 without the nines (schnapsen): hands of 6 or 5 cards."""

    exchange_rank: Rank = Rank.NINE
    """Rank of the trump card that may be exchanged for the face-up trump (schnapsen: the jack)."""

    exchange_requires: ExchangeRequires = "won_trick"
    """When the exchanger, on lead, may exchange: after winning a trick himself (standard),
    once the first trick of the deal has been played (russian), or on any lead (santase)."""

    exchange_at_closing: bool = True
    """The opponent of a player who closes may at once exchange the trump nine (standard, 2.5)."""

    closing: bool = True
    """Whether the stock may be closed at all (the vu course engine has no closing)."""

    closing_min_stock: int = 2
    """Closing is allowed while the stock holds at least this many cards, face-up card included
    (standard 2; russian 6, read from 'at least five' with even stock sizes)."""

    close_before_drawing: bool = True
    """After winning a phase-1 trick the winner may close before drawing (standard); when off,
    closing happens only on lead (schnapsen), and the draw is automatic."""

    marriages_after_stock: bool = False
    """Marriages may be declared on any lead after the stock is exhausted or closed (schnapsen)."""

    marriage_on_first_lead: bool = True
    """The non-dealer may declare on the very first lead (santase: only after the first trick)."""

    marriage_counts: MarriageCounts = "any_trick"
    """Marriage points count once the declarer has won any trick of the deal (standard), or stay
    pending until he wins his next trick after declaring (vu)."""

    marriage_lead: MarriageLead = "king_or_queen"
    """After declaring, lead the king or the queen (standard) or always the king (vu)."""

    last_trick_bonus: int = 10
    """Points for winning the last trick of a deal played out without closing (schnapsen 0)."""

    played_out_winner: PlayedOut = "points"
    """Who wins a deal played out without closing where nobody went out: more points (a tie is a
    drawn deal), or the winner of the last trick for 1 game point (schnapsen)."""

    must_win_trick: bool = True
    """Phase 2: the follower must beat the card led when able (standard); when off, he must only
    follow suit, else trump (russian, marriage)."""

    drawn_deal: DrawnDeal = "same_dealer"
    """A drawn deal scores nothing and the same dealer deals again (standard), the other player
    deals (russian 'new deal'), or the winner of the next deal gets 1 extra game point ('carry')."""

    next_dealer: NextDealer = "winner"
    """Who deals the next deal: the winner of this one (standard) or the players alternate."""

    schwarz: Schwarz = "no_trick"
    """3 game points when the loser took no trick (standard) or has no points at all (old Russian,
    marriage: even four nines taken count as schwarz)."""

    closer_win: CloserWin = "at_end"
    """A closer who goes out scores 1/2/3 from the opponent's points and tricks at the end
    (standard), at the moment of closing (schnapsen), or always 3 (marriage)."""

    closer_fail: CloserFail = "2_or_3"
    """A closer who fails gives the opponent 2, or 3 if the opponent had no trick when the stock
    was closed (standard); or always 3 (marriage)."""

    closed_schwarz_points: int = 3
    """Game points for a closer who goes out while the opponent has no trick (old Russian: 6)."""

    match_target: int = 7
    """Game points that win the match."""

    claiming: Claiming = "auto"
    """'auto': a player reaching 66 at a trick won or a marriage goes out at once. 'explicit': going
    out is an action (31), and going out with fewer than 66 loses 2 game points."""

    def __post_init__(self) -> None:
        for field, allowed in _CHOICES.items():
            value = getattr(self, field)
            if value not in allowed:
                raise ValueError(f"Rules.{field}={value!r} is not allowed: choose one of {', '.join(allowed)}")
        if self.deck_size not in (20, 24):
            raise ValueError(f"Rules.deck_size={self.deck_size} is not allowed: choose 24 or 20 (no nines)")
        if self.deck_size == 20 and self.exchange_rank == Rank.NINE:
            raise ValueError("Rules.exchange_rank=NINE needs the nines: with deck_size=20 use Rank.JACK")
        object.__setattr__(self, "exchange_rank", Rank(self.exchange_rank))
        if self.closing and not 2 <= self.closing_min_stock <= self.stock_size:
            raise ValueError(
                f"Rules.closing_min_stock={self.closing_min_stock} cannot occur: the stock holds "
                f"2..{self.stock_size} cards while closing is possible"
            )
        if not 0 <= self.last_trick_bonus <= 66:
            raise ValueError(f"Rules.last_trick_bonus={self.last_trick_bonus} is not allowed: use 0..66")
        if self.closed_schwarz_points < 1:
            raise ValueError(f"Rules.closed_schwarz_points={self.closed_schwarz_points} must be at least 1")
        if self.match_target < 1:
            raise ValueError(f"Rules.match_target={self.match_target} must be at least 1")

    @property
    def hand_size(self) -> int:
        return 6 if self.deck_size == 24 else 5

    @property
    def stock_size(self) -> int:
        return self.deck_size - 2 * self.hand_size

    @property
    def deck_mask(self) -> int:
        """Bitmask of the cards in play (the 20-card deck drops the nines)."""
        full = (1 << 24) - 1
        if self.deck_size == 24:
            return full
        nines = sum(1 << (6 * s) for s in range(4))
        return full & ~nines

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed (validated like a new preset)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def differences(self, other: Rules | None = None) -> dict[str, tuple[object, object]]:
        """Fields that differ from ``other`` (default: standard), as ``{field: (mine, theirs)}``."""
        other = other or PRESETS["standard"]
        out = {}
        for f in dataclasses.fields(self):
            if f.name == "name":
                continue
            a, b = getattr(self, f.name), getattr(other, f.name)
            if a != b:
                out[f.name] = (a, b)
        return out


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "russian": Rules(
        name="russian",
        exchange_requires="after_first_trick",
        exchange_at_closing=False,
        closing_min_stock=6,
        must_win_trick=False,
        drawn_deal="new_dealer",
        match_target=8,
    ),
    "marriage": Rules(
        name="marriage",
        exchange_at_closing=False,
        must_win_trick=False,
        next_dealer="alternate",
        schwarz="no_points",
        closer_win="always_3",
        closer_fail="always_3",
    ),
    "santase": Rules(
        name="santase",
        exchange_requires="any",
        exchange_at_closing=False,
        marriage_on_first_lead=False,
        match_target=11,
    ),
    "schnapsen": Rules(
        name="schnapsen",
        deck_size=20,
        exchange_rank=Rank.JACK,
        exchange_at_closing=False,
        close_before_drawing=False,
        marriages_after_stock=True,
        last_trick_bonus=0,
        played_out_winner="last_trick",
        next_dealer="alternate",
        closer_win="at_closing",
    ),
}


def preset_names() -> list[str]:
    return list(PRESETS)


def get_rules(rules: str | Rules | None = None) -> Rules:
    """A preset by name (``None`` means standard), or a ``Rules`` object passed through."""
    if rules is None:
        return PRESETS["standard"]
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str) and rules in PRESETS:
        return PRESETS[rules]
    raise ValueError(f"unknown rules {rules!r}: choose a preset ({', '.join(PRESETS)}) or pass a Rules object")
