"""Regression tests for the holes of issue 10, one block per item (the fuzz suite generalises them)."""

from __future__ import annotations

import copy
import io
import pickle
import random
import subprocess
import sys
from contextlib import redirect_stdout

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

from sixtysix_env import Deal, IllegalActionError, Rules, get_rules, sixtysix_v0
from sixtysix_env.agents import make_agent
from sixtysix_env.engine import Decision
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0
from sixtysix_env.envs.gym_env import SixtySixEnv
from sixtysix_env.envs.sb3 import SixtySixSB3VecEnv
from sixtysix_env.envs.vector import SixtySixVectorEnv
from sixtysix_env.fast import BatchedDeals
from sixtysix_env.render import render_deal
from sixtysix_env.rewards import step_rewards
from sixtysix_env.table.rules import get_four_rules, get_three_rules
from sixtysix_env.table.three import ThreeDeal

HANDS = ["9C JC QC KC TC AC", "9S JS QS KS TS AS"]
STOCK = "9H JH QH KH TH AH 9D JD QD KD TD AD"


def _finished_deal(rules: str | Rules = "standard") -> Deal:
    d = Deal.new(rules, random.Random(3))
    while d.outcome is None:
        d.apply(d.legal_actions()[0])
    return d


# ---------------------------------------------------------------- 1. copies of the batched engine
def _copies(obj):
    return [copy.deepcopy(obj), pickle.loads(pickle.dumps(obj))]


def test_copies_of_batched_deals_step_like_the_original():
    deals = BatchedDeals(4, "standard", seed=1)
    deals.step_observe(deals.sample_actions())  # mid-episode
    for twin in _copies(deals):
        original = copy.deepcopy(deals)
        for _ in range(5):
            a = original.sample_actions()
            assert np.array_equal(a, twin.sample_actions())
            obs, masks, rewards, _ = original.step_observe(a)
            obs2, masks2, rewards2, _ = twin.step_observe(a)
            assert np.array_equal(obs, obs2) and np.array_equal(masks, masks2) and np.array_equal(rewards, rewards2)
        assert np.array_equal(original.state, twin.state)
        assert not np.array_equal(twin.state, deals.state)  # it advanced, and apart from the original


@pytest.mark.parametrize("make", [lambda: SixtySixVectorEnv(4, seed=0), lambda: SixtySixSB3VecEnv(4, seed=0)])
def test_copies_of_the_vector_envs_advance(make):
    env = make()
    env.reset()
    for twin in _copies(env):
        venv = twin.venv if isinstance(twin, SixtySixSB3VecEnv) else twin
        before = venv.deals.state.copy()
        for _ in range(3):
            actions = twin.action_masks().argmax(axis=1)
            if isinstance(twin, SixtySixSB3VecEnv):
                twin.step(actions)
            else:
                twin.step(actions)
        assert not np.array_equal(venv.deals.state, before)


# ---------------------------------------------------------------- 2. observe() of an unknown agent
@pytest.mark.parametrize("module", [sixtysix_v0, sixtysix_three_v0, sixtysix_four_v0])
@pytest.mark.parametrize("agent", ["player_7", "", None, 0])
def test_observe_of_an_unknown_agent_raises_naming_the_agents(module, agent):
    env = module.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="player_0"):
        env.observe(agent)


# ---------------------------------------------------------------- 3. types that slipped through
def test_a_float_dealer_is_refused_everywhere():
    with pytest.raises(TypeError, match=r"dealer=1\.0"):
        Deal.from_arrangement(HANDS, STOCK, 1.0)
    with pytest.raises(TypeError, match=r"dealer=1\.0"):
        ThreeDeal.from_arrangement(
            ["9C JC QC KC TC AC 9S JS", "QS KS TS AS 9H JH QH KH", "TH AH 9D JD QD KD TD AD"], 1.0
        )
    for dealer in (7, -1):
        with pytest.raises(ValueError, match=f"dealer={dealer}"):
            Deal.new(rng=random.Random(0), dealer=dealer)


def test_a_rejected_reset_leaves_the_env_as_it_was():
    env = sixtysix_v0.raw_env()
    env.reset(seed=5)
    env.step(env.deal.legal_actions()[0])
    before = (env.deal.to_notation(), env.np_random.bit_generator.state)
    with pytest.raises(TypeError, match=r"dealer=1\.0"):
        env.reset(seed=9, options={"deal": {"hands": HANDS, "stock": STOCK, "dealer": 1.0}})
    assert (env.deal.to_notation(), env.np_random.bit_generator.state) == before
    env.step(env.deal.legal_actions()[0])  # still usable

    gym_env = SixtySixEnv(opponent="random")
    gym_env.reset(seed=5)
    state = gym_env.np_random.bit_generator.state
    with pytest.raises(TypeError, match=r"dealer=1\.0"):
        gym_env.reset(seed=9, options={"deal": {"hands": HANDS, "stock": STOCK, "dealer": 1.0}})
    assert gym_env.np_random.bit_generator.state == state


def test_batched_dealers_are_not_cast():
    deals = BatchedDeals(2, seed=0)
    before = deals.state.copy(), deals.rng_state.copy()
    with pytest.raises(ValueError, match="256"):
        deals.reset(decks=deals.decks.copy(), dealers=[256, 0])
    with pytest.raises(ValueError, match="integers"):
        deals.reset(decks=deals.decks.copy(), dealers=[1.0, 0.0])
    with pytest.raises(TypeError, match="dealer of arrangement 0"):
        deals.reset(arrangements=[(*deals.arrangement(0)[:3], 1.0), deals.arrangement(1)])
    assert np.array_equal(deals.state, before[0]) and np.array_equal(deals.rng_state, before[1])


# ---------------------------------------------------------------- 4. options["deal"]: finished, foreign, copied
@pytest.mark.parametrize("make", [sixtysix_v0.raw_env, lambda: SixtySixEnv(opponent="random")])
def test_a_finished_or_foreign_deal_is_refused_and_a_given_deal_is_copied(make):
    env = make()
    with pytest.raises(ValueError, match="finished"):
        env.reset(options={"deal": _finished_deal()})
    with pytest.raises(ValueError, match="schnapsen"):
        env.reset(options={"deal": Deal.new("schnapsen", random.Random(0))})
    mine = Deal.new("standard", random.Random(0))
    text = mine.to_notation()
    env.reset(seed=0, options={"deal": mine})
    env.deal.apply(env.deal.legal_actions()[0])
    assert mine.to_notation() == text and mine.history == []


# ---------------------------------------------------------------- 5. SixtySix-v0 with a 0-d array action
@pytest.mark.parametrize("mode", ["raise", "terminate"])
def test_a_zero_d_integer_array_is_an_action(mode):
    env = SixtySixEnv(opponent="heuristic", illegal_action=mode)
    _, info = env.reset(seed=0)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(np.array(legal))
    assert not info["illegal_action"] and reward > -3
    history = list(env.deal.history)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    if mode == "raise":
        with pytest.raises(IllegalActionError, match="legal actions are"):
            env.step(np.array(illegal))
        assert env.deal.history == history  # not applied
    else:
        _, reward, terminated, _, info = env.step(np.array(illegal))
        assert info["illegal_action"] and terminated and env.deal.history == history


# ---------------------------------------------------------------- 6. vector rows with negative or huge actions
@pytest.mark.parametrize("bad", [-5, 2**64 - 1])
def test_batched_actions_out_of_range_raise_and_change_nothing(bad):
    deals = BatchedDeals(3, seed=0)
    actions = deals.sample_actions().astype(np.uint64 if bad > 0 else np.int64)
    actions[1] = bad
    before = deals.state.copy()
    with pytest.raises(IllegalActionError, match=f"illegal action {bad} in env 1"):
        deals.step(actions)
    assert np.array_equal(deals.state, before)


def test_the_vector_env_refuses_no_action():
    env = SixtySixVectorEnv(2, seed=0, illegal_action="raise")
    env.reset(seed=0)
    actions = env.action_masks().argmax(axis=1)
    actions[0] = -1
    with pytest.raises(IllegalActionError, match="illegal action -1 in env 0"):
        env.step(actions)
    env = SixtySixVectorEnv(2, seed=0)  # the default ends that env's deal with the penalty, flagged
    env.reset(seed=0)
    _, reward, terminated, _, infos = env.step(actions)
    assert terminated[0] and reward[0] == -3 and infos["final_info"]["illegal_action"][0]


# ---------------------------------------------------------------- 7. non-finite numbers
@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_options_are_refused(value):
    for name in ("pimc", "ismcts"):
        with pytest.raises(ValueError, match=r"time_ms=(nan|inf|-inf)"):
            make_agent(name, time_ms=value)
    with pytest.raises(ValueError, match="illegal_reward"):
        SixtySixEnv(opponent="random", illegal_reward=value)
    with pytest.raises(ValueError, match="illegal_reward"):
        sixtysix_v0.env(illegal_reward=value)
    with pytest.raises(ValueError, match="illegal_reward"):
        sixtysix_three_v0.env(illegal_reward=value)
    for make in (sixtysix_v0.raw_env, sixtysix_four_v0.raw_env, SixtySixEnv):
        with pytest.raises(ValueError, match="shaping_scale"):
            make(shaping_scale=value)
    with pytest.raises(ValueError, match="shaping_scale"):
        BatchedDeals(2, shaping_scale=value)
    with pytest.raises(ValueError, match="c="):
        make_agent("ismcts", c=value)


def test_budgets_must_be_ints():
    with pytest.raises(TypeError, match=r"samples=1e\+?0?9|samples=1000000000.0"):
        make_agent("pimc", samples=1e9)
    with pytest.raises(TypeError, match="iterations='many'"):
        make_agent("ismcts", iterations="many")


# ---------------------------------------------------------------- 8. custom rules round-trip
CUSTOM = [
    {"must_win_trick": False},
    {"claiming": "explicit"},
    {"claiming": "explicit", "must_win_trick": False, "exchange_timing": "any_turn"},
    {"closing_min_stock": 6, "marriages_after_stock": True},
]


@pytest.mark.parametrize("changes", CUSTOM)
def test_custom_rules_get_a_derived_name_and_their_notation_rebuilds_them(changes):
    r = get_rules("standard").replace(**changes)
    assert r.name != "standard" and r.name.startswith("standard(")
    assert get_rules(r.notation()) == r and get_rules(r.name) == r
    rng = random.Random(7)
    for _ in range(8):
        d = Deal.new(r, rng)
        while d.outcome is None:
            copy_ = Deal.from_notation(d.to_notation())
            assert copy_.rules == r
            assert copy_.legal_mask() == d.legal_mask() and copy_.to_notation() == d.to_notation()
            d.apply(rng.choice(d.legal_actions()))
        assert Deal.from_notation(d.to_notation()).outcome == d.outcome
    assert "Sixty-Six (standard(" in render_deal(d)


def test_a_label_and_a_preset_back_again():
    mine = Rules(name="my table", must_win_trick=False)
    assert mine.name == "my table"
    assert get_rules(mine.notation()) == mine and "name=my table" in mine.notation()
    assert get_rules("standard").replace(must_win_trick=False).replace(must_win_trick=True) is not None
    assert get_rules("standard").replace(must_win_trick=False).replace(must_win_trick=True).name == "standard"
    assert get_three_rules("pagat").replace(must_beat=False).name == "pagat(must_beat=False)"
    four = get_four_rules("pagat").replace(claiming="explicit")
    assert get_four_rules(four.notation()) == four


@pytest.mark.parametrize("name", ["a;b", "x | y", "f(x)", "", " padded", 3, None])
def test_names_that_break_the_notation_are_refused(name):
    with pytest.raises((TypeError, ValueError), match="name"):
        Rules(name=name)


# ---------------------------------------------------------------- 14. import cost
def test_the_engine_imports_neither_gymnasium_nor_pettingzoo():
    code = (
        "import sys\nfrom sixtysix_env import Deal\n"
        "assert 'gymnasium' not in sys.modules and 'pettingzoo' not in sys.modules, sorted(sys.modules)\n"
        "import gymnasium, pettingzoo\n"  # imported afterwards: the ids are registered then
        "assert 'SixtySix-v0' in gymnasium.registry\n"
        "pettingzoo.spec('aec', 'sixtysix/sixtysix_v0')\n"
        "gymnasium.make('SixtySix-v0').reset(seed=0)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_probe_for_gymnasium_does_not_use_up_the_registration():
    # torchrl asks importlib.util.find_spec("gymnasium") before importing it
    code = (
        "import importlib.util, sys\nimport sixtysix_env\n"
        "assert 'gymnasium' not in sys.modules\n"
        "importlib.util.find_spec('gymnasium'); importlib.util.find_spec('pettingzoo')\n"
        "import gymnasium, pettingzoo\n"
        "gymnasium.make('SixtySix-v0').reset(seed=0)\n"
        "pettingzoo.spec('aec', 'sixtysix/sixtysix_v0')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- 15. smaller ones
def test_infostate_legal_mask_is_callable_like_the_deals():
    d = Deal.new(rng=random.Random(0))
    info = d.information_state(d.current_player)
    assert info.legal_mask() == d.legal_mask() == info.legal_mask
    assert "decision=lead" in repr(info)


def test_duplicate_cards_are_reported_as_duplicates():
    with pytest.raises(ValueError, match=r"duplicate card QH \(twice in hand 0\)"):
        Deal.from_arrangement(["QH " * 6, "9S JS QS KS TS AS"], "")
    with pytest.raises(ValueError, match=r"duplicate card 9H \(twice in stock\)"):
        Deal.from_arrangement(HANDS, "9H 9H")


def test_each_env_is_registered_once_under_its_own_heading():
    out = io.StringIO()
    with redirect_stdout(out):
        pettingzoo.pprint_registry()
    ids = [line.strip() for line in out.getvalue().splitlines() if "sixtysix" in line]
    assert sorted(ids) == ["sixtysix/sixtysix-v0", "sixtysix/sixtysix_four-v0", "sixtysix/sixtysix_three-v0"]
    text = gym.pprint_registry(disable_print=True)
    heading = text[: text.index("SixtySix-v0")].rsplit("=====", 2)[-2]
    assert heading.strip() == "SixtySix"


def test_no_reward_is_minus_zero():
    d = Deal.new(rng=random.Random(0))
    before = (d.points[0], d.points[1])
    d.apply(d.legal_actions()[0])
    for scheme in ("game_points", "win_loss", "shaped"):
        assert all(str(r) != "-0.0" for r in step_rewards(scheme, d, before))
    deals = BatchedDeals(8, seed=0)
    rewards, _ = deals.step(deals.sample_actions())
    assert not np.signbit(rewards[rewards == 0]).any()


def test_decision_is_named_in_views():
    d = ThreeDeal.new(rng=random.Random(0))
    assert "decision=trump" in repr(d.information_state(d.current_player))
    assert Decision.LEAD.name.lower() in repr(Deal.new(rng=random.Random(0)).information_state(0))
