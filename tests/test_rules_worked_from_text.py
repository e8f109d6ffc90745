"""Worked cases written from the text of docs/RULES.md, checked on both engines.

Each case is a hand-built arrangement, a line of play, and what the rules text says must follow: the
legal actions at each step and the score, all written out here literally (card ids from the rule
``id = 6 * suit + rank``, action ids from the table in ``sixtysix_env.actions``), never computed
by an engine. The same case runs on the reference engine (``Deal``) and on the batched engine
(``sixtysix_env.fast``), so a one-line slip in either one fails here on its own, without the
golden files or the reference/batched comparison.

In the two-player cases trump is hearts and the dealer is seat 0, so seat 1 leads first (RULES
2.1). The three- and four-player cases (the schneider line at the table) run on the table engine.
"""

from __future__ import annotations

import importlib.util

import pytest

from sixtysix_env import Deal, Termination, get_rules
from sixtysix_env.rules import Rules

_SUITS = "CSHD"  # clubs, spades, hearts, diamonds = 0..3
_RANKS = "9JQKTA"  # ascending strength = 0..5
MARRIAGE = {"C": 24, "S": 25, "H": 26, "D": 27}
EXCHANGE, CLOSE, PASS, GO_OUT = 28, 29, 30, 31
ENGINES = ["reference", "batched"]


def cid(text: str) -> int:
    """A card id from its two-letter name ("AH" = ace of hearts = 6 * 2 + 5 = 17)."""
    return 6 * _SUITS.index(text[1]) + _RANKS.index(text[0])


def cards(text: str) -> list[int]:
    return [cid(t) for t in text.split()]


def act(token: str) -> int:
    """An action from its text: a card ("QH"), "M" + suit letter, or X / C / P / G."""
    if token.startswith("M") and len(token) == 2:
        return MARRIAGE[token[1]]
    return {"X": EXCHANGE, "C": CLOSE, "P": PASS, "G": GO_OUT}.get(token) or cid(token)


def legal(text: str) -> set[int]:
    return {act(t) for t in text.split()}


class Reference:
    """A case on the reference engine."""

    def __init__(self, hand0: str, hand1: str, stock: str, rules: Rules) -> None:
        self.deal = Deal.from_arrangement([cards(hand0), cards(hand1)], cards(stock), 0, rules)

    def legal(self) -> set[int]:
        return set(self.deal.legal_actions())

    def play(self, token: str) -> None:
        self.deal.apply(act(token))

    def result(self) -> tuple[int, int, int] | None:
        out = self.deal.outcome
        return None if out is None else (out.winner, out.game_points, int(out.termination))

    def points(self) -> list[int]:
        return list(self.deal.points)


class Batched:
    """The same case on the batched engine: one env, no autoreset."""

    def __init__(self, hand0: str, hand1: str, stock: str, rules: Rules) -> None:
        from sixtysix_env.fast import BatchedDeals
        from sixtysix_env.fast.state import POINTS

        self._points = POINTS
        self.batch = BatchedDeals(1, rules=rules, autoreset=False)
        self.batch.reset(arrangements=[(cards(hand0), cards(hand1), cards(stock), 0)])
        self.done = False

    def legal(self) -> set[int]:
        bits = int(self.batch.legal_mask_bits()[0])
        return {a for a in range(32) if bits >> a & 1}

    def play(self, token: str) -> None:
        assert not self.done, "the deal is over"
        _, done = self.batch.step([act(token)])
        self.done = bool(done[0])

    def result(self) -> tuple[int, int, int] | None:
        if not self.done:
            return None
        b = self.batch
        return int(b.last_winner[0]), int(b.last_game_points[0]), int(b.last_termination[0])

    def points(self) -> list[int]:
        return [int(self.batch.state[0, self._points + p]) for p in (0, 1)]


def start(engine: str, hand0: str, hand1: str, stock: str, rules: Rules | str = "standard") -> Reference | Batched:
    """A case: hands of seat 0 (the dealer) and seat 1, the stock top first (its last card is the
    face-up trump card)."""
    r = get_rules(rules)
    if engine == "batched":
        if importlib.util.find_spec("numba") is None:
            pytest.skip("the batched engine needs numba")
        return Batched(hand0, hand1, stock, r)
    return Reference(hand0, hand1, stock, r)


def run(case: Reference | Batched, steps: list[tuple[str, str]]) -> None:
    """For each (expected legal actions, action) step: check the legal set, then play."""
    for k, (expected, token) in enumerate(steps):
        assert case.legal() == legal(expected), f"step {k} (before {token})"
        case.play(token)


# ---------------------------------------------------------------- (a) marriages after closing, RULES 2.6 and 2.7
# Seat 1 holds the spade and the diamond marriages; seat 0 the club marriage. Nobody holds 9H
# (it is in the stock), so closing offers no exchange.
A_HAND0 = "AS KC QC 9D JC TH"
A_HAND1 = "KS QS KD QD TC 9S"
A_STOCK = "9C AC JS TS 9H QH KH AH JD TD AD JH"


@pytest.mark.parametrize("engine", ENGINES)
def test_only_the_closer_declares_and_only_on_the_lead_right_after_closing(engine: str) -> None:
    """2.7: "no marriage may be declared except the closer's one on the lead right after
    closing"; 2.6: "A player who closes may still declare on the lead that follows his closing";
    the non-dealer may close before the first trick and declare on his first lead."""
    case = start(engine, A_HAND0, A_HAND1, A_STOCK)
    run(
        case,
        [
            ("KS QS KD QD TC 9S MS MD C", "C"),  # first lead: cards, both marriages, close
            ("KS QS KD QD TC 9S MS MD", "MS"),  # right after closing: the closer may still declare
            ("KS QS", "KS"),  # a declared marriage: lead its king or queen
            ("AS", "AS"),  # phase 2: beat the spade king with the ace
            ("KC QC 9D JC TH", "JC"),  # seat 0 holds the club marriage but did not close: no M
            ("TC", "TC"),  # seat 1 must beat the club jack with its ten
            ("QS KD QD 9S", "9S"),  # the closer's later lead: no diamond marriage any more
        ],
    )
    assert case.points() == [15, 32]  # 0: AS + KS; 1: TC + JC = 12, plus the 20 once it has a trick


# ---------------------------------------------------------------- (b) the trump nine after closing, RULES 2.5
@pytest.mark.parametrize("engine", ENGINES)
def test_the_closer_cannot_exchange_the_nine_once_he_has_closed(engine: str) -> None:
    """2.5: the swap needs an open stock; the order within a lead is draw, exchange, close, so
    the closer who holds the nine exchanges before closing or not at all."""
    case = start(
        engine,
        "9C JC QC KC TS AS",
        "AC 9H KS QS TD JD",
        "9D JS TC 9S QD KD AD JH QH KH TH AH",
    )
    run(
        case,
        [
            ("AC 9H KS QS TD JD MS C", "AC"),
            ("9C JC QC KC TS AS", "9C"),  # phase 1: any card
            ("C P", "P"),  # seat 1 won: close before drawing, or draw (9D to seat 1, JS to seat 0)
            ("9H KS QS TD JD 9D MS X C", "C"),  # a won trick and the nine: X is offered, seat 1 closes
            ("9H KS QS TD JD 9D MS", "TD"),  # closed: no exchange any more
        ],
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_an_exchange_declined_at_the_closing_is_gone(engine: str) -> None:
    """2.5: at a closing the opponent may swap at once, even without a won trick; "He may
    decline; he cannot do it later". 2.7: no marriage for him after the closing either."""
    case = start(
        engine,
        "9H AC AS KD QD TD",
        "9C JC QC 9S JS 9D",
        "KC TC QS KS TS JH QH KH TH JD AD AH",
    )
    run(
        case,
        [
            ("9C JC QC 9S JS 9D C", "C"),  # the non-dealer closes before the first trick
            ("X P", "P"),  # seat 0 holds 9H: exchange at once, or keep it (here: keeps it)
            ("9C JC QC 9S JS 9D", "9C"),
            ("AC", "AC"),  # beat the club nine
            ("9H AS KD QD TD", "TD"),  # seat 0 has won a trick and holds 9H: still no X, no M
        ],
    )


# ---------------------------------------------------------------- (c) a loser on exactly 33, RULES 2.9
# Seat 1 closes, declares 40 and wins the trump trick (45), gives seat 0 two tricks, then wins
# the ace of diamonds trick: 45 + 21 = 66, and goes out. "Schneider: the loser has fewer than 33."
LOSER_33 = (
    "JH AS TC TD 9C 9D",
    "QH KH TS JC AD 9S",
    "AC QC KC JS QS KS 9H TH JD QD KD AH",
    "C MH QH JH TS AS TC JC TD AD",  # seat 0 wins TS+AS = 21 and TC+JC = 12: 33
)
LOSER_32 = (
    "JH AS AC TD JC 9D",
    "QH KH TS 9C AD 9S",
    "QC KC TC JS QS KS 9H TH JD QD KD AH",
    "C MH QH JH TS AS AC 9C TD AD",  # seat 0 wins TS+AS = 21 and AC+9C = 11: 32
)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("rules", "case", "loser_points", "game_points"),
    [
        ("standard", LOSER_33, 33, 1),  # 33 is not under 33: 1 game point
        ("standard", LOSER_32, 32, 2),  # schneider: 2
        ("russian", LOSER_33, 33, 1),  # 1/2/3 as in the standard game (RULES 5 table)
        ("russian", LOSER_32, 32, 2),
        ("marriage", LOSER_33, 33, 3),  # the closer makes 66: always 3 (Марьяж :98)
    ],
)
def test_a_loser_on_exactly_33_is_out_of_schneider(engine, rules, case, loser_points, game_points) -> None:
    hand0, hand1, stock, line = case
    deal = start(engine, hand0, hand1, stock, rules)
    for token in line.split():
        assert deal.result() is None
        deal.play(token)
    assert deal.points() == [loser_points, 66]
    assert deal.result() == (1, game_points, int(Termination.WENT_OUT))


# ---------------------------------------------------------------- (d) going out only at a claim chance, RULES 2.8
@pytest.mark.parametrize("engine", ENGINES)
def test_explicit_going_out_is_offered_only_right_after_a_trick_or_a_declaration(engine: str) -> None:
    """2.8: "Right after winning a trick or declaring a marriage, a player ... may go out";
    3.1 and 3.5: under explicit claiming, going out is an action at those moments only: not on
    the first lead, never as follower."""
    explicit = get_rules("standard").replace(claiming="explicit")
    case = start(
        engine,
        "AS TS AC TC AD TD",
        "KS QS 9C JC 9D JD",
        "QC KC 9S JS 9H JH QH KH TH QD KD AH",
        explicit,
    )
    run(
        case,
        [
            ("KS QS 9C JC 9D JD MS C", "MS"),  # the first lead: no trick, no declaration, no G
            ("KS QS G", "QS"),  # right after declaring: G is offered
            ("AS TS AC TC AD TD", "AS"),  # as follower: no G
            ("C P G", "P"),  # right after winning: close, draw or go out; draws QC (seat 1: KC)
            ("TS AC TC AD TD QC C G", "TD"),  # on lead after the draw: still the chance of that trick
            ("KS 9C JC 9D JD KC", "9D"),  # as follower: no G
            ("C P G", "P"),
        ],
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_going_out_under_66_loses_two_game_points(engine: str) -> None:
    """2.8: "A player who goes out with fewer than 66 loses the deal, and the opponent scores 2"."""
    explicit = get_rules("standard").replace(claiming="explicit")
    case = start(engine, "AS TS AC TC AD TD", "KS QS 9C JC 9D JD", "QC KC 9S JS 9H JH QH KH TH QD KD AH", explicit)
    case.play("MS")
    case.play("G")  # 20 declared, no trick: 0 counted points
    assert case.result() == (0, 2, int(Termination.FALSE_CLAIM))


# ---------------------------------------------------------------- (c) the same line at the table, RULES 5.1 and 5.2
# Found by random play and kept as text; what is checked is written from the rules: the losers'
# points from the card values of their tricks (RULES 1; they declared no marriage and did not take
# the last trick, so no bonus), and the payment those points give.
CARD_VALUES = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}


def _card_points(mask: int) -> int:
    return sum(CARD_VALUES[_RANKS[c % 6]] for c in range(24) if mask >> c & 1)


FOUR_OUT = {  # the team that goes out, and the other team's points
    33: "pagat; dealer=3; hands=KC 9D KH JH AD QD | JC QS 9C KD TS KS | AH TH QH JS AS 9H | TD AC QC JD TC 9S; "
    "played=9D P KD JS JD 9H P 9S JH KS TS P AS TD AD TH P TC KH QS 9C P QH QC KC QD JC AH AC",
    32: "pagat; dealer=2; hands=9D TC JH KS KD KC | JS QC TS QH QS TD | JD AC AH AD TH AS | QD KH 9H JC 9S 9C; "
    "played=9S P KS TS AS JD P QD KD TD QC P AC JC TC AD P 9C 9D JS QH AH 9H JH",
}


@pytest.mark.parametrize(("loser_points", "game_points"), [(33, 1), (32, 2)])
def test_four_players_a_team_on_exactly_33_is_out_of_schneider(loser_points: int, game_points: int) -> None:
    """5.2: the first team to reach 66 goes out and wins 1/2/3 game points as in 2.9."""
    from sixtysix_env.table import FourDeal, TableTermination

    deal = FourDeal.from_notation(FOUR_OUT[loser_points])
    out = deal.outcome
    assert out is not None and out.termination == TableTermination.WENT_OUT
    other = 1 - out.winner
    assert not (deal.marriages[other] | deal.marriages[other + 2]) and deal.side_tricks[other] > 0
    assert _card_points(deal.won_cards[other] | deal.won_cards[other + 2]) == loser_points
    assert deal.points[other] == loser_points and deal.points[out.winner] >= 66
    assert out.game_points == game_points


THREE_PLAYED = {  # the payments of a played-out deal with a loser on 33, and on 32 (RULES 5.1)
    33: (
        "pagat; dealer=1; hands=JS QH AD 9D 9S QS QC 9C | QD KS KC TS KH TC JC AS | 9H JD TH KD AH TD AC JH; "
        "played==C AH QH KH JD AD QD 9C KC AC TH QC TC TS TD 9S KS JH JS JC 9H QS AS KD 9D",
        2,
        (-2, 3, -1),  # seat 0 under 33 with a trick pays 2; seat 2 on 33 pays 1
    ),
    32: (
        "pagat; dealer=1; hands=9C 9H KH AC AD 9S KD JD | QH QS JS TD AH QC TS TH | KC 9D TC QD KS JH AS JC; "
        "played==? TC AC QC AD TD 9D 9C TS JC KS 9S QS AS KD JS KH AH JH TH QD 9H KC JD QH",
        2,
        (4, -2, -2),  # seat 2 on 32 with a trick pays 2, as does seat 1
    ),
}


@pytest.mark.parametrize("loser_points", [33, 32])
def test_three_players_a_loser_on_exactly_33_pays_one_stake(loser_points: int) -> None:
    """5.1: "the player with the most points wins 1 stake from each other player if he has 33 or
    more; a player under 33 who took a trick pays him 2 instead, and one with no trick pays 3"."""
    from sixtysix_env.table import ThreeDeal

    text, seat, payoffs = THREE_PLAYED[loser_points]
    deal = ThreeDeal.from_notation(text)
    assert deal.outcome is not None and deal.outcome.winner != seat
    assert not deal.marriages[seat] and deal.tricks_won[seat] > 0
    assert _card_points(deal.won_cards[seat]) == deal.points[seat] == loser_points
    assert deal.outcome.payoffs == payoffs
