"""A match: deals in a row until one player reaches the rules' target of game points.

The match decides who deals next (the winner, or alternately), what a drawn deal does (same
dealer, the other dealer, or a point carried to the next winner) and when the match is won.
"""

from __future__ import annotations

from typing import Any

from .engine import Deal, Outcome
from .rules import Rules, get_rules

__all__ = ["Match"]


class Match:
    """Game points across deals. ``deal`` is the deal in play; call :meth:`next_deal` after it ends."""

    def __init__(
        self,
        rules: str | Rules | None = None,
        rng: Any = None,
        first_dealer: int | None = None,
        first_deal: Deal | None = None,
    ) -> None:
        """``rng`` needs ``random()`` and ``shuffle(list)`` (``random.Random``, numpy ``Generator``).
        The first dealer is drawn from it unless given; ``first_deal`` starts from a set arrangement."""
        if rng is None:
            raise ValueError("Match needs an rng (random.Random or numpy Generator) for reproducible deals")
        self.rules = get_rules(rules)
        self.rng = rng
        self.scores = [0, 0] if first_deal is None else list(first_deal.scores)
        """Game points; a ``first_deal`` dealt at some match score starts the match from it."""
        self.carry = 0
        self.results: list[Outcome] = []
        self.winner = -1
        if first_deal is not None:
            self.deal = first_deal
        else:
            dealer = first_dealer if first_dealer is not None else int(rng.random() < 0.5)
            self.deal = Deal.new(self.rules, rng, dealer, scores=(0, 0))

    @property
    def is_over(self) -> bool:
        return self.winner >= 0

    def apply(self, action: int) -> None:
        """Play one action in the current deal; a finished deal is scored at once."""
        self.deal.apply(action)
        if self.deal.outcome is not None:
            self._score(self.deal.outcome)

    def _score(self, out: Outcome) -> None:
        self.results.append(out)
        if out.winner < 0:
            if self.rules.drawn_deal == "carry":
                self.carry += 1
            return
        self.scores[out.winner] += out.game_points + self.carry
        self.carry = 0
        if self.scores[out.winner] >= self.rules.match_target:
            self.winner = out.winner

    def next_match(self, rng: Any = None) -> Match:
        """The next match, once this one is over: two-player matches carry no points over (a
        drawn deal's point goes to the next deal of the same match), so it starts at 0-0; the
        winner deals first unless the rules alternate. ``rng`` deals it (default: this match's)."""
        if not self.is_over:
            raise ValueError(f"the match is still running: scores {self.scores}")
        return Match(self.rules, rng or self.rng, first_dealer=self.next_dealer())

    def next_dealer(self) -> int:
        """Who deals after the deal just finished."""
        deal = self.deal
        out = deal.outcome
        if out is None:
            raise ValueError("the current deal is still running")
        if self.rules.next_dealer == "alternate":
            return 1 - deal.dealer
        if out.winner >= 0:
            return out.winner
        return 1 - deal.dealer if self.rules.drawn_deal == "new_dealer" else deal.dealer

    def next_deal(self) -> Deal:
        """Shuffle and deal the next deal (after the current one has ended and the match goes on)."""
        if self.is_over:
            raise ValueError(f"the match is over: player {self.winner} won {self.scores[0]}-{self.scores[1]}")
        dealer = self.next_dealer()
        self.deal = Deal.new(self.rules, self.rng, dealer, scores=(self.scores[0], self.scores[1]))
        return self.deal
