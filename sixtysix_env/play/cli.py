"""The command line of terminal play: options, seats and agents, the session, the saved record."""

from __future__ import annotations

import argparse
import random
import re
import sys
import textwrap
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from ..agents import WrongGameError, agent_names
from ..agents.base import first_position_fault
from ..agents.spec import parse_agent_spec
from ..checks import cli_int, parse_int_text
from ..cli_options import add_records, add_rules, add_seed
from ..records import match_record, save_record, to_record
from ..rules import PRESETS
from ..table.rules import FOUR_PRESETS, THREE_PRESETS
from ..textplay import fit_lines, match_score_text, side_label, writer_for
from .session import GAME_CLASSES, Ending, Seats, Session, describe_seats

__all__ = ["main"]

GAMES = {2: "two", 3: "three", 4: "four"}
RULE_PRESETS: dict[str, dict[str, Any]] = {"two": PRESETS, "three": THREE_PRESETS, "four": FOUR_PRESETS}
DEFAULT_RULES = {"two": "standard", "three": "pagat", "four": "pagat"}
DEFAULT_OPPONENT = {"two": "pimc", "three": "heuristic", "four": "heuristic"}

EXAMPLES = """\
examples:
  one deal against PIMC search, standard rules:
    python -m sixtysix_env.play
  a match of santase against a stronger PIMC:
    python -m sixtysix_env.play --opponent pimc:samples=40 --episode match \\
        --rules santase
  your own bot, you in seat 0, the same cards every time:
    python -m sixtysix_env.play --opponent mybot.py:MyBot --seat 0 --seed 7
  three players (you and two agents); four players, your partner at seat +2:
    python -m sixtysix_env.play --players 3
    python -m sixtysix_env.play --players 4 --partner random

{presets}

Agents: a registered name with options (random, heuristic, alphabeta,
pimc:samples=40, ismcts, ppo), file.py:Class or package.module:Class. The
three- and four-player games take their own agents (random, heuristic,
pimc:samples=8) or a bot that plays them. Records go to ./sixtysix-records/
unless --records DIR or --no-record; replay one with
python -m sixtysix_env.replay FILE."""


class _Parser(argparse.ArgumentParser):
    """Error messages wrapped to the 80 columns of a terminal, like the help."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, fit_lines(f"{self.prog}: error: {message}") + "\n")


def _parser() -> argparse.ArgumentParser:
    presets = (
        f"Rules presets: {', '.join(PRESETS)} (two players); {', '.join(THREE_PRESETS)} (three players); "
        f"{', '.join(FOUR_PRESETS)} (four players)."
    )
    p = _Parser(
        prog="python -m sixtysix_env.play",
        description="Play Sixty-Six in the terminal against agents (you see only your seat's view).",
        epilog=EXAMPLES.format(presets=textwrap.fill(presets, 80)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--players", type=cli_int, choices=(2, 3, 4), default=2, help="players at the table (default 2)")
    add_rules(
        p,
        default=None,
        presets=[name for presets in RULE_PRESETS.values() for name in presets],
        help="rules preset (default: standard; pagat for three and four players)",
    )
    p.add_argument(
        "--opponent",
        metavar="SPEC[,SPEC]",
        help="the agent(s) at the other seats: one spec for all, or one per opponent seat in seat order "
        "(default: pimc; heuristic for three and four players)",
    )
    p.add_argument("--partner", metavar="SPEC", help="four players: your partner's agent (default: as --opponent)")
    p.add_argument("--episode", choices=("deal", "match"), default="deal", help="one deal (default) or a match")
    p.add_argument("--seat", default="random", help="your seat, 0 to players-1, or random (default)")
    add_seed(p, default=None, help="seed for the cards, the seats and the agents (default: a new one)")
    p.add_argument("--claiming", choices=("auto", "explicit"), help="going out: automatic at 66, or your own call")
    p.add_argument(
        "--recall",
        choices=("perfect", "human"),
        default="perfect",
        help="perfect (default): points and every trick shown; human: only the last trick, no points",
    )
    p.add_argument("--name", default="you", help="your name in the record (default: you)")
    add_records(p, default="sixtysix-records", help="folder for the game record (default: ./sixtysix-records)")
    p.add_argument("--no-record", action="store_true", help="do not save a record")
    p.add_argument(
        "--ascii",
        action="store_true",
        help="cards as QH instead of suit symbols (automatic where the terminal cannot show them)",
    )
    return p


def _rules(args: argparse.Namespace, game: str, parser: argparse.ArgumentParser) -> Any:
    presets = RULE_PRESETS[game]
    name = args.rules or DEFAULT_RULES[game]
    if name not in presets:
        others = [g for g, ps in RULE_PRESETS.items() if name in ps]
        hint = f" ({name} is a {' and '.join(others)}-player preset)" if others else ""
        parser.error(f"--rules {name} is not a {game}-player preset{hint}: choose {', '.join(presets)}")
    rules = presets[name]
    if args.claiming:
        if game == "three":
            parser.error("--claiming: the three-player game is always played out (nobody goes out)")
        rules = rules.replace(claiming=args.claiming)
    return rules


def _agents(
    args: argparse.Namespace, game: str, n: int, human: int, rules: Any, parser: argparse.ArgumentParser
) -> tuple[list[Any], list[str], list[str]]:
    others = [p for p in range(n) if p != human]
    if args.opponent is not None and not args.opponent.strip(" ,"):
        parser.error("--opponent is empty: give an agent such as random or pimc:samples=40")
    texts = [t.strip() for t in (args.opponent or DEFAULT_OPPONENT[game]).split(",")]
    opponents = [p for p in others if game != "four" or p != (human + 2) % 4]
    if len(texts) == 1:
        texts = texts * len(opponents)
    if len(texts) != len(opponents):
        parser.error(f"--opponent takes one agent or {len(opponents)} (one per opponent seat), got {len(texts)}")
    by_seat = dict(zip(opponents, texts, strict=True))
    if game == "four":
        by_seat[(human + 2) % 4] = args.partner or texts[0]
    elif args.partner:
        parser.error("--partner is for the four-player game (--players 4)")
    agents: list[Any] = [None] * n
    specs = ["human"] * n
    labels = [""] * n
    probed: set[str] = set()
    for p in others:
        text = by_seat[p]
        option = "--partner" if args.partner and game == "four" and p == (human + 2) % 4 else "--opponent"
        try:
            spec = parse_agent_spec(text, game=game)
            agent = spec.make()
        except WrongGameError as e:
            parser.error(f"{option} {text} cannot play this game: {e}")
        except ImportError as e:
            extra = "; the ppo agent needs the train extra" if text.startswith("ppo") else ""
            parser.error(f"{option} {text}: cannot load it ({e}){extra}")
        except ValueError as e:
            parser.error(f"{option} {text}: {e}")
        if text not in probed:  # tried on a spare copy, so the seat's agent starts fresh
            problem = first_position_fault(spec.make(), GAME_CLASSES[game], rules, game)
            if problem:
                hint = (
                    ""
                    if game == "two"
                    else f" (it may play only the two-player game; {', '.join(agent_names(game))} play every game)"
                )
                parser.error(f"{option} {text} cannot play this game: {problem}{hint}")
            probed.add(text)
        agents[p], specs[p], labels[p] = agent, spec.label, spec.name
    names = _names(labels, human, args.name)
    return agents, specs, names


def _names(labels: list[str], human: int, person: str) -> list[str]:
    """Seat names: the agent's short name, numbered by seat when several share it."""
    names = list(labels)
    for p, label in enumerate(labels):
        if p != human and labels.count(label) > 1:
            names[p] = f"{label}{p}"
    names[human] = person
    return names


def _seat(args: argparse.Namespace, n: int, rng: random.Random, parser: argparse.ArgumentParser) -> int:
    if args.seat == "random":
        return rng.randrange(n)
    seat = parse_int_text(args.seat)
    if seat is None or not 0 <= seat < n:
        parser.error(f"--seat {args.seat} is not a seat: choose 0 to {n - 1} (in digits 0-9), or random")
    return seat


def _record(ending: Ending, seats: Seats, args: argparse.Namespace, seed: int, started: datetime) -> dict:
    meta = {
        "source": "play",
        "created": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seed": seed,
        "episode": args.episode,
        "human_seat": seats.human,
        "agents": seats.specs,
        "recall": args.recall,
        "ended": ending.status,
        **({"failure": ending.message} if ending.message else {}),
    }
    if args.episode == "match":
        return match_record(ending.deals, players=seats.names, meta=meta)
    return to_record(ending.deals[-1], players=seats.names, meta=meta)


def _save(record: dict, folder: str, seats: Seats, episode: str, started: datetime) -> Path:
    rules = re.sub(r"[^A-Za-z0-9_.]+", "-", seats.rules.name).strip("-.") or "rules"  # safe in any file system
    stem = f"{started:%Y%m%d-%H%M%S}-{seats.game}-{rules}-{episode}"
    base = Path(folder)
    path = base / f"{stem}.json"
    k = 2
    while path.exists():
        path = base / f"{stem}-{k}.json"
        k += 1
    return save_record(path, record)


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Play from the command line; returns 0 (also after quit, end of input or Ctrl-C), 1 if an
    agent failed, 2 for bad options (argparse's exit)."""
    parser = _parser()
    args = parser.parse_args(argv)
    inp = stdin if stdin is not None else sys.stdin
    out = writer_for(stdout if stdout is not None else sys.stdout, args.ascii)
    game = GAMES[args.players]
    n = args.players
    if not args.name.strip() or len(args.name) > 30:
        parser.error("--name must be 1 to 30 characters")
    rules = _rules(args, game, parser)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    seat_rng = random.Random(f"seat-{seed}")
    human = _seat(args, n, seat_rng, parser)
    agents, specs, names = _agents(args, game, n, human, rules, parser)
    seats = Seats(game, rules, human, agents, names, specs)
    started = datetime.now(timezone.utc)

    shown = list(names)
    shown[human] = "you"
    what = "one deal" if args.episode == "deal" else f"a match to {_target(rules)}"
    claiming = f" · {args.claiming} claiming" if args.claiming else ""
    print(fit_lines(f"Sixty-Six, {n} players · {rules.name} rules{claiming} · {what} · seed {seed}"), file=out)
    print(fit_lines(describe_seats(seats, shown)), file=out)
    print("Type the number of a move, a card such as QH, or help.", file=out)

    echo = not (hasattr(inp, "isatty") and inp.isatty())
    session = Session(seats, args.episode, seed, inp, out, recall=args.recall, echo=echo)
    try:
        ending = session.run()
    except KeyboardInterrupt:  # Ctrl-C: stop like quit, keep what was played
        ending = session.ending
        ending.status = "interrupted"
        print("\nInterrupted: the game stops here.", file=out)
    _summary(ending, seats, shown, args.episode, out)
    played = sum(len(d.history) for d in ending.deals)
    if not args.no_record:
        if played == 0:
            print("Nothing was played, so no record was saved.", file=out)
        else:
            try:
                path = _save(_record(ending, seats, args, seed, started), args.records, seats, args.episode, started)
            except (OSError, ValueError) as e:  # ValueError: a deal cut off in the middle of a move
                print(f"Could not save the record in {args.records}: {e}", file=out)
            else:
                print(f"Record saved: {path}", file=out)
                print(f"  replay it: python -m sixtysix_env.replay {path}", file=out)
    return 1 if ending.status == "agent failed" else 0


def _target(rules: Any) -> str:
    if getattr(rules, "match_deals", 0):
        deals = f"{rules.match_deals} deals"
        return f"{deals} or {rules.match_target} stakes" if rules.match_target else deals
    return f"{rules.match_target} game points"


def _summary(ending: Ending, seats: Seats, names: list[str], episode: str, out: IO[str]) -> None:
    match = ending.match
    if episode != "match":
        return
    deal = match.deal
    score = match_score_text(match.scores, deal, names)
    if match.is_over:
        winners = [match.winner] if seats.game == "two" else match.winners
        side = winners[0] if seats.game == "two" else deal.side_of(winners[0])
        who = side_label(deal, side, names)
        if seats.game == "three" and len(winners) > 1:
            who = " and ".join(names[p] for p in winners)
        print(fit_lines(f"Match won by {who}: {score}"), file=out)
    else:
        print(fit_lines(f"The match was not finished: {score}"), file=out)
