"""Pictures of a deal: rgb_array frames in every env, PettingZoo's render test, a recorded video,
and the human render's dealt position and single result line."""

from __future__ import annotations

import itertools
import random

import gymnasium
import numpy as np
import pytest
from gymnasium.wrappers import RecordVideo
from pettingzoo.test import render_test

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env import Deal
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0, sixtysix_v0
from sixtysix_env.render_image import DEAL_FRAME_SIZE, TABLE_FRAME_SIZE, deal_frame, table_frame
from sixtysix_env.table import FourDeal

AEC = {"two": (sixtysix_v0, DEAL_FRAME_SIZE), "three": (sixtysix_three_v0, TABLE_FRAME_SIZE)}
AEC["four"] = (sixtysix_four_v0, TABLE_FRAME_SIZE)


def _first_legal(obs: dict) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def _red(frame: np.ndarray) -> np.ndarray:
    r, g, b = (frame[..., i].astype(int) for i in range(3))
    return (r > 160) & (g < 90) & (b < 90)


def _black(frame: np.ndarray) -> np.ndarray:
    return frame.astype(int).sum(axis=2) < 120


@pytest.mark.parametrize("game", list(AEC))
def test_aec_frames_have_one_size_and_follow_the_play(game):
    module, (width, height) = AEC[game]
    env = module.env(render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    env.reset(seed=5)
    frames = [env.render()]
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:  # the finished deal's last frame stays
            env.step(None)
            assert np.array_equal(env.render(), frames[-1])
            continue
        env.step(_first_legal(obs))
        frames.append(env.render())
    for f in frames:
        assert f.shape == (height, width, 3) and f.dtype == np.uint8
    assert all(not np.array_equal(a, b) for a, b in itertools.pairwise(frames))  # every action shows
    first = frames[0]
    assert _red(first).sum() > 500 and _black(first).sum() > 500  # red and black suits are drawn
    assert first.std() > 20  # not blank


@pytest.mark.parametrize("game", list(AEC))
def test_pettingzoo_render_test_in_every_mode(game):
    module, _ = AEC[game]
    render_test(lambda render_mode=None: module.env(render_mode=render_mode))


def test_a_frame_shows_every_card_of_both_hands():
    deal = Deal.from_arrangement(["AH TH KH QH JH 9H", "AC TC KC QC JC 9C"], "AS TS KS QS JS 9S AD TD KD QD JD 9D")
    frame = deal_frame(deal)
    hearts, clubs = frame[450:640, :600], frame[40:220, :600]  # player 0 below, player 1 above
    assert _red(hearts).sum() > 3000 and _red(clubs).sum() < 50
    assert _black(clubs).sum() > 3000
    stock_and_trump = frame[230:400, :180]
    assert _red(stock_and_trump).sum() > 200  # the face-up trump card (9 of diamonds)
    closed = deal.clone()
    closed.apply_all("C")
    assert _red(deal_frame(closed)[230:400, :180]).sum() < 50  # closed: the trump card lies face down


def test_a_frame_changes_with_the_information_it_shows():
    rng = random.Random(2)
    deal = Deal.new("standard", rng)
    plain = deal_frame(deal)
    assert not np.array_equal(plain, deal_frame(deal, match_scores=(3, 4)))
    assert not np.array_equal(plain, deal_frame(deal, last="player_1: play K♠"))
    four = FourDeal.new("pagat", rng)
    before = table_frame(four, [f"player_{p}" for p in range(4)])
    four.apply(four.legal_actions()[0])
    assert not np.array_equal(before, table_frame(four, [f"player_{p}" for p in range(4)]))


def test_record_video_of_a_sixtysix_v0_episode(tmp_path):
    env = gymnasium.make("SixtySix-v0", opponent="random", render_mode="rgb_array")
    env = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda episode: True, disable_logger=True)
    _, info = env.reset(seed=3)
    done = False
    steps = 0
    while not done:
        _obs, _reward, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
        steps += 1
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 5_000 and steps > 3


def test_human_render_shows_the_dealt_position_and_the_result_once(capsys):
    env = sixtysix_v0.env(render_mode="human")
    env.reset(seed=4)
    dealt = capsys.readouterr().out
    assert "player_0" in dealt and "to lead" in dealt and "match" not in dealt
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else _first_legal(obs))
    shown = capsys.readouterr().out
    assert shown.count("result:") == 1 and "match" not in shown


def test_human_render_gives_the_match_score_in_match_mode(capsys):
    env = sixtysix_v0.env(render_mode="human", episode="match")
    env.reset(seed=4)
    assert "match 0-0" in capsys.readouterr().out


def test_gym_human_render_gives_the_result_once(capsys):
    env = gymnasium.make("SixtySix-v0", opponent="random", render_mode="human")
    _, info = env.reset(seed=1)
    done = False
    while not done:
        _obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    out = capsys.readouterr().out
    assert out.count("result:") == 1 and "game point" in out and "match" not in out


@pytest.mark.parametrize("game", ["three", "four"])
def test_table_human_render_shows_the_dealt_position(game, capsys):
    module, _ = AEC[game]
    env = module.env(render_mode="human")
    env.reset(seed=2)
    assert "to act" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["two", "four"])
def test_panel_text_keeps_a_right_margin(game: str) -> None:
    """Issue 20, item 18: the side panel's text stops 14 px inside the panel, long words included."""
    from sixtysix_env.render_image import DEAL_FRAME_SIZE, TABLE_FRAME_SIZE, deal_frame, table_frame
    from sixtysix_env.table.four import FourDeal

    last = "player_0: " + "W" * 80 + " declare marriage " * 6
    if game == "two":
        deal = Deal.new("standard", random.Random(0), 0)
        frame, (w, h) = deal_frame(deal, ("player_0", "player_1"), last=last), DEAL_FRAME_SIZE
    else:
        deal = FourDeal.new("pagat", random.Random(0), 0)
        frame, (w, h) = table_frame(deal, [f"player_{p}" for p in range(4)], last=last), TABLE_FRAME_SIZE
    margin = frame[70 : h - 30, w - 16 - 12 : w - 16 - 2]  # 2 px left for antialiasing
    assert (margin == np.array([14, 58, 36], dtype=np.uint8)).all(axis=-1).mean() > 0.999
