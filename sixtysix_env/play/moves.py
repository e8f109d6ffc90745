"""The legal moves with short keys, and what a person types turned into one of them.

A move is chosen by its key (``1``, ``2``, ...), by a card (``QH``, ``10H``, ``TH``, ``Q♥``, any
case), or by a letter or word for the other actions (``C``/``close``, ``D``/``draw``, ``X``/
``exchange``, ``G``/``out``, ``P``/``pass``, ``MH``/``M♥`` for a marriage, ``=H``/``=♥`` to name
trump, ``=?`` to turn the card). Anything else is an :class:`EntryError` with a message saying
what was wrong and what is possible; nothing here raises for bad text otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import NUM_CARDS, card_symbol, parse_card
from ..engine import Decision
from ..infostate import InfoState
from ..render import hand_order
from ..table.actions import CHOOSE_TRUMP, TRUMP_BY_CARD
from ..textplay import move_text

__all__ = ["Move", "EntryError", "COMMANDS", "keyed_moves", "parse_entry", "moves_text"]

COMMANDS = {
    "help": "help",
    "h": "help",
    "?": "help",
    "quit": "quit",
    "q": "quit",
    "exit": "quit",
    "show": "show",
    "s": "show",
    "tricks": "tricks",
    "t": "tricks",
}
"""Words the prompt understands besides moves, and what they mean."""

_SUIT_CHARS = {"C": 0, "S": 1, "H": 2, "D": 3, "♣": 0, "♠": 1, "♥": 2, "♦": 3, "♧": 0, "♤": 1, "♡": 2, "♢": 3}
_WORDS = {
    "close": CLOSE,
    "c": CLOSE,
    "draw": PASS,
    "d": PASS,
    "exchange": EXCHANGE,
    "x": EXCHANGE,
    "out": GO_OUT,
    "go out": GO_OUT,
    "g": GO_OUT,
    "pass": PASS,
    "p": PASS,
    "keep": PASS,
    "no": PASS,
    "turn": TRUMP_BY_CARD,
    "=?": TRUMP_BY_CARD,
}


class EntryError(ValueError):
    """A typed entry that is no legal move; the message is meant for the person at the prompt."""


@dataclass(frozen=True)
class Move:
    """One choice offered in terminal play: its key, the action id and the text shown."""

    key: str
    action: int
    text: str


def keyed_moves(view: Any) -> list[Move]:
    """The seat's legal moves numbered from 1: the cards in the order the hand is shown (trumps
    first), then the other actions."""
    legal = view.legal_actions()
    cards = hand_order([a for a in legal if a < NUM_CARDS], view.trump)
    ordered = cards + [a for a in legal if a >= NUM_CARDS]
    return [Move(str(i), a, move_text(view, a)) for i, a in enumerate(ordered, start=1)]


def moves_text(moves: list[Move], columns: int = 3) -> str:
    """The moves in aligned columns: ``[1] lead A♥   [2] lead 10♥ ...``."""
    cells = [f"[{m.key}] {m.text}" for m in moves]
    width = max(len(c) for c in cells) + 3
    if 2 + width * columns > 80 or any(len(c) > 30 for c in cells):  # 80 columns at most
        columns = 1 if any(len(c) > 36 for c in cells) else 2
    rows = [cells[i : i + columns] for i in range(0, len(cells), columns)]
    return "\n".join("  " + "".join(c.ljust(width) for c in row).rstrip() for row in rows)


def _read_action(text: str, two_player: bool) -> int | None:
    """The action a text names, or None if it names none (legality is checked by the caller)."""
    low = text.lower()
    if low in _WORDS:
        action = _WORDS[low]
        return None if two_player and action >= CHOOSE_TRUMP else action
    up = text.upper()
    if len(up) == 2 and up[0] == "M" and up[1] in _SUIT_CHARS:
        return MARRIAGE + _SUIT_CHARS[up[1]]
    if len(up) == 2 and up[0] == "M" and up[1] in "0123":
        return MARRIAGE + int(up[1])
    if not two_player and len(up) == 2 and up[0] == "=" and up[1] in _SUIT_CHARS:
        return CHOOSE_TRUMP + _SUIT_CHARS[up[1]]
    try:
        return parse_card(up)
    except ValueError:
        return None


def _why_not(view: Any, action: int) -> str:
    """Why a move that names a real action is not legal here, in the person's terms."""
    if action < NUM_CARDS:
        card = card_symbol(action)
        if not view.hand >> action & 1:
            return f"you do not hold {card}"
        if isinstance(view, InfoState):
            if view.declared >= 0:
                return f"after declaring you must lead the king or queen of {'♣♠♥♦'[view.declared]}"
            if view.decision == Decision.FOLLOW:
                beat = " and take the trick" if view.rules.must_win_trick else ""
                return (
                    f"{card} is not allowed: with the stock closed or used up you must follow suit{beat} if you "
                    "can, else play a trump"
                )
            return f"{card} cannot be played now"
        if view.declared >= 0:
            return f"after declaring you must lead the king or queen of {'♣♠♥♦'[view.declared]}"
        if view.rules.must_beat:
            return f"{card} is not allowed: follow suit and beat the best card if you can, else trump (over a trump)"
        return f"{card} is not allowed: follow suit if you can, else trump"
    return f"'{move_text(view, action)}' is not possible now"


def parse_entry(text: str, view: Any, moves: list[Move]) -> int | str:
    """The action id chosen by ``text``, or a command name from :data:`COMMANDS`.

    Raises :class:`EntryError` with a message for the person when the entry is no legal move."""
    keys = "1" if len(moves) == 1 else f"1-{len(moves)}"
    entry = " ".join(text.strip().split())
    if not entry:
        raise EntryError(f"type the number of a move ({keys}), a card such as QH, or help")
    if entry.lower() in COMMANDS:
        return COMMANDS[entry.lower()]
    for m in moves:
        if entry == m.key:
            return m.action
    if entry.isdigit():
        raise EntryError(f"there is no move {entry}: choose {keys}")
    action = _read_action(entry, isinstance(view, InfoState))
    if action is None:
        raise EntryError(f"'{entry}' is neither a move nor a card: type 1-{len(moves)}, a card (QH, 10H, Q♥), or help")
    if action in {m.action for m in moves}:
        return action
    if action == PASS and any(m.action == PASS for m in moves):  # "draw" and "keep" both mean pass
        return PASS
    raise EntryError(_why_not(view, action))
