"""Cards as small integers, card sets as int bitmasks, and text forms both ways.

A card id is ``6 * suit + rank``: suits clubs, spades, hearts, diamonds are
0..3 and ranks 9, J, Q, K, 10, A are 0..5 in ascending strength, so a higher
id within one suit is always the stronger card. A set of cards is an ``int``
whose bit ``id`` is set; that keeps hands, tricks and masks cheap to copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from .checks import as_index

__all__ = [
    "Suit",
    "Rank",
    "NUM_CARDS",
    "NUM_SUITS",
    "NUM_RANKS",
    "CARD_POINTS",
    "card",
    "suit_of",
    "rank_of",
    "points_of",
    "card_str",
    "card_symbol",
    "parse_card",
    "parse_cards",
    "cards_of",
    "mask_of",
    "mask_points",
    "cards_str",
    "SUIT_MASK",
    "FULL_DECK",
]


class Suit(IntEnum):
    """Suits in card-id order: ♣ ♠ ♥ ♦ = 0..3."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3


class Rank(IntEnum):
    """Ranks in ascending strength: 9 J Q K 10 A = 0..5."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5


NUM_SUITS = 4
"""Suits in the deck."""
NUM_RANKS = 6
"""Ranks per suit (9, J, Q, K, 10, A)."""
NUM_CARDS = NUM_SUITS * NUM_RANKS
"""Cards in the deck: card ids are ``0..NUM_CARDS - 1``."""

RANK_POINTS = (0, 2, 3, 4, 10, 11)
SUIT_LETTERS = "CSHD"
SUIT_SYMBOLS = "♣♠♥♦"
RANK_LETTERS = "9JQKTA"

CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % NUM_RANKS] for c in range(NUM_CARDS))
"""Card points by card id (9: 0, J: 2, Q: 3, K: 4, 10: 10, A: 11)."""
SUIT_MASK: tuple[int, ...] = tuple(0b111111 << (NUM_RANKS * s) for s in range(NUM_SUITS))
"""The bitmask of each suit's six cards."""
FULL_DECK = (1 << NUM_CARDS) - 1
"""The bitmask of all 24 cards."""

_STR = tuple(RANK_LETTERS[c % 6] + SUIT_LETTERS[c // 6] for c in range(NUM_CARDS))
_SYMBOL = tuple(("10" if c % 6 == Rank.TEN else RANK_LETTERS[c % 6]) + SUIT_SYMBOLS[c // 6] for c in range(NUM_CARDS))
_RANK_INPUT = {"9": 0, "J": 1, "Q": 2, "K": 3, "T": 4, "10": 4, "A": 5}
_SUIT_INPUT = {**{ch: i for i, ch in enumerate(SUIT_LETTERS)}, **{ch: i for i, ch in enumerate(SUIT_SYMBOLS)}}
_SUIT_INPUT.update({"♤": 1, "♡": 2, "♢": 3, "♧": 0})


def card(suit: int, rank: int) -> int:
    """The card id of ``suit`` and ``rank``: ``6 * suit + rank``."""
    return NUM_RANKS * suit + rank


def suit_of(c: int) -> int:
    """The suit of a card id."""
    return c // NUM_RANKS


def rank_of(c: int) -> int:
    """The rank of a card id."""
    return c % NUM_RANKS


def points_of(c: int) -> int:
    """The card points of a card id."""
    return CARD_POINTS[c]


def card_str(c: int) -> str:
    """ASCII form such as ``"QH"`` or ``"TH"``; round-trips through :func:`parse_card`."""
    return _STR[c]


def card_symbol(c: int) -> str:
    """Human form with a suit symbol, such as ``"Q♥"`` or ``"10♥"``."""
    return _SYMBOL[c]


def parse_card(text: str | int) -> int:
    """Card id from ``"QH"``, ``"10H"``, ``"Q♥"``, ``"qh"`` or an int id already."""
    cid = as_index(text)
    if cid is not None:
        if 0 <= cid < NUM_CARDS:
            return cid
        raise ValueError(f"card id {text!r} out of range: allowed 0..{NUM_CARDS - 1}")
    if not isinstance(text, str):
        raise ValueError(f"cannot read a card from {text!r}: expected a string like 'QH' or an int id")
    s = text.strip().upper()
    rank = _RANK_INPUT.get(s[:-1]) if len(s) >= 2 else None
    suit = _SUIT_INPUT.get(s[-1:]) if s else None
    if rank is None or suit is None:
        raise ValueError(
            f"unknown card {text!r}: write rank 9 J Q K T|10 A then suit C S H D "
            "(or ♣ ♠ ♥ ♦), for example 'QH', '10H', 'Q♥'"
        )
    return card(suit, rank)


def parse_cards(texts: str | Iterable[str | int]) -> list[int]:
    """Card ids from ``"QH TS 9C"`` or an iterable of card strings/ids."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    elif not isinstance(texts, Iterable):
        raise ValueError(f"cannot read cards from {texts!r}: expected a string like 'QH TS' or a list of cards")
    return [parse_card(t) for t in texts]


def cards_of(mask: int) -> Iterator[int]:
    """Card ids in a bitmask, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of some card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_points(mask: int) -> int:
    """The card points of every card in a bitmask."""
    return sum(CARD_POINTS[c] for c in cards_of(mask))


def cards_str(cards: Iterable[int] | int, symbols: bool = False) -> str:
    """Space-separated card names; accepts a bitmask or an iterable of ids."""
    ids = cards_of(cards) if isinstance(cards, int) else cards
    table = _SYMBOL if symbols else _STR
    return " ".join(table[c] for c in ids)
