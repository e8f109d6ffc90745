"""Averaging networks (``agents.mlp.average_policies``, ``baselines/average_models.py``): the one
wider network computes the mean of the members' logits and values, and the shipped ensemble is
that mean of the two models it names."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sixtysix_env.agents.mlp import MLPPolicy, average_policies
from sixtysix_env.agents.ppo import MODELS_DIR, load_policy

from .scripts import load_script


def _random_policy(seed: int, hidden: tuple[int, ...] = (7, 5), activation: str = "tanh") -> MLPPolicy:
    rng = np.random.default_rng(seed)

    def layers(out: int) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        sizes = [11, *hidden, out]
        return tuple(
            (rng.normal(size=(o, i)).astype(np.float32), rng.normal(size=o).astype(np.float32))
            for i, o in itertools.pairwise(sizes)
        )

    meta = {
        "activation": activation,
        "observation": "vector",
        "observation_size": 11,
        "num_actions": 4,
        "normalization": "none",
        "rules": "standard",
        "source": f"test {seed}",
    }
    return MLPPolicy(layers(4), layers(1), meta)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
@pytest.mark.parametrize("count", [2, 3])
def test_the_average_computes_the_mean_of_the_members_logits_and_values(activation: str, count: int) -> None:
    members = [_random_policy(s, activation=activation) for s in range(count)]
    merged = average_policies(members, source="test")
    x = np.random.default_rng(9).normal(size=(50, 11)).astype(np.float32)
    want = np.mean([m.batch_logits(x) for m in members], axis=0)
    np.testing.assert_allclose(merged.batch_logits(x), want, rtol=1e-5, atol=1e-5)
    assert merged.predict_value(x[0]) == pytest.approx(np.mean([m.predict_value(x[0]) for m in members]), abs=1e-5)
    assert [w.shape[0] for w, _ in merged.policy] == [7 * count, 5 * count, 4]


def test_networks_of_different_shapes_or_activations_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 networks"):
        average_policies([_random_policy(0)], source="x")
    with pytest.raises(ValueError, match=r"activation='relu'.*cannot be averaged"):
        average_policies([_random_policy(0), _random_policy(1, activation="relu")], source="x")
    with pytest.raises(ValueError, match="different number of layers"):
        average_policies([_random_policy(0), _random_policy(1, hidden=(7,))], source="x")


def test_the_shipped_ensemble_is_the_mean_of_the_two_networks_it_names(tmp_path) -> None:
    shipped = load_policy(MODELS_DIR / "ensemble_standard.npz")
    assert shipped.meta["source"] == "mean of cleanrl_standard_long.npz + league_standard_solve.npz"
    script = load_script("baselines/average_models.py")
    out = script.main(["cleanrl_standard_long", "league_standard_solve", "--out", str(tmp_path / "e.npz")])
    rebuilt = load_policy(out)
    for a, b in zip(shipped.policy + shipped.value, rebuilt.policy + rebuilt.value, strict=True):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["cleanrl_standard_long", "--out", "e.npz"], "at least 2 models"),
        (["cleanrl_standard_long", "league_standard_solve", "--out", "e.txt"], "must name a .npz"),
        (["cleanrl_standard_long", "no_such", "--out", "e.npz"], "no shipped ppo model 'no_such': choose one of"),
        (["cleanrl_standard_long", "missing/e.npz", "--out", "e.npz"], "no PPO model at"),
    ],
)
def test_the_script_refuses_bad_arguments_with_a_usage_error(argv: list[str], message: str, capsys, tmp_path) -> None:
    script = load_script("baselines/average_models.py")
    with pytest.raises(SystemExit) as e:
        script.main([a if not a.startswith("e.") else str(tmp_path / a) for a in argv])
    assert e.value.code == 2
    assert message in capsys.readouterr().err
