"""Translation between this engine's ``vu`` preset and the VU Amsterdam ``schnapsen`` package.

The ``schnapsen`` package (the platform of VU Amsterdam's bot-writing course) plays one deal of
Schnapsen with moves of three kinds: ``RegularMove(card)``, ``TrumpExchange(jack)`` and
``Marriage(queen, king)``, the last one also leading the king. Here the same decisions are
action ids, so a marriage is two actions (declare ``24 + suit``, then the forced king):

| schnapsen move            | actions here                      |
|---------------------------|-----------------------------------|
| ``RegularMove(card)``     | the card id                       |
| ``TrumpExchange(jack)``   | 28                                |
| ``Marriage(queen, king)`` | ``24 + suit``, then the king's id |

Its first player (``bot1``, holding the shuffled deck's cards 0, 2, 4, 6, 8) leads, so he is
player 0 here with player 1 as the dealer; the talon is the deck's cards 10 to 19, top first,
the last one face up. The package is only needed to call the ``to_vu``/``from_vu``
functions (it is imported lazily, so this module imports without it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import EXCHANGE, MARRIAGE
from .cards import NUM_CARDS, Rank, Suit, card, rank_of, suit_of
from .engine import Deal, Decision
from .rules import get_rules

__all__ = [
    "card_to_vu",
    "card_from_vu",
    "arrangement_from_vu",
    "deal_from_vu",
    "legal_vu_moves",
    "actions_of_vu_move",
    "apply_vu_move",
    "move_key",
]


def _vu() -> Any:
    try:
        from schnapsen import deck
    except ImportError as e:  # pragma: no cover - exercised only without the package
        raise ImportError("vu_compat needs the 'schnapsen' package: pip install schnapsen") from e
    return deck


def card_to_vu(c: int) -> Any:
    """The ``schnapsen.deck.Card`` for a card id (the package has no nines in play)."""
    deck = _vu()
    return deck.Card.get_card(deck.Rank[Rank(rank_of(c)).name], deck.Suit[Suit(suit_of(c)).name])


def card_from_vu(vu_card: Any) -> int:
    """The card id of a ``schnapsen.deck.Card``."""
    return card(Suit[vu_card.suit.name], Rank[vu_card.rank.name])


def arrangement_from_vu(leader_hand: Sequence[Any], follower_hand: Sequence[Any], talon: Sequence[Any]) -> dict:
    """``Deal.from_arrangement`` arguments for a schnapsen deal: the first leader is player 0."""
    return {
        "hands": [[card_from_vu(c) for c in leader_hand], [card_from_vu(c) for c in follower_hand]],
        "stock": [card_from_vu(c) for c in talon],
        "dealer": 1,
    }


def deal_from_vu(leader_hand: Sequence[Any], follower_hand: Sequence[Any], talon: Sequence[Any]) -> Deal:
    """The ``vu`` deal of the same cards (``talon`` top first, its last card face up)."""
    return Deal.from_arrangement(rules=get_rules("vu"), **arrangement_from_vu(leader_hand, follower_hand, talon))


def legal_vu_moves(deal: Deal) -> list[Any]:
    """This position's legal actions as schnapsen moves (what its ``valid_moves()`` should list)."""
    from schnapsen.game import Marriage, RegularMove, TrumpExchange

    if deal.outcome is not None:
        return []
    if deal.decision not in (Decision.LEAD, Decision.FOLLOW) or deal.declared >= 0:
        raise ValueError(f"no schnapsen move matches decision {deal.decision.name} in {deal.describe()}")
    moves: list[Any] = []
    for a in deal.legal_actions():
        if a < NUM_CARDS:
            moves.append(RegularMove(card_to_vu(a)))
        elif a == EXCHANGE:
            moves.append(TrumpExchange(card_to_vu(deal.exchange_card)))
        elif MARRIAGE <= a < MARRIAGE + 4:
            s = a - MARRIAGE
            moves.append(Marriage(card_to_vu(card(s, Rank.QUEEN)), card_to_vu(card(s, Rank.KING))))
        else:
            raise ValueError(f"action {a} has no schnapsen move ({deal.rules.name} rules, not vu?)")
    return moves


def actions_of_vu_move(move: Any) -> list[int]:
    """The action ids that play a schnapsen move here."""
    if move.is_trump_exchange():
        return [EXCHANGE]
    if move.is_marriage():
        king = card_from_vu(move.as_marriage().king_card)
        return [MARRIAGE + suit_of(king), king]
    return [card_from_vu(move.as_regular_move().card)]


def apply_vu_move(deal: Deal, move: Any) -> None:
    """Play a schnapsen move on a ``vu`` deal (a marriage declares, then leads the king)."""
    for a in actions_of_vu_move(move):
        deal.apply(a)


def move_key(move: Any) -> tuple[str, tuple[int, ...]]:
    """A hashable, comparable form of a schnapsen move: (kind, card ids)."""
    kind = "exchange" if move.is_trump_exchange() else "marriage" if move.is_marriage() else "card"
    return kind, tuple(sorted(card_from_vu(c) for c in move.cards))
