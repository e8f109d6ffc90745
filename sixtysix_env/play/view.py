"""What the person at the table sees: text made from that seat's view only.

The two-player screen reads an ``InfoState`` and the table games' a ``TableView``; neither holds a
card the seat may not know, so nothing here can show one. docs/RULES.md section 4: trick points,
declared marriages (and the partner card still held), the trump card and who holds it, closing and
the stock size are public. With ``recall="human"`` the screen shows what a player keeps in his head
at a real table: the trick on the table and the last one, no counted points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import NUM_CARDS, card_symbol
from ..engine import Decision
from ..infostate import TRUMP_IN_STOCK, TRUMP_PLAYED, TRUMP_WITH_ME, InfoState
from ..render import hand_text
from ..table.deal import TableDecision, trick_winner
from ..textplay import SUITS, side_label

__all__ = ["Trick", "table_text", "prompt_text", "trick_plays", "tricks_played", "trick_text"]


Trick = tuple[list[tuple[int, int]], int]
"""A finished trick: its (seat, card) plays in order, and the seat that took it."""


def tricks_played(view: Any) -> list[Trick]:
    """Every finished trick of the deal, read from the public history (:func:`trick_plays`)."""
    return trick_plays(view)[0]


def trick_plays(view: Any) -> tuple[list[Trick], list[tuple[int, int]]]:
    """The finished tricks and the (seat, card) plays of the trick in progress, from the public
    history. In the table games a card decision before play (a discard, a commit, a nine held or
    left) is a card id there too, and all come before the first lead: the plays are the last cards
    of the history, 3 to a trick while a partner sits out a contract. A trick's winner leads the
    next one (the last one's is ``last_winner``)."""
    if isinstance(view, InfoState):
        cards = [(x >> 5, x & 31) for x in view.history if x & 31 < NUM_CARDS]
        done = len(cards) - len(cards) % 2
        pairs = [cards[k : k + 2] for k in range(0, done, 2)]
        return [(t, t[trick_winner([c for _, c in t], view.trump)][0]) for t in pairs], cards[done:]
    per = view.n_players - (1 if getattr(view, "sitting_out", -1) >= 0 else 0)
    cards = [(x >> 6, x & 63) for x in view.history if x & 63 < NUM_CARDS]
    count = view.trick_count * per + len(view.trick)
    cards = cards[len(cards) - count :] if count else []
    tricks = [cards[k : k + per] for k in range(0, view.trick_count * per, per)]
    leaders = [t[0][0] for t in tricks[1:]] + [view.last_winner]
    return list(zip(tricks, leaders[: len(tricks)], strict=True)), cards[view.trick_count * per :]


def trick_text(trick: Trick, names: Sequence[str]) -> str:
    """A finished trick as text: who played which card, and who took it."""
    plays, winner = trick
    return ", ".join(f"{names[p]} {card_symbol(c)}" for p, c in plays) + f"  → {names[winner]}"


def _suits(mask: int) -> str:
    return " ".join(SUITS[s] for s in range(4) if mask >> s & 1)


def _two_player_lines(v: InfoState, names: Sequence[str], recall: str, done: list[Trick]) -> list[str]:
    me, opp = v.player, v.opponent
    trump = card_symbol(v.trump_card)
    where = {
        TRUMP_IN_STOCK: "face up under the stock" if v.closed_by < 0 else "turned face down (the stock is closed)",
        TRUMP_WITH_ME: "in your hand",
        TRUMP_PLAYED: "played",
    }.get(v.trump_location, f"in {names[opp]}'s hand")
    lines = [f"  trump      {trump} {where}"]
    if v.closed_by >= 0:
        bottom = f" ({card_symbol(v.stock_bottom)} at the bottom)" if v.stock_bottom != v.trump_card else ""
        lines.append(f"  stock      closed by {names[v.closed_by]}, {v.stock_size} cards{bottom}")
    elif v.stock_size:
        under = f", {card_symbol(v.stock_bottom)} face up under it" if v.stock_bottom != v.trump_card else ""
        lines.append(f"  stock      {v.stock_size} cards{under}")
    else:
        lines.append("  stock      used up")
    if recall == "perfect":
        pts = []
        for p in (me, opp):
            pend = f" (+{v.pending[p]} when a trick is won)" if v.pending[p] else ""
            pts.append(f"{names[p]} {v.points[p]}{pend}")
        lines.append("  points     " + " · ".join(pts))
        lines.append(f"  tricks     {names[me]} {v.tricks[me]} · {names[opp]} {v.tricks[opp]}")
    for p in (me, opp):
        if v.marriages[p]:
            lines.append(f"  marriages  {names[p]}: {_suits(v.marriages[p])}")
    if v.known_opponent:
        how = "all known now" if not v.stock_size else "seen"
        lines.append(f"  {names[opp]} holds {hand_text(v.known_opponent, v.trump)}  ({how})")
    if done:
        lines.append(f"  last trick {trick_text(done[-1], names)}")
    if v.lead_card >= 0:
        lines.append(f"  on table   {names[v.leader]} led {card_symbol(v.lead_card)}")
    lines.append(f"  your hand  {hand_text(v.hand, v.trump)}")
    return lines


def _table_lines(v: Any, names: Sequence[str], recall: str, done: list[Trick]) -> list[str]:
    me = v.player
    if v.trump < 0:
        lines = ["  trump      not named yet"]
    elif v.trump_card >= 0:
        holder = next((q for q in range(v.n_players) if v.known[q] >> v.trump_card & 1), -1)
        where = "played" if holder < 0 else ("in your hand" if holder == me else f"in {names[holder]}'s hand")
        lines = [f"  trump      {SUITS[v.trump]}, the turned card {card_symbol(v.trump_card)} {where}"]
    else:
        lines = [f"  trump      {SUITS[v.trump]} (named)"]
    if recall == "perfect":
        pts = []
        for s in range(v.n_sides):
            pend = f" (+{v.pending[s]} when a trick is won)" if v.pending[s] else ""
            pts.append(f"{side_label(v, s, names)} {v.points[s]}{pend}")
        lines.append("  points     " + " · ".join(pts))
        lines.append("  tricks     " + " · ".join(f"{names[q]} {v.tricks_won[q]}" for q in range(v.n_players)))
    for q in range(v.n_players):
        if v.marriages[q]:
            lines.append(f"  marriages  {names[q]}: {_suits(v.marriages[q])}")
    for q in range(v.n_players):
        shown = v.known[q] & ~(1 << v.trump_card if v.trump_card >= 0 else 0) if q != me else 0
        if shown:
            lines.append(f"  {names[q]} holds {hand_text(shown, v.trump)}  (shown)")
    if done:
        lines.append(f"  last trick {trick_text(done[-1], names)}")
    if v.trick:
        played = ", ".join(f"{names[(v.leader + i) % v.n_players]} {card_symbol(c)}" for i, c in enumerate(v.trick))
        lines.append(f"  on table   {played}")
    seen = "your first 3 cards" if v.decision == TableDecision.TRUMP else "your hand "
    lines.append(f"  {seen} {hand_text(v.hand, v.trump)}")
    return lines


def table_text(view: Any, names: Sequence[str], recall: str = "perfect", tricks: list[Trick] | None = None) -> str:
    """The table as this seat sees it (names are per seat, the person's own being "you"); ``tricks``
    are the finished tricks if the caller keeps them, else :func:`tricks_played`."""
    done = tricks if tricks is not None else tricks_played(view)
    if isinstance(view, InfoState):
        return "\n".join(_two_player_lines(view, names, recall, done))
    return "\n".join(_table_lines(view, names, recall, done))


def prompt_text(view: Any, names: Sequence[str]) -> str:
    """What the person is deciding, in one sentence."""
    if isinstance(view, InfoState):
        d = view.decision
        if d == Decision.LEAD:
            if view.declared >= 0:
                s = SUITS[view.declared]
                return f"You declared the marriage in {s}: lead its K{s} or Q{s}."
            return "Your lead."
        if d == Decision.FOLLOW:
            led = f"{names[view.leader]} led {card_symbol(view.lead_card)}"
            if view.stock_size and view.closed_by < 0:
                return f"{led}: play any card."
            beat = " and take the trick" if view.rules.must_win_trick else ""
            return f"{led}: follow suit{beat} if you can, else play a trump."
        if d == Decision.DRAW:
            return "You took the trick. Close the stock now, or draw?"
        if d == Decision.CLOSING_EXCHANGE:
            ex = card_symbol(view.exchange_card)
            return f"{names[view.opponent]} closed the stock. Exchange your {ex} for {card_symbol(view.stock_bottom)}?"
        return "All cards are played. Go out (claim 66), or let the deal be scored?"
    d = view.decision
    if d == TableDecision.TRUMP:
        return "You have seen your first 3 cards. Name trump, or turn the card?"
    if d == TableDecision.LEAD:
        if view.declared >= 0:
            s = SUITS[view.declared]
            return f"You declared the marriage in {s}: lead its K{s} or Q{s}."
        return "Your lead."
    if d == TableDecision.FOLLOW:
        if view.rules.must_beat:
            return "Your card: follow suit and beat the best card if you can, else trump (over a trump if you can)."
        return "Your card: follow suit if you can, else trump."
    if d == TableDecision.PARTNER_MARRIAGE:
        return f"Your partner {names[view.leader]} leads. Show a marriage?"
    if d == TableDecision.CLAIM:
        return "Your team may go out now (claim 66)."
    rounds = {"REDEAL": "Demand a redeal, or play on?", "BID": "Name a contract, or pass?"}
    return rounds.get(d.name, f"Your decision: {d.name.lower().replace('_', ' ')}.")
