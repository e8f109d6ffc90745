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
the last one face up. The package is imported lazily, so this module imports without it.

Train here, play there: :func:`vu_bot` wraps any agent of this project (``act(info, rng)``) as a
``schnapsen.game.Bot``. At each move it rebuilds, from the bot's ``PlayerPerspective`` and its
game history, a ``vu`` deal with the same public facts and the bot's own hand (the unseen cards
are placed arbitrarily but consistently with every move made), so the agent sees exactly the
``InfoState`` it was trained on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .actions import EXCHANGE, MARRIAGE
from .cards import NUM_CARDS, Rank, Suit, card, rank_of, suit_of
from .engine import FOLLOWER_WINS, Deal, Decision
from .infostate import InfoState
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
    "vu_move_for_action",
    "deal_from_vu_perspective",
    "info_state_from_vu",
    "vu_bot",
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


def vu_move_for_action(deal: Deal, action: int) -> Any:
    """The schnapsen move for an action legal in ``deal`` (a marriage declaration is the whole
    ``Marriage`` move: the package then leads the king, as the ``vu`` rules force)."""
    from schnapsen.game import Marriage, RegularMove, TrumpExchange

    if not deal.is_legal(action):
        raise ValueError(f"action {action} is not legal in {deal.describe()}")
    if action < NUM_CARDS:
        return RegularMove(card_to_vu(action))
    if action == EXCHANGE:
        return TrumpExchange(card_to_vu(deal.exchange_card))
    s = action - MARRIAGE
    return Marriage(card_to_vu(card(s, Rank.QUEEN)), card_to_vu(card(s, Rank.KING)))


def _ids(cards: Any) -> list[int]:
    return [card_from_vu(c) for c in cards]


def _leader_cards(move: Any) -> tuple[int, list[int]]:
    """(card played, cards that must be in hand) for a leader's regular or marriage move."""
    if move.is_marriage():
        m = move.as_marriage()
        king = card_from_vu(m.king_card)
        return king, [king, card_from_vu(m.queen_card)]
    c = card_from_vu(move.as_regular_move().card)
    return c, [c]


def deal_from_vu_perspective(perspective: Any, leader_move: Any = None) -> tuple[Deal, int]:
    """A ``vu`` deal with the public facts of a schnapsen ``PlayerPerspective`` and the viewer's own
    hand, replayed up to now (including ``leader_move`` when the viewer follows); returns it with
    the viewer's player index. Cards the viewer never saw are placed arbitrarily, but so that every
    move made was possible, which is all an ``InfoState`` depends on."""
    history = perspective.get_game_history()
    first = history[0][0]
    me = 0 if first.am_i_leader() else 1
    opp = 1 - me
    face_up = card_from_vu(first.get_trump_card())
    trump = face_up // 6
    stock_size = first.get_talon_size()
    talon: list[int | None] = [None] * stock_size  # top first; the last is the face-up card
    talon[-1] = face_up
    my_hand = set(_ids(first.get_hand()))
    my_start = set(my_hand)
    needs: list[tuple[int, int]] = []  # (time, card) the opponent must hold by then
    slots: list[tuple[int, int]] = [(0, -1)] * len(my_hand)  # (time available, talon index or -1)
    leader, pos = 0, 0
    moves: list[Any] = []
    for t, (_, trick) in enumerate(history[:-1]):
        if trick.is_trump_exchange():
            jack, old = card_from_vu(trick.exchange.jack), card_from_vu(trick.trump_card)
            if leader == me:
                my_hand ^= {jack, old}
            else:
                needs.append((t, jack))
            moves.append(trick.exchange)
            continue
        lead, held = _leader_cards(trick.leader_move)
        follow = card_from_vu(trick.follower_move.card)
        if leader == me:
            my_hand.discard(lead)
            needs.append((t, follow))
        else:
            needs.extend((t, c) for c in held)
            my_hand.discard(follow)
        moves += [trick.leader_move, trick.follower_move]
        winner = 1 - leader if FOLLOWER_WINS[trump][lead * NUM_CARDS + follow] else leader
        if pos < stock_size:
            after = set(_ids(history[t + 1][0].get_hand()))
            for who, idx in ((winner, pos), (1 - winner, pos + 1)):
                last = idx == stock_size - 1
                if who == me:
                    drawn = after - my_hand
                    if len(drawn) != 1:
                        raise ValueError("the perspective's hands do not follow the rules of the vu preset")
                    c = drawn.pop()
                    my_hand.add(c)
                    if not last:
                        talon[idx] = c
                elif not last:  # the last card is the face-up one (or the jack put there): public
                    slots.append((t + 1, idx))
            pos += 2
        leader = winner
    t_now = len(history) - 1
    if leader_move is not None:
        _, held = _leader_cards(leader_move)
        needs.extend((t_now, c) for c in held)
        moves.append(leader_move)
    # The opponent's cards: each needed card in the earliest free slot that reaches him in time.
    opp_start: list[int] = []
    placed: set[int] = set()
    free = sorted(range(len(slots)), key=lambda i: slots[i][0])
    taken: set[int] = set()
    for time, c in sorted(needs):
        if c in placed or c in my_start or c in talon:  # already placed, or it came publicly / from me
            continue
        slot = next((i for i in free if i not in taken and slots[i][0] <= time), None)
        if slot is None:
            raise ValueError(f"no consistent deal: the opponent cannot have held {c} by move {time}")
        taken.add(slot)
        placed.add(c)
        _place(slots[slot], c, opp_start, talon)
    pool = [c for c in range(NUM_CARDS) if c % 6 and c not in placed and c not in my_start and c not in talon]
    pool = [c for c in pool if c not in my_hand]
    for i in free:
        if i not in taken:
            _place(slots[i], pool.pop(), opp_start, talon)
    for idx in range(stock_size):
        if talon[idx] is None:
            talon[idx] = pool.pop()
    stock = [c for c in talon if c is not None]
    if len(stock) != stock_size:  # every slot is filled above
        raise RuntimeError(f"the rebuilt talon has {stock_size - len(stock)} empty slot(s)")
    hands: list[list[int]] = [[], []]
    hands[me], hands[opp] = sorted(my_start), opp_start
    deal = Deal.from_arrangement(hands, stock, dealer=1, rules=get_rules("vu"))
    for m in moves:
        apply_vu_move(deal, m)
    return deal, me


def _place(slot: tuple[int, int], c: int, opp_start: list[int], talon: list[int | None]) -> None:
    _, idx = slot
    if idx < 0:
        opp_start.append(c)
    else:
        talon[idx] = c


def info_state_from_vu(perspective: Any, leader_move: Any = None) -> InfoState:
    """The ``InfoState`` of the viewer of a schnapsen ``PlayerPerspective``."""
    deal, me = deal_from_vu_perspective(perspective, leader_move)
    return InfoState.of(deal, me)


def vu_bot(agent: Any, rng: random.Random | None = None, name: str | None = None) -> Any:
    """A ``schnapsen.game.Bot`` that plays an agent of this project (``act(info, rng) -> action``)."""
    from schnapsen.game import Bot

    chooser = rng or random.Random(0)

    class _AgentBot(Bot):
        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            deal, me = deal_from_vu_perspective(perspective, leader_move)
            action = agent.act(InfoState.of(deal, me), chooser)
            return vu_move_for_action(deal, action)

    return _AgentBot(name or getattr(agent, "name", None))
