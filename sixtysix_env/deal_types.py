"""The small types that describe a deal, below both the engine and the information state.

``engine.Deal`` plays a deal and ``infostate.InfoState`` is one player's view of it; both speak of
the decision to make and of how the deal ended, so those types live here, one layer down, and
the engine imports the view without a circle. ``sixtysix_env.engine`` re-exports them.

:class:`DealLike` is the API every deal shares, two-player ``engine.Deal`` and the three- and
four-player ``table.TableDeal`` alike: code that only plays, views and scores deals (the
env base, records, agents) types against it and works at every table size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar, Protocol, runtime_checkable

__all__ = [
    "Decision",
    "Termination",
    "Outcome",
    "RandomSource",
    "OutcomeLike",
    "DealLike",
    "check_fields",
    "list_fields",
    "straight_builder",
    "compile_copies",
]


class Decision(IntEnum):
    """What the player to act is deciding."""

    LEAD = 0
    """On lead: exchange, close, declare a marriage, lead a card, or go out (explicit claiming)."""
    FOLLOW = 1
    """Play a card to the card led (or first exchange, under ``exchange_timing="any_turn"``)."""
    DRAW = 2
    """After winning a phase-1 trick: close before drawing (29) or draw (30)."""
    CLOSING_EXCHANGE = 3
    """The opponent has just closed: exchange the trump nine (28) or keep it (30)."""
    CLAIM = 4
    """Explicit claiming, all cards played: go out (31) or let the deal be scored (30)."""


class Termination(IntEnum):
    """How a deal ended (docs/RULES.md 2.9)."""

    WENT_OUT = 0
    """A player went out with 66 or more."""
    FALSE_CLAIM = 1
    """A player went out with fewer than 66 (explicit claiming): the opponent wins."""
    CLOSER_FAILED = 2
    """The stock was closed and the closer did not go out: the opponent wins."""
    PLAYED_OUT = 3
    """All tricks played without closing; decided by points or by the last trick."""
    DRAWN = 4
    """Played out with equal points: nobody scores."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished deal: ``winner`` is -1 for a drawn deal."""

    winner: int
    game_points: int
    termination: Termination

    def returns(self) -> tuple[int, int]:
        """Zero-sum game points per player: (+g, -g), (-g, +g) or (0, 0)."""
        if self.winner < 0:
            return (0, 0)
        g = self.game_points
        return (g, -g) if self.winner == 0 else (-g, g)

    @property
    def payoffs(self) -> tuple[int, int]:
        """What each player gains, as ``TableOutcome.payoffs`` (here the same as ``returns()``)."""
        return self.returns()


class RandomSource(Protocol):
    """What a deal shuffles with: anything with ``random.Random``'s ``shuffle``."""

    def shuffle(self, x: Any) -> None: ...


@runtime_checkable
class OutcomeLike(Protocol):
    """How any deal ended (``Outcome``, ``TableOutcome``): ``winner`` is a player, a team with four
    players, or -1 for a drawn deal."""

    @property
    def winner(self) -> int: ...
    @property
    def game_points(self) -> int: ...
    @property
    def termination(self) -> IntEnum: ...
    @property
    def payoffs(self) -> tuple[int, ...]: ...
    def returns(self) -> tuple[int, ...]: ...


@runtime_checkable
class DealLike(Protocol):
    """The API ``engine.Deal`` and ``table.TableDeal`` share: one deal, changed only by
    ``apply``. Players are seats ``0 .. n_players-1``; ``side_of(p)`` is who scores for ``p`` (the
    player himself, or his team with four players), and ``points``/``scores`` are per side.

    ``from_arrangement`` and ``from_view`` exist on both with the game's own arguments (the
    two-player deal has a stock, the table deals do not); ``hidden_cards`` differs in shape for the
    same reason. ``FIELDS`` names the deal's state once (slots, copies, determinization).
    """

    n_players: ClassVar[int]  # class attributes on every deal class
    n_sides: ClassVar[int]
    game: ClassVar[str]
    FIELDS: ClassVar[tuple[str, ...]]
    rules: Any
    dealer: int
    trump: int
    trump_card: int
    current: int

    @property
    def decision(self) -> IntEnum:
        """``Decision`` or ``TableDecision``: read-only here, so each class may narrow it."""
        ...

    leader: int
    hands: list[int]
    known: list[int]
    won_cards: list[int]
    marriages: list[int]
    points: list[int]
    history: list[int]

    @property
    def scores(self) -> tuple[int, ...]:
        """Match scores per side before this deal (``tuple[int, int]`` on the two-player deal)."""
        ...

    outcome: Any

    @property
    def current_player(self) -> int:
        """The player to act, or -1 once the deal is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def trick(self) -> Sequence[int]:
        """The cards on the table in the trick now, in the order played."""
        ...

    @property
    def tricks_won(self) -> list[int]:
        """Tricks taken per player."""
        ...

    def side_of(self, player: int) -> int: ...
    def legal_mask(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def is_legal(self, action: object) -> bool: ...
    def legal_labels(self) -> list[str]: ...
    def apply(self, action: int) -> None: ...
    def apply_all(self, actions: Sequence[int | str] | str) -> Any: ...
    def clone(self) -> Any: ...
    def returns(self) -> tuple[int, ...]: ...
    def counted_points(self, side: int) -> int: ...
    def information_state(self, player: int) -> Any: ...
    def resample_hidden(self, player: int, rng: RandomSource) -> Any: ...
    def describe(self) -> str: ...
    def to_notation(self) -> str: ...

    @classmethod
    def from_notation(cls, text: str, rules: Any = None) -> Any: ...

    @classmethod
    def from_arrangement(cls, *args: Any, **kwargs: Any) -> Any: ...

    @classmethod
    def from_view(cls, *args: Any, **kwargs: Any) -> Any: ...


# ---------------------------------------------------------------------- one list of a deal's fields
def check_fields(cls: type, fields: Sequence[str], extra: Sequence[str] = ("_mask",)) -> None:
    """Raise at import when ``cls.FIELDS`` (``fields``) and the annotated attributes of ``cls`` differ:
    the field list is written once, and a field added in one place only must not pass silently."""
    annotated = {k for k, v in cls.__annotations__.items() if not str(v).startswith("ClassVar")}
    wanted = set(fields) | set(extra)
    if annotated != wanted:
        raise TypeError(
            f"{cls.__name__}: FIELDS and the annotations disagree: only in FIELDS {sorted(wanted - annotated)}, "
            f"only annotated {sorted(annotated - wanted)}"
        )


def list_fields(cls: type, fields: Sequence[str]) -> frozenset[str]:
    """The ``fields`` of ``cls`` annotated as lists: the mutable ones a copy must copy."""
    return frozenset(f for f in fields if str(cls.__annotations__[f]).startswith("list["))


def straight_builder(
    name: str, params: str, new: str, fields: Sequence[str], value_of: Callable[[str], str], names: Mapping[str, Any]
) -> Callable[..., Any]:
    """A function ``name(params)`` that creates ``new`` and sets each field to the expression
    ``value_of(field)`` in straight-line code, compiled once at import. Searches clone and
    determinize deals millions of times: straight code is several times faster than a loop of
    ``setattr`` over the names, and it is generated so that the field list is written only once.
    ``names`` are the globals the expressions use."""
    bad = [f for f in fields if not f.isidentifier()]
    if bad:
        raise ValueError(f"field names must be identifiers, got {bad!r}")
    lines = [f"def {name}({params}):", f"    d = {new}"]
    lines += [f"    d.{f} = {value_of(f)}" for f in fields]
    lines.append("    return d")
    scope: dict[str, Any] = dict(names)
    exec("\n".join(lines), scope)  # the source is built above from identifier names only
    fn: Callable[..., Any] = scope[name]
    return fn


def compile_copies(
    cls: Any, view_name: str, view_slots: Sequence[str], params: str, given: Mapping[str, str], names: Mapping[str, Any]
) -> Callable[..., Any]:
    """Give ``cls`` its ``clone`` (also ``__copy__``) and return the body of its ``from_view``, both
    straight code from ``cls.FIELDS``. ``from_view(cls, VIEW, params)`` copies each field the view
    (``view_slots``) holds under the same name and takes the rest from ``given`` (expressions over
    ``VIEW`` and ``params``, with ``names`` as their globals): a field in neither raises at import."""
    check_fields(cls, cls.FIELDS)
    lists = list_fields(cls, cls.FIELDS)
    clone = straight_builder(
        "clone",
        "self",
        "_new(type(self))",
        cls.__slots__,
        lambda f: f"self.{f}[:]" if f in lists else f"self.{f}",
        {"_new": object.__new__},
    )
    clone.__doc__ = "An independent copy (searches clone millions of times: straight code)."
    clone.__qualname__ = f"{cls.__name__}.clone"
    setattr(cls, "clone", clone)  # noqa: B010 - declared for type checkers in the class body
    setattr(cls, "__copy__", clone)  # noqa: B010
    missing = [f for f in cls.FIELDS if f not in given and f not in view_slots]
    if missing:
        raise TypeError(f"{cls.__name__} fields {missing} are neither in the view nor given to from_view")
    return straight_builder(
        f"_{cls.__name__.lower()}_from_view",
        f"cls, {view_name}, {params}",
        "_new(cls)",
        cls.__slots__,
        lambda f: given.get(f) or (f"list({view_name}.{f})" if f in lists else f"{view_name}.{f}"),
        {"_new": object.__new__, **names},
    )
