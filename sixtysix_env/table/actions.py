"""Action ids of the three- and four-player games: the two-player ids keep their meaning, and the
table's own decisions are appended after them.

| id    | meaning                                                                      | text   |
|-------|------------------------------------------------------------------------------|--------|
| 0-23  | card id ``6*suit + rank``: play it; in the Russian game's card decisions, the card meant (below)  | ``QH`` |
| 24-27 | declare the marriage in suit ``id - 24`` (the leader then leads K or Q; a partner only shows it) | ``M2`` |
| 28-29 | never legal here (no stock: no exchange, no closing)                         |        |
| 30    | pass: no marriage (partner), no going out, play on (no redeal), name no contract             | ``P``  |
| 31    | go out, claiming 66 for the team (four players, explicit claiming)           | ``G``  |
| 32-35 | name suit ``id - 32`` (♣ ♠ ♥ ♦) as trump, after seeing one's first 3 cards    | ``=H`` |
| 36    | do not name trump: the turned card decides                                   | ``=?`` |
| 37    | demand a redeal (Russian game)                                               | ``R``  |
| 38    | ask the partner about trumps (Russian game, a hand with at most one trump)   | ``AT`` |
| 39    | declare three nines (Russian game)                                           | ``N``  |
| 40-43 | name the contract five, six, fur coat, suit (Russian game)                   | ``B5`` ``B6`` ``BF`` ``BS`` |
| 44-47 | declare the marriage in suit ``id - 44`` without leading: the deal ends        | ``W2`` |
| 48    | ask the partner for a third nine (Russian game, toggle ``nines_partner_ask``) | ``AN`` |
| 63    | (views only, never legal) another's card decision seen face down (three nines, five)         | ``?``  |

In the Russian game's card decisions a card id names a card of one's hand without playing it:
the card discarded for the contract five, the card committed against three nines, the nine
held back by a player with four nines, or the nine left on the table by the nines' declarer.
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
    "REDEAL",
    "ASK_TRUMPS",
    "THREE_NINES",
    "BID",
    "CONTRACT_NAMES",
    "MARRIAGE_NO_LEAD",
    "ASK_NINE",
    "HIDDEN_ACTION",
    "table_action_str",
    "table_action_label",
    "parse_table_action",
]

CHOOSE_TRUMP = 32
"""First trump-naming id: ``CHOOSE_TRUMP + s`` names suit ``s`` trump."""
TRUMP_BY_CARD = 36
"""Do not name trump: the turned card decides."""
REDEAL = 37
"""Demand a redeal (Russian game)."""
ASK_TRUMPS = 38
"""Ask the partner about trumps (Russian game)."""
THREE_NINES = 39
"""Declare three nines (Russian game)."""
BID = 40
"""``BID + k - 1`` names contract ``k``: 1 five, 2 six, 3 fur coat, 4 suit."""
MARRIAGE_NO_LEAD = 44
"""First id of declaring a marriage without leading: ``MARRIAGE_NO_LEAD + s`` (the deal ends)."""
ASK_NINE = 48
"""Ask the partner for a third nine (``nines_partner_ask`` only)."""
NUM_TABLE_ACTIONS = 49
"""Size of the three- and four-player action space, ``Discrete(49)``."""
HIDDEN_ACTION = 63
"""In a player's view of the history, another player's secret card decision (commit, discard):
the view says that he acted, never which card (``TableView.history``)."""

CONTRACT_NAMES = ("", "five", "six", "fur coat", "suit")
"""Contract names by number (0: none); the Russian 'на пять', 'на шесть', 'на шубу', 'на костюм'."""

_SUITS = "CSHD"
_SYMBOLS = "♣♠♥♦"
_BID_TEXT = "56FS"
_NAMED = {PASS: "P", GO_OUT: "G", TRUMP_BY_CARD: "=?", REDEAL: "R", ASK_TRUMPS: "AT", THREE_NINES: "N", ASK_NINE: "AN"}
_LABELS = {
    PASS: "pass",
    GO_OUT: "go out",
    TRUMP_BY_CARD: "turn the card for trump",
    REDEAL: "demand a redeal",
    ASK_TRUMPS: "ask the partner about trumps",
    THREE_NINES: "declare three nines",
    ASK_NINE: "ask the partner for a third nine",
}


def table_action_str(action: int) -> str:
    """Short text that :func:`parse_table_action` reads back."""
    if 0 <= action < NUM_CARDS:
        return card_str(action)
    if MARRIAGE <= action < MARRIAGE + 4:
        return f"M{action - MARRIAGE}"
    if CHOOSE_TRUMP <= action < CHOOSE_TRUMP + 4:
        return "=" + _SUITS[action - CHOOSE_TRUMP]
    if BID <= action < BID + 4:
        return "B" + _BID_TEXT[action - BID]
    if MARRIAGE_NO_LEAD <= action < MARRIAGE_NO_LEAD + 4:
        return f"W{action - MARRIAGE_NO_LEAD}"
    if action in _NAMED:
        return _NAMED[action]
    if action == HIDDEN_ACTION:
        return "?"
    raise ValueError(f"action {action} has no meaning in the three- and four-player games")


_CARD_VERBS = {7: "hold back", 8: "commit", 9: "leave", 10: "discard"}
"""What a card id does in the Russian card decisions (``TableDecision`` values 7-10)."""


def table_action_label(action: int, decision: int | None = None) -> str:
    """Readable description for renders and error messages; ``decision`` (a ``TableDecision``)
    names what a card id does there (play, discard, commit, hold back or leave a nine)."""
    if 0 <= action < NUM_CARDS:
        return f"{_CARD_VERBS.get(int(decision), 'play') if decision is not None else 'play'} {card_symbol(action)}"
    if MARRIAGE <= action < MARRIAGE + 4:
        return f"declare marriage {_SYMBOLS[action - MARRIAGE]}"
    if CHOOSE_TRUMP <= action < CHOOSE_TRUMP + 4:
        return f"name {_SYMBOLS[action - CHOOSE_TRUMP]} trump"
    if BID <= action < BID + 4:
        return f"name the contract {CONTRACT_NAMES[action - BID + 1]}"
    if MARRIAGE_NO_LEAD <= action < MARRIAGE_NO_LEAD + 4:
        return f"declare marriage {_SYMBOLS[action - MARRIAGE_NO_LEAD]} without leading"
    if action == HIDDEN_ACTION:
        return "a card face down"
    return _LABELS.get(action, f"action {action}")


def parse_table_action(text: str | int) -> int:
    """Action id from an int or the text forms in the table above."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < NUM_TABLE_ACTIONS:
            return text
        raise ValueError(f"action {text} out of range: allowed 0..{NUM_TABLE_ACTIONS - 1}")
    s = str(text).strip().upper()
    for action, name in _NAMED.items():
        if s == name:
            return action
    if len(s) == 2 and s[0] == "=" and s[1] in _SUITS:
        return CHOOSE_TRUMP + _SUITS.index(s[1])
    if len(s) == 2 and s[0] == "B" and s[1] in _BID_TEXT:
        return BID + _BID_TEXT.index(s[1])
    if len(s) == 2 and s[0] in "MW" and s[1].isdigit() and int(s[1]) < 4:
        return (MARRIAGE if s[0] == "M" else MARRIAGE_NO_LEAD) + int(s[1])
    try:
        return parse_card(s)
    except ValueError:
        raise ValueError(
            f"unknown action {text!r}: use a card ('QH'), M0..M3 (marriage), P (pass), G (go out), "
            "=C/=S/=H/=D (name trump), =? (turn the card), R (redeal), AT (ask about trumps), N (three nines), "
            "B5/B6/BF/BS (contract), W0..W3 (marriage without leading) or AN (ask for a nine)"
        ) from None
