"""What the page shows, as JSON-ready dicts: a seat's fair view, or a spectator's view for replays.

Everything here is read from an :class:`~sixtysix_env.infostate.InfoState` (what one seat may know,
docs/RULES.md section 4); only the replay view adds the other hand, from a finished game's record. The
page never sees more than these dicts, so the browser cannot leak a card the seat may not know.
"""

from __future__ import annotations

from typing import Any

from ..actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from ..cards import NUM_CARDS, card_str, card_symbol, cards_of, points_of
from ..engine import Decision, Termination
from ..infostate import TRUMP_IN_STOCK, TRUMP_PLAYED, TRUMP_WITH_ME, InfoState

__all__ = ["action_text", "button_label", "move_text", "outcome_text", "seat_view", "sorted_hand", "trick_list"]

SUIT_SYMBOLS = "♣♠♥♦"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
_SUIT_ORDER = (2, 1, 3, 0)  # hearts, spades, diamonds, clubs: alternating colours read well


def sorted_hand(mask: int, trump: int) -> list[int]:
    """A hand as a player holds it: trumps first, then the other suits in alternating colours, high to low."""
    return sorted(cards_of(mask), key=lambda c: (c // 6 != trump, _SUIT_ORDER.index(c // 6), -c))


def _follower_wins(lead: int, follow: int, trump: int) -> bool:
    if follow // 6 == lead // 6:
        return follow > lead
    return follow // 6 == trump


def trick_list(history: tuple[int, ...] | list[int], trump: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(completed tricks, the cards of the trick in progress) from a deal's public history.

    A completed trick is ``{"cards": [{"player", "card"}, ...], "winner": p, "points": n}``."""
    done: list[dict[str, Any]] = []
    current: list[dict[str, Any]] = []
    for h in history:
        player, action = h >> 5, h & 31
        if action >= NUM_CARDS:
            continue
        current.append({"player": player, "card": action})
        if len(current) == 2:
            lead, follow = current
            winner = follow["player"] if _follower_wins(lead["card"], follow["card"], trump) else lead["player"]
            points = points_of(lead["card"]) + points_of(follow["card"])
            done.append({"cards": current, "winner": winner, "points": points})
            current = []
    return done, current


def _you(p: int, names: list[str], you: int | None, you_form: str, other_form: str) -> str:
    return f"You {you_form}" if p == you else f"{names[p]} {other_form}"


def action_text(before: InfoState, action: int, names: list[str], you: int | None = None) -> str:
    """One log line for ``action`` played from the public position ``before`` ("pimc leads K♥")."""
    p = before.current_player
    d = before.decision
    if action < NUM_CARDS:
        if d == Decision.LEAD:
            return _you(p, names, you, "lead", "leads") + f" {card_symbol(action)}"
        return _you(p, names, you, "play", "plays") + f" {card_symbol(action)}"
    if MARRIAGE <= action < MARRIAGE + 4:
        suit = action - MARRIAGE
        value = 40 if suit == before.trump else 20
        return _you(p, names, you, "declare", "declares") + f" the {SUIT_NAMES[suit]} marriage ({value})"
    if action == EXCHANGE:
        return _you(p, names, you, "exchange", "exchanges") + (
            f" {card_symbol(before.exchange_card)} for the trump card {card_symbol(before.stock_bottom)}"
        )
    if action == CLOSE:
        return _you(p, names, you, "close", "closes") + " the stock"
    if action == GO_OUT:
        return _you(p, names, you, "go out", "goes out") + " (claiming 66)"
    if action == PASS:
        if d == Decision.DRAW:
            return _you(p, names, you, "draw", "draws") + " from the stock"
        if d == Decision.CLOSING_EXCHANGE:
            return _you(p, names, you, "keep", "keeps") + f" {card_symbol(before.exchange_card)}"
        return _you(p, names, you, "do not go out", "does not go out")
    raise ValueError(f"action {action} out of range: allowed 0..31")


def move_text(before: InfoState, action: int, after: InfoState, names: list[str], you: int | None = None) -> str:
    """:func:`action_text`, plus who took the trick and the points it brought when it completed one."""
    text = action_text(before, action, names, you)
    for p in (0, 1):
        if after.tricks[p] > before.tricks[p]:
            who = "you take" if p == you else f"{names[p]} takes"
            text += f"; {who} the trick (+{after.points[p] - before.points[p]})"
    return text


def button_label(info: InfoState, action: int) -> str:
    """The text of the button for a non-card action, in the decision the player faces."""
    if MARRIAGE <= action < MARRIAGE + 4:
        suit = action - MARRIAGE
        value = 40 if suit == info.trump else 20
        return f"Declare {SUIT_SYMBOLS[suit]} marriage ({value})"
    if action == EXCHANGE:
        return f"Exchange {card_symbol(info.exchange_card)} for {card_symbol(info.stock_bottom)}"
    if action == CLOSE:
        return "Close before drawing" if info.decision == Decision.DRAW else "Close the stock"
    if action == GO_OUT:
        return "Go out (claim 66)"
    if action == PASS:
        return {
            Decision.DRAW: "Draw",
            Decision.CLOSING_EXCHANGE: f"Keep {card_symbol(info.exchange_card)}",
        }.get(info.decision, "Play on (don't claim)")  # type: ignore[arg-type]
    raise ValueError(f"action {action} is a card or out of range: buttons are actions 24..31")


def _trump_place(info: InfoState) -> str:
    loc = info.trump_location
    if loc == TRUMP_IN_STOCK:
        return "stock"
    if loc == TRUMP_PLAYED:
        return "played"
    holder = info.player if loc == TRUMP_WITH_ME else info.opponent
    return f"player {holder}"


def outcome_text(info: InfoState, names: list[str], you: int | None = None) -> str:
    """The result in one sentence: who won, how, and the game points."""
    out = info.outcome
    if out is None:
        return ""
    pts = info.points
    if out.winner < 0:
        return f"Drawn deal at {pts[0]}–{pts[1]}: nobody scores."
    w, loser = out.winner, 1 - out.winner
    gp = f"{out.game_points} game point{'s' if out.game_points != 1 else ''}"
    to = "you" if w == you else names[w]
    score = f"{pts[w]} to {pts[loser]}"
    how = out.termination
    if how == Termination.WENT_OUT:
        return _you(w, names, you, "went out", "went out") + f" with {score}: {gp}."
    if how == Termination.FALSE_CLAIM:
        return _you(loser, names, you, "claimed", "claimed") + f" 66 with only {pts[loser]}: {gp} to {to}."
    if how == Termination.CLOSER_FAILED and info.closed_by >= 0:
        closer = _you(info.closed_by, names, you, "closed", "closed")
        return f"{closer} the stock but did not make 66: {gp} to {to} ({score})."
    if info.rules.played_out_winner == "last_trick":
        return "All cards played; " + _you(w, names, you, "took", "took") + f" the last trick: {gp} ({score})."
    return f"All cards played, {score}: {gp} to {to}."


def seat_view(
    info: InfoState,
    names: list[str],
    *,
    you: int | None,
    other_hand: int | None = None,
    scores: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """The table as ``info.player`` may see it; ``you`` is the human's seat (None in replays), and
    ``other_hand`` (replays only) shows the other hand face up. ``scores`` are the match scores
    after this deal when it is over (the deal's own ``scores`` are those before it)."""
    me, opp = info.player, info.opponent
    trump = info.trump
    done, current = trick_list(info.history, trump)
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
            }
        )
    legal = []
    if you is not None and info.outcome is None and info.current_player == you == me:
        for a in info.legal_actions():
            if a < NUM_CARDS:
                legal.append({"action": a, "kind": "card", "card": a, "label": f"play {card_symbol(a)}"})
            else:
                legal.append({"action": a, "kind": "button", "label": button_label(info, a)})
    out = info.outcome
    stock_open = info.stock_size > 0 and info.closed_by < 0
    match_scores = list(scores if scores is not None else info.scores)
    return {
        "rules": info.rules.name,
        "match_target": info.rules.match_target,
        "you": you,
        "bottom": me,
        "names": list(names),
        "dealer": info.dealer,
        "trump": {
            "suit": trump,
            "symbol": SUIT_SYMBOLS[trump],
            "card": info.trump_card,
            "where": _trump_place(info),
        },
        "stock": {
            "size": info.stock_size,
            "bottom": info.stock_bottom if info.stock_size else None,
            "face_up": stock_open,
            "closed_by": info.closed_by if info.closed_by >= 0 else None,
        },
        "players": players,
        "table": current,
        "last_trick": done[-1] if done else None,
        "tricks": done,
        "trick_count": len(done),
        "turn": info.current_player if out is None else None,
        "decision": info.decision.name.lower() if info.decision is not None else None,
        "declared": info.declared if info.declared >= 0 else None,
        "legal": legal,
        "outcome": None
        if out is None
        else {
            "winner": out.winner,
            "game_points": out.game_points,
            "termination": out.termination.name.lower(),
            "text": outcome_text(info, names, you),
        },
        "scores": match_scores,
    }


def card_names() -> dict[int, str]:
    """Card id -> its ASCII name ("QH"), for the page's data attributes."""
    return {c: card_str(c) for c in range(NUM_CARDS)}
