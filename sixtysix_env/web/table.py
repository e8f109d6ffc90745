"""The page's view of a three- or four-player deal, read from one seat's ``TableView``.

The same keys as the two-player :func:`~sixtysix_env.web.view.seat_view` where the games agree
(hands, trick, last trick, legal moves, outcome), with ``players`` for every seat, ``sides``
for whoever scores (each player with three, the two teams with four) and no stock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import NUM_CARDS, card_symbol
from ..table.deal import TableDecision
from ..table.view import TableView
from ..textplay import move_text, side_label
from .view import SUIT_SYMBOLS, screen_state, sorted_hand

__all__ = ["table_view"]


def table_view(
    view: TableView,
    names: Sequence[str],
    *,
    you: int | None,
    other_hands: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    result: str = "",
) -> dict[str, Any]:
    """The table as ``view.player`` may see it (while trump is being named, his hand is his first
    3 cards); ``other_hands`` (replays only) shows every hand in full."""
    me, n = view.player, view.n_players
    trump = view.trump
    order_trump = trump if trump >= 0 else 0
    side_of = (lambda p: p) if view.n_sides == n else (lambda p: p % 2)
    players = []
    for p in range(n):
        if other_hands is not None:  # a replay: every hand in full, even while trump is being named
            hand: list[int] | None = sorted_hand(other_hands[p], order_trump)
        elif p == me:
            hand = sorted_hand(view.hand, order_trump)
        else:
            hand = None
        players.append(
            {
                "name": names[p],
                "hand": hand,
                "hand_size": view.hand.bit_count() if p == me else view.hand_sizes[p],
                "known": sorted_hand(view.known[p], order_trump) if p != me else [],
                "points": view.points[side_of(p)],
                "pending": view.pending[side_of(p)],
                "tricks": view.tricks_won[p],
                "marriages": [s for s in range(4) if view.marriages[p] >> s & 1],
                "dealer": p == view.dealer,
                "side": side_of(p),
            }
        )
    sides = [
        {
            "name": side_label(view, s, names),
            "points": view.points[s],
            "pending": view.pending[s],
            "tricks": view.side_tricks[s],
        }
        for s in range(view.n_sides)
    ]
    legal = []
    if you is not None and view.outcome is None and view.current_player == you == me:
        for a in view.legal_actions():
            label = move_text(view, a)
            kind = "card" if a < NUM_CARDS else "button"
            entry = {"action": a, "kind": kind, "label": label[:1].upper() + label[1:]}
            if a < NUM_CARDS:
                entry["card"] = a
            legal.append(entry)
    if trump < 0:
        where = "not named yet"
    elif view.trump_card < 0:
        where = "named"
    else:
        holder = next((q for q in range(n) if view.known[q] >> view.trump_card & 1), -1)
        where = "played" if holder < 0 else f"player {holder}"
    return screen_state(
        view,
        game=view.game,
        match_deals=getattr(view.rules, "match_deals", 0),
        you=you,
        names=names,
        trump={
            "suit": trump if trump >= 0 else None,
            "symbol": SUIT_SYMBOLS[trump] if trump >= 0 else "?",
            "card": view.trump_card if view.trump_card >= 0 else None,
            "text": card_symbol(view.trump_card) if view.trump_card >= 0 else "",
            "where": where,
        },
        stock=None,
        players=players,
        sides=sides,
        legal=legal,
        first_packet=view.decision == TableDecision.TRUMP,
        result=result,
        scores=scores if scores is not None else view.scores,
    )
