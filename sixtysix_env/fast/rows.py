"""A reference :class:`~sixtysix_env.engine.Deal` as one state row of the batched engine, so a
search or a playout on rows can start from any position of the readable engine (a sampled one
too)."""

from __future__ import annotations

import numpy as np

from ..engine import Deal
from .state import (
    CLAIM,
    CLOSED_BY,
    CLOSED_OPP_POINTS,
    CLOSED_OPP_TRICKS,
    CLOSED_OWN_TRICKS,
    CURRENT,
    DEALER,
    DECISION,
    DECLARED,
    EXCHANGE_CARD,
    GAME_POINTS,
    HAND,
    JUST_CLOSED,
    KNOWN,
    LEAD_CARD,
    LEADER,
    MARRIAGES,
    MASK,
    NUM_FIELDS,
    NUM_MOVES,
    PENDING,
    POINTS,
    RUNNING,
    SCORES,
    STOCK,
    STOCK_LEN,
    TERMINATION,
    TRICK_COUNT,
    TRICKS,
    TRUMP,
    TRUMP_CARD,
    WINNER,
    WON,
)

__all__ = ["row_of"]


def row_of(deal: Deal, R: np.ndarray | None = None) -> np.ndarray:
    """The batched engine's state row of a reference ``Deal`` (any position, also a sampled one)."""
    s = np.zeros(NUM_FIELDS, dtype=np.int32)
    s[DEALER] = deal.dealer
    s[TRUMP] = deal.trump
    s[TRUMP_CARD] = deal.trump_card
    s[EXCHANGE_CARD] = deal.exchange_card
    s[CURRENT] = deal.current
    s[DECISION] = int(deal.decision)
    s[LEADER] = deal.leader
    s[LEAD_CARD] = deal.lead_card
    s[DECLARED] = deal.declared
    s[JUST_CLOSED] = int(deal.just_closed)
    s[CLOSED_BY] = deal.closed_by
    s[CLOSED_OPP_TRICKS] = deal.closed_opp_tricks
    s[CLOSED_OPP_POINTS] = deal.closed_opp_points
    s[CLOSED_OWN_TRICKS] = deal.closed_own_tricks
    s[TRICK_COUNT] = deal.trick_count
    s[NUM_MOVES] = len(deal.history)
    s[STOCK_LEN] = len(deal.stock)
    for p in (0, 1):
        s[HAND + p] = deal.hands[p]
        s[KNOWN + p] = deal.known[p]
        s[WON + p] = deal.won_cards[p]
        s[POINTS + p] = deal.points[p]
        s[PENDING + p] = deal.pending[p]
        s[TRICKS + p] = deal.tricks[p]
        s[MARRIAGES + p] = deal.marriages[p]
        s[CLAIM + p] = int(deal.claim_chance[p])
        s[SCORES + p] = deal.scores[p]
    s[STOCK : STOCK + len(deal.stock)] = deal.stock
    if deal.outcome is None:
        s[WINNER] = -1
        s[TERMINATION] = RUNNING
    else:
        s[WINNER] = deal.outcome.winner
        s[GAME_POINTS] = deal.outcome.game_points
        s[TERMINATION] = int(deal.outcome.termination)
    s[MASK] = np.int64(deal.legal_mask()).astype(np.int32) if deal.outcome is None else 0
    return s
