"""The action space: 32 ids, the same for every two-player preset.

| id    | meaning                                                                 |
|-------|-------------------------------------------------------------------------|
| 0-23  | play card id (lead or follow)                                           |
| 24-27 | declare the marriage in suit ``id - 24``; the same player then leads K or Q |
| 28    | exchange the trump nine (schnapsen: jack) for the trump card            |
| 29    | close the stock; the same player acts again                             |
| 30    | pass: draw, keep the nine when the opponent closes, or (explicit claiming) score a finished deal as played |
| 31    | go out, claiming 66 (explicit claiming only)                            |

Text forms (used in notation and tests): card strings (``"QH"``), ``M0``..``M3``
for marriages, ``X`` exchange, ``C`` close, ``P`` pass, ``G`` go out.
"""

from __future__ import annotations

from .cards import NUM_CARDS, card_str, card_symbol, parse_card

__all__ = [
    "NUM_ACTIONS",
    "MARRIAGE",
    "EXCHANGE",
    "CLOSE",
    "PASS",
    "GO_OUT",
    "action_str",
    "action_label",
    "parse_action",
    "actions_of",
]

NUM_ACTIONS = 32
"""Size of the two-player action space, ``Discrete(32)``."""
MARRIAGE = 24
"""First marriage id: ``MARRIAGE + s`` declares the marriage in suit ``s``."""
EXCHANGE = 28
"""Exchange the trump nine (schnapsen: jack) for the trump card."""
CLOSE = 29
"""Close the stock; the same player acts again."""
PASS = 30
"""Pass: draw without closing, keep the nine at the opponent's closing, or do not claim."""
GO_OUT = 31
"""Go out, claiming 66 (explicit claiming only)."""

_LETTERS = {EXCHANGE: "X", CLOSE: "C", PASS: "P", GO_OUT: "G"}
_FROM_LETTER = {v: k for k, v in _LETTERS.items()}
_SUITS = "CSHD"
_SUIT_SYMBOLS = "♣♠♥♦"


def action_str(action: int) -> str:
    """Short text form that :func:`parse_action` reads back."""
    if 0 <= action < NUM_CARDS:
        return card_str(action)
    if MARRIAGE <= action < MARRIAGE + 4:
        return f"M{action - MARRIAGE}"
    if action in _LETTERS:
        return _LETTERS[action]
    raise ValueError(f"action {action} out of range: allowed 0..{NUM_ACTIONS - 1}")


def action_label(action: int) -> str:
    """Readable description for renders and error messages."""
    if 0 <= action < NUM_CARDS:
        return f"play {card_symbol(action)}"
    if MARRIAGE <= action < MARRIAGE + 4:
        return f"declare marriage {_SUIT_SYMBOLS[action - MARRIAGE]}"
    return {EXCHANGE: "exchange trump", CLOSE: "close", PASS: "pass", GO_OUT: "go out"}.get(action, f"action {action}")


def parse_action(text: str | int) -> int:
    """Action id from an int, a card string, ``M<suit>``, ``X``, ``C``, ``P`` or ``G``."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < NUM_ACTIONS:
            return text
        raise ValueError(f"action {text} out of range: allowed 0..{NUM_ACTIONS - 1}")
    s = str(text).strip().upper()
    if s in _FROM_LETTER:
        return _FROM_LETTER[s]
    if len(s) == 2 and s[0] == "M":
        if s[1].isdigit() and int(s[1]) < 4:
            return MARRIAGE + int(s[1])
        if s[1] in _SUITS:
            return MARRIAGE + _SUITS.index(s[1])
    try:
        return parse_card(s)
    except ValueError:
        raise ValueError(
            f"unknown action {text!r}: use a card ('QH'), M0..M3 (marriage), X (exchange), "
            "C (close), P (pass) or G (go out)"
        ) from None


def actions_of(mask: int) -> list[int]:
    """Action ids set in an action bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
