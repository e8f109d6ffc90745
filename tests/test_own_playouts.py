"""The reduced estimate with every agent in its own seat (``arena.own_playouts``, docs/evaluation.md):
unbiased for fair players, random ones included, and it takes out the luck of random choices,
which no stand-in can."""

from __future__ import annotations

import math
import random
import statistics
import sys

import pytest

from sixtysix_env.agents.heuristic import HeuristicAgent
from sixtysix_env.agents.random_agent import RandomAgent
from sixtysix_env.arena.own_playouts import own_correction
from sixtysix_env.engine import Deal
from sixtysix_env.rules import get_rules

STANDARD = get_rules("standard")


def _games(seats, n: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deal = Deal.new(STANDARD, rng, dealer=i % 2)
        while deal.outcome is None:
            p = deal.current
            deal.apply(seats[p].act(deal.information_state(p), rng))
        out.append(deal)
    return out


def test_the_terms_average_zero_and_take_out_the_random_players_luck() -> None:
    """Random (seat 0) against the heuristic: the corrections average zero (within 3.5 standard
    errors), and with the cross-fitted coefficient the results vary far less than plain (2x here)
    and less than with the batched estimate's heuristic playouts, which cannot see the luck of the
    random player's own choices."""
    pytest.importorskip("numba")
    from sixtysix_env.arena.stats import reduce_values
    from sixtysix_env.arena.variance import draw_correction

    seats = (RandomAgent(), HeuristicAgent())
    games = _games(seats, 200, seed=2)
    plain = [float(d.returns()[0]) for d in games]
    corr = [own_correction(d, 0, seats, samples=8, redraws=4, seed=i) for i, d in enumerate(games)]
    se = statistics.stdev(corr) / math.sqrt(len(corr))
    assert abs(statistics.fmean(corr)) < 3.5 * se
    folds = [i % 2 for i in range(len(games))]
    own = reduce_values(plain, corr, folds)
    stand_in = reduce_values(plain, [draw_correction(d, 0, samples=16, seed=i) for i, d in enumerate(games)], folds)
    assert own.ratio > 1.6
    assert own.ratio > 1.5 * stand_in.ratio


def test_a_deterministic_player_has_no_choice_terms() -> None:
    """Against itself the heuristic chooses the same every time: only the draws are corrected, so a
    deal without a draw (none played yet) and the same seed give the same number as before."""
    seats = (HeuristicAgent(), HeuristicAgent())
    deal = Deal.new(STANDARD, random.Random(1), dealer=0)
    assert own_correction(deal, 0, seats) == 0.0
    (finished,) = _games(seats, 1, seed=5)
    once = own_correction(finished, 0, seats, samples=4, seed=7)
    assert once == own_correction(finished, 0, seats, samples=4, seed=7) != 0.0
    assert own_correction(finished, 1, seats, samples=4, seed=7) == pytest.approx(-once)  # zero-sum


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (dict(player=2), "player must be 0 or 1"),
        (dict(samples=0), "samples must be a whole number"),
        (dict(redraws=1.5), "redraws must be a whole number"),
        (dict(seats=(HeuristicAgent(),)), "seats must hold the agents of both seats"),
    ],
)
def test_bad_arguments_are_named(bad, message) -> None:
    (finished,) = _games((HeuristicAgent(), HeuristicAgent()), 1, seed=5)
    args = dict(deal=finished, player=0, seats=(HeuristicAgent(), HeuristicAgent())) | bad
    with pytest.raises(ValueError, match=message):
        own_correction(**args)


def test_the_arena_reduces_with_the_agents_own_playouts(monkeypatch) -> None:
    """On the reference engine alone: with the batched engine's module unimportable (as without
    numba, the fast extra) ``own`` still gives the reduced table."""
    from sixtysix_env.arena import run_arena, summary_markdown

    monkeypatch.setitem(sys.modules, "sixtysix_env.arena.variance", None)  # any import of it now fails
    own = run_arena(["random", "heuristic"], deals=12, block=6, reduce_playouts="own")
    plain = run_arena(["random", "heuristic"], deals=12, block=6, reduce=False)
    (pair,) = own.pairs
    assert pair.points_reduced_ci[0] < pair.points_reduced < pair.points_reduced_ci[1]
    assert len(own.deal_corrections) == len(own.deal_records) and not any(map(math.isnan, own.deal_corrections))
    assert pair.points_per_deal == plain.pairs[0].points_per_deal  # the plain figures do not change
    assert own.reduce_playouts == "own" and plain.reduce_playouts == ""
    assert "luck of the draws and of the agents' own choices taken out" in summary_markdown(own)


class _FailsLater:
    """Plays its first legal action, and raises from its 40th answer on: in the playouts of a
    one-deal run, since a deal asks it about a dozen times."""

    name = "failslater"

    def __init__(self) -> None:
        self.answers = 0

    def act(self, info, rng):
        self.answers += 1
        if self.answers >= 40:
            raise RuntimeError("worn out")
        return info.legal_actions()[0]


def test_an_agent_that_fails_in_the_playouts_stops_the_run_named() -> None:
    from sixtysix_env.agents import AGENTS, register_agent
    from sixtysix_env.arena import run_arena

    register_agent("test_failslater", _FailsLater, overwrite=True)
    try:
        named = r"raised RuntimeError in the playouts of --reduce-playouts own \(worn out\)"
        with pytest.raises(RuntimeError, match=named):
            run_arena(["test_failslater", "heuristic"], deals=1, reduce_playouts="own")
        assert run_arena(["test_failslater", "heuristic"], deals=1).deal_records  # the default playouts do not ask it
    finally:
        AGENTS.pop("test_failslater", None)
