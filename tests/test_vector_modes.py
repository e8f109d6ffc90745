"""The vector env's autoreset modes, action checks, opponents and env ids (issue 21 items 1-2, issue 20 item 16)."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import sixtysix_env  # noqa: F401  (registers the ids)
from sixtysix_env import InfoState
from sixtysix_env.agents.ppo import PPOAgent
from sixtysix_env.engine import IllegalActionError
from sixtysix_env.envs.vector import SixtySixVectorEnv
from sixtysix_env.envs.vector_opponents import NetworkOpponent
from sixtysix_env.observers import encode_vector

from .vector_episodes import assert_same_episodes, collect, lowest_legal


# ---------------------------------------------------------------- NEXT_STEP: every decision, right terminal obs
@pytest.mark.parametrize("opponent", ["heuristic", "random", "ppo"])
def test_next_step_mode_records_every_decision_and_the_finished_deals_last_observation(opponent):
    """The same deals through both modes: NEXT_STEP episodes (recorded as RLlib does) are exactly
    the SAME_STEP ones (first decision included, terminal observation from ``final_obs``)."""
    same = SixtySixVectorEnv(6, opponent=opponent, seed=3)
    nxt = SixtySixVectorEnv(6, opponent=opponent, seed=3, autoreset_mode=AutoresetMode.NEXT_STEP)
    assert nxt.autoreset_mode is AutoresetMode.NEXT_STEP and nxt.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert same.autoreset_mode is AutoresetMode.SAME_STEP
    assert type(nxt).metadata["autoreset_mode"] is AutoresetMode.SAME_STEP  # the class's default is untouched
    eps_same, decisions_same = collect(same, 150)
    eps_next, decisions_next = collect(nxt, 150)
    for ep in assert_same_episodes(eps_same, eps_next):
        assert len(ep.observations) == len(ep.actions) + 1  # every decision, then the end
    # every decision the policy made in a finished NEXT_STEP episode is in one (none lost to a reset)
    assert decisions_next == sum(len(e.actions) for row in eps_next for e in row)
    assert decisions_same == sum(len(e.actions) for row in eps_same for e in row)


def test_next_step_terminal_step_and_reset_step():
    env = SixtySixVectorEnv(4, opponent="random", seed=1, autoreset_mode="NextStep")
    obs, infos = env.reset(seed=1)
    for _ in range(60):
        actions = lowest_legal(obs, infos["action_mask"])
        seats = env.seats.copy()
        obs, rewards, term, _, infos = env.step(actions)
        if term.any():
            break
    i = int(np.flatnonzero(term)[0])
    assert set(infos) == {f"{p}{k}" for k in infos if not k.startswith("_") for p in ("", "_")}
    assert "final_obs" not in infos and infos["action_mask"][i].all() and env.action_masks()[i].all()
    assert infos["seat"][i] == seats[i] and infos["winner"][i] in (0, 1) and infos["game_points"][i] > 0
    won = infos["winner"][i] == seats[i]
    assert rewards[i] == infos["game_points"][i] * (1 if won else -1)
    # the terminal observation is the finished deal's, as the learner's seat saw it at the end
    deal_view = env.deals.final_observations[i]
    assert np.array_equal(obs[i], deal_view)
    # the next step ignores env i's action (even an illegal one) and shows its new deal
    actions = lowest_legal(obs, infos["action_mask"])
    actions[i] = 31 if not env.deals.legal_mask_bits()[i] >> 31 & 1 else 0
    before = env.deals.state[i].copy()
    obs2, rewards2, term2, _, infos2 = env.step(actions)
    assert not term2[i] and rewards2[i] == 0 and not infos2["illegal_action"][i]
    assert np.array_equal(env.deals.state[i], before)  # nothing was played in the new deal
    assert not np.array_equal(obs2[i], obs[i]) and infos2["action_mask"][i].sum() < 32
    assert infos2["winner"][i] == -1


def test_make_vec_passes_the_mode_and_bad_modes_are_explained():
    env = gym.make_vec("SixtySix-v0", 2, vectorization_mode="vector_entry_point", autoreset_mode="NextStep")
    assert env.autoreset_mode is AutoresetMode.NEXT_STEP
    with pytest.raises(ValueError, match=r"autoreset_mode='Disabled' is not supported.*NEXT_STEP"):
        SixtySixVectorEnv(2, autoreset_mode="Disabled")
    with pytest.raises(ValueError, match="autoreset_mode='next'"):
        SixtySixVectorEnv(2, autoreset_mode="next")


# ---------------------------------------------------------------- actions of every integer dtype, exact shape
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64])
def test_an_illegal_action_of_any_integer_dtype_ends_only_that_envs_deal(dtype):
    env = SixtySixVectorEnv(3, seed=0)
    _, infos = env.reset(seed=0)
    masks = infos["action_mask"]
    actions = masks.argmax(axis=1).astype(dtype)
    actions[1] = int(np.flatnonzero(masks[1] == 0)[0])
    _, rewards, term, _, infos = env.step(actions)
    assert term.tolist() == [False, True, False] and rewards[1] == -3.0
    assert infos["final_info"]["illegal_action"].tolist() == [False, True, False]
    if np.dtype(dtype).kind == "u":  # the largest value of the dtype: never wrapped into a legal one
        env.reset(seed=0)
        actions[1] = np.iinfo(dtype).max
        _, _, term, _, _ = env.step(actions)
        assert term.tolist() == [False, True, False]


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_raise_mode_names_the_value_sent(dtype):
    env = SixtySixVectorEnv(2, seed=0, illegal_action="raise")
    _, infos = env.reset(seed=0)
    actions = infos["action_mask"].argmax(axis=1).astype(dtype)
    actions[1] = 200
    before = env.deals.state.copy()
    with pytest.raises(IllegalActionError, match=r"illegal action 200 in env 1: legal actions are \d"):
        env.step(actions)
    assert np.array_equal(env.deals.state, before)


@pytest.mark.parametrize("shape", [(2, 2), (4, 1), (1, 4), (3,), (5,)])
def test_actions_of_another_shape_are_refused(shape):
    env = SixtySixVectorEnv(4, seed=0)
    env.reset(seed=0)
    before = env.deals.state.copy()
    message = rf"actions must have shape \(4,\): one action per env, got shape \({shape[0]}"
    with pytest.raises(ValueError, match=message):
        env.step(np.zeros(shape, dtype=np.int64))
    with pytest.raises(ValueError, match=r"actions must be integers in 0\.\.31"):
        env.step(np.zeros(4, dtype=np.float32))
    assert np.array_equal(env.deals.state, before)


# ---------------------------------------------------------------- env ids in any process
def test_the_module_prefixed_id_resolves_in_a_fresh_process():
    code = (
        "import sys, gymnasium as gym; assert 'sixtysix_env' not in sys.modules; "
        "env = gym.make('sixtysix_env:SixtySix-v0'); env.reset(seed=0); "
        "assert gym.spec('SixtySix-v0').vector_entry_point.endswith(':SixtySixVectorEnv'); print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    code = "import gymnasium as gym; gym.make('SixtySix-v0')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode != 0 and "SixtySix" in out.stderr  # the plain id needs the package imported


# ---------------------------------------------------------------- opponents at batch speed
def test_network_opponent_plays_as_the_ppo_agent_on_the_reference_engine():
    """Every opponent decision: its observation is the reference encoding of the opponent's view,
    and the batched network picks what ``PPOAgent`` picks from the reference ``InfoState``."""
    agent = PPOAgent(model="fast_standard")
    network = NetworkOpponent(agent.policy)
    env = None
    checked = 0

    def opponent(obs, masks):
        nonlocal checked
        batch = env.deals.batch
        current = batch.current_player
        rows = np.flatnonzero((current >= 0) & (current != env.deals.learner_seats))
        picks = network.actions(obs, masks, np.random.default_rng(0))
        for k, i in enumerate(rows):
            deal = batch.deal(int(i))
            info = InfoState.of(deal, deal.current)
            assert np.array_equal(encode_vector(info), obs[k])
            assert picks[k] == agent.act(info, None)  # deterministic: the rng is not used
            checked += 1
        return picks

    env = SixtySixVectorEnv(8, opponent=opponent, seed=4)
    obs, infos = env.reset(seed=4)
    for _ in range(40):
        obs, _, _, _, infos = env.step(lowest_legal(obs, infos["action_mask"]))
    assert checked > 100
    # the string form gives the same games as the callable above
    a = SixtySixVectorEnv(8, opponent="ppo:model=fast_standard", seed=4, autoreset_mode="NextStep")
    b = SixtySixVectorEnv(8, opponent=lambda o, m: network.actions(o, m, None), seed=4, autoreset_mode="NextStep")
    assert [e.key() for row in collect(a, 60)[0] for e in row] == [e.key() for row in collect(b, 60)[0] for e in row]


def test_callable_opponent_sees_only_its_turns_and_bad_answers_change_nothing():
    calls = []

    def first_legal(obs, masks):
        assert obs.dtype == np.float32 and obs.shape[1:] == (235,) and masks.shape == (len(obs), 32)
        calls.append(len(obs))
        return masks.argmax(axis=1)

    env = SixtySixVectorEnv(16, opponent=first_legal, seed=0, seat=0)
    obs, infos = env.reset(seed=0)
    assert (env.seats == 0).all()
    wins = 0
    for _ in range(200):
        assert (env.deals.batch.current_player == 0).all()  # always the learner's turn between steps
        obs, _, term, _, infos = env.step(lowest_legal(obs, infos["action_mask"]))
        if term.any():
            wins += int((infos["final_info"]["winner"][term] == 0).sum())
    assert calls and all(0 < k <= 16 for k in calls) and wins > 0

    for bad, message in [
        (lambda o, m: np.full(len(o), 40), r"returned illegal action 40 for row 0: legal there are \["),
        (lambda o, m: m.argmax(axis=1)[:1] if len(o) > 1 else np.zeros((1, 1), int), r"must return \(\d+,\) integer"),
        (lambda o, m: m.argmax(axis=1).astype(float), "must return .* integer actions"),
    ]:
        holder = {"fn": first_legal}
        env = SixtySixVectorEnv(4, opponent=lambda o, m, h=holder: h["fn"](o, m), seed=2, seat=0)
        obs, infos = env.reset(seed=2)
        holder["fn"] = bad
        snapshot = env.deals.batch.state.copy(), env.deals.learner_seats.copy()
        with pytest.raises(ValueError, match=message):
            env.step(lowest_legal(obs, infos["action_mask"]))
        assert np.array_equal(env.deals.batch.state, snapshot[0])  # the learner's actions were undone
        assert np.array_equal(env.deals.learner_seats, snapshot[1])
        holder["fn"] = first_legal
        env.step(lowest_legal(obs, infos["action_mask"]))  # and the env goes on


def test_unknown_opponents_are_explained():
    for bad in ["pimc", "ppo:endgame=search", 7, None]:
        with pytest.raises(ValueError, match=r"opponent=|endgame='search'"):
            SixtySixVectorEnv(2, opponent=bad)
    with pytest.raises(ValueError, match="no shipped ppo model 'nope'"):
        SixtySixVectorEnv(2, opponent="ppo:model=nope")
