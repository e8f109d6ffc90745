"""The PPO baseline: a tiny training run end to end, and the shipped model playing legal moves."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sixtysix_env import Deal, InfoState
from sixtysix_env.agents.ppo import DEFAULT_MODEL, PPOAgent, load_model

pytest.importorskip("sb3_contrib")

ROOT = Path(__file__).resolve().parents[1]


def _train_ppo():
    spec = importlib.util.spec_from_file_location("train_ppo", ROOT / "baselines" / "train_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_ppo"] = module  # dataclasses look their module up while building Options
    spec.loader.exec_module(module)
    return module


def _positions(deals: int, seed: int) -> list[InfoState]:
    """The acting player's view at every decision of random deals."""
    rng = random.Random(seed)
    out = []
    for i in range(deals):
        deal = Deal.new("standard", rng, dealer=i % 2)
        while deal.outcome is None:
            out.append(InfoState.of(deal, deal.current_player))
            deal.apply(rng.choice(deal.legal_actions()))
    return out


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
    metrics = _train_ppo().main([*TINY, "--out", str(out)])
    assert out.exists() and metrics["model_bytes"] == out.stat().st_size
    assert 0.0 <= metrics["eval/win_rate_vs_random"] <= 1.0 and metrics["eval/deals_vs_heuristic"] == 6
    assert "warm/accuracy" in metrics and "selfplay/win_rate_vs_heuristic" in metrics
    for deterministic in (True, False):
        agent = PPOAgent(out, deterministic=deterministic)
        rng = random.Random(0)
        for info in _positions(10, seed=1):
            assert info.legal_mask >> agent.act(info, rng) & 1


def test_training_is_reproducible_and_pimc_warm_start_runs(tmp_path):
    train = _train_ppo()
    args = [*TINY, "--total-timesteps", "256", "--eval-pairs", "0", "--warm-deals", "2", "--warm-start", "pimc"]
    args += ["--pimc-samples", "2"]
    a = train.main([*args, "--out", str(tmp_path / "a.zip")])
    b = train.main([*args, "--out", str(tmp_path / "b.zip")])
    assert a["warm/accuracy"] == b["warm/accuracy"] and a["warm/value_mse"] == b["warm/value_mse"]
    pa, pb = (load_model(tmp_path / f"{x}.zip").policy.state_dict() for x in "ab")
    assert all((pa[k] == pb[k]).all() for k in pa)


def test_options_parse_and_print_the_command():
    train = _train_ppo()
    opts = train.parse_args(["--total-timesteps", "10", "--no-arena", "--warm-start", "none"])
    assert opts.total_timesteps == 10 and opts.arena is False and opts.warm_start == "none"
    line = train.command_line(opts)
    assert line.startswith("python baselines/train_ppo.py") and "--no-arena" in line
    assert train.command_line(train.parse_args([])) == "python baselines/train_ppo.py"
    with pytest.raises(SystemExit):
        train.parse_args(["--help"])


@pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="the shipped model is not trained yet")
def test_shipped_model_is_small_and_plays_only_legal_actions():
    assert DEFAULT_MODEL.stat().st_size < 5_000_000
    agent = PPOAgent()
    stochastic = PPOAgent(deterministic=False)
    rng = random.Random(3)
    for info in _positions(150, seed=2):
        assert info.legal_mask >> agent.act(info, rng) & 1
        assert info.legal_mask >> stochastic.act(info, rng) & 1
        probs = agent.action_probabilities(info)
        assert abs(probs.sum() - 1.0) < 1e-9
        assert all(info.legal_mask >> a & 1 for a in probs.nonzero()[0])


def test_seeded_stochastic_play_is_reproducible():
    path = DEFAULT_MODEL if DEFAULT_MODEL.exists() else None
    if path is None:
        pytest.skip("the shipped model is not trained yet")
    positions = _positions(5, seed=4)
    runs = []
    for _ in range(2):
        agent, rng = PPOAgent(deterministic=False), random.Random(9)
        runs.append([agent.act(info, rng) for info in positions])
    assert runs[0] == runs[1]


def test_import_needs_no_torch_and_missing_sb3_names_the_extra(tmp_path):
    code = (
        "import sys\n"
        "sys.modules['sb3_contrib'] = None\n"
        "from sixtysix_env.agents.ppo import PPOAgent\n"
        "assert 'torch' not in sys.modules, 'importing the ppo agent loaded torch'\n"
        "try:\n"
        "    PPOAgent().policy\n"
        "except ImportError as e:\n"
        "    assert \"'train' extra\" in str(e), e\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_missing_model_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"train_ppo\.py"):
        PPOAgent(tmp_path / "nope.zip").act(_positions(1, seed=0)[0], random.Random(0))
