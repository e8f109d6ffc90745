"""Match results and the variance-reduced estimate (``arena.matches``, ``arena.variance``, docs/evaluation.md)."""

from __future__ import annotations

import math
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from sixtysix_env.agents.heuristic import HeuristicAgent
from sixtysix_env.agents.random_agent import RandomAgent
from sixtysix_env.arena import run_arena, summary_markdown
from sixtysix_env.arena.matches import chain_matches, duplicate_match, match_tally, play_match
from sixtysix_env.arena.run import check_reduce
from sixtysix_env.cards import CARD_POINTS
from sixtysix_env.engine import Deal
from sixtysix_env.rules import get_rules

from .scripts import load_script

pytest.importorskip("numba")  # the reduced estimate replays deals on the batched engine

from sixtysix_env.arena.stats import MIN_FOLD, reduce_values
from sixtysix_env.arena.variance import draw_correction

ROOT = Path(__file__).resolve().parents[1]
STANDARD = get_rules("standard")


def _fair(agent):
    return lambda deal, rng: agent.act(deal.information_state(deal.current), rng)


def _games(me, them, n: int, seed: int = 0, rules=STANDARD) -> list[tuple[Deal, int]]:
    """``n`` deals with ``me`` in seat ``i % 2``: the finished deal and that seat."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deal = Deal.new(rules, rng, dealer=i % 2)
        seat = i % 2
        while deal.outcome is None:
            p = deal.current
            deal.apply((me if p == seat else them)(deal, rng))
        out.append((deal, seat))
    return out


# ---------------------------------------------------------------------- the draw correction
def test_the_correction_has_mean_zero_for_fair_players_and_removes_luck() -> None:
    """Fair players: the corrections average zero (within 3.5 standard errors on 400 deals) and
    the corrected results vary at most half as much as the plain ones (heuristic against itself)."""
    heuristic = _fair(HeuristicAgent())
    games = _games(heuristic, heuristic, 400)
    plain = [float(d.returns()[s]) for d, s in games]
    corr = [draw_correction(d, s, samples=32, seed=i) for i, (d, s) in enumerate(games)]
    se = statistics.stdev(corr) / math.sqrt(len(corr))
    assert abs(statistics.fmean(corr)) < 3.5 * se
    reduced = [g - c for g, c in zip(plain, corr, strict=True)]
    assert statistics.variance(plain) > 1.8 * statistics.variance(reduced)


def test_a_player_who_sees_the_stock_biases_the_correction() -> None:
    """A player who peeks at the next stock card (wins the trick when it is worth having, else
    ducks) steers toward good draws: its corrections do not average zero, which is why the
    oracle's row (it sees every card) is never reduced."""
    heuristic = HeuristicAgent()

    def worth(c: int) -> int:
        return 20 * (c // 6 == deal_trump[0]) + CARD_POINTS[c]

    deal_trump = [0]

    def peeker(deal: Deal, rng: random.Random) -> int:
        cards = [a for a in deal.legal_actions() if a < 24]
        if deal.lead_card >= 0 and deal.stock_open and len(deal.stock) > 2 and cards:
            deal_trump[0] = deal.trump
            want_top = worth(deal.stock[-1]) > worth(deal.stock[-2])  # the trick's winner draws first
            strength = {c: (c // 6 == deal.trump, c // 6 == deal.lead_card // 6, CARD_POINTS[c]) for c in cards}
            return max(cards, key=strength.get) if want_top else min(cards, key=strength.get)
        return heuristic.act(deal.information_state(deal.current), rng)

    games = _games(peeker, _fair(heuristic), 600, seed=3)
    corr = [draw_correction(d, s, samples=32, seed=i) for i, (d, s) in enumerate(games)]
    se = statistics.stdev(corr) / math.sqrt(len(corr))
    assert statistics.fmean(corr) > 4 * se


def test_no_draw_no_correction_and_the_same_seed_the_same_number() -> None:
    deal = Deal.new(STANDARD, random.Random(1), dealer=0)
    assert draw_correction(deal, 0) == 0.0  # nothing played yet
    heuristic = _fair(HeuristicAgent())
    (finished, seat), *_ = _games(heuristic, heuristic, 1, seed=5)
    once = draw_correction(finished, seat, seed=7)
    assert once == draw_correction(finished, seat, seed=7) != 0.0
    assert draw_correction(finished, 1 - seat, seed=7) == pytest.approx(-once)  # zero-sum values
    for bad, message in ((dict(player=2), "player must be 0 or 1"), (dict(player=0, samples=0), "samples")):
        with pytest.raises(ValueError, match=message):
            draw_correction(finished, **bad)


def test_the_agents_own_network_in_the_playouts_removes_more_luck() -> None:
    """A network agent's own policy playing its seat in ``V``'s playouts tracks the real games
    far better than the heuristic standing in for it (docs/evaluation.md: about 6x against 1.3x)."""
    from sixtysix_env.agents.spec import parse_agent_spec
    from sixtysix_env.arena.play import ready_agent
    from sixtysix_env.arena.variance import playout_net

    ppo = ready_agent(parse_agent_spec("ppo:model=cleanrl_standard_long"), STANDARD)
    net = playout_net(ppo, STANDARD)
    assert net is not None and playout_net(HeuristicAgent(), STANDARD) is None
    heuristic = _fair(HeuristicAgent())
    rng = random.Random(11)
    plain, with_net, with_heuristic = [], [], []
    for i in range(40):
        deal = Deal.new(STANDARD, rng, dealer=i % 2)
        pair = [0.0, 0.0, 0.0]
        for seat in (0, 1):
            d = deal.clone()
            while d.outcome is None:
                p = d.current
                d.apply((_fair(ppo) if p == seat else heuristic)(d, rng))
            nets = (net, None) if seat == 0 else (None, net)
            g = d.returns()[seat]
            pair[0] += g / 2
            pair[1] += (g - draw_correction(d, seat, samples=32, seed=i, nets=nets)) / 2
            pair[2] += (g - draw_correction(d, seat, samples=32, seed=i)) / 2
        for out, x in zip((plain, with_net, with_heuristic), pair, strict=True):
            out.append(x)
    assert statistics.variance(plain) > 2.5 * statistics.variance(with_net)
    assert statistics.variance(with_heuristic) > 1.5 * statistics.variance(with_net)


def test_cross_fitting_takes_each_folds_coefficient_from_the_other() -> None:
    rng = random.Random(0)
    n = 4 * MIN_FOLD
    corr = [rng.gauss(0, 1) for _ in range(n)]
    folds = [i % 2 for i in range(n)]
    values = [1 + (2.0 if f == 0 else 0.5) * c for c, f in zip(corr, folds, strict=True)]
    r = reduce_values(values, corr, folds)
    assert r.betas == pytest.approx((0.5, 2.0))  # fold 0 is corrected with fold 1's slope, and back
    assert r.plain_mean == pytest.approx(statistics.fmean(values))
    small = reduce_values(values[:10], corr[:10], folds[:10])
    assert small.betas == (1.0, 1.0)  # too few to fit: plain AIVAT
    assert small.mean == pytest.approx(statistics.fmean(v - c for v, c in zip(values[:10], corr[:10], strict=True)))
    with pytest.raises(ValueError, match="differ in length"):
        reduce_values([1.0], [], [0])
    with pytest.raises(ValueError, match="folds must be 0 or 1"):
        reduce_values([1.0], [0.0], [2])


# ---------------------------------------------------------------------- matches
def test_a_match_is_played_to_the_target_at_the_match_score() -> None:
    seen: list[tuple[int, int, int]] = []

    def recording(agent):
        def choose(deal: Deal, rng: random.Random) -> int:
            if not deal.history:
                seen.append((*deal.scores, deal.dealer))
            return agent.act(deal.information_state(deal.current), rng)

        return choose

    res = play_match(STANDARD, "m", 0, 0, recording(HeuristicAgent()), recording(RandomAgent()), "r")
    assert res.won and res.score[0] >= STANDARD.match_target > res.score[1]
    assert len(seen) == res.deals >= 3  # random loses a deal 1 to 3 game points a time
    assert seen[0] == (0, 0, 0)
    assert all(max(s[:2]) < STANDARD.match_target for s in seen)
    assert [s[:2] for s in seen] == sorted(s[:2] for s in seen)  # the scores only grow


def test_a_duplicate_match_of_one_player_against_itself_splits_evenly() -> None:
    heuristic = _fair(HeuristicAgent())
    for index in range(4):
        first, second = duplicate_match(STANDARD, 0, index, heuristic, heuristic)
        assert first.won != second.won  # mirror images: the same player wins seat for seat
        assert first.score == second.score[::-1] and first.deals == second.deals


def test_chained_games_make_matches_only_where_the_seats_alternate() -> None:
    out = chain_matches([3, 3, -1, 2, -3, None, 2, 2, 2, 2, -1], [i % 2 for i in range(11)], 7)
    # the failed game voids the match it falls in; the last, still open, is left out
    assert [(m.won, m.score, m.deals) for m in out] == [(True, (8, 1), 4), (True, (8, 0), 4)]
    assert chain_matches([2, 2, 2, 2, 2, 2, 2], [i % 2 for i in range(7)], 7)[0].deals == 4
    with pytest.raises(ValueError, match="alternate"):
        chain_matches([1, 1], [0, 0], 7)
    tally = match_tally([True, False, True, True])
    assert (tally.matches, tally.wins, tally.rate) == (4, 3, 0.75) and tally.ci[0] < 0.75 < tally.ci[1]
    assert match_tally([]).text() == "-" and "of 4" in tally.text()


# ---------------------------------------------------------------------- the arena and the benchmarks
def test_the_arena_reports_the_reduced_points_beside_the_plain_ones(monkeypatch) -> None:
    res = run_arena(["heuristic", "random"], deals=12, block=6)
    (pair,) = res.pairs
    assert not math.isnan(pair.points_reduced) and pair.points_reduced_ci[0] < pair.points_reduced_ci[1]
    assert len(res.deal_corrections) == len(res.deal_records) and not any(map(math.isnan, res.deal_corrections))
    assert "luck of the draws taken out" in summary_markdown(res) and res.reduce_playouts == "agents"
    off = run_arena(["heuristic", "random"], deals=12, block=6, reduce=False)
    assert math.isnan(off.pairs[0].points_reduced) and "luck of the draws" not in summary_markdown(off)
    assert off.pairs[0].points_per_deal == pair.points_per_deal  # the plain figures do not change
    import sixtysix_env.arena.variance as variance

    monkeypatch.setattr(variance, "supports", lambda rules: False)
    assert check_reduce(None, STANDARD) is False
    with pytest.raises(ValueError, match="does not play the rules 'standard'"):
        check_reduce(True, STANDARD)
    with pytest.raises(ValueError, match="reduce="):
        check_reduce("yes", STANDARD)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reduce_playouts='nets' is not allowed: give one of agents, heuristic, own"):
        run_arena(["heuristic", "random"], deals=2, reduce_playouts="nets")
    assert check_reduce(None, STANDARD, "own") is True  # the reference engine's playouts need neither
    assert check_reduce(True, STANDARD, "own") is True
    with pytest.raises(
        ValueError, match=r"heuristic playouts .*\(--no-reduce; .*\(--reduce-playouts own; reduce_playouts='own'"
    ):
        check_reduce(True, STANDARD, "heuristic")
    monkeypatch.setitem(sys.modules, "sixtysix_env.arena.variance", None)  # numba missing: the cause is named
    assert check_reduce(None, STANDARD) is False and check_reduce(True, STANDARD, "own") is True
    with pytest.raises(ValueError, match=r"needs numba: pip install 'sixtysix-env\[fast\]'"):
        check_reduce(True, STANDARD)


def test_bench_gap_prints_the_reduced_and_match_columns(tmp_path) -> None:
    cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_gap.py"), "--agents", "random,heuristic"]
    cmd += ["--deals", "4", "--matches", "2", "--no-oracle", "--no-progress"]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if line.startswith("| agent"))
    assert "G reduced [95% CI]" in header and "match win rate to 7 [95% CI]" in header
    row = next(line for line in done.stdout.splitlines() if line.startswith("| heuristic"))
    assert row.rstrip(" |").endswith("0.500 [0.150, 0.850] of 4")  # against itself: one win in each pair
    paired = done.stdout.split("Each agent minus the first")[1]
    assert "G minus random's, paired [95% CI]" in paired and "| heuristic" in paired
    off = subprocess.run([*cmd, "--no-reduce", "--matches", "0"], cwd=tmp_path, capture_output=True, text=True)
    assert off.returncode == 0 and "G reduced" not in off.stdout and "match win rate" not in off.stdout
    own = subprocess.run([*cmd, "--reduce-playouts", "own"], cwd=tmp_path, capture_output=True, text=True)
    assert own.returncode == 0 and "G reduced [95% CI]" in own.stdout, own.stderr
    gap = load_script("benchmarks/bench_gap.py")
    agent = gap.Result("a", [(1, 1)] * 30 + [(0, 2)] * 30, [0.0] * 60, [3] * 60, [(0.5, -0.5)] * 60)
    assert agent.reduced() is not None and len(agent.reduced_means()) == 60


def test_bench_gap_pairs_the_agents_on_the_same_deals() -> None:
    """Two agents one point a deal apart on deals of widely varying luck: each row's interval is
    wide, the paired difference exact; agents after the first are compared with the first."""
    gap = load_script("benchmarks/bench_gap.py")
    luck = [(3 * (i % 4) - 4, 2 - 2 * (i % 3)) for i in range(40)]
    base = gap.Result("base", luck, [0.0] * 40, [3] * 40)
    better = gap.Result("better", [(a + 1, b + 1) for a, b in luck], [0.0] * 40, [3] * 40)
    lo, hi = better.g_interval()
    assert hi - lo > 1 and gap.paired_difference(better, base) == (1.0, 1.0, 1.0)
    text = gap.paired_table([base, better, better], oracle=None)
    assert text.count("| better") == 2 and "G minus base's, paired" in text and "+1.000 [+1.000, +1.000]" in text
    assert gap.paired_table([base], oracle=None) is None and gap.paired_table([better, base], oracle=better) is None


def test_bench_vu_summary_has_the_match_row() -> None:
    bench = load_script("benchmarks/bench_vu.py")
    results = [bench.GameResult(i, i % 2, True, 2, 0.0, 1, 0.0, 1) for i in range(8)]
    s = bench.summarize("x", results, wall_s=1.0)
    assert (s["matches"], s["match_wins"], s["games_per_match"]) == (2, 2, 4.0)  # 2+2+2+2 >= 7: four games
    assert "matches to 7" in bench.match_table([s], "rand")


def test_the_batched_network_playouts_play_as_the_agent() -> None:
    """The playouts' network seat chooses exactly what ``PPOAgent.act`` chooses (masked argmax on
    the batched engine's observation), so ``V`` is the agent's own play where it has a network."""
    import numpy as np

    from sixtysix_env.agents.spec import parse_agent_spec
    from sixtysix_env.arena.play import ready_agent
    from sixtysix_env.arena.variance import _network_values, _rules_vector, playout_net
    from sixtysix_env.fast.rows import row_of

    ppo = ready_agent(parse_agent_spec("ppo:model=cleanrl_standard_long"), STANDARD)
    net = playout_net(ppo, STANDARD)
    rng = random.Random(2)
    deals = [Deal.new(STANDARD, rng, dealer=i % 2) for i in range(20)]
    rows = np.stack([row_of(d) for d in deals])
    values = np.zeros(len(deals), dtype=np.int64)
    _network_values(rows, len(deals), _rules_vector(STANDARD), 0, (net, None), values)
    heuristic = HeuristicAgent()
    for d, v in zip(deals, values, strict=True):
        while d.outcome is None:
            agent = ppo if d.current == 0 else heuristic
            d.apply(agent.act(d.information_state(d.current), rng))
        assert d.returns()[0] == v
