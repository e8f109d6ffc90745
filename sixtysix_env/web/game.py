"""One person against one agent: a match played through the same API a bot uses.

The person sits at seat 0; the agent gets only its own ``information_state`` and answers with
``act(info, rng)``. :meth:`WebGame.play` checks the person's action before touching anything, so a
bad request leaves the game as it was, then lets the agent move until it is the person's turn
again, returning one step per agent move so the page can show them one at a time.
"""

from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path
from typing import Any

from ..agents.base import Agent
from ..agents.spec import AgentSpec
from ..engine import Deal
from ..match import Match
from ..records import match_record, save_record
from ..rules import Rules
from .view import log_line, result_line, seat_view

__all__ = ["AgentFailed", "GameStateError", "HUMAN", "WebGame"]

HUMAN = 0
BOT = 1


class GameStateError(ValueError):
    """A request that does not fit the game's state (not your turn, deal over, match over)."""


class AgentFailed(RuntimeError):
    """The agent raised or answered with an illegal action; the message says which."""


class WebGame:
    """A match between the person (seat 0) and ``agent`` (seat 1), with a log of public actions."""

    def __init__(
        self, rules: Rules, spec: AgentSpec, seed: int, records: Path | None = None, agent: Agent | None = None
    ) -> None:
        """``records``: a folder where the match record is (re)written after every finished deal."""
        self.rules = rules
        self.spec = spec
        self.seed = seed
        self.agent = agent if agent is not None else spec.make()
        self.names = ["You", spec.label]
        """Seat names as the page shows them."""
        self.text_names = ["you", spec.label]
        """Seat names inside sentences ("trick to you") and in the saved record."""
        self.rng = random.Random(seed)
        self.agent_rng = random.Random(self.rng.getrandbits(64))
        self.match = Match(rules, self.rng)
        self.log: list[list[str]] = [[]]
        self.finished: list[Deal] = []
        self.lock = threading.Lock()
        self.record_path: Path | None = None
        if records is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            who = re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec.label)[:40]
            # like the terminal's names (time-game-rules-episode), plus the opponent and a seed tail
            # so that two games started in the same second keep their own files
            name = f"{stamp}-two-{rules.name}-match-vs-{who}-{seed % 10**6:06d}.json"
            self.record_path = Path(records) / name
        self.record_error = ""

    @property
    def deal(self) -> Deal:
        return self.match.deal

    def view(self) -> dict[str, Any]:
        """The person's view of the table, the match and the log of this deal."""
        info = self.deal.information_state(HUMAN)
        result = result_line(self.deal, self.text_names) if self.deal.is_over else ""
        v = seat_view(info, self.names, you=HUMAN, scores=tuple(self.match.scores), result=result)
        v["deal_number"] = len(self.match.results) + (0 if self.deal.is_over else 1)
        v["match_over"] = self.match.is_over
        v["match_winner"] = self.match.winner if self.match.is_over else None
        v["log"] = list(self.log[-1])
        v["opponent"] = self.spec.label
        saved = self.record_path is not None and self.finished and not self.record_error
        v["record"] = str(self.record_path) if saved else None
        v["record_error"] = self.record_error or None
        return v

    def _apply(self, action: int) -> str:
        before = self.deal.clone()
        self.match.apply(action)
        text = log_line(before, self.deal, action, self.text_names)
        self.log[-1].append(text)
        if self.deal.is_over:
            self.finished.append(self.deal)
            self.log[-1].append(result_line(self.deal, self.text_names))
            self._save()
        return text

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
            "agents": [None, self.spec.label],
        }
        record = match_record(self.finished, players=self.text_names, meta=meta)
        try:
            save_record(self.record_path, record)
            self.record_error = ""
        except OSError as e:
            self.record_error = f"could not save the game to {self.record_path}: {e}"

    def run_agent(self) -> list[dict[str, Any]]:
        """Let the agent act until the person is to act or the deal ends; one step per agent move."""
        steps = []
        deal = self.deal
        while not deal.is_over and deal.current_player == BOT:
            info = deal.information_state(BOT)
            try:
                action = self.agent.act(info, self.agent_rng)
            except Exception as e:
                raise AgentFailed(f"the opponent {self.spec.label!r} raised {type(e).__name__}: {e}") from e
            if not isinstance(action, int) or isinstance(action, bool) or not deal.is_legal(action):
                legal = ", ".join(str(a) for a in deal.legal_actions())
                raise AgentFailed(
                    f"the opponent {self.spec.label!r} answered {action!r}, which is not legal here (legal: {legal})"
                )
            text = self._apply(int(action))
            steps.append({"action": int(action), "text": text, "view": self.view(), "by": BOT})
        return steps

    def play(self, action: object) -> list[dict[str, Any]]:
        """The person's action, then the agent's answers. Raises (changing nothing) when the
        action is not an int, not legal, or it is not the person's turn."""
        if self.deal.is_over:
            raise GameStateError("this deal is over: start the next deal (POST .../next) or a new match")
        if self.deal.current_player != HUMAN:
            raise GameStateError("it is the opponent's turn, not yours")
        if not isinstance(action, int) or isinstance(action, bool):
            raise ValueError(f"action must be an integer action id (0..31), got {action!r}")
        legal = self.deal.information_state(HUMAN).legal_actions()
        if action not in legal:
            names = ", ".join(str(a) for a in legal)
            raise ValueError(f"action {action} is not legal now: legal actions are {names}")
        text = self._apply(action)
        return [{"action": action, "text": text, "view": self.view(), "by": HUMAN}, *self.run_agent()]

    def next_deal(self) -> list[dict[str, Any]]:
        """Deal the next deal of the match (the previous one must be over)."""
        if not self.deal.is_over:
            raise GameStateError("the current deal is still being played")
        if self.match.is_over:
            raise GameStateError("the match is over: start a new match")
        self.match.next_deal()
        self.log.append([])
        return self.run_agent()
