"""The perfect-information solver with the stock still open, and the oracle built on it.

The brute force here is plain minimax (no pruning, no table, no move ordering): the reference.
Exact comparisons use late open-stock positions of the 20-card game (small trees); depth-limited
comparisons reach open-stock positions of every 24-card preset.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sixtysix_env import CLOSE, PRESETS, Deal, Decision
from sixtysix_env.agents import AGENTS, HeuristicAgent, Solver, alphabeta, make_agent, solve, solve_actions
from sixtysix_env.agents.alphabeta import point_balance
from sixtysix_env.agents.oracle import OracleAgent
from sixtysix_env.agents.spec import parse_agent_spec

from .scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


def _minimax(d: Deal, player: int, depth: int | None = None) -> float:
    """Plain minimax for ``player``; with ``depth``, ``point_balance`` at the horizon (forced
    moves count as plies, as in the solver)."""
    if d.outcome is not None:
        return d.outcome.returns()[player]
    if depth is not None and depth <= 0:
        return point_balance(d, player)
    values = []
    for a in d.legal_actions():
        c = d.clone()
        c.apply(a)
        values.append(_minimax(c, player, None if depth is None else depth - 1))
    return max(values) if d.current == player else min(values)


def _open_stock(rules, seed: int, n: int, stock: int, lead: bool) -> list[Deal]:
    """``n`` positions with the stock open and ``stock`` cards left, reached by random play that
    never closes; ``lead``: at a lead where closing is legal."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        d = Deal.new(rules, rng, dealer=rng.randrange(2))
        while d.outcome is None and len(d.stock) > stock:
            d.apply(rng.choice([a for a in d.legal_actions() if a != CLOSE]))
        while lead and d.outcome is None and d.decision != Decision.LEAD:
            d.apply(rng.choice([a for a in d.legal_actions() if a != CLOSE]))
        if d.outcome is None and d.stock_open and (not lead or d.is_legal(CLOSE)):
            out.append(d)
    return out


SMALL = [PRESETS["schnapsen"], PRESETS["schnapsen"].replace(claiming="explicit")]


@pytest.mark.parametrize(("rules", "closing", "other"), [(SMALL[0], 3, 2), (SMALL[1], 1, 1)], ids=["auto", "explicit"])
def test_solver_is_exact_with_the_stock_open(rules, closing: int, other: int) -> None:
    """Schnapsen leads with two cards in the stock: some where closing is the only best move (what
    the solver once never searched) and some others, each action's value checked by brute force."""
    positions = _open_stock(rules, seed=3, n=40, stock=2, lead=True)
    values = [solve_actions(d) for d in positions]
    close_best = [i for i, v in enumerate(values) if v[CLOSE] > max(x for a, x in v.items() if a != CLOSE)]
    others = [i for i in range(len(positions)) if i not in close_best]
    assert len(close_best) >= closing, "too few positions where closing is the only best move"
    for i in close_best[:closing] + others[:other]:
        d, p = positions[i], positions[i].current
        exact = {a: _minimax(_after(d, a), p) for a in d.legal_actions()}
        assert values[i] == exact, d.to_notation()
        value, best = solve(d)
        assert value == max(exact.values()) and exact[best] == value, d.to_notation()
        assert solve(d, 1 - p)[0] == -value


@pytest.mark.parametrize("name", ["standard", "santase", "russian", "marriage"])
def test_depth_limited_solver_matches_minimax_with_the_stock_open(name, monkeypatch) -> None:
    """Open-stock positions at a lead where closing is legal, searched 5 plies deep. The solver's
    shortcut for a hopeless closer is switched off: it knows the true value, not the horizon's."""
    monkeypatch.setattr(alphabeta, "_closer_cannot_make_it", lambda d: False)
    close_differs = 0
    for d in _open_stock(PRESETS[name], seed=8, n=5, stock=6, lead=True):
        p = d.current
        assert solve(d, max_depth=5)[0] == _minimax(d, p, 5), d.to_notation()
        after_close = d.clone()
        after_close.apply(CLOSE)
        value_close = solve(after_close, p, max_depth=4)[0]
        assert value_close == _minimax(after_close, p, 4), d.to_notation()
        others = [a for a in d.legal_actions() if a != CLOSE]
        close_differs += value_close > max(_minimax(_after(d, a), p, 4) for a in others)
    if name == "standard":
        assert close_differs, "no position where closing is best: the test would not see it skipped"


def _after(d: Deal, a: int) -> Deal:
    c = d.clone()
    c.apply(a)
    return c


def test_solver_reuses_its_table_and_agrees_with_solve() -> None:
    d = _open_stock("schnapsen", seed=5, n=1, stock=4, lead=False)[0]
    s = Solver(0)
    v0 = s.solve(d)[0]
    size = s.table_size
    assert size > 0 and v0 == solve(d, 0)[0]
    assert s.solve(d)[0] == v0 and s.table_size == size  # answered from the table
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        Solver(2)


# ------------------------------------------------------------------ the oracle
def test_oracle_plays_the_exact_minimax_and_reads_the_deal_only() -> None:
    oracle = OracleAgent()
    for d in _open_stock("schnapsen", seed=11, n=3, stock=2, lead=False):
        before = d.to_notation()
        a = oracle.choose(d)
        assert d.to_notation() == before, "choose changed the deal"
        p = d.current
        exact = {b: _minimax(_after(d, b), p) for b in d.legal_actions()}
        best = max(exact.values())
        assert exact[a] == best == oracle.value(d)
        assert oracle.value(d, 1 - p) == -oracle.value(d)


def test_oracle_never_does_worse_than_the_game_value_against_the_heuristic() -> None:
    """Whatever the opponent does, exact play keeps at least the perfect-information value."""
    oracle, heuristic, rng = OracleAgent(), HeuristicAgent(), random.Random(2)
    for i in range(3):
        deal = _open_stock("schnapsen", seed=20 + i, n=1, stock=4, lead=False)[0]
        seat = i % 2
        floor = oracle.value(deal, seat)
        while deal.outcome is None:
            p = deal.current
            deal.apply(oracle.choose(deal) if p == seat else heuristic.act(deal.information_state(p), rng))
        assert deal.returns()[seat] >= floor


def test_oracle_is_kept_apart_from_the_fair_agents() -> None:
    assert "oracle" not in AGENTS
    with pytest.raises(ValueError, match="unknown agent 'oracle'"):
        make_agent("oracle")
    with pytest.raises(ValueError, match="no act"):
        parse_agent_spec("sixtysix_env.agents.oracle:OracleAgent")
    with pytest.raises(TypeError, match="full Deal"):
        OracleAgent().choose(Deal.new("standard", random.Random(0)).information_state(0))
    finished = Deal.new("standard", random.Random(0))
    while finished.outcome is None:
        finished.apply(finished.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        OracleAgent().choose(finished)


def _bench_gap():
    return load_script("benchmarks/bench_gap.py")


def test_gap_closed_is_the_ratio_of_means_with_a_paired_interval() -> None:
    gap = _bench_gap()
    oracle = gap.Result("oracle", [(2, 2), (1, 3), (2, 0), (3, 1)], [0.25] * 4, [3, 3, 2, 2])
    agent = gap.Result("a", [(1, 1), (0, 2), (1, -1), (2, 0)], [0.0025] * 4, [3, 3, 2, 2])
    assert (oracle.wins, oracle.deals, agent.wins) == (7.5, 8, 6)  # a drawn deal counts half
    r, lo, hi = gap.gap_closed(agent, oracle)
    assert r == pytest.approx(0.75 / 1.75) and lo < r < hi  # mean of the pair means: 0.75 and 1.75
    same, slo, shi = gap.gap_closed(oracle, oracle)
    assert same == 1 and slo == shi == 1  # no spread when the agent is the oracle
    text = gap.table([oracle, agent], oracle, "heuristic")
    assert "| oracle " in text and "0.43 [" in text and "gap closed" in text.splitlines()[0]
    assert agent.ms_per_decision() == pytest.approx(1.0)


def test_gap_benchmark_command_prints_the_table(tmp_path) -> None:
    cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_gap.py"), "--agents", "random,heuristic"]
    cmd += ["--against", "heuristic", "--deals", "3", "--no-oracle", "--no-progress"]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    main_table, paired = done.stdout.split("Each agent minus the first")  # each agent's row; then the differences
    lines = main_table.splitlines()
    header = next(line for line in lines if line.startswith("| agent"))
    assert "G vs heuristic [95% CI]" in header and "CPU ms per decision" in header and "gap" not in header
    rows = {line.split("|")[1].strip(): line for line in lines if line.startswith("| ") and "---" not in line}
    assert set(rows) == {"agent", "random", "heuristic"}
    assert "+0.000" in rows["heuristic"].split("|")[2]  # the heuristic against itself, duplicate deals: even
    assert "G minus random's, paired" in paired and "| heuristic" in paired
    for bad, message in ((["--agents", "oracle"], "unknown agent 'oracle'"), (["--deals", "0"], "at least 1")):
        done = subprocess.run([*cmd[:2], *bad], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert done.returncode == 2 and message in done.stderr, done.stderr


def test_gap_benchmark_keeps_the_oracles_games(tmp_path) -> None:
    """The second run with the same setting reads the oracle's games from the cache: same row; two
    worker processes give the agents' rows of one process; a larger run plays only the deals the
    cache lacks, and a smaller one reads its first deals."""
    cache, out = tmp_path / "cache", tmp_path / "res.json"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_gap.py"), "--agents", "heuristic", "--rules", "schnapsen"]
    cmd += ["--no-progress", "--oracle-cache", str(cache), "--json", str(out)]
    runs = [
        subprocess.run(c, cwd=tmp_path, capture_output=True, text=True, timeout=900)
        for c in ([*cmd, "--deals", "2"], [*cmd, "--deals", "2", "--workers", "2"])
    ]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr + runs[1].stderr
    assert [p.name for p in cache.iterdir()] == ["schnapsen_heuristic_seed0_oracle-opponent.json"]
    assert "2 deal pairs from" in runs[1].stderr and "from" not in runs[0].stderr
    for name in ("| oracle", "| heuristic"):
        rows = [next(line for line in r.stdout.splitlines() if line.startswith(name)) for r in runs]
        assert rows[0].split("|")[1:5] == rows[1].split("|")[1:5]  # G, win rate, gap agree
    saved = json.loads(out.read_text())
    assert [r["label"] for r in saved] == ["oracle (cheats, ties: heuristic)", "heuristic"]
    assert len(saved[1]["pair_points"]) == 2
    two = saved[0]["pair_points"]

    larger = subprocess.run([*cmd, "--deals", "6"], cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert larger.returncode == 0 and "2 deal pairs from" in larger.stderr, larger.stderr
    assert "over 8 games" in larger.stderr  # the oracle played the 4 missing pairs only
    six = json.loads(out.read_text())[0]["pair_points"]
    kept = json.loads((cache / "schnapsen_heuristic_seed0_oracle-opponent.json").read_text())
    assert six[:2] == two and len(kept["pair_cpu"]) == 6
    fresh = subprocess.run(
        [*cmd, "--deals", "6", "--oracle-cache", "none"], cwd=tmp_path, capture_output=True, text=True, timeout=900
    )
    assert fresh.returncode == 0 and json.loads(out.read_text())[0]["pair_points"] == six  # as if played at once
    smaller = subprocess.run([*cmd, "--deals", "3"], cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert smaller.returncode == 0 and "3 deal pairs from" in smaller.stderr
    assert json.loads(out.read_text())[0]["pair_points"] == six[:3]
