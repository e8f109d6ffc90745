"""``examples/cleanrl_selfplay.py``: a short run trains both seats with the league and saves weights
the ``ppo`` agent plays."""

from __future__ import annotations

import numpy as np
import pytest

from sixtysix_env.agents.mlp import MLPPolicy
from sixtysix_env.agents.ppo import MODELS_DIR

from .scripts import load_script

pytest.importorskip("torch")
pytest.importorskip("numba")


def test_a_short_run_from_init_trains_and_saves_arena_weights(tmp_path, capsys) -> None:
    example = load_script("examples/cleanrl_selfplay.py")
    init = MODELS_DIR / "cleanrl_standard.npz"
    out = tmp_path / "sp.npz"
    example.main(
        ["--total-timesteps", "2048", "--num-envs", "32", "--num-steps", "32", "--snapshot-every", "1",
         "--eval-deals", "0", "--init", str(init), "--save-npz", str(out)]
    )  # fmt: skip
    log = capsys.readouterr().out
    assert "league: {'self': 16, 'heuristic': 13, 'random': 0, 'past': 3} envs" in log
    assert "pool 3" in log  # the start and a snapshot after each of the two updates
    trained, start = MLPPolicy.load(out), MLPPolicy.load(init)
    obs = np.random.default_rng(0).random((4, 235), dtype=np.float32)
    moved = np.abs(trained.batch_logits(obs) - start.batch_logits(obs)).max()
    assert 0 < moved < 5  # it trained from the given weights, not from scratch

    from sixtysix_env.agents.spec import parse_agent_spec

    agent = parse_agent_spec(f"ppo:path={out}", game="two").make()
    assert agent is not None


def test_bad_league_shares_are_refused() -> None:
    example = load_script("examples/cleanrl_selfplay.py")
    with pytest.raises(SystemExit):
        example.parse_args(["--self", "0.8", "--heuristic", "0.4"])
