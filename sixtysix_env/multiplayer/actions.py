"""Action ids of the three- and four-player games: the two-player ids keep their meaning, and the
trump choice is appended after them.

| id    | meaning                                                                    | text   |
|-------|----------------------------------------------------------------------------|--------|
| 0-23  | play card id ``6*suit + rank`` (lead or follow)                            | ``QH`` |
| 24-27 | declare the marriage in suit ``id - 24`` (the leader then leads its K or Q;  | ``M2`` |
|       | the leader's partner, with four players, only shows it)                    |        |
| 28-29 | never legal here (no stock: no exchange, no closing)                       |        |
| 30    | pass: the partner declares no marriage; or, explicit claiming, do not go out | ``P`` |
| 31    | go out, claiming 66 for the team (four players, explicit claiming)         | ``G``  |
| 32-35 | name suit ``id - 32`` (♣ ♠ ♥ ♦) as trump, after seeing one's first 3 cards  | ``=H`` |
| 36    | do not name trump: the turned card decides                                 | ``=?`` |
"""

from __future__ import annotations

from ..actions import GO_OUT, MARRIAGE, PASS
from ..cards import NUM_CARDS, card_str, card_symbol, parse_card

__all__ = [
    "NUM_TABLE_ACTIONS",
    "MARRIAGE",
    "PASS",
    "GO_OUT",
    "CHOOSE_TRUMP",
    "TRUMP_BY_CARD",
    "table_action_str",
    "table_action_label",
    "parse_table_action",
]

CHOOSE_TRUMP = 32
TRUMP_BY_CARD = 36
NUM_TABLE_ACTIONS = 37

_SUITS = "CSHD"
_SYMBOLS = "♣♠♥♦"


def table_action_str(action: int) -> str:
    """Short text that :func:`parse_table_action` reads back."""
    if 0 <= action < NUM_CARDS:
        return card_str(action)
    if MARRIAGE <= action < MARRIAGE + 4:
        return f"M{action - MARRIAGE}"
    if CHOOSE_TRUMP <= action < CHOOSE_TRUMP + 4:
        return "=" + _SUITS[action - CHOOSE_TRUMP]
    named = {PASS: "P", GO_OUT: "G", TRUMP_BY_CARD: "=?"}
    if action in named:
        return named[action]
    raise ValueError(f"action {action} has no meaning in the three- and four-player games")


def table_action_label(action: int) -> str:
    """Readable description for renders and error messages."""
    if 0 <= action < NUM_CARDS:
        return f"play {card_symbol(action)}"
    if MARRIAGE <= action < MARRIAGE + 4:
        return f"declare marriage {_SYMBOLS[action - MARRIAGE]}"
    if CHOOSE_TRUMP <= action < CHOOSE_TRUMP + 4:
        return f"name {_SYMBOLS[action - CHOOSE_TRUMP]} trump"
    return {PASS: "pass", GO_OUT: "go out", TRUMP_BY_CARD: "turn the card for trump"}.get(action, f"action {action}")


def parse_table_action(text: str | int) -> int:
    """Action id from an int or the text forms in the table above."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < NUM_TABLE_ACTIONS:
            return text
        raise ValueError(f"action {text} out of range: allowed 0..{NUM_TABLE_ACTIONS - 1}")
    s = str(text).strip().upper()
    if s == "P":
        return PASS
    if s == "G":
        return GO_OUT
    if s == "=?":
        return TRUMP_BY_CARD
    if len(s) == 2 and s[0] == "=" and s[1] in _SUITS:
        return CHOOSE_TRUMP + _SUITS.index(s[1])
    if len(s) == 2 and s[0] == "M" and s[1].isdigit() and int(s[1]) < 4:
        return MARRIAGE + int(s[1])
    try:
        return parse_card(s)
    except ValueError:
        raise ValueError(
            f"unknown action {text!r}: use a card ('QH'), M0..M3 (marriage), P (pass), G (go out), "
            "=C/=S/=H/=D (name trump) or =? (turn the card)"
        ) from None
