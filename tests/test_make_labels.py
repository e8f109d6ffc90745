"""baselines/make_labels.py: teacher labels for distillation, consistent and reproducible."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "baselines" / "make_labels.py"


def _run(tmp_path: Path, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), "--teacher", "heuristic", "--deals", "6", "--out", str(tmp_path / name)]
    return subprocess.run([*cmd, *extra], capture_output=True, text=True, timeout=600, cwd=tmp_path)


def test_labels_are_legal_teacher_moves_with_the_players_result(tmp_path: Path) -> None:
    done = _run(tmp_path, "a.npz", "--rules", "schnapsen")
    assert done.returncode == 0, done.stderr
    with np.load(tmp_path / "a.npz", allow_pickle=False) as f:
        obs, mask, action, value = f["obs"], f["mask"], f["action"], f["value"]
    n = len(action)
    assert n > 30 and obs.shape == (n, 235) and mask.shape == (n, 32) and value.shape == (n,)
    assert mask[np.arange(n), action].all()  # every label is legal where it was taken
    assert (mask.sum(1) >= 2).all()  # forced moves are not labels
    assert set(np.unique(value)) <= {-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0}
    assert f"{n} labelled positions" in done.stdout
    assert _run(tmp_path, "b.npz", "--rules", "schnapsen").returncode == 0
    with np.load(tmp_path / "b.npz", allow_pickle=False) as f:
        assert np.array_equal(f["obs"], obs) and np.array_equal(f["action"], action)  # same seed, same labels


def test_bad_options_are_refused(tmp_path: Path) -> None:
    cases = (
        (["--teacher", "nobody"], "unknown agent"),
        (["--explore", "1.5"], "--explore"),
        (["--workers", "0"], "--workers must be at least 1, got 0"),
        (["--minutes", "-2"], "--minutes must be above 0, got -2.0"),
        (["--player", "nobody"], "--player: "),
    )
    for bad, message in cases:
        done = _run(tmp_path, "c.npz", *bad)
        assert done.returncode == 2 and message in done.stderr, done.stderr


def test_values_hold_the_teachers_value_of_every_legal_action(tmp_path: Path) -> None:
    """``--values`` stores PIMC's value of each legal action (NaN elsewhere); the labelled action is
    the best of them, the same one ``act`` plays without ``--values``."""
    pimc = ("--teacher", "pimc:samples=4", "--deals", "3")
    assert _run(tmp_path, "q.npz", *pimc, "--values").returncode == 0
    assert _run(tmp_path, "plain.npz", *pimc).returncode == 0
    with np.load(tmp_path / "q.npz", allow_pickle=False) as f, np.load(tmp_path / "plain.npz") as g:
        q, mask, action = f["q"], f["mask"], f["action"]
        assert "q" not in g.files and np.array_equal(g["action"], action)
    n = len(action)
    assert n > 10 and q.shape == (n, 32)
    assert np.array_equal(~np.isnan(q), mask)
    best = np.nanmax(q, axis=1)
    assert (q[np.arange(n), action] >= best - 1e-6).all()
    refused = _run(tmp_path, "h.npz", "--values")  # the heuristic has no values
    assert refused.returncode == 2 and "no action_values" in refused.stderr


def test_with_a_player_the_teacher_labels_the_positions_the_player_reaches() -> None:
    """DAgger (``--player``): the player's moves are played, the teacher's choices are the labels."""
    import importlib.util
    import random

    from sixtysix_env.engine import Deal
    from sixtysix_env.observers import encode_vector
    from sixtysix_env.rules import get_rules

    spec = importlib.util.spec_from_file_location("make_labels", SCRIPT)
    assert spec is not None and spec.loader is not None
    make_labels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_labels)

    class Last:  # the teacher: the highest legal action id
        def act(self, info, rng):  # type: ignore[no-untyped-def]
            return max(info.legal_actions())

    class First:  # the player: the lowest
        def act(self, info, rng):  # type: ignore[no-untyped-def]
            return min(info.legal_actions())

    for seed in range(5):
        obs, _, actions, values, _ = make_labels.label_deal(Last(), "standard", seed, 0.0, player=First())
        rng = random.Random(seed)
        deal = Deal.new(get_rules("standard"), rng, dealer=rng.randrange(2))
        expected = []
        while deal.outcome is None:
            legal = deal.legal_actions()
            if len(legal) > 1:
                expected.append((encode_vector(deal.information_state(deal.current)), max(legal)))
            deal.apply(min(legal))
        assert len(obs) == len(expected) > 5
        for row, action, (want, label) in zip(obs, actions, expected, strict=True):
            assert np.array_equal(row, want) and action == label
        assert len(set(values)) <= 2  # each seat's result of the player's deal
