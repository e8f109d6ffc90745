"""The numba search (``sixtysix_env.agents.fast.solver``) against the reference alpha-beta: same values."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from sixtysix_env.agents import make_agent
from sixtysix_env.agents.alphabeta import solve_actions
from sixtysix_env.agents.fast.solver import FastSolver, row_of
from sixtysix_env.agents.heuristic import heuristic_deal_action
from sixtysix_env.agents.oracle import OracleAgent
from sixtysix_env.engine import Deal
from sixtysix_env.fast import kernels as K
from sixtysix_env.fast.state import NUM_MOVES, STOCK, encode_rules
from sixtysix_env.rules import get_rules

PRESETS = ("standard", "russian", "schnapsen", "santase", "vu", "marriage")


def positions(rules: str, count: int, seed: int, max_stock: int) -> list[Deal]:
    """Positions reached by mixed heuristic and random play, with at most ``max_stock`` cards left
    in an open stock (the reference search is too slow above that)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        d = Deal.new(rules, rng, dealer=rng.randrange(2))
        stop = rng.randrange(4, 20)
        for _ in range(stop):
            if d.outcome is not None:
                break
            d.apply(heuristic_deal_action(d) if rng.random() < 0.6 else rng.choice(d.legal_actions()))
        if d.outcome is None and (not d.stock_open or len(d.stock) <= max_stock):
            out.append(d)
    return out


@pytest.mark.parametrize("rules", PRESETS)
def test_values_equal_the_reference_search(rules: str) -> None:
    solver = FastSolver(rules, table_bits=16)  # a small table also exercises replacement
    open_stock = 0
    for d in positions(rules, 25, seed=len(rules), max_stock=4):
        ref = solve_actions(d)
        got = solver.action_values(d)
        assert got == {a: int(v) for a, v in ref.items()}, d.to_notation()
        value, action = solver.solve(d)
        assert value == max(ref.values()) and ref[action] == value, d.to_notation()
        open_stock += d.stock_open
    assert open_stock > 0  # the open-stock case (closing on lead below the root) was searched


def test_row_of_is_the_batched_engines_row() -> None:
    """A position converted from the reference engine steps on in the kernels as in the engine."""
    rules = get_rules("standard")
    R = encode_rules(rules)
    for d in positions("standard", 20, seed=3, max_stock=12):
        s = row_of(d)
        assert K.legal_mask(s) == d.legal_mask()
        a = d.legal_actions()[-1]
        K.apply_action(s, R, a)
        d.apply(a)
        want = row_of(d)
        # the batch, not the kernel, counts the moves; stock slots past the stock's end are stale
        keep = (np.arange(len(s)) != NUM_MOVES) & (np.arange(len(s)) < STOCK + len(d.stock))
        assert np.array_equal(s[keep], want[keep]), d.to_notation()


def test_whole_deal_and_the_oracle_agree_with_the_reference() -> None:
    d = Deal.from_notation(positions("schnapsen", 1, seed=9, max_stock=0)[0].to_notation())
    fast, slow = OracleAgent(solver="fast"), OracleAgent(solver="python")
    assert fast.value(d) == slow.value(d)
    assert fast.value(d, 1 - d.current) == -fast.value(d)
    fresh = Deal.new("schnapsen", random.Random(4))  # a whole deal from the first trick
    assert FastSolver("schnapsen").value(fresh) == slow.value(fresh)


def test_bad_input_is_refused_with_the_reason() -> None:
    solver = FastSolver("standard", table_bits=12)
    with pytest.raises(TypeError, match="full Deal"):
        solver.solve(Deal.new("standard", random.Random(0)).information_state(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'standard' rules"):
        solver.solve(Deal.new("schnapsen", random.Random(0)))
    done = Deal.new("standard", random.Random(1))
    while done.outcome is None:
        done.apply(done.legal_actions()[0])
    with pytest.raises(ValueError, match="finished deal"):
        solver.action_values(done)
    with pytest.raises(ValueError, match="table_bits"):
        FastSolver("standard", table_bits=40)
    with pytest.raises(ValueError, match="solver"):
        OracleAgent(solver="gpu")


def test_pimc_with_the_fast_solver_plays_as_with_the_reference_search() -> None:
    slow, fast = make_agent("pimc"), make_agent("pimc", solver="fast")
    rng = random.Random(5)
    for k in range(6):
        d = Deal.new("standard", rng)
        while d.outcome is None:
            info = d.information_state(d.current)
            a = slow.act(info, random.Random(k))
            assert fast.act(info, random.Random(k)) == a
            d.apply(a)
    with pytest.raises(ValueError, match="solver"):
        make_agent("pimc", solver="gpu")


def test_pimc_prepare_compiles_ahead_and_changes_nothing() -> None:
    agent = make_agent("pimc", samples=4, solver="fast")
    agent.prepare(get_rules("vu"))
    first = Deal.new("vu", random.Random(8))
    info = first.information_state(first.current)
    assert agent.act(info, random.Random(1)) == make_agent("pimc", samples=4).act(info, random.Random(1))
    make_agent("pimc").prepare(get_rules("standard"))  # the reference search needs nothing


def test_one_table_serves_deals_with_other_trumps() -> None:
    """The table outlives a deal: the same hands, points and stock under another trump suit are
    another position. (Its key once left the trump out, so one PIMC decision could read a value
    that an earlier deal's search had stored for the same cards under a different trump.)"""
    from sixtysix_env.fast.state import TRUMP

    shared = FastSolver("standard", table_bits=14)
    differ = 0
    for d in positions("standard", 30, seed=11, max_stock=0):
        row = row_of(d)
        fresh = [FastSolver("standard", table_bits=10).row_value(_with(row, TRUMP, t), 0) for t in range(4)]
        for trump in range(4):
            assert shared.row_value(_with(row, TRUMP, trump), 0) == fresh[trump], (d.to_notation(), trump)
        differ += len(set(fresh)) > 1
    assert differ > 5  # the trump suit changes the value of these positions


def _with(row: np.ndarray, field: int, value: int) -> np.ndarray:
    out = row.copy()
    out[field] = value
    return out
