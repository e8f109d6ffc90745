"""No observation leaks a card its player cannot see, in any game and through any encoder.

For a random position and a player ``p`` the test builds *another* deal that ``p`` cannot tell
apart from it, from the public record and ``p``'s own cards only: every card ``p`` never saw
(other hands, the stock, cards committed against three nines, face-down discards) is dealt again,
and the deal is replayed with the same public actions and freshly chosen secret ones (what the
others commit or discard). Re-deals that do not reproduce the public record are dropped; for the
others ``p``'s observation must be identical, encoder by encoder. The re-deal never reads the
code under test (``information_state``, ``resample_hidden``, ``TableView.sample``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtysix_env import sixtysix_v0
from sixtysix_env.cards import NUM_CARDS
from sixtysix_env.engine import Deal
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0
from sixtysix_env.observers import ENCODERS
from sixtysix_env.rules import PRESETS
from sixtysix_env.table.deal import TableDeal, TableDecision
from sixtysix_env.table.four import FourDeal
from sixtysix_env.table.observers import TABLE_ENCODERS
from sixtysix_env.table.rules import FOUR_PRESETS, THREE_PRESETS
from sixtysix_env.table.three import ThreeDeal

SECRET = (TableDecision.COMMIT, TableDecision.DISCARD)
"""Table decisions whose card only the player taking them sees."""

TWO = [(Deal, r) for r in PRESETS.values()] + [(Deal, PRESETS["standard"].replace(claiming="explicit"))]
TABLE = (
    [(ThreeDeal, r) for r in THREE_PRESETS.values()]
    + [(FourDeal, r) for r in FOUR_PRESETS.values()]
    + [
        (FourDeal, FOUR_PRESETS["pagat"].replace(claiming="explicit")),
        (FourDeal, FOUR_PRESETS["russian"].replace(nines_partner_ask=True)),
    ]
)
GAMES = TWO + TABLE


def _flat(obs: Any) -> list[tuple[str, np.ndarray]]:
    if isinstance(obs, dict):
        return [(f"{k}.{n}", a) for k, v in obs.items() for n, a in _flat(v)]
    return [("", np.asarray(obs))]


def _observations(deal: Any, p: int) -> dict[str, list[tuple[str, np.ndarray]]]:
    encoders = ENCODERS if isinstance(deal, Deal) else TABLE_ENCODERS
    view = deal.information_state(p)
    out = {name: _flat(enc(view)) for name, enc in encoders.items()}
    out["legal_mask"] = [("", np.asarray([int(view.legal_mask)]))]
    return out


# ---------------------------------------------------------------------- random positions
def _chooser(deal: Any, rng: random.Random) -> int:
    """A random legal action, biased towards the Russian game's rare rounds (three nines, five)."""
    legal = deal.legal_actions()
    for a in (39, 48, 40, 38):  # three nines, ask for a nine, five, ask about trumps
        if a in legal and rng.random() < 0.7:
            return a
    return rng.choice(legal)


def _table_start(game: type[TableDeal], rules: Any, rng: random.Random) -> TableDeal:
    """A shuffled deal; half the Russian ones give a random player three nines."""
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    n, size = game.n_players, game.hand_size
    if game is FourDeal and rules.three_nines and rng.random() < 0.5:
        q = rng.randrange(n)
        nines = [c for c in deck if c % 6 == 0]
        keep = rng.sample(nines, 3)
        hand = keep + [c for c in deck if c not in keep][: size - 3]
        rest = [c for c in deck if c not in hand]
        rows = [rest[k * size : (k + 1) * size] for k in range(n - 1)]
        rows.insert(q, hand)
        rng.shuffle(rows[q])
    else:
        rows = [deck[k * size : (k + 1) * size] for k in range(n)]
    d = game.from_arrangement(rows, rng.randrange(n), rules)
    if d.outcome is None and d.decision == TableDecision.TRUMP and rules.trump != "choose":
        raise AssertionError("unexpected trump decision")
    return d


def _two_start(rules: Any, rng: random.Random) -> Deal:
    return Deal.new(rules, rng, rng.randrange(2))


def _position(game: type, rules: Any, seed: int) -> tuple[Any, list[int]]:
    """A start deal and the actions that lead from it to a random position."""
    rng = random.Random(seed)
    start = _two_start(rules, rng) if game is Deal else _table_start(game, rules, rng)
    d = start.clone()
    steps = rng.randrange(1, 60)
    actions: list[int] = []
    while d.outcome is None and len(actions) < steps:
        a = _chooser(d, rng)
        d.apply(a)
        actions.append(a)
    return start, actions


# ---------------------------------------------------------------------- the re-deal (table games)
def _table_replay(start: TableDeal, actions: list[int]) -> tuple[TableDeal, list[int], list[int]]:
    """The position, the decision of every step, and the cards shown at some time per player."""
    d = start.clone()
    decisions, shown = [], [0] * d.n_players
    for a in actions:
        decisions.append(d.decision)
        d.apply(a)
        for q in range(d.n_players):
            shown[q] |= d.known[q] | d.played[q] | d.won_cards[q]
    for q in range(d.n_players):
        shown[q] |= d.known[q] | start.known[q]
    return d, decisions, shown


def _table_public(d: TableDeal, decisions: list[Any], p: int) -> tuple[Any, ...]:
    """Everything about the position that every player sees, plus ``p``'s own cards."""
    hist = tuple(
        (x >> 6, -1 if (x >> 6) != p and dec in SECRET else x & 63) for x, dec in zip(d.history, decisions, strict=True)
    )
    committed = tuple((c >= 0, c if d.nines_hits >> q & 1 or q == p else -9) for q, c in enumerate(d.committed))
    return (
        d.outcome,
        d.current_player,
        d.decision if d.outcome is None else None,
        d.leader,
        tuple(d.trick),
        d.declared,
        tuple(d.played),
        tuple(d.won_cards),
        tuple(d.known[q] for q in range(d.n_players) if q != p),
        tuple(d.marriages),
        tuple(d.points),
        tuple(d.pending),
        tuple(d.side_tricks),
        tuple(d.tricks_won),
        tuple(d.claim_chance),
        d.trick_count,
        d.last_winner,
        d.trump,
        d.trump_card,
        d.trick_trump,
        d.sitting_out,
        tuple(d.deal_scored),
        tuple(d.queue),
        d.bid,
        d.bidder,
        d.nines_by,
        d.nines_shown,
        d.nine_left,
        d.nines_hits,
        d.nine_asked,
        d.contract,
        tuple(h.bit_count() for h in d.hands),
        tuple(m.bit_count() for m in d.out_cards),
        committed,
        d.pair_answer[d.side_of(p)],
        tuple(x >= 0 for x in d.pair_answer),
        hist,
        d.scores,
        d.cuts,
        d.visible_hand(p),
        d.out_cards[p],
    )


def table_redeals(start: TableDeal, actions: list[int], p: int, rng: random.Random, tries: int = 40) -> Any:
    """Deals ``p`` cannot tell from the position ``start`` + ``actions``, built from the public record."""
    orig, decisions, shown = _table_replay(start, actions)
    public = _table_public(orig, decisions, p)
    n = start.n_players
    at_trump = orig.outcome is None and orig.decision == TableDecision.TRUMP
    free = []  # positions (player, slot) whose card p never saw
    for q in range(n):
        for i, c in enumerate(start.dealt[q]):
            if q == p:
                if at_trump and i >= 3:
                    free.append((q, i))
            elif not shown[q] >> c & 1:
                free.append((q, i))
    cards = [start.dealt[q][i] for q, i in free]
    for _ in range(tries):
        rng.shuffle(cards)
        rows = [list(r) for r in start.dealt]
        for (q, i), c in zip(free, cards, strict=True):
            rows[q][i] = c
        d = type(start).from_arrangement(rows, start.dealer, start.rules, start.scores, start.cuts)
        ok = True
        for a, dec in zip(actions, decisions, strict=True):
            if d.decision != dec:
                ok = False
                break
            if d.current != p and dec in SECRET:
                a = rng.choice(d.legal_actions())
            if not d.is_legal(a):
                ok = False
                break
            d.apply(a)
        if ok and _table_public(d, decisions, p) == public:
            yield orig, d


# ---------------------------------------------------------------------- the re-deal (two players)
def _two_replay(start: Deal, actions: list[int], p: int) -> tuple[Deal, int]:
    d = start.clone()
    seen = d.hands[p] | 1 << d.stock[0]
    for a in actions:
        d.apply(a)
        seen |= d.hands[p] | d.known[0] | d.known[1] | d.won_cards[0] | d.won_cards[1]
        if d.lead_card >= 0:
            seen |= 1 << d.lead_card
        if d.stock:
            seen |= 1 << d.stock[0]
    return d, seen


def _two_public(d: Deal, p: int) -> tuple[Any, ...]:
    o = 1 - p
    return (
        d.outcome,
        d.current_player,
        d.decision if d.outcome is None else None,
        d.leader,
        d.lead_card,
        d.declared,
        d.just_closed,
        d.hands[p],
        d.hands[o].bit_count(),
        d.known[o],
        len(d.stock),
        d.stock[0] if d.stock else -1,
        d.closed_by,
        d.closed_opp_tricks,
        d.closed_opp_points,
        d.closed_own_tricks,
        tuple(d.points),
        tuple(d.pending),
        tuple(d.tricks),
        tuple(d.won_cards),
        tuple(d.marriages),
        tuple(d.claim_chance),
        d.trick_count,
        tuple(d.history),
        d.scores,
        d.trump_card,
    )


def two_redeals(start: Deal, actions: list[int], p: int, rng: random.Random, tries: int = 40) -> Any:
    orig, seen = _two_replay(start, actions, p)
    public = _two_public(orig, p)
    h0, h1, stock, dealer = start.arrangement
    rows = [list(h0), list(h1), list(stock)]
    free = [(r, i) for r, row in enumerate(rows) for i, c in enumerate(row) if not seen >> c & 1]
    cards = [rows[r][i] for r, i in free]
    for _ in range(tries):
        rng.shuffle(cards)
        new = [row[:] for row in rows]
        for (r, i), c in zip(free, cards, strict=True):
            new[r][i] = c
        d = Deal.from_arrangement(new[:2], new[2], dealer, start.rules, start.scores)
        try:
            d.apply_all(actions) if hasattr(d, "apply_all") else [d.apply(a) for a in actions]
        except ValueError:
            continue
        if _two_public(d, p) == public:
            yield orig, d


def redeals(start: Any, actions: list[int], p: int, rng: random.Random) -> Any:
    if isinstance(start, Deal):
        return two_redeals(start, actions, p, rng)
    return table_redeals(start, actions, p, rng)


def _assert_same(orig: Any, other: Any, p: int) -> None:
    a, b = _observations(orig, p), _observations(other, p)
    for name in a:
        for (key, x), (_, y) in zip(a[name], b[name], strict=True):
            assert np.array_equal(x, y), (
                f"player {p}'s {name!r} observation{key and ' ' + key} differs between two deals he cannot tell "
                f"apart:\n  {orig.to_notation()}\n  {other.to_notation()}"
            )


def check_no_leak(game: type, rules: Any, seed: int, per_position: int = 3) -> int:
    """Check every player of one random position; returns how many re-deals were compared."""
    start, actions = _position(game, rules, seed)
    rng = random.Random(seed ^ 0x5EED)
    compared = 0
    for p in range(2 if game is Deal else game.n_players):
        for k, (orig, other) in enumerate(redeals(start, actions, p, rng)):
            _assert_same(orig, other, p)
            compared += 1
            if k + 1 >= per_position:
                break
    return compared


# ---------------------------------------------------------------------- the tests
def test_russian_history_hides_committed_and_discarded_cards() -> None:
    """Item 13's example: player 1 must not see QC and KH, which players 2 and 0 committed unseen."""
    d = FourDeal.from_arrangement(
        ["AH TH KH QH JH JD ", " 9C 9S 9H AD TD KD ", " AC TC KC QC JC 9D ", " AS TS KS QS JS QD"], 0, "russian"
    )
    d.apply_all([35, 30, 30, 30, 30, 39, 2, 15])
    events = TABLE_ENCODERS["history"](d.information_state(1))["events"]
    n = 4
    assert not events[:, n + 2].any() and not events[:, n + 15].any()
    # another deal player 1 cannot tell apart: players 2 and 0 committed other cards
    other = FourDeal.from_arrangement(
        ["AH TH KH QH JH JD ", " 9C 9S 9H AD TD KD ", " AC TC KC QC JC 9D ", " AS TS KS QS JS QD"], 0, "russian"
    )
    other.apply_all([35, 30, 30, 30, 30, 39, 3, 14])
    _assert_same(d, other, 1)
    # the committers themselves still see their own card
    assert TABLE_ENCODERS["history"](d.information_state(2))["events"][:, n + 2].any()


def test_a_discard_of_the_committed_card_the_nines_showed_stays_face_down() -> None:
    """Player 0's commit (AD) was shown by the three nines; he took it back and later discarded
    face down for five. Player 2 must not learn whether that discard was AD (a random-seed run of
    ``test_no_leak_russian_secret_rounds`` found the view showing it)."""
    rules = "russian(nines_partner_ask=True); dealer=2; "
    played = "played==S AT P AT P P P N AD KS 9D B5 P P P {} 9C QC AC TH"
    a = FourDeal.from_notation(
        rules
        + "hands=JC JH AC AD TD AH | KH JS QH AS TS KD | KS QD JD TH 9C QS | 9D KC TC 9H QC 9S; "
        + played.format("TC JC")
    )
    b = FourDeal.from_notation(
        rules
        + "hands=JS KD AC AD JH TC | TS KC KH QH JC AS | KS QD JD TH 9C QS | 9D TD AH 9H QC 9S; "
        + played.format("9H AD")
    )
    assert a.history[16] & 63 != b.history[16] & 63  # the discards differ: JC against AD
    _assert_same(a, b, 2)


def test_five_discards_hidden_from_the_others() -> None:
    """The face-down discards of the contract five never reach another player's observation."""
    seen = 0
    for seed in range(400):
        start, actions = _position(FourDeal, FOUR_PRESETS["russian"], seed)
        d = start.clone()
        for a in actions:
            if d.decision == TableDecision.DISCARD:
                p = d.current
                d.apply(a)
                for q in range(4):
                    if q != p:
                        ev = TABLE_ENCODERS["history"](d.information_state(q))["events"]
                        assert not ev[len(d.history) - 1, 4 + a], f"player {q} sees {p}'s discard: {d.to_notation()}"
                seen += 1
            else:
                d.apply(a)
    assert seen > 5


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=lambda x: getattr(x, "name", getattr(x, "__name__", "")))
def test_no_leak_in_any_encoder(game: type, rules: Any) -> None:
    compared = sum(check_no_leak(game, rules, seed) for seed in range(25))
    assert compared > 25  # the re-deals are not all rejected: the test compares something


@settings(deadline=None)  # examples and seed from the profile (CI's fixed one, or a random one)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_leak_russian_secret_rounds(seed: int) -> None:
    check_no_leak(FourDeal, FOUR_PRESETS["russian"].replace(nines_partner_ask=True), seed)


def test_redeals_vary_secret_cards() -> None:
    """The re-dealing really changes what a player cannot see (else the test proves nothing):
    the committed cards of item 13's position vary across re-deals for player 1."""
    d = FourDeal.from_arrangement(
        ["AH TH KH QH JH JD ", " 9C 9S 9H AD TD KD ", " AC TC KC QC JC 9D ", " AS TS KS QS JS QD"], 0, "russian"
    )
    actions = [35, 30, 30, 30, 30, 39, 2, 15]
    rng = random.Random(1)
    committed = set()
    for _, (_, other) in zip(range(20), table_redeals(d, actions, 1, rng, tries=200), strict=False):
        committed.add(tuple(other.committed))
    assert len(committed) > 1


@pytest.mark.parametrize("env_module", [sixtysix_v0, sixtysix_three_v0, sixtysix_four_v0])
def test_env_observe_and_infos_match_across_redeals(env_module: Any) -> None:
    """The env's observe() and infos for a seat are the same for two deals that seat cannot tell apart."""
    rules = {sixtysix_v0: "standard", sixtysix_three_v0: "pagat", sixtysix_four_v0: "russian"}[env_module]
    game = {sixtysix_v0: Deal, sixtysix_three_v0: ThreeDeal, sixtysix_four_v0: FourDeal}[env_module]
    env = env_module.raw_env(rules=rules, observation="history")
    r = env.rules
    compared = 0
    for seed in range(40):
        start, actions = _position(game, r, seed)
        rng = random.Random(seed)
        for p in range(2 if game is Deal else game.n_players):
            for orig, other in redeals(start, actions, p, rng):
                if orig.outcome is not None:
                    break
                agent = f"player_{p}"
                env.reset(seed=0, options={"deal": orig})
                a, ia = env.observe(agent), dict(env.infos[agent])
                env.reset(seed=0, options={"deal": other})
                b, ib = env.observe(agent), dict(env.infos[agent])
                for (k, x), (_, y) in zip(_flat(a), _flat(b), strict=True):
                    assert np.array_equal(x, y), f"{agent} observe {k} differs"
                assert ia.keys() == ib.keys() and all(np.array_equal(ia[k], ib[k]) for k in ia)
                compared += 1
                break
    assert compared > 5
