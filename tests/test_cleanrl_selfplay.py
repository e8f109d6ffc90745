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


@pytest.mark.parametrize(
    ("script", "argv"),
    [
        ("examples/cleanrl_ppo.py", ["--num-envs", "16", "--num-steps", "32"]),
        ("examples/cleanrl_selfplay.py", ["--num-envs", "32", "--num-steps", "16"]),
    ],
)
def test_both_examples_close_with_the_line_the_benchmark_reads(script, argv, capsys) -> None:
    """``bench_training.py --selfplay`` reads each run's decisions, seconds and rollout seconds from
    its last line: a changed line would stop the benchmark, not a test, without this."""
    pytest.importorskip("stable_baselines3")  # bench_training.py's SB3 comparison imports it
    bench = load_script("benchmarks/bench_training.py")
    load_script(script).main([*argv, "--total-timesteps", "1024", "--eval-deals", "0", "--save-npz", ""])
    m = bench.TRAINED_LINE.search(capsys.readouterr().out)
    assert m is not None
    decisions, seconds, collecting = int(m.group(1)), int(m.group(2)), float(m.group(3))
    assert decisions == 1024 and 0 < collecting <= seconds + 0.5  # milliseconds at least; seconds rounded
