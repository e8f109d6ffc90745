"""Readable text for a deal, with suit symbols: what a spectator sees (both hands face up)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import action_label
from .cards import card_symbol, cards_of
from .engine import Deal, Termination

__all__ = ["render_deal", "describe_outcome", "hand_order", "hand_text"]

_SUIT_ORDER = (2, 1, 3, 0)  # hearts, spades, diamonds, clubs: alternating colours read well


def hand_order(cards: Iterable[int], trump: int) -> list[int]:
    """Cards as a player holds them: trumps first, then suits in alternating colours, high to low."""
    return sorted(cards, key=lambda c: (c // 6 != trump, _SUIT_ORDER.index(c // 6), -c))


def hand_text(mask: int, trump: int) -> str:
    """A hand as a player holds it (:func:`hand_order`), with suit symbols."""
    return " ".join(card_symbol(c) for c in hand_order(cards_of(mask), trump)) or "-"


def describe_outcome(deal: Deal, names: tuple[str, str] = ("player_0", "player_1")) -> str:
    """One line saying how a finished deal ended (winner, game points, why); a running deal says so."""
    out = deal.outcome
    if out is None:
        return "deal in progress"
    if out.winner < 0:
        return f"drawn deal at {deal.points[0]}-{deal.points[1]}: nobody scores"
    how = {
        Termination.WENT_OUT: "goes out",
        Termination.FALSE_CLAIM: "wins (the opponent claimed 66 without having it)",
        Termination.CLOSER_FAILED: "wins (the closer missed 66)",
        Termination.PLAYED_OUT: "wins the played-out deal",
        Termination.DRAWN: "draws",
    }[out.termination]
    return (
        f"{names[out.winner]} {how}, {deal.points[out.winner]} to {deal.points[1 - out.winner]} points: "
        f"{out.game_points} game point{'s' if out.game_points != 1 else ''}"
    )


def render_deal(
    deal: Deal,
    names: tuple[str, str] = ("player_0", "player_1"),
    last: str | None = None,
    match_scores: Sequence[int] | None = None,
) -> str:
    """Multi-line text: trump, stock, both hands, the trick on the table, points and whose turn, and
    a finished deal's result (once). ``match_scores`` (match play only) go in the first line."""
    r = deal.rules
    trump = deal.trump
    stock = deal.stock
    if not stock:
        stock_text = "exhausted"
    else:
        bottom = card_symbol(stock[0])
        stock_text = f"{len(stock)} cards, {bottom} {'face down (closed)' if deal.closed_by >= 0 else 'face up'}"
    if deal.closed_by >= 0:
        stock_text += f"; closed by {names[deal.closed_by]}"
    lines = [
        f"Sixty-Six ({r.name}) · trump {card_symbol(deal.trump_card)} · stock {stock_text} · "
        + (f"match {match_scores[0]}-{match_scores[1]} · " if match_scores is not None else "")
        + f"dealer {names[deal.dealer]}",
    ]
    for p in (0, 1):
        extra = f" (+{deal.pending[p]} pending)" if deal.pending[p] else ""
        lines.append(
            f"  {names[p]:>10}: {hand_text(deal.hands[p], trump):<28} points {deal.points[p]:>3}{extra}, "
            f"tricks {deal.tricks[p]}"
        )
    if deal.lead_card >= 0:
        lines.append(f"  on the table: {card_symbol(deal.lead_card)} led by {names[deal.leader]}")
    if last:
        lines.append(f"  last action: {last}")
    if deal.outcome is not None:
        lines.append(f"  result: {describe_outcome(deal, names)}")
    else:
        legal = ", ".join(action_label(a) for a in deal.legal_actions())
        lines.append(f"  {names[deal.current]} to {deal.decision.name.lower()}: {legal}")
    return "\n".join(lines)
