"""Matches in the envs: carry-over between matches, a given deal's match scores, the cut's points,
bounded scores and ``last()`` after the episode (issue 20, items 14 and 16)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sixtysix_env import sixtysix_v0
from sixtysix_env.engine import Deal
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0
from sixtysix_env.envs.gym_env import SixtySixEnv
from sixtysix_env.table.four import FourDeal
from sixtysix_env.table.three import ThreeDeal


def _play_out(env, rng: random.Random) -> dict[str, float]:
    """Random legal play (bids and three nines preferred) to the episode's end; summed rewards."""
    total = dict.fromkeys(env.possible_agents, 0.0)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask).tolist()
        a = next((x for x in (41, 40, 39) if x in legal and rng.random() < 0.8), None)
        env.step(a if a is not None else rng.choice(legal))
        for k, v in env.rewards.items():
            total[k] += v
    return total


TWO_PLAYER = {
    "aec": lambda **kw: sixtysix_v0.raw_env(**kw),
    "gym": lambda **kw: SixtySixEnv(opponent="random", **kw),
}
"""The two two-player envs: both play their episodes with the one ``envs.episode.Episode``."""


def _finish(env, rng: random.Random) -> None:
    """Random legal play to the episode's end, in either two-player env."""
    if isinstance(env, SixtySixEnv):
        done = False
        while not done:
            _, _, done, _, _ = env.step(rng.choice(np.flatnonzero(env.action_masks()).tolist()))
    else:
        _play_out(env, rng)


def test_carry_over_starts_the_next_match_from_the_carried_points() -> None:
    env = sixtysix_four_v0.raw_env(rules="russian", episode="match")
    rng = random.Random(0)
    for seed in range(200):
        deal = FourDeal.new(env.rules, random.Random(seed), seed % 4, scores=(7, 7))
        env.reset(seed=seed, options={"deal": deal})
        _play_out(env, rng)
        if any(env.match.carry):
            break
    else:
        pytest.fail("no match ended with points to carry")
    carry, dealer = list(env.match.carry), env.match.next_dealer()
    env.reset(seed=1, options={"carry_over": True})
    assert env.match.scores == carry and env.deal.scores == tuple(carry)
    assert env.deal.dealer == dealer or env.match.cut_deals
    assert list(env.infos["player_0"]["scores"]) == carry
    env.reset(seed=1)  # without the option a match starts from zero
    assert env.match.scores == [0, 0]


def test_carry_over_is_checked_before_anything_changes() -> None:
    env = sixtysix_four_v0.raw_env(rules="russian", episode="match")
    env.reset(seed=3)
    before = env.deal.to_notation()
    with pytest.raises(ValueError, match="needs a finished match"):
        env.reset(options={"carry_over": True})
    with pytest.raises(ValueError, match=r"options\['carry_over'\]='yes' is not allowed: use True or False"):
        env.reset(options={"carry_over": "yes"})
    with pytest.raises(ValueError, match="both 'deal' and 'carry_over'"):
        env.reset(options={"carry_over": True, "deal": env.deal})
    assert env.deal.to_notation() == before
    with pytest.raises(ValueError, match="needs a finished match"):
        sixtysix_v0.raw_env().reset(options={"carry_over": True})


@pytest.mark.parametrize("kind", sorted(TWO_PLAYER))
def test_two_player_carry_over_starts_a_fresh_match_dealt_by_the_rules(kind) -> None:
    env = TWO_PLAYER[kind](episode="match")
    env.reset(seed=5)
    _finish(env, random.Random(5))
    assert env.match.is_over
    dealer = env.match.next_dealer()
    env.reset(seed=6, options={"carry_over": True})
    assert env.match.scores == [0, 0] and env.deal.dealer == dealer


@pytest.mark.parametrize(
    ("env_module", "rules", "deal"),
    [
        (sixtysix_four_v0, "pagat", lambda r: FourDeal.new(r, random.Random(1), 0, scores=(5, 3))),
        (sixtysix_three_v0, "pagat", lambda r: ThreeDeal.new(r, random.Random(1), 0, scores=(5, -2, -3))),
        (sixtysix_v0, "standard", lambda r: Deal.new(r, random.Random(1), 0, scores=(5, 3))),
    ],
)
def test_a_given_deal_is_scored_from_its_own_match_scores(env_module, rules, deal) -> None:
    env = env_module.raw_env(rules=rules, episode="match")
    d = deal(env.rules)
    env.reset(seed=0, options={"deal": d})
    assert env.match.scores == list(d.scores)
    assert list(env.infos["player_0"]["scores"]) == list(d.scores)


def test_the_gym_env_scores_a_given_deal_from_its_own_match_scores() -> None:
    env = SixtySixEnv(opponent="random", episode="match")
    d = Deal.new(env.rules, random.Random(1), 0, scores=(5, 3))
    _, info = env.reset(seed=0, options={"deal": d})
    assert env.match.scores == [5, 3] and list(info["scores"]) == [5, 3]


@pytest.mark.parametrize("kind", sorted(TWO_PLAYER))
def test_two_player_carry_over_is_checked_before_anything_changes(kind) -> None:
    """The AEC env's checks, with its messages, in both two-player envs."""
    env = TWO_PLAYER[kind](episode="match")
    with pytest.raises(ValueError, match=r"options\['carry_over'\]=True needs a finished match to carry from"):
        env.reset(seed=1, options={"carry_over": True})  # no match yet
    env.reset(seed=3)
    before = (env.deal.to_notation(), str(env.np_random.bit_generator.state))
    with pytest.raises(ValueError, match=r"needs a finished match to carry from: play a match to its end"):
        env.reset(seed=4, options={"carry_over": True})  # a match still running
    with pytest.raises(ValueError, match=r"options\['carry_over'\]='yes' is not allowed: use True or False"):
        env.reset(seed=4, options={"carry_over": "yes"})
    with pytest.raises(ValueError, match="both 'deal' and 'carry_over'"):
        env.reset(seed=4, options={"carry_over": True, "deal": env.deal})
    assert (env.deal.to_notation(), str(env.np_random.bit_generator.state)) == before
    env.reset(seed=3, options={"carry_over": False})  # False is the default
    assert env.deal.to_notation() == before[0]


def test_points_of_a_deal_the_cut_decided_reach_the_rewards() -> None:
    """Seed 223 deals a first deal that the cut decides (three nines cut): its point is a reward."""
    env = sixtysix_four_v0.raw_env(rules="russian", episode="match")
    env.reset(seed=223)
    assert env.match.cut_deals  # the cut decided a deal before anyone acted
    total = _play_out(env, random.Random(0))
    s = env.match.scores
    assert total["player_0"] == s[0] - s[1] and total["player_1"] == s[1] - s[0]


def test_match_scores_are_bounded_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"scores\[0\]=.* is not allowed: use an int in 0\.\.6"):
        FourDeal.new("pagat", random.Random(0), 0, scores=(10**400, 0))
    with pytest.raises(ValueError, match=r"scores\[1\]=100 is not allowed"):
        FourDeal.new("russian", random.Random(0), 0, scores=(0, 100))
    with pytest.raises(ValueError, match=r"scores\[0\]=7 is not allowed: use an int in 0\.\.6"):
        Deal.new("standard", random.Random(0), 0, scores=(7, 0))
    with pytest.raises(ValueError, match=r"scores\[2\]"):
        ThreeDeal.new("pagat", random.Random(0), 0, scores=(0, 0, -(10**400)))
    FourDeal.new("russian", random.Random(0), 0, scores=(7, 7))  # the largest allowed
    env = sixtysix_four_v0.raw_env(rules="russian")
    env.reset(seed=0, options={"deal": FourDeal.new(env.rules, random.Random(0), 0, scores=(7, 0))})
    assert np.isfinite(env.observe("player_0")["observation"]).all()


@pytest.mark.parametrize(
    "make",
    [
        lambda: sixtysix_v0.raw_env(),
        lambda: sixtysix_v0.env(),
        lambda: sixtysix_v0.env(wrapper="pettingzoo"),
        lambda: sixtysix_four_v0.raw_env(),
        lambda: sixtysix_three_v0.env(),
    ],
)
def test_last_after_the_episode_is_a_clear_key_error(make) -> None:
    env = make()
    env.reset(seed=0)
    rng = random.Random(0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert not env.agents
    with pytest.raises(KeyError, match=r"the episode's end last\(\) has nothing to return.*call reset"):
        env.last()
