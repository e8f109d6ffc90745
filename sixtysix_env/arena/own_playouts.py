"""The reduced estimate for any agent: its own moves in the playouts, and its own luck taken out.

Why: the batched estimate (:mod:`.variance`) plays its playouts in numba, where only the heuristic
and a policy network can play. For an agent without a network (a search agent such as ``pimc``,
or a student's bot) the heuristic stands in for it, predicts its games poorly, and removes little
luck (1.4x less variance for ``pimc:solver=fast``). Here every seat of the playouts is played by the agent
that played it, through its own ``act`` on the reference engine, whatever it is. That costs over a
hundred times the deal itself (1.2 s of CPU a deal for ``pimc:solver=fast``), so it is an option
(``--reduce-playouts own``), worth it where deals are the scarce part: 3.6x less variance for
``pimc:solver=fast`` on 2,000 deal pairs (docs/evaluation.md).

Two kinds of term, each with mean zero given everything before it (AIVAT, Burch et al., 2018):

- **draws**, as in :mod:`.variance`: at every draw from the stock, ``V(h, c_actual) - E_c V(h, c)``
  with ``V`` the mean of ``samples`` playouts from random orders of the face-down stock, the same
  orders on both sides (the actual cards swapped into their draw positions);
- **the players' own random choices**: an agent that draws on its ``rng`` (PIMC samples deals)
  is a random policy, so the luck of its choices is luck too. At each decision the agent is asked
  again ``redraws`` times with fresh random sources, independent draws from its policy; where
  every answer equals the move it played, the term is 0 (nothing random to take out); otherwise
  ``term = W(h, a_played) - mean_k W(h, a_k)``, with ``W(h, a)`` the mean of ``samples`` playouts
  after ``a`` with the face-down stock in its actual order (a choice is independent of the order,
  which no fair agent sees, so any function of it keeps the term's mean at zero). The same random
  sources serve every action's playouts.

Valid where every agent sees only its view and takes its randomness from the ``rng`` it is
handed: ``act(info, rng)`` a function of the two (the :class:`~sixtysix_env.agents.base.Agent`
contract). An agent that keeps state between decisions, or reads a clock, breaks it, and so does
the oracle, which sees the stock. The terms of both kinds overlap, so their sum is not scaled by 1
but by the cross-fitted coefficient of :func:`.stats.reduce_values`, which keeps the mean.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..agents.base import Agent
from ..engine import Deal

__all__ = ["OWN_REDRAWS", "OWN_SAMPLES", "initial_deal", "own_correction"]

OWN_SAMPLES = 16
"""Playouts per value: each is a partial deal played by the agents themselves, so fewer than the
batched estimate's 64; the cross-fitted coefficient absorbs their noise."""
OWN_REDRAWS = 4
"""Fresh answers of an agent at each of its decisions, to find the ones where its choice is random
and to average its policy there."""


def initial_deal(deal: Deal) -> Deal:
    """The deal as it was dealt (``deal.arrangement``), before any action."""
    if deal.arrangement is None:
        raise ValueError("the deal has no arrangement (a sampled deal): its first position is unknown")
    hands0, hands1, stock, dealer = deal.arrangement
    return Deal.from_arrangement((hands0, hands1), stock, dealer, deal.rules, deal.scores, check=False)


def _play_out(deal: Deal, seats: Sequence[Agent], player: int, seed: int) -> int:
    """``deal`` (changed in place) played to its end by ``seats``: game points for ``player``."""
    rng = random.Random(seed)
    while deal.outcome is None:
        p = deal.current
        deal.apply(seats[p].act(deal.information_state(p), rng))
    return deal.returns()[player]


def _after_draw(deal: Deal, face_down: Sequence[int], action: int) -> Deal:
    """A copy of ``deal`` whose face-down stock lies in the order ``face_down`` (bottom first),
    after ``action`` (which draws from it)."""
    copy = deal.clone()
    copy.stock = [deal.stock[0], *face_down]
    copy.apply(action)
    return copy


def _choice_term(
    pre: Deal, played: int, seats: Sequence[Agent], player: int, samples: int, redraws: int, rng: random.Random
) -> float:
    """The luck of the acting seat's choice ``played`` at ``pre`` (0 where its choice is not random)."""
    info = pre.information_state(pre.current)
    answers = [seats[pre.current].act(info, random.Random(rng.getrandbits(64))) for _ in range(redraws)]
    if all(a == played for a in answers):
        return 0.0
    seeds = [rng.getrandbits(64) for _ in range(samples)]
    value = {}
    for action in {played, *answers}:
        total = 0
        for s in seeds:
            after = pre.clone()
            after.apply(action)
            total += _play_out(after, seats, player, s)
        value[action] = total / samples
    return value[played] - sum(value[a] for a in answers) / redraws


def _draw_term(
    pre: Deal, action: int, drawn: int, seats: Sequence[Agent], player: int, samples: int, rng: random.Random
) -> float:
    """The luck of the cards ``action`` draws at ``pre``: their value less that of a random draw."""
    face = pre.stock[1:]  # bottom first: the last is drawn next
    hidden = len(face)
    actual = face[hidden - drawn :]
    total = 0
    for _ in range(samples):
        order = face[:]
        rng.shuffle(order)
        seed = rng.getrandbits(64)
        total -= _play_out(_after_draw(pre, order, action), seats, player, seed)
        for place, card in zip(range(hidden - drawn, hidden), actual, strict=True):
            k = order.index(card)
            order[k], order[place] = order[place], order[k]
        total += _play_out(_after_draw(pre, order, action), seats, player, seed)
    return total / samples


def own_correction(
    deal: Deal,
    player: int,
    seats: Sequence[Agent],
    samples: int = OWN_SAMPLES,
    redraws: int = OWN_REDRAWS,
    seed: int = 0,
    start: Deal | None = None,
) -> float:
    """The sum of the draw and choice terms of ``deal`` (played by ``seats``, the agent of each
    seat) for ``player``, in game points. ``start``: the deal's first position (default: rebuilt
    from ``deal.arrangement``)."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    for name, value in (("samples", samples), ("redraws", redraws)):
        if type(value) is not int or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    if len(seats) != 2:
        raise ValueError(f"seats must hold the agents of both seats, got {len(seats)}")
    rng = random.Random(seed)
    d = (initial_deal(deal) if start is None else start).clone()
    total = 0.0
    for entry in deal.history:
        action = entry & 31
        pre = d.clone()
        total += _choice_term(pre, action, seats, player, samples, redraws, rng)
        was_open, before = d.stock_open, len(d.stock)
        d.apply(action)
        drawn = before - len(d.stock)
        hidden = before - 1  # face-down cards: the stock less its face-up bottom card
        if was_open and 0 < drawn <= hidden and hidden > 1:
            total += _draw_term(pre, action, drawn, seats, player, samples, rng)
    return total
