"""Writing an arena result: Markdown and HTML summaries, and CSV files for further analysis.

Markdown tables use ``tabulate`` when it is installed (plain formatting otherwise); the HTML page
is self-contained (no scripts, no downloads).
"""

from __future__ import annotations

import csv
import dataclasses
import html
import math
from collections.abc import Sequence
from pathlib import Path

from .play import DealRecord, FaultRecord
from .results import ArenaResult

__all__ = [
    "OUTPUT_FILES",
    "Section",
    "html_page",
    "sections",
    "summary_html",
    "summary_markdown",
    "table",
    "write_csvs",
    "write_results",
]

OUTPUT_FILES = ("summary.md", "summary.html", "pairs.csv", "elo.csv", "deals.csv", "timing.csv", "faults.csv")
"""The files an arena run writes into ``--out``."""

Section = tuple[str, Sequence[str], list[list[object]]]
"""A titled table: (title, headers, rows)."""


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (``tabulate`` when installed, else plain formatting)."""
    cells = [[fmt(c) for c in row] for row in rows]
    try:
        from tabulate import tabulate

        return tabulate(cells, headers=list(headers), tablefmt="github", disable_numparse=True)
    except ImportError:
        widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
        lines = [
            "| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |",
            "|" + "|".join("-" * (w + 2) for w in widths) + "|",
        ]
        lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in cells]
        return "\n".join(lines)


def fmt(x: object) -> str:
    if isinstance(x, float):
        return "nan" if math.isnan(x) else f"{x:.3f}"
    return str(x)


def ci(lo_hi: tuple[float, float]) -> str:
    return f"[{fmt(lo_hi[0])}, {fmt(lo_hi[1])}]"


PAIR_HEADERS = (
    "A",
    "B",
    "deals",
    "A wins",
    "B wins",
    "draws",
    "A deal win rate",
    "95% CI",
    "A points/deal",
    "95% CI",
    "matches",
    "A match wins",
    "A match win rate",
    "95% CI",
)


def pair_rows(res: ArenaResult) -> list[list[object]]:
    return [
        [
            p.a,
            p.b,
            p.deals,
            p.wins,
            p.losses,
            p.draws,
            p.deal_win_rate,
            ci(p.deal_win_ci),
            p.points_per_deal,
            ci(p.points_ci),
            p.matches,
            p.match_wins,
            p.match_win_rate,
            ci(p.match_win_ci),
        ]
        for p in res.pairs
    ]


REDUCED_HEADERS = ("A", "B", "deals", "A points/deal", "95% CI", "reduced", "95% CI", "variance ratio")


def has_reduced(res: ArenaResult) -> bool:
    """Whether the run computed the variance-reduced points per deal (``--reduce``, :mod:`.variance`)."""
    return any(not math.isnan(p.points_reduced) for p in res.pairs)


def reduced_rows(res: ArenaResult) -> list[list[object]]:
    """Per pair: the plain points per deal beside the draw-corrected ones (same mean, less luck)."""
    return [
        [
            *(p.a, p.b, p.deals, p.points_per_deal, ci(p.points_ci), p.points_reduced, ci(p.points_reduced_ci)),
            f"{p.variance_ratio:.2f}" if not math.isnan(p.variance_ratio) else "-",
        ]
        for p in res.pairs
    ]


def elo_rows(res: ArenaResult) -> list[list[object]]:
    return [[name, f"{res.elo[name]:.1f}"] for name in sorted(res.agents, key=lambda n: -res.elo[n])]


FAULT_HEADERS = ("bot", "opponent", "deal", "track", "bot's seat", "reason")


def fault_rows(faults: Sequence[FaultRecord], limit: int | None = None) -> list[list[object]]:
    shown = faults if limit is None else faults[:limit]
    return [[f.bot, f.opponent, f.index, f.track, f.seat, f.reason] for f in shown]


def sections(res: ArenaResult) -> list[Section]:
    """The tables of the summary, in order."""
    out: list[Section] = [
        ("Pairs (from A's side)", PAIR_HEADERS, pair_rows(res)),
    ]
    if has_reduced(res):
        luck = "the draws and of the agents' own choices" if res.reduce_playouts == "own" else "the draws"
        title = f"Points per deal with the luck of {luck} taken out (unbiased; docs/evaluation.md)"
        out.append((title, REDUCED_HEADERS, reduced_rows(res)))
    out += [
        (f"Elo (Bradley-Terry fit to deal results, {res.elo_anchor})", ("agent", "Elo"), elo_rows(res)),
        ("Decision time (machine-dependent)", TIMING_HEADERS, timing_rows(res)),
    ]
    if res.faults:
        rows = [[*row, f.position] for row, f in zip(fault_rows(res.faults), res.faults, strict=True)]
        out.append(("Forfeited deals", (*FAULT_HEADERS, "position at the fault"), rows))
    return out


TIMING_HEADERS = ("agent", "decisions", "mean CPU ms", "mean wall ms", "slowest wall ms")


def timing_rows(res: ArenaResult) -> list[list[object]]:
    """Per agent: answered decisions, mean CPU and wall milliseconds, the slowest decision's wall
    milliseconds (a bot that sleeps or waits shows in the wall columns only)."""
    return [
        [
            n,
            res.decisions[n],
            round(1000 * res.seconds_per_decision[n], 3),
            round(1000 * res.wall_seconds_per_decision.get(n, math.nan), 3),
            round(1000 * res.slowest_wall_s.get(n, math.nan), 3),
        ]
        for n in res.agents
    ]


def _intro(res: ArenaResult) -> str:
    r = res.rules
    return (
        f"Rules `{r.name}` (claiming {r.claiming}, match to {r.match_target}), seed {res.seed}, "
        f"{res.deals} duplicate deals per pair (blocks of {res.block}; each deal played with the seats "
        "swapped, plus the deals that finish open matches)."
    )


def summary_markdown(res: ArenaResult) -> str:
    """All tables as one Markdown document."""
    lines = [f"# Arena: {', '.join(res.agents)}", "", _intro(res), ""]
    for title, headers, rows in sections(res):
        lines += [f"## {title}", "", table(headers, rows), ""]
    return "\n".join(lines)


def html_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "\n".join("<tr>" + "".join(_cell(fmt(c)) for c in row) + "</tr>" for row in rows)
    return f'<div class="wide"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table></div>'


def _cell(text: str) -> str:
    """Numbers and intervals stay on one line; long text (reasons, file names) may wrap."""
    css = ' class="text"' if len(text) > 40 else ""
    return f"<td{css}>{html.escape(text)}</td>"


_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em}"
    ".wide{overflow-x:auto;margin-bottom:1.5em}table{border-collapse:collapse}"
    "th,td{border:1px solid #bbb;padding:.25em .6em;text-align:left;white-space:nowrap}"
    "td.text{white-space:normal;min-width:20em}"
    "th{background:#eee}tbody tr:nth-child(even){background:#f7f7f7}"
)


def html_page(title: str, intro: str, parts: Sequence[Section]) -> str:
    """A self-contained HTML page of titled tables."""
    body = "\n".join(f"<h2>{html.escape(t)}</h2>\n{html_table(h, r)}" for t, h, r in parts)
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>\n'
        f"<style>{_CSS}</style>\n</head>\n<body>\n<h1>{html.escape(title)}</h1>\n<p>{html.escape(intro)}</p>\n"
        f"{body}\n</body>\n</html>\n"
    )


def summary_html(res: ArenaResult) -> str:
    """The Markdown summary's tables as a standalone HTML page."""
    return html_page(f"Arena: {', '.join(res.agents)}", _intro(res).replace("`", ""), sections(res))


def _write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write_results(res: ArenaResult, out: str | Path) -> Path:
    """Write ``summary.md``, ``summary.html``, ``pairs.csv``, ``elo.csv``, ``deals.csv``,
    ``timing.csv`` and ``faults.csv`` into the folder ``out``."""
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    (path / "summary.md").write_text(summary_markdown(res), encoding="utf-8")
    (path / "summary.html").write_text(summary_html(res), encoding="utf-8")
    write_csvs(res, path)
    return path


def write_csvs(res: ArenaResult, path: Path) -> None:
    """``pairs.csv``, ``elo.csv``, ``deals.csv``, ``timing.csv`` and ``faults.csv`` into ``path``."""
    pair_header = [
        "a",
        "b",
        "deals",
        "a_wins",
        "b_wins",
        "draws",
        "a_deal_win_rate",
        "deal_ci_low",
        "deal_ci_high",
        "a_points_per_deal",
        "points_ci_low",
        "points_ci_high",
        "matches",
        "a_match_wins",
        "a_match_win_rate",
        "match_ci_low",
        "match_ci_high",
    ]
    pair_csv = [
        [
            p.a,
            p.b,
            p.deals,
            p.wins,
            p.losses,
            p.draws,
            *(f"{x:.6f}" for x in (p.deal_win_rate, *p.deal_win_ci, p.points_per_deal, *p.points_ci)),
            p.matches,
            p.match_wins,
            *(f"{x:.6f}" for x in (p.match_win_rate, *p.match_win_ci)),
        ]
        for p in res.pairs
    ]
    if has_reduced(res):  # the tournament's tables, which share this writer, have no such columns
        pair_header += ["a_points_reduced", "reduced_ci_low", "reduced_ci_high", "variance_ratio"]
        for row, p in zip(pair_csv, res.pairs, strict=True):
            row += [f"{x:.6f}" for x in (p.points_reduced, *p.points_reduced_ci, p.variance_ratio)]
    _write_csv(path / "pairs.csv", pair_header, pair_csv)
    _write_csv(path / "elo.csv", ["agent", "elo"], elo_rows(res))
    names = [f.name for f in dataclasses.fields(DealRecord) if f.name != "pair"]
    deal_rows = [[res.pairs[d.pair].a, res.pairs[d.pair].b, *(getattr(d, n) for n in names)] for d in res.deal_records]
    deal_header = ["a", "b", *names]
    if len(res.deal_corrections) == len(deal_rows) and has_reduced(res):
        deal_header.append("a_draw_correction")
        for row, c in zip(deal_rows, res.deal_corrections, strict=True):
            row.append(f"{c:.6f}")
    _write_csv(path / "deals.csv", deal_header, deal_rows)
    timing = [
        [
            n,
            res.decisions[n],
            *(
                f"{1000 * x:.4f}"
                for x in (
                    res.seconds_per_decision[n],
                    res.wall_seconds_per_decision.get(n, math.nan),
                    res.slowest_wall_s.get(n, math.nan),
                )
            ),
        ]
        for n in res.agents
    ]
    header = ["agent", "decisions", "mean_ms_per_decision", "mean_wall_ms_per_decision", "slowest_wall_ms"]
    _write_csv(path / "timing.csv", header, timing)
    fault_fields = [f.name for f in dataclasses.fields(FaultRecord) if f.name != "pair"]
    _write_csv(path / "faults.csv", fault_fields, [[getattr(f, n) for n in fault_fields] for f in res.faults])
