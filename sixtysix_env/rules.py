"""Rules as data: one frozen dataclass, one named preset per rule system.

Every rule that differs between the systems in docs/RULES.md section 5 is a field
here, and the engine reads these fields; there is no second copy of the
engine per variant. ``get_rules("russian")`` returns a preset;
``get_rules("standard").replace(claiming="explicit")`` derives a new one.

Each field's docstring says what it changes and which source has it. Sources are cited by
file and line in ``docs/rules-sources/`` (``ru-translated-pages.txt`` holds the pagat.com
page after Günther Senst, Britannica, gamerules.com, PlayingCardDecks and a Santase page;
``ru-classic-66.txt`` the classic Russian rule lists; ``ru-old-and-marriage.txt`` the
19th-century rules and Марьяж). ``PRESET_INFO`` records, per preset, which settings the
sources do not state (the ``*`` cells of docs/RULES.md section 5); ``python -m
sixtysix_env.rulesdoc`` turns all of it into ``docs/rules.md``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Literal

from .cards import Rank
from .checks import as_index, parse_int_text

__all__ = [
    "FIELD_CHOICES",
    "Rules",
    "PRESETS",
    "STUDY_PRESETS",
    "PRESET_INFO",
    "PresetInfo",
    "get_rules",
    "preset_names",
    "parse_rules_text",
    "rules_text",
    "settled_name",
]

ExchangeRequires = Literal["won_trick", "after_first_trick", "any"]
ExchangeTiming = Literal["lead", "any_turn"]
DrawnDeal = Literal["same_dealer", "new_dealer", "carry"]
NextDealer = Literal["winner", "alternate"]
Schwarz = Literal["no_trick", "no_points"]
CloserWin = Literal["at_end", "at_closing", "always_3"]
CloserFail = Literal["2_or_3", "always_3"]
FailedCloseSix = Literal["never", "closer_no_trick", "or_opponent_no_trick"]
PlayedOut = Literal["points", "last_trick"]
MarriageCounts = Literal["any_trick", "next_trick"]
MarriageLead = Literal["king_or_queen", "king"]
Claiming = Literal["auto", "explicit"]

FIELD_CHOICES: dict[str, tuple[str, ...]] = {
    "exchange_requires": ("won_trick", "after_first_trick", "any"),
    "exchange_timing": ("lead", "any_turn"),
    "drawn_deal": ("same_dealer", "new_dealer", "carry"),
    "next_dealer": ("winner", "alternate"),
    "schwarz": ("no_trick", "no_points"),
    "closer_win": ("at_end", "at_closing", "always_3"),
    "closer_fail": ("2_or_3", "always_3"),
    "failed_close_six": ("never", "closer_no_trick", "or_opponent_no_trick"),
    "played_out_winner": ("points", "last_trick"),
    "marriage_counts": ("any_trick", "next_trick"),
    "marriage_lead": ("king_or_queen", "king"),
    "claiming": ("auto", "explicit"),
}
"""The values each text field of :class:`Rules` may take (checked on construction)."""

# The sources cited in the field docstrings (files in docs/rules-sources/). A citation such as
# "pagat :259" is line 259 of that source's file; "ru-classic-66.txt:19" names the file itself.
PAGAT = "pagat.com after Senst (ru-translated-pages.txt:227-306)"
BRITANNICA = "Britannica (ru-translated-pages.txt:346-353)"
RU_CLASSIC = "classic Russian rule lists (ru-classic-66.txt)"
RU_OLD = "19th-century Russian rules (ru-old-and-marriage.txt:1-35)"
MARIAGE = "Марьяж (ru-old-and-marriage.txt:84-190)"
SANTASE = "Santase page (ru-translated-pages.txt:425-438)"
VU = "the VU Amsterdam `schnapsen` package (docs/RULES.md 5.0)"
SOURCES: dict[str, str] = {
    "pagat": PAGAT,
    "Britannica": BRITANNICA,
    "the first page": "a card-rules page (ru-translated-pages.txt:196-225)",
    "PlayingCardDecks": "PlayingCardDecks.com (ru-translated-pages.txt:321-345)",
    "gamerules": "gamerules.com (ru-translated-pages.txt:393-424)",
    "santase": SANTASE,
    "ru-classic-66.txt": RU_CLASSIC,
    "ru-old-and-marriage": RU_OLD + "; " + MARIAGE,
    "vu": VU,
}


DECKS: dict[int, tuple[int, int]] = {
    24: ((1 << 24) - 1, 6),
    20: (((1 << 24) - 1) & ~sum(1 << (6 * s) for s in range(4)), 5),
    8: (sum(0b111100 << (6 * s) for s in range(2)), 3),
}
"""``deck_size``: (bitmask of the cards in play, hand size). 8 is the miniature's deck: Q K 10 A of
clubs and spades, hands of 3 and a stock of 2 (docs/miniature.md says why this size)."""


def _named_rules() -> dict[str, Rules] | None:
    """Every rule set with a name (the presets and the study presets); None while they are built."""
    presets, study = globals().get("PRESETS"), globals().get("STUDY_PRESETS")
    return None if presets is None or study is None else {**presets, **study}


@dataclass(frozen=True)
class Rules:
    """One two-player rule system. Defaults are the standard game (docs/RULES.md section 2)."""

    name: str = "standard"
    """Preset name, or a label for a custom rule set (shown in notation and renders). Rules that
    differ from the preset they are named after are renamed to say so, such as
    ``standard(must_win_trick=False)``: a preset's name always means its exact rules."""

    deck_size: int = 24
    """24 cards (9 to ace) and 6-card hands, or 20 without the nines and 5-card hands. Card ids stay
    those of the 24-card deck: with 20 cards the nines never appear and their actions stay masked.
    Sources: standard pagat :232; schnapsen Britannica :353, pagat :299."""

    exchange_rank: Rank = Rank.NINE
    """Rank of the trump card that may be exchanged for the face-up trump card: the nine, or the
    jack in the 20-card game. Sources: pagat :258; schnapsen Britannica :353."""

    exchange_requires: ExchangeRequires = "won_trick"
    """When the exchange is allowed: once the exchanger has won a trick himself (standard, pagat
    :259), once the first trick of the deal has been played by anyone (russian, ru-old-and-marriage
    :25 'лишь только после первой взятки'), or from the first lead on ('any': santase :435, vu).
    On lead the first two agree (whoever leads after the first trick has just won it); they differ
    for a follower under ``exchange_timing="any_turn"``."""

    exchange_timing: ExchangeTiming = "lead"
    """'lead': exchange only when on lead, before leading (pagat :259, gamerules :402). 'any_turn':
    also as the follower, before playing to the trick (Britannica :349 'непосредственно перед тем,
    как вести или следовать', the first page :215 'в любое время'); never once the trump card is
    the last stock card, and never after closing."""

    exchange_at_closing: bool = True
    """The opponent of a player who closes may at once exchange the trump nine, even without a won
    trick (standard, pagat :260). Schnapsen forbids it (pagat :304)."""

    closing: bool = True
    """Whether the stock may be closed at all. Every human source allows closing; the vu course
    engine has none."""

    closing_min_stock: int = 2
    """Closing is allowed while the stock holds at least this many cards, face-up card included.
    Standard 2 (the last chance is after the 6th trick, pagat :267); russian 6, from 'не меньше пяти
    карт' (ru-classic-66.txt:19, :36) with even stock sizes. Must be even: the stock always is."""

    close_before_drawing: bool = True
    """After winning a phase-1 trick the winner may close before drawing, leaving 5 cards each
    (standard, pagat :267, Britannica :351); when off, closing happens only on lead after the draw
    (schnapsen, pagat :303), and the draw is automatic."""

    marriages_after_stock: bool = False
    """Marriages may also be declared on leads after the stock is exhausted or closed (schnapsen,
    pagat :300; vu). Standard: the last chance is the lead to the 6th trick (pagat :262)."""

    marriage_on_first_lead: bool = True
    """The non-dealer may declare on the very first lead (pagat :264). Santase allows marriages only
    after the first trick (santase :432 'только после первого хода'), also for a non-dealer who
    closes at the first lead."""

    marriage_counts: MarriageCounts = "any_trick"
    """Marriage points count once the declarer has won any trick of the deal, before or after
    declaring (standard, pagat :264, Britannica :349), or stay pending until he wins his next trick
    after declaring, so declaring never ends a deal at once (vu)."""

    marriage_lead: MarriageLead = "king_or_queen"
    """After declaring, lead the king or the queen (pagat :262) or always the king (vu: its Marriage
    move plays the king)."""

    last_trick_bonus: int = 10
    """Card points for winning the last trick of a deal played out without closing (pagat :251,
    Britannica :350). Schnapsen has none (pagat :301)."""

    played_out_winner: PlayedOut = "points"
    """Who wins a deal played out without closing where nobody went out: the player with more points
    (a tie is a drawn deal; pagat :251, :257), or the winner of the last trick, for 1 game point
    (schnapsen pagat :301; PlayingCardDecks :339; the four-player Russian game, ru-old-and-marriage
    :181)."""

    must_win_trick: bool = True
    """Phase 2: the follower must beat the card led when able (standard, pagat :249, Britannica
    :350). When off he must only follow suit, else trump (russian ru-classic-66.txt:17, :36;
    Марьяж ru-old-and-marriage :98; gamerules :405)."""

    drawn_deal: DrawnDeal = "same_dealer"
    """A drawn deal (played out at equal points) scores nothing and: the same dealer deals again
    (standard, pagat :251); the other player deals ('new_dealer', russian ru-classic-66.txt:23
    'как новая игра'); or 'carry': the winner of the next deal gets 1 extra game point (Britannica
    :352, gamerules :422, the first page :222, pagat variants :295). Applied by the match loop."""

    next_dealer: NextDealer = "winner"
    """Who deals the next deal (the non-dealer leads): the winner of this one (standard, pagat :239;
    russian ru-classic-66.txt:7, :10 'первый ход принадлежит проигравшему'), or the players
    alternate (Марьяж ru-old-and-marriage :98; schnapsen pagat :305; gamerules :399). Applied by
    the match loop."""

    schwarz: Schwarz = "no_trick"
    """3 game points when the loser took no trick (standard, pagat :264, :275), or when he has no
    counted points at all, even with tricks of nines (old Russian ru-old-and-marriage :32; Марьяж
    :98 'ни одного очка')."""

    closer_win: CloserWin = "at_end"
    """A closer who goes out scores 1/2/3 from the opponent's points and tricks at the end of the
    deal (standard, pagat :269, :277), at the moment of closing (schnapsen, pagat :302), or always
    3 (Марьяж ru-old-and-marriage :98 'всегда начисляется 3 пункта')."""

    closer_fail: CloserFail = "2_or_3"
    """A closer who fails gives the opponent 2, or 3 if the opponent had no trick when the stock was
    closed (standard, pagat :269, :280); or always 3 (Марьяж ru-old-and-marriage :98)."""

    failed_close_six: FailedCloseSix = "never"
    """The old Russian 6 game points for a failed close, always scored by the closer's opponent
    (ru-old-and-marriage :33-34). 'closer_no_trick': a closer who fails and took no trick after
    closing gives his opponent 6 (:33 'закроет колоду и не возьмет ни одной взятки');
    'or_opponent_no_trick': also when the closer fails and the opponent had no trick at the moment
    of closing (:34, 'по предварительному взаимному соглашению', by prior agreement). Otherwise
    ``closer_fail`` scores the failure. Off in every preset."""

    match_target: int = 7
    """Game points that win the match: 7 (pagat :272), 8 (russian ru-classic-66.txt:4), 11 (santase
    :436). Applied by the match loop."""

    claiming: Claiming = "auto"
    """'auto': a player reaching 66 at a trick won or a marriage goes out at once. 'explicit': going
    out is an action (31), and going out with fewer than 66 loses 2 game points (pagat :253-256)."""

    def __post_init__(self) -> None:
        check_name(self)
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"Rules.{f.name}={value!r} is not allowed: use True or False")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"Rules.{f.name}={value!r} is not allowed: use an int")
        for field, allowed in FIELD_CHOICES.items():
            value = getattr(self, field)
            if value not in allowed:
                raise ValueError(f"Rules.{field}={value!r} is not allowed: choose one of {', '.join(allowed)}")
        if self.deck_size not in DECKS:
            raise ValueError(
                f"Rules.deck_size={self.deck_size} is not allowed: choose 24 or 20 (no nines), or 8 (Q K 10 A of "
                "clubs and spades, the miniature)"
            )
        if as_index(self.exchange_rank) not in list(Rank):  # no bool, float or text standing in for a rank
            raise ValueError(f"Rules.exchange_rank={self.exchange_rank!r} is not allowed: use a Rank (NINE, JACK, ...)")
        if self.deck_size == 20 and self.exchange_rank == Rank.NINE:
            raise ValueError("Rules.exchange_rank=NINE needs the nines: with deck_size=20 use Rank.JACK")
        if self.deck_size == 8 and self.exchange_rank < Rank.QUEEN:
            raise ValueError("Rules.exchange_rank must be in the 8-card deck (Q K 10 A): use Rank.QUEEN")
        object.__setattr__(self, "exchange_rank", Rank(self.exchange_rank))
        if not 2 <= self.closing_min_stock <= self.stock_size:
            raise ValueError(
                f"Rules.closing_min_stock={self.closing_min_stock} cannot occur: the stock holds "
                f"2..{self.stock_size} cards while closing is possible"
            )
        if self.closing_min_stock % 2:
            raise ValueError(
                f"Rules.closing_min_stock={self.closing_min_stock} cannot occur: the stock always holds an even "
                f"number of cards (use {self.closing_min_stock + 1} for 'at least {self.closing_min_stock}')"
            )
        if not 0 <= self.last_trick_bonus <= 66:
            raise ValueError(f"Rules.last_trick_bonus={self.last_trick_bonus} is not allowed: use 0..66")
        if not 1 <= self.match_target <= MAX_MATCH_TARGET:
            raise ValueError(f"Rules.match_target={self.match_target} is not allowed: use 1..{MAX_MATCH_TARGET}")
        object.__setattr__(self, "name", settled_name(self, _named_rules()))

    def notation(self) -> str:
        """Text that :func:`get_rules` reads back to exactly these rules: the preset's name, the
        derived name (``standard(must_win_trick=False)``), or for a custom label the closest preset
        with the changed fields and the label (``standard(must_win_trick=False, name=mine)``)."""
        return rules_text(self, _named_rules() or PRESETS)

    @property
    def hand_size(self) -> int:
        return DECKS[self.deck_size][1]

    @property
    def max_game_points(self) -> int:
        """The most game points one deal can score under these rules (search agents scale by it)."""
        return 6 if self.failed_close_six != "never" else 3

    @property
    def stock_size(self) -> int:
        return self.deck_size - 2 * self.hand_size

    @property
    def deck_mask(self) -> int:
        """Bitmask of the cards in play (the 20-card deck drops the nines)."""
        return DECKS[self.deck_size][0]

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


MAX_MATCH_TARGET = 10_000

# A custom label: words of letters, digits and ``_ . + -`` separated by single spaces; never the
# characters the position notation and the derived names use (``; , ( ) = |``).
_LABEL = re.compile(r"\w[\w.+-]*(?: [\w.+-]+)*")
_DERIVED = re.compile(r"(\w+)\((.*)\)", re.DOTALL)


def check_name(rules: Any) -> None:
    """Raise unless ``rules.name`` is a string (the notation and every render show it)."""
    if not isinstance(rules.name, str):
        raise TypeError(f"{type(rules).__name__}.name={rules.name!r} is not allowed: use a string")


def _value_text(value: object) -> str:
    return value.name if isinstance(value, Rank) else str(value)


def _changes_text(changes: dict[str, tuple[object, object]]) -> str:
    return ", ".join(f"{k}={_value_text(mine)}" for k, (mine, _) in changes.items())


def _differences(rules: Any, base: Any) -> dict[str, tuple[object, object]]:
    out = {}
    for f in dataclasses.fields(rules):
        a, b = getattr(rules, f.name), getattr(base, f.name, f.default)  # a subclass's own field: its default
        if f.name != "name" and a != b:
            out[f.name] = (a, b)
    return out


def settled_name(rules: Any, presets: dict[str, Any] | None) -> str:
    """The name ``rules`` keeps: a label as given; a preset's name (or a name derived from one)
    becomes the preset's name when the fields are the preset's, else ``preset(field=value, ...)``.
    ``presets`` is None while the presets themselves are built."""
    kind = type(rules).__name__
    name = rules.name
    derived = _DERIVED.fullmatch(name)
    if presets is not None and (name in presets or (derived and derived.group(1) in presets)):
        base = name if name in presets else derived.group(1)  # type: ignore[union-attr]
        changes = _differences(rules, presets[base])
        return f"{base}({_changes_text(changes)})" if changes else base
    if not _LABEL.fullmatch(name):
        raise ValueError(
            f"{kind}.name={name!r} is not allowed: use letters, digits, '_', '.', '+', '-' and single "
            "spaces (no ';', ',', '(', ')', '=', '|': the position notation uses them)"
        )
    return name


def rules_text(rules: Any, presets: dict[str, Any]) -> str:
    """Text :func:`parse_rules_text` rebuilds ``rules`` from exactly (see ``Rules.notation``)."""
    name = rules.name
    derived = _DERIVED.fullmatch(name)
    if name in presets or (derived and derived.group(1) in presets):
        return name
    base = min(presets, key=lambda k: len(_differences(rules, presets[k])))  # the first closest preset
    changes = _changes_text(_differences(rules, presets[base]))
    return f"{base}({changes + ', ' if changes else ''}name={name})"


def _read_field(kind: str, f: dataclasses.Field[Any], text: str) -> object:
    if f.type == "bool":
        if text not in ("True", "False"):
            raise ValueError(f"{kind}.{f.name}={text!r} is not allowed: write True or False")
        return text == "True"
    if f.type == "int":
        value = parse_int_text(text)  # ASCII digits only: int() would read "١٢", "1_0" and " 7"
        if value is None:
            raise ValueError(f"{kind}.{f.name}={text!r} is not allowed: write an int in ASCII digits (such as 7)")
        return value
    if f.type == "Rank":
        if text not in Rank.__members__:
            raise ValueError(f"{kind}.{f.name}={text!r} is not allowed: write one of {', '.join(Rank.__members__)}")
        return Rank[text]
    return text


def parse_rules_text(text: str, presets: dict[str, Any], kind: str = "rules") -> Any:
    """Rules from their notation: a preset's name, or ``preset(field=value, ...)``."""
    stripped = text.strip()
    if stripped in presets:
        return presets[stripped]
    derived = _DERIVED.fullmatch(stripped)
    if not derived or derived.group(1) not in presets:
        raise ValueError(
            f"unknown {kind} {text!r}: choose a preset ({', '.join(presets)}), write "
            "preset(field=value, ...), or pass a rules object"
        )
    base = presets[derived.group(1)]
    fields = {f.name: f for f in dataclasses.fields(base)}
    changes: dict[str, object] = {}
    body = derived.group(2).strip()
    for part in body.split(",") if body else []:
        key, sep, value = (x.strip() for x in part.partition("="))
        if not sep or key not in fields:
            raise ValueError(
                f"bad field {part.strip()!r} in {kind} {text!r}: write field=value with a field of "
                f"{type(base).__name__} ({', '.join(fields)})"
            )
        if key in changes:
            raise ValueError(f"field {key!r} given twice in {kind} {text!r}")
        changes[key] = _read_field(type(base).__name__, fields[key], value)
    return base.replace(**changes)


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
"""The two-player presets by name."""
PRESETS["vu"] = PRESETS["schnapsen"].replace(
    name="vu",
    closing=False,
    exchange_requires="any",
    marriage_counts="next_trick",
    marriage_lead="king",
)

STUDY_PRESETS: dict[str, Rules] = {
    "miniature": Rules(name="miniature", deck_size=8, exchange_rank=Rank.QUEEN),
}
"""Rules made for analysis, not taken from a source: ``miniature`` is the standard game on 8 cards
(Q K 10 A of clubs and spades, hands of 3, a stock of 2), small enough to solve exactly
(docs/miniature.md, ``python -m sixtysix_env.exploitability.miniature``). :func:`get_rules` and the
notation know them; ``PRESETS``, which the tables, the web and the batched engine offer, does not."""


@dataclass(frozen=True)
class PresetInfo:
    """What the documentation says about a preset: where it comes from and which of its settings
    no source states (docs/RULES.md section 5 marks those cells with *)."""

    title: str
    summary: str
    sources: tuple[str, ...]
    unstated: frozenset[str] = frozenset()
    """Fields whose value the sources do not state: the project's choice, usually the standard."""
    notes: tuple[tuple[str, str], ...] = ()
    """(field, note) pairs: how a setting was read from the sources."""


PRESET_INFO: dict[str, PresetInfo] = {
    "standard": PresetInfo(
        "Standard (German Sechsundsechzig)",
        "The game of docs/RULES.md section 2: pagat.com after Günther Senst; Britannica and the classic Russian "
        "lists agree on almost all of it.",
        (PAGAT, BRITANNICA),
    ),
    "russian": PresetInfo(
        "Russian Шестьдесят шесть",
        "The classic Russian rule lists: exchange after the first trick, closing only with at least five "
        "cards in the stock, phase 2 without the duty to win the trick, a drawn deal redealt, 8 games a match.",
        (RU_CLASSIC, RU_OLD),
        frozenset({"exchange_at_closing", "close_before_drawing", "marriage_counts"}),
        (
            ("closing_min_stock", "'не меньше пяти карт' counts the face-up card; stock sizes are even, so 6"),
            ("next_dealer", "the winner deals and the loser leads, which is the standard rule"),
        ),
    ),
    "marriage": PresetInfo(
        "Марьяж (two players)",
        "Марьяж as described with 66 and Шнопс: players deal in turn, follow suit or trump without the duty "
        "to win, schwarz means no points, and a closed deal is always worth 3.",
        (MARIAGE,),
        frozenset(
            {
                "exchange_rank",
                "exchange_requires",
                "exchange_at_closing",
                "closing_min_stock",
                "close_before_drawing",
                "marriage_counts",
                "last_trick_bonus",
                "played_out_winner",
                "drawn_deal",
            }
        ),
        (
            ("schwarz", "'если же ни одного очка, то 3 пункта': counted points of 0 (docs/RULES.md 5)"),
            ("match_target", "'7 или 8 пунктов (по договоренности)': 7"),
        ),
    ),
    "santase": PresetInfo(
        "Santase (Bulgarian Sixty-Six)",
        "Santase: the trump nine may be exchanged on any lead, marriages only after the first trick, 11 game "
        "points a match.",
        (SANTASE,),
        frozenset(
            {
                "exchange_at_closing",
                "closing_min_stock",
                "close_before_drawing",
                "marriage_counts",
                "must_win_trick",
                "schwarz",
                "closer_win",
                "closer_fail",
            }
        ),
        (("marriage_on_first_lead", "also holds for a non-dealer who closes at the first lead (docs/RULES.md 5)"),),
    ),
    "schnapsen": PresetInfo(
        "Schnapsen (Austria)",
        "20 cards without nines, 5-card hands, the trump jack exchanged, marriages on any lead, no last-trick "
        "bonus (the last-trick winner wins a played-out deal), closing only on lead.",
        (PAGAT + " differences from Schnapsen, :297-306", BRITANNICA),
        frozenset({"exchange_requires"}),
        (("closer_win", "the opponent's counted points and tricks at the moment of closing (docs/RULES.md 5)"),),
    ),
    "vu": PresetInfo(
        "VU Amsterdam course engine",
        "The rules of the `schnapsen` Python package (VU Amsterdam's bot-writing course), reproduced exactly "
        "and checked in lockstep against it: Schnapsen without closing, the trump jack exchanged on any lead "
        "while the stock is not empty, marriage points pending until the declarer's next won trick, and the "
        "king always led after declaring.",
        (VU,),
        notes=(
            ("closing", "with closing off, the other closing settings (kept from schnapsen) have no effect"),
            ("next_dealer", "the package plays single deals; alternate as in schnapsen"),
            ("schwarz", "the package gives 3 when the loser has 0 points, which here means no trick"),
        ),
    ),
}
"""Each preset's title, description and sources, for the variant table page."""


def preset_names() -> list[str]:
    """The names of the two-player presets."""
    return list(PRESETS)


def get_rules(rules: str | Rules | None = None) -> Rules:
    """A preset by name (``None`` means standard), rules from their notation
    (``"standard(must_win_trick=False)"``, see ``Rules.notation``), or a ``Rules`` passed through."""
    if rules is None:
        return PRESETS["standard"]
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return parse_rules_text(rules, _named_rules() or PRESETS)
    raise ValueError(f"unknown rules {rules!r}: choose a preset ({', '.join(PRESETS)}) or pass a Rules object")
