"""Game records from the environments, on request: wrappers that save one record per finished
deal or match (``sixtysix_env.records``, format in docs/records.md).

    env = RecordGames(sixtysix_v0.env(episode="match"), "records/")     # PettingZoo AEC, any size
    env = RecordEpisodes(gymnasium.make("SixtySix-v0"), "records/")     # Gymnasium single agent

``per="deal"`` writes a deal record for every finished deal, ``per="match"`` a match record for
every finished match (``episode="match"`` only); the default follows the env's ``episode``.
``trigger(k)`` chooses which episodes to record (k counts resets from 0), as Gymnasium's
``RecordVideo`` does; ``paths`` lists the files written. An episode cut short (an illegal move, a
reset mid-deal) leaves its unfinished deal or match unrecorded.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from ..records import match_record, save_record, to_record

__all__ = ["RecordGames", "RecordEpisodes", "GameRecorder"]

Trigger = Callable[[int], bool]


class GameRecorder:
    """Follows one env's ``match`` and writes the records; the two wrappers share it."""

    def __init__(
        self,
        directory: str | Path,
        per: str,
        episode: str,
        trigger: Trigger | None = None,
        prefix: str = "",
        meta: dict | None = None,
    ) -> None:
        if per not in ("deal", "match"):
            raise ValueError(f"per={per!r} is not allowed: choose deal or match")
        if per == "match" and episode != "match":
            raise ValueError("per='match' needs an env made with episode='match' (its episodes are single deals)")
        if trigger is not None and not callable(trigger):
            raise ValueError(f"trigger must be a callable episode_index -> bool, got {trigger!r}")
        self.directory = Path(directory)
        self.per = per
        self.trigger = trigger
        self.prefix = prefix
        self.meta = dict(meta or {})
        self.paths: list[Path] = []
        self.episode = -1
        self._match: Any = None
        self._deals: list[Any] = []
        self._saved = 0
        self._players: list[str] | None = None
        self._episode_meta: dict = {}
        self._on = False

    def begin(self, match: Any, players: list[str], seed: int | None) -> None:
        """A new episode: ``match`` is the env's match object right after reset."""
        self.episode += 1
        self._on = self.trigger is None or bool(self.trigger(self.episode))
        self._match = match
        self._deals = [match.deal]
        self._saved = 0
        self._players = players
        self._episode_meta = {"episode": self.episode, **({"seed": seed} if seed is not None else {})}

    def after_step(self) -> None:
        """Note a new deal of the match, and write what has just finished."""
        if not self._on or self._match is None:
            return
        m = self._match
        if m.deal is not self._deals[-1]:
            self._deals.append(m.deal)
        if self.per == "deal":
            while self._saved < len(self._deals) and self._deals[self._saved].outcome is not None:
                self._write("deal", functools.partial(self._deal_record, self._saved))
                self._saved += 1
        elif m.is_over and self._saved == 0:
            self._saved = len(self._deals)
            self._write("match", lambda: match_record(self._deals, players=self._players, meta=self._m(None)))

    def _deal_record(self, i: int) -> dict:
        return to_record(self._deals[i], players=self._players, meta=self._m(i))

    def _m(self, deal_index: int | None) -> dict:
        extra = {} if deal_index is None else {"deal_index": deal_index}
        return {"source": "env", **self.meta, **self._episode_meta, **extra}

    def _write(self, kind: str, build: Callable[[], dict]) -> None:
        try:
            record = build()
        except ValueError as e:  # a deal without arrangement (given resampled): say so, keep training
            warnings.warn(f"game record not written: {e}", stacklevel=3)
            return
        n = len(self.paths)
        while True:
            path = self.directory / f"{self.prefix}{kind}-{n:06d}.json"
            if not path.exists():
                break
            n += 1
        self.paths.append(save_record(path, record))


def _raw_match(env: Any) -> Any:
    match = getattr(env.unwrapped, "match", None)
    if match is None:
        raise ValueError(f"{env!r} keeps no sixtysix match: wrap a sixtysix environment")
    return match


class RecordGames(BaseWrapper):
    """A PettingZoo AEC wrapper for ``sixtysix_v0``, ``sixtysix_three_v0`` and ``sixtysix_four_v0``
    (raw or wrapped) that saves a record of every finished deal or match in ``directory``."""

    def __init__(
        self,
        env: AECEnv,
        directory: str | Path,
        per: str | None = None,
        trigger: Trigger | None = None,
        prefix: str = "",
    ) -> None:
        super().__init__(env)
        raw = env.unwrapped
        if not hasattr(raw, "match") or not hasattr(raw, "episode"):
            raise ValueError(f"RecordGames wraps a sixtysix environment, not {env!r}")
        name = raw.metadata.get("name", type(raw).__name__)
        self.recorder = GameRecorder(directory, per or raw.episode, raw.episode, trigger, prefix, {"env": name})

    @property
    def paths(self) -> list[Path]:
        """The record files written so far."""
        return self.recorder.paths

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self.recorder.begin(_raw_match(self.env), list(self.env.unwrapped.possible_agents), seed)

    def step(self, action: Any) -> None:
        self.env.step(action)
        self.recorder.after_step()

    def __str__(self) -> str:
        return f"RecordGames<{self.env!s}>"


class RecordEpisodes(gym.Wrapper):
    """A Gymnasium wrapper for ``SixtySix-v0`` that saves a record of every finished deal or match
    in ``directory``; the players are named ``learner`` and the opponent's name."""

    def __init__(
        self,
        env: gym.Env,
        directory: str | Path,
        per: str | None = None,
        trigger: Trigger | None = None,
        prefix: str = "",
    ) -> None:
        super().__init__(env)
        raw: Any = env.unwrapped  # SixtySix-v0's env, checked just below
        if not hasattr(raw, "match") or not hasattr(raw, "opponent_name"):
            raise ValueError(f"RecordEpisodes wraps SixtySix-v0, not {env!r}")
        self.recorder = GameRecorder(
            directory, per or raw.episode, raw.episode, trigger, prefix, {"env": "SixtySix-v0"}
        )

    @property
    def paths(self) -> list[Path]:
        """The record files written so far."""
        return self.recorder.paths

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        obs, info = self.env.reset(seed=seed, options=options)
        raw: Any = self.env.unwrapped  # SixtySix-v0's env (checked in __init__)
        players = ["learner", "learner"]
        players[1 - raw.seat] = str(raw.opponent_name)
        self.recorder.begin(_raw_match(self.env), players, seed)
        self.recorder.after_step()  # nothing can finish in reset, but keep the deal list exact
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        self.recorder.after_step()
        return result
