"""Fuzz the reference engine: ``Deal`` and its constructors, notation, ``apply``, and ``perft``."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from sixtysix_env import Deal, get_rules
from sixtysix_env.actions import NUM_ACTIONS
from sixtysix_env.checks import as_index
from sixtysix_env.engine import MAX_DEAL_ACTIONS
from sixtysix_env.perft import perft, result_counts

from .values import Rejected, attempt, junk, junk_scalar, near_actions

PRESETS = ["standard", "russian", "marriage", "santase", "schnapsen", "vu"]


def snapshot(d: Deal) -> tuple:
    return (d.to_notation(), d.legal_mask(), list(d.points), list(d.hands), list(d.stock), d.outcome)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    """A deal of some preset, some way into play (possibly finished)."""
    d = Deal.new(draw(st.sampled_from(PRESETS)), random.Random(draw(st.integers(0, 2**32))))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 40))):
        if d.outcome is not None:
            break
        d.apply(rng.choice(d.legal_actions()))
    return d


def usable(d: Deal) -> None:
    if d.outcome is None:
        d.apply(d.legal_actions()[0])


@given(deals(), near_actions)
def test_apply(d, action):
    legal = d.legal_actions()
    result = attempt(lambda: d.apply(action), lambda: snapshot(d), action)
    ok = not isinstance(result, Rejected)
    assert ok == (as_index(action) in legal), f"apply({action!r}) with legal {legal}: {result}"
    usable(d)


@given(deals(), junk)
def test_is_legal_never_raises(d, action):
    assert d.is_legal(action) in (True, False)


@given(junk, junk, junk, junk)
def test_new(rules, rng, dealer, scores):
    for kwargs in ({"rules": rules}, {"dealer": dealer}, {"scores": scores}, {"rng": rng}):
        args = {"rules": "standard", "rng": random.Random(0), **kwargs}
        result = attempt(lambda args=args: Deal.new(**args), lambda: None, names=False)
        if not isinstance(result, Rejected):
            usable(result)
            assert Deal.from_notation(result.to_notation()).legal_mask() == result.legal_mask()


@given(deals(), junk, st.sampled_from(["hands", "stock", "dealer", "rules", "hand0", "card"]))
def test_from_arrangement(d, value, where):
    h0, h1, stock, dealer = d.arrangement
    args = {"hands": [list(h0), list(h1)], "stock": list(stock), "dealer": dealer, "rules": d.rules}
    if where in ("hand0", "card"):
        args["hands"] = [value if where == "hand0" else [value, *h0[1:]], list(h1)]
    else:
        args[where] = value
    result = attempt(lambda: Deal.from_arrangement(**args), lambda: None, names=False)
    if not isinstance(result, Rejected):
        usable(result)


@given(deals(), st.integers(0, 200), st.text(max_size=4), junk_scalar)
def test_from_notation_of_a_mangled_text(d, at, insert, other):
    text = d.to_notation()
    mangled = text[:at] + insert + text[at + len(insert) :]
    for value in (mangled, other):
        result = attempt(lambda value=value: Deal.from_notation(value), lambda: None, names=False)
        if not isinstance(result, Rejected):
            usable(result)
    again = Deal.from_notation(text)
    assert snapshot(again) == snapshot(d)


def _searches_deep(depth: object) -> bool:
    """Whether ``perft`` would accept ``depth`` and search 3 plies or more, far too slow for one
    fuzz case: an integer of 3..MAX_DEAL_ACTIONS as a Python int, a numpy integer or a 0-d array
    (checking only ``isinstance(depth, int)`` let a 0-d array of 30 start a search that never ended)."""
    n = as_index(depth)
    return n is not None and 3 <= n <= MAX_DEAL_ACTIONS


@given(deals(), junk)
def test_perft_and_result_counts(d, depth):
    result = attempt(lambda: 0 if _searches_deep(depth) else perft(d, depth), lambda: snapshot(d), depth)
    if isinstance(result, int):
        assert result >= 0
    if isinstance(depth, Deal):  # junk holds real deals too (a finished one, a fresh schnapsen deal),
        return  # for which perft(depth, 1) is a valid call and result_counts(depth) a whole game's search
    assert isinstance(attempt(lambda: perft(depth, 1), lambda: None, depth), Rejected)
    assert isinstance(attempt(lambda: result_counts(depth), lambda: None, depth), Rejected)


@given(deals())
def test_copies_mid_deal_play_on_alone(d):
    import copy
    import pickle

    for twin in (d.clone(), copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        assert snapshot(twin) == snapshot(d)
        before = snapshot(d)
        usable(twin)
        assert snapshot(d) == before
    assert NUM_ACTIONS == 32 and get_rules(d.rules.notation()) == d.rules


@given(deals(), junk)
def test_views_of_a_player(d, player):
    for call in (
        lambda: d.information_state(player),
        lambda: d.hidden_cards(player),
        lambda: d.resample_hidden(player, random.Random(0)),
    ):
        result = attempt(call, lambda: snapshot(d), player)
        assert isinstance(result, Rejected) != (as_index(player) in (0, 1))
    assert isinstance(attempt(lambda: d.resample_hidden(0, player), lambda: snapshot(d), player), Rejected)
    usable(d)


@given(st.sampled_from(["three", "four"]), st.integers(0, 2**32), st.integers(0, 200), st.text(max_size=4), junk)
def test_table_deals_from_notation_and_apply(game, seed, at, insert, action):
    from sixtysix_env.table.four import FourDeal
    from sixtysix_env.table.three import ThreeDeal

    cls = ThreeDeal if game == "three" else FourDeal
    d = cls.new(rng=random.Random(seed))
    text = d.to_notation()
    mangled = text[:at] + insert + text[at + len(insert) :]
    result = attempt(lambda: cls.from_notation(mangled), lambda: None, names=False)
    if not isinstance(result, Rejected):
        result.apply(result.legal_actions()[0])
    legal = d.legal_actions()
    applied = attempt(lambda: d.apply(action), lambda: d.to_notation(), action)
    assert isinstance(applied, Rejected) != (as_index(action) in legal)
    assert cls.from_notation(d.to_notation()).to_notation() == d.to_notation()


@given(deals(), st.lists(near_actions, max_size=4), st.text(max_size=12))
def test_apply_all_is_all_or_nothing(d, actions, text):
    for value in (actions, text, actions[0] if actions else None):
        attempt(lambda value=value: d.apply_all(value), lambda: snapshot(d), names=False)
    usable(d)
