"""Watch a match: two built-in players through the PettingZoo environment, deals rendered.

python -m sixtysix_env.demo                      # the shipped PPO agent against PIMC search
python -m sixtysix_env.demo --agents heuristic,random --rules santase --all-deals
"""

from __future__ import annotations

import argparse
import random
import time

from . import sixtysix_v0
from .actions import action_label
from .agents.spec import parse_agent_spec
from .arena.play import ready_agent
from .cli_options import add_rules, add_seed
from .infostate import InfoState
from .render import describe_outcome, render_deal
from .rules import PRESETS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sixtysix_env.demo", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--agents",
        default="ppo,pimc",
        help="two agents for player_0 and player_1: names with options (pimc:samples=20) or mybot.py:MyBot",
    )
    add_rules(parser)
    add_seed(parser, help="seed for the deals and the players")
    parser.add_argument(
        "--all-deals", action="store_true", help="render every action of every deal, not just the first"
    )
    args = parser.parse_args(argv)

    names = [n.strip() for n in args.agents.split(",")]
    if len(names) != 2 or not all(names):
        parser.error("--agents takes two names separated by a comma, e.g. random,random")
    try:
        players = [ready_agent(parse_agent_spec(n, game="two"), PRESETS[args.rules]) for n in names]
    except (ValueError, ImportError) as e:  # an unknown name, a bad option, a missing extra
        parser.error(f"--agents {args.agents}: {e}")
    labels = (f"player_0 ({names[0]})", f"player_1 ({names[1]})")
    env = sixtysix_v0.env(rules=args.rules, episode="match", render_mode="ansi")
    env.reset(seed=args.seed)
    raw = env.unwrapped
    rng = random.Random(args.seed)
    think: list[list[float]] = [[], []]
    deal_no = 1
    start = time.perf_counter()
    print(f"Match to {raw.rules.match_target} game points, {raw.rules.name} rules: {labels[0]} vs {labels[1]}\n")
    print(render_deal(raw.deal, labels))
    for agent in env.agent_iter():
        _obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        p = 0 if agent == "player_0" else 1
        deal = raw.deal
        t0 = time.perf_counter()
        action = players[p].act(InfoState.of(deal, p), rng)
        think[p].append(time.perf_counter() - t0)
        env.step(action)
        show = args.all_deals or deal_no == 1
        if show:
            print(f"\n{labels[p]}: {action_label(action)}")
        if deal.outcome is not None:
            if show:
                print(render_deal(deal, labels))
            else:
                print(f"deal {deal_no}: {describe_outcome(deal, labels)}")
            print(f"  match score {raw.match.scores[0]}-{raw.match.scores[1]}")
            deal_no += 1
            if raw.deal is not deal and args.all_deals:
                print(f"\n--- deal {deal_no} ---\n{render_deal(raw.deal, labels)}")
        elif show:
            print(render_deal(deal, labels))
    match = raw.match
    elapsed = time.perf_counter() - start
    print(f"\n{labels[match.winner]} wins the match {match.scores[0]}-{match.scores[1]} in {deal_no - 1} deals.")
    for p in (0, 1):
        times = sorted(think[p]) or [0.0]
        median = 1000 * times[len(times) // 2]
        first = 1000 * think[p][0] if think[p] else 0.0
        print(f"  {labels[p]}: {len(think[p])} decisions, median {median:.2f} ms (first, with loading: {first:.0f} ms)")
    print(f"  wall time {elapsed * 1000:.1f} ms")


if __name__ == "__main__":
    main()
