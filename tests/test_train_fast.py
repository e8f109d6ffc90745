"""The fast PPO trainer (``baselines/train_fast.py``, needs torch and numba): tiny runs end to end,
the saved weights playing legal moves through ``PPOAgent``, seeds reproducing, teacher labels,
and clear errors for bad options."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from sixtysix_env import Deal, InfoState
from sixtysix_env.agents import make_agent
from sixtysix_env.agents.ppo import PPOAgent

from .scripts import load_script

if os.environ.get("CI") != "true":  # in CI torch is installed: a missing torch must fail there
    pytest.importorskip("torch")
    pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[1]


def _module():
    return load_script("baselines/train_fast.py")


tf = _module()

TINY = ["--steps", "600", "--num-envs", "32", "--n-steps", "8", "--minibatch", "128", "--bc-deals", "30",
        "--bc-epochs", "1", "--eval-pairs", "20", "--snapshot-every", "200", "--league", "2", "--no-plot",
        "--quiet"]  # fmt: skip


def _run(tmp_path: Path, name: str, *extra: str) -> dict:
    return tf.main([*TINY, "--out", str(tmp_path / f"{name}.npz"), *extra])


def _play(agent: PPOAgent, rules: str, deals: int = 5) -> int:
    """Deals of the agent against itself; every move it picks must be legal. Returns decisions."""
    rng = random.Random(0)
    moves = 0
    for i in range(deals):
        deal = Deal.new(rules, rng, dealer=i % 2)
        while deal.outcome is None:
            info = InfoState.of(deal, deal.current_player)
            action = agent.act(info, rng)
            assert action in deal.legal_actions()
            deal.apply(action)
            moves += 1
    return moves


def test_tiny_run_writes_weights_log_and_plays_legal_moves(tmp_path):
    summary = _run(tmp_path, "tiny", "--plot")
    out = tmp_path / "tiny.npz"
    assert summary["samples"] >= 600
    rows = (tmp_path / "tiny.csv").read_text().splitlines()
    assert rows[0] == "wall_s,samples,iteration,points_per_deal,ci95,win_rate"
    assert len(rows) >= 3  # before PPO and at the end
    assert (tmp_path / "tiny.png").read_bytes()[:4] == b"\x89PNG"
    agent = PPOAgent(out)
    assert agent.policy.meta["rules"] == "standard"
    assert _play(agent, "standard") > 0
    spec_agent = make_agent("ppo", path=str(out))
    assert _play(spec_agent, "standard", deals=1) > 0


def test_same_seed_same_weights_other_seed_other_weights(tmp_path):
    _run(tmp_path, "a", "--seed", "3")
    _run(tmp_path, "b", "--seed", "3")
    _run(tmp_path, "c", "--seed", "4")
    load = lambda n: np.load(tmp_path / f"{n}.npz")  # noqa: E731
    a, b, c = load("a"), load("b"), load("c")
    weights = [k for k in a.files if k != "meta"]
    assert all(np.array_equal(a[k], b[k]) for k in weights)
    assert not all(np.array_equal(a[k], c[k]) for k in weights)


def test_every_two_player_preset_trains(tmp_path):
    from sixtysix_env.rules import preset_names

    for rules in preset_names():
        _run(tmp_path, rules, "--rules", rules, "--steps", "100", "--bc-deals", "8", "--eval-pairs", "4")
        agent = PPOAgent(tmp_path / f"{rules}.npz")
        assert agent.policy.meta["rules"] == rules
        assert _play(agent, rules, deals=1) > 0


def _teacher_file(path: Path, with_value: bool) -> Path:
    """Labels made like a teacher would: heuristic self-play decisions, saved as the documented arrays."""
    labels = tf.heuristic_labels(tf.get_rules("standard"), 20, 0.2, 0.0, seed=9)
    arrays = {"obs": labels.obs, "mask": labels.mask, "action": labels.action}
    if with_value:
        arrays["value"] = labels.value
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("with_value", [True, False])
def test_teacher_labels_alone_fit_the_teacher(tmp_path, with_value):
    path = _teacher_file(tmp_path / "teacher.npz", with_value)
    loaded = tf.load_teacher_labels(path)
    assert loaded.obs.shape[1] == 235 and len(loaded) > 100
    assert np.isnan(loaded.value).all() != with_value
    opts = tf.check_options(tf.Options(steps=1, bc_deals=0, teacher_labels=str(path), bc_epochs=30, minibatch=256))
    trainer = tf.Trainer(opts)
    stats = tf.behaviour_clone(trainer.nets, loaded, opts, trainer.gen)
    assert stats["labels"] == len(loaded)
    assert stats["accuracy"] > 0.6  # a random masked policy agrees far less often
    _run(tmp_path, "taught", "--bc-deals", "0", "--teacher-labels", str(path))
    assert _play(PPOAgent(tmp_path / "taught.npz"), "standard", deals=1) > 0


def test_bad_teacher_labels_are_refused_by_name(tmp_path):
    path = _teacher_file(tmp_path / "t.npz", True)
    data = dict(np.load(path))
    bad_mask = data["mask"].copy()
    bad_mask[0, data["action"][0]] = False
    np.savez(tmp_path / "illegal.npz", **{**data, "mask": bad_mask})
    with pytest.raises(ValueError, match=r"label 0 plays action \d+, illegal"):
        tf.load_teacher_labels(tmp_path / "illegal.npz")
    np.savez(tmp_path / "short.npz", obs=data["obs"][:, :10], mask=data["mask"], action=data["action"])
    with pytest.raises(ValueError, match=r"expected \(N, 235\)"):
        tf.load_teacher_labels(tmp_path / "short.npz")
    np.savez(tmp_path / "noaction.npz", obs=data["obs"], mask=data["mask"])
    with pytest.raises(ValueError, match="lacks \\['action'\\]"):
        tf.load_teacher_labels(tmp_path / "noaction.npz")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--steps", "10", "--rules", "bogus"], "--rules 'bogus': choose a two-player preset"),
        (["--rules", "standard"], "give a budget"),
        (["--steps", "10", "--opponents", "heuristic=1,alien=2"], "unknown opponent 'alien'"),
        (["--steps", "10", "--opponents", "heuristic"], "write kind=share"),
        (["--steps", "10", "--opponents", "random=-1"], "must be a finite number >= 0"),
        (["--steps", "10", "--opponents", "random=0"], "add up to 0"),
        (["--steps", "10", "--out", "model.zip"], "must end in .npz"),
        (["--steps", "10", "--hidden", "256,x"], "--hidden '256,x'"),
        (["--steps", "10", "--num-envs", "0"], "--num-envs must be >= 1"),
        (["--steps", "10", "--score-share", "2"], "--score-share must be in"),
        (["--steps", "10", "--teacher-labels", "nowhere.npz"], "no such file"),
        (["--steps", "10", "--endgame", "pimc"], "--endgame 'pimc': choose one of play, solve"),
    ],
)
def test_bad_options_exit_with_a_message_naming_them(capsys, argv, message):
    with pytest.raises(SystemExit) as e:
        tf.parse_args(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err


def test_rollout_links_each_decision_to_the_learners_next_one():
    """Every learner decision is paid the deal's points once: returns at lambda 1 equal the
    game points of its deal (gamma 1, reward at the end), whatever the opponent did between."""
    options = tf.Options(steps=1, num_envs=64, n_steps=40, gae_lambda=1.0, bc_deals=0, score_share=0.0,
                         opponents="heuristic=0.5,random=0.5")  # fmt: skip
    opts = tf.check_options(options)
    trainer = tf.Trainer(opts)
    ro = trainer.collect()
    returns = ro.returns.numpy()
    finished = np.isin(np.round(returns, 4), [-3, -2, -1, 0, 1, 2, 3])
    assert finished.mean() > 0.5  # most decisions lie in deals that ended within the rollout
    assert len(ro) > 64 * 40 // 3


def test_evaluation_is_duplicate_and_greedy():
    """The same deals in both seats, the learner greedy: an evaluation repeats exactly."""
    rules = tf.get_rules("standard")
    decks, dealers = tf.evaluation_deals(rules, 50, seed=1)
    nets = tf.Nets((16,))
    a = tf.evaluate(nets.policy, rules, decks, dealers)
    b = tf.evaluate(nets.policy, rules, decks, dealers)
    assert a == b and a.deals == 100
    assert -3 <= a.points <= 3 and 0 <= a.win_rate <= 1


def test_phase_two_rows_and_their_exact_values_match_the_reference_engine():
    """``--endgame solve`` stops exactly the running deals whose stock is closed or exhausted,
    paying each the perfect-information value the solver gives the reference ``Deal``."""
    from sixtysix_env.agents.fast.solver import FastSolver
    from sixtysix_env.fast import BatchedDeals

    rules = tf.get_rules("standard")
    batch = BatchedDeals(64, rules, autoreset=False, seed=5)
    batch.reset()
    solver, rng = FastSolver(rules, table_bits=16), np.random.default_rng(0)
    checked = set()
    for _ in range(14):
        rows = tf.phase_two(batch.state)
        expected = [i for i in range(64) if (d := batch.deal(i)).outcome is None and (d.closed_by >= 0 or not d.stock)]
        assert rows.tolist() == expected
        seats = rng.integers(0, 2, size=64)
        values = tf.exact_values(solver, batch.state, rows, seats)
        for i, v in zip(rows, values, strict=True):
            assert v == solver.value(batch.deal(i), int(seats[i]))
            checked.add(int(i))
        acts = batch.sample_actions()
        acts[batch.current_player < 0] = -1
        batch.step(acts)
    assert len(checked) >= 20


def test_endgame_solve_trains_the_open_stock_phase_only():
    """No decision of a rollout lies past the stock's closing or end, and every decision is paid
    exactly its deal's value (lambda 1): a whole number of game points, the solver's or the end's."""
    opts = tf.check_options(tf.Options(steps=1, num_envs=64, n_steps=40, gae_lambda=1.0, bc_deals=0, score_share=0.0,
                                       opponents="heuristic=0.5,random=0.5", endgame="solve"))  # fmt: skip
    trainer = tf.Trainer(opts)
    ro = trainer.collect()
    obs = ro.obs.numpy()
    assert not obs[:, 217:220].any()  # closed by me, closed by the opponent, stock exhausted
    returns = np.round(ro.returns.numpy(), 4)
    finished = np.isin(returns, [-3, -2, -1, 0, 1, 2, 3])
    assert finished.mean() > 0.6
    played = tf.Trainer(tf.check_options(tf.Options(**{**vars(opts), "endgame": "play", "shares": {}, "layers": ()})))
    assert played.collect().obs[:, 217:220].any()  # without it, phase-2 decisions are trained


def test_evaluation_with_a_solver_stops_at_phase_two():
    from sixtysix_env.agents.fast.solver import FastSolver

    rules = tf.get_rules("standard")
    decks, dealers = tf.evaluation_deals(rules, 40, seed=3)
    nets = tf.Nets((16,))
    solver = FastSolver(rules, table_bits=16)
    a = tf.evaluate(nets.policy, rules, decks, dealers, solver)
    assert a == tf.evaluate(nets.policy, rules, decks, dealers, solver) and a.deals == 80
    assert a != tf.evaluate(nets.policy, rules, decks, dealers)


def test_a_last_minibatch_of_one_keeps_the_weights_finite():
    """A rollout one decision longer than the minibatch used to normalise a lone advantage by a
    NaN spread, which turned every weight into NaN (seen with --endgame solve's shorter deals)."""
    import torch

    opts = tf.check_options(tf.Options(steps=1, num_envs=32, n_steps=8, minibatch=64, bc_deals=0))
    trainer = tf.Trainer(opts)
    ro = trainer.collect()
    n = 65
    while len(ro) < n:
        ro = trainer.collect()
    cut = tf.Rollout(*(getattr(ro, f)[:n] for f in ("obs", "mask", "action", "logp", "advantage", "returns")), 0)
    stats = trainer.update(cut, 3e-4)
    assert all(np.isfinite(v) for v in stats.values()), stats
    assert all(torch.isfinite(p).all() for p in trainer.nets.parameters())
