"""The batched heuristic (sixtysix_env.fast.heuristic) against ``HeuristicAgent``, and the batched
interfaces built on it: the in-batch heuristic opponent, ``gymnasium.make_vec`` with the single
env's arguments, the self-play API, and MaskablePPO on the sb3 adapter.

The differential test plays the same deals in the reference engine and in a batch, with a mix of
heuristic and random moves (so the heuristic is asked about positions off its own lines too), and
at every decision compares the batch's ``heuristic_actions`` with
``HeuristicAgent().act(InfoState.of(deal, player), rng)``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

import gymnasium

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env import Deal, Rules
from sixtysix_env.actions import GO_OUT, action_str
from sixtysix_env.agents.heuristic import HeuristicAgent, heuristic_deal_action
from sixtysix_env.envs.vector import SixtySixVectorEnv
from sixtysix_env.fast import BatchedDeals
from sixtysix_env.fast.verify import configurations, random_rules
from sixtysix_env.infostate import InfoState
from sixtysix_env.observers import encode_vector
from sixtysix_env.rewards import step_rewards

CONFIGS = configurations()  # every two-player preset, and each with explicit claiming


def _random_move(deal: Deal, rng: random.Random) -> int:
    """A random legal action; going out (explicit claiming) mostly only with 66, so deals last."""
    legal = deal.legal_actions()
    if GO_OUT in legal and len(legal) > 1 and deal.points[deal.current_player] < 66 and rng.random() > 0.1:
        legal.remove(GO_OUT)
    return legal[rng.randrange(len(legal))]


def heuristic_differential(rules: Rules, num_deals: int, seed: int) -> int:
    """Play ``num_deals`` deals in both engines; at every decision the batched heuristic must pick
    ``HeuristicAgent``'s action. Returns the number of decisions compared."""
    rng = random.Random(seed)
    agent = HeuristicAgent()
    deals = [Deal.new(rules, rng, dealer=rng.randrange(2)) for _ in range(num_deals)]
    batch = BatchedDeals(num_deals, rules, autoreset=False, seed=seed)
    batch.reset(arrangements=[d.arrangement for d in deals])  # type: ignore[misc]
    # Who plays what, per deal: both heuristic, heuristic against random either way, or a
    # heuristic that plays a random move a third of the time.
    modes = [i % 4 for i in range(num_deals)]
    compared = 0
    for _ in range(60):
        live = [i for i, d in enumerate(deals) if d.outcome is None]
        if not live:
            return compared
        got = batch.heuristic_actions()
        bits = batch.legal_mask_bits()
        actions = np.full(num_deals, -1, dtype=np.int64)
        for i in live:
            d = deals[i]
            p = d.current_player
            assert int(bits[i]) == d.legal_mask()  # the engines are in lockstep
            want = agent.act(InfoState.of(d, p), rng)
            if got[i] != want:
                played = " ".join(action_str(x & 31) for x in d.history)  # entries are player << 5 | action
                raise AssertionError(
                    f"{rules.name}: deal {i} after [{played}] ({d.to_notation()}): batched heuristic "
                    f"{action_str(int(got[i]))}, HeuristicAgent {action_str(want)}"
                )
            compared += 1
            mode = modes[i]
            heuristic = (
                mode == 0 or (mode == 1 and p == 0) or (mode == 2 and p == 1) or (mode == 3 and rng.random() > 1 / 3)
            )
            a = want if heuristic else _random_move(d, rng)
            actions[i] = a
            d.apply(a)
        assert (got[actions < 0] == -1).all()  # finished deals: no action
        batch.step(actions)
    raise AssertionError("deals did not finish within 60 decisions")


@pytest.mark.parametrize("name", list(CONFIGS))
def test_batched_heuristic_picks_heuristic_agents_action_at_every_decision(name: str) -> None:
    deals = 2000
    compared = heuristic_differential(CONFIGS[name], deals, seed=list(CONFIGS).index(name))
    assert compared > 12 * deals


def test_batched_heuristic_on_random_rule_combinations() -> None:
    rng = np.random.default_rng(11)
    for k in range(8):
        heuristic_differential(random_rules(rng), 250, seed=100 + k)


def test_heuristic_actions_threaded_equals_serial_and_ends_with_minus_one() -> None:
    serial = BatchedDeals(300, "schnapsen", seed=3, parallel=False, autoreset=False)
    threaded = BatchedDeals(300, "schnapsen", seed=3, parallel=True, autoreset=False)
    assert len(threaded._slices) > 1 or threaded.parallel
    for _ in range(60):
        a = serial.heuristic_actions()
        np.testing.assert_array_equal(a, threaded.heuristic_actions())
        assert (a[serial.is_over] == -1).all() and (a[~serial.is_over] >= 0).all()
        if serial.is_over.all():
            break
        serial.step(a)
        threaded.step(a)
    assert serial.is_over.all()


# ---------------------------------------------------------------------- the in-batch heuristic opponent
@pytest.mark.parametrize("rules", ["standard", "schnapsen", "vu"])
def test_built_in_heuristic_opponent_plays_heuristic_agents_moves(rules: str) -> None:
    rng = random.Random(5)
    n = 200
    deals = [Deal.new(rules, rng, dealer=rng.randrange(2)) for _ in range(n)]
    batch = BatchedDeals(n, rules, autoreset=False, seed=5, opponent="heuristic", opponent_seat="random")
    batch.reset(arrangements=[d.arrangement for d in deals])  # type: ignore[misc]
    seats = batch.opponent_seats
    assert set(seats.tolist()) == {0, 1}  # drawn per deal
    np.testing.assert_array_equal(batch.learner_seats, 1 - seats)
    for _ in range(40):
        over = batch.is_over
        assert (batch.current_player[~over] == 1 - seats[~over]).all()  # only the learner is asked
        if over.all():
            break
        batch.step(batch.sample_actions())  # a random learner (-1 where over)
    assert batch.is_over.all()
    opponent_moves = 0
    for i in range(n):  # replay: every opponent move is the heuristic's in that position
        d = Deal.from_arrangement(*_arrangement_args(batch, i))
        for x in batch.deal(i).history:  # entries are player << 5 | action
            a = x & 31
            if d.current_player == seats[i]:
                assert a == heuristic_deal_action(d), f"env {i}: {d.to_notation()}"
                opponent_moves += 1
            d.apply(a)
        assert d.outcome == batch.outcome(i)
    assert opponent_moves > 5 * n


def _arrangement_args(batch: BatchedDeals, i: int) -> tuple:
    h0, h1, stock, dealer = batch.arrangement(i)
    return (h0, h1), stock, dealer, batch.rules


def test_heuristic_beats_random_as_built_in_opponent() -> None:
    batch = BatchedDeals(256, "standard", seed=1, opponent="heuristic", opponent_seat="random")
    learner_points = 0
    for _ in range(300):
        seats = batch.learner_seats
        rewards, _ = batch.step(batch.sample_actions())
        learner_points += rewards[np.arange(256), seats].sum()
    assert learner_points < 0  # the random learner loses to the heuristic


# ---------------------------------------------------------------------- self-play API
def test_self_play_both_seats_from_the_caller() -> None:
    """Self-play: the caller acts for whichever seat is to act in each env (here the heuristic in
    seat 0 against a random seat 1); observations and masks come for that player."""
    n = 64
    batch = BatchedDeals(n, "santase", seed=4)
    obs, masks = batch.reset()
    points = np.zeros(2)
    deals_done = 0
    for step in range(400):
        seat = batch.current_player
        assert set(np.unique(seat).tolist()) <= {0, 1}
        if step % 40 == 0:  # the views are the players to act's, as the reference engine sees them
            np.testing.assert_array_equal(obs, batch.observe(seat))
            for i in range(0, n, 8):
                d = batch.deal(i)
                assert d.current_player == seat[i]
                np.testing.assert_array_equal(obs[i], encode_vector(InfoState.of(d, int(seat[i]))))
                np.testing.assert_array_equal(np.flatnonzero(masks[i]), d.legal_actions())
        actions = np.where(seat == 0, batch.heuristic_actions(), batch.sample_actions())
        obs, masks, rewards, done = batch.step_observe(actions)
        assert (rewards[:, 0] == -rewards[:, 1]).all()
        points += rewards.sum(axis=0)
        deals_done += int(done.sum())
    assert deals_done > 500
    assert points[0] > 0.5 * deals_done  # the heuristic seat wins clearly


# ---------------------------------------------------------------------- gymnasium.make_vec
def _make_vec(num_envs: int, **kwargs: object) -> SixtySixVectorEnv:
    env = gymnasium.make_vec("SixtySix-v0", num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(env, SixtySixVectorEnv)
    return env


def test_make_vec_returns_the_batched_vector_env_with_the_single_envs_arguments() -> None:
    env = _make_vec(16, opponent="heuristic", seat="random", rules="schnapsen", reward="shaped", claiming="explicit")
    assert env.rules.name == "schnapsen(claiming=explicit)" and env.rules.claiming == "explicit"
    assert env.deals.reward == "shaped" and env.opponent == "heuristic"
    assert env.spec is not None and env.spec.kwargs["rules"] == "schnapsen"
    obs, info = env.reset(seed=2)
    assert obs.shape == (16, 235) and obs.dtype == np.float32
    assert info["action_mask"].shape == (16, 32) and info["action_mask"].dtype == np.int8
    seats = info["seat"]
    assert set(seats.tolist()) == {0, 1}
    for i in range(16):  # the learner's view and mask, from his seat
        d = env.deals.deal(i)
        assert d.current_player == seats[i]
        np.testing.assert_array_equal(obs[i], encode_vector(InfoState.of(d, int(seats[i]))))
        assert np.flatnonzero(info["action_mask"][i]).tolist() == d.legal_actions()
    default = _make_vec(2)  # the single env's defaults: heuristic opponent, random seat, standard
    assert default.opponent == "heuristic" and default.seat_option == "random" and default.rules.name == "standard"
    fixed = _make_vec(4, opponent="random", seat=1, rules="russian", shaping_scale=0.5)
    _, info = fixed.reset(seed=0)
    assert (info["seat"] == 1).all() and fixed.deals.shaping_scale == 0.5


def test_make_vec_explains_unsupported_arguments() -> None:
    with pytest.raises(ValueError, match="'vector'"):
        _make_vec(2, observation="dict")
    with pytest.raises(ValueError, match="only 'deal'"):
        _make_vec(2, episode="match")
    with pytest.raises(ValueError, match="'random', 'heuristic'"):
        _make_vec(2, opponent="pimc")
    with pytest.raises(ValueError, match="render_mode"):
        _make_vec(2, render_mode="ansi")
    with pytest.raises(ValueError, match="seat"):
        _make_vec(2, seat=2)
    with pytest.raises(ValueError, match="claiming"):
        _make_vec(2, claiming="sometimes")
    assert _make_vec(2, render_mode=None, observation="vector", episode="deal").render_mode is None


def test_make_vec_rewards_final_observations_and_autoreset_match_the_reference() -> None:
    """Random seats, heuristic opponent: each step is replayed in the reference engine (the
    learner's action, then the heuristic's replies) to check rewards, ends and final views."""
    n = 12
    env = _make_vec(n, rules="standard", reward="game_points", seat="random", opponent="heuristic")
    obs, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    ended = 0
    for _ in range(200):
        refs = [env.deals.deal(i) for i in range(n)]
        seats = info["seat"].copy()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any() and info["action_mask"].dtype == np.int8
        for i in range(n):
            d, seat = refs[i], int(seats[i])
            before = (d.points[0], d.points[1])
            d.apply(int(actions[i]))
            while d.outcome is None and d.current_player != seat:
                d.apply(heuristic_deal_action(d))
            assert rewards[i] == step_rewards("game_points", d, before)[seat]
            assert terminated[i] == (d.outcome is not None)
            if terminated[i]:  # the finished deal as the learner saw it, then a new deal
                ended += 1
                np.testing.assert_array_equal(info["final_obs"][i], encode_vector(InfoState.of(d, seat)))
                assert info["final_info"]["seat"][i] == seat
                assert info["final_info"]["winner"][i] == d.outcome.winner
                new = env.deals.deal(i)
                assert new.outcome is None and new.trick_count == 0 and new.current_player == info["seat"][i]
            else:
                np.testing.assert_array_equal(obs[i], encode_vector(InfoState.of(d, seat)))
    assert ended > 100
    assert len(set(info["seat"].tolist())) == 2


def test_make_vec_seeded_runs_replay_exactly() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = _make_vec(8, rules="vu", seat="random", opponent="heuristic", reward="shaped")
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = [obs.copy(), info["seat"].copy()]
        for _ in range(120):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
            obs, rewards, terminated, _, info = env.step(actions)
            trace += [obs.copy(), rewards.copy(), terminated.copy(), info["seat"].copy()]
        return trace

    first, again, other = run(6), run(6), run(7)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


# ---------------------------------------------------------------------- stable-baselines3
def test_maskable_ppo_trains_against_the_heuristic_and_predicts_legal_actions() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from sixtysix_env.envs.sb3 import SixtySixSB3VecEnv

    env = SixtySixSB3VecEnv(16, "standard", opponent="heuristic", seat="random", seed=1)
    assert env.venv.opponent == "heuristic"
    model = MaskablePPO("MlpPolicy", VecMonitor(env), n_steps=32, batch_size=128, n_epochs=1, seed=1)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(1024)
    after = list(model.policy.parameters())
    assert any(not np.allclose(a.numpy(), b.detach().numpy()) for a, b in zip(before, after, strict=True))
    obs = env.reset()
    finished = 0
    for _ in range(60):  # masked predictions are legal: the env raises on an illegal action
        actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[np.arange(16), actions].all()
        obs, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            assert infos[i]["seat"] in (0, 1) and infos[i]["terminal_observation"].shape == (235,)
            finished += 1
    assert finished > 16


@pytest.mark.parametrize(
    ("holder", "line", "watched"),
    [
        ("fast.heuristic", "STATE_DIGEST", "state"),
        ("fast.kernels", "HEURISTIC_DIGEST", "heuristic"),
        ("agents.fast.solver", "KERNELS_DIGEST", "kernels"),
    ],
)
def test_numba_caches_are_recompiled_when_what_they_compile_in_changes(holder: str, line: str, watched: str) -> None:
    """Numba's cache of a file holds the functions and constants it uses from another file compiled
    in, but only watches its own file: the digest line makes an edit there change this file too."""
    import importlib

    from sixtysix_env.fast.digest import source_digest

    digest = source_digest(importlib.import_module(f"sixtysix_env.fast.{watched}").__file__)
    where = f"sixtysix_env/{holder.replace('.', '/')}.py"
    assert getattr(importlib.import_module(f"sixtysix_env.{holder}"), line) == digest, (
        f"sixtysix_env/fast/{watched}.py changed: set {line} = {digest!r} in {where} "
        f"so that numba recompiles what it compiled in from {watched}.py (then check the next link of the chain "
        "in sixtysix_env/fast/digest.py)"
    )
