"""Baseline agents: legal play on every preset, exact alpha-beta, no hidden-information leaks,
the heuristic's rules on written positions, and the registry."""

from __future__ import annotations

import importlib.util
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix_env import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS, PRESETS, Deal, Decision, parse_card
from sixtysix_env.agents import (
    AGENTS,
    AlphaBetaAgent,
    HeuristicAgent,
    ISMCTSAgent,
    PIMCAgent,
    RandomAgent,
    make_agent,
    register_agent,
    solve,
    solve_actions,
)
from sixtysix_env.agents.heuristic import heuristic_deal_action
from sixtysix_env.agents.ppo import SHIPPED_MODELS, PPOAgent
from sixtysix_env.agents.spec import parse_agent_spec
from sixtysix_env.engine import GOAL
from sixtysix_env.infostate import InfoState

from .conftest import arrange

RULES = [*PRESETS.values(), *(r.replace(claiming="explicit") for r in PRESETS.values())]
RULE_IDS = [f"{r.name}-{r.claiming}" for r in RULES]


def _play(deal: Deal, agents: tuple, rng: random.Random, seen: set[Decision] | None = None) -> Deal:
    """Play to the end; every action must be legal. Records the decisions agent seat 0 faced."""
    while deal.outcome is None:
        p = deal.current
        info = deal.information_state(p)
        a = agents[p].act(info, rng)
        assert deal.is_legal(a), f"{agents[p]!r} chose illegal {a} in {deal.describe()}"
        if seen is not None and p == 0:
            seen.add(deal.decision)
        deal.apply(a)
    return deal


def _positions(rules, seed: int, n: int, until=None) -> list[Deal]:
    """``n`` live positions reached by random play: where ``until`` first holds, or (no ``until``)
    after a random number of actions."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        d = Deal.new(rules, rng, dealer=rng.randrange(2))
        steps = rng.randrange(30)
        while d.outcome is None and not (until(d) if until is not None else len(d.history) >= steps):
            d.apply(rng.choice(d.legal_actions()))
        if d.outcome is None:
            out.append(d)
    return out


# ------------------------------------------------------------------ legality on every preset
@settings(max_examples=120)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULES))
def test_fast_agents_play_only_legal_actions(seed: int, rules) -> None:
    rng = random.Random(seed)
    for agents in (
        (HeuristicAgent(), RandomAgent()),
        (RandomAgent(), HeuristicAgent()),
        (AlphaBetaAgent(), RandomAgent()),
    ):
        _play(Deal.new(rules, rng, dealer=seed % 2), agents, rng)


def test_heuristic_faces_every_decision_kind() -> None:
    """The legality checks above reach every decision, including the rare ones."""
    seen: set[Decision] = set()
    rng = random.Random(0)
    for rules in (PRESETS["standard"], PRESETS["standard"].replace(claiming="explicit")):
        for _ in range(300):
            _play(Deal.new(rules, rng, dealer=rng.randrange(2)), (HeuristicAgent(), RandomAgent()), rng, seen)
    assert seen == set(Decision)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_search_agents_play_only_legal_actions(rules) -> None:
    rng = random.Random(7)
    search = (
        PIMCAgent(samples=3),
        PIMCAgent(samples=2, endgame="solve"),
        ISMCTSAgent(iterations=25),
        PIMCAgent(samples=2, endgame="solve", solve_stock=2),
        PIMCAgent(samples=2, prior=SHIPPED_MODELS.get(rules.name, "ensemble_standard")),
    )
    for i, agent in enumerate(search):
        agents = (agent, RandomAgent()) if i % 2 == 0 else (HeuristicAgent(), agent)
        _play(Deal.new(rules, rng, dealer=i % 2), agents, rng)


def test_agents_refuse_a_finished_deal() -> None:
    d = _play(Deal.new("standard", random.Random(1)), (RandomAgent(), RandomAgent()), random.Random(2))
    info = d.information_state(0)
    for agent in (RandomAgent(), PIMCAgent(samples=2), ISMCTSAgent(iterations=5), AlphaBetaAgent()):
        with pytest.raises(ValueError, match="no legal action"):
            agent.act(info, random.Random(0))


# ------------------------------------------------------------------ alpha-beta is exact
def _minimax(d: Deal, player: int) -> int:
    """Plain minimax, no pruning and no table: the reference for the solver."""
    if d.outcome is not None:
        return d.outcome.returns()[player]
    values = []
    for a in d.legal_actions():
        c = d.clone()
        c.apply(a)
        values.append(_minimax(c, player))
    return max(values) if d.current == player else min(values)


def _small_endgame(d: Deal) -> bool:
    return d.hands[0].bit_count() <= 4 and d.hands[1].bit_count() <= 4 and not d.stock_open


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_alphabeta_matches_brute_force_minimax(rules) -> None:
    for d in _positions(rules, seed=11, n=6, until=_small_endgame):
        p = d.current
        value, best = solve(d)
        assert value == _minimax(d, p)
        child = d.clone()
        child.apply(best)
        assert _minimax(child, p) == value
        for a, v in solve_actions(d).items():
            child = d.clone()
            child.apply(a)
            assert v == _minimax(child, p), (a, d.describe())
        # the value for the other player is the negation (zero-sum)
        assert solve(d, 1 - p)[0] == -value


def _closed_closer_without_a_new_trick(d: Deal) -> bool:
    c = d.closed_by
    return c >= 0 and d.tricks[c] == d.closed_own_tricks and max(h.bit_count() for h in d.hands) <= 4


@pytest.mark.parametrize("six", ["closer_no_trick", "or_opponent_no_trick"])
def test_alphabeta_is_exact_under_the_six_point_rule(six) -> None:
    """The solver's shortcut for a hopeless closer must wait while a 6 still depends on his tricks."""
    rules = PRESETS["standard"].replace(name=f"six-{six}", failed_close_six=six)
    for d in _positions(rules, seed=5, n=8, until=_closed_closer_without_a_new_trick):
        assert solve(d)[0] == _minimax(d, d.current), d.to_notation()


def test_depth_limited_search_is_exact_past_the_end() -> None:
    for d in _positions("standard", seed=3, n=8, until=_small_endgame):
        assert solve(d, max_depth=40)[0] == solve(d)[0]


def test_solve_rejects_finished_deals_and_bad_players() -> None:
    d = _play(Deal.new("standard", random.Random(1)), (RandomAgent(), RandomAgent()), random.Random(2))
    with pytest.raises(ValueError, match="finished"):
        solve(d)
    live = Deal.new("standard", random.Random(1))
    with pytest.raises(ValueError, match="player"):
        solve(live, 2)


def test_search_agents_solve_exactly_once_every_card_is_known() -> None:
    for d in _positions("standard", seed=5, n=6, until=lambda d: not d.stock and d.decision == Decision.LEAD):
        info = d.information_state(d.current)
        assert info.unseen == 0
        value, _ = solve(d)
        searchers = (AlphaBetaAgent(), PIMCAgent(samples=3), PIMCAgent(tiebreak="response"), ISMCTSAgent(iterations=5))
        for agent in searchers:
            child = d.clone()
            child.apply(agent.act(info, random.Random(0)))
            assert _minimax(child, d.current) == value


# ------------------------------------------------------------------ no hidden information
def _phase1_or_closed(d: Deal) -> bool:
    return d.trick_count >= 2 and bool(d.stock) and len(d.legal_actions()) > 1


@pytest.mark.parametrize("rules", [PRESETS["standard"], PRESETS["schnapsen"]], ids=["standard", "schnapsen"])
def test_agents_ignore_hidden_cards(rules) -> None:
    """Permuting the cards a player cannot see changes nothing it does (same sampler seed)."""
    agents = [PIMCAgent(samples=6), PIMCAgent(samples=3, endgame="solve"), ISMCTSAgent(iterations=40), HeuristicAgent()]
    agents.append(PIMCAgent(samples=4, prior="ensemble_standard", prior_weight=0.3))
    if importlib.util.find_spec("numba") is not None:  # the numba search (fast extra)
        agents.append(PIMCAgent(samples=4, solver="fast"))
        agents.append(PIMCAgent(samples=4, solver="fast", endgame="solve", solve_stock=4))
        agents.append(PIMCAgent(samples=6, solver="fast", closing="playout", model="heuristic", miss=0.3))
        agents.append(PIMCAgent(samples=4, solver="fast", reply="heuristic", endgame="solve", solve_stock=2))
        agents.append(PIMCAgent(samples=4, solver="fast", endgame="solve", solve_stock=2, tiebreak="response"))
    rng = random.Random(99)
    for d in _positions(rules, seed=21, n=5, until=_phase1_or_closed):
        p = d.current
        info = InfoState.of(d, p)
        assert info.unseen, "the position must hide cards"
        for _ in range(2):
            other = d.resample_hidden(p, rng)
            other_info = InfoState.of(other, p)
            for agent in agents:
                assert agent.act(info, random.Random(5)) == agent.act(other_info, random.Random(5)), repr(agent)


def _closed_with_few_unknowns(d: Deal) -> bool:
    if d.closed_by < 0 or d.decision not in (Decision.LEAD, Decision.FOLLOW) or len(d.legal_actions()) < 2:
        return False
    info = d.information_state(d.current)
    return 0 < info.unseen.bit_count() <= 6


def test_pimc_averages_every_opponent_hand_once_the_stock_is_closed() -> None:
    """With few possible opponent hands PIMC solves them all: no sampling noise, so the seed does
    not matter, and permuting the hidden cards changes nothing."""
    rng = random.Random(1)
    found = 0
    for seed in range(60):
        for d in _positions("standard", seed=seed, n=1, until=_closed_with_few_unknowns):
            if not _closed_with_few_unknowns(d):
                continue
            found += 1
            p = d.current
            agent = PIMCAgent(samples=200)
            choice = agent.act(d.information_state(p), random.Random(0))
            assert agent.act(d.information_state(p), random.Random(1)) == choice
            assert agent.act(InfoState.of(d.resample_hidden(p, rng), p), random.Random(2)) == choice
        if found >= 4:
            break
    assert found >= 4


@pytest.mark.parametrize("seed", range(4))
def test_pimc_action_values_are_what_it_maximises(seed: int) -> None:
    """``action_values`` values every legal action with the samples ``act`` draws from the same
    seed; ``act`` plays one of the best; once every card is placed the values are exact."""
    for d in _positions("standard", seed=seed, n=6):
        if len(d.legal_actions()) < 2:
            continue
        info = d.information_state(d.current)
        agent = PIMCAgent(samples=8)
        values = agent.action_values(info, random.Random(seed))
        assert sorted(values) == sorted(info.legal_actions())
        assert all(-6 <= v <= 6 for v in values.values())
        choice = agent.act(info, random.Random(seed))
        assert values[choice] >= max(values.values()) - 1e-9
    for d in _positions("standard", seed=seed, n=2, until=_every_card_placed):
        assert PIMCAgent(samples=8).action_values(d.information_state(d.current), random.Random(0)) == solve_actions(d)


@pytest.mark.parametrize("seed", range(3))
def test_pimc_prior_adds_the_weighted_log_probability_while_the_stock_is_open(seed: int) -> None:
    """``prior=``: the action of best mean value plus ``prior_weight`` times the log of the network's
    probability (floored at 1e-9) while the stock is open; plain PIMC once it is settled."""
    network = PPOAgent(model="ensemble_standard")
    open_stock = settled = 0
    for d in _positions("standard", seed=seed, n=12):
        if len(d.legal_actions()) < 2:
            continue
        info = d.information_state(d.current)
        values = PIMCAgent(samples=8).action_values(info, random.Random(seed))
        for weight in (0.0, 0.2, 1e6):
            agent = PIMCAgent(samples=8, prior="ensemble_standard", prior_weight=weight)
            choice = agent.act(info, random.Random(seed))
            if d.stock and d.closed_by < 0:
                probs = network.action_probabilities(info)
                score = {a: v + weight * math.log(max(probs[a], 1e-9)) for a, v in values.items()}
                assert score[choice] >= max(score.values()) - 1e-9, (weight, score, choice)
                if weight == 1e6:
                    assert choice == network.act(info, random.Random(0))
                open_stock += 1
            else:
                assert choice == PIMCAgent(samples=8).act(info, random.Random(seed))
                settled += 1
    assert open_stock and settled


def test_pimc_prior_names_a_network() -> None:
    spec = parse_agent_spec("pimc:samples=4:prior=league_standard_solve:prior_weight=0.1")
    agent = spec.make()
    assert (agent.prior, agent.prior_weight) == ("league_standard_solve", 0.1)
    with pytest.raises(ValueError, match=r"prior='nope': no shipped ppo model 'nope': choose one of .*ensemble"):
        PIMCAgent(prior="nope")
    with pytest.raises(ValueError, match="no PPO model at"):
        PIMCAgent(prior="missing/net.npz")
    with pytest.raises(ValueError, match="prior_weight"):
        PIMCAgent(prior="ensemble_standard", prior_weight=-1)
    with pytest.raises(ValueError, match=r"prior_weight=0.1 weighs a network's prior: give prior=NETWORK too"):
        parse_agent_spec("pimc:prior_weight=0.1").make()
    assert PIMCAgent(prior="ensemble_standard").prior_weight == 0.05


def _every_card_placed(d: Deal) -> bool:
    return len(d.legal_actions()) >= 2 and d.information_state(d.current).unseen == 0


# ------------------------------------------------------------------ the heuristic's rules
def _heuristic(d: Deal) -> int:
    a = HeuristicAgent().act(d.information_state(d.current), random.Random(0))
    assert a == heuristic_deal_action(d)  # the playout version reads the same fields
    return a


def test_heuristic_declares_the_trump_marriage_first_then_leads_the_queen() -> None:
    d = arrange("KH QH KC QC 9S JS", "9C JC TC AC QS KS", "AH", dealer=1)
    assert _heuristic(d) == MARRIAGE + 2
    d.apply(MARRIAGE + 2)
    assert _heuristic(d) == parse_card("QH")


def test_heuristic_closes_with_sure_points_and_declares() -> None:
    d = arrange("AH TH KH QH 9S JS", "9C JC QC KC TC AC", "JH", dealer=1)
    assert _heuristic(d) == CLOSE  # 11 + 10 + 4 + 3 in master trumps and 40 for the marriage
    d.apply(CLOSE)
    assert _heuristic(d) == MARRIAGE + 2


def test_heuristic_does_not_close_without_sure_points() -> None:
    d = arrange("AH 9D KH QH 9S JS", "9C JC QC KC TC AC", "JH", dealer=1)
    assert _heuristic(d) != CLOSE


def test_heuristic_exchanges_when_allowed() -> None:
    d = arrange("9H 9S JS QS 9C JC", "QC KC TC AC KS TS", "AH", dealer=1, rules="santase")
    assert d.is_legal(EXCHANGE)
    assert _heuristic(d) == EXCHANGE


def test_heuristic_leads_low_and_takes_high_cards_cheaply() -> None:
    d = arrange("AC 9S JS QS 9D JD", "9H JH 9C QD KS TS", "AH", dealer=1)
    assert _heuristic(d) == parse_card("9S")  # lowest non-trump, lowest suit on a tie
    ace = d.clone().apply_all("AC")
    assert _heuristic(ace) == parse_card("9H")  # the ace is won with the cheapest trump
    low = d.clone().apply_all("9S")
    assert _heuristic(low) == parse_card("KS")  # the cheapest higher card of the suit, no trump
    jack = d.clone().apply_all("JD")
    assert _heuristic(jack) == parse_card("QD")


def test_heuristic_ignores_the_rng() -> None:
    for d in _positions("standard", seed=8, n=30):
        info = d.information_state(d.current)
        assert HeuristicAgent().act(info, random.Random(1)) == HeuristicAgent().act(info, random.Random(2))


@pytest.mark.parametrize("rules", [r for r in RULES if r.claiming == "explicit"], ids=lambda r: r.name)
def test_heuristic_claims_exactly_with_66(rules) -> None:
    rng = random.Random(4)
    claims = 0
    for _ in range(40):
        d = Deal.new(rules, rng, dealer=rng.randrange(2))
        while d.outcome is None:
            a = heuristic_deal_action(d)
            if d.is_legal(GO_OUT):
                assert (a == GO_OUT) == (d.points[d.current] >= GOAL)
                claims += a == GO_OUT
            if d.decision == Decision.CLAIM:
                assert a in (GO_OUT, PASS)
            d.apply(a)
    assert claims > 0


# ------------------------------------------------------------------ registry and options
def test_registry_builds_every_baseline() -> None:
    for name in ("random", "heuristic", "alphabeta", "pimc", "ismcts"):
        agent = make_agent(name)
        assert agent.name == name
        assert callable(agent.act)
    assert make_agent("pimc", samples=7).samples == 7


def test_registry_errors_and_lazy_factories() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("nope")
    with pytest.raises(ValueError, match="bad options"):
        make_agent("pimc", sample=3)
    with pytest.raises(ValueError, match="already registered"):
        register_agent("random", RandomAgent)
    with pytest.raises(ValueError, match="module:attribute"):
        register_agent("lazy-bad", "sixtysix_env.agents.heuristic")
    register_agent("lazy-heuristic", "sixtysix_env.agents.heuristic:HeuristicAgent")
    try:
        assert isinstance(make_agent("lazy-heuristic"), HeuristicAgent)
    finally:
        del AGENTS["lazy-heuristic"]


@pytest.mark.parametrize(
    "factory",
    [
        lambda: PIMCAgent(samples=0),
        lambda: PIMCAgent(time_ms=0),
        lambda: PIMCAgent(endgame="exact"),
        lambda: PIMCAgent(closing="exact"),
        lambda: PIMCAgent(solve_stock=-1),
        lambda: PIMCAgent(solve_stock=2),  # needs endgame="solve"
        lambda: ISMCTSAgent(iterations=0),
        lambda: ISMCTSAgent(time_ms=-1),
        lambda: ISMCTSAgent(c=-0.1),
    ],
)
def test_bad_budgets_are_value_errors(factory) -> None:
    with pytest.raises(ValueError):
        factory()


def test_time_budgets_stop_in_time() -> None:
    import time

    d = _positions("standard", seed=2, n=1, until=lambda d: d.trick_count == 1 and d.decision == Decision.LEAD)[0]
    info = d.information_state(d.current)
    for agent in (PIMCAgent(time_ms=20), ISMCTSAgent(time_ms=20)):
        start = time.perf_counter()
        assert d.is_legal(agent.act(info, random.Random(0)))
        assert time.perf_counter() - start < 0.5
