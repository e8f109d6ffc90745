"""The oracle's tie-break (issue 23): among optimal actions, the ``ties`` agent's choice when it
is optimal, else the first in search order; and ``bench_gap``'s ``--oracle`` option.

Positions are schnapsen decisions with a few cards left in the stock, where the reference search
(``solve_actions``, exact) gives every action's value cheaply; the oracle is checked against it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sixtysix_env import Deal
from sixtysix_env.agents import HeuristicAgent, solve, solve_actions
from sixtysix_env.agents.heuristic import heuristic_info_action
from sixtysix_env.agents.oracle import OracleAgent
from sixtysix_env.agents.spec import parse_agent_spec
from sixtysix_env.infostate import InfoState

from .scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
HAS_NUMBA = OracleAgent().solver == "fast"
SOLVERS = ["python", pytest.param("fast", marks=pytest.mark.skipif(not HAS_NUMBA, reason="needs numba"))]


def _positions(n: int, seed: int = 1, stock: int = 2) -> list[tuple[Deal, dict[int, float]]]:
    """``n`` schnapsen decisions (heuristic play until ``stock`` cards are left) with two or more
    optimal actions and at least one that is not optimal, with every action's exact value."""
    rng = random.Random(seed)
    out: list[tuple[Deal, dict[int, float]]] = []
    while len(out) < n:
        d = Deal.new("schnapsen", rng, dealer=rng.randrange(2))
        while d.outcome is None:
            if len(d.stock) <= stock and len(d.legal_actions()) > 1:
                values = solve_actions(d)
                best = max(values.values())
                if sum(v == best for v in values.values()) >= 2 and min(values.values()) < best:
                    out.append((d.clone(), values))
                    break
            d.apply(heuristic_info_action(d.information_state(d.current)))
    return out


class Picks:
    """A ties agent that plays a fixed action (and records what it was shown)."""

    name = "picks"

    def __init__(self, action: object) -> None:
        self.action = action
        self.seen: list[InfoState] = []

    def act(self, info: InfoState, rng: random.Random) -> object:
        self.seen.append(info)
        return self.action


@pytest.mark.parametrize("solver", SOLVERS)
def test_ties_go_to_the_agents_choice_when_optimal_else_to_the_first(solver: str) -> None:
    first_oracle = OracleAgent(solver)
    for d, values in _positions(4):
        best = max(values.values())
        optimal = [a for a, v in values.items() if v == best]
        first = first_oracle.choose(d)
        assert values[first] == best and first == solve(d)[1]  # the old oracle: first in search order
        other = next(a for a in optimal if a != first)
        worse = next(a for a, v in values.items() if v < best)
        before = d.to_notation()
        for pick, expected in ((other, other), (first, first), (worse, first)):
            agent = Picks(pick)
            chosen = OracleAgent(solver, ties=agent).choose(d, random.Random(3))
            assert chosen == expected, (d.to_notation(), pick)
            assert values[chosen] == best  # never gives up value for a tie-break
            assert len(agent.seen) == 1 and isinstance(agent.seen[0], InfoState)  # a view, not the deal
            assert agent.seen[0].player == d.current  # asked in the oracle's own seat
        assert d.to_notation() == before, "choose changed the deal"


@pytest.mark.parametrize("solver", SOLVERS)
def test_heuristic_ties_play_the_heuristics_move_exactly_when_it_is_optimal(solver: str) -> None:
    oracle, heuristic = OracleAgent(solver, ties=HeuristicAgent()), HeuristicAgent()
    seen = {True: 0, False: 0}
    for d, values in _positions(10, seed=7, stock=4):
        best = max(values.values())
        h = heuristic.act(d.information_state(d.current), random.Random(0))
        chosen = oracle.choose(d)
        assert values[chosen] == best == oracle.value(d)
        assert chosen == (h if values[h] == best else solve(d)[1]), d.to_notation()
        seen[values[h] == best] += 1
    assert seen[True] and seen[False], seen  # both branches were taken


def test_ties_agent_is_checked() -> None:
    with pytest.raises(TypeError, match="act"):
        OracleAgent(ties="heuristic")  # type: ignore[arg-type]
    d, values = _positions(1)[0]
    before = d.to_notation()
    illegal = next(a for a in range(32) if a not in values)
    for bad in (illegal, "3", -1, 1.0):
        with pytest.raises(ValueError, match="not a legal action"):
            OracleAgent("python", ties=Picks(bad)).choose(d)
    assert d.to_notation() == before
    assert repr(OracleAgent("python", ties=HeuristicAgent())) == "OracleAgent(solver='python', ties=HeuristicAgent())"


def test_ties_agent_gets_the_given_random_source() -> None:
    class Draws(Picks):
        def act(self, info: InfoState, rng: random.Random) -> object:
            self.action = rng.random()
            return info.legal_actions()[0]

    d = _positions(1)[0][0]
    a, b = Draws(0), Draws(0)
    OracleAgent("python", ties=a).choose(d, random.Random(5))
    OracleAgent("python", ties=b).choose(d)  # default: a fresh Random(0), reproducible
    assert a.action == random.Random(5).random() and b.action == random.Random(0).random()


# ------------------------------------------------------------------ bench_gap --oracle
def _gap():
    return load_script("benchmarks/bench_gap.py")


def test_gap_oracle_option_names_its_cache_and_row() -> None:
    gap = _gap()
    heuristic = parse_agent_spec("heuristic")
    rules = gap.get_rules("schnapsen")
    names = {m: gap.oracle_cache_name(m, heuristic, rules, 0) for m in gap.ORACLES}
    assert names == {
        "opponent": "schnapsen_heuristic_seed0_oracle-opponent.json",
        "first": "schnapsen_heuristic_seed0_oracle-first.json",
    }
    assert "schnapsen_heuristic_seed0.json" not in names.values()  # caches of the old oracle are not read
    pimc = parse_agent_spec("pimc:samples=5")
    assert gap.oracle_cache_name("opponent", pimc, rules, 2) == "schnapsen_pimc-samples=5_seed2_oracle-opponent.json"
    assert gap.oracle_label("opponent", heuristic) == "oracle (cheats, ties: heuristic)"
    assert gap.oracle_label("first", heuristic) == "oracle (cheats, ties: first)"


def test_gap_oracle_option_defaults_to_the_opponents_ties() -> None:
    ap = _gap().parser()
    assert ap.parse_args([]).oracle == "opponent"
    assert [ap.parse_args(a).oracle for a in (["--oracle", "first"], ["--no-oracle"], ["--oracle", "none"])] == [
        "first",
        "none",
        "none",
    ]


def test_gap_oracle_ties_to_the_opponent_by_default(tmp_path) -> None:
    """Default, ``--oracle first`` and ``--no-oracle`` on two schnapsen deal pairs: each oracle its
    own cache file and row."""
    cache = tmp_path / "cache"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_gap.py"), "--agents", "heuristic", "--rules", "schnapsen"]
    cmd += ["--deals", "2", "--no-progress", "--oracle-cache", str(cache)]
    saved = {}
    for mode, extra in (("opponent", []), ("first", ["--oracle", "first"])):
        out = tmp_path / f"{mode}.json"
        done = subprocess.run([*cmd, *extra, "--json", str(out)], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert f"oracle: {mode}" in done.stdout
        saved[mode] = json.loads(out.read_text())[0]
    assert saved["opponent"]["label"] == "oracle (cheats, ties: heuristic)"
    assert saved["first"]["label"] == "oracle (cheats, ties: first)"
    assert sorted(p.name for p in cache.iterdir()) == [
        "schnapsen_heuristic_seed0_oracle-first.json",
        "schnapsen_heuristic_seed0_oracle-opponent.json",
    ]
    none = subprocess.run([*cmd, "--no-oracle"], cwd=tmp_path, capture_output=True, text=True)
    assert none.returncode == 0 and "gap" not in none.stdout and "oracle: none" in none.stdout
    for bad, message in ((["--oracle", "best"], "invalid choice: 'best'"), (["--deals", "١٢"], "digits 0-9")):
        done = subprocess.run([*cmd, *bad], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 2 and message in done.stderr, done.stderr
