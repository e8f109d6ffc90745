"""The batched engine (sixtysix_env.fast) against the reference engine, step by step.

The differential test starts both engines from the same arrangements, drives them with the same
random legal actions, and compares legal masks, the player to act, both players' vector
observations (bit for bit) and every reward scheme at every step, and the outcomes. CI runs
1,000-1,500 deals per configuration; ``python -m sixtysix_env.fast.verify --deals 10000`` runs
the full check.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pytest.importorskip("numba")

from sixtysix_env import Deal, IllegalActionError, Rules
from sixtysix_env.fast import BatchedDeals, UnsupportedRuleError, encode_rules
from sixtysix_env.fast.verify import configurations, differential, random_rules
from sixtysix_env.infostate import InfoState
from sixtysix_env.observers import VECTOR_SIZE, encode_vector
from sixtysix_env.rules import PRESETS

CONFIGS = configurations()


@pytest.mark.parametrize("name", list(CONFIGS))
def test_differential_against_reference(name: str) -> None:
    deals = 1500 if name in PRESETS else 1000
    stats = differential(CONFIGS[name], deals, seed=list(CONFIGS).index(name))
    assert stats["deals"] == deals and stats["steps"] > 10 * deals


def test_differential_random_rule_combinations() -> None:
    rng = np.random.default_rng(7)
    for k in range(8):
        differential(random_rules(rng), 250, seed=k)


def _obs(deal: Deal, player: int) -> np.ndarray:
    return encode_vector(InfoState.of(deal, player))


def test_unknown_rules_field_is_rejected_by_name() -> None:
    @dataclasses.dataclass(frozen=True)
    class Extended(Rules):
        trump_tax: int = 0

    encode_rules(Extended())  # the default behaves as before: accepted
    with pytest.raises(UnsupportedRuleError, match="trump_tax"):
        encode_rules(Extended(trump_tax=2))
    with pytest.raises(UnsupportedRuleError, match="trump_tax"):
        BatchedDeals(2, Extended(trump_tax=2))


def test_illegal_action_names_env_action_and_legal_ones_and_changes_nothing() -> None:
    deals = BatchedDeals(3, "standard", seed=1)
    actions = deals.sample_actions()
    state = deals.state.copy()
    legal = np.flatnonzero(deals.legal_masks()[1])
    bad = next(a for a in range(32) if a not in legal)
    actions[1] = bad
    with pytest.raises(IllegalActionError, match=r"illegal action \d+ in env 1 ") as err:
        deals.step(actions)
    assert err.value.legal == legal.tolist()
    assert err.value.action == bad
    np.testing.assert_array_equal(deals.state, state)
    actions[1] = 40
    with pytest.raises(IllegalActionError, match="env 1"):
        deals.step(actions)


def test_bad_inputs_are_explained() -> None:
    deals = BatchedDeals(4, "standard", seed=1)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        deals.step([1, 2])
    with pytest.raises(ValueError, match="integers"):
        deals.step(np.zeros(4))
    with pytest.raises(ValueError, match="num_envs"):
        BatchedDeals(0)
    with pytest.raises(ValueError, match="reward scheme"):
        BatchedDeals(2, reward="money")
    with pytest.raises(ValueError, match="player"):
        deals.observe(2)
    deal = Deal.new("standard", np.random.default_rng(0))
    h0, h1, stock, dealer = deal.arrangement  # type: ignore[misc]
    twice = (h0, (h0[0], *h1[1:]), stock, dealer)  # a card in both hands
    with pytest.raises(ValueError, match="env 1"):
        BatchedDeals(2, autoreset=False).reset(arrangements=[deal.arrangement, twice])  # type: ignore[list-item]


def test_finished_deal_without_autoreset_takes_no_action() -> None:
    deals = BatchedDeals(2, "standard", seed=3, autoreset=False)
    while not deals.is_over.all():
        deals.step(deals.sample_actions())  # -1 for finished deals
    assert (deals.current_player == -1).all() and not deals.legal_masks().any()
    with pytest.raises(IllegalActionError, match="over"):
        deals.step(np.array([0, -1]))


def test_seed_replays_exactly_whatever_the_threading() -> None:
    runs = []
    for parallel in (False, True):
        deals = BatchedDeals(64, "santase", seed=11, parallel=parallel, reward="shaped")
        obs, masks = deals.reset()
        trace = [obs.copy(), masks.copy()]
        for _ in range(120):
            obs, masks, rewards, done = deals.step_observe(deals.sample_actions())
            trace += [obs.copy(), masks.copy(), rewards.copy(), done.copy()]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)
    other = BatchedDeals(64, "santase", seed=12)
    assert not np.array_equal(other.decks, BatchedDeals(64, "santase", seed=11).decks)


def test_autoreset_reports_the_finished_deal_and_starts_a_valid_new_one() -> None:
    deals = BatchedDeals(16, "schnapsen", seed=5, dealer="alternate", final_observation_seat=0)
    finished = 0
    for _ in range(300):
        before = [deals.deal(i) for i in range(16)]
        actions = deals.sample_actions()
        obs, masks, rewards, done = deals.step_observe(actions)
        for i in np.flatnonzero(done):
            ref = before[i]
            ref.apply(int(actions[i]))
            assert ref.outcome is not None
            assert (deals.last_winner[i], deals.last_game_points[i]) == (ref.outcome.winner, ref.outcome.game_points)
            assert tuple(rewards[i]) == ref.outcome.returns()
            assert np.array_equal(deals.final_observations[i], _obs(ref, 0))  # the end, before the reset
            assert deals.state[i, 0] == 1 - ref.dealer  # the dealer alternates
            finished += 1
        for i in range(16):  # the new deals are real deals: replaying them gives the same view
            d = deals.deal(i)
            assert np.array_equal(obs[i], _obs(d, d.current_player))
            assert np.array_equal(np.flatnonzero(masks[i]), d.legal_actions())
    assert finished > 20
    deck = sorted(c for c in range(24) if c % 6)  # schnapsen: no nines
    assert all(sorted(row) == deck for row in deals.decks.tolist())


def test_built_in_random_opponent_leaves_only_learner_decisions() -> None:
    learner = 1
    deals = BatchedDeals(32, "standard", seed=2, opponent=1 - learner, reward="shaped")
    total = 0.0
    for _ in range(200):
        assert (deals.current_player == learner).all()
        obs, _, rewards, _ = deals.step_observe(deals.sample_actions())
        assert (rewards[:, 0] == -rewards[:, 1]).all()
        total += rewards[:, learner].sum()
        for i in range(32):
            d = deals.deal(i)  # history holds the opponent's moves too
            assert d.current_player == learner
            assert np.array_equal(obs[i], _obs(d, learner))
    assert deals.bytes_per_env < 2048


def test_observe_any_seat_and_masks_agree_with_reference() -> None:
    deals = BatchedDeals(8, "russian", seed=9)
    for _ in range(40):
        deals.step(deals.sample_actions())
        seats = np.arange(8) % 2
        got = deals.observe(seats)
        assert got.shape == (8, VECTOR_SIZE) and got.dtype == np.float32
        for i in range(8):
            d = deals.deal(i)
            assert np.array_equal(got[i], _obs(d, int(seats[i])))
            assert int(deals.legal_mask_bits()[i]) == d.legal_mask()
            assert deals.current_player[i] == d.current_player


# ---------------------------------------------------------------------- Gymnasium and sb3 wrappers
def test_vector_env_api_masks_autoreset_and_seeding() -> None:
    from sixtysix_env.envs.vector import SixtySixVectorEnv

    def run(seed: int) -> list[np.ndarray]:
        env = SixtySixVectorEnv(8, "standard", seed=seed, opponent="random", seat=1)
        obs, info = env.reset(seed=seed)
        assert env.observation_space.contains(obs) and info["action_mask"].shape == (8, 32)
        assert info["action_mask"].dtype == np.int8
        rng = np.random.default_rng(seed)
        trace, episodes = [obs.copy()], 0
        for _ in range(150):
            masks = info["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            assert env.action_space.contains(actions)
            obs, rewards, terminated, truncated, info = env.step(actions)
            assert env.observation_space.contains(obs) and not truncated.any()
            assert np.array_equal(env.action_masks(), masks_of(env))
            for i in np.flatnonzero(terminated):
                final = info["final_obs"][i]
                assert final.shape == (235,) and info["_final_obs"][i]
                points = info["final_info"]["game_points"][i]
                won = info["final_info"]["winner"][i] == 1
                assert rewards[i] == (points if won else -points if info["final_info"]["winner"][i] == 0 else 0)
                episodes += 1
            assert np.all(rewards[~terminated] == 0)  # game_points pays at the end only
            trace += [obs.copy(), rewards.copy(), terminated.copy()]
        assert episodes > 20
        return trace

    def masks_of(env: SixtySixVectorEnv) -> np.ndarray:
        return env.deals.legal_masks().astype(bool)

    for a, b in zip(run(4), run(4), strict=True):
        np.testing.assert_array_equal(a, b)


def test_vector_env_works_with_gymnasium_vector_wrappers() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from sixtysix_env.envs.vector import SixtySixVectorEnv

    env = RecordEpisodeStatistics(SixtySixVectorEnv(4, "schnapsen", reward="shaped"))
    _, info = env.reset(seed=1)
    seen = 0
    for _ in range(100):
        _, _, terminated, _, info = env.step(np.array([np.flatnonzero(m)[0] for m in info["action_mask"]]))
        if terminated.any():
            assert (info["episode"]["l"][terminated] >= 1).all()
            seen += int(terminated.sum())
    assert seen > 5


def test_maskable_ppo_trains_on_the_sb3_adapter() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from sixtysix_env.envs.sb3 import SixtySixSB3VecEnv

    env = SixtySixSB3VecEnv(16, "standard", seed=0)
    obs = env.reset()
    assert obs.shape == (16, 235) and env.action_masks().shape == (16, 32)
    assert np.stack(env.env_method("action_masks")).shape == (16, 32)
    model = MaskablePPO("MlpPolicy", VecMonitor(env), n_steps=32, batch_size=128, n_epochs=1, seed=0)
    model.learn(1024)
    actions, _ = model.predict(env.reset(), action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[np.arange(16), actions].all()  # masked predictions are legal


@pytest.mark.parametrize("six", ["closer_no_trick", "or_opponent_no_trick"])
def test_differential_covers_the_six_point_rule(six: str) -> None:
    stats = differential(CONFIGS[f"standard+six-{six}"], 1000, seed=11)
    assert stats.get("game_points_6", 0) > 0  # the random play reaches failed closes worth 6


def test_failed_close_six_in_the_batched_engine() -> None:
    from tests.test_variants import FAILED_CLOSES, SIX_POINTS

    deals = [Deal.from_notation(text) for text in FAILED_CLOSES.values()]
    for six, want in SIX_POINTS.items():
        rules = Rules(name=f"six-{six}", failed_close_six=six)
        batch = BatchedDeals(len(deals), rules, autoreset=False, seed=0)
        batch.reset(arrangements=[d.arrangement for d in deals])
        moves = [[h % 32 for h in d.history] for d in deals]  # history holds player * 32 + action
        for k in range(max(map(len, moves))):
            batch.step(np.array([m[k] if k < len(m) else -1 for m in moves]))
        assert [batch.outcome(i).game_points for i in range(len(deals))] == want, six
