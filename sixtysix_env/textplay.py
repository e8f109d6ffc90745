"""Words for what happens in a game of any size, shared by the terminal replay and terminal play.

Everything here reads only public facts of two positions (before and after an action), so the
notes are fair to show to any player: who took a trick and for how many points, the draw from
the stock, a closing, an exchange, a marriage, the trump chosen, and the result.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from .actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS, action_label
from .cards import CARD_POINTS, NUM_CARDS, card_symbol
from .engine import Deal, Decision, Termination
from .infostate import InfoState
from .table.actions import CHOOSE_TRUMP, TRUMP_BY_CARD, table_action_label
from .table.deal import SECRET_DECISIONS, TableDecision, TableTermination
from .table.view import TableView

__all__ = [
    "EVERY_SEAT",
    "action_text",
    "face_down_text",
    "move_text",
    "side_label",
    "points_text",
    "step_notes",
    "outcome_text",
    "match_score_text",
    "suit_symbol",
    "AsciiWriter",
    "fit_lines",
    "writer_for",
]

SCREEN_COLUMNS = 80
"""The width every line of the terminal screens keeps to (a standard terminal)."""


def fit_lines(text: str, width: int = SCREEN_COLUMNS) -> str:
    """``text`` with every line longer than ``width`` wrapped at spaces; the rest of a wrapped line
    is indented two more spaces than its start."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        out += textwrap.wrap(
            line.strip(),
            width,
            initial_indent=indent,
            subsequent_indent=indent + "  ",
            break_on_hyphens=False,
        )
    return "\n".join(out)


SUITS = "♣♠♥♦"


def suit_symbol(suit: int) -> str:
    """The symbol of a suit (♣ ♠ ♥ ♦), ``?`` for none."""
    return SUITS[suit] if 0 <= suit < 4 else "?"


def action_text(deal: Any, action: int) -> str:
    """The readable label of an action id in this deal's game (as records store it)."""
    return action_label(action) if isinstance(deal, Deal) else table_action_label(action)


def _two_player(deal: Any) -> bool:
    return isinstance(deal, (Deal, InfoState))


EVERY_SEAT = -1
"""The ``viewer`` of a spectator who sees every card (a replay of a record, which shows every hand)."""

_FACE_DOWN = {TableDecision.COMMIT: "commits a card face down", TableDecision.DISCARD: "discards a card face down"}


def face_down_text(deal: Any, action: int, viewer: int | None) -> str | None:
    """What ``viewer`` is told of ``action`` when it is another seat's card taken face down
    (commit, discard: :data:`~sixtysix_env.table.deal.SECRET_DECISIONS`), else None.
    ``viewer`` None: nobody's seat, so every face-down card stays hidden."""
    if _two_player(deal) or action >= NUM_CARDS or deal.decision not in SECRET_DECISIONS:
        return None
    if viewer == EVERY_SEAT or (viewer is not None and viewer == deal.current_player):
        return None
    return _FACE_DOWN[deal.decision]


def move_text(deal: Any, action: int, viewer: int | None = None) -> str:
    """What ``action`` means in this position (a deal or a player's view), in words: ``pass``
    becomes "draw from the stock", "keep 9♥" or "show no marriage", a marriage names its cards.

    The words depend on who reads them: ``viewer`` is that seat (a view's own seat when not
    given), and another seat's face-down card reads "commits a card face down" or "discards a card
    face down", never the card. For a whole deal, ``viewer`` None hides every face-down card;
    :data:`EVERY_SEAT` names them (a spectator's replay, where every hand is shown)."""
    two = _two_player(deal)
    if viewer is None and isinstance(deal, TableView):  # a seat's view: its own seat reads it
        viewer = deal.player
    hidden = face_down_text(deal, action, viewer)
    if hidden is not None:
        return hidden
    if action < NUM_CARDS:
        if not two and deal.decision not in (TableDecision.LEAD, TableDecision.FOLLOW):
            # a card named in a round before play (the Russian four-player game): discard, commit, ...
            return f"{deal.decision.name.lower().replace('_', ' ')}: {card_symbol(action)}"
        return f"{'lead' if _leading(deal) else 'play'} {card_symbol(action)}"
    if MARRIAGE <= action < MARRIAGE + 4:
        suit = action - MARRIAGE
        value = 40 if suit == deal.trump else 20
        verb = "show" if not two and deal.decision == TableDecision.PARTNER_MARRIAGE else "declare"
        return f"{verb} the marriage K{SUITS[suit]} Q{SUITS[suit]} ({value})"
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
                Decision.DRAW: "draw (leave the stock open)",
                Decision.CLOSING_EXCHANGE: f"keep {card_symbol(deal.exchange_card)}",
                Decision.CLAIM: "do not go out (let the deal be scored)",
            }.get(deal.decision, "pass")
    else:
        if action == PASS and deal.decision == TableDecision.PARTNER_MARRIAGE:
            return "show no marriage"
        if action == PASS and deal.decision == TableDecision.CLAIM:
            return "do not go out"
        if action == PASS:  # the Russian four-player game's rounds, named so on main and beyond
            return {"REDEAL": "play on (no redeal)", "BID": "name no contract"}.get(deal.decision.name, "pass")
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


def side_label(game: Any, side: int, names: Sequence[str]) -> str:
    """A player's name, or a team's (``ann & cat``: seats ``side`` and ``side + 2``) in the
    four-player game; ``game`` is a deal or a view of any of the games."""
    n_players = getattr(game, "n_players", 2)
    if getattr(game, "n_sides", n_players) != n_players:
        return " & ".join(names[p] for p in range(n_players) if p % 2 == side)
    return names[side]


def points_text(deal: Any, names: Sequence[str]) -> str:
    """Counted points per player (or team), with marriage points still waiting for a trick."""
    parts = []
    for s in range(_n_sides(deal)):
        pend = f" (+{deal.pending[s]})" if deal.pending[s] else ""
        parts.append(f"{side_label(deal, s, names)} {deal.points[s]}{pend}")
    return " · ".join(parts)


def match_score_text(scores: Sequence[int], deal: Any, names: Sequence[str]) -> str:
    """The match score as one line, each side with its name."""
    return " · ".join(f"{side_label(deal, s, names)} {scores[s]}" for s in range(len(scores)))


def _trick_winner(before: Any, after: Any) -> int:
    return after.leader if isinstance(after, Deal) else after.last_winner


def step_notes(before: Any, after: Any, names: Sequence[str]) -> list[str]:
    """What the last action did, beyond its label (public facts only)."""
    notes: list[str] = []
    two = isinstance(after, Deal)
    action = after.history[-1] & (31 if two else 63)
    if not two:  # the three nines show the committed cards of the nine's suit: public from now on
        shown = getattr(after, "nines_hits", 0) & ~getattr(before, "nines_hits", 0)
        for q in range(after.n_players):
            if shown >> q & 1:
                notes.append(f"{names[q]}'s face-down card is shown: {card_symbol(after.committed[q])}")
    if not two and before.trump < 0 <= after.trump and after.trump_card >= 0:
        notes.append(f"the turned card is {card_symbol(after.trump_card)}: {suit_symbol(after.trump)} is trump")
    if MARRIAGE <= action < MARRIAGE + 4:
        declarer = after.history[-1] >> (5 if two else 6)
        side = declarer if two else after.side_of(declarer)
        if after.pending[side] > before.pending[side]:
            notes.append("its points count once a trick is won")
        elif after.points[side] > before.points[side]:
            notes.append(f"+{after.points[side] - before.points[side]} counted")
    if after.trick_count > before.trick_count:
        w = _trick_winner(before, after)
        side = w if two else after.side_of(w)
        gained = after.points[side] - before.points[side]
        cards = _trick_cards(before, action)
        marriage = before.pending[side] - after.pending[side]
        extra = [f"{marriage} marriage"] if marriage > 0 else []
        if gained - cards - max(marriage, 0) > 0:
            extra.append(f"{gained - cards - max(marriage, 0)} last trick")
        notes.append(f"trick to {names[w]} (+{cards}{''.join(', +' + x for x in extra)})")
    if two and before.closed_by < 0 <= after.closed_by:
        notes.append("the stock is closed")
    if two and len(after.stock) < len(before.stock):
        left = len(after.stock)
        notes.append(f"both draw, {left} left in the stock" if left else "both draw: the stock is used up")
    return notes


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _trick_cards(before: Any, action: int) -> int:
    """Card points of the trick that ``action`` (the last card played to it) completed."""
    if isinstance(before, Deal):
        return CARD_POINTS[before.lead_card] + CARD_POINTS[action]
    return sum(CARD_POINTS[c] for c in before.trick) + CARD_POINTS[action]


def outcome_text(deal: Any, names: Sequence[str]) -> str:
    """The result of a finished deal in words (past tense, so "you" reads as well as a name)."""
    out = deal.outcome
    if out is None:
        return "the deal is not finished"
    pts = points_text(deal, names)
    if out.winner < 0:
        return f"drawn deal ({pts}): nobody scores"
    winner = side_label(deal, out.winner, names)
    g = out.game_points
    if isinstance(deal, Deal):
        loser = names[1 - out.winner]
        how = {
            Termination.WENT_OUT: "by going out with 66",
            Termination.FALSE_CLAIM: f"because {loser} went out without 66",
            Termination.CLOSER_FAILED: f"by reaching 66 after {names[max(deal.closed_by, 0)]} closed the stock"
            if deal.points[out.winner] >= 66
            else f"because {names[max(deal.closed_by, 0)]} closed the stock and missed 66",
            Termination.PLAYED_OUT: "by taking the last trick"
            if deal.rules.played_out_winner == "last_trick"
            else "on points, all tricks played",
        }.get(out.termination, f"({out.termination.name.lower().replace('_', ' ')})")
        return f"{winner} won the deal {how} ({pts}): {_plural(g, 'game point')}"
    if deal.n_sides == deal.n_players:  # three players: settled in stakes
        takes = ", ".join(f"{-x} from {names[p]}" for p, x in enumerate(out.payoffs) if x < 0)
        return f"{winner} won the deal with the most points ({pts}) and takes {_plural(g, 'stake')}: {takes}"
    other = side_label(deal, 1 - out.winner, names)
    how = {
        TableTermination.WENT_OUT: "by going out with 66",
        TableTermination.FALSE_CLAIM: f"because {other} went out without 66",
        TableTermination.PLAYED_OUT: "by taking the last trick (nobody reached 66)",
    }.get(out.termination, f"({out.termination.name.lower().replace('_', ' ')})")
    return f"{winner} won the deal {how} ({pts}): {_plural(g, 'game point')}"


_ASCII = str.maketrans({"♣": "C", "♠": "S", "♥": "H", "♦": "D", "·": "|", "—": "-", "─": "-", "→": "->", "…": "..."})


class AsciiWriter:
    """A text stream that writes suit symbols as letters (Q♥ as QH) and the other signs in ASCII,
    for terminals and pipes whose encoding has no ♥."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(text.translate(_ASCII).encode("ascii", "replace").decode("ascii"))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())


def writer_for(stream: Any, ascii_only: bool = False) -> Any:
    """``stream`` itself if it can write the suit symbols (and ``ascii_only`` is off), else an
    :class:`AsciiWriter` around it."""
    encoding = getattr(stream, "encoding", None)
    if not ascii_only:
        try:
            "♣♠♥♦·—─→".encode(encoding or "utf-8")
            return stream
        except (LookupError, UnicodeEncodeError):
            pass
    return AsciiWriter(stream)
