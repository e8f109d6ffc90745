"""Best response to a known opponent on a full deal: our moves searched, his played by his policy.

Minimax (:mod:`.alphabeta`) values a sampled deal as if the opponent saw every card and never
erred. Against an opponent whose policy we know (the built-in heuristic), that is too pessimistic:
his move in each position is a function of what *he* may know there, so on a full deal it can be
computed, not searched. The value of a position is then the best the searching player can do
against that policy with every card face up: a one-player search, exact for the policy given.

This is the readable specification; :mod:`sixtysix_env.agents.fast.response` is the same search in
numba (the same values, tested), which PIMC uses with ``reply="heuristic"``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Deal
from .alphabeta import _check, _key
from .heuristic import heuristic_deal_action

__all__ = ["Policy", "response_value", "response_values"]

Policy = Callable[[Deal], int]
"""The opponent's move in a full deal, from what he may know there (``heuristic_deal_action``)."""


def _value(deal: Deal, me: int, policy: Policy, memo: dict[tuple[object, ...], int]) -> int:
    while deal.outcome is None and deal.current != me:
        deal.apply(policy(deal))
    if deal.outcome is not None:
        return int(deal.returns()[me])
    # his policy also reads the cards out and the stock's bottom card, which the key leaves out
    key = (*_key(deal), deal.won_cards[0] | deal.won_cards[1], deal.stock[0] if deal.stock else -1)
    if key in memo:
        return memo[key]
    best = -(1 << 30)
    for a in deal.legal_actions():
        child = deal.clone()
        child.apply(a)
        best = max(best, _value(child, me, policy, memo))
    memo[key] = best
    return best


def response_values(deal: Deal, policy: Policy = heuristic_deal_action) -> dict[int, int]:
    """Game points for the player to act after each legal action, when he then plays his best with
    every card face up and the opponent plays ``policy``."""
    me = _check(deal, None)
    memo: dict[tuple[object, ...], int] = {}
    out = {}
    for a in deal.legal_actions():
        child = deal.clone()
        child.apply(a)
        out[a] = _value(child, me, policy, memo)
    return out


def response_value(deal: Deal, player: int, policy: Policy = heuristic_deal_action) -> int:
    """The value of ``deal`` for ``player`` (0 or 1) when he searches and the other plays ``policy``."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    return _value(deal.clone(), player, policy, {})
