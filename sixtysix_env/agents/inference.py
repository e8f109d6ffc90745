"""Deals sampled with their past, weighted by how well a model of the opponent explains his play.

``InfoState.sample`` deals the unseen cards as if every hand of the opponent were equally likely.
His past choices say more: a player who threw the nine of clubs on a ten rather than take it
probably had nothing to take it with. Policy-based inference (as in Skat programs) weighs each
sampled hand by the chance that a model of the opponent would have made his actual choices with
it. To ask the model, the sample must hold the opponent's hand at each of his past decisions, so
:func:`sample_past` deals a whole deal from the start: who held which card initially, which card
each draw brought, and the stock still face down, consistent with everything the player saw; the
engine then replays the public history on it, asking the model at each of the opponent's choices.

The player's own draws are not in an ``InfoState`` (draws are not actions), so they are sampled
too; they change nothing the opponent saw, so they do not change the weights.

Uniform over pasts: each card a player held has a deadline (the number of his draws before he
first had to hold it: to play it, to show it in a marriage, to exchange it). Cards are placed in
order of deadline, each in a free slot (his dealt cards, then his draws) that comes no later than
its deadline; at every step the number of such slots does not depend on the earlier choices, so
every consistent past is equally likely.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable

from ..actions import CLOSE, EXCHANGE, MARRIAGE, PASS
from ..cards import NUM_CARDS, cards_of, mask_of
from ..engine import FOLLOWER_WINS, MARRIAGE_PAIR, Deal
from ..infostate import InfoState
from .heuristic import heuristic_deal_action

__all__ = ["MODELS", "Past", "PastSampler", "mismatches", "past_events", "sample_past"]

_NEVER = 1 << 30


class Past:
    """What the public history says about the deal's past, computed once per decision: each
    player's slot deadlines, the order of the draws, and the cards that entered a hand other than
    by a slot (the trump card by exchange, the face-up card by the last draw)."""

    __slots__ = ("draws", "deadline", "extra_in", "given_away", "played")

    def __init__(self) -> None:
        self.draws: list[int] = []  # winner of each draw, in order (he takes the top card)
        self.deadline: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.extra_in: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
        self.given_away: tuple[list[int], list[int]] = ([], [])
        self.played: tuple[list[int], list[int]] = ([], [])


def _need(past: Past, p: int, c: int, drawn: int) -> None:
    """Player ``p`` must hold card ``c`` after ``drawn`` draws (first time only: a card he gave
    away by exchange and got back as the face-up card keeps its first deadline)."""
    if c not in past.deadline[p]:
        past.deadline[p][c] = drawn


def past_events(info: InfoState) -> Past:
    """Replay ``info.history`` on public facts alone (no card of a hidden hand): the draws in
    order, and by when each card had to be in which hand."""
    rules = info.rules
    past = Past()
    stock = rules.stock_size
    closed = False
    lead = -1
    drawn = [0, 0]
    bottom = info.trump_card
    waiting_draw = -1  # close_before_drawing: the trick's winner decides before drawing
    trump = info.trump
    for h in info.history:
        p, a = h >> 5, h & 31
        if waiting_draw >= 0 and a != PASS:
            waiting_draw = -1  # closed (or went out): no draw
        if a < NUM_CARDS:
            _need(past, p, a, drawn[p])
            past.played[p].append(a)
            if lead < 0:
                lead = a
                continue
            winner = p if FOLLOWER_WINS[trump][lead * NUM_CARDS + a] else 1 - p
            lead = -1
            if closed or stock == 0:
                continue
            if rules.close_before_drawing and rules.closing and stock >= rules.closing_min_stock:
                waiting_draw = winner
                continue
            stock = _draw(past, winner, stock, drawn, bottom)
        elif a == PASS:
            if waiting_draw >= 0:
                stock = _draw(past, waiting_draw, stock, drawn, bottom)
                waiting_draw = -1
        elif a == CLOSE:
            closed = True
        elif a == EXCHANGE:
            nine = info.exchange_card
            _need(past, p, nine, drawn[p])
            past.given_away[p].append(nine)
            past.extra_in[p][bottom] += 1
            bottom = nine
        elif MARRIAGE <= a < EXCHANGE:
            for c in cards_of(MARRIAGE_PAIR[a - MARRIAGE]):
                _need(past, p, c, drawn[p])
    return past  # GO_OUT: nothing to learn


def _draw(past: Past, winner: int, stock: int, drawn: list[int], bottom: int) -> int:
    """One draw after a trick: the winner takes the top card; the stock left."""
    past.draws.append(winner)
    drawn[winner] += 1
    stock -= 2
    if stock == 0:
        past.extra_in[1 - winner][bottom] += 1  # the loser takes the face-up card, not a slot
    else:
        drawn[1 - winner] += 1
    return stock


class PastSampler:
    """Samples whole deals consistent with one view (:func:`sample_past` for one): what does not
    change between samples (the public past, the player's own placement) is worked out once."""

    def __init__(self, info: InfoState, rng: random.Random) -> None:
        self.info = info
        past = self.past = past_events(info)
        rules = info.rules
        n = self.n = rules.hand_size
        self.exhausted = info.stock_size == 0 and bool(past.draws)
        last = len(past.draws) - 1
        self.draws = [0, 0]
        for i, w in enumerate(past.draws):
            self.draws[w] += 1
            if not (self.exhausted and i == last):
                self.draws[1 - w] += 1
        me, o = info.player, info.opponent
        self.opponent_known = info.known_opponent | info.opponent_must_hold()
        self.fixed: list[list[tuple[int, int]]] = [[], []]  # (slot limit, card), by limit
        self.free: list[list[int]] = [[], []]  # slot cards without a deadline
        self.extra = [mask_of(past.extra_in[p]) for p in (0, 1)]
        self.ok = True
        for p, hand in ((me, info.hand), (o, self.opponent_known)):
            held = Counter(past.played[p])
            held.update(cards_of(hand))
            held.update(past.given_away[p])
            held.subtract(past.extra_in[p])
            if any(v < 0 for v in held.values()):
                self.ok = False
            for c in held.elements():
                if c in past.deadline[p]:
                    self.fixed[p].append((min(n + past.deadline[p][c], n + self.draws[p]), c))
                else:
                    self.free[p].append(c)
            self.fixed[p].sort()
        mine = self._place(me, [], rng) if self.ok else None
        self.ok = mine is not None
        self.mine = mine or []

    def _place(self, p: int, more_free: list[int], rng: random.Random) -> list[int] | None:
        """Player ``p``'s slot cards in slots 0..n+draws-1 (dealt, then drawn in order), each no
        later than its deadline, uniformly over such placements; None if they do not fit."""
        size = self.n + self.draws[p]
        free_cards = self.free[p] + more_free
        if len(self.fixed[p]) + len(free_cards) != size:
            return None
        out = [-1] * size
        open_slots = list(range(size))
        for limit, c in self.fixed[p]:
            k = bisect_left(open_slots, limit)  # open slots before the limit
            if k == 0:
                return None
            out[open_slots.pop(rng.randrange(k))] = c
        rng.shuffle(free_cards)
        for s, c in zip(open_slots, free_cards, strict=True):
            out[s] = c
        return out

    def sample(self, rng: random.Random) -> Deal | None:
        """A whole deal from its start, consistent with the view, not yet replayed (its history
        is empty: :func:`mismatches` replays it); ``None`` when the sampled present admits no
        past (cannot happen for a consistent view: a guard, not a filter)."""
        if not self.ok:
            return None
        info = self.info
        now = info.sample(rng)
        o = info.opponent
        hidden = now.hands[o] & ~self.opponent_known & ~self.extra[o]
        theirs = self._place(o, list(cards_of(hidden)), rng)
        if theirs is None:
            return None
        slots = [self.mine, theirs] if info.player == 0 else [theirs, self.mine]
        n = self.n
        stock_top_first: list[int] = []
        taken = [n, n]
        draws = self.past.draws
        last = len(draws) - 1
        for i, w in enumerate(draws):
            stock_top_first.append(slots[w][taken[w]])
            taken[w] += 1
            if self.exhausted and i == last:
                continue  # the loser's card was the face-up one, appended below
            stock_top_first.append(slots[1 - w][taken[1 - w]])
            taken[1 - w] += 1
        if now.stock:
            stock_top_first.extend(reversed(now.stock[1:]))
        stock_top_first.append(info.trump_card)
        hands = (slots[0][:n], slots[1][:n])
        return Deal.from_arrangement(hands, stock_top_first, info.dealer, info.rules, info.scores, check=False)


def sample_past(info: InfoState, rng: random.Random) -> Deal | None:
    """One whole deal consistent with ``info``, replayed to the present (for many, keep one
    :class:`PastSampler`)."""
    deal = PastSampler(info, rng).sample(rng)
    if deal is not None:
        for h in info.history:
            deal.apply(h & 31)
    return deal


def mismatches(
    deal: Deal, history: tuple[int, ...], player: int, model: Callable[[Deal], int], stop_at: int = _NEVER
) -> int:
    """Replay ``history`` on ``deal`` (a fresh deal from :func:`sample_past`) and count the
    choices of ``player`` (those with more than one legal action) where ``model`` would have
    acted otherwise. ``deal`` ends in the present, unless the count reaches ``stop_at``: then
    the replay stops there and ``stop_at`` is returned."""
    miss = 0
    for h in history:
        a = h & 31
        if h >> 5 == player:
            mask = deal.legal_mask()
            if mask & (mask - 1) and model(deal) != a:
                miss += 1
                if miss >= stop_at:
                    return miss  # not worth replaying further: the caller drops this deal
        deal.apply(a)
    return miss


MODELS: dict[str, Callable[[Deal], int]] = {"heuristic": heuristic_deal_action}
"""Opponent models by name (``pimc:model=heuristic``)."""
