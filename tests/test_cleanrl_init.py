"""``examples/cleanrl_ppo.py --init``: a run continues from numpy weights it wrote."""

from __future__ import annotations

import numpy as np
import pytest

from sixtysix_env.agents.mlp import MLPPolicy
from sixtysix_env.agents.ppo import MODELS_DIR

from .scripts import load_script

pytest.importorskip("torch")


@pytest.mark.parametrize("model", ["cleanrl_standard", "cleanrl_standard_long"])
def test_init_takes_the_weights_exactly(model: str) -> None:
    cleanrl = load_script("examples/cleanrl_ppo.py")
    path = MODELS_DIR / f"{model}.npz"
    agent = cleanrl.Agent(235, 32, 256)
    agent.load_mlp(str(path))
    again, shipped = agent.to_mlp("test"), MLPPolicy.load(path)
    obs = np.random.default_rng(0).random((8, 235), dtype=np.float32)
    assert np.array_equal(again.batch_logits(obs), shipped.batch_logits(obs))
    assert again.predict_value(obs[0]) == shipped.predict_value(obs[0])


def test_init_refuses_a_network_of_another_size() -> None:
    cleanrl = load_script("examples/cleanrl_ppo.py")
    agent = cleanrl.Agent(235, 32, 64)
    with pytest.raises(SystemExit, match=r"policy layers are .*256.*--hidden"):
        agent.load_mlp(str(MODELS_DIR / "cleanrl_standard.npz"))


def test_init_refuses_a_missing_or_foreign_file_by_name(tmp_path) -> None:
    cleanrl = load_script("examples/cleanrl_ppo.py")
    agent = cleanrl.Agent(235, 32, 256)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(SystemExit, match=r"--init .*junk\.npz: .*not a policy weights file"):
        agent.load_mlp(str(junk))
    with pytest.raises(SystemExit, match=r"--init .*nope\.npz: no policy weights"):
        agent.load_mlp(str(tmp_path / "nope.npz"))
