"""The best response to the heuristic (``agents.response``, ``agents.fast.response``) and PIMC's ``reply``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix_env.agents.alphabeta import solve, solve_actions
from sixtysix_env.agents.heuristic import heuristic_deal_action, heuristic_playout
from sixtysix_env.agents.pimc import PIMCAgent
from sixtysix_env.agents.response import response_value, response_values
from sixtysix_env.cards import CARD_POINTS
from sixtysix_env.engine import Deal
from sixtysix_env.infostate import InfoState

PRESETS = ("standard", "russian", "schnapsen", "santase", "vu", "marriage")


def _position(rules: str, seed: int, max_stock: int) -> Deal | None:
    """A running position reached by mixed heuristic and random play, with an open stock of at
    most ``max_stock`` cards (or a closed or exhausted one)."""
    rng = random.Random(seed)
    d = Deal.new(rules, rng, dealer=rng.randrange(2))
    while d.outcome is None and d.stock_open and len(d.stock) > max_stock:
        d.apply(heuristic_deal_action(d) if rng.random() < 0.6 else rng.choice(d.legal_actions()))
    for _ in range(rng.randrange(3)):
        if d.outcome is None:
            d.apply(rng.choice(d.legal_actions()))
    return d if d.outcome is None else None


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(PRESETS), seed=st.integers(0, 10**6))
def test_the_response_beats_both_the_heuristic_and_minimax(rules: str, seed: int) -> None:
    """Against the heuristic, searching does at least as well as playing the heuristic oneself,
    and at least as well as minimax promises (the heuristic is one of the strategies minimax
    guards against); the action values agree with the position's value."""
    d = _position(rules, seed, max_stock=2)
    if d is None:
        return
    me = d.current
    values = response_values(d)
    assert set(values) == set(d.legal_actions())
    assert max(values.values()) == response_value(d, me)
    assert response_value(d, me) >= heuristic_playout(d.clone()).returns()[me]
    minimax = solve_actions(d)
    for a, v in values.items():
        assert v >= minimax[a], (a, d.to_notation())


def test_the_response_exploits_a_lead_the_heuristic_misplays() -> None:
    """Not just minimax: in some positions the best reply to the heuristic is worth more than the
    minimax value (the heuristic errs), and in none less."""
    better = 0
    for seed in range(150):
        d = _position("standard", seed, max_stock=0)
        if d is None:
            continue
        if max(response_values(d).values()) > max(solve_actions(d).values()):
            better += 1
    assert better >= 5


def test_response_value_refuses_a_bad_player() -> None:
    d = Deal.new("standard", random.Random(0), dealer=0)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        response_value(d, 2)


def _settled(rules: str, seeds: range) -> list[tuple[Deal, InfoState]]:
    """Positions with every card placed for the player to act (the stock exhausted, or closed with
    the rest known) and a choice to make."""
    out = []
    for seed in seeds:
        d = _position(rules, seed, max_stock=0)
        if d is None or len(d.legal_actions()) < 2:
            continue
        info = InfoState.of(d, d.current)
        if info.unseen == 0:
            out.append((d, info))
    return out


@pytest.mark.parametrize("rules", ["standard", "vu"])
def test_pimc_tiebreak_response_plays_minimax_and_exploits_where_it_is_indifferent(rules: str) -> None:
    """With every card placed, ``tiebreak="response"`` never gives up minimax value; among the
    actions minimax values equally it plays one worth most against the heuristic's replies (and
    some positions have such a choice); ``tiebreak="search"`` plays the search's own action."""
    exploited = 0
    for d, info in _settled(rules, range(300)):
        minimax = solve_actions(d)
        best = max(minimax.values())
        tied = [a for a in info.legal_actions() if minimax[a] == best]
        chosen = PIMCAgent(tiebreak="response").act(info, random.Random(0))
        assert minimax[chosen] == best, d.to_notation()
        replies = response_values(d)
        assert replies[chosen] == max(replies[a] for a in tied), d.to_notation()
        exploited += len({replies[a] for a in tied}) > 1
        assert PIMCAgent().act(info, random.Random(0)) == solve(d)[1]
    assert exploited >= 3


def test_pimc_tiebreak_is_checked() -> None:
    with pytest.raises(ValueError, match="tiebreak"):
        PIMCAgent(tiebreak="heuristic")
    with pytest.raises(ValueError, match="already valued as that response"):
        PIMCAgent(tiebreak="response", reply="heuristic")


numba = pytest.importorskip("numba")


@pytest.mark.parametrize("rules", PRESETS)
def test_fast_response_equals_the_reference(rules: str) -> None:
    from sixtysix_env.agents.fast.response import FastResponse

    search = FastResponse(rules, table_bits=10)  # a small table also exercises replacement
    checked = open_stock = 0
    for seed in range(400):
        d = _position(rules, seed, max_stock=2)
        if d is None or len(d.legal_actions()) < 2:
            continue
        assert search.action_values(d) == response_values(d), d.to_notation()
        for p in (0, 1):
            assert search.value(d, p) == response_value(d, p), (p, d.to_notation())
        checked += 1
        open_stock += d.stock_open
        if checked == 40:
            break
    assert checked == 40 and open_stock > 0


def test_fast_response_refuses_another_ruleset_and_a_finished_deal() -> None:
    from sixtysix_env.agents.fast.response import FastResponse

    search = FastResponse("standard", table_bits=10)
    with pytest.raises(ValueError, match="'standard' rules, the deal plays 'schnapsen'"):
        search.action_values(Deal.new("schnapsen", random.Random(0), dealer=0))
    with pytest.raises(ValueError, match="table_bits"):
        FastResponse("standard", table_bits=40)


def test_pimc_reply_values_closed_deals_by_the_response() -> None:
    """With every card placed, ``reply="heuristic"`` values each action by the response exactly,
    with both solvers."""
    for seed in range(60):
        d = _position("standard", seed, max_stock=0)
        if d is None or len(d.legal_actions()) < 2:
            continue
        info = InfoState.of(d, d.current)
        if info.unseen:
            continue
        want = {a: float(v) for a, v in response_values(d).items()}
        for solver in ("python", "fast"):
            agent = PIMCAgent(samples=5, solver=solver, reply="heuristic")
            assert agent.action_values(info, random.Random(0)) == want


def test_pimc_reply_is_checked() -> None:
    with pytest.raises(ValueError, match="reply"):
        PIMCAgent(reply="perfect")


def _closed_twins(count: int) -> list[tuple[Deal, Deal]]:
    """Pairs of closed-stock positions that differ only in which of two equally counted cards lies
    in the closed stock and which in a won pile, and whose responses differ (the heuristic reads
    the cards out): a table keyed on hands and points alone would mix them up."""
    out = []
    for seed in range(200):
        rng = random.Random(seed)
        d = Deal.new("standard", rng, dealer=rng.randrange(2))
        while d.outcome is None and d.stock_open:
            d.apply(heuristic_deal_action(d) if rng.random() < 0.5 else rng.choice(d.legal_actions()))
        if d.outcome is not None or d.closed_by < 0 or len(d.stock) < 2 or len(d.legal_actions()) < 2:
            continue
        ref = response_values(d)
        for p, c, i in ((p, c, i) for p in (0, 1) for c in range(24) for i in range(1, len(d.stock))):
            s = d.stock[i]
            if d.won_cards[p] >> c & 1 and CARD_POINTS[s] == CARD_POINTS[c]:
                twin = d.clone()
                twin.stock = [*twin.stock[:i], c, *twin.stock[i + 1 :]]
                twin.won_cards[p] = twin.won_cards[p] & ~(1 << c) | (1 << s)
                if response_values(twin) != ref:
                    out.append((d, twin))
                    break
        if len(out) == count:
            return out
    raise AssertionError("no twins found")


def _descendants(d: Deal, plies: int) -> list[Deal]:
    """``d`` and every running position up to ``plies`` moves (any legal ones) below it."""
    out = [d]
    if plies and d.outcome is None:
        for a in d.legal_actions():
            child = d.clone()
            child.apply(a)
            if child.outcome is None:
                out += _descendants(child, plies - 1)
    return out


def test_fast_response_tells_twins_apart() -> None:
    """The table outlives a deal: positions of the twins must not share entries (the key holds the
    cards out). Every position near each twin is searched, one twin after the other."""
    from sixtysix_env.agents.fast.response import FastResponse

    search = FastResponse("standard", table_bits=16)
    for d, twin in _closed_twins(3):
        for position in _descendants(d, 3) + _descendants(twin, 3):
            for p in (0, 1):
                assert search.value(position, p) == response_value(position, p), position.to_notation()


@pytest.mark.parametrize("rules", ["standard", "vu"])
def test_pimc_reply_numba_equals_python(rules: str) -> None:
    """``reply="heuristic"`` with the numba playouts and search gives the Python code's values,
    with the stock open (playouts, then the response from two stock cards on) and settled."""
    checked = 0
    for seed in range(40):
        d = _position(rules, seed, max_stock=4)
        if d is None or len(d.legal_actions()) < 2:
            continue
        info = InfoState.of(d, d.current)
        values = [
            PIMCAgent(samples=3, solver=solver, reply="heuristic", endgame="solve", solve_stock=2).action_values(
                info, random.Random(seed)
            )
            for solver in ("python", "fast")
        ]
        assert values[0] == values[1], d.to_notation()
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("rules", ["standard", "vu"])
def test_pimc_tiebreak_numba_equals_python(rules: str) -> None:
    """``tiebreak="response"`` picks the same actions with the numba solver and response."""
    settled = _settled(rules, range(200))
    assert len(settled) >= 20
    for d, info in settled:
        moves = {PIMCAgent(solver=s, tiebreak="response").act(info, random.Random(0)) for s in ("python", "fast")}
        assert len(moves) == 1, d.to_notation()
