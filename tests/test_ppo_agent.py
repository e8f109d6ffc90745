"""The ``ppo`` agent without torch: numpy weights in a file that cannot run code.

These tests need none of the ``train`` extra; the agreement with stable-baselines3 itself is
checked in ``test_train_ppo.py``.
"""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sixtysix_env import Deal, InfoState
from sixtysix_env.agents import make_agent
from sixtysix_env.agents.mlp import MLPPolicy
from sixtysix_env.agents.ppo import DEFAULT_MODEL, PPOAgent, load_policy

from .conftest import random_views

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_weights_play_with_numpy_only_and_never_import_torch() -> None:
    """A fresh interpreter where torch and SB3 cannot be imported at all plays the shipped agent."""
    code = (
        "import sys, random\n"
        "for m in ('torch', 'stable_baselines3', 'sb3_contrib'):\n"
        "    sys.modules[m] = None  # any import of them raises ImportError\n"
        "from sixtysix_env import Deal\n"
        "from sixtysix_env.agents import make_agent\n"
        "agent, rng = make_agent('ppo'), random.Random(0)\n"
        "for i in range(20):\n"
        "    d = Deal.new('standard', rng, dealer=i % 2)\n"
        "    while d.outcome is None:\n"
        "        p = d.current_player\n"
        "        d.apply(agent.act(d.information_state(p), rng) if p == 0 else rng.choice(d.legal_actions()))\n"
        "heavy = ('torch', 'sb3_contrib', 'stable_baselines3')\n"
        "loaded = [k for k, m in sys.modules.items() if m is not None and k.split('.')[0] in heavy]\n"
        "print('played', loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "played []"


def test_shipped_weights_are_small_and_record_their_layout() -> None:
    assert DEFAULT_MODEL.suffix == ".npz" and DEFAULT_MODEL.stat().st_size < 2_000_000
    policy = load_policy()
    assert policy.meta["activation"] == "tanh" and policy.meta["rules"] == "standard"
    assert policy.meta["observation"] == "vector" and policy.meta["normalization"] == "none"
    assert [w.shape for w, _ in policy.policy] == [(256, 235), (256, 256), (32, 256)]
    assert [w.shape for w, _ in policy.value] == [(256, 235), (256, 256), (1, 256)]
    with np.load(DEFAULT_MODEL, allow_pickle=False) as f:
        assert all(f[k].dtype != object for k in f.files)


def test_agent_plays_legal_actions_and_its_probabilities_sum_to_one() -> None:
    agent, stochastic, rng = PPOAgent(), make_agent("ppo", deterministic=False), random.Random(3)
    for info in random_views(60, seed=2):
        assert info.legal_mask >> agent.act(info, rng) & 1
        assert info.legal_mask >> stochastic.act(info, rng) & 1
        probs = agent.action_probabilities(info)
        assert abs(probs.sum() - 1.0) < 1e-9 and int(np.argmax(probs)) == agent.act(info, rng)
        assert all(info.legal_mask >> a & 1 for a in probs.nonzero()[0])


def test_seeded_stochastic_play_is_reproducible_and_agents_pickle() -> None:
    positions = random_views(5, seed=4)
    runs = []
    for _ in range(2):
        agent, rng = pickle.loads(pickle.dumps(PPOAgent(deterministic=False))), random.Random(9)
        runs.append([agent.act(info, rng) for info in positions])
    assert runs[0] == runs[1]
    assert len(set(runs[0])) > 1


def _write(path: Path, **arrays: np.ndarray) -> Path:
    np.savez(path, **arrays)
    return path


def _arrays(policy: MLPPolicy, **meta: object) -> dict[str, np.ndarray]:
    out = {"meta": np.array(json.dumps({"format": "sixtysix-mlp", "version": 1, **policy.meta, **meta}))}
    for name, layers in (("policy", policy.policy), ("value", policy.value)):
        for i, (w, b) in enumerate(layers):
            out[f"{name}_w{i}"], out[f"{name}_b{i}"] = w, b
    return out


def test_a_crafted_file_is_refused_without_running_code(tmp_path) -> None:
    marker = tmp_path / "pwned"

    class Crafted:
        def __reduce__(self):
            return (Path.touch, (marker,))

    crafted = _write(tmp_path / "crafted.npz", meta=np.array([Crafted()], dtype=object))
    with pytest.raises(ValueError, match=r"crafted\.npz is not a policy weights file"):
        PPOAgent(crafted).act(random_views(1, 0)[0], random.Random(0))
    assert not marker.exists()


def test_bad_weight_files_and_paths_are_clear_errors(tmp_path) -> None:
    good = load_policy()
    info = random_views(1, 0)[0]
    cases = {
        "no meta": ({k: v for k, v in _arrays(good).items() if k != "meta"}, "no 'meta'"),
        "other format": (_arrays(good, format="pickle"), "not a sixtysix-mlp version 1"),
        "bad activation": (_arrays(good, activation="gelu"), "activation 'gelu'"),
        "normalised": (_arrays(good, normalization="running_mean"), "normalization"),
        "wrong size": ({**_arrays(good), "policy_w1": np.zeros((256, 7), np.float32)}, "do not take 256 inputs"),
        "float64": ({**_arrays(good), "value_b2": np.zeros(1)}, "expected float32"),
        "nan": ({**_arrays(good), "policy_b0": np.full(256, np.nan, np.float32)}, "non-finite"),
        "extra": ({**_arrays(good), "policy_b9": np.zeros(3, np.float32)}, "unexpected arrays"),
    }
    for name, (arrays, message) in cases.items():
        path = _write(tmp_path / f"{name.replace(' ', '_')}.npz", **arrays)
        with pytest.raises(ValueError, match=message):
            PPOAgent(path).act(info, random.Random(0))
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a policy weights file"):
        load_policy(tmp_path / "junk.npz")
    with pytest.raises(FileNotFoundError, match=r"train_ppo\.py"):
        PPOAgent(tmp_path / "nope.npz")
    with pytest.raises(ValueError, match=r"must be a \.npz"):
        PPOAgent(tmp_path / "model.pkl")
    with pytest.raises(ValueError, match="deterministic must be True or False"):
        PPOAgent(deterministic="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"policy weights go to a \.npz"):
        good.save(tmp_path / "x.zip")


def test_saved_weights_load_back_identical(tmp_path) -> None:
    good = load_policy()
    back = MLPPolicy.load(good.save(tmp_path / "copy.npz"))
    assert back.meta == good.meta
    for a, b in zip(good.policy + good.value, back.policy + back.value, strict=True):
        assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    obs = np.random.default_rng(0).random(235, dtype=np.float32)
    assert (back.logits(obs) == good.logits(obs)).all()
    assert back.predict_value(obs) == good.predict_value(obs)


def test_an_sb3_zip_without_the_train_extra_names_it(tmp_path) -> None:
    (tmp_path / "model.zip").write_bytes(b"PK")
    code = (
        "import sys\n"
        "sys.modules['sb3_contrib'] = None\n"
        "from sixtysix_env.agents.ppo import PPOAgent\n"
        f"agent = PPOAgent({str(tmp_path / 'model.zip')!r})\n"
        "try:\n"
        "    agent.policy\n"
        "except ImportError as e:\n"
        "    assert \"'train' extra\" in str(e), e\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_preset_with_a_shipped_model_plays_its_rules_legally() -> None:
    from sixtysix_env.agents.ppo import SHIPPED_MODELS, shipped_model

    for rules, stem in SHIPPED_MODELS.items():
        agent = make_agent("ppo", rules=rules)
        assert agent.path == shipped_model(rules=rules) and agent.path.stem == stem
        assert agent.policy.meta["rules"] in (rules, "standard")  # the standard model where it measured stronger
        rng = random.Random(1)
        deal = Deal.new(rules, rng)
        while deal.outcome is None:
            action = agent.act(InfoState.of(deal, deal.current_player), rng)
            assert action in deal.legal_actions()
            deal.apply(action)
    assert PPOAgent(model="ppo_standard").path == DEFAULT_MODEL == PPOAgent(rules="standard").path


def test_shipped_model_choices_are_checked() -> None:
    from sixtysix_env.agents.ppo import SHIPPED_MODELS

    assert {"standard", "vu"} <= set(SHIPPED_MODELS)
    listed = ", ".join(SHIPPED_MODELS)
    with pytest.raises(ValueError, match=f"no shipped ppo model for rules 'bogus': models ship for {listed}$"):
        PPOAgent(rules="bogus")
    with pytest.raises(ValueError, match=r"no shipped ppo model 'nope': choose one of .*ppo_standard"):
        PPOAgent(model="nope")
    with pytest.raises(ValueError, match="not both"):
        PPOAgent(rules="standard", model="ppo_standard")
    with pytest.raises(ValueError, match="not both"):
        PPOAgent(DEFAULT_MODEL, rules="standard")
