"""Match results beside the per-deal figures: who first reaches the rules' ``match_target``.

Outside programs report games to 7 (or 11) game points, not points per deal; these helpers give
the benchmarks the same number. Two ways, each where it is valid:

- :func:`duplicate_match` plays real matches (:class:`~sixtysix_env.match.Match`: the deal
  starts at the match score, the dealer follows ``Rules.next_dealer`` and ``drawn_deal``), twice
  with the seats swapped on the same sequence of shuffles (a duplicate match pair);
- :func:`chain_matches` cuts a run of independent games, played in order with the seats
  alternating, into consecutive matches. Valid only where the agents cannot see the match score
  (each game started at 0-0) and the rules alternate the dealer (``next_dealer="alternate"``: the
  seat sequence is then exactly the match's); ``bench_vu.py`` is such a case (the VU engine has
  no match score, and the ``vu`` preset alternates).

Match win rates come with 95% Wilson intervals (:func:`~.stats.wilson_interval`), which take the
matches as independent draws.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import Deal
from ..match import Match
from ..rules import Rules
from .stats import wilson_interval

__all__ = ["MatchResult", "MatchTally", "chain_matches", "duplicate_match", "match_tally", "play_match"]

Chooser = Callable[[Deal, random.Random], int]
"""A player for one seat: the full deal (a fair agent reads only its own view) and its random source."""


@dataclass(frozen=True)
class MatchResult:
    """One match from the agent's side: won or not, the final score (agent first), deals played."""

    won: bool
    score: tuple[int, int]
    deals: int


@dataclass(frozen=True)
class MatchTally:
    """Matches won of those played, the rate and its 95% Wilson interval."""

    matches: int
    wins: int
    rate: float
    ci: tuple[float, float]

    def text(self) -> str:
        """``0.620 [0.551, 0.685] of 200`` for the tables; ``-`` with no match."""
        if not self.matches:
            return "-"
        return f"{self.rate:.3f} [{self.ci[0]:.3f}, {self.ci[1]:.3f}] of {self.matches}"


def match_tally(won: Sequence[bool]) -> MatchTally:
    """The tally of matches won (``True``) and lost."""
    n, wins = len(won), sum(bool(w) for w in won)
    return MatchTally(n, wins, wins / n if n else math.nan, wilson_interval(wins, n))


def play_match(
    rules: Rules, shuffle_seed: str, first_dealer: int, seat: int, me: Chooser, them: Chooser, seed_text: str
) -> MatchResult:
    """One match to ``rules.match_target`` with ``me`` in ``seat``: its deals shuffled by
    ``random.Random(shuffle_seed)`` in turn, the first dealt by ``first_dealer``; each player's
    random source is seeded by ``seed_text`` and its seat."""
    match = Match(rules, random.Random(shuffle_seed), first_dealer=first_dealer)
    rngs = (random.Random(f"{seed_text}/0"), random.Random(f"{seed_text}/1"))
    while True:
        deal = match.deal
        while deal.outcome is None:
            p = deal.current
            match.apply((me if p == seat else them)(deal, rngs[p]))
        if match.is_over:
            break
        match.next_deal()
    mine, theirs = match.scores[seat], match.scores[1 - seat]
    return MatchResult(match.winner == seat, (mine, theirs), len(match.results))


def duplicate_match(
    rules: Rules, seed: int | str, index: int, me: Chooser, them: Chooser
) -> tuple[MatchResult, MatchResult]:
    """Match ``index`` of a run seeded ``seed``, played twice on the same shuffles: ``me`` in seat 0,
    then in seat 1, seat ``index % 2`` dealing first both times. The deals stay the same cards; the
    dealers agree as long as the two matches' deal winners mirror each other."""
    shuffles = f"{seed}/match/{index}"
    return (
        play_match(rules, shuffles, index % 2, 0, me, them, f"{shuffles}/track0"),
        play_match(rules, shuffles, index % 2, 1, me, them, f"{shuffles}/track1"),
    )


def chain_matches(points: Sequence[int | None], seats: Sequence[int], target: int) -> list[MatchResult]:
    """Consecutive matches to ``target`` from games in play order: ``points[i]`` is game ``i``'s
    game points from the agent's side (won > 0, lost < 0; ``None``: the game failed, which voids the
    match it falls in, and the next match starts at the next game), ``seats[i]`` the agent's seat.
    A match still running after the last game is left out. Raises ``ValueError`` unless the seats
    alternate (the only dealer rule under which chaining is a real match sequence)."""
    if len(points) != len(seats):
        raise ValueError(f"points and seats differ in length: {len(points)} and {len(seats)}")
    if any(seats[i] == seats[i - 1] for i in range(1, len(seats))):
        raise ValueError("chaining games into matches needs the seats to alternate game by game")
    if not isinstance(target, int) or target < 1:
        raise ValueError(f"target must be a whole number >= 1, got {target!r}")
    out: list[MatchResult] = []
    mine = theirs = deals = 0
    for p in points:
        if p is None:
            mine = theirs = deals = 0
            continue
        deals += 1
        if p > 0:
            mine += p
        else:
            theirs -= p
        if mine >= target or theirs >= target:
            out.append(MatchResult(mine >= target, (mine, theirs), deals))
            mine = theirs = deals = 0
    return out
