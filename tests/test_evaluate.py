"""Duplicate-deal evaluation of a batched policy (the framework examples' common measure)."""

import numpy as np
import pytest

from sixtysix_env.integrations.evaluate import duplicate_eval


def _first_legal(obs, masks):
    assert obs.shape == (len(masks), 235) and masks.dtype == np.int8
    return masks.argmax(axis=1)


def test_duplicate_eval_is_reproducible_and_scores_a_weak_policy_below_zero():
    a = duplicate_eval(_first_legal, deals=40, seed=1)
    b = duplicate_eval(_first_legal, deals=40, seed=1)
    assert a == b and a.points < 0 and a.low < a.points < a.high and 0 <= a.win_rate < 0.5
    assert str(a).startswith("vs heuristic, 40 duplicate deals:")


def test_duplicate_eval_plays_each_deal_from_both_seats():
    seen = []

    def record(obs, masks):
        seen.append(len(masks))
        return masks.argmax(axis=1)

    duplicate_eval(record, deals=10, opponent="random", seed=0)
    assert seen[0] <= 20 and sum(seen) > 20


def test_duplicate_eval_rejects_bad_arguments():
    with pytest.raises(ValueError, match="deals=1 is too few"):
        duplicate_eval(_first_legal, deals=1)
    with pytest.raises(ValueError, match="opponent='pimc' is not allowed"):
        duplicate_eval(_first_legal, opponent="pimc")
