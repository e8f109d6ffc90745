"""One person against agents: a match of the two-, three- or four-player game, played through
the same API a bot uses.

The person sits at seat 0; each agent gets only its own ``information_state`` and answers with
``act(info, rng)`` (with four players the partner, seat 2, is an agent too). :meth:`WebGame.play`
checks the person's action before touching anything, so a bad request leaves the game as it was,
then lets the agents move until it is the person's turn again, returning one step per agent move
so the page can show them one at a time.
"""

from __future__ import annotations

import copy
import random
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..agents.base import Agent, first_position_fault
from ..agents.spec import AgentSpec
from ..checks import as_index
from ..match import Match
from ..records import match_record, save_record
from ..rules import PRESET_INFO, PRESETS
from ..table import FOUR_PRESETS, THREE_PRESETS, FourDeal, TableMatch, ThreeDeal
from .table import table_view
from .view import log_line, result_line, seat_view

__all__ = ["AgentFailed", "GameStateError", "HUMAN", "TABLE_GAMES", "WebGame", "probe", "rule_choices", "seat_agent"]

HUMAN = 0
"""The human's seat in a web game."""
TABLE_GAMES = {"three": ThreeDeal, "four": FourDeal}
"""The three- and four-player deal classes the page can play, by game name."""


def rule_choices() -> dict[str, tuple[str, Any, str]]:
    """The page's rule systems: key -> (game, rules, title). Two-player presets by their name
    ("standard"), the table games as "three:pagat", "four:russian"."""
    out: dict[str, tuple[str, Any, str]] = {}
    for name, two in PRESETS.items():
        out[name] = ("two", two, PRESET_INFO[name].title if name in PRESET_INFO else name)
    for name, three in THREE_PRESETS.items():
        out[f"three:{name}"] = ("three", three, f"Three players ({name})")
    for name, four in FOUR_PRESETS.items():
        out[f"four:{name}"] = ("four", four, f"Four players, two teams ({name})")
    return out


def seat_agent(spec: AgentSpec, game: str) -> Agent:
    """The agent for one seat of ``game``: the spec's, with a registered name looked up in that
    game's registry (:data:`~sixtysix_env.agents.REGISTRY`: the table games have random,
    heuristic and pimc), so one command-line opponent serves every game."""
    return spec.for_game(game).make()


def probe(agent: Agent, game: str, rules: Any) -> str | None:
    """Why ``agent`` cannot play a table game, or None. The two-player agents read an
    ``InfoState``; only some read a ``TableView``."""
    return first_position_fault(agent, TABLE_GAMES[game], rules, game)


class GameStateError(ValueError):
    """A request that does not fit the game's state (not your turn, deal over, match over)."""


class AgentFailed(RuntimeError):
    """The agent raised or answered with an illegal action; the message says which."""


class WebGame:
    """A match between the person (seat 0) and agents built from ``spec`` at the other seats, with
    a log of public actions. ``game`` is ``"two"``, ``"three"`` or ``"four"``, ``rules`` its rules."""

    def __init__(self, game: str, rules: Any, spec: AgentSpec, seed: int, records: Path | None = None) -> None:
        """``records``: a folder where the match record is (re)written after every finished deal."""
        self.game = game
        self.rules = rules
        self.spec = spec
        self.seed = seed
        n = 2 if game == "two" else TABLE_GAMES[game].n_players
        self.agents: dict[int, Agent] = {p: seat_agent(spec, game) for p in range(1, n)}
        labels = [spec.label] if game == "two" else [f"{spec.label} {p}" for p in range(1, n)]
        self.names = ["You", *labels]
        """Seat names as the page shows them."""
        self.text_names = ["you", *labels]
        """Seat names inside sentences ("trick to you") and in the saved record."""
        self.rng = random.Random(seed)
        self.agent_rng = random.Random(self.rng.getrandbits(64))
        self.match: Match | TableMatch = (
            Match(rules, self.rng) if game == "two" else TableMatch(TABLE_GAMES[game], rules, self.rng)
        )
        self.log: list[list[str]] = [[]]
        self.finished: list[Any] = []
        self.person_moves = 0
        """The person's moves so far: the server never drops a game the person played in for an untouched one."""
        self.lock = threading.Lock()
        self.record_path: Path | None = None
        if records is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            who = re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec.label)[:40]
            # like the terminal's names (time-game-rules-episode), plus the opponent and a seed tail
            # so that two games started in the same second keep their own files
            name = f"{stamp}-{game}-{rules.name}-match-vs-{who}-{seed % 10**6:06d}.json"
            self.record_path = Path(records) / name
        self.record_error = ""

    @property
    def deal(self) -> Any:
        """The deal in play: a ``Deal``, ``ThreeDeal`` or ``FourDeal``."""
        return self.match.deal

    def view(self) -> dict[str, Any]:
        """The person's view of the table, the match and the log of this deal."""
        info = self.deal.information_state(HUMAN)
        result = result_line(self.deal, self.text_names) if self.deal.is_over else ""
        scores = tuple(self.match.scores)
        match = self.match
        if isinstance(match, Match):  # the two-player game
            v = seat_view(info, self.names, you=HUMAN, scores=(scores[0], scores[1]), result=result)
            winners = [match.winner] if match.is_over else []
        else:
            v = table_view(info, self.names, you=HUMAN, scores=scores, result=result)
            winners = sorted({self.deal.side_of(p) for p in match.winners})
        v["deal_number"] = len(self.match.results) + (0 if self.deal.is_over else 1)
        v["match_over"] = self.match.is_over
        v["match_winners"] = winners  # sides: players (two, three) or teams (four)
        v["log"] = list(self.log[-1])
        v["opponent"] = self.spec.label
        saved = self.record_path is not None and self.finished and not self.record_error
        v["record"] = str(self.record_path) if saved else None
        v["record_error"] = self.record_error or None
        return v

    def _apply(self, action: int) -> tuple[int, str]:
        """Play ``action``; returns it as the person saw it (another seat's face-down card reads
        ``HIDDEN_ACTION``, as in the person's view) and its log line, worded for the person."""
        before = self.deal.clone()
        self.match.apply(action)
        text = log_line(before, self.deal, action, self.text_names, viewer=HUMAN)
        self.log[-1].append(text)
        seen = action
        if self.game != "two":  # the person's own view of the history says what the person saw
            seen = self.deal.information_state(HUMAN).history[-1] & 63
        if self.deal.is_over:
            self.finished.append(self.deal)
            self.log[-1].append(result_line(self.deal, self.text_names))
        return seen, text

    def _atomic(self, call: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """Run ``call`` (the person's move and the agents' replies, or a new deal) all or nothing:
        when an agent fails, the game goes back to where it was, so a retry can work and the game
        is never stuck half way. The record is written once the whole step has happened."""
        saved = copy.deepcopy((self.match, self.log, self.agent_rng))
        finished = len(self.finished)
        try:
            steps = call()
        except Exception:
            self.match, self.log, self.agent_rng = saved
            del self.finished[finished:]
            raise
        if len(self.finished) > finished:
            self._save()
        return steps

    def _save(self) -> None:
        """Write the match so far; a failure (disk full, no permission) is shown, not raised."""
        if self.record_path is None:
            return
        meta = {
            "source": "web",
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seed": self.seed,
            "episode": "match",
            "human_seat": HUMAN,
            "agents": [None, *(self.spec.label for _ in self.agents)],
        }
        record = match_record(self.finished, players=self.text_names, meta=meta)
        try:
            save_record(self.record_path, record)
            self.record_error = ""
        except OSError as e:
            self.record_error = f"could not save the game to {self.record_path}: {e}"

    def start(self) -> list[dict[str, Any]]:
        """The agents' moves before the person's first turn (all or nothing, as :meth:`play`)."""
        return self._atomic(self.run_agent)

    def run_agent(self) -> list[dict[str, Any]]:
        """Let the agent act until the person is to act or the deal ends; one step per agent move."""
        steps = []
        deal = self.deal
        while not deal.is_over and deal.current_player != HUMAN:
            p = deal.current_player
            info = deal.information_state(p)
            try:
                answer = self.agents[p].act(info, self.agent_rng)
            except Exception as e:
                raise AgentFailed(f"the opponent {self.spec.label!r} raised {type(e).__name__}: {str(e)[:300]}") from e
            action = as_index(answer)
            if action is None or not deal.is_legal(action):  # its legal moves would show its hand: not listed
                raise AgentFailed(
                    f"the opponent {self.spec.label!r} answered {repr(answer)[:80]}, which is not legal here"
                )
            seen, text = self._apply(action)
            steps.append({"action": seen, "text": text, "view": self.view(), "by": p})
        return steps

    def play(self, action: object) -> list[dict[str, Any]]:
        """The person's action, then the agent's answers. Raises (changing nothing) when the
        action is not an int, not legal, or it is not the person's turn."""
        if self.deal.is_over:
            raise GameStateError("this deal is over: start the next deal (POST .../next) or a new match")
        if self.deal.current_player != HUMAN:
            raise GameStateError("it is the opponent's turn, not yours")
        if not isinstance(action, int) or isinstance(action, bool):
            raise ValueError(f"action must be an integer action id from the view's legal list, got {repr(action)[:60]}")
        legal = self.deal.information_state(HUMAN).legal_actions()
        if action not in legal:
            names = ", ".join(str(a) for a in legal)
            raise ValueError(f"action {action} is not legal now: legal actions are {names}")

        def move() -> list[dict[str, Any]]:
            seen, text = self._apply(action)
            return [{"action": seen, "text": text, "view": self.view(), "by": HUMAN}, *self.run_agent()]

        steps = self._atomic(move)
        self.person_moves += 1
        return steps

    def next_deal(self) -> list[dict[str, Any]]:
        """Deal the next deal of the match (the previous one must be over)."""
        if not self.deal.is_over:
            raise GameStateError("the current deal is still being played")
        if self.match.is_over:
            raise GameStateError("the match is over: start a new match")

        def deal() -> list[dict[str, Any]]:
            self.match.next_deal()
            self.log.append([])
            return self.run_agent()

        return self._atomic(deal)
