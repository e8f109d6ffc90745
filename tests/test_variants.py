"""Every rule toggle, each pinned by an arrangement whose play or score changes with it.

Each test builds the same deal under the toggled rules and under the rules without the toggle,
and asserts both behaviours: a toggle the engine (or the match loop) ignored would fail here.
The last part checks that every combination the dataclass accepts plays correctly, and that
every preset passes PettingZoo's checks.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix_env import PRESETS, Deal, Decision, Rules, Termination, get_rules, parse_action
from sixtysix_env.actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, PASS
from sixtysix_env.cards import NUM_CARDS, Rank, parse_card, parse_cards
from sixtysix_env.engine import MAX_DEAL_ACTIONS
from sixtysix_env.match import Match
from sixtysix_env.rules import FIELD_CHOICES, PRESET_INFO

from .conftest import arrange

STANDARD = get_rules("standard")
EXPLICIT = STANDARD.replace(claiming="explicit")


def _cards(text: str) -> set[int]:
    return set(parse_cards(text))


def _legal(deal: Deal) -> set[int]:
    return set(deal.legal_actions())


def _both(changes: dict, base: Rules = STANDARD) -> tuple[Rules, Rules]:
    """(rules with the toggle, the same rules without it)."""
    return base.replace(name="toggled", **changes), base


def _first_legal(deal: Deal, tricks: int) -> Deal:
    """Play the lowest legal card (drawing without closing) until ``tricks`` tricks are done and
    the winner is on lead."""
    while deal.outcome is None and (deal.trick_count < tricks or deal.decision != Decision.LEAD):
        legal = deal.legal_actions()
        deal.apply(PASS if PASS in legal else legal[0])
    return deal


def _replay(notation: str, rules: Rules, drop_last: int = 0) -> Deal:
    """A deal from position text, under other rules (the arrangement and moves stay the same)."""
    head, _, played = notation.rpartition("played=")
    moves = played.split()
    deal = Deal.from_notation(head + "played=", rules)
    return deal.apply_all(moves[: len(moves) - drop_last])


# Found by random playouts and pinned here; each is legal under both rule sets it is used with.
PLAYED_OUT = (
    "standard; dealer=1; hands=QD KD 9H 9S TS TH | QS JH 9D AD QH TD; "
    "stock=AC JC AH KC KH TC JS JD KS AS 9C QC; played=9H QS P AC JC P QD KC P AD TH P M2 QH TS P KS AH P "
    "TD JD JS AS KD 9D 9S 9C KH QC TC JH P"
)
LOSER_WITH_TRICK_OF_NINES = (
    "standard; dealer=0; hands=9D KD TH QC JD AH | 9S 9C TC TS AC 9H; "
    "stock=KS QD QH TD JS JC QS KH AS KC AD JH; played=TS TH P AH QD P QC TD C P 9D 9H AC QH KS 9S KD 9C"
)
CLOSER_OUT_OPPONENT_NO_TRICK_AT_CLOSING = (
    "standard; dealer=0; hands=QH 9C AH JS 9S AS | TD KD TS TC QC QD; "
    "stock=JD AC 9D KS AD KH TH QS JC JH 9H KC; played=TD AS P JD QH P C X QC AC KC TC QD JS KD KS TS 9S 9D AH"
)
CLOSER_OUT_OPPONENT_OVER_33 = (
    "standard; dealer=1; hands=KH QD QH TS KC JH | AS 9C JD TC AD KS; "
    "stock=TD KD AC 9H TH QS 9D QC 9S JS JC AH; played=M2 KH AD C TS AS TC KC 9C QH JH KS QD JD"
)
CLOSER_FAILS_OPPONENT_HAD_TRICK = (
    "standard; dealer=0; hands=QD JH KS TD QH TH | TS JD 9S KC JS AH; "
    "stock=9H AC AS KD TC 9C JC QS KH QC 9D AD; played=JS KS P TH JD C AC TD 9H AH TS QD QH 9S JH KC"
)
CLOSER_OUT_SCHWARZ = (
    "standard; dealer=1; hands=QD AS AD AH KD JH | AC TS KS 9S 9C JS; "
    "stock=JD TH 9H TD QH KH KC QS QC 9D TC JC; played=AS 9C C TS JH KS QD 9S AD AC AH JS KD"
)
DRAWN_65_65 = (
    "standard; dealer=1; hands=QD JD JC 9D QC 9H | AD 9S KC TH KH TD; "
    "stock=AC QH TC KS QS JH KD AS AH JS TS 9C; played=QC TD P AC TH P QD KC P QH JH P QS 9H P 9S JC P "
    "AS KS TS 9C AD 9D KH TC JD KD AH JS"
)


# ---------------------------------------------------------------------- cards and exchange
def test_deck_size_20_deals_five_cards_and_no_nines():
    toggled, base = _both({"deck_size": 20, "exchange_rank": Rank.JACK})
    nines = _cards("9C 9S 9H 9D")
    for seed in range(20):
        d = Deal.new(toggled, random.Random(seed))
        assert [h.bit_count() for h in d.hands] == [5, 5] and len(d.stock) == 10
        dealt = d.hands[0] | d.hands[1] | sum(1 << c for c in d.stock)
        assert not any(dealt >> c & 1 for c in nines)
        assert not _legal(d) & nines  # the nines' actions are always masked
        b = Deal.new(base, random.Random(seed))
        assert [h.bit_count() for h in b.hands] == [6, 6] and len(b.stock) == 12
    with pytest.raises(ValueError, match="not in the 20-card deck"):
        Deal.from_arrangement(["9C JC QC KC TC", "AC JS QS KS TS"], "AS JH QH KH TH AH JD QD KD TD", 0, toggled)


def test_exchange_rank_jack_exchanges_the_trump_jack():
    toggled, base = _both({"exchange_rank": Rank.JACK}, STANDARD.replace(exchange_requires="any"))
    hands = ("9C JC QC KC TC AC", "JH 9S JS QS KS TS")
    d = arrange(*hands, "AH", rules=toggled)
    assert EXCHANGE in _legal(d)
    d.apply(EXCHANGE)
    assert d.hands[1] >> parse_card("AH") & 1 and d.stock[0] == parse_card("JH")
    assert EXCHANGE not in _legal(arrange(*hands, "AH", rules=base))


def test_exchange_requires_any_allows_the_exchange_on_the_first_lead():
    toggled, base = _both({"exchange_requires": "any"})
    hands = ("9C JC QC KC TC AC", "9H 9S JS QS KS TS")
    assert EXCHANGE in _legal(arrange(*hands, "AH", rules=toggled))
    assert EXCHANGE not in _legal(arrange(*hands, "AH", rules=base))


def test_exchange_requires_after_first_trick_needs_no_own_trick():
    # On lead the two agree (the leader after trick 1 has just won it); they differ for a follower.
    toggled, base = _both({"exchange_requires": "after_first_trick"}, STANDARD.replace(exchange_timing="any_turn"))
    hands = ("AS 9C JC QC KC TC", "9H 9S JS QS KS TS")
    for rules, allowed in ((toggled, True), (base, False)):
        d = arrange(*hands, "AH", rules=rules).apply_all("9S AS P 9C")  # player 0 won trick 1 and leads
        assert d.decision == Decision.FOLLOW and d.current == 1 and d.tricks[1] == 0
        assert (EXCHANGE in _legal(d)) is allowed


def test_exchange_timing_any_turn_lets_the_follower_exchange():
    toggled, base = _both({"exchange_timing": "any_turn"})
    hands = ("AS 9C 9H JC QC KC", "9S AC JS QS KS TS")
    for rules, allowed in ((toggled, True), (base, False)):
        d = arrange(*hands, "AH", rules=rules).apply_all("9S AS P 9C AC P JS")  # player 0 follows, has a trick
        assert d.decision == Decision.FOLLOW and d.current == 0 and d.tricks[0] == 1
        assert (EXCHANGE in _legal(d)) is allowed
    d = arrange(*hands, "AH", rules=toggled).apply_all("9S AS P 9C AC P JS X")
    assert d.decision == Decision.FOLLOW and d.current == 0 and parse_card("AH") in d.legal_actions()
    d.apply(parse_card("AH"))
    assert d.tricks[0] == 2


def test_exchange_at_closing_off_gives_the_opponent_no_exchange():
    toggled, base = _both({"exchange_at_closing": False})
    hands = ("9H 9C JC QC KC TC", "AC 9S JS QS KS TS")
    d = arrange(*hands, "AH", rules=base).apply_all("C")
    assert d.decision == Decision.CLOSING_EXCHANGE and d.current == 0 and _legal(d) == {EXCHANGE, PASS}
    d = arrange(*hands, "AH", rules=toggled).apply_all("C")
    assert d.decision == Decision.LEAD and d.current == 1


# ---------------------------------------------------------------------- closing
def test_closing_off_never_offers_close():
    toggled, base = _both({"closing": False})
    hands = ("9C JC QC KC TC AC", "9S JS QS KS TS AS")
    assert CLOSE in _legal(arrange(*hands, "AH", rules=base))
    d = arrange(*hands, "AH", rules=toggled)
    while d.outcome is None:
        assert CLOSE not in _legal(d)
        d.apply(d.legal_actions()[0])


def test_closing_min_stock_6_forbids_closing_with_4_cards_left():
    toggled, base = _both({"closing_min_stock": 6})
    hands = ("9C JC QC KC TC AC", "9S JS QS KS TS AS")
    for rules, allowed_at_4 in ((toggled, False), (base, True)):
        d = _first_legal(arrange(*hands, "AH", rules=rules), 3)
        assert len(d.stock) == 6 and d.decision == Decision.LEAD and CLOSE in _legal(d)
        d = _first_legal(d, 4)
        assert len(d.stock) == 4 and d.decision == Decision.LEAD and (CLOSE in _legal(d)) is allowed_at_4


def test_close_before_drawing_off_draws_automatically():
    toggled, base = _both({"close_before_drawing": False})
    hands = ("AS 9C JC QC KC TC", "9S 9H JS QS KS TS")
    d = arrange(*hands, "AH", rules=base).apply_all("9S AS")
    assert d.decision == Decision.DRAW and _legal(d) == {CLOSE, PASS} and d.hands[0].bit_count() == 5
    d = arrange(*hands, "AH", rules=toggled).apply_all("9S AS")
    assert d.decision == Decision.LEAD and d.hands[0].bit_count() == 6 and CLOSE in _legal(d)


# ---------------------------------------------------------------------- marriages
def test_marriages_after_stock_allows_declaring_once_closed():
    toggled, base = _both({"marriages_after_stock": True})
    hands = ("9C JC TC AC 9D JD", "KC QC AS 9S JS QS")
    for rules, allowed in ((toggled, True), (base, False)):
        d = arrange(*hands, "AH", rules=rules).apply_all("C AS 9D")  # player 1 closed, won, leads again
        assert d.closed_by == 1 and d.current == 1 and d.decision == Decision.LEAD
        assert (MARRIAGE + 0 in _legal(d)) is allowed


def test_marriage_on_first_lead_off_waits_for_the_first_trick():
    toggled, base = _both({"marriage_on_first_lead": False})
    hands = ("9C JC TC AC 9D JD", "KS QS AS 9S JS TS")
    assert MARRIAGE + 1 in _legal(arrange(*hands, "AH", rules=base))
    d = arrange(*hands, "AH", rules=toggled)
    assert MARRIAGE + 1 not in _legal(d)
    assert MARRIAGE + 1 not in _legal(d.clone().apply_all("C"))  # not even for a non-dealer who closes
    d.apply_all("9S 9C P")  # player 1 wins the first trick and leads again
    assert d.current == 1 and MARRIAGE + 1 in _legal(d)


def test_marriage_counts_next_trick_keeps_points_pending():
    toggled, base = _both({"marriage_counts": "next_trick"})
    hands = ("9S AC TC JH 9H JC", "AS KC QC 9D JD QD")
    d = arrange(*hands, "AD", rules=base).apply_all("AS 9S P M0")
    assert d.points[1] == 11 + 20 and d.pending[1] == 0
    d = arrange(*hands, "AD", rules=toggled).apply_all("AS 9S P M0")
    assert d.points[1] == 11 and d.pending[1] == 20
    d.apply_all("KC AC P")  # player 0 wins the king: the 20 stay pending
    assert d.points[1] == 11 and d.pending[1] == 20
    d.apply_all("JC QC P")  # player 1 wins his next trick: now they count
    assert d.points[1] == 11 + 20 + 3 + 2 and d.pending[1] == 0


def test_marriage_lead_king_forces_the_king():
    toggled, base = _both({"marriage_lead": "king"})
    hands = ("9C JC TC AC 9D JD", "KS QS AS 9S JS TS")
    assert _legal(arrange(*hands, "AH", rules=base).apply_all("M1")) == _cards("KS QS")
    assert _legal(arrange(*hands, "AH", rules=toggled).apply_all("M1")) == _cards("KS")


# ---------------------------------------------------------------------- end of the deal
def test_last_trick_bonus_0_gives_no_points_for_the_last_trick():
    base = EXPLICIT
    toggled = base.replace(name="toggled", last_trick_bonus=0)
    with_bonus, without = _replay(PLAYED_OUT, base), _replay(PLAYED_OUT, toggled)
    assert with_bonus.trick_count == without.trick_count == 12
    assert sum(with_bonus.points) - sum(without.points) == 10


def test_played_out_winner_last_trick_gives_the_deal_to_the_last_trick():
    toggled, base = _both({"played_out_winner": "last_trick"}, EXPLICIT)
    by_points, by_last = _replay(PLAYED_OUT, base), _replay(PLAYED_OUT, toggled)
    last_winner = by_last.leader
    assert by_points.outcome.winner != last_winner  # more points, but not the last trick
    assert by_last.outcome == type(by_last.outcome)(last_winner, 1, Termination.PLAYED_OUT)


def test_must_win_trick_off_allows_a_lower_card_of_the_suit():
    toggled, base = _both({"must_win_trick": False})
    hands = ("AS 9S 9C JC QC KC", "KS JS QS TS AC TC")
    assert _legal(arrange(*hands, "AH", rules=base).apply_all("C KS")) == _cards("AS")
    assert _legal(arrange(*hands, "AH", rules=toggled).apply_all("C KS")) == _cards("AS 9S")


def test_schwarz_no_points_counts_tricks_of_nines_as_schwarz():
    toggled, base = _both({"schwarz": "no_points"})
    a, b = _replay(LOSER_WITH_TRICK_OF_NINES, base), _replay(LOSER_WITH_TRICK_OF_NINES, toggled)
    loser = 1 - a.outcome.winner
    assert a.tricks[loser] > 0 and a.points[loser] == 0
    assert (a.outcome.game_points, b.outcome.game_points) == (2, 3)


def test_closer_win_at_closing_scores_from_the_moment_of_closing():
    toggled, base = _both({"closer_win": "at_closing"})
    a, b = (
        _replay(CLOSER_OUT_OPPONENT_NO_TRICK_AT_CLOSING, base),
        _replay(CLOSER_OUT_OPPONENT_NO_TRICK_AT_CLOSING, toggled),
    )
    assert a.outcome.winner == a.closed_by and a.closed_opp_tricks == 0 and a.tricks[1 - a.closed_by] > 0
    assert (a.outcome.game_points, b.outcome.game_points) == (2, 3)


def test_closer_win_always_3():
    toggled, base = _both({"closer_win": "always_3"})
    a, b = _replay(CLOSER_OUT_OPPONENT_OVER_33, base), _replay(CLOSER_OUT_OPPONENT_OVER_33, toggled)
    assert a.outcome.winner == a.closed_by and a.points[1 - a.closed_by] >= 33
    assert (a.outcome.game_points, b.outcome.game_points) == (1, 3)


def test_closer_fail_always_3():
    toggled, base = _both({"closer_fail": "always_3"})
    a, b = _replay(CLOSER_FAILS_OPPONENT_HAD_TRICK, base), _replay(CLOSER_FAILS_OPPONENT_HAD_TRICK, toggled)
    assert a.outcome.termination == Termination.CLOSER_FAILED and a.closed_opp_tricks > 0
    assert (a.outcome.game_points, b.outcome.game_points) == (2, 3)


# The 6-point rule (ru-old-and-marriage :33-34): failed closes, by (closer took a trick after
# closing, opponent had a trick at closing); found by random playouts under the standard rules.
FAILED_CLOSES = {
    (False, True): (
        "standard; dealer=0; hands=9S QC KS 9H AD QS | 9C TH QD KD KC TD; "
        "stock=KH TS QH JS JC AC TC 9D AS AH JH JD; played=M3 KD QS P TH AD C TS TD"
    ),
    (True, False): (
        "standard; dealer=1; hands=JD 9D TH TC TS AD | QH JS KC TD AH AC; "
        "stock=KS 9S QC QD 9H QS 9C JC JH KH KD AS; played=C TS JS JD TD AH TH QH AD AC TC"
    ),
    (True, True): (
        "standard; dealer=1; hands=9H AS QC QD KC TC | JS AH TD 9S 9D QH; "
        "stock=JD KD AD TH JC QS JH TS 9C KS KH AC; played=M0 KC TD P QD KD C 9S AS 9H AH JS QC"
    ),
    (False, False): (
        "standard; dealer=0; hands=AS KH AD TH JS JH | QD KD QS TS AC TC; "
        "stock=9D 9C QH KC 9H 9S TD AH JC KS QC JD; played=M3 QD AD C JS TS AC KH"
    ),
}
SIX_POINTS = {  # game points to the closer's opponent, per reading, in the order of FAILED_CLOSES
    "never": [2, 3, 2, 3],
    "closer_no_trick": [6, 3, 2, 6],
    "or_opponent_no_trick": [6, 6, 2, 6],
}


@pytest.mark.parametrize("six", list(SIX_POINTS))
def test_failed_close_six_gives_the_closers_opponent_6(six):
    rules = STANDARD.replace(name="toggled", failed_close_six=six)
    got = []
    for (took_trick_after, opp_had_trick), text in FAILED_CLOSES.items():
        d = _replay(text, rules)
        closer = d.closed_by
        assert d.outcome.termination == Termination.CLOSER_FAILED and d.outcome.winner == 1 - closer
        assert (d.tricks[closer] > d.closed_own_tricks, d.closed_opp_tricks > 0) == (took_trick_after, opp_had_trick)
        got.append(d.outcome.game_points)
    assert got == SIX_POINTS[six]


def test_failed_close_six_never_rewards_the_closer():
    rules = STANDARD.replace(name="toggled", failed_close_six="or_opponent_no_trick")
    for text in (CLOSER_OUT_SCHWARZ, CLOSER_OUT_OPPONENT_NO_TRICK_AT_CLOSING, CLOSER_OUT_OPPONENT_OVER_33):
        a, b = _replay(text, STANDARD), _replay(text, rules)
        assert a.outcome.winner == a.closed_by and b.outcome == a.outcome


def test_failed_close_six_also_scores_a_false_claim_by_the_closer():
    # explicit claiming: player 0 closes after his first trick and at once goes out with 3 points
    text = (
        "standard; dealer=0; hands=TH 9S 9D JS QC QS | 9C JC AD AH KD JH; "
        "stock=KS 9H TC JD KH QH TD AC QD AS KC TS; played=AH TH P 9C QC C G"
    )
    for six, want in (("never", 2), ("closer_no_trick", 6), ("or_opponent_no_trick", 6)):
        d = _replay(text, EXPLICIT.replace(name="toggled", failed_close_six=six))
        assert d.closed_by == 0 and d.tricks[0] == d.closed_own_tricks and d.closed_opp_tricks == 1
        assert d.outcome.termination == Termination.FALSE_CLAIM and d.outcome.winner == 1
        assert d.outcome.game_points == want


def test_max_game_points_follows_the_six_point_rule():
    assert STANDARD.max_game_points == 3
    assert STANDARD.replace(failed_close_six="closer_no_trick").max_game_points == 6


def test_claiming_explicit_makes_going_out_an_action_and_punishes_a_false_claim():
    toggled, base = _both({"claiming": "explicit"})
    auto = _replay(LOSER_WITH_TRICK_OF_NINES, base)
    assert auto.outcome.termination == Termination.WENT_OUT
    explicit = _replay(LOSER_WITH_TRICK_OF_NINES, toggled)
    assert explicit.outcome is None and GO_OUT in _legal(explicit)
    explicit.apply(GO_OUT)
    assert explicit.outcome == auto.outcome
    early = arrange("9C JC QC KC TC AC", "9S JS QS KS TS AS", "AH", rules=toggled).apply_all("AS 9C")
    assert early.decision == Decision.DRAW and GO_OUT in _legal(early) and early.points[1] < 66
    early.apply(GO_OUT)
    assert early.outcome.winner == 0 and early.outcome.game_points == 2
    assert early.outcome.termination == Termination.FALSE_CLAIM


# ---------------------------------------------------------------------- the match loop
def _match_at_last_move(notation: str, rules: Rules) -> tuple[Match, int]:
    last = parse_action(notation.split()[-1])
    deal = _replay(notation, rules, drop_last=1)
    return Match(rules, random.Random(0), first_deal=deal), last


@pytest.mark.parametrize(("drawn_deal", "next_dealer"), [("same_dealer", 1), ("new_dealer", 0), ("carry", 1)])
def test_drawn_deal_decides_the_next_dealer_and_the_carried_point(drawn_deal, next_dealer):
    rules = STANDARD.replace(name="toggled", drawn_deal=drawn_deal)
    match, last = _match_at_last_move(DRAWN_65_65, rules)
    match.apply(last)
    assert match.deal.outcome.termination == Termination.DRAWN and match.scores == [0, 0]
    assert match.next_dealer() == next_dealer
    deal = match.next_deal()
    rng = random.Random(5)
    while deal.outcome is None:
        match.apply(rng.choice(deal.legal_actions()))
    out = deal.outcome
    assert out.winner >= 0  # this seed's second deal has a winner
    extra = 1 if drawn_deal == "carry" else 0
    assert match.scores[out.winner] == out.game_points + extra


@pytest.mark.parametrize(("next_dealer", "expected"), [("winner", 1), ("alternate", 0)])
def test_next_dealer_winner_or_alternate(next_dealer, expected):
    rules = STANDARD.replace(name="toggled", next_dealer=next_dealer)
    match, last = _match_at_last_move(CLOSER_OUT_SCHWARZ, rules)
    match.apply(last)
    assert match.deal.dealer == 1 and match.deal.outcome.winner == 1
    assert match.next_dealer() == expected


@pytest.mark.parametrize(("target", "over"), [(3, True), (7, False)])
def test_match_target_ends_the_match(target, over):
    rules = STANDARD.replace(name="toggled", match_target=target)
    match, last = _match_at_last_move(CLOSER_OUT_SCHWARZ, rules)
    match.apply(last)
    assert match.scores[1] == 3 and match.is_over is over


# ---------------------------------------------------------------------- every combination, every preset
def _rules_strategy() -> st.SearchStrategy[Rules]:
    def build(deck: int, choices: dict, flags: dict, numbers: dict) -> Rules:
        rank = Rank.JACK if deck == 20 else numbers.pop("rank")
        numbers.pop("rank", None)
        stock = 10 if deck == 20 else 12
        return Rules(
            name="random",
            deck_size=deck,
            exchange_rank=rank,
            closing_min_stock=min(numbers.pop("closing_min_stock"), stock),
            **choices,
            **flags,
            **numbers,
        )

    return st.builds(
        build,
        st.sampled_from([20, 24]),
        st.fixed_dictionaries({k: st.sampled_from(v) for k, v in FIELD_CHOICES.items()}),
        st.fixed_dictionaries(
            {
                k: st.booleans()
                for k in (
                    "exchange_at_closing",
                    "closing",
                    "close_before_drawing",
                    "marriages_after_stock",
                    "marriage_on_first_lead",
                    "must_win_trick",
                )
            }
        ),
        st.fixed_dictionaries(
            {
                "rank": st.sampled_from(list(Rank)),
                "closing_min_stock": st.sampled_from([2, 4, 6, 8, 10, 12]),
                "last_trick_bonus": st.sampled_from([0, 10, 20]),
                "match_target": st.integers(1, 11),
            }
        ),
    )


@given(rules=_rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_any_toggle_combination_plays_correctly(rules, seed):
    rng = random.Random(seed)
    deal = Deal.new(rules, rng, dealer=seed & 1)
    steps = 0
    while deal.outcome is None:
        legal = deal.legal_actions()
        assert legal and all(0 <= a < 32 for a in legal)
        assert all(rules.deck_mask >> a & 1 for a in legal if a < NUM_CARDS)
        for a in legal:
            deal.clone().apply(a)
        deal.apply(rng.choice(legal))
        steps += 1
        assert steps <= MAX_DEAL_ACTIONS
        union = deal.hands[0] | deal.hands[1] | deal.won_cards[0] | deal.won_cards[1] | sum(1 << c for c in deal.stock)
        if deal.lead_card >= 0:
            union |= 1 << deal.lead_card
        assert union == rules.deck_mask
    out = deal.outcome
    assert sum(out.returns()) == 0
    if out.winner >= 0:
        assert 1 <= out.game_points <= rules.max_game_points


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"closing_min_stock": 5}, "even"),
        ({"closing_min_stock": 12, "deck_size": 20, "exchange_rank": Rank.JACK}, "cannot occur"),
        ({"exchange_timing": "whenever"}, "lead, any_turn"),
        ({"exchange_rank": 9}, "Rank"),
        ({"closing": "yes"}, "True or False"),
        ({"last_trick_bonus": 10.0}, "int"),
        ({"failed_close_six": "yes"}, "never, closer_no_trick, or_opponent_no_trick"),
    ],
)
def test_impossible_combinations_are_rejected_with_a_clear_error(changes, fragment):
    with pytest.raises(ValueError, match=fragment):
        Rules(**changes)


def test_every_preset_documents_its_sources_and_unstated_settings():
    fields = set(Rules.__dataclass_fields__)
    assert set(PRESET_INFO) == set(PRESETS)
    for info in PRESET_INFO.values():
        assert info.sources and info.unstated <= fields
        assert {f for f, _ in info.notes} <= fields
    assert PRESETS["vu"].differences(PRESETS["schnapsen"]).keys() == {
        "closing",
        "exchange_requires",
        "marriage_counts",
        "marriage_lead",
    }


def test_rules_page_is_generated_from_the_code():
    from sixtysix_env.rulesdoc import render_rules_page

    page = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
    assert page.read_text(encoding="utf-8") == render_rules_page(), "run: python -m sixtysix_env.rulesdoc"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_passes_the_pettingzoo_checks(preset):
    from pettingzoo.test import api_test, seed_test

    from sixtysix_env.envs import sixtysix_v0

    api_test(sixtysix_v0.env(rules=preset), num_cycles=200)
    seed_test(lambda: sixtysix_v0.env(rules=preset, episode="match"), num_cycles=200)
