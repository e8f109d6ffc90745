"""One determinizer: the engine builds a deal from a player's view (``Deal.from_view``,
``TableDeal.from_view``); ``InfoState.sample`` / ``TableView.sample`` choose the unseen cards and
``resample_hidden`` is exactly the view's sample. The deal's field list is written once
(``FIELDS``), and no module writes the private state of another module's objects."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from sixtysix_env.cards import cards_of
from sixtysix_env.deal_types import check_fields, compile_copies, straight_builder
from sixtysix_env.engine import Deal
from sixtysix_env.infostate import InfoState
from sixtysix_env.rules import PRESETS
from sixtysix_env.table.deal import TableDeal
from sixtysix_env.table.four import FourDeal
from sixtysix_env.table.rules import FOUR_PRESETS, THREE_PRESETS
from sixtysix_env.table.three import ThreeDeal
from sixtysix_env.table.view import TableView

ROOT = Path(__file__).resolve().parents[1] / "sixtysix_env"
TWO_RULES = [*PRESETS.values(), PRESETS["standard"].replace(claiming="explicit")]
TABLE_GAMES = [(ThreeDeal, r) for r in THREE_PRESETS.values()] + [(FourDeal, r) for r in FOUR_PRESETS.values()]


def _state(d: Any) -> tuple[Any, ...]:
    return (*(getattr(d, f) for f in type(d).FIELDS), d.legal_mask())


def _two_positions(n: int = 120) -> list[Deal]:
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        d = Deal.new(TWO_RULES[seed % len(TWO_RULES)], rng, rng.randrange(2))
        for _ in range(rng.randrange(0, 30)):
            if d.outcome is not None:
                break
            d.apply(rng.choice(d.legal_actions()))
        out.append(d)
    return out


def _table_positions(n: int = 60) -> list[TableDeal]:
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        game, rules = TABLE_GAMES[seed % len(TABLE_GAMES)]
        d = game.new(rules, rng, dealer=seed % game.n_players)
        for _ in range(rng.randrange(0, 40)):
            if d.outcome is not None:
                break
            d.apply(rng.choice(d.legal_actions()))
        out.append(d)
    return out


# ---------------------------------------------------------------------- one determinizer
def test_resample_hidden_is_the_views_sample_two_players():
    for k, d in enumerate(_two_positions()):
        d.legal_mask()  # a cached mask must not travel into the resampled deal
        for p in (0, 1):
            a, b = random.Random(k), random.Random(k)
            got, want = d.resample_hidden(p, a), InfoState.of(d, p).sample(b)
            assert _state(got) == _state(want)
            assert a.getstate() == b.getstate()
            fresh = got.clone()
            fresh._mask = -1
            assert got.legal_mask() == fresh.legal_mask()


def test_resample_hidden_is_the_views_sample_table():
    for k, d in enumerate(_table_positions()):
        for p in range(d.n_players):
            a, b = random.Random(k), random.Random(k)
            assert _state(d.resample_hidden(p, a)) == _state(TableView.of(d, p).sample(b))
            assert a.getstate() == b.getstate()


def test_every_sampled_assignment_passes_the_checked_constructor():
    # sample() skips the checks for speed; what it builds must pass them
    for k, d in enumerate(_two_positions()):
        for p in (0, 1):
            info = InfoState.of(d, p)
            s = info.sample(random.Random(k))
            again = Deal.from_view(info, s.hands[1 - p], s.stock[1:])
            assert _state(again) == _state(s)
    for k, d in enumerate(_table_positions()):
        for p in range(d.n_players):
            view = TableView.of(d, p)
            s = view.sample(random.Random(k))
            assert _state(type(d).from_view(view, s.hands, s.out_cards, s.committed)) == _state(s)


def test_the_true_deal_is_one_the_view_allows():
    for d in _two_positions():
        if d.outcome is None:
            for p in (0, 1):
                built = Deal.from_view(InfoState.of(d, p), d.hands[1 - p], d.stock[1:])
                assert built.hands == d.hands and built.stock == d.stock and built.legal_mask() == d.legal_mask()


# ---------------------------------------------------------------------- from_view refuses what does not fit
def _closed_position() -> tuple[Deal, int]:
    """A position after closing where the viewer's opponent has shown a void by his play."""
    for seed in range(500):
        rng = random.Random(seed)
        d = Deal.new("standard", rng)
        for _ in range(40):
            if d.outcome is not None:
                break
            legal = d.legal_actions()
            d.apply(29 if 29 in legal and d.closed_by < 0 else rng.choice(legal))
            if d.outcome is None and d.stock and d.closed_by >= 0:
                for p in (0, 1):
                    info = InfoState.of(d, p)
                    if info.opponent_cannot_hold() and len(d.stock) > 1:
                        return d, p
    raise AssertionError("no closed position with evidence found")


def test_the_two_player_deal_from_a_view_refuses_an_inconsistent_assignment():
    d = Deal.new("standard", random.Random(4))
    d.apply_all("JD")  # player 1 led (dealer 0): nothing known of player 0's hand yet
    info = InfoState.of(d, 1)
    hand, down = d.hands[0], d.stock[1:]
    Deal.from_view(info, hand, down)  # the truth fits
    with pytest.raises(ValueError, match="stock has 11 face down"):
        Deal.from_view(info, hand, down[:-1])
    with pytest.raises(ValueError, match="is not 6 cards"):
        Deal.from_view(info, hand & (hand - 1), down)
    mine = next(iter(cards_of(info.hand)))
    with pytest.raises(ValueError, match="must place each unseen card once"):
        Deal.from_view(info, (hand & (hand - 1)) | 1 << mine, down)  # one of my own cards in his hand
    with pytest.raises(ValueError, match=r"stock has 11 face down|must place each unseen card once"):
        Deal.from_view(info, hand, [*down[:-1], down[0]])  # a card twice in the stock
    with pytest.raises(ValueError, match="not a card id"):
        Deal.from_view(info, hand, [*down[:-1], 99])
    with pytest.raises(TypeError, match="InfoState"):
        Deal.from_view(d, hand, down)  # type: ignore[arg-type]


def test_the_deal_from_a_view_refuses_a_card_his_play_rules_out():
    d, p = _closed_position()
    info = InfoState.of(d, p)
    out = info.opponent_cannot_hold()
    bad = next(iter(cards_of(out)))
    hand = d.hands[1 - p]
    swap = next(c for c in cards_of(hand & ~info.known_opponent))
    down = [swap if c == bad else c for c in d.stock[1:]]
    with pytest.raises(ValueError, match="rules out"):
        Deal.from_view(info, hand & ~(1 << swap) | 1 << bad, down)
    Deal.from_view(info, hand & ~(1 << swap) | 1 << bad, down, check=False)  # unchecked: the caller's word


def test_the_table_deal_from_a_view_refuses_an_inconsistent_assignment():
    d = ThreeDeal.new("marriage", random.Random(2))
    d.apply(d.legal_actions()[0])
    view = TableView.of(d, 0)
    hands, outs, committed = list(d.hands), list(d.out_cards), list(d.committed)
    ThreeDeal.from_view(view, hands, outs, committed)
    with pytest.raises(ValueError, match="player 1 gets 6 cards in hand and 0 out of play; the view shows 7"):
        ThreeDeal.from_view(view, [hands[0], hands[1] & (hands[1] - 1), hands[2]], outs, committed)
    moved = hands[1] & -hands[1]
    with pytest.raises(ValueError, match="placed twice"):
        ThreeDeal.from_view(view, [hands[0], hands[1], hands[2] & ~(hands[2] & -hands[2]) | moved], outs, committed)
    free = hands[0] & ~d.known[0]  # not the turned trump card, shown to all
    mine = free & -free
    with pytest.raises(ValueError, match="own cards"):
        ThreeDeal.from_view(view, [hands[0] ^ mine ^ moved, hands[1] ^ moved ^ mine, hands[2]], outs, committed)
    with pytest.raises(ValueError, match="give 3 hands"):
        ThreeDeal.from_view(view, hands[:2], outs, committed)


# ---------------------------------------------------------------------- the field list written once
@pytest.mark.parametrize("cls", [Deal, TableDeal])
def test_the_slots_derive_from_the_one_field_list(cls):
    assert cls.__slots__ == (*cls.FIELDS, "_mask")
    check_fields(cls, cls.FIELDS)


def test_a_field_named_in_one_place_only_fails():
    class Half:
        a: int
        b: list[int]

    with pytest.raises(TypeError, match=r"only annotated \['b'\]"):
        check_fields(Half, ("a",), extra=())
    with pytest.raises(ValueError, match="identifiers"):
        straight_builder("f", "x", "x", ["a; import os"], str, {})


def test_a_field_neither_in_the_view_nor_given_fails_at_compile():
    class Loose:
        FIELDS = ("a", "b")
        __slots__ = (*FIELDS, "_mask")
        a: int
        b: list[int]
        _mask: int

    with pytest.raises(TypeError, match=r"Loose fields \['b'\] are neither in the view nor given"):
        compile_copies(Loose, "view", ("a",), "x", {}, {})
    from_view = compile_copies(Loose, "view", ("a",), "x", {"b": "list(x)", "_mask": "-1"}, {})
    made = from_view(Loose, type("View", (), {"a": 7})(), (1, 2))
    assert (made.a, made.b, made._mask) == (7, [1, 2], -1)
    copy = made.clone()
    assert (copy.a, copy.b) == (7, [1, 2]) and copy.b is not made.b


def test_clone_copies_every_field_and_shares_no_list():
    for d in [*_two_positions(20), *_table_positions(20)]:
        c = d.clone()
        assert _state(c) == _state(d)
        for f in type(d).__slots__:
            v = getattr(d, f)
            if isinstance(v, list):
                assert getattr(c, f) is not v, f


# ---------------------------------------------------------------------- no private writes across modules
def _declared_private(tree: ast.Module) -> set[str]:
    """Private names the module's classes declare (annotations and ``__slots__`` strings)."""
    out: set[str] = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                out.add(node.target.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                out.add(node.value)
    return {n for n in out if n.startswith("_") and not n.startswith("__")}


def _private_writes(tree: ast.Module) -> list[tuple[int, str]]:
    """``obj._name = ...`` (also augmented, annotated, ``setattr(obj, "_name", ...)``) on an object
    other than ``self``/``cls``."""
    out = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            name = node.args[1].value
            if name.startswith("_") and not name.startswith("__"):
                out.append((node.lineno, name))
        for t in targets:
            for sub in ast.walk(t):
                if not isinstance(sub, ast.Attribute) or not sub.attr.startswith("_") or sub.attr.startswith("__"):
                    continue
                if isinstance(sub.value, ast.Name) and sub.value.id in ("self", "cls"):
                    continue
                out.append((sub.lineno, sub.attr))
    return out


def private_write_offences(root: Path = ROOT) -> list[str]:
    """Writes of a private attribute that one of the package's classes declares, from a module that
    does not declare it: the deal's (or view's) private state is set only by its own module."""
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.py"))}
    declared = {p: _declared_private(t) for p, t in trees.items()}
    ours = set().union(*declared.values())
    return [
        f"{p.relative_to(root.parent)}:{line} writes .{name}"
        for p, tree in trees.items()
        for line, name in _private_writes(tree)
        if name in ours and name not in declared[p]
    ]


def test_no_module_writes_another_modules_private_state():
    assert "_mask" in _declared_private(ast.parse((ROOT / "engine.py").read_text(encoding="utf-8")))
    assert private_write_offences() == []
