"""Words for what happens in a game of any size, shared by the terminal replay and terminal play.

Everything here reads only public facts of two positions (before and after an action), so the
notes are fair to show to any player: who took a trick and for how many points, the draw from
the stock, a closing, an exchange, a marriage, the trump chosen, and the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS, action_label
from .cards import NUM_CARDS, card_symbol
from .engine import Deal, Decision, Termination
from .infostate import InfoState
from .multiplayer.actions import CHOOSE_TRUMP, TRUMP_BY_CARD, table_action_label
from .multiplayer.table import TableDecision, TableTermination
from .render import describe_outcome

__all__ = [
    "action_text",
    "move_text",
    "side_label",
    "points_text",
    "step_notes",
    "outcome_text",
    "match_score_text",
    "suit_symbol",
]

SUITS = "♣♠♥♦"


def suit_symbol(suit: int) -> str:
    return SUITS[suit] if 0 <= suit < 4 else "?"


def action_text(deal: Any, action: int) -> str:
    """The readable label of an action id in this deal's game (as records store it)."""
    return action_label(action) if isinstance(deal, Deal) else table_action_label(action)


def _two_player(deal: Any) -> bool:
    return isinstance(deal, (Deal, InfoState))


def move_text(deal: Any, action: int) -> str:
    """What ``action`` means in this position (a deal or a player's view), in words: ``pass``
    becomes "draw from the stock", "keep 9♥" or "show no marriage", a marriage names its cards."""
    two = _two_player(deal)
    if action < NUM_CARDS:
        return f"{'lead' if _leading(deal) else 'play'} {card_symbol(action)}"
    if MARRIAGE <= action < MARRIAGE + 4:
        suit = action - MARRIAGE
        value = 40 if suit == deal.trump else 20
        return f"declare the marriage K{SUITS[suit]} Q{SUITS[suit]} ({value})"
    if two:
        if action == EXCHANGE:
            face_up = deal.stock[0] if isinstance(deal, Deal) else deal.stock_bottom
            return f"exchange {card_symbol(deal.exchange_card)} for the trump card {card_symbol(face_up)}"
        if action == CLOSE:
            return "close the stock"
        if action == GO_OUT:
            return "go out (claim 66)"
        if action == PASS:
            return {
                Decision.DRAW: "draw from the stock (do not close)",
                Decision.CLOSING_EXCHANGE: f"keep {card_symbol(deal.exchange_card)}",
                Decision.CLAIM: "do not go out (let the deal be scored)",
            }.get(deal.decision, "pass")
    else:
        if action == PASS:
            return "show no marriage" if deal.decision == TableDecision.PARTNER_MARRIAGE else "do not go out"
        if action == GO_OUT:
            return "go out (claim 66 for the team)"
        if CHOOSE_TRUMP <= action < CHOOSE_TRUMP + 4:
            return f"name {SUITS[action - CHOOSE_TRUMP]} trump"
        if action == TRUMP_BY_CARD:
            return "turn the card for trump"
    return action_label(action) if two else table_action_label(action)


def _leading(deal: Any) -> bool:
    if _two_player(deal):
        return deal.decision == Decision.LEAD
    return deal.decision == TableDecision.LEAD


def _n_sides(deal: Any) -> int:
    return 2 if isinstance(deal, Deal) else deal.n_sides


def side_label(deal: Any, side: int, names: Sequence[str]) -> str:
    """A player's name, or a team's (``ann & cat``) in the four-player game."""
    if not isinstance(deal, Deal) and deal.n_sides != deal.n_players:
        return " & ".join(names[p] for p in range(deal.n_players) if deal.side_of(p) == side)
    return names[side]


def points_text(deal: Any, names: Sequence[str]) -> str:
    """Counted points per player (or team), with marriage points still waiting for a trick."""
    parts = []
    for s in range(_n_sides(deal)):
        pend = f" (+{deal.pending[s]})" if deal.pending[s] else ""
        parts.append(f"{side_label(deal, s, names)} {deal.points[s]}{pend}")
    return " · ".join(parts)


def match_score_text(scores: Sequence[int], deal: Any, names: Sequence[str]) -> str:
    return " · ".join(f"{side_label(deal, s, names)} {scores[s]}" for s in range(len(scores)))


def _trick_winner(before: Any, after: Any) -> int:
    return after.leader if isinstance(after, Deal) else after.last_winner


def step_notes(before: Any, after: Any, names: Sequence[str]) -> list[str]:
    """What the last action did, beyond its label (public facts only)."""
    notes: list[str] = []
    two = isinstance(after, Deal)
    action = after.history[-1] & (31 if two else 63)
    if not two and before.trump < 0 <= after.trump:
        turned = f", the turned card {card_symbol(after.trump_card)}" if after.trump_card >= 0 else ""
        notes.append(f"trump is {suit_symbol(after.trump)}{turned}")
    if MARRIAGE <= action < MARRIAGE + 4:
        declarer = after.history[-1] >> (5 if two else 6)
        side = declarer if two else after.side_of(declarer)
        if after.pending[side] > before.pending[side]:
            notes.append("its points count once a trick is won")
    if after.trick_count > before.trick_count:
        w = _trick_winner(before, after)
        side = w if two else after.side_of(w)
        gained = after.points[side] - before.points[side]
        notes.append(f"trick to {names[w]} (+{gained})")
    if two and before.closed_by < 0 <= after.closed_by:
        notes.append("the stock is closed")
    if two and len(after.stock) < len(before.stock):
        left = len(after.stock)
        notes.append(f"both draw, {left} left in the stock" if left else "both draw: the stock is used up")
    return notes


def outcome_text(deal: Any, names: Sequence[str]) -> str:
    """The result of a finished deal in words."""
    out = deal.outcome
    if out is None:
        return "the deal is not finished"
    if isinstance(deal, Deal):
        text = describe_outcome(deal, tuple(names))  # type: ignore[arg-type]
        if out.termination == Termination.CLOSER_FAILED and deal.closed_by >= 0:
            text += f" ({names[deal.closed_by]} closed)"
        return text
    if out.termination == TableTermination.DRAWN:
        return f"drawn deal: the most points are shared ({points_text(deal, names)}), nobody pays"
    winner = side_label(deal, out.winner, names)
    if deal.n_sides == deal.n_players:  # three players: stakes
        pays = ", ".join(f"{names[p]} pays {-x}" for p, x in enumerate(out.payoffs) if x < 0)
        return f"{winner} wins with {deal.points[out.winner]} points and takes {out.game_points} stakes ({pays})"
    how = {
        TableTermination.WENT_OUT: "go out",
        TableTermination.FALSE_CLAIM: "win (the other team claimed 66 without having it)",
        TableTermination.PLAYED_OUT: "take the last trick of a played-out deal",
    }[out.termination]
    g = out.game_points
    return f"{winner} {how}, {points_text(deal, names)}: {g} game point{'s' if g != 1 else ''}"
