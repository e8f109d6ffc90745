"""OpenSpiel: the game ``python_sixtysix``, OpenSpiel's own checks, and its ISMCTS bot against ours.

    python examples/openspiel_ismcts.py --simulations 100 --deals 100

1. ``import sixtysix_env.integrations.openspiel`` registers the game; ``pyspiel.load_game`` loads it
   with a rules preset as its parameter.
2. ``pyspiel.random_sim_test`` plays random games through OpenSpiel's C++ checks (legal actions,
   chance outcomes, tensors, strings, returns), with the serialization round trip.
3. OpenSpiel's Python ISMCTS bot plays a uniformly random player on OpenSpiel states.
4. The same bot plays ``heuristic`` in our arena (duplicate deals, whole matches) as the agent
   ``sixtysix_env.integrations.openspiel:ISMCTSAgent``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from sixtysix_env.arena import run_arena, summary_markdown
from sixtysix_env.checks import cli_int
from sixtysix_env.cli_options import AtLeast, add_count, add_deals, positive_int
from sixtysix_env.integrations.openspiel import GAME_NAME


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--rules", default="standard", help="rules preset (the game's parameter)")
    add_count(p, "--sim-games", default=50, at_least=0, help="games for pyspiel.random_sim_test (0: skip)")
    p.add_argument("--simulations", type=positive_int, default=100, help="ISMCTS simulations per decision")
    add_deals(p, default=100, at_least=0, help="arena duplicate deals against heuristic (0: skip)")
    p.add_argument("--seed", type=cli_int, action=AtLeast, at_least=0, default=0)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    game = pyspiel.load_game(GAME_NAME, {"rules": args.rules})
    print(game, "|", game.num_distinct_actions(), "actions, info-state tensor", game.information_state_tensor_shape())
    start = time.time()
    pyspiel.random_sim_test(game, num_sims=args.sim_games, serialize=True, verbose=False)
    print(f"pyspiel.random_sim_test: {args.sim_games} games with serialization passed ({time.time() - start:.1f} s)")

    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, args.simulations, random_state=rng)
    games, total, start = 10, 0.0, time.time()
    for g in range(games):
        seat = g % 2  # the ISMCTS bot's seat
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                mover = state.current_player()
                state.apply_action(bot.step(state) if mover == seat else int(rng.choice(state.legal_actions())))
        total += state.returns()[seat]
        print(f"ISMCTS game {g + 1} of {games}: {state.returns()[seat]:+.0f} ({time.time() - start:.0f} s)", flush=True)
    print(f"OpenSpiel ISMCTS ({args.simulations} simulations) vs uniformly random, {games} games: "
          f"{total / games:+.2f} game points per game")  # fmt: skip

    if args.deals:
        agent = f"sixtysix_env.integrations.openspiel:ISMCTSAgent:simulations={args.simulations}:rules={args.rules}"
        start = time.time()
        result = run_arena([agent, "heuristic"], deals=args.deals, rules=args.rules, seed=args.seed, progress=True)
        print(summary_markdown(result))
        print(f"arena: {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
