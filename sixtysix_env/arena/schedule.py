"""The duplicate schedule: which deals each pair plays, in which seats, from which seeds.

For every pair (A, B) the deal indices are cut into blocks, and every block is played twice, as
two *tracks*: track 0 with A in seat 0, track 1 with B in seat 0. A deal's cards come from an RNG
seeded by the run's seed and the deal index only, so both tracks and every pair meet the same
deals. A task is one block of one pair in one track: the unit a worker plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..agents.spec import AgentSpec
from ..rules import Rules

__all__ = ["Task", "agent_seed", "deal_seeds", "make_tasks", "next_dealer", "round_robin"]


@dataclass(frozen=True)
class Task:
    """One block (``size`` deals from index ``start``) of one pair in one track."""

    pair: int
    block: int
    start: int
    size: int
    track: int
    specs: tuple[AgentSpec, AgentSpec]
    rules: Rules
    seed: int | str
    """The run's seed: an int in the arena, a key-derived text in a tournament (both only formatted into seed texts)."""
    reduce: str = ""
    """Also compute each deal's draw correction (:mod:`.variance`) for the reduced estimate, with
    ``"agents"`` (each agent's own network plays its seat in the playouts where it has one) or
    ``"heuristic"`` playouts; ``""``: not."""

    @property
    def a_seat(self) -> int:
        """The seat of the pair's first agent (A): 0 in track 0, 1 in track 1."""
        return self.track

    def seat_labels(self) -> tuple[str, str]:
        a, b = self.specs[0].label, self.specs[1].label
        return (a, b) if self.track == 0 else (b, a)


def round_robin(n: int) -> list[tuple[int, int]]:
    """Every unordered pair of ``n`` agents, as index pairs (i < j)."""
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def make_tasks(
    specs: Sequence[AgentSpec], deals: int, block: int, rules: Rules, seed: int, reduce: str = ""
) -> list[Task]:
    """All tasks of a round robin, pair by pair, block by block, track 0 then 1."""
    return [
        Task(p, b, start, min(block, deals - start), track, (specs[i], specs[j]), rules, seed, reduce)
        for p, (i, j) in enumerate(round_robin(len(specs)))
        for b, start in enumerate(range(0, deals, block))
        for track in (0, 1)
    ]


def next_dealer(rules: Rules, dealer: int, winner: int) -> int:
    """Who deals after a deal won by ``winner`` (-1: drawn), as the rules say."""
    if winner < 0:
        return 1 - dealer if rules.drawn_deal == "new_dealer" else dealer
    return winner if rules.next_dealer == "winner" else 1 - dealer


def deal_seeds(seed: int | str, block: int, start: int, size: int) -> Iterator[str]:
    """Deck seeds of a block: its own deal indices, then an endless stream of extra deals (those
    that finish a match still running when the block's deals are used up)."""
    for g in range(start, start + size):
        yield f"{seed}/deal/{g}"
    j = 0
    while True:
        yield f"{seed}/extra/{block}/{j}"
        j += 1


def agent_seed(task: Task, seat: int) -> str:
    """Seed text of the RNG handed to the agent in ``seat`` for the whole task."""
    return f"{task.seed}/agent/{task.pair}/{task.block}/{task.track}/{seat}"
