"""Tournament: every bot of a folder plays every other, refereed, and a league table comes out.

    python -m sixtysix_env.tournament bots/ --include heuristic,random --deals 100 \\
        --time-limit-ms 500 --workers 2 --out league/

**Which bots.** Every ``*.py`` file of the folder (not ``_*.py`` or ``test_*.py``) is a bot
labelled by its file name; its agent is the module's ``AGENT`` (a class or factory), else the one
class in the file with an ``act`` method, built with no arguments (:mod:`.discover`). An agent
with a ``prepare(rules)`` method (compiling a search, loading a model) has it called once it is
built, within the build time (``--build-timeout``, default 30 s), not on the clock of its first decision.
``--include`` adds built-in agents (``heuristic``, ``random``, ``pimc:samples=10``, ...). A file
that fails to import, has no agent, or whose agent cannot be built is *disqualified*: listed in
the report with the reason, and the others play.

**How they play.** The arena's schedule (:mod:`sixtysix_env.arena`): a round robin, each pair on
the same duplicate deals with the seats swapped, in matches to the rules' target. The deals come
from a secret key (:mod:`.keys`; ``--key-file``, else random per run). Each bot has a *zygote*
process that never runs its code and forks a fresh game process per task (:mod:`.sandbox`), so
nothing a bot remembers reaches a deal it has seen with the seats swapped. A bot sees only its
``InfoState`` and answers in small JSON messages (never unpickled); its printed output goes to
``OUT/logs/BOT.log``, cut at ``--log-kb``; its address space is capped (``--memory-mb``); its
process group is stopped between its decisions and killed with its task (:mod:`.host`). Signals a
bot sends the host are ignored and disqualify it (:mod:`.guard`). Run as root, each bot runs under
a user id of its own (at most ``remote.NPROC`` = 64 processes), from a read-only copy of its file
that no other bot can read, and each game process in namespaces of its own (:mod:`.jail`): every
world-writable folder and its working folder are a fresh private tmpfs, the rest is read-only
and a copy in memory of what a bot's Python needs (:mod:`.treecopy`: no page of the host's disk
cache), it has no network and private IPC, and sees only its own processes; so no file, socket,
shared memory, cached page or signal carries what a bot saw into its other tasks. The two seat
orders of a block never run at the same time (:mod:`.apart`), whatever ``--workers``. Where
namespaces cannot be had (not root, not Linux) the host warns, on stderr and in the report, which
guarantees do not hold. Each finished block is appended to ``OUT/journal.jsonl``
(:mod:`.journal`): ``--resume`` after a stop or a kill plays only the rest.

**Faults and forfeits.** A bot whose decision raises an exception, returns an action that is not
legal (``True``/``False`` included), or takes longer than ``--time-limit-ms`` (measured by the
host: its clock from question to answer, and the CPU time of the bot's process tree) loses that
deal by forfeit: the opponent wins it with the most game points a deal can give
(``Rules.max_game_points``: 3, or 6 where a failed close can cost 6), and the match goes on with
the next deal. A bot that has not answered after ``--kill-after`` seconds (default: twice the limit
plus one second) is killed and replaced by a fresh process, and so is one whose process dies; one
killed on ``--strikes`` decisions in a row (default 3) is retired and forfeits its later deals
unplayed. A bot that cheats (a forged or oversized message, a signal to the host) is disqualified
and forfeits every later deal. The report names the bot, the deal, the seats, the reason (the
exception with the line of the bot's code) and the position (``faults.csv``).

**On a Ray cluster** (``--ray ADDRESS``, :mod:`.cluster`): each duplicate block is played by a
fresh host process on the node that takes it (:mod:`.node`), with the bots' files and the seeds
of that block, never the key; the league equals the local run's for the same key (docs/ray.md).

**Report** (``--out``): ``league.md`` and ``league.html`` (league table with Elo, deal and match
win rates with 95% intervals, game points per deal, forfeits; disqualified bots; forfeits; the
pair table; decision times), ``bots.csv``, and the arena's ``pairs.csv``, ``elo.csv``,
``deals.csv``, ``timing.csv`` and ``faults.csv``; ``key.hex`` (mode 0600) when the key was random,
written once no bot runs any more. What the host guarantees and what it does not: docs/teachers.md.
"""

from __future__ import annotations

from .cli import main
from .discover import agent_attribute, bot_files
from .league import league_html, league_markdown, league_rows, write_report
from .run import BotEntry, TournamentError, TournamentResult, forfeit_points, run_tournament

__all__ = [
    "BotEntry",
    "TournamentError",
    "TournamentResult",
    "agent_attribute",
    "bot_files",
    "forfeit_points",
    "league_html",
    "league_markdown",
    "league_rows",
    "main",
    "run_tournament",
    "write_report",
]
