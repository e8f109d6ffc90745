"""The ``ppo`` agent without torch: numpy weights in a file that cannot run code.

These tests need none of the ``train`` extra; the agreement with stable-baselines3 itself is
checked in ``test_train_ppo.py``.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sixtysix_env import Deal, InfoState
from sixtysix_env.agents import make_agent
from sixtysix_env.agents.mlp import MLPPolicy
from sixtysix_env.agents.pimc import PIMCAgent
from sixtysix_env.agents.ppo import DEFAULT_MODEL, PPOAgent, load_policy, stock_is_settled

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


# ------------------------------------------------------------------ endgame="search"
_SOLVER = "fast" if importlib.util.find_spec("numba") is not None else "python"


def test_endgame_search_hands_a_settled_stock_to_pimc_and_the_rest_to_the_network() -> None:
    hybrid = PPOAgent(model="fast_standard", endgame="search", endgame_samples=4, solver=_SOLVER)
    network, pimc = PPOAgent(model="fast_standard"), PIMCAgent(samples=4, solver=_SOLVER)
    counts = {True: 0, False: 0}
    differ = 0
    for info in random_views(40, seed=4):
        settled = info.closed_by >= 0 or info.stock_size == 0
        assert stock_is_settled(info) == settled
        counts[settled] += 1
        choice = hybrid.act(info, random.Random(1))
        assert choice == (pimc if settled else network).act(info, random.Random(1))
        differ += settled and choice != network.act(info, random.Random(1))
    assert min(counts.values()) >= 100
    assert differ > 0  # the search changes decisions, or this test shows nothing


def _settled_with_hidden_cards(d: Deal) -> bool:
    return d.closed_by >= 0 and len(d.legal_actions()) > 1 and d.information_state(d.current).unseen != 0


def test_endgame_search_ignores_hidden_cards() -> None:
    """After closing the opponent's hand is unknown: dealing it differently changes no decision."""
    agent = PPOAgent(model="fast_standard", endgame="search", endgame_samples=6, solver=_SOLVER)
    rng, found = random.Random(8), 0
    for i in range(400):
        d = Deal.new("standard", rng, dealer=i % 2)
        while d.outcome is None and not _settled_with_hidden_cards(d):
            actions = d.legal_actions()
            d.apply(29 if 29 in actions and rng.random() < 0.5 else rng.choice(actions))  # 29: close
        if d.outcome is not None:
            continue
        found += 1
        p = d.current
        for _ in range(2):
            other = InfoState.of(d.resample_hidden(p, rng), p)
            assert agent.act(InfoState.of(d, p), random.Random(5)) == agent.act(other, random.Random(5))
        if found == 12:
            break
    assert found == 12


def test_endgame_search_plays_every_preset_legally_and_pickles() -> None:
    from sixtysix_env.rules import preset_names

    agent = make_agent("ppo", endgame="search", endgame_samples=3, solver=_SOLVER)
    rng = random.Random(2)
    for rules in preset_names():
        agent.prepare(Deal.new(rules, rng).rules)
        for i in range(2):
            deal = Deal.new(rules, rng, dealer=i)
            while deal.outcome is None:
                info = InfoState.of(deal, deal.current_player)
                action = agent.act(info, rng) if deal.current_player == i else rng.choice(deal.legal_actions())
                assert action in deal.legal_actions()
                deal.apply(action)
    copy = pickle.loads(pickle.dumps(agent))
    assert repr(copy) == repr(agent) and "endgame='search', endgame_samples=3" in repr(agent)
    for info in random_views(3, seed=9):
        assert copy.act(info, random.Random(0)) == agent.act(info, random.Random(0))


def test_endgame_search_plays_the_model_trained_for_it() -> None:
    from sixtysix_env.agents.ppo import SEARCH_MODELS, SHIPPED_MODELS

    assert PPOAgent(endgame="search").path.stem == SEARCH_MODELS["standard"] == "fast_standard_solve"
    assert PPOAgent(rules="standard", endgame="search").path.stem == "fast_standard_solve"
    assert PPOAgent(rules="vu", endgame="search").path.stem == SHIPPED_MODELS["vu"]  # none trained for it
    assert PPOAgent(model="fast_standard", endgame="search").path.stem == "fast_standard"
    assert PPOAgent().path == DEFAULT_MODEL == PPOAgent(rules="standard").path  # the network alone: unchanged
    assert load_policy(PPOAgent(endgame="search").path).meta["rules"] == "standard"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"endgame": "pimc"}, "endgame='pimc' is not allowed: choose one of 'network', 'search'"),
        ({"endgame": "search", "endgame_samples": 0}, "endgame_samples=0 is not allowed"),
        ({"endgame": "search", "solver": "gpu"}, "solver='gpu' is not allowed: choose one of 'python', 'fast'"),
        (
            {"endgame_samples": 50},
            "endgame_samples=50 and solver=None set the search after the stock settles: they need endgame='search'",
        ),
        ({"solver": "python"}, "need endgame='search'"),
    ],
)
def test_endgame_options_are_checked(options, message) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        PPOAgent(**options)


# ---------------------------------------------------------------------- hostile model files (issue 20, item 15)
def test_finite_but_absurd_weights_are_refused_by_the_loader(tmp_path) -> None:
    good = load_policy()
    for value in (3e38, -3e38, 2e4):
        w0 = good.policy[0][0].copy()
        w0[0, 0] = value
        path = _write(tmp_path / "huge.npz", **{**_arrays(good), "policy_w0": w0})
        with pytest.raises(ValueError, match=r"huge\.npz: policy layer 0 holds a weight of magnitude .* at most 10000"):
            load_policy(path)


class _Logits(MLPPolicy):
    """A policy whose logits are given (to test the agent whatever the weights)."""

    def logits(self, obs: np.ndarray) -> np.ndarray:
        return self.meta["fixed"]


def _agents_with_logits() -> tuple[PPOAgent, PPOAgent, np.ndarray]:
    """A deterministic and a stochastic agent reading the logits from one array the test fills."""
    good, fixed = load_policy(), np.zeros(32)
    policy = _Logits(good.policy, good.value, {**good.meta, "fixed": fixed})
    agents = PPOAgent(deterministic=True), PPOAgent(deterministic=False)
    for agent in agents:
        agent._policy = policy
    return agents[0], agents[1], fixed


def test_the_agent_never_answers_an_illegal_action_whatever_its_logits() -> None:
    views = random_views(200, seed=5)
    rng = random.Random(0)
    det, sto, logits = _agents_with_logits()
    for info in views:
        legal = info.legal_actions()
        # every illegal action gets the largest logit, legal ones huge but finite, one underflowing
        logits[:] = 3e38
        for a in legal:
            logits[a] = -3e38 if a == legal[0] else 1e30
        assert info.legal_mask >> det.act(info, rng) & 1
        assert info.legal_mask >> sto.act(info, rng) & 1
    logits[:] = np.nan
    with pytest.raises(ValueError, match="not all finite"):
        det.act(views[0], rng)
    logits[:] = 0.0
    logits[views[0].legal_actions()[0]] = np.inf
    with pytest.raises(ValueError, match="not all finite"):
        sto.act(views[0], rng)


def _npy_header(shape: tuple[int, ...], dtype: str = "<f4") -> bytes:
    import io

    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": shape})
    return buf.getvalue()


def test_a_huge_declared_shape_is_a_value_error_naming_the_file(tmp_path) -> None:
    import zipfile

    good = load_policy()
    path = tmp_path / "shape.npz"
    np.savez(path, **_arrays(good))
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("policy_w9.npy", _npy_header((10**6, 10**6)) + b"\0" * 64)
    with pytest.raises(ValueError, match=r"shape\.npz .*declares shape \(1000000, 1000000\)"):
        load_policy(path)
    path2 = tmp_path / "short.npz"
    np.savez(path2, **_arrays(good))
    with zipfile.ZipFile(path2, "a") as z:  # a shape within the limits, but more than the member holds
        z.writestr("policy_w9.npy", _npy_header((1000, 1000)) + b"\0" * 64)
    with pytest.raises(ValueError, match=r"short\.npz .*holds only"):
        load_policy(path2)


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path, monkeypatch) -> None:
    import zipfile

    from sixtysix_env.agents import mlp

    path = tmp_path / "bomb.npz"
    chunk = bytes(1 << 20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z, z.open("policy_w0.npy", "w") as f:
        f.write(_npy_header((20 << 20,)))
        for _ in range(80):
            f.write(chunk)
    assert path.stat().st_size < 1 << 20  # 80 MiB inflated from well under 1 MiB
    inflated = []
    real_read = zipfile.ZipExtFile.read

    def counting_read(self, n=-1):
        out = real_read(self, n)
        inflated.append(len(out))
        return out

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting_read)
    with pytest.raises(ValueError, match=r"bomb\.npz .*once inflated: at most"):
        load_policy(path)
    assert sum(inflated) < 1 << 16
    assert mlp.MAX_FILE_BYTES < 80 << 20


def test_deeply_nested_meta_is_a_value_error_naming_the_file(tmp_path) -> None:
    good = load_policy()
    deep = "[" * 200_000 + "]" * 200_000
    path = _write(tmp_path / "deep.npz", **{**_arrays(good), "meta": np.array(deep)})
    with pytest.raises(ValueError, match=r"deep\.npz: 'meta' is JSON nested too deeply"):
        load_policy(path)


@pytest.mark.parametrize("stem", sorted(p.stem for p in DEFAULT_MODEL.parent.glob("*.npz")))
def test_every_shipped_model_plays_legally_from_its_view_alone(stem: str) -> None:
    """Every network in the package (``ppo:model=STEM``) plays only legal actions on its own rules,
    and the same action whatever the cards it cannot see."""
    agent = PPOAgent(model=stem)
    rules = agent.policy.meta["rules"]
    rng = random.Random(3)
    for _ in range(3):
        deal = Deal.new(rules, rng, dealer=rng.randrange(2))
        while deal.outcome is None:
            p = deal.current_player
            info = InfoState.of(deal, p)
            action = agent.act(info, rng)
            assert action in deal.legal_actions()
            if info.unseen:
                other = deal.resample_hidden(p, rng)
                assert agent.act(InfoState.of(other, p), rng) == action
            deal.apply(action)
