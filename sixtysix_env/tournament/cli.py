"""``python -m sixtysix_env.tournament BOTS_DIR``: the command line."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections import Counter
from collections.abc import Sequence

from ..agents.spec import parse_agent_spec
from ..arena.checks import check_out_dir
from ..cli_options import (
    add_deals,
    add_out,
    add_records,
    add_rules,
    add_workers,
    non_negative_float,
    positive_float,
    positive_int,
)
from ..distributed.address import ADDRESS_HELP, cli_ray_address
from ..rules import get_rules
from ..text_safety import terminal_text
from .discover import bot_files
from .journal import NAME as JOURNAL
from .keys import read_key_file
from .league import REPORT_FILES, league_markdown, write_report
from .run import TournamentError, run_tournament

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sixtysix_env.tournament",
        description="A round robin of duplicate deals between every bot file of a folder, each bot in its own "
        "process. A bot that raises, returns an illegal action or exceeds the time limit loses that deal by "
        "forfeit; a bot that does not load is disqualified; the rest play on. Writes a league table "
        "(league.md, league.html) and CSV files.",
        epilog="example: python -m sixtysix_env.tournament bots/ --include heuristic,random --deals 100 "
        "--time-limit-ms 500 --workers 2 --out league/",
    )
    p.add_argument(
        "bots_dir",
        metavar="BOTS_DIR",
        help="folder of bots: every *.py file except _*.py and test_*.py; a file's agent is its AGENT, "
        "else its one class with an act method",
    )
    p.add_argument(
        "--include", default="", help="built-in agents to play too, comma-separated (heuristic,random,pimc:samples=10)"
    )
    add_rules(p, notation=True)
    p.add_argument("--claiming", choices=("auto", "explicit"), default=None, help="override the preset's claiming")
    add_deals(p, default=100, help="duplicate deals per pair, each played twice (default 100)")
    p.add_argument(
        "--time-limit-ms",
        type=positive_float,
        default=1000.0,
        help="time budget of one decision in milliseconds, measured by the host: its clock from question to "
        "answer, and the CPU time of the bot's process tree (default 1000)",
    )
    p.add_argument(
        "--kill-after",
        type=positive_float,
        default=None,
        metavar="SECONDS",
        help="stop a bot that has not answered after this many seconds (default: twice the limit plus 1 s)",
    )
    p.add_argument(
        "--build-timeout",
        type=positive_float,
        default=30.0,
        metavar="SECONDS",
        help="time to import, build and prepare a bot (its prepare(rules): compiling a search) before it is "
        "disqualified (default 30)",
    )
    p.add_argument(
        "--strikes",
        type=positive_int,
        default=3,
        help="retire a bot killed on this many decisions in a row: it forfeits its later deals unplayed (default 3)",
    )
    add_workers(p, help="games played at once (each bot process uses a core)")
    p.add_argument(
        "--ray",
        type=cli_ray_address,
        default=None,
        metavar="ADDRESS",
        help="play the blocks on a Ray cluster, each by a tournament host on the node that takes it, instead "
        f"of --workers (same results; docs/ray.md): {ADDRESS_HELP}",
    )
    add_out(p, default="tournament", help="folder for the league table, CSV files and bot logs")
    p.add_argument(
        "--key-file",
        default=None,
        metavar="FILE",
        help="secret key of the deals and the bots' seeds (at least 16 bytes; the same key replays the same "
        "tournament). Default: a new random key, saved to OUT/key.hex when the run ends. Keep it unreadable by bots",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help=f"continue the run whose OUT/{JOURNAL} this is (its key: --key-file, else OUT/key.hex)",
    )
    p.add_argument(
        "--memory-mb",
        type=positive_int,
        default=4096,
        help="address-space limit of each bot process in MiB, and as root with cgroups the memory limit of all "
        "the processes of one game together (default 4096)",
    )
    p.add_argument(
        "--log-kb",
        type=positive_int,
        default=10240,
        help="cap of each bot's log in KiB; the rest is dropped (default 10240)",
    )
    p.add_argument("--block", type=positive_int, default=50, help="deals per block of consecutive matches")
    p.add_argument(
        "--elo-prior", type=non_negative_float, default=1.0, help="virtual drawn deals per pair in the Elo fit"
    )
    add_records(
        p,
        help="also write one game record (JSON) per deal into DIR/<A>-vs-<B>/; a forfeited deal is recorded "
        "up to the faulty decision (python -m sixtysix_env.replay FILE shows one)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _save_key(path: object, key: bytes) -> None:
    """Write the run's random key (mode 0600), once no bot runs any more."""
    import os

    fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sixtysix_env.tournament BOTS/``: run a tournament of bot files; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)  # a kill ends the bot processes too
    try:
        bot_files(args.bots_dir)
        rules = get_rules(args.rules)
        if args.claiming is not None:
            rules = rules.replace(claiming=args.claiming)
        include = [s.strip() for s in args.include.split(",") if s.strip()]
        for text in include:
            parse_agent_spec(text)
        out = check_out_dir(args.out, REPORT_FILES)
        saved = out / "key.hex"
        if args.key_file is not None:
            key = read_key_file(args.key_file)
        elif args.resume and saved.is_file():
            key = bytes.fromhex(saved.read_text().strip())
        elif args.resume:
            raise ValueError(
                f"--resume: the key of the run in {str(args.out)!r} is unknown (it was not given with --key-file "
                "and the run did not end): give --key-file, or start a new run"
            )
        else:
            key = None
        result = run_tournament(
            args.bots_dir,
            include,
            rules,
            deals=args.deals,
            time_limit_ms=args.time_limit_ms,
            workers=args.workers,
            key=key,
            block=args.block,
            elo_prior=args.elo_prior,
            kill_after_s=args.kill_after,
            build_timeout_s=args.build_timeout,
            strikes=args.strikes,
            log_dir=out / "logs",
            memory_mb=args.memory_mb,
            log_bytes=args.log_kb * 1024,
            journal=out / JOURNAL,
            resume=args.resume,
            on_key=lambda k: None if args.key_file else _save_key(saved, k),
            progress=not args.no_progress,
            records=args.records,
            ray_address=args.ray,
        )
    except KeyboardInterrupt:
        print(
            f"python -m sixtysix_env.tournament: interrupted; the finished blocks are in {args.out}/{JOURNAL}: "
            "run again with --resume to continue",
            file=sys.stderr,
        )
        return 130
    except TournamentError as e:
        print(f"python -m sixtysix_env.tournament: {terminal_text(e)}")
        return 1
    except ValueError as e:
        parser.error(terminal_text(e))
    path = write_report(result, out)
    print(league_markdown(result, every_forfeit=False))  # bots' texts escaped there, control characters too
    faults = Counter(f.bot for f in result.arena.faults)
    print(
        f"{len(result.arena.agents)} bots played, {len(result.disqualified)} disqualified, "
        f"{len(result.retired)} retired, {sum(faults.values())} deals forfeited"
        + (f" ({', '.join(f'{terminal_text(b)} {n}' for b, n in faults.most_common())})" if faults else "")
    )
    print(f"written to {path}/ (league.html, league.md, CSV files; each bot's printed output in {path}/logs/)")
    if args.records:
        print(f"game records (one per deal) in {args.records}/")
    return 0
