"""Every slice of every observation encoder, pinned to literal offsets, and single facts to single bits.

The layouts below are written out by hand (start, stop) and compared with the encoders' own
tables, so a slice moved by one is named. Then each fact is set on its own in a view that holds
nothing else, and the encoder must change exactly the index written here: a slice whose table
is right but whose encoder writes one bit off fails too. The two-player layout is also checked
on real positions of the batched engine (``sixtysix_env.fast``), which has its own encoder.

Card ids: ``6 * suit + rank`` (suits C S H D, ranks 9 J Q K T A), so AH is 17 and JH is 13.
"""

from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest

from sixtysix_env import Deal, Decision, InfoState
from sixtysix_env.observers import VECTOR_LAYOUT, VECTOR_SIZE, encode_dict, encode_history, encode_vector
from sixtysix_env.table import FourDeal, TableDecision, TableView, ThreeDeal
from sixtysix_env.table.observers import encode_table_vector, table_layout, table_vector_size

AH, JH = 17, 13

# ---------------------------------------------------------------- the layouts, written out
TWO = [
    ("hand", 0, 24),
    ("known_opponent", 24, 48),
    ("won_by_me", 48, 72),
    ("won_by_opponent", 72, 96),
    ("lead_card", 96, 120),
    ("trump_card", 120, 144),
    ("stock_bottom", 144, 168),
    ("unseen", 168, 192),
    ("trump_suit", 192, 196),
    ("trump_location", 196, 200),
    ("decision", 200, 205),
    ("declared_suit", 205, 209),
    ("my_marriages", 209, 213),
    ("opponent_marriages", 213, 217),
    ("closed_by_me", 217, 218),
    ("closed_by_opponent", 218, 219),
    ("stock_exhausted", 219, 220),
    ("my_won_trick", 220, 221),
    ("opponent_won_trick", 221, 222),
    ("i_am_dealer", 222, 223),
    ("i_am_leader", 223, 224),
    ("claim_chance", 224, 225),
    ("stock_size", 225, 226),
    ("my_points", 226, 227),
    ("opponent_points", 227, 228),
    ("my_pending", 228, 229),
    ("opponent_pending", 229, 230),
    ("my_hand_size", 230, 231),
    ("opponent_hand_size", 231, 232),
    ("my_game_points", 232, 233),
    ("opponent_game_points", 233, 234),
    ("trick_count", 234, 235),
]
THREE = [
    ("hand", 0, 24),
    ("known_left", 24, 48),
    ("known_right", 48, 72),
    ("won_me", 72, 96),
    ("won_left", 96, 120),
    ("won_right", 120, 144),
    ("trick_me", 144, 168),
    ("trick_left", 168, 192),
    ("trick_right", 192, 216),
    ("unseen", 216, 240),
    ("trump_card", 240, 264),
    ("trump_suit", 264, 268),
    ("decision", 268, 279),
    ("declared_suit", 279, 283),
    ("marriages_me", 283, 287),
    ("marriages_left", 287, 291),
    ("marriages_right", 291, 295),
    ("leader", 295, 298),
    ("dealer", 298, 301),
    ("claim_chance", 301, 302),
    ("points_me", 302, 303),
    ("points_left", 303, 304),
    ("points_right", 304, 305),
    ("pending_me", 305, 306),
    ("pending_left", 306, 307),
    ("pending_right", 307, 308),
    ("tricks_me", 308, 309),
    ("tricks_left", 309, 310),
    ("tricks_right", 310, 311),
    ("hand_size_me", 311, 312),
    ("hand_size_left", 312, 313),
    ("hand_size_right", 313, 314),
    ("score_me", 314, 315),
    ("score_left", 315, 316),
    ("score_right", 316, 317),
    ("trick_count", 317, 318),
]
FOUR = [
    ("hand", 0, 24),
    ("known_left", 24, 48),
    ("known_partner", 48, 72),
    ("known_right", 72, 96),
    ("won_me", 96, 120),
    ("won_left", 120, 144),
    ("won_partner", 144, 168),
    ("won_right", 168, 192),
    ("trick_me", 192, 216),
    ("trick_left", 216, 240),
    ("trick_partner", 240, 264),
    ("trick_right", 264, 288),
    ("unseen", 288, 312),
    ("trump_card", 312, 336),
    ("trump_suit", 336, 340),
    ("decision", 340, 351),
    ("declared_suit", 351, 355),
    ("marriages_me", 355, 359),
    ("marriages_left", 359, 363),
    ("marriages_partner", 363, 367),
    ("marriages_right", 367, 371),
    ("leader", 371, 375),
    ("dealer", 375, 379),
    ("claim_chance", 379, 380),
    ("points_my_team", 380, 381),
    ("points_their_team", 381, 382),
    ("pending_my_team", 382, 383),
    ("pending_their_team", 383, 384),
    ("tricks_my_team", 384, 385),
    ("tricks_their_team", 385, 386),
    ("hand_size_me", 386, 387),
    ("hand_size_left", 387, 388),
    ("hand_size_partner", 388, 389),
    ("hand_size_right", 389, 390),
    ("score_my_team", 390, 391),
    ("score_their_team", 391, 392),
    ("trick_count", 392, 393),
    ("out_mine", 393, 417),
    ("committed_mine", 417, 441),
    ("committed_shown", 441, 465),
    ("nines_shown", 465, 469),
    ("nine_left", 469, 473),
    ("bid", 473, 477),
    ("contract", 477, 481),
    ("pair_trumps", 481, 483),
    ("cut_nines", 483, 484),
    ("bidder_me", 484, 485),
    ("bidder_left", 485, 486),
    ("bidder_partner", 486, 487),
    ("bidder_right", 487, 488),
    ("nines_by_me", 488, 489),
    ("nines_by_left", 489, 490),
    ("nines_by_partner", 490, 491),
    ("nines_by_right", 491, 492),
    ("committed_me", 492, 493),
    ("committed_left", 493, 494),
    ("committed_partner", 494, 495),
    ("committed_right", 495, 496),
    ("sitting_out_me", 496, 497),
    ("sitting_out_left", 497, 498),
    ("sitting_out_partner", 498, 499),
    ("sitting_out_right", 499, 500),
    ("out_size_me", 500, 501),
    ("out_size_left", 501, 502),
    ("out_size_partner", 502, 503),
    ("out_size_right", 503, 504),
    ("to_bid_me", 504, 505),
    ("to_bid_left", 505, 506),
    ("to_bid_partner", 506, 507),
    ("to_bid_right", 507, 508),
    ("trumps_asked_my_team", 508, 509),
    ("trumps_asked_their_team", 509, 510),
    ("deal_scored_my_team", 510, 511),
    ("deal_scored_their_team", 511, 512),
]


def test_two_player_layout_is_pinned() -> None:
    assert [(n, p.start, p.start + p.size) for n, p in VECTOR_LAYOUT.items()] == TWO
    assert VECTOR_SIZE == 235
    obs = encode_dict(Deal.new("standard", random.Random(0)).information_state(0))
    assert [(n, len(v)) for n, v in obs.items()] == [(n, stop - start) for n, start, stop in TWO]


@pytest.mark.parametrize(("n", "layout", "size"), [(3, THREE, 318), (4, FOUR, 512)])
def test_table_layouts_are_pinned(n: int, layout, size: int) -> None:
    assert [(k, p.start, p.start + p.size) for k, p in table_layout(n).items()] == layout
    assert table_vector_size(n) == size


def nonzero(vector: np.ndarray) -> dict[int, float]:
    return {int(i): float(vector[i]) for i in np.flatnonzero(vector)}


# ---------------------------------------------------------------- two players: one fact, one index
def blank_info() -> InfoState:
    """Seat 1's view holding as little as a view can: trump JH in the stock, seat 1 to lead, 12
    cards in the stock, nothing in any hand, trick pile or the unseen set."""
    real = Deal.new("standard", random.Random(0), dealer=0).information_state(1)
    s = object.__new__(InfoState)
    for name in InfoState.__slots__:
        setattr(s, name, getattr(real, name))
    s.hand = s.known_opponent = s.unseen = 0
    s.opponent_hand_size = 0
    s.won_cards = s.marriages = (0, 0)
    s.trump, s.trump_card, s.stock_bottom, s.trump_location = 2, JH, -1, 0
    s.decision, s.leader, s.dealer, s.lead_card, s.declared, s.closed_by = Decision.LEAD, 0, 0, -1, -1, -1
    s.stock_size = 12
    s.points = s.pending = s.tricks = s.scores = (0, 0)
    s.claim_chance = (False, False)
    s.trick_count = 0
    return s


BLANK_TWO = {120 + JH: 1.0, 192 + 2: 1.0, 196: 1.0, 200: 1.0, 225: 1.0}  # trump card, suit, in stock, lead, stock


def _set(**fields):
    return lambda s: [setattr(s, k, v) for k, v in fields.items()]


# (fact, change to the blank view of seat 1 (opponent 0), the indices that change: new values)
TWO_FACTS = [
    ("I hold AH", _set(hand=1 << AH), {17: 1.0, 230: 1 / 6}),
    ("opponent holds AH, shown", _set(known_opponent=1 << AH), {24 + 17: 1.0}),
    ("AH in my tricks", _set(won_cards=(0, 1 << AH)), {48 + 17: 1.0}),
    ("AH in the opponent's tricks", _set(won_cards=(1 << AH, 0)), {72 + 17: 1.0}),
    ("AH led", _set(lead_card=AH), {96 + 17: 1.0}),
    ("AH turned for trump", _set(trump_card=AH), {120 + JH: 0.0, 120 + 17: 1.0}),
    ("AH under the stock", _set(stock_bottom=AH), {144 + 17: 1.0}),
    ("AH unseen", _set(unseen=1 << AH), {168 + 17: 1.0}),
    ("trump diamonds", _set(trump=3), {194: 0.0, 195: 1.0}),
    ("trump card with me", _set(trump_location=1), {196: 0.0, 197: 1.0}),
    ("trump card with the opponent", _set(trump_location=2), {196: 0.0, 198: 1.0}),
    ("trump card played", _set(trump_location=3), {196: 0.0, 199: 1.0}),
    ("to follow", _set(decision=Decision.FOLLOW), {200: 0.0, 201: 1.0}),
    ("to draw or close", _set(decision=Decision.DRAW), {200: 0.0, 202: 1.0}),
    ("exchange at the closing", _set(decision=Decision.CLOSING_EXCHANGE), {200: 0.0, 203: 1.0}),
    ("to claim", _set(decision=Decision.CLAIM), {200: 0.0, 204: 1.0}),
    ("over", _set(decision=None), {200: 0.0}),
    ("I declared diamonds", _set(declared=3), {205 + 3: 1.0}),
    ("my club marriage", _set(marriages=(0, 1)), {209: 1.0}),
    ("my diamond marriage", _set(marriages=(0, 8)), {212: 1.0}),
    ("opponent's spade marriage", _set(marriages=(2, 0)), {214: 1.0}),
    ("I closed", _set(closed_by=1), {217: 1.0}),
    ("the opponent closed", _set(closed_by=0), {218: 1.0}),
    ("stock used up", _set(stock_size=0), {219: 1.0, 225: 0.0}),
    ("closed and used up", _set(stock_size=0, closed_by=1), {217: 1.0, 225: 0.0}),
    ("I won a trick", _set(tricks=(0, 1)), {220: 1.0}),
    ("the opponent won a trick", _set(tricks=(2, 0)), {221: 1.0}),
    ("I dealt", _set(dealer=1), {222: 1.0}),
    ("I lead", _set(leader=1), {223: 1.0}),
    ("my claim chance", _set(claim_chance=(False, True)), {224: 1.0}),
    ("the opponent's claim chance", _set(claim_chance=(True, False)), {}),
    ("6 cards in the stock", _set(stock_size=6), {225: 0.5}),
    ("I have 33", _set(points=(0, 33)), {226: 0.5}),
    ("the opponent has 66", _set(points=(66, 0)), {227: 1.0}),
    ("I wait on 20", _set(pending=(0, 20)), {228: 20 / 66}),
    ("the opponent waits on 40", _set(pending=(40, 0)), {229: 40 / 66}),
    ("the opponent holds 3 cards", _set(opponent_hand_size=3), {231: 0.5}),
    ("I have 2 game points", _set(scores=(0, 2)), {232: 2 / 7}),
    ("the opponent has 4 game points", _set(scores=(4, 0)), {233: 4 / 7}),
    ("6 tricks played", _set(trick_count=6), {234: 0.5}),
]


def test_the_blank_two_player_view_sets_only_its_own_bits() -> None:
    assert nonzero(encode_vector(blank_info())) == pytest.approx(BLANK_TWO)


@pytest.mark.parametrize(("fact", "change", "expected"), TWO_FACTS, ids=[f[0] for f in TWO_FACTS])
def test_one_two_player_fact_changes_exactly_its_index(fact: str, change, expected: dict[int, float]) -> None:
    s = blank_info()
    change(s)
    got = nonzero(encode_vector(s))
    want = {**BLANK_TWO, **expected}
    assert got == pytest.approx({i: v for i, v in want.items() if v}), fact
    assert nonzero(encode_history(s)["state"]) == got
    parts = encode_dict(s)
    for name, start, stop in TWO:
        assert nonzero(parts[name]) == {i - start: v for i, v in got.items() if start <= i < stop}, (fact, name)


# ---------------------------------------------------------------- two players: real positions, both engines
# Case (a) of test_rules_worked_from_text: trump JH, seat 0 deals, seat 1 leads.
HAND0 = [11, 3, 2, 18, 1, 16]  # AS KC QC 9D JC TH
HAND1 = [9, 8, 21, 20, 4, 6]  # KS QS KD QD TC 9S
STOCK = [0, 5, 7, 10, 12, 14, 15, 17, 19, 22, 23, 13]  # 9C AC JS TS 9H QH KH AH JD TD AD JH, top first
UNSEEN_AT_START = {1: set(range(24)) - set(HAND1) - {13}, 0: set(range(24)) - set(HAND0) - {13}}


def _expected_start(seat: int) -> dict[int, float]:
    """Either seat's view of the dealt cards, before any action."""
    own = HAND1 if seat == 1 else HAND0
    out = {c: 1.0 for c in own}
    out |= {168 + c: 1.0 for c in UNSEEN_AT_START[seat]}
    out |= {120 + 13: 1.0, 144 + 13: 1.0, 194: 1.0, 196: 1.0, 200: 1.0}
    out[223 if seat == 1 else 222] = 1.0  # seat 1 leads, seat 0 dealt
    out |= {225: 1.0, 230: 1.0, 231: 1.0}
    return out


# After C MS KS AS: seat 1 closed, declared spades (20, waiting: no trick) and lost KS to AS.
EXPECTED_AFTER_SEAT0 = {
    **{c: 1.0 for c in (3, 2, 18, 1, 16)},  # KC QC 9D JC TH
    24 + 8: 1.0,  # QS, the shown partner of the declared marriage
    48 + 11: 1.0,  # AS in my tricks
    48 + 9: 1.0,  # KS in my tricks
    **{168 + c: 1.0 for c in (4, 6, 20, 21)},  # seat 1's unshown cards: TC 9S QD KD
    **{168 + c: 1.0 for c in (0, 5, 7, 10, 12, 14, 15, 17, 19, 22, 23)},  # the face-down stock
    133: 1.0,  # JH turned for trump
    157: 1.0,  # JH still under the stock
    194: 1.0,  # trump hearts
    196: 1.0,  # trump card in the stock
    200: 1.0,  # to lead
    214: 1.0,  # the opponent's spade marriage
    218: 1.0,  # the opponent closed
    220: 1.0,  # I won a trick
    222: 1.0,  # I dealt
    223: 1.0,  # I lead
    225: 1.0,  # 12 of 12 stock cards (closed, none drawn)
    226: 15 / 66,  # AS + KS
    229: 20 / 66,  # the opponent's marriage waits for a trick
    230: 5 / 6,
    231: 5 / 6,
    234: 1 / 12,
}
LINE = [29, 25, 9, 11]  # C, M spades, KS, AS


def test_reference_views_of_a_real_position() -> None:
    deal = Deal.from_arrangement([HAND0, HAND1], STOCK, 0, "standard")
    for seat in (0, 1):
        assert nonzero(encode_vector(deal.information_state(seat))) == pytest.approx(_expected_start(seat))
    for a in LINE:
        deal.apply(a)
    assert nonzero(encode_vector(deal.information_state(0))) == pytest.approx(EXPECTED_AFTER_SEAT0)


def test_batched_views_of_a_real_position() -> None:
    if importlib.util.find_spec("numba") is None:
        pytest.skip("the batched engine needs numba")
    from sixtysix_env.fast import BatchedDeals

    batch = BatchedDeals(1, rules="standard", autoreset=False)
    batch.reset(arrangements=[(HAND0, HAND1, STOCK, 0)])
    for seat in (0, 1):
        assert nonzero(batch.observe(seat)[0]) == pytest.approx(_expected_start(seat))
    for a in LINE:
        batch.step([a])
    assert nonzero(batch.observe(0)[0]) == pytest.approx(EXPECTED_AFTER_SEAT0)


# ---------------------------------------------------------------- table games: one fact, one index
def blank_view(game) -> TableView:
    """Seat 0's view holding nothing: to lead, seat 0 leads, the seat on its right dealt (four
    players: the Russian game, match target 8)."""
    n = game.n_players
    real = game.new("russian" if n == 4 else None, random.Random(0), dealer=n - 1).information_state(0)
    v = object.__new__(TableView)
    for name in TableView.__slots__:
        setattr(v, name, getattr(real, name))
    v.hand = v.unseen = 0
    v.known = v.won_cards = v.marriages = v.hand_sizes = (0,) * n
    v.trick, v.trump, v.trump_card, v.declared = (), -1, -1, -1
    v.decision, v.leader, v.dealer, v.sitting_out = TableDecision.LEAD, 0, n - 1, -1
    v.claim_chance = (False,) * v.n_sides
    v.points = v.pending = v.side_tricks = v.scores = (0,) * v.n_sides
    v.trick_count = 0
    if n == 4:
        v.out_mine, v.out_sizes, v.committed = 0, (0,) * 4, (-1,) * 4
        v.nines_shown, v.nine_left, v.bid, v.bidder, v.contract = 0, -1, 0, -1, 0
        v.pair_answer, v.cuts, v.nines_by, v.queue = -1, (), -1, ()
        v.trumps_asked, v.deal_scored = (False, False), (0, 0)
    return v


BLANK_THREE = {268 + 1: 1.0, 295: 1.0, 298 + 2: 1.0}  # to lead, I lead, the right player dealt
BLANK_FOUR = {340 + 1: 1.0, 371: 1.0, 375 + 3: 1.0}
THREE_FACTS = [
    ("I hold AH", _set(hand=1 << AH), {17: 1.0}),
    ("left shows AH", _set(known=(0, 1 << AH, 0)), {24 + 17: 1.0}),
    ("right shows AH", _set(known=(0, 0, 1 << AH)), {48 + 17: 1.0}),
    ("AH in my tricks", _set(won_cards=(1 << AH, 0, 0)), {72 + 17: 1.0}),
    ("AH in left's tricks", _set(won_cards=(0, 1 << AH, 0)), {96 + 17: 1.0}),
    ("AH in right's tricks", _set(won_cards=(0, 0, 1 << AH)), {120 + 17: 1.0}),
    ("I led AH", _set(trick=(AH,)), {144 + 17: 1.0}),
    ("left led AH", _set(trick=(AH,), leader=1), {168 + 17: 1.0, 295: 0.0, 296: 1.0}),
    ("right led AH", _set(trick=(AH,), leader=2), {192 + 17: 1.0, 295: 0.0, 297: 1.0}),
    ("AH unseen", _set(unseen=1 << AH), {216 + 17: 1.0}),
    ("AH turned", _set(trump_card=AH), {240 + 17: 1.0}),
    ("trump hearts", _set(trump=2), {264 + 2: 1.0}),
    ("to follow", _set(decision=TableDecision.FOLLOW), {269: 0.0, 270: 1.0}),
    ("I declared diamonds", _set(declared=3), {279 + 3: 1.0}),
    ("my diamond marriage", _set(marriages=(8, 0, 0)), {283 + 3: 1.0}),
    ("left's club marriage", _set(marriages=(0, 1, 0)), {287: 1.0}),
    ("right's spade marriage", _set(marriages=(0, 0, 2)), {291 + 1: 1.0}),
    ("I dealt", _set(dealer=0), {300: 0.0, 298: 1.0}),
    ("my claim chance", _set(claim_chance=(True, False, False)), {301: 1.0}),
    ("I have 33", _set(points=(33, 0, 0)), {302: 0.5}),
    ("left has 66", _set(points=(0, 66, 0)), {303: 1.0}),
    ("right waits on 20", _set(pending=(0, 0, 20)), {307: 20 / 66}),
    ("I took 4 tricks", _set(side_tricks=(4, 0, 0)), {308: 0.5}),
    ("right holds 8 cards", _set(hand_sizes=(0, 0, 8)), {313: 1.0}),
    ("left has 10 stakes", _set(scores=(0, 10, 0)), {315: 0.5}),
    ("4 tricks played", _set(trick_count=4), {317: 0.5}),
]
FOUR_FACTS = [
    ("I hold AH", _set(hand=1 << AH), {17: 1.0}),
    ("left shows AH", _set(known=(0, 1 << AH, 0, 0)), {24 + 17: 1.0}),
    ("partner shows AH", _set(known=(0, 0, 1 << AH, 0)), {48 + 17: 1.0}),
    ("right shows AH", _set(known=(0, 0, 0, 1 << AH)), {72 + 17: 1.0}),
    ("AH in my tricks", _set(won_cards=(1 << AH, 0, 0, 0)), {96 + 17: 1.0}),
    ("AH in right's tricks", _set(won_cards=(0, 0, 0, 1 << AH)), {168 + 17: 1.0}),
    ("I led AH", _set(trick=(AH,)), {192 + 17: 1.0}),
    ("partner led AH", _set(trick=(AH,), leader=2), {240 + 17: 1.0, 371: 0.0, 373: 1.0}),
    ("AH unseen", _set(unseen=1 << AH), {288 + 17: 1.0}),
    ("AH turned", _set(trump_card=AH), {312 + 17: 1.0}),
    ("trump diamonds", _set(trump=3), {336 + 3: 1.0}),
    ("to name trump", _set(decision=TableDecision.TRUMP), {341: 0.0, 340: 1.0}),
    ("partner's marriage", _set(decision=TableDecision.PARTNER_MARRIAGE), {341: 0.0, 343: 1.0}),
    ("I declared clubs", _set(declared=0), {351: 1.0}),
    ("partner's heart marriage", _set(marriages=(0, 0, 4, 0)), {363 + 2: 1.0}),
    ("left dealt", _set(dealer=1), {378: 0.0, 376: 1.0}),
    ("my team's claim chance", _set(claim_chance=(True, False)), {379: 1.0}),
    ("their team has 33", _set(points=(0, 33)), {381: 0.5}),
    ("my team waits on 40", _set(pending=(40, 0)), {382: 40 / 66}),
    ("their team took 3 tricks", _set(side_tricks=(0, 3)), {385: 0.5}),
    ("partner holds 6 cards", _set(hand_sizes=(0, 0, 6, 0)), {388: 1.0}),
    ("my team has 4 game points", _set(scores=(4, 0)), {390: 0.5}),  # russian target 8
    ("3 tricks played", _set(trick_count=3), {392: 0.5}),
    ("AH out of play, mine", _set(out_mine=1 << AH), {393 + 17: 1.0}),
    ("I committed AH", _set(committed=(AH, -1, -1, -1)), {417 + 17: 1.0, 492: 1.0}),
    ("left committed unseen", _set(committed=(-1, -2, -1, -1)), {493: 1.0}),
    ("left's AH shown", _set(committed=(-1, AH, -1, -1)), {441 + 17: 1.0, 493: 1.0}),
    ("9H shown", _set(nines_shown=1 << 12), {465 + 2: 1.0}),
    ("9D left", _set(nine_left=18), {469 + 3: 1.0}),
    ("partner bid fur coat", _set(bid=3, bidder=2), {473 + 2: 1.0, 486: 1.0}),
    ("suit played", _set(contract=4), {477 + 3: 1.0}),
    ("my pair meets (c)", _set(pair_answer=1), {481: 1.0}),
    ("my pair does not", _set(pair_answer=0), {482: 1.0}),
    ("two nines cut", _set(cuts=(0, 6)), {483: 2 / 3}),
    ("right declared nines", _set(nines_by=3), {491: 1.0}),
    ("left sits out", _set(sitting_out=1), {497: 1.0}),
    ("partner has 3 out", _set(out_sizes=(0, 0, 3, 0)), {502: 0.5}),
    ("right to bid", _set(queue=(3,)), {507: 1.0}),
    ("their team asked", _set(trumps_asked=(False, True)), {509: 1.0}),
    ("my team scored 4", _set(deal_scored=(4, 0)), {510: 0.5}),
]


@pytest.mark.parametrize(("game", "blank"), [(ThreeDeal, BLANK_THREE), (FourDeal, BLANK_FOUR)])
def test_the_blank_table_view_sets_only_its_own_bits(game, blank: dict[int, float]) -> None:
    assert nonzero(encode_table_vector(blank_view(game))) == pytest.approx(blank)


@pytest.mark.parametrize(
    ("game", "blank", "fact", "change", "expected"),
    [(ThreeDeal, BLANK_THREE, *f) for f in THREE_FACTS] + [(FourDeal, BLANK_FOUR, *f) for f in FOUR_FACTS],
    ids=[f"three: {f[0]}" for f in THREE_FACTS] + [f"four: {f[0]}" for f in FOUR_FACTS],
)
def test_one_table_fact_changes_exactly_its_index(game, blank, fact: str, change, expected) -> None:
    v = blank_view(game)
    change(v)
    want = {**blank, **expected}
    assert nonzero(encode_table_vector(v)) == pytest.approx({i: x for i, x in want.items() if x}), fact
