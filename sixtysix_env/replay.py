"""Show a game record in the terminal, step by step: the hands as dealt, every action with its
player, the points as they change, and the result; a match deal by deal.

    python -m sixtysix_env.replay sixtysix-records/20261201-080000-deal.json
    python -m sixtysix_env.replay match.json --deal 3       # only the third deal
    python -m sixtysix_env.replay match.json --step         # wait for Enter after every action

A replay shows every hand (it is a spectator's view). Records are described in docs/records.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .cards import card_symbol
from .checks import cli_int
from .engine import Deal
from .records import load_record, positions
from .render import hand_text
from .rules import PRESETS
from .text_safety import terminal_text
from .textplay import (
    EVERY_SEAT,
    match_score_text,
    move_text,
    outcome_text,
    points_text,
    side_label,
    step_notes,
    writer_for,
)

__all__ = ["main", "replay_lines"]

_GAME_WORDS = {"two": "two-player", "three": "three-player", "four": "four-player (partners 0 & 2 against 1 & 3)"}


def _rules_text(record: dict, rules: Any) -> str:
    name = rules.name
    if record["game"] == "two":
        preset = PRESETS.get(name)
        if preset is None or preset != rules:
            base = preset or PRESETS["standard"]
            diff = ", ".join(f"{k}={v[0]!r}" for k, v in rules.differences(base).items())
            return f"{name} rules ({'custom: ' + diff if diff else 'as ' + base.name})"
    return f"{name} rules"


def _header(record: dict, first: Any, path: str) -> list[str]:
    names = record["players"]
    kind = "a match" if record["kind"] == "match" else "one deal"
    meta = record.get("meta", {})
    when = " ".join(
        [f"recorded {meta['created']}" if "created" in meta else "", f"by {meta['source']}" if "source" in meta else ""]
    ).strip()
    lines = [
        f"Game record {path}",
        f"  {kind} of {_GAME_WORDS[record['game']]} Sixty-Six, {_rules_text(record, first.rules)}",
    ]
    if record["kind"] == "match":
        lines[-1] += f", to {record['target']}" if record["target"] else ""
    if when:
        lines.append(f"  {when}")
    lines.append("  seats: " + " · ".join(f"{p} {n}" for p, n in enumerate(names)))
    return lines


def _deal_intro(deal: Any, names: Sequence[str], number: int, total: int) -> list[str]:
    dealer = names[deal.dealer]
    head = f"Deal {number} of {total}" if total > 1 else "The deal"
    score = f" · match score {match_score_text(deal.scores, deal, names)}" if total > 1 or any(deal.scores) else ""
    lines = [f"{head} · dealer {dealer}{score}"]
    width = max(len(n) for n in [*names, "stock"])
    if isinstance(deal, Deal):
        lines.append(f"  trump card {card_symbol(deal.trump_card)} (face up under the stock)")
        for p in (0, 1):
            lines.append(f"  {names[p]:<{width}}  {hand_text(deal.hands[p], deal.trump)}")
        stock = " ".join(card_symbol(c) for c in reversed(deal.stock))
        lines.append(f"  {'stock':<{width}}  {stock}  (top first)")
    else:
        if deal.trump < 0:
            lines.append(f"  {names[deal.current]} names trump after seeing the first 3 cards")
        else:
            lines.append(f"  trump card {card_symbol(deal.trump_card)} (turned, held by {names[deal.dealer]})")
        for p in range(deal.n_players):
            lines.append(f"  {names[p]:<{width}}  {hand_text(deal.hands[p], deal.trump)}")
    return lines


def _step_line(k: int, before: Any, after: Any, names: Sequence[str], width: int) -> str:
    x = after.history[-1]
    seat = x >> (5 if isinstance(after, Deal) else 6)
    action = x & (31 if isinstance(after, Deal) else 63)
    notes = step_notes(before, after, names)
    if isinstance(after, Deal) and len(after.stock) < len(before.stock):  # a spectator sees both cards drawn
        got = [(p, after.hands[p] & ~before.hands[p]) for p in (0, 1)]
        notes.append(", ".join(f"{card_symbol(m.bit_length() - 1)} to {names[p]}" for p, m in got if m))
    if after.trick_count > before.trick_count:
        notes.append(f"points {points_text(after, names)}")
    text = f"  {k:>3}  {names[seat]:<{width}}  {move_text(before, action, EVERY_SEAT):<38}"
    return (text + "  " + "; ".join(notes)).rstrip()


def replay_lines(record: dict, path: str = "", only: int | None = None) -> list[tuple[str, list[str]]]:
    """The replay as (kind, lines) blocks: ``header``, then per deal ``deal`` (the hands), one
    ``step`` per action and ``result``, and ``match`` at the end of a match. ``only`` (1-based)
    keeps one deal of a match."""
    steps = positions(record)
    record = _shown_record(record)
    names = record["players"]
    width = max(len(n) for n in names)
    blocks = [("header", _header(record, steps[0][0], terminal_text(path)))]
    for i, deal_steps in enumerate(steps, start=1):
        if only is not None and i != only:
            continue
        start, end = deal_steps[0], deal_steps[-1]
        blocks.append(("deal", _deal_intro(start, names, i, len(steps))))
        for k in range(1, len(deal_steps)):
            blocks.append(("step", [_step_line(k, deal_steps[k - 1], deal_steps[k], names, width)]))
        tail = [f"  points {points_text(end, names)}"]
        tail.append(f"  result: {outcome_text(end, names)}" if end.outcome is not None else "  (the record ends here)")
        forfeit = record.get("meta", {}).get("forfeit")
        if end.outcome is None and isinstance(forfeit, dict):  # a tournament deal lost by a bot's fault
            other = ", ".join(str(n) for n in names if n != forfeit.get("bot")) or "the opponent"
            tail[-1] = (
                f"  result: forfeited by {forfeit.get('bot')} ({forfeit.get('reason')}); "
                f"{forfeit.get('game_points')} game points to {other}"
            )
        if record["kind"] == "match" and end.outcome is not None:
            scores = record["running_scores"][i - 1]
            tail.append(f"  match score {match_score_text(scores, end, names)}")
        blocks.append(("result", tail))
    if record["kind"] == "match" and only is None:
        last = steps[-1][-1]
        scores = match_score_text(record["final_scores"], last, names)
        if record["over"]:
            won = sorted(
                {
                    side_label(last, last.side_of(p) if not isinstance(last, Deal) else p, names)
                    for p in record["winners"]
                }
            )
            blocks.append(("match", [f"Match won by {' and '.join(won)}: {scores}"]))
        else:
            blocks.append(("match", [f"The match was not finished: {scores}"]))
    return [(kind, [terminal_text(line) for line in lines]) for kind, lines in blocks]


def _shown_record(record: dict) -> dict:
    """The record with the text it controls made safe for a terminal (:func:`terminal_text`:
    control and escape characters shown as visible escapes): the player names, and the ``meta``
    fields a replay prints (who recorded it and when, a forfeit's bot and reason). Every line is
    cleaned again on its way out, so the rules name and anything else a record holds are too."""
    out = dict(record)
    out["players"] = [terminal_text(n, limit=MAX_NAME_CHARS) for n in record["players"]]
    meta = dict(record.get("meta", {}))
    for key in ("created", "source"):
        if key in meta:
            meta[key] = terminal_text(meta[key], limit=200)
    forfeit = meta.get("forfeit")
    if isinstance(forfeit, dict):
        meta["forfeit"] = {k: terminal_text(v, limit=200) for k, v in forfeit.items()}
    out["meta"] = meta
    return out


MAX_NAME_CHARS = 100
"""Longest player name a replay prints (the rest is cut, ending in "...")."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sixtysix_env.replay",
        description=__doc__.split("\n\n")[0],
        epilog="Example: python -m sixtysix_env.replay sixtysix-records/game.json --deal 2",
    )
    p.add_argument("file", help="a game record (JSON, as written by play, the env wrappers or the arena)")
    p.add_argument("--deal", type=cli_int, metavar="N", help="show only deal N of a match (1 is the first)")
    p.add_argument("--step", action="store_true", help="wait for Enter after every action (q then Enter stops)")
    p.add_argument(
        "--ascii",
        action="store_true",
        help="cards as QH instead of suit symbols (automatic where the terminal cannot show them)",
    )
    return p


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run the command; returns the exit status (0, or 2 for a missing or bad file)."""
    args = _parser().parse_args(argv)
    out = writer_for(stdout or sys.stdout, args.ascii)
    err = writer_for(sys.stderr)
    inp = stdin or sys.stdin
    if not args.file.strip():
        print("replay: the file name is empty: give a record file (.json)", file=err)
        return 2
    shown = terminal_text(args.file)
    if Path(args.file).is_dir():
        found = sorted(Path(args.file).glob("*.json"))
        names = ", ".join(terminal_text(p.name) for p in found[-10:])
        listing = f"; its records: {names}" if found else " with no .json records"
        print(f"replay: {shown} is a folder{listing}. Give one file.", file=err)
        return 2
    try:
        record = load_record(args.file)
    except FileNotFoundError:
        print(f"replay: no such file: {shown}", file=err)
        return 2
    except ValueError as e:
        print(f"replay: cannot read the record: {terminal_text(e)}", file=err)
        return 2
    except OSError as e:  # no permission, a broken link
        print(f"replay: cannot open {shown}: {e.strerror or e}", file=err)
        return 2
    n = len(record["deals"]) if record["kind"] == "match" else 1
    if args.deal is not None and not 1 <= args.deal <= n:
        print(
            f"replay: --deal {args.deal} is not in this record: it has {n} deal{'s' if n != 1 else ''} (1..{n})",
            file=err,
        )
        return 2
    try:
        return _show(replay_lines(record, args.file, args.deal), args.step, inp, out)
    except KeyboardInterrupt:  # Ctrl-C while stepping
        print("\n(stopped)", file=out)
        return 0
    except BrokenPipeError:  # the reader went away (| head): stop quietly, also at exit
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _show(blocks: list[tuple[str, list[str]]], step: bool, inp: IO[str], out: IO[str]) -> int:
    for kind, lines in blocks:
        if kind in ("deal", "match"):
            print(file=out)
        print("\n".join(lines), file=out)
        if step and kind == "step":
            out.flush()
            answer = inp.readline()
            if not answer or answer.strip().lower() in ("q", "quit"):
                print("(stopped)", file=out)
                return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
