"""Perfect-Information Monte Carlo for the three- and four-player games.

For each of ``samples`` deals consistent with the acting player's view (``TableView.sample``:
the unseen cards dealt at random into the unknown places, a committed card drawn from the shown
suits), every legal action is applied and the deal played out by ``TableHeuristicAgent`` for
every seat, each seeing only his own view of the sampled deal (with ``bid_samples=0``: in the
play-outs only sure contracts are named, which keeps them fast); the action with the best mean
payoff for the acting player (his stakes, or his team's game points less the other team's) is
played. The same sampled deals are used for every action, so their luck cancels in the
comparison. Bidding, redeals, three nines and discards are searched like card play, so the
agent names a contract when the sampled play-outs win it.
"""

from __future__ import annotations

import random

from ...table.deal import TableDeal
from ...table.view import TableView
from .base import table_only_choice
from .heuristic import TableHeuristicAgent

__all__ = ["TablePIMCAgent"]


class TablePIMCAgent:
    """Determinized search with heuristic play-outs; ``samples`` deals per decision."""

    name = "pimc"

    def __init__(self, samples: int = 12) -> None:
        if not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be a positive int, got {samples!r}")
        self.samples = samples
        self.rollout = TableHeuristicAgent(bid_samples=0)

    def act(self, view: TableView, rng: random.Random) -> int:
        only = table_only_choice(view)
        if only is not None:
            return only
        legal = view.legal_actions()
        totals = [0.0] * len(legal)
        for _ in range(self.samples):
            deal = view.sample(rng)
            for i, a in enumerate(legal):
                d = deal.clone()
                d.apply(a)
                totals[i] += self._play_out(d, rng)[view.player]
        best = max(totals)
        return legal[totals.index(best)]

    def _play_out(self, d: TableDeal, rng: random.Random) -> tuple[int, ...]:
        while d.outcome is None:
            p = d.current_player
            d.apply(self.rollout.act(TableView.of(d, p), rng))
        return d.outcome.payoffs

    def __repr__(self) -> str:
        return f"TablePIMCAgent(samples={self.samples})"
