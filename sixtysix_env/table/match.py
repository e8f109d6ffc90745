"""Matches of the three- and four-player games: deals in a row, the deal passing to the left.

Three players keep a stake balance each (zero-sum); the match ends after ``match_deals`` deals or
once a balance reaches ``match_target`` (whichever the rules set). Four players keep game points
per team, which only grow (each deal's ``TableOutcome.scored``); the first team to
``match_target`` wins, and points beyond the target carry to the next match when the rules say
so (``FourRules.carry_over``, the Russian "восьмёрка"). Who deals next is not stated by the
sources: the deal passes clockwise, so every seat deals in turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .deal import TableDeal, TableOutcome, TableTermination
from .four import FourDeal
from .three import ThreeDeal

__all__ = ["TableMatch"]


class TableMatch:
    """Scores across deals. ``deal`` is the deal in play; call :meth:`next_deal` after it ends."""

    def __init__(
        self,
        game: type[TableDeal],
        rules: Any = None,
        rng: Any = None,
        first_dealer: int | None = None,
        first_deal: TableDeal | None = None,
        scores: Sequence[int] = (),
    ) -> None:
        """``game`` is ``ThreeDeal`` or ``FourDeal``; ``rng`` needs ``random()`` and ``shuffle``;
        ``scores`` are the sides' starting scores (points carried from a previous match)."""
        if game not in (ThreeDeal, FourDeal):
            raise ValueError(f"game must be ThreeDeal or FourDeal, got {game!r}")
        if rng is None:
            raise ValueError("TableMatch needs an rng (random.Random or numpy Generator) for reproducible deals")
        self.game = game
        self.rules = game._get_rules(rules)
        self.rng = rng
        if scores and len(scores) != game.n_sides:
            raise ValueError(f"scores needs {game.n_sides} numbers (one per side), got {list(scores)}")
        if scores:
            self.scores = [int(x) for x in scores]
        elif first_deal is not None:  # a deal dealt at some match score is scored from it
            self.scores = list(first_deal.scores)
        else:
            self.scores = [0] * game.n_sides
        self.carry: tuple[int, ...] = (0,) * game.n_sides
        self.stake = 1
        """Four players: what the match counts once over (2 after a won fur coat, 3 after a suit)."""
        self.cut_deals: list[TableOutcome] = []
        """Deals the cut decided (Russian game) since the last call of :meth:`next_deal`: nobody
        acted in them, the match scored them and dealt on."""
        """Four players: game points beyond the target that go to the next match, once it is over."""
        self.results: list[TableOutcome] = []
        self.winners: list[int] = []
        """The players who won the match, once it is over (several when tied)."""
        self.over = False
        if first_deal is not None:
            if not isinstance(first_deal, game):
                raise ValueError(f"first_deal must be a {game.__name__}")
            self.deal = first_deal
        else:
            n = game.n_players
            dealer = first_dealer if first_dealer is not None else int(rng.random() * n) % n
            self.deal = self._deal_played(dealer)

    @property
    def is_over(self) -> bool:
        return self.over

    def apply(self, action: int) -> None:
        """Play one action in the current deal; a finished deal is scored at once."""
        self.deal.apply(action)
        if self.deal.outcome is not None:
            self._score(self.deal.outcome)

    def _score(self, out: TableOutcome) -> None:
        self.results.append(out)
        r = self.rules
        if self.game is FourDeal:
            for side, g in enumerate(out.scored):
                self.scores[side] += g
            if max(self.scores) >= r.match_target:
                self._end()
                self.stake = out.stake
                by_contract = out.contract > 0 or out.termination == TableTermination.NINES
                if r.carry_over == "all" or (r.carry_over == "contracts" and by_contract):
                    self.carry = tuple(max(0, s - r.match_target) for s in self.scores)
        else:
            for p, x in enumerate(out.payoffs):  # three players: stake balances
                self.scores[p] += x
            by_deals = r.match_deals and len(self.results) >= r.match_deals
            by_target = r.match_target and max(self.scores) >= r.match_target
            if by_deals or by_target:
                self._end()

    def _end(self) -> None:
        self.over = True
        best = max(self.scores)
        sides = [s for s in range(len(self.scores)) if self.scores[s] == best]
        self.winners = [p for p in range(self.game.n_players) if self.deal.side_of(p) in sides]

    def next_dealer(self) -> int:
        """The deal passes to the left, except that a redeal is dealt by the same dealer."""
        out = self.deal.outcome
        if out is not None and out.termination == TableTermination.REDEAL:
            return self.deal.dealer
        return (self.deal.dealer + 1) % self.game.n_players

    def _deal_played(self, dealer: int) -> TableDeal:
        """A new deal by ``dealer``; deals the cut decides are scored here and the deal passes on.
        Returns a finished deal only when such a deal ended the match."""
        self.cut_deals = []
        while True:
            deal = self.game.new(self.rules, self.rng, dealer, tuple(self.scores))
            if deal.outcome is None:
                return deal
            self.deal = deal
            self.cut_deals.append(deal.outcome)
            self._score(deal.outcome)
            if self.over:
                return deal
            dealer = (dealer + 1) % self.game.n_players

    def next_deal(self) -> TableDeal:
        """Shuffle and deal the next deal (after the current one has ended and the match goes on)."""
        if self.deal.outcome is None:
            raise ValueError("the current deal is still running")
        if self.over:
            raise ValueError(f"the match is over: scores {self.scores}")
        self.deal = self._deal_played(self.next_dealer())
        return self.deal

    def next_match(self, rng: Any = None) -> TableMatch:
        """The next match, once this one is over: the scores start from :attr:`carry` and the deal
        passes on as between deals; ``rng`` deals it (default: this match's)."""
        if not self.over:
            raise ValueError(f"the match is still running: scores {self.scores}")
        return TableMatch(self.game, self.rules, rng or self.rng, self.next_dealer(), scores=self.carry)
