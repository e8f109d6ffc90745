"""The tournament's report: a league table (Markdown and HTML), forfeits, disqualifications, CSVs.

Every text a bot chose (its file name, its exception, what it returned) is shown through
:mod:`..text_safety`: Markdown-escaped in ``league.md`` (no forged heading, table row or link),
with its control characters made visible in ``league.html`` (which the page also HTML-escapes)
and in the terminal."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..arena.stats import mean_interval, wilson_interval
from ..arena.writers import (
    FAULT_HEADERS,
    PAIR_HEADERS,
    Section,
    ci,
    fault_rows,
    fmt,
    html_page,
    pair_rows,
    table,
    write_csvs,
)
from ..text_safety import markdown_text, terminal_text
from .run import TournamentResult

__all__ = ["LeagueRow", "league_markdown", "league_html", "league_rows", "write_report", "REPORT_FILES"]

REPORT_FILES = ("league.md", "league.html", "bots.csv", "pairs.csv", "elo.csv", "deals.csv", "timing.csv", "faults.csv")
"""The files a tournament writes into ``--out``."""

FAULTS_SHOWN = 100
"""Forfeits listed in the league pages (all of them are in faults.csv)."""


@dataclass(frozen=True)
class LeagueRow:
    """One bot over all its deals and matches; intervals are 95%."""

    bot: str
    elo: float
    deals: int
    deal_win_rate: float
    deal_win_ci: tuple[float, float]
    matches: int
    match_wins: int
    match_win_rate: float
    match_win_ci: tuple[float, float]
    points_per_deal: float
    points_ci: tuple[float, float]
    forfeits: int


def league_rows(t: TournamentResult) -> list[LeagueRow]:
    """Every playing bot, best Elo first."""
    res = t.arena
    returns: dict[str, list[float]] = {b: [] for b in res.agents}
    matches: dict[str, list[bool]] = {b: [] for b in res.agents}
    for d in res.deal_records:
        pair = res.pairs[d.pair]
        returns[pair.a].append(float(d.a_return))
        returns[pair.b].append(float(-d.a_return))
    for m in res.match_records:
        pair = res.pairs[m.pair]
        matches[pair.a].append(m.score_a > m.score_b)
        matches[pair.b].append(m.score_b > m.score_a)
    forfeits = Counter(f.bot for f in res.faults)
    rows = []
    for bot in res.agents:
        rets = returns[bot]
        score = sum(r > 0 for r in rets) + sum(r == 0 for r in rets) / 2
        mean, lo, hi = mean_interval(rets)
        won = sum(matches[bot])
        n_m = len(matches[bot])
        rows.append(
            LeagueRow(
                bot=bot,
                elo=res.elo[bot],
                deals=len(rets),
                deal_win_rate=score / len(rets) if rets else float("nan"),
                deal_win_ci=wilson_interval(score, len(rets)),
                matches=n_m,
                match_wins=won,
                match_win_rate=won / n_m if n_m else float("nan"),
                match_win_ci=wilson_interval(won, n_m),
                points_per_deal=mean,
                points_ci=(lo, hi),
                forfeits=forfeits[bot],
            )
        )
    return sorted(rows, key=lambda r: -r.elo)


LEAGUE_HEADERS = (
    "#",
    "bot",
    "Elo",
    "deals",
    "deal win rate [95% CI]",
    "matches",
    "match win rate [95% CI]",
    "game points/deal [95% CI]",
    "forfeits",
)


def _with_ci(value: float, lo_hi: tuple[float, float]) -> str:
    return f"{fmt(value)} {ci(lo_hi)}"


def _per(value: float, count: int) -> object:
    """A mean, or "-" for a bot that never answered (not nan)."""
    return round(value, 3) if count else "-"


Text = Callable[[object], str]
"""How a bot-chosen text is shown: :func:`..text_safety.markdown_text` or ``terminal_text``."""


def _pair_rows(t: TournamentResult, text: Text) -> list[list[object]]:
    return [[text(row[0]), text(row[1]), *row[2:]] for row in pair_rows(t.arena)]


def _sections(t: TournamentResult, text: Text = terminal_text) -> list[Section]:
    res = t.arena
    league = [
        [
            i + 1,
            text(r.bot),
            f"{r.elo:.0f}",
            r.deals,
            _with_ci(r.deal_win_rate, r.deal_win_ci),
            r.matches,
            _with_ci(r.match_win_rate, r.match_win_ci),
            _with_ci(r.points_per_deal, r.points_ci),
            r.forfeits,
        ]
        for i, r in enumerate(league_rows(t))
    ]
    parts: list[Section] = [
        (f"League (Elo: Bradley-Terry fit to deal results, {res.elo_anchor})", LEAGUE_HEADERS, league)
    ]
    if t.disqualified:
        parts.append(
            (
                "Disqualified (did not load, or cheated: it forfeits every deal after)",
                ("bot", "file", "reason"),
                [[text(b.label), text(b.source), text(b.reason)] for b in t.disqualified],
            )
        )
    if t.retired:
        parts.append(
            (
                "Retired (stopped answering: it forfeits every deal after, unplayed)",
                ("bot", "file", "reason"),
                [[text(b.label), text(b.source), text(b.reason)] for b in t.retired],
            )
        )
    if res.faults:
        by_bot = Counter(f.bot for f in res.faults)
        first: dict[str, str] = {}
        for f in res.faults:
            first.setdefault(f.bot, f.reason)
        parts.append(
            (
                "Forfeits by bot",
                ("bot", "forfeited deals", "process restarts", "first reason"),
                [[text(b), n, t.restarts.get(b, 0), text(first[b])] for b, n in by_bot.most_common()],
            )
        )
        shown = f" (the first {FAULTS_SHOWN}; all in faults.csv)" if len(res.faults) > FAULTS_SHOWN else ""
        parts.append(
            (
                f"Forfeited deals{shown}",
                FAULT_HEADERS,
                [
                    [text(bot), text(opponent), *middle, text(reason)]
                    for bot, opponent, *middle, reason in fault_rows(res.faults, FAULTS_SHOWN)
                ],
            )
        )
    parts.append(("Pairs (from A's side)", PAIR_HEADERS, _pair_rows(t, text)))
    timing = [
        [
            text(n),
            k,
            _per(1000 * res.seconds_per_decision[n] if k else 0.0, k),
            _per(1000 * t.cpu_seconds.get(n, 0.0) / k if k else 0.0, k),
        ]
        for n, k in ((n, res.decisions[n]) for n in res.agents)
    ]
    parts.append(
        (
            "Decision time (measured by the host: its clock from question to answer, and the bot process's CPU)",
            ("bot", "answered decisions", "mean ms/decision", "mean CPU ms/decision"),
            timing,
        )
    )
    if t.isolation:
        parts.append(("Warning: bots were not isolated", ("what does not hold",), [[t.isolation]]))
    return parts


def _intro(t: TournamentResult) -> str:
    res = t.arena
    r = res.rules
    playing = len(res.agents)
    out = [f"{len(t.disqualified)} disqualified"] if t.disqualified else []
    out += [f"{len(t.retired)} retired"] if t.retired else []
    counted = f" ({', '.join(out)})" if out else ""
    return (
        f"{playing} bots play{counted}, rules {r.name} "
        f"(match to {r.match_target}), seed {res.seed}: a round robin of {res.deals} duplicate deals per pair "
        f"(each deal played with the seats swapped, in matches; extra deals finish open matches). Time limit "
        f"{t.time_limit_ms:g} ms per decision (a silent bot is stopped after {t.kill_after_s:g} s). A bot that "
        f"raises, returns an illegal action or exceeds the time limit loses that deal by forfeit: "
        f"{t.forfeit_points} game points to the opponent."
    )


def league_markdown(t: TournamentResult, *, every_forfeit: bool = True) -> str:
    """The league report as Markdown (league.md). Without ``every_forfeit`` (what the command
    prints), the forfeits show one row per bot with its count, not one row per forfeited deal."""
    lines = ["# Tournament", "", _intro(t), ""]
    for title, headers, rows in _sections(t, markdown_text):
        if not every_forfeit and title.startswith("Forfeited deals"):
            lines += [f"Each forfeited deal: league.md and faults.csv ({len(t.arena.faults)} rows).", ""]
            continue
        lines += [f"## {title}", "", table(headers, rows), ""]
    return "\n".join(lines)


def league_html(t: TournamentResult) -> str:
    """The league report as one HTML page (league.html)."""
    return html_page("Tournament", _intro(t), _sections(t, terminal_text))


def write_report(t: TournamentResult, out: str | Path) -> Path:
    """``league.md``, ``league.html``, ``bots.csv`` and the arena's CSV files in ``out``."""
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    (path / "league.md").write_text(league_markdown(t), encoding="utf-8")
    (path / "league.html").write_text(league_html(t), encoding="utf-8")
    with open(path / "bots.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["bot", "source", "status", "reason"])
        w.writerows([terminal_text(b.label), terminal_text(b.source), b.status, b.reason] for b in t.bots)
    write_csvs(t.arena, path)
    return path
