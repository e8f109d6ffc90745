"""What the page shows, as JSON-ready dicts: a seat's fair view, or a spectator's view for replays.

The table is read from an :class:`~sixtysix_env.infostate.InfoState` (what one seat may know,
docs/RULES.md section 4); only the replay view adds the other hand, from a finished game's record. The
page never sees more than these dicts, so the browser cannot leak a card the seat may not know.
The log lines and results are worded by :mod:`sixtysix_env.textplay` (as in the terminal), which
reads only the public facts of two positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import CLOSE, PASS
from ..cards import NUM_CARDS, card_symbol, cards_of, points_of
from ..engine import Deal, Decision
from ..infostate import TRUMP_IN_STOCK, TRUMP_PLAYED, TRUMP_WITH_ME, InfoState
from ..play.view import trick_plays
from ..textplay import SUITS as SUIT_SYMBOLS
from ..textplay import move_text, outcome_text, step_notes

__all__ = ["log_line", "result_line", "seat_view", "sentence", "sorted_hand", "trick_list"]

_SUIT_ORDER = (2, 1, 3, 0)  # hearts, spades, diamonds, clubs: alternating colours read well


def sorted_hand(mask: int, trump: int) -> list[int]:
    """A hand as a player holds it: trumps first, then the other suits in alternating colours, high to low."""
    return sorted(cards_of(mask), key=lambda c: (c // 6 != trump, _SUIT_ORDER.index(c // 6), -c))


def trick_list(view: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(finished tricks, the cards of the trick in progress) from the public history of a view of
    any of the games (an ``InfoState`` or a ``TableView``; :func:`~sixtysix_env.play.view.trick_plays`).
    A finished trick is ``{"cards": [{"player", "card"}, ...], "winner": p, "points": n}``."""
    finished, current = trick_plays(view)
    done = [
        {
            "cards": [{"player": p, "card": c} for p, c in plays],
            "winner": winner,
            "points": sum(points_of(c) for _, c in plays),
        }
        for plays, winner in finished
    ]
    return done, [{"player": p, "card": c} for p, c in current]


def sentence(text: str) -> str:
    """A sentence that starts with "you" gets its capital ("you: lead Q♠" -> "You: lead Q♠");
    agent names ("pimc", "mybot.py:Bot") are left as they are written."""
    return "Y" + text[1:] if text.startswith("you") else text


def _button(text: str) -> str:
    return text[:1].upper() + text[1:]


def log_line(before: Any, after: Any, action: int, names: Sequence[str], viewer: int | None = None) -> str:
    """One line of the page's log, worded as the terminal says it: "pimc: play J♠ — trick to you (+5)".

    Only public facts of the two positions are read (:func:`sixtysix_env.textplay.step_notes`), and
    the move as ``viewer`` saw it (:func:`~sixtysix_env.textplay.move_text`: another seat's face-down
    card is not named; ``EVERY_SEAT`` for a replay, which shows every hand)."""
    notes = step_notes(before, after, names)
    if isinstance(before, Deal) and action == PASS and before.decision == Decision.DRAW and notes:
        return notes[0][:1].upper() + notes[0][1:]  # "Both draw, 10 left in the stock": the table shows who won
    if action == CLOSE:
        notes = [n for n in notes if n != "the stock is closed"]  # the move says it already
    text = f"{names[before.current_player]}: {move_text(before, action, viewer)}"
    return sentence(text + (" — " + "; ".join(notes) if notes else ""))


def result_line(deal: Any, names: Sequence[str]) -> str:
    """The result of a finished deal in one sentence."""
    text = outcome_text(deal, names)
    if text.startswith("drawn"):
        text = "D" + text[1:]
    return sentence(text) + "."


def _trump_place(info: InfoState) -> str:
    loc = info.trump_location
    if loc == TRUMP_IN_STOCK:
        return "stock"
    if loc == TRUMP_PLAYED:
        return "played"
    holder = info.player if loc == TRUMP_WITH_ME else info.opponent
    return f"player {holder}"


def seat_view(
    info: InfoState,
    names: list[str],
    *,
    you: int | None,
    other_hand: int | None = None,
    scores: tuple[int, int] | None = None,
    result: str = "",
) -> dict[str, Any]:
    """The table as ``info.player`` may see it; ``you`` is the human's seat (None in replays), and
    ``other_hand`` (replays only) shows the other hand face up. ``scores`` are the match scores
    after this deal when it is over (the deal's own ``scores`` are those before it); ``result`` the
    sentence for a finished deal (:func:`result_line`, which needs the whole deal)."""
    me, opp = info.player, info.opponent
    trump = info.trump
    players = []
    for p in (0, 1):
        if p == me:
            hand: list[int] | None = sorted_hand(info.hand, trump)
        elif other_hand is not None:
            hand = sorted_hand(other_hand, trump)
        else:
            hand = None
        known = sorted_hand(info.known_opponent, trump) if p == opp else []
        players.append(
            {
                "name": names[p],
                "hand": hand,
                "hand_size": info.hand.bit_count() if p == me else info.opponent_hand_size,
                "known": known,
                "points": info.points[p],
                "pending": info.pending[p],
                "tricks": info.tricks[p],
                "marriages": [s for s in range(4) if info.marriages[p] >> s & 1],
                "dealer": p == info.dealer,
                "side": p,
            }
        )
    legal = []
    if you is not None and info.outcome is None and info.current_player == you == me:
        for a in info.legal_actions():
            if a < NUM_CARDS:
                legal.append({"action": a, "kind": "card", "card": a, "label": f"play {card_symbol(a)}"})
            else:
                legal.append({"action": a, "kind": "button", "label": _button(move_text(info, a))})
    stock_open = info.stock_size > 0 and info.closed_by < 0
    sides = [
        {"name": names[p], "points": info.points[p], "pending": info.pending[p], "tricks": info.tricks[p]}
        for p in (0, 1)
    ]
    return screen_state(
        info,
        game="two",
        match_deals=0,
        you=you,
        names=names,
        trump={
            "suit": trump,
            "symbol": SUIT_SYMBOLS[trump],
            "text": card_symbol(info.trump_card),
            "card": info.trump_card,
            "where": _trump_place(info),
        },
        stock={
            "size": info.stock_size,
            "bottom": info.stock_bottom if info.stock_size else None,
            "face_up": stock_open,
            "closed_by": info.closed_by if info.closed_by >= 0 else None,
        },
        players=players,
        sides=sides,
        legal=legal,
        first_packet=False,
        result=result,
        scores=scores if scores is not None else info.scores,
    )


def screen_state(
    view: Any,
    *,
    game: str,
    match_deals: int,
    you: int | None,
    names: Sequence[str],
    trump: dict[str, Any],
    stock: dict[str, Any] | None,
    players: list[dict[str, Any]],
    sides: list[dict[str, Any]],
    legal: list[dict[str, Any]],
    first_packet: bool,
    result: str,
    scores: Sequence[int],
) -> dict[str, Any]:
    """The state a play screen draws, one schema for every game: the parts that differ by game come
    in as arguments, the rest (tricks, turn, outcome) is read from ``view`` the same way for all."""
    done, current = trick_list(view)
    out = view.outcome
    return {
        "game": game,
        "n_players": len(players),
        "rules": view.rules.name,
        "match_target": view.rules.match_target,
        "match_deals": match_deals,
        "you": you,
        "bottom": view.player,
        "names": list(names),
        "dealer": view.dealer,
        "trump": trump,
        "stock": stock,
        "players": players,
        "sides": sides,
        "table": current,
        "last_trick": done[-1] if done else None,
        "tricks": done,
        "trick_count": len(done),
        "turn": view.current_player if out is None else None,
        "decision": view.decision.name.lower() if view.decision is not None else None,
        "first_packet": first_packet,
        "declared": view.declared if view.declared >= 0 else None,
        "legal": legal,
        "outcome": None
        if out is None
        else {
            "winner": out.winner,
            "game_points": out.game_points,
            "termination": out.termination.name.lower(),
            "payoffs": list(out.payoffs),
            "text": result,
        },
        "scores": list(scores),
    }
