"""The framework examples' learning curve (``integrations.curve``): checkpoints, files, redraw."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

pytest.importorskip("numba")

from sixtysix_env.integrations import curve as curve_module
from sixtysix_env.integrations.curve import LearningCurve, redraw


def lowest_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return masks.argmax(axis=1)


def test_checkpoints_wait_for_their_time_and_the_final_writes_the_curve(tmp_path, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(curve_module.time, "time", lambda: clock[0])
    curve = LearningCurve(tmp_path / "run", "test run", every_s=60, deals=4, final_deals=6)
    assert curve.maybe(lowest_legal, 10) is None  # not due yet
    clock[0] += 61
    assert curve.maybe(lowest_legal, 20) is not None
    assert curve.maybe(lowest_legal, 30) is None  # the next one is 60 s after this one
    clock[0] += 30
    result = curve.final(lowest_legal, 40, options={"seed": 0})
    rows = list(csv.DictReader((tmp_path / "run.csv").read_text().splitlines()))
    assert [(r["wall_s"], r["steps"], r["deals"]) for r in rows] == [("61.0", "20", "4"), ("91.0", "40", "6")]
    summary = json.loads((tmp_path / "run.json").read_text())
    assert summary["final"]["points"] == result.points and summary["options"] == {"seed": 0}
    pytest.importorskip("matplotlib")
    assert (tmp_path / "run.png").stat().st_size > 1000
    (tmp_path / "run.png").unlink()
    assert redraw(tmp_path / "run.json").stat().st_size > 1000


def test_the_final_deals_are_those_every_example_reports():
    """The closing line of every example plays duplicate_eval's seed-12345 deals."""
    from sixtysix_env.integrations.evaluate import duplicate_eval

    curve = LearningCurve(None, "no files", final_deals=8)
    assert curve.final(lowest_legal, 0) == duplicate_eval(lowest_legal, deals=8, seed=12345)


@pytest.mark.parametrize("kwargs", [{"every_s": 0}, {"deals": 1}, {"final_deals": 1}])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError, match="every_s must be positive"):
        LearningCurve(None, "bad", **kwargs)


@pytest.mark.parametrize("deals", [0, 1])
def test_eval_deals_below_two_builds_a_curve_the_examples_never_use(deals):
    """``--eval-deals 0`` means no evaluation: the examples skip the curve, and building it from the
    options must not fail first (it did, with a traceback, before any training)."""
    import argparse

    parser = argparse.ArgumentParser()
    curve_module.add_curve_arguments(parser)
    curve = LearningCurve.from_args(parser.parse_args(["--eval-deals", str(deals)]), "no evaluation")
    assert curve.final_deals == 2 and curve.deals == 2


def test_heartbeat_prints_while_a_silent_step_runs_and_stops_after(capsys) -> None:
    import time

    from sixtysix_env.integrations.curve import heartbeat

    with heartbeat("building", every_s=0.05):
        time.sleep(0.3)
    beats = [line for line in capsys.readouterr().out.splitlines() if line.startswith("building: still at it")]
    assert len(beats) >= 2
    time.sleep(0.15)
    assert capsys.readouterr().out == ""  # the thread ended with the block
