"""Agents of the three- and four-player games and the table arena."""

from __future__ import annotations

import random

import pytest

from sixtysix_env.agents.table.base import TableAgent
from sixtysix_env.agents.table.heuristic import TableHeuristicAgent, beatable_cards
from sixtysix_env.agents.table.pimc import TablePIMCAgent
from sixtysix_env.agents.table.registry import make_table_agent
from sixtysix_env.arena.table import main, play_table_deal, run_pair
from sixtysix_env.table import FOUR_PRESETS, THREE_PRESETS, FourDeal, TableDecision, ThreeDeal
from sixtysix_env.table.actions import BID, PASS

GAMES = [(ThreeDeal, r) for r in THREE_PRESETS.values()] + [(FourDeal, r) for r in FOUR_PRESETS.values()]
ALL_CLUBS = ("AD TD KD QD JD 9D", "AC TC KC QC JC 9C", "AS TS KS QS JS 9S", "AH TH KH QH JH 9H")
SPADE_NINE = ("AD TD KD QD JD 9D", "AC TC KC QC JC 9S", "AS TS KS QS JS 9C", "AH TH KH QH JH 9H")
HOPELESS = ("AD TD KD QD JD 9D", "9C JC 9S JS QH JH", "AS TS KS QS AC TC", "AH TH KH 9H KC QC")


class Checked:
    """Wraps an agent and asserts every action it returns is legal for the view it got."""

    def __init__(self, agent: TableAgent) -> None:
        self.agent, self.name = agent, agent.name

    def act(self, view, rng):
        a = self.agent.act(view, rng)
        assert view.legal_mask >> a & 1, f"{self.name} chose illegal {a} in {view.decision}"
        return a


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=lambda x: getattr(x, "__name__", getattr(x, "name", x)))
def test_agents_play_legal_actions_in_every_game(game, rules):
    agents = [
        make_table_agent("heuristic:bid_samples=4"),
        make_table_agent("pimc:samples=2"),
        make_table_agent("random"),
    ]
    for seed in range(3):
        deal = game.new(rules, random.Random(seed), dealer=seed % game.n_players)
        if deal.outcome is not None:
            continue
        seats = [Checked(agents[(p + seed) % 3]) for p in range(game.n_players)]
        done = play_table_deal(deal, seats, random.Random(seed))
        assert done.outcome is not None and deal.outcome is None, "the arena plays a copy"


def test_the_heuristic_is_deterministic_given_the_view():
    deal = FourDeal.new("russian", random.Random(3))
    agent = TableHeuristicAgent()
    for _ in range(12):
        if deal.outcome is not None:
            break
        view = deal.information_state(deal.current_player)
        a = agent.act(view, random.Random(1))
        assert agent.act(view, random.Random(2)) == a
        deal.apply(a)


def _bid_view(hands):
    d = FourDeal.from_arrangement(hands, 0, "russian").apply_all("=H P P P P")
    assert d.decision == TableDecision.BID and d.current == 1
    return d.information_state(1)


@pytest.mark.parametrize("samples", [0, 24])
def test_the_heuristic_names_sure_contracts_and_not_hopeless_ones(samples):
    agent = TableHeuristicAgent(bid_samples=samples)
    assert agent.act(_bid_view(ALL_CLUBS), random.Random(0)) == BID + 1  # six: no card can be beaten
    assert agent.act(_bid_view(SPADE_NINE), random.Random(0)) == BID  # five: the spade nine is discarded
    assert agent.act(_bid_view(HOPELESS), random.Random(0)) == PASS
    assert beatable_cards(1 << 17) == 0 and beatable_cards(1 << 12) == 1 << 12  # AH is top, 9H is not


def test_pimc_names_a_sure_contract():
    assert TablePIMCAgent(samples=4).act(_bid_view(ALL_CLUBS), random.Random(0)) in (BID + 1, BID + 3)


def test_the_heuristic_beats_random_in_duplicate():
    for game, rules in [(ThreeDeal, THREE_PRESETS["pagat"]), (FourDeal, FOUR_PRESETS["russian"])]:
        h = ("heuristic", make_table_agent("heuristic:bid_samples=0"))
        r = ("random", make_table_agent("random"))
        stats = run_pair(game, rules, h, r, deals=12, seed=0, clock={})
        assert sum(stats.per_deal) / len(stats.per_deal) > 0.5 and stats.plays == 12 * (3 if game is ThreeDeal else 2)


def test_make_table_agent_checks_its_input():
    with pytest.raises(ValueError, match="random, heuristic, pimc"):
        make_table_agent("alphabeta")
    with pytest.raises(ValueError, match="key=value"):
        make_table_agent("pimc:8")
    with pytest.raises(ValueError, match="positive int"):
        make_table_agent("pimc:samples=0")
    with pytest.raises(ValueError, match="does not take"):
        make_table_agent("random:samples=3")


def test_table_arena_command(capsys):
    assert (
        main(
            [
                "--game",
                "four",
                "--rules",
                "russian",
                "--agents",
                "heuristic:bid_samples=0,random",
                "--deals",
                "2",
                "--no-progress",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "A named the contract" in out and "| heuristic:bid_samples=0 | random" in out
    assert main(["--game", "three", "--agents", "random,random", "--deals", "1", "--no-progress"]) == 0
    assert "A's stakes per deal" in capsys.readouterr().out
    for bad in (["--rules", "standard"], ["--agents", "random"], ["--deals", "0"], ["--agents", "foo,random"]):
        with pytest.raises(SystemExit) as e:
            main([*bad, "--no-progress"])
        assert e.value.code == 2
