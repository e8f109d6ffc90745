"""The ``vu`` preset against the VU Amsterdam ``schnapsen`` package, move by move.

Both engines play the same shuffled deck. The package's own engine drives the game (its
``play_game_from_state`` asks two bots for moves); the bots here check, at every decision, that
our ``vu`` deal offers exactly the package's ``valid_moves()``, that hands, talon, trump card and
scores (direct and pending marriage points) agree, then pick a random move and play it in both.
At the end the winner and the game points must agree. At every decision the ``InfoState``
rebuilt from the package's perspective alone (what ``vu_bot`` shows an agent) must equal ours.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

schnapsen = pytest.importorskip("schnapsen")

from schnapsen.game import (  # noqa: E402
    Bot,
    BotState,
    GameState,
    Move,
    PlayerPerspective,
    SchnapsenGamePlayEngine,
)

from sixtysix_env import Deal, InfoState, Termination  # noqa: E402
from sixtysix_env.observers import encode_history  # noqa: E402
from sixtysix_env.vu_compat import (  # noqa: E402
    actions_of_vu_move,
    card_from_vu,
    card_to_vu,
    deal_from_vu,
    info_state_from_vu,
    legal_vu_moves,
    move_key,
    vu_bot,
)

GAMES = 2000


class _Lockstep:
    """Plays one game in both engines; the two bots ask it for their moves."""

    def __init__(self, deal: Deal, rng: random.Random, check_views: bool) -> None:
        self.deal = deal
        self.rng = rng
        self.check_views = check_views
        self.decisions = 0
        self.kinds: Counter[str] = Counter()

    def move(self, seat: int, view: PlayerPerspective, leader_move: Move | None) -> Move:
        deal = self.deal
        assert deal.current_player == seat, f"package asks player {seat}, ours waits for {deal.current_player}"
        assert (leader_move is None) == view.am_i_leader()
        valid = view.valid_moves()
        assert sorted(map(move_key, valid)) == sorted(map(move_key, legal_vu_moves(deal))), deal.describe()
        # the rest of the position agrees too
        assert {card_from_vu(c) for c in view.get_hand()} == set(_ids(deal.hands[seat]))
        assert view.get_talon_size() == len(deal.stock)
        trump = view.get_trump_card()
        assert (card_from_vu(trump) if trump is not None else None) == (deal.stock[0] if deal.stock else None)
        # The package scores a marriage with its trick, so the follower still sees the leader's
        # score without it; ours books it at the declaration. Both agree once the trick is done.
        booked = 0
        if leader_move is not None and leader_move.is_marriage():
            booked = 40 if card_from_vu(leader_move.as_marriage().king_card) // 6 == deal.trump else 20
        for score, p, b in ((view.get_my_score(), seat, 0), (view.get_opponent_score(), 1 - seat, booked)):
            assert (score.direct_points, score.pending_points) == (deal.points[p], deal.pending[p] - b)
        if self.check_views:
            rebuilt = encode_history(info_state_from_vu(view, leader_move))
            ours = encode_history(InfoState.of(deal, seat))
            assert all(np.array_equal(rebuilt[k], ours[k]) for k in ours), deal.describe()
        move = self.rng.choice(valid)
        self.kinds[move_key(move)[0]] += 1
        self.decisions += 1
        first, *rest = actions_of_vu_move(move)
        deal.apply(first)
        if rest:  # a marriage: the package always leads the king, so ours must force it
            assert deal.legal_actions() == rest, deal.describe()
            deal.apply(rest[0])
        return move


class _Bot(Bot):
    def __init__(self, seat: int, lockstep: _Lockstep) -> None:
        super().__init__(f"lockstep_{seat}")
        self.seat = seat
        self.lockstep = lockstep

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        return self.lockstep.move(self.seat, perspective, leader_move)


def _ids(mask: int) -> list[int]:
    return [c for c in range(24) if mask >> c & 1]


def _play_one(seed: int, check_views: bool = False) -> tuple[_Lockstep, Deal]:
    engine = SchnapsenGamePlayEngine()
    rng = random.Random(seed)
    shuffled = engine.deck_generator.shuffle_deck(engine.deck_generator.get_initial_deck(), rng)
    hand1, hand2, talon = engine.hand_generator.generateHands(shuffled)
    deal = deal_from_vu(hand1.get_cards(), hand2.get_cards(), talon.get_cards())
    lockstep = _Lockstep(deal, random.Random(seed + 10**6), check_views)
    bots = (_Bot(0, lockstep), _Bot(1, lockstep))
    state = GameState(
        leader=BotState(implementation=bots[0], hand=hand1),
        follower=BotState(implementation=bots[1], hand=hand2),
        talon=talon,
        previous=None,
    )
    winner, game_points, _ = engine.play_game_from_state(game_state=state, leader_move=None)
    out = deal.outcome
    assert out is not None, f"the package ended the game, ours goes on: {deal.describe()}"
    assert (out.winner, out.game_points) == (bots.index(winner), game_points), deal.describe()
    return lockstep, deal


def test_cards_map_both_ways():
    for c in range(24):
        if c % 6:  # no nines in the package's deck
            assert card_from_vu(card_to_vu(c)) == c


def test_lockstep_with_the_schnapsen_package():
    kinds: Counter[str] = Counter()
    results: Counter[tuple[int, Termination]] = Counter()
    decisions = 0
    for seed in range(GAMES):
        lockstep, deal = _play_one(seed)
        kinds.update(lockstep.kinds)
        decisions += lockstep.decisions
        results[(deal.outcome.game_points, deal.outcome.termination)] += 1
    # the random games reached every kind of move and result, so the comparison had power
    assert kinds["exchange"] > 100 and kinds["marriage"] > 200, kinds
    assert {g for g, _ in results} == {1, 2, 3}, results
    assert results[(1, Termination.PLAYED_OUT)] > 0, results
    assert decisions > GAMES * 8


def test_an_agent_sees_the_same_information_state_in_the_package():
    for seed in range(300):
        _play_one(seed, check_views=True)


class _RandomAgent:
    name = "random"

    def act(self, info: InfoState, rng: random.Random) -> int:
        return rng.choice(info.legal_actions())


def test_vu_bot_plays_an_agent_in_the_package():
    from schnapsen.bots import RandBot

    engine = SchnapsenGamePlayEngine()
    wins = Counter()
    for seed in range(60):
        ours = vu_bot(_RandomAgent(), random.Random(seed), name="ours")
        theirs = RandBot(random.Random(seed), name="theirs")
        bots = (ours, theirs) if seed % 2 else (theirs, ours)
        winner, points, _ = engine.play_game(*bots, random.Random(seed))
        assert 1 <= points <= 3
        wins[str(winner)] += 1
    assert set(wins) == {"ours", "theirs"}
