"""Write tests/data/perft_golden_vu.txt: golden counts of the ``vu`` preset, which the shared
reference file (perft/golden.txt) does not cover.

    .venv/bin/python tests/data/make_vu_golden.py > tests/data/perft_golden_vu.txt

Needs the VU Amsterdam ``schnapsen`` package (``pip install schnapsen``), the independent engine
the ``vu`` preset follows. Positions come from that package: a shuffled deck and random moves in
its own engine, replayed here move by move (``vu_compat``). For each position

- ``results`` are counted in the package, by walking its game tree (every valid leader and
  follower move, to the winner its ``declare_winner`` names), and this script stops unless our
  engine's ``perft.result_counts`` gives the same numbers;
- ``perft`` counts are this engine's action sequences (a marriage is two actions here, one move
  there, so the package cannot count them); its move generation is compared with the package's
  at every decision of 2,000 random games by tests/test_vu_lockstep.py.
"""

from __future__ import annotations

import random
from collections import Counter

from schnapsen.game import (
    Bot,
    BotState,
    FollowerPerspective,
    GameState,
    LeaderPerspective,
    SchnapsenGamePlayEngine,
)

from sixtysix_env.actions import action_str
from sixtysix_env.cards import cards_str
from sixtysix_env.perft import perft, result_counts
from sixtysix_env.vu_compat import actions_of_vu_move, deal_from_vu

# (seed, tricks played at random first, perft depth, count results): early positions get perft
# counts, late ones (small trees) the independent result counts as well
POSITIONS = [
    (1, 0, 5, False),
    (2, 1, 5, False),
    (3, 3, 4, False),
    (7, 4, 4, True),
    (4, 5, 4, True),
    (5, 6, 5, True),
    (6, 7, 6, True),
]


class _Seat(Bot):
    """Plays whatever move the walk set for it; its ``seat`` names the player (0: first leader)."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat{seat}")
        self.seat = seat
        self.move = None

    def get_move(self, perspective, leader_move):
        return self.move


def _package_results(engine: SchnapsenGamePlayEngine, state: GameState) -> Counter[tuple[int, int]]:
    """Every complete continuation in the package, counted by (winner seat, game points)."""
    counts: Counter[tuple[int, int]] = Counter()
    play = engine.trick_implementer.play_trick_with_fixed_leader_move
    stack = [state]
    while stack:
        s = stack.pop()
        for lead in LeaderPerspective(s, engine).valid_moves():
            if lead.is_trump_exchange():
                nexts = [play(engine, s, lead)]
            else:
                nexts = []
                for follow in FollowerPerspective(s, engine, lead).valid_moves():
                    s.follower.implementation.move = follow
                    nexts.append(play(engine, s, lead))
            for n in nexts:
                won = engine.trick_scorer.declare_winner(n)
                if won:
                    counts[(won[0].implementation.seat, won[1])] += 1
                else:
                    stack.append(n)
    return counts


def _position(seed: int, tricks: int):
    """A deal of both engines after ``tricks`` random tricks (exchanges count as none)."""
    engine = SchnapsenGamePlayEngine()
    rng = random.Random(seed)
    shuffled = engine.deck_generator.shuffle_deck(engine.deck_generator.get_initial_deck(), rng)
    hand1, hand2, talon = engine.hand_generator.generateHands(shuffled)
    deal = deal_from_vu(hand1.get_cards(), hand2.get_cards(), talon.get_cards())
    start = deal.clone()
    seats = (_Seat(0), _Seat(1))
    state = GameState(
        leader=BotState(implementation=seats[0], hand=hand1),
        follower=BotState(implementation=seats[1], hand=hand2),
        talon=talon,
        previous=None,
    )
    play = engine.trick_implementer.play_trick_with_fixed_leader_move
    done = 0
    while done < tricks:
        lead = rng.choice(LeaderPerspective(state, engine).valid_moves())
        follow = None
        if not lead.is_trump_exchange():
            follow = rng.choice(FollowerPerspective(state, engine, lead).valid_moves())
            state.follower.implementation.move = follow
        after = play(engine, state, lead)
        if engine.trick_scorer.declare_winner(after):
            continue  # that trick ended the deal: try another
        state = after
        for move in (lead, follow):
            for action in actions_of_vu_move(move) if move is not None else []:
                deal.apply(action)
        done += follow is not None
    return engine, state, start, deal


def main() -> None:
    print("# Golden perft and result counts of the vu preset (the shared reference file has none), in the")
    print("# format of perft_golden.txt. Written by tests/data/make_vu_golden.py: positions from the VU")
    print("# schnapsen package; results counted in that package's own game tree and checked equal to this")
    print("# engine's; perft counts from this engine (its moves match the package's: test_vu_lockstep.py).\n")
    for seed, tricks, depth, with_results in POSITIONS:
        engine, state, start, deal = _position(seed, tricks)
        h0, h1, stock, dealer = start.arrangement
        print("[vu]")
        print(f"hands0 = {cards_str(h0)}")
        print(f"hands1 = {cards_str(h1)}")
        print(f"stock = {cards_str(stock)}")
        print(f"dealer = {dealer}")
        print(f"played = {' '.join(action_str(x & 31) for x in deal.history)}")
        print(f"perft = {' '.join(str(perft(deal, d)) for d in range(1, depth + 1))}")
        if with_results:
            ours = result_counts(deal)
            theirs = _package_results(engine, state)
            if ours != theirs:
                raise SystemExit(f"result counts differ at seed {seed}: ours {dict(ours)}, package {dict(theirs)}")
            print("results = " + " ".join(f"{w}:{g}={n}" for (w, g), n in sorted(ours.items())))
        print()


if __name__ == "__main__":
    main()
