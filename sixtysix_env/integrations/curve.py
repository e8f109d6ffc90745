"""A learning curve for the framework examples: strength against the heuristic over wall time.

Every example calls it the same way, so their curves compare::

    curve = LearningCurve("results/cleanrl", label="CleanRL PPO", every_s=120)
    ...                                   # inside the training loop, after an update:
    curve.maybe(policy, steps)            # a duplicate evaluation when ``every_s`` has passed
    result = curve.final(policy, steps)   # 2,000 duplicate deals; writes .csv, .json and .png

The clock starts when the curve is made and runs through the evaluations (they count against the
run's wall time, as they would for anyone timing the command). The checkpoints play ``deals``
duplicate deals on seed 777 (``duplicate_eval``); the final one plays ``final_deals`` on seed
12345, the deals every example's closing line reports. The PNG needs matplotlib (extra ``plot``):
without it the curve is written as CSV and JSON only, and a line says so;
``python -m sixtysix_env.integrations.curve PREFIX.json`` draws it later where matplotlib is.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

from ..checks import cli_int
from ..cli_options import AtLeast, positive_float
from .evaluate import BatchPolicy, DuplicateResult, duplicate_eval

__all__ = ["LearningCurve", "add_curve_arguments", "heartbeat", "redraw"]

CHECKPOINT_SEED = 777
FINAL_SEED = 12345
FIELDS = ("wall_s", "steps", "points_per_deal", "low", "high", "win_rate", "deals")


@contextlib.contextmanager
def heartbeat(doing: str, every_s: float = 25.0) -> Iterator[None]:
    """Print ``"<doing>: still at it (N s)"`` every ``every_s`` seconds while the block runs, so a
    long silent step (a framework building its workers) still shows a line at least that often."""
    done = threading.Event()
    start = time.time()

    def beat() -> None:
        while not done.wait(every_s):
            print(f"{doing}: still at it ({time.time() - start:.0f} s)", flush=True)

    thread = threading.Thread(target=beat, daemon=True, name="heartbeat")
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def add_curve_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every framework example shares: ``--eval-deals``, ``--eval-every``, ``--curve``."""
    parser.add_argument(
        "--eval-deals",
        type=cli_int,
        action=AtLeast,
        at_least=0,
        default=2000,
        help="duplicate deals against heuristic at the end (0: no evaluation, no curve)",
    )
    parser.add_argument(
        "--eval-every", type=positive_float, default=120.0, help="seconds between checkpoint evaluations"
    )
    parser.add_argument("--curve", default=None, help="write the curve as PREFIX.csv, PREFIX.json and PREFIX.png")


class LearningCurve:
    """Duplicate evaluations of a batched policy at checkpoints of a run, written as a curve."""

    def __init__(
        self,
        prefix: str | Path | None,
        label: str,
        every_s: float = 120.0,
        deals: int = 500,
        final_deals: int = 2000,
        rules: str = "standard",
    ) -> None:
        if every_s <= 0 or deals < 2 or final_deals < 2:
            raise ValueError(f"every_s must be positive and deals at least 2, got {every_s}, {deals}, {final_deals}")
        self.prefix = Path(prefix) if prefix is not None else None
        self.label, self.every_s, self.deals, self.final_deals, self.rules = label, every_s, deals, final_deals, rules
        self.start = time.time()
        self.next_due = self.start + every_s
        self.rows: list[dict[str, float]] = []

    @classmethod
    def from_args(cls, args: argparse.Namespace, label: str) -> LearningCurve:
        """The curve the options of ``add_curve_arguments`` ask for (checkpoints of at most 500 deals;
        the examples evaluate nothing when ``--eval-deals`` is below 2)."""
        deals = max(2, args.eval_deals)
        return cls(args.curve, label, args.eval_every, min(500, deals), deals)

    def elapsed(self) -> float:
        return time.time() - self.start

    def maybe(self, policy: BatchPolicy, steps: int) -> DuplicateResult | None:
        """Evaluate if a checkpoint is due (returns its result), else do nothing (returns None)."""
        if time.time() < self.next_due:
            return None
        result = self.evaluate(policy, steps, self.deals, CHECKPOINT_SEED)
        self.next_due = time.time() + self.every_s
        return result

    def evaluate(self, policy: BatchPolicy, steps: int, deals: int, seed: int) -> DuplicateResult:
        result = duplicate_eval(policy, deals=deals, rules=self.rules, seed=seed)
        row = {
            "wall_s": round(self.elapsed(), 1),
            "steps": int(steps),
            "points_per_deal": round(result.points, 4),
            "low": round(result.low, 4),
            "high": round(result.high, 4),
            "win_rate": round(result.win_rate, 4),
            "deals": deals,
        }
        self.rows.append(row)
        print(
            f"curve {row['wall_s']:.0f} s, {row['steps']} steps: {result.points:+.3f} [{result.low:+.3f}, "
            f"{result.high:+.3f}] vs heuristic ({deals} duplicate deals)",
            flush=True,
        )
        if self.prefix is not None:
            self._write_csv()
        return result

    def final(self, policy: BatchPolicy, steps: int, **extra: object) -> DuplicateResult:
        """The closing measurement (``final_deals`` pairs); writes the CSV, the JSON summary and the PNG."""
        result = self.evaluate(policy, steps, self.final_deals, FINAL_SEED)
        if self.prefix is not None:  # evaluate() made the folder and wrote the CSV
            summary = {"label": self.label, "wall_s": self.rows[-1]["wall_s"], "steps": int(steps)}
            summary |= {"final": asdict(result), "curve": self.rows} | dict(extra)
            self.prefix.with_suffix(".json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
            write_png(self.prefix.with_suffix(".png"), self.label, self.rows)
        return result

    def _write_csv(self) -> None:
        assert self.prefix is not None
        self.prefix.parent.mkdir(parents=True, exist_ok=True)
        with open(self.prefix.with_suffix(".csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=FIELDS)
            writer.writeheader()
            writer.writerows(self.rows)


def write_png(path: Path, label: str, rows: list[dict[str, float]]) -> None:
    """The curve's picture (needs matplotlib; without it a line says so and nothing is drawn)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not installed (extra 'plot'): no {path}, the curve is in CSV and JSON only")
        return
    minutes = [r["wall_s"] / 60 for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.fill_between(minutes, [r["low"] for r in rows], [r["high"] for r in rows], alpha=0.25, label="95% interval")
    ax.plot(minutes, [r["points_per_deal"] for r in rows], marker="o", markersize=3, label=label)
    ax.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("wall time (minutes, evaluations included)")
    ax.set_ylabel("game points per deal vs heuristic")
    ax.set_title(f"{label}: duplicate deals against the heuristic")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def redraw(summary: str | Path) -> Path:
    """Draw the PNG of a curve from its JSON summary (for a run whose venv had no matplotlib)."""
    path = Path(summary)
    data = json.loads(path.read_text())
    write_png(path.with_suffix(".png"), str(data["label"]), data["curve"])
    return path.with_suffix(".png")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Draw the PNG of learning curves from their JSON summaries.")
    parser.add_argument("summaries", nargs="+", help="PREFIX.json files written by a framework example's --curve")
    for summary in parser.parse_args(argv).summaries:
        print(redraw(summary))


if __name__ == "__main__":
    main()
