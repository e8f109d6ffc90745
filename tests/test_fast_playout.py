"""PIMC's numba playouts (``sixtysix_env.agents.fast.playout``) against ``pimc._finish``: same values."""

from __future__ import annotations

import random
from itertools import product

import pytest

pytest.importorskip("numba")

from sixtysix_env.actions import CLOSE
from sixtysix_env.agents.fast.playout import FastPlayouts
from sixtysix_env.agents.fast.solver import row_of
from sixtysix_env.agents.heuristic import heuristic_deal_action
from sixtysix_env.agents.pimc import evaluate_actions, fast_playouts_for, fast_solver_for
from sixtysix_env.engine import Deal
from sixtysix_env.rules import get_rules

PRESETS = ("standard", "russian", "schnapsen", "santase", "vu", "marriage")


def sampled_open_positions(rules: str, count: int, seed: int) -> list[Deal]:
    """Sampled full deals (as PIMC sees them) at decisions with the stock open and a choice,
    reached by mixed heuristic and random play."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        d = Deal.new(rules, rng, dealer=rng.randrange(2))
        while d.outcome is None and d.stock_open:
            if len(d.legal_actions()) > 1 and rng.random() < 0.3:
                out.append(d.information_state(d.current).sample(rng))
            d.apply(heuristic_deal_action(d) if rng.random() < 0.6 else rng.choice(d.legal_actions()))
    return out[:count]


@pytest.mark.parametrize("rules", PRESETS)
def test_values_equal_the_python_playouts(rules: str) -> None:
    solver = fast_solver_for(get_rules(rules))
    playouts = FastPlayouts(solver)  # type: ignore[arg-type]
    solved = open_solved = 0
    modes = [("playout", 0), ("solve", 0), ("solve", 2), ("solve", 4)]
    for d in sampled_open_positions(rules, 60, seed=len(rules)):
        legal = d.legal_actions()
        before = row_of(d)
        for (endgame, solve_stock), closing in product(modes, ("solve", "playout")):
            expected = evaluate_actions(d, legal, endgame, solver, closing=closing, solve_stock=solve_stock)
            got = playouts.action_values(d, legal, endgame, closing, solve_stock)
            assert got == expected, (endgame, solve_stock, closing, d.hands, d.stock, d.history)
        assert (row_of(d) == before).all()  # the deal itself is left as it was
        solved += CLOSE in legal or len(d.stock) == 2
        open_solved += 2 < len(d.stock) <= 4  # solve_stock=2: the playout stops with 2 left, open
    assert solved > 0  # actions that close or empty the stock were solved, not played out
    assert open_solved > 0


def test_pimc_gets_them_through_evaluate_actions() -> None:
    """``evaluate_actions`` with the playouts gives what it gives without them, in every mode."""
    rules = get_rules("standard")
    playouts = fast_playouts_for(rules)
    assert fast_playouts_for(rules) is playouts  # one per ruleset and process
    for d in sampled_open_positions("standard", 10, seed=4):
        legal = d.legal_actions()
        solver = fast_solver_for(rules)
        for endgame, closing in product(("playout", "solve"), ("solve", "playout")):
            with_playouts = evaluate_actions(d, legal, endgame, solver, playouts, closing)
            assert with_playouts == evaluate_actions(d, legal, endgame, solver, closing=closing)


def test_bad_input_is_refused_with_the_reason() -> None:
    playouts = fast_playouts_for(get_rules("standard"))
    other = Deal.new("vu", random.Random(0))
    with pytest.raises(ValueError, match="for the 'standard' rules, the deal plays 'vu'"):
        playouts.action_values(other, other.legal_actions())
    d = Deal.new("standard", random.Random(0))
    while CLOSE not in d.legal_actions():
        d.apply(heuristic_deal_action(d))
    d.apply(CLOSE)
    with pytest.raises(ValueError, match="open-stock"):
        playouts.action_values(d, d.legal_actions())


def test_closing_by_playout_changes_only_the_value_of_closing() -> None:
    """``closing="playout"`` plays the closed deal out with the heuristic instead of solving it
    (an exact solve of a sampled deal knows the opponent's cards, so it flatters closing)."""
    solver = fast_solver_for(get_rules("standard"))
    playouts = fast_playouts_for(get_rules("standard"))
    differ = 0
    for d in sampled_open_positions("standard", 40, seed=7):
        legal = d.legal_actions()
        exact, played = playouts.action_values(d, legal), playouts.action_values(d, legal, closing="playout")
        for a, x, y in zip(legal, exact, played, strict=True):
            if a == CLOSE:
                child = d.clone()
                child.apply(CLOSE)
                assert x == solver.value(child, d.current)
                differ += x != y
            else:
                assert x == y
    assert differ > 0


def test_solve_stock_solves_the_open_stock_exactly() -> None:
    """``solve_stock=k``: once a sampled deal's stock holds k cards or fewer, its value is the
    exact solve's, stock still open (and with k = 0 it is ``endgame="solve"`` as before)."""
    rules = get_rules("vu")
    solver = fast_solver_for(rules)
    playouts = fast_playouts_for(rules)
    checked = 0
    for d in sampled_open_positions("vu", 40, seed=5):
        legal = d.legal_actions()
        assert playouts.action_values(d, legal, "solve", "solve", 0) == playouts.action_values(d, legal, "solve")
        if len(d.stock) != 4:
            continue
        for a, v in zip(legal, playouts.action_values(d, legal, "solve", "solve", 4), strict=True):
            child = d.clone()
            child.apply(a)
            assert v == (solver.value(child, d.current) if child.outcome is None else child.returns()[d.current])
            checked += child.outcome is None and child.stock_open
    assert checked > 0
