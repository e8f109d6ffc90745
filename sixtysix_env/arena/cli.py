"""``python -m sixtysix_env.arena``: the command line."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..agents import agent_names
from ..cli_options import (
    add_deals,
    add_out,
    add_records,
    add_rules,
    add_seed,
    add_workers,
    non_negative_float,
    positive_float,
    positive_int,
)
from ..distributed.address import ADDRESS_HELP, cli_ray_address
from ..distributed.local import START_METHODS
from ..rules import get_rules
from .checks import check_out_dir
from .run import DEFAULT_DECISION_LIMIT_S, REDUCE_PLAYOUTS, agent_spec, run_arena
from .writers import OUTPUT_FILES, summary_markdown, write_results

__all__ = ["main", "non_negative_float", "positive_float", "positive_int"]

AGENTS_HELP = (
    "comma-separated agents: a registered name with options (name:key=value:...; names: {names}), "
    "your own class in a file (mybot.py:MyBot[:key=value]) or in a module (package.module:Class)"
)


def decision_limit(text: str) -> float | None:
    """An ``argparse`` type: seconds > 0, or ``none`` for no limit."""
    return None if text.strip().lower() == "none" else positive_float(text)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sixtysix_env.arena",
        description="Round-robin duplicate matches between agents; writes Markdown, HTML and CSV tables. "
        "Everything is checked before the first deal.",
        epilog="example: python -m sixtysix_env.arena --agents mybot.py:MyBot,heuristic,random --deals 200 "
        "--out results/ --workers 2",
    )
    p.add_argument("--agents", required=True, help=AGENTS_HELP.format(names=", ".join(agent_names())))
    add_deals(p, default=200, help="duplicate deals per pair, each played twice (default 200)")
    add_rules(p, notation=True)
    p.add_argument("--claiming", choices=("auto", "explicit"), default=None, help="override the preset's claiming")
    add_seed(p)
    add_out(p, default="results", help="folder for summary.md, summary.html and the CSV files")
    add_workers(p, help="worker processes")
    p.add_argument(
        "--start-method",
        choices=START_METHODS,
        default=None,
        help="how worker processes start (default: the platform's; spawn is the macOS and Windows default)",
    )
    p.add_argument("--block", type=positive_int, default=50, help="deals per block of consecutive matches")
    p.add_argument(
        "--elo-prior", type=non_negative_float, default=1.0, help="virtual drawn deals per pair in the Elo fit"
    )
    p.add_argument(
        "--trial-timeout",
        type=positive_float,
        default=30.0,
        metavar="SECONDS",
        help="the most one agent may take over its trial decision before the first deal (default 30)",
    )
    p.add_argument(
        "--decision-limit",
        type=decision_limit,
        default=DEFAULT_DECISION_LIMIT_S,
        metavar="SECONDS",
        help="the most wall time one decision may take in play; a bot over it, or one that raises or plays "
        f"an illegal move, forfeits that deal and the run goes on (default {DEFAULT_DECISION_LIMIT_S:g}; none: "
        "no limit)",
    )
    add_records(
        p, help="also write one game record (JSON, python -m sixtysix_env.replay FILE) per match into DIR/<A>-vs-<B>/"
    )
    p.add_argument(
        "--ray",
        type=cli_ray_address,
        default=None,
        metavar="ADDRESS",
        help=f"play on a Ray cluster instead of --workers (same results; docs/ray.md): {ADDRESS_HELP}",
    )
    p.add_argument(
        "--reduce",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also report points per deal with the luck of the stock draws taken out (unbiased, narrower "
        "interval; docs/evaluation.md); default: on where the rules allow it (the batched engine's presets)",
    )
    p.add_argument(
        "--reduce-playouts",
        choices=REDUCE_PLAYOUTS,
        default="agents",
        help="who plays the reduced estimate's playouts: each agent with a policy network its own seat, the "
        "heuristic the others (agents, default: more luck removed), the heuristic throughout (cheaper), or "
        "every agent its own seat, search and your own bot too, with the luck of its random choices also "
        "taken out (own: the most removed for agents without a network, at over 100x the CPU of the deals)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sixtysix_env.arena``: run a round robin from the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        rules = get_rules(args.rules)
        if args.claiming is not None:
            rules = rules.replace(claiming=args.claiming)
        specs = [agent_spec(s) for s in args.agents.split(",") if s.strip()]
        check_out_dir(args.out, OUTPUT_FILES)
        res = run_arena(
            specs,
            args.deals,
            rules,
            seed=args.seed,
            workers=args.workers,
            block=args.block,
            elo_prior=args.elo_prior,
            progress=not args.no_progress,
            start_method=args.start_method,
            trial_timeout_s=args.trial_timeout,
            records=args.records,
            decision_limit_s=args.decision_limit,
            ray_address=args.ray,
            reduce=args.reduce,
            reduce_playouts=args.reduce_playouts,
        )
    except ValueError as e:
        parser.error(str(e))
    path = write_results(res, args.out)
    print(summary_markdown(res))
    if res.faults:
        first = res.faults[0]
        print(
            f"{len(res.faults)} deal(s) forfeited by a bot's fault, first: {first.bot} in {first.index} "
            f"(track {first.track}): {first.reason}; all in {Path(path, 'faults.csv')}"
        )
    print(f"written to {_folder(path)}" + (f"; game records in {_folder(args.records)}" if args.records else ""))
    return 0


def _folder(path: str | Path) -> str:
    """A folder as text with one trailing slash (``dir/`` stays ``dir/``, not ``dir//``)."""
    text = str(Path(path))
    return text if text.endswith(("/", "\\")) else text + "/"
