"""Our agents against the VU Amsterdam ``schnapsen`` package's own bots, inside its own engine.

    python benchmarks/bench_vu.py --agents heuristic,pimc,ppo --opponent rdeep:16:4 --games 1000 --seed 0

The package (``pip install schnapsen``; the platform of VU Amsterdam's bot course) referees every
game with ``SchnapsenGamePlayEngine().play_game(bot1, bot2, rng)``: its rules, its deal, its
scoring. Our agent plays through ``sixtysix_env.vu_compat.vu_bot``, which rebuilds our ``vu``
information state from the package's ``PlayerPerspective`` at each move. Our agent is ``bot1``
(leads the first trick) in even games and ``bot2`` in odd ones; game ``i`` takes its deck, our
random source and the opponent's from ``--seed`` and ``i``, so every agent listed meets the same
decks and the same opponent seeds.

Columns: win rate with a 95% Wilson interval; G, game points per game from our side (won minus
lost, 1 to 3 a game), with a 95% normal interval; win rate as first and as second player; CPU ms
per decision (``time.process_time`` around each ``get_move``) of ours, the translation from the
perspective included, and of the opponent. A game that raises is counted apart (``errors``), with
its message in ``--json``, and left out of the other columns.

A second table gives the match-level row of each agent: the games, in order, chained into
consecutive matches to the ``vu`` preset's ``match_target`` (7 game points), with a 95% Wilson
interval. Chaining is valid here (``sixtysix_env.arena.matches.chain_matches``): no bot sees a
match score (the package's engine has none), the decks are independent, and the seats alternate
game by game, as the ``vu`` preset's dealer does (``next_dealer="alternate"``). A failed game voids
the match it falls in; a match still open after the last game is left out.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.agents.spec import AgentSpec, parse_agent_spec  # noqa: E402
from sixtysix_env.arena.matches import chain_matches, match_tally  # noqa: E402
from sixtysix_env.arena.stats import Z95, wilson_interval  # noqa: E402
from sixtysix_env.checks import parse_int_text  # noqa: E402
from sixtysix_env.cli_options import add_count, add_seed, add_workers  # noqa: E402
from sixtysix_env.rules import get_rules  # noqa: E402

MATCH_TARGET = get_rules("vu").match_target
"""Game points that win a match in the ``vu`` preset (7): the target of the match row."""
INSTALL = 'pip install schnapsen (or, in a checkout, pip install -e ".[test]")'


def _schnapsen() -> None:
    """Fail with the install command when the package is missing."""
    try:
        import schnapsen.bots
        import schnapsen.game  # noqa: F401
    except ImportError as e:
        message = f"bench_vu.py plays inside the VU Amsterdam 'schnapsen' package, which is not installed: {INSTALL}"
        raise SystemExit(message) from e


# --- opponents: the package's bots by text ---------------------------------------------------


def _ints(name: str, args: Sequence[str], names: Sequence[str], defaults: Sequence[int]) -> list[int]:
    if len(args) > len(names):
        raise ValueError(f"{name} takes at most {len(names)} numbers ({':'.join(names)}), got {':'.join(args)!r}")
    out = list(defaults)
    for i, text in enumerate(args):
        value = parse_int_text(text)
        if value is None:
            raise ValueError(f"{name}: {names[i]} must be a whole number in digits 0-9, got {text!r}")
        out[i] = value
        if out[i] < 1:
            raise ValueError(f"{name}: {names[i]} must be at least 1, got {out[i]}")
    return out


def _rdeep(args: Sequence[str], rng: random.Random) -> Any:
    from schnapsen.bots import RdeepBot

    samples, depth = _ints("rdeep", args, ("SAMPLES", "DEPTH"), (16, 4))
    return RdeepBot(num_samples=samples, depth=depth, rand=rng)


def _simple(cls_name: str) -> Callable[[Sequence[str], random.Random], Any]:
    def build(args: Sequence[str], rng: random.Random) -> Any:
        import schnapsen.bots

        if args:
            raise ValueError(f"{cls_name} takes no options, got {':'.join(args)!r}")
        return getattr(schnapsen.bots, cls_name)(rand=rng)

    return build


def _phase_two(cls_name: str) -> Callable[[Sequence[str], random.Random], Any]:
    """The package's exact searches refuse phase one (open talon): another bot plays it."""

    def build(args: Sequence[str], rng: random.Random) -> Any:
        import schnapsen.bots
        from schnapsen.game import Bot, GamePhase

        first = make_opponent(":".join(args) if args else "rand", rng)
        second = getattr(schnapsen.bots, cls_name)()

        class PhaseTwoBot(Bot):
            def get_move(self, perspective: Any, leader_move: Any) -> Any:
                bot = second if perspective.get_phase() == GamePhase.TWO else first
                return bot.get_move(perspective, leader_move)

        return PhaseTwoBot()

    return build


OPPONENTS: dict[str, tuple[Callable[[Sequence[str], random.Random], Any], str]] = {
    "rdeep": (_rdeep, "rdeep[:SAMPLES[:DEPTH]]: RdeepBot, random rollouts (default 16 samples, depth 4)"),
    "rand": (_simple("RandBot"), "rand: RandBot, uniform over the valid moves"),
    "bully": (_simple("BullyBot"), "bully: BullyBot, trumps first, then the led suit, then its highest card"),
    "alphabeta": (
        _phase_two("AlphaBetaBot"),
        "alphabeta[:BOT]: AlphaBetaBot once the talon is closed or empty, BOT (default rand) before",
    ),
    "minimax": (
        _phase_two("MiniMaxBot"),
        "minimax[:BOT]: MiniMaxBot once the talon is closed or empty, BOT (default rand) before",
    ),
}


def make_opponent(text: str, rng: random.Random) -> Any:
    """The package's bot for ``text`` (``rdeep:16:4``, ``rand``, ``alphabeta:bully``...) seeded by ``rng``."""
    name, *args = text.strip().split(":")
    if name not in OPPONENTS:
        allowed = "; ".join(usage for _, usage in OPPONENTS.values())
        raise ValueError(f"unknown opponent {text!r}: the package's bots here are {allowed}")
    return OPPONENTS[name][0](args, rng)


def opponent_label(text: str) -> str:
    """The text the tables show, with the defaults filled in (``rdeep`` -> ``RdeepBot(16, 4)``)."""
    name, *args = text.strip().split(":")
    if name == "rdeep":
        return "RdeepBot({}, {})".format(*_ints("rdeep", args, ("SAMPLES", "DEPTH"), (16, 4)))
    return text.strip()


# --- our agents ------------------------------------------------------------------------------


def check_two_player(spec: AgentSpec) -> None:
    """The VU game is a two-player game: a table (3/4-player) agent is refused by name."""
    agent = spec.make()
    module = type(agent).__module__
    hint = None
    act = getattr(type(agent), "act", None)
    if act is not None:
        import typing

        try:
            hints = typing.get_type_hints(act)
            hint = next((h for k, h in hints.items() if k != "return"), None)
        except Exception:  # unresolvable annotations: only the module test applies
            hint = None
    from sixtysix_env.table.view import TableView

    if module.startswith("sixtysix_env.agents.table_") or hint is TableView:
        raise ValueError(
            f"agent {spec.label!r} is a table agent (three- and four-player games, act(TableView, rng)); "
            "the VU game is two-player: use a two-player agent such as random, heuristic, alphabeta, pimc, ismcts, "
            "ppo or your own act(InfoState, rng) class"
        )


# --- one game --------------------------------------------------------------------------------


@dataclass
class GameResult:
    """One game from our agent's side: seat 0 is ``bot1`` (leads the first trick)."""

    index: int
    seat: int
    won: bool
    points: int  # signed: +game points when we won, minus when we lost
    our_cpu_s: float
    our_decisions: int
    their_cpu_s: float
    their_decisions: int
    error: str | None = None


def _timed(bot: Any) -> Any:
    """``bot`` behind a clock: CPU seconds and calls of its ``get_move``; notifications pass through."""
    from schnapsen.game import Bot

    class Timed(Bot):
        def __init__(self) -> None:
            super().__init__(str(bot))
            self.cpu_s = 0.0
            self.decisions = 0

        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            start = time.process_time()
            try:
                return bot.get_move(perspective, leader_move)
            finally:
                self.cpu_s += time.process_time() - start
                self.decisions += 1

        def notify_trump_exchange(self, move: Any) -> None:
            bot.notify_trump_exchange(move)

        def notify_game_end(self, won: bool, perspective: Any) -> None:
            bot.notify_game_end(won, perspective)

    return Timed()


def play_game(spec: AgentSpec, opponent: str, seed: int, index: int) -> GameResult:
    """Game ``index`` of the run seeded ``seed``: our agent (a fresh one) as bot1 when ``index`` is even."""
    from schnapsen.game import SchnapsenGamePlayEngine

    from sixtysix_env.vu_compat import vu_bot

    seat = index % 2
    ours = _timed(vu_bot(spec.make(), random.Random(f"vu/{seed}/{index}/ours"), name=spec.label))
    theirs = _timed(make_opponent(opponent, random.Random(f"vu/{seed}/{index}/theirs")))
    bots = (ours, theirs) if seat == 0 else (theirs, ours)
    try:
        winner, points, _ = SchnapsenGamePlayEngine().play_game(*bots, random.Random(f"vu/{seed}/{index}/deck"))
        won, error = winner is ours, None
    except Exception as e:  # a translation failure: counted, not fatal to the run
        won, points, error = False, 0, f"{type(e).__name__}: {e}"
    return GameResult(
        index,
        seat,
        won,
        points if won else -points,
        ours.cpu_s,
        ours.decisions,
        theirs.cpu_s,
        theirs.decisions,
        error,
    )


def _play_task(task: tuple[AgentSpec, str, int, int]) -> GameResult:
    return play_game(*task)


# --- statistics ------------------------------------------------------------------------------


def summarize(label: str, results: Sequence[GameResult], wall_s: float) -> dict[str, Any]:
    """Every column of the table for one agent, from its games."""
    ok = [r for r in results if r.error is None]
    n = len(ok)
    wins = sum(r.won for r in ok)
    points = [r.points for r in ok]
    g = statistics.fmean(points) if points else math.nan
    half = Z95 * statistics.stdev(points) / math.sqrt(n) if n > 1 else math.inf
    seats = {}
    for seat in (0, 1):
        games = [r for r in ok if r.seat == seat]
        seats[seat] = (sum(r.won for r in games), len(games))
    our_decisions = sum(r.our_decisions for r in ok)
    their_decisions = sum(r.their_decisions for r in ok)
    in_order = sorted(results, key=lambda r: r.index)
    matches = chain_matches([None if r.error else r.points for r in in_order], [r.seat for r in in_order], MATCH_TARGET)
    tally = match_tally([m.won for m in matches])
    return {
        "agent": label,
        "games": n,
        "errors": len(results) - n,
        "wins": wins,
        "win_rate": wins / n if n else math.nan,
        "win_rate_ci": wilson_interval(wins, n) if n else (math.nan, math.nan),
        "points_per_game": g,
        "points_per_game_ci": (g - half, g + half),
        "first_wins": seats[0][0],
        "first_games": seats[0][1],
        "second_wins": seats[1][0],
        "second_games": seats[1][1],
        "our_ms_per_decision": 1000 * sum(r.our_cpu_s for r in ok) / our_decisions if our_decisions else math.nan,
        "their_ms_per_decision": 1000 * sum(r.their_cpu_s for r in ok) / their_decisions
        if their_decisions
        else math.nan,
        "wall_s": wall_s,
        "matches": tally.matches,
        "match_wins": tally.wins,
        "match_win_rate": tally.rate,
        "match_win_rate_ci": tally.ci,
        "games_per_match": statistics.fmean(m.deals for m in matches) if matches else math.nan,
    }


def _rate(wins: int, n: int) -> str:
    return f"{wins / n:.3f}" if n else "-"


def table(summaries: Sequence[dict[str, Any]], opponent: str) -> str:
    from tabulate import tabulate

    rows = []
    for s in summaries:
        lo, hi = s["win_rate_ci"]
        glo, ghi = s["points_per_game_ci"]
        rows.append(
            [
                s["agent"],
                s["games"],
                f"{s['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]",
                f"{s['points_per_game']:+.3f} [{glo:+.3f}, {ghi:+.3f}]",
                _rate(s["first_wins"], s["first_games"]),
                _rate(s["second_wins"], s["second_games"]),
                f"{s['our_ms_per_decision']:.2f}",
                f"{s['their_ms_per_decision']:.2f}",
                s["errors"],
            ]
        )
    headers = [
        "agent",
        "games",
        f"win rate vs {opponent} [95% CI]",
        "G per game [95% CI]",
        "win rate as first",
        "as second",
        "our CPU ms/decision",
        "its CPU ms/decision",
        "errors",
    ]
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def match_table(summaries: Sequence[dict[str, Any]], opponent: str) -> str:
    """The match-level row of each agent: its games chained into matches to ``MATCH_TARGET``."""
    from tabulate import tabulate

    rows = []
    for s in summaries:
        lo, hi = s["match_win_rate_ci"]
        rate = f"{s['match_win_rate']:.3f} [{lo:.3f}, {hi:.3f}]" if s["matches"] else "-"
        per = f"{s['games_per_match']:.2f}" if s["matches"] else "-"
        rows.append([s["agent"], s["matches"], s["match_wins"], rate, per])
    headers = ["agent", f"matches to {MATCH_TARGET}", "won", f"match win rate vs {opponent} [95% CI]", "games/match"]
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


# --- the run ---------------------------------------------------------------------------------


def _games(
    spec: AgentSpec, opponent: str, games: int, seed: int, pool: ProcessPoolExecutor | None
) -> Iterator[GameResult]:
    tasks = [(spec, opponent, seed, i) for i in range(games)]
    if pool is None:
        return map(_play_task, tasks)
    return pool.map(_play_task, tasks, chunksize=max(1, min(16, games // 64)))


def _progress(items: Iterable[GameResult], label: str, total: int, show: bool) -> Iterable[GameResult]:
    if not show:
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # the bar is optional (the `arena` or `train` extra has tqdm)
        return items
    return tqdm(items, desc=label, total=total, unit="game", leave=False, file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> str:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("``", ""),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        epilog="Opponents: " + "; ".join(usage for _, usage in OPPONENTS.values()) + ".",
    )
    ap.add_argument(
        "--agents",
        default="heuristic,pimc",
        help="comma-separated agent specs, as in the arena (pimc:samples=50, ppo:path=model.npz, mybot.py:MyBot)",
    )
    ap.add_argument("--opponent", default="rdeep:16:4", help="the package's bot every agent plays (see below)")
    add_count(ap, "--games", default=1000, help="games per agent, seats alternating")
    add_seed(ap, help="seed of the decks and of both players' random sources")
    add_workers(ap, help="worker processes (results do not depend on it)")
    ap.add_argument("--json", metavar="FILE", help="also write the summaries and every game's result here")
    ap.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True, help="tqdm bar on stderr")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        ap.error(f"--workers must be at least 1, got {args.workers}")
    _schnapsen()
    try:
        make_opponent(args.opponent, random.Random(0))
        against = opponent_label(args.opponent)
    except ValueError as e:
        ap.error(f"--opponent: {e}")
    specs = []
    for text in args.agents.split(","):
        try:
            spec = parse_agent_spec(text)
            check_two_player(spec)
        except (ValueError, TypeError) as e:
            ap.error(f"agent {text!r}: {e}")
        specs.append(spec)
    if args.json:
        target = Path(args.json).expanduser()
        if target.is_dir() or not target.parent.is_dir() or not os.access(target.parent, os.W_OK):
            ap.error(f"--json {args.json!r}: not a file in a writable folder")
    print(
        f"{args.games} games per agent against {against} in the schnapsen package's engine, seats alternating, "
        f"seed {args.seed}, {args.workers} worker(s)",
        flush=True,
    )
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    summaries, raw = [], []
    try:
        for spec in specs:
            start = time.perf_counter()
            games = _games(spec, args.opponent, args.games, args.seed, pool)
            results = list(_progress(games, spec.label, args.games, args.progress))
            s = summarize(spec.label, results, time.perf_counter() - start)
            print(
                f"{spec.label}: {s['wins']}/{s['games']} won, {s['errors']} error(s), {s['wall_s']:.0f} s wall",
                file=sys.stderr,
                flush=True,
            )
            for r in results:
                if r.error is not None:
                    print(f"  game {r.index} (seat {r.seat}) failed: {r.error}", file=sys.stderr)
            summaries.append(s)
            raw.append({"summary": s, "games": [asdict(r) for r in results]})
    finally:
        if pool is not None:
            pool.shutdown()
    out = table(summaries, against) + "\n\n" + match_table(summaries, against)
    print(out)
    if args.json:
        doc = {"opponent": args.opponent, "opponent_label": against, "games": args.games, "seed": args.seed}
        Path(args.json).expanduser().write_text(json.dumps({**doc, "agents": raw}, indent=1) + "\n")
    return out


if __name__ == "__main__":
    main()
