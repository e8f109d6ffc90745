"""The PPO baseline (needs the ``train`` extra): a tiny training run end to end, the exported numpy
weights playing exactly as stable-baselines3, and the warning when an SB3 zip is loaded."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from sixtysix_env import Deal, InfoState
from sixtysix_env.agents.ppo import DEFAULT_MODEL, PPOAgent
from sixtysix_env.agents.ppo_export import UntrustedModelWarning, load_sb3_model
from sixtysix_env.observers import encode_vector

from .conftest import random_views
from .scripts import load_script

pytest.importorskip("sb3_contrib")

SHIPPED_ZIP = Path(__file__).resolve().parents[1] / "baselines" / "models" / "ppo_standard.zip"

ROOT = Path(__file__).resolve().parents[1]


def _train_ppo():
    return load_script("baselines/train_ppo.py")


TINY = [
    "--total-timesteps",
    "512",
    "--n-envs",
    "4",
    "--n-steps",
    "64",
    "--batch-size",
    "128",
    "--n-epochs",
    "1",
    "--warm-deals",
    "20",
    "--warm-epochs",
    "1",
    "--snapshot-every",
    "256",
    "--net-arch",
    "32,32",
    "--eval-pairs",
    "3",
    "--no-arena",
    "--no-progress",
]


def test_short_run_trains_saves_loads_and_predicts_legal_actions(tmp_path):
    out = tmp_path / "ppo.zip"
    metrics = _train_ppo().main([*TINY, "--rules", "schnapsen", "--out", str(out)])
    weights = out.with_suffix(".npz")
    assert out.exists() and metrics["model_bytes"] == out.stat().st_size
    assert weights.exists() and metrics["npz_bytes"] == weights.stat().st_size
    assert 0.0 <= metrics["eval/win_rate_vs_random"] <= 1.0 and metrics["eval/deals_vs_heuristic"] == 6
    assert "warm/accuracy" in metrics and "selfplay/win_rate_vs_heuristic" in metrics
    npz = PPOAgent(weights)
    assert npz.policy.meta["rules"] == "schnapsen"
    with pytest.warns(UntrustedModelWarning, match="runs any code"):
        from_zip = PPOAgent(out)
        assert from_zip.policy.meta["source"] == "ppo.zip"
    rng = random.Random(0)
    for info in random_views(10, seed=1):
        a = npz.act(info, rng)
        assert info.legal_mask >> a & 1 and from_zip.act(info, rng) == a
        assert info.legal_mask >> PPOAgent(weights, deterministic=False).act(info, rng) & 1


def test_training_is_reproducible_and_pimc_warm_start_runs(tmp_path):
    train = _train_ppo()
    args = [*TINY, "--total-timesteps", "256", "--eval-pairs", "0", "--warm-deals", "2", "--warm-start", "pimc"]
    args += ["--pimc-samples", "2"]
    a = train.main([*args, "--out", str(tmp_path / "a.zip")])
    b = train.main([*args, "--out", str(tmp_path / "b.zip")])
    assert a["warm/accuracy"] == b["warm/accuracy"] and a["warm/value_mse"] == b["warm/value_mse"]
    with np.load(tmp_path / "a.npz", allow_pickle=False) as fa, np.load(tmp_path / "b.npz", allow_pickle=False) as fb:
        assert fa.files == fb.files and all((fa[k] == fb[k]).all() for k in fa.files if k != "meta")


def test_options_parse_and_print_the_command():
    train = _train_ppo()
    opts = train.parse_args(["--total-timesteps", "10", "--no-arena", "--warm-start", "none"])
    assert opts.total_timesteps == 10 and opts.arena is False and opts.warm_start == "none"
    line = train.command_line(opts)
    assert line.startswith("python baselines/train_ppo.py") and "--no-arena" in line
    assert train.command_line(train.parse_args([])) == "python baselines/train_ppo.py"
    with pytest.raises(SystemExit):
        train.parse_args(["--help"])


def test_default_output_never_overwrites_the_shipped_model(capsys):
    train = _train_ppo()
    out = train.output_path(train.parse_args([]))
    assert out == ROOT / "results" / "ppo_standard.zip"
    assert out.with_suffix(".npz") != DEFAULT_MODEL and out != SHIPPED_ZIP
    assert train.output_path(train.parse_args(["--rules", "vu"])).name == "ppo_vu.zip"
    for bad, message in ((["--rules", "bridge"], "choose one of standard"), (["--out", "m.npz"], "must end in .zip")):
        with pytest.raises(SystemExit):
            train.parse_args(bad)
        assert message in capsys.readouterr().err


def test_numpy_weights_pick_exactly_sb3s_deterministic_action():
    """The shipped .npz against the SB3 zip it was exported from, on every decision of 400 random
    deals (match scores varied): the same action everywhere, and the same probabilities."""
    import torch

    with pytest.warns(UntrustedModelWarning):
        model = load_sb3_model(SHIPPED_ZIP)
    agent, rng = PPOAgent(), random.Random(7)
    infos = []
    for i in range(400):
        deal = Deal.new("standard", rng, dealer=i % 2, scores=(rng.randrange(7), rng.randrange(7)))
        while deal.outcome is None:
            infos.append(InfoState.of(deal, deal.current_player))
            deal.apply(rng.choice(deal.legal_actions()))
    obs = np.stack([encode_vector(info) for info in infos])
    masks = np.array([[info.legal_mask >> a & 1 for a in range(32)] for info in infos], dtype=bool)
    expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
    ours = np.array([agent.act(info, rng) for info in infos])
    assert len(infos) > 4000 and (ours == expected).all(), np.flatnonzero(ours != expected)[:10]
    with torch.no_grad():
        probs = model.policy.get_distribution(torch.as_tensor(obs[:500]), action_masks=masks[:500])
        probs = probs.distribution.probs.numpy()
    mine = np.stack([agent.action_probabilities(info) for info in infos[:500]])
    assert np.abs(probs - mine).max() < 1e-5


def test_exporter_cli_converts_a_zip_and_refuses_other_files(tmp_path, capsys):
    from sixtysix_env.agents import ppo_export

    out = tmp_path / "p.npz"
    with pytest.warns(UntrustedModelWarning):
        assert ppo_export.main([str(SHIPPED_ZIP), "--out", str(out)]) == out
    assert f"wrote {out}" in capsys.readouterr().out
    shipped, again = (np.load(p, allow_pickle=False) for p in (DEFAULT_MODEL, out))
    assert shipped.files == again.files and all((shipped[k] == again[k]).all() for k in shipped.files if k != "meta")
    for args, message in (([str(out)], "is not a .zip"), ([str(tmp_path / "no.zip")], "no PPO model")):
        with pytest.raises(SystemExit):
            ppo_export.main(args)
        assert message in capsys.readouterr().err
