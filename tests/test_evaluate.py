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


def _first_trick_hands(seen: list, obs, masks):
    """Record the hand (and whether I dealt) of every decision before the first trick: the hand as dealt."""
    from sixtysix_env.observers import VECTOR_LAYOUT as L

    for row in obs:
        if row[L["trick_count"].slice][0] == 0 and row[L["my_hand_size"].slice][0] == 1.0:
            seen.append((tuple(np.flatnonzero(row[L["hand"].slice])), bool(row[L["i_am_dealer"].slice][0])))
    return masks.argmax(axis=1)


def test_duplicate_eval_gives_the_policy_both_hands_of_every_deal():
    """Each deal is played twice with the same dealer, the policy once in each seat: it holds
    the one hand in one play and the other hand in the other, and deals in exactly one of them."""
    seen: list = []
    deals = 30
    duplicate_eval(lambda o, m: _first_trick_hands(seen, o, m), deals=deals, opponent="heuristic", seed=3)
    hands = {hand for hand, _ in seen}
    dealt = {hand for hand, dealer in seen if dealer}
    assert len(hands) == 2 * deals  # 60 different hands: both of each deal (none twice)
    assert len(dealt) == deals  # the policy was the dealer in one play of each deal
