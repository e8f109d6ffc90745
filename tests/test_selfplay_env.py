"""``envs.selfplay``: both seats' decisions from the batched engine, the league, per-seat GAE."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from sixtysix_env.agents.mlp import MLPPolicy
from sixtysix_env.agents.ppo import MODELS_DIR
from sixtysix_env.engine import IllegalActionError
from sixtysix_env.envs.selfplay import AGENTS, KINDS, SelfPlayVectorEnv, seat_advantages
from sixtysix_env.envs.vector_opponents import SnapshotPool
from sixtysix_env.infostate import InfoState
from sixtysix_env.observers import encode_vector

LEAGUE = {"self": 0.5, "heuristic": 0.25, "past": 0.25}


def _pool() -> SnapshotPool:
    pool = SnapshotPool(2)
    pool.add(MLPPolicy.load(MODELS_DIR / "cleanrl_standard.npz"))
    return pool


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def _reference(env: SelfPlayVectorEnv, i: int):
    """Env ``i``'s deal as a reference ``Deal`` (from the batch of its kind)."""
    kind = KINDS[env.kinds[i]]
    first = int(np.flatnonzero(env.kinds == env.kinds[i])[0])
    batch = env.batch(kind)
    assert batch is not None
    return batch.deal(i - first)


def test_masks_views_and_rewards_match_the_reference_engine_in_every_kind_of_env():
    env = SelfPlayVectorEnv(16, seed=3, league=LEAGUE, pool=_pool())
    assert env.league == {"self": 8, "heuristic": 4, "random": 0, "past": 4}
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = {k: 0 for k in ("self", "heuristic", "past")}
    seats_seen = set()
    for _ in range(150):
        deals = [_reference(env, i) for i in range(env.num_envs)]
        for i, d in enumerate(deals):
            p = int(infos["current_player"][i])
            assert d.current_player == p and infos["agent_selection"][i] == AGENTS[p]
            assert infos["action_mask"][i].tolist() == [(d.legal_mask() >> a) & 1 for a in range(32)]
            np.testing.assert_array_equal(obs[i], encode_vector(InfoState.of(d, p)))
            trained = env.trained_seats[i]
            assert trained[p] and (trained.all() if env.kinds[i] == 0 else not trained[1 - p])
            seats_seen.add((int(env.kinds[i]), p))
        actions = _random_actions(infos["action_mask"], rng)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert rewards.shape == (16, 2) and not truncated.any()
        np.testing.assert_array_equal(rewards.sum(axis=1), 0.0)  # zero-sum, both seats reported
        for i in range(env.num_envs):
            kind = KINDS[env.kinds[i]]
            if kind == "self":  # one action: the reference deal replays it
                d = deals[i]
                d.apply(int(actions[i]))
                assert terminated[i] == d.is_over
                if d.is_over:
                    w, g = d.outcome.winner, d.outcome.game_points
                    expect = [0.0, 0.0] if w < 0 else [float(g if s == w else -g) for s in (0, 1)]
                    assert rewards[i].tolist() == expect
                else:
                    assert rewards[i].tolist() == [0.0, 0.0]
            elif terminated[i]:  # the opponent's replies too: the batch's record of the deal
                first = int(np.flatnonzero(env.kinds == env.kinds[i])[0])
                b = env.batch(kind)
                w, g = int(b.last_winner[i - first]), int(b.last_game_points[i - first])
                assert rewards[i].tolist() == ([0.0, 0.0] if w < 0 else [float(g if s == w else -g) for s in (0, 1)])
            if terminated[i]:
                ended[kind] += 1
    assert min(ended.values()) > 0, ended
    assert {(0, 0), (0, 1), (1, 0), (1, 1), (3, 0), (3, 1)} <= seats_seen  # the learner drawn into both seats


def test_the_same_seed_replays_the_same_deals_seats_and_past_selves():
    def run(env: SelfPlayVectorEnv, seed: int) -> list[np.ndarray]:
        obs, infos = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = [obs, infos["current_player"]]
        for _ in range(60):
            obs, r, term, _, infos = env.step(_random_actions(infos["action_mask"], rng))
            out += [obs, r, term, infos["current_player"], env.trained_seats]
        return out

    a = SelfPlayVectorEnv(12, seed=5, league=LEAGUE, pool=_pool())
    first = run(a, 5)
    for again in (run(SelfPlayVectorEnv(12, seed=9, league=LEAGUE, pool=_pool()), 5), run(a, 5)):
        for x, y in zip(first, again, strict=True):
            np.testing.assert_array_equal(x, y)
    other = run(a, 6)
    assert any(not np.array_equal(x, y) for x, y in zip(first, other, strict=True))


def test_bad_actions_raise_naming_what_is_allowed_and_change_nothing():
    env = SelfPlayVectorEnv(4, seed=0, league={"self": 0.5, "heuristic": 0.5})
    _obs, infos = env.reset(seed=0)
    before = [_reference(env, i).history for i in range(4)]
    legal = np.flatnonzero(infos["action_mask"][2]).tolist()
    bad = next(a for a in range(32) if a not in legal)
    actions = _random_actions(infos["action_mask"], np.random.default_rng(0))
    actions[2] = bad
    with pytest.raises(IllegalActionError, match=rf"env 2 .*{legal}"):
        env.step(actions)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        env.step(actions[:3])
    with pytest.raises(ValueError, match="integers"):
        env.step(actions.astype(np.float32))
    assert [_reference(env, i).history for i in range(4)] == before
    actions[2] = legal[0]
    env.step(actions)  # the env still steps


def test_bad_options_are_refused_by_name():
    with pytest.raises(ValueError, match="league kind"):
        SelfPlayVectorEnv(4, league={"selfplay": 1.0})
    with pytest.raises(ValueError, match="more than 1"):
        SelfPlayVectorEnv(4, league={"self": 0.7, "heuristic": 0.7})
    with pytest.raises(ValueError, match="pool=SnapshotPool"):
        SelfPlayVectorEnv(4, league={"past": 0.5})
    with pytest.raises(ValueError, match="pool is empty"):
        SelfPlayVectorEnv(4, league={"past": 0.5}, pool=SnapshotPool(2)).reset(seed=0)
    with pytest.raises(ValueError, match="num_envs"):
        SelfPlayVectorEnv(0)
    with pytest.raises(RuntimeError, match="reset"):
        SelfPlayVectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_dict_observations_and_pgx_names():
    env = SelfPlayVectorEnv(3, seed=1, mask_in_observation=True)
    obs, infos = env.reset(seed=1)
    assert set(obs) == {"observation", "action_mask"} and obs["observation"].shape == (3, 235)
    np.testing.assert_array_equal(obs["action_mask"], infos["action_mask"])
    np.testing.assert_array_equal(env.legal_action_mask, infos["action_mask"].astype(bool))
    assert env.possible_agents == ("player_0", "player_1") and env.num_agents == 2
    views = env.observe(1 - env.current_player)
    d = _reference(env, 0)
    np.testing.assert_array_equal(views[0], encode_vector(InfoState.of(d, 1 - d.current_player)))


def test_the_pool_freezes_copies_and_replaces_the_oldest():
    shipped = MLPPolicy.load(MODELS_DIR / "cleanrl_standard.npz")
    pool = SnapshotPool(2)
    pool.add(shipped, "a")
    shipped.policy[-1][1][:] += 100.0  # training on the source must not change the member
    assert not np.array_equal(pool.members[0].policy.policy[-1][1], shipped.policy[-1][1])
    pool.add(shipped, "b")
    pool.add(shipped, "c")
    assert [m.name for m in pool.members] == ["c", "b"] and len(pool) == 2
    with pytest.raises(ValueError, match="MLPPolicy"):
        pool.add("not a network")  # type: ignore[arg-type]


# ---------------------------------------------------------------------- per-seat GAE
def _brute_force(cp, rew, term, val, last, gamma, lam):
    """Each seat's transitions chained explicitly: next decision of the same seat in the same deal."""
    t_steps, n = cp.shape
    adv = np.zeros((t_steps, n))
    for i in range(n):
        for p in (0, 1):
            steps = [t for t in range(t_steps) if cp[t, i] == p]
            # (reward, next value, alive) of each of p's decisions
            deltas, alive = [], []
            for t in steps:
                r, u, ended = 0.0, t, False
                while True:
                    r += rew[u, i, p]
                    if term[u, i]:
                        ended = True
                        break
                    u += 1
                    if u == t_steps or cp[u, i] == p:
                        break
                nxt = 0.0 if ended else (last[i, p] if u == t_steps else val[u, i])
                deltas.append(r + gamma * nxt * (not ended) - val[t, i])
                alive.append(not ended and u < t_steps)
            acc = 0.0
            for k in range(len(steps) - 1, -1, -1):
                acc = deltas[k] + (gamma * lam * acc if alive[k] else 0.0)
                adv[steps[k], i] = acc
    return adv


def test_seat_advantages_of_a_worked_deal():
    # one env: seats 0, 1, 0, 1 play a deal that seat 0 wins by 2 on step 3; step 4 starts the next
    cp = np.array([[0], [1], [0], [1], [0]])
    rew = np.zeros((5, 1, 2))
    rew[3, 0] = [2.0, -2.0]
    term = np.array([[False], [False], [False], [True], [False]])
    val = np.zeros((5, 1))
    last = np.array([[0.5, -0.5]])
    _adv, ret = seat_advantages(cp, rew, term, val, last, gamma=1.0, lam=1.0)
    assert ret[:, 0].tolist() == [2.0, -2.0, 2.0, -2.0, 0.5]  # the loser's last move is credited too


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 4), st.sampled_from([1.0, 0.9]))
def test_seat_advantages_equal_the_brute_force_chains(seed, t_steps, n, gamma):
    rng = np.random.default_rng(seed)
    cp = rng.integers(0, 2, (t_steps, n))
    term = rng.random((t_steps, n)) < 0.25
    rew = np.zeros((t_steps, n, 2))
    rew[..., 0] = rng.normal(size=(t_steps, n)) * (rng.random((t_steps, n)) < 0.5)
    rew[..., 1] = -rew[..., 0]
    val, last = rng.normal(size=(t_steps, n)), rng.normal(size=(n, 2))
    adv, ret = seat_advantages(cp, rew, term, val, last, gamma=gamma, lam=0.95)
    np.testing.assert_allclose(adv, _brute_force(cp, rew, term, val, last, gamma, 0.95), atol=1e-9)
    np.testing.assert_allclose(ret, adv + val)


def test_seat_advantages_refuse_wrong_shapes():
    with pytest.raises(ValueError, match=r"rewards \(T, N, 2\)"):
        seat_advantages(np.zeros((3, 2), int), np.zeros((3, 2)), np.zeros((3, 2)), np.zeros((3, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="last_values"):
        seat_advantages(np.zeros((3, 2), int), np.zeros((3, 2, 2)), np.zeros((3, 2)), np.zeros((3, 2)), np.zeros(2))
