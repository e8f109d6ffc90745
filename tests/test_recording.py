"""Records written by the environments: the AEC wrapper for all three games, the Gymnasium one."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env import sixtysix_v0
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0
from sixtysix_env.envs.recording import RecordEpisodes, RecordGames
from sixtysix_env.records import from_record, load_record


def run_aec(env, episodes: int, seed: int = 0) -> list[list[int]]:
    """Random legal play; returns each episode's last deal history (the raw env's)."""
    rng = np.random.default_rng(seed)
    histories = []
    for k in range(episodes):
        env.reset(seed=seed + k)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        histories.append(list(env.unwrapped.deal.history))
    return histories


@pytest.mark.parametrize("module", [sixtysix_v0, sixtysix_three_v0, sixtysix_four_v0])
def test_every_finished_deal_is_recorded(module, tmp_path) -> None:
    env = RecordGames(module.env(), tmp_path)
    histories = run_aec(env, 3)
    assert [p.name for p in env.paths] == ["deal-000000.json", "deal-000001.json", "deal-000002.json"]
    for path, history in zip(env.paths, histories, strict=True):
        record = load_record(path)
        assert record["kind"] == "deal" and record["meta"]["source"] == "env"
        assert record["meta"]["env"] == module.raw_env.metadata["name"]
        assert record["players"] == env.unwrapped.possible_agents
        deal = from_record(record)
        assert deal.history == history and deal.outcome is not None


def test_a_match_episode_gives_one_match_record_or_one_per_deal(tmp_path) -> None:
    env = RecordGames(sixtysix_v0.env(episode="match"), tmp_path / "m")
    run_aec(env, 2, seed=4)
    assert len(env.paths) == 2
    for path in env.paths:
        record = load_record(path)
        assert record["kind"] == "match" and record["over"] is True
    scores = env.unwrapped.match.scores
    assert record["final_scores"] == list(scores)
    per_deal = RecordGames(sixtysix_v0.env(episode="match"), tmp_path / "d", per="deal")
    run_aec(per_deal, 1, seed=5)
    assert len(per_deal.paths) == len(per_deal.unwrapped.match.results) > 1


def test_table_match_records(tmp_path) -> None:
    env = RecordGames(sixtysix_four_v0.env(episode="match"), tmp_path)
    run_aec(env, 1, seed=1)
    record = load_record(env.paths[0])
    assert record["game"] == "four" and record["over"] is True
    assert len(from_record(record)) == len(env.unwrapped.match.results)


def test_trigger_chooses_the_episodes(tmp_path) -> None:
    env = RecordGames(sixtysix_v0.env(), tmp_path, trigger=lambda k: k % 2 == 0)
    run_aec(env, 5)
    assert [load_record(p)["meta"]["episode"] for p in env.paths] == [0, 2, 4]


def test_recorded_env_still_passes_the_api_test(tmp_path) -> None:
    api_test(RecordGames(sixtysix_v0.env(), tmp_path), num_cycles=200)


def test_existing_files_are_not_overwritten(tmp_path) -> None:
    (tmp_path / "deal-000000.json").write_text("mine", encoding="utf-8")
    env = RecordGames(sixtysix_v0.env(), tmp_path)
    run_aec(env, 1)
    assert env.paths[0].name == "deal-000001.json"
    assert (tmp_path / "deal-000000.json").read_text(encoding="utf-8") == "mine"


def test_an_episode_ended_by_an_illegal_move_is_not_recorded(tmp_path) -> None:
    env = RecordGames(sixtysix_v0.env(), tmp_path)
    env.reset(seed=0)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)  # PettingZoo's classic rule: the episode ends, the offender loses
    assert all(env.terminations.values())
    assert env.paths == [] and not list(tmp_path.iterdir())


def test_bad_wrapper_options(tmp_path) -> None:
    with pytest.raises(ValueError, match="per='match' needs an env made with episode='match'"):
        RecordGames(sixtysix_v0.env(), tmp_path, per="match")
    with pytest.raises(ValueError, match="per='game' is not allowed"):
        RecordGames(sixtysix_v0.env(), tmp_path, per="game")

    class OtherGame(AECEnv):
        metadata = {"name": "other"}  # noqa: RUF012

    with pytest.raises(ValueError, match="wraps a sixtysix environment"):
        RecordGames(OtherGame(), tmp_path)
    with pytest.raises(ValueError, match="wraps SixtySix-v0"):
        RecordEpisodes(gym.make("CartPole-v1"), tmp_path)


def run_gym(env, episodes: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    finals = []
    for k in range(episodes):
        _, info = env.reset(seed=seed + k)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, term, trunc, info = env.step(action)
            done = term or trunc
        finals.append((env.unwrapped.seat, list(env.unwrapped.deal.history)))
    return finals


def test_gymnasium_episodes_are_recorded(tmp_path) -> None:
    env = RecordEpisodes(gym.make("SixtySix-v0", opponent="random"), tmp_path)
    finals = run_gym(env, 3)
    assert len(env.paths) == 3
    for path, (seat, history) in zip(env.paths, finals, strict=True):
        record = load_record(path)
        assert record["players"][seat] == "learner" and record["players"][1 - seat] == "random"
        assert record["meta"]["env"] == "SixtySix-v0"
        assert from_record(record).history == history


def test_gymnasium_match_episodes(tmp_path) -> None:
    env = RecordEpisodes(gym.make("SixtySix-v0", opponent="heuristic", episode="match", rules="schnapsen"), tmp_path)
    run_gym(env, 1, seed=3)
    record = load_record(env.paths[0])
    assert record["kind"] == "match" and record["over"] is True
    assert record["rules"]["name"] == "schnapsen"
    assert record["final_scores"] == list(env.unwrapped.match.scores)
