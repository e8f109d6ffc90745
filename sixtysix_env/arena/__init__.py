"""Arena: round-robin duplicate matches between agents, with confidence intervals and Elo.

    python -m sixtysix_env.arena --agents pimc,heuristic,random --deals 2000 --rules standard \\
        --seed 0 --out results/
    python -m sixtysix_env.arena --agents mybot.py:MyBot,heuristic --deals 200 --workers 2

Agents are registry names with optional constructor options after colons, such as
``pimc:samples=40:endgame=solve``, or a user's own class, ``mybot.py:MyBot`` or
``package.module:Class`` (:mod:`sixtysix_env.agents.spec`). The tables label a registered agent
by its text and a user's class by its ``name`` with the options given (``mybot.py:MyBot:depth=2``
-> ``mybot:depth=2``; the text stays when the name is missing, odd, a built-in's or taken). They
work with any number of workers and every start method (``spawn`` loads a file bot from its file
in each worker).

**How a pair is played** (:mod:`.schedule`, :mod:`.play`). For every pair (A, B) the ``--deals``
deal indices are cut into blocks of ``--block`` deals, and every block is played twice, as two
*tracks*: track 0 with A in seat 0, track 1 with B in seat 0. Deal ``k`` of a block has the same
cards in both tracks (the deck is shuffled by an RNG seeded from ``--seed`` and the deal index
only, so every pair also meets the same deals). Within a track the deals form consecutive
matches to the rules' ``match_target``: each deal starts with the match score, the next dealer
follows the rules (the winner deals, or the players alternate; after a drawn deal the same dealer
deals again, or the other one under ``drawn_deal="new_dealer"``; under ``"carry"`` the next deal's
winner gets one extra game point), a new match starts when one reaches the target, and the first
dealer of a block is seat ``block % 2`` in both tracks. A match still running when the block's
deals are used up is finished with extra deals (again the same cards in both tracks), so no match
is cut short; those deals count in the deal statistics too. The two plays of a deal get the same
dealer as long as the tracks' results mirror each other, which makes the comparison duplicate:
luck of the cards mostly cancels.

**What is reported** (:mod:`.stats`, :mod:`.results`), per pair from A's side: deal win rate
((wins + draws/2) / deals) and match win rate with 95% Wilson intervals; game points per deal
with a 95% normal interval (deals taken as independent, which overstates the variance of a
duplicate design: the intervals are conservative); and one Elo table, a Bradley-Terry
maximum-likelihood fit to the deal results of all pairs (one virtual drawn deal per pair keeps a
perfect score finite), anchored at ``random`` = 0 when it plays, else at a mean of 1500. By default
(``--no-reduce`` turns it off) also the points per deal with the luck of the stock draws taken
out, unbiased and with a narrower interval (:mod:`.variance`, docs/evaluation.md). Each
agent's mean CPU and wall time per decision and its slowest decision are listed too (the only
numbers that change between runs of the same command; agents with a ``time_ms`` budget also
play differently on a different machine).

**Faults** (:mod:`.play`, :mod:`.timed`). A bot that raises (``exit()`` too), returns an illegal
action or takes longer than ``--decision-limit`` seconds of wall time (default 60) over one
decision forfeits that deal by the most game points a deal gives; the match goes on and so does
the run. Each forfeit is listed with the bot, the deal, the track and the position
(``Deal.to_notation``) in the summary and ``faults.csv``. A user's bot decides in a thread of its
own, so a hang is cut off at the limit; until that late decision ends, the bot forfeits its deals
without being asked.

**Checked before the first deal** (:mod:`.checks`): the output folder (an existing file or an
unwritable place is refused), the Elo prior (finite, >= 0), every option, and one trial decision
of every agent (a missing model file, an option of the wrong type such as ``samples=1e9``, or a
budget that does not finish one decision within ``--trial-timeout`` seconds).

Files written to ``--out`` (:mod:`.writers`): ``summary.md`` and ``summary.html`` (all tables),
``pairs.csv``, ``elo.csv``, ``deals.csv`` (one row per deal played), ``timing.csv`` and
``faults.csv`` (forfeits; with ``--records`` the deals of a match with a forfeit get deal
records). The progress bar needs ``tqdm`` and the Markdown tables use ``tabulate`` when
installed; neither is required.

Modules: ``stats`` (intervals, Elo), ``schedule`` (duplicate deals, seeds, dealers), ``play`` (a
deal, a task, refereeing), ``matches`` (match results for the benchmarks), ``variance`` (the
reduced estimate), ``timed`` (the decision limit of a user's bot), ``workers`` (process
pools, start methods), ``results`` (tables from deals), ``checks``, ``writers``, ``run``
(:func:`run_arena`, :func:`run_task`) and ``cli``.
"""

from __future__ import annotations

from ..agents.spec import AgentSpec, parse_agent_spec
from .cli import main
from .play import BotFault, DealRecord, FaultRecord, MatchRecord, TaskResult, play_deal, play_task
from .results import ArenaResult, PairResult
from .run import run_arena
from .schedule import Task, next_dealer
from .stats import Z95, bradley_terry_elo, mean_interval, wilson_interval
from .writers import summary_html, summary_markdown, table, write_results

# names the tests and older scripts import
_next_dealer = next_dealer
_table = table

__all__ = [
    "Z95",
    "AgentSpec",
    "ArenaResult",
    "BotFault",
    "DealRecord",
    "FaultRecord",
    "MatchRecord",
    "PairResult",
    "Task",
    "TaskResult",
    "bradley_terry_elo",
    "main",
    "mean_interval",
    "parse_agent_spec",
    "play_deal",
    "play_task",
    "run_arena",
    "summary_html",
    "summary_markdown",
    "wilson_interval",
    "write_results",
]
