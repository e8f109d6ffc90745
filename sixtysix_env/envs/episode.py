"""One episode of Sixty-Six, one deal or a whole match, whatever the environment around it.

Every environment drives an :class:`Episode`: the PettingZoo AEC envs of every table size
(:class:`.base.SixtySixAEC`) and the single-agent Gymnasium env (:class:`.gym_env.SixtySixEnv`).
It owns what playing an episode means, so both kinds of env accept the same reset options with
the same messages and play the same deals from the same seeds:

* ``check_reset(seed, options)``: the reset's arguments, checked before anything changes (the
  seed, ``options["deal"]``, ``options["carry_over"]`` and their combinations);
* ``start(plan, np_random)``: the episode's RNG drawn from the env's ``np_random``, then a new
  match, a match from the given deal, or the next match carried on from the finished one;
* ``step(action)``: the action applied, the rewards of every seat, the next deal of a match once a
  deal ends, and whether the episode is over (:class:`StepResult`).

The env keeps only its API: PettingZoo's per-agent dicts, or the opponent's turns and
Gymnasium's return shape. The game supplies its match, its deals from options and its rewards
as callables (bound methods, so an env still pickles and deep-copies).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from .options import EPISODES, carry_over_option, check_option, check_seed, deal_spec

__all__ = ["Episode", "MatchLike", "ResetPlan", "StepResult"]


class MatchLike(Protocol):
    """What an episode needs of ``Match`` and ``TableMatch``: a deal after another until the end."""

    deal: Any
    scores: Any

    @property
    def is_over(self) -> bool: ...

    def apply(self, action: int) -> None: ...

    def next_deal(self) -> Any: ...

    def next_match(self, rng: Any = None) -> Any: ...


M = TypeVar("M", bound=MatchLike)


@dataclass(frozen=True)
class ResetPlan:
    """A reset's arguments once checked; nothing has changed yet, so a bad reset changes nothing."""

    seed: int | None
    """The checked seed: the env reseeds its ``np_random`` with it (each API has its own way)."""
    first_deal: Any
    """The deal of ``options["deal"]``, or None to deal one from the episode's RNG."""
    carry_over: bool
    """``options["carry_over"]``: the next match is carried on from the finished one."""


@dataclass(frozen=True)
class StepResult:
    """What one action did to the episode."""

    rewards: list[float]
    """One reward per seat: the action's, with what the match scored without anyone acting (the
    cut's deals at the start of a match or when dealing on)."""
    finished: Any
    """The deal this action finished (``Deal`` / ``TableDeal``), else None."""
    scores: tuple[int, ...]
    """The match scores when ``finished`` ended, before the next deal (and any cut) was dealt."""
    done: bool
    """The episode is over: the deal of a deal episode ended, or the match did."""


class Episode(Generic[M]):
    """The deal/match bookkeeping of one env: reset options, actions, deals and rewards.

    ``episode`` is ``"deal"`` (one deal per episode) or ``"match"`` (deals until the match is
    won). The game's callables: ``new_match(rng, first_deal)``; ``deal_from_options(spec)``, the
    first deal of ``options={"deal": spec}`` (``spec`` not None); ``step_rewards(deal, before)``,
    one reward per seat for the action just applied (points were ``before``); optionally
    ``start_rewards(match)``, what a match scored before anyone acted (they join the first step's
    rewards), and ``on_next_deal(match, rewards)``, which may change the step's rewards once the
    next deal of a match was dealt."""

    def __init__(
        self,
        episode: str,
        *,
        new_match: Callable[[random.Random, Any], M],
        deal_from_options: Callable[[Any], Any],
        step_rewards: Callable[[Any, tuple[int, ...]], Sequence[float]],
        start_rewards: Callable[[M], Sequence[float] | None] | None = None,
        on_next_deal: Callable[[M, list[float]], None] | None = None,
    ) -> None:
        self.episode = check_option("episode", episode, EPISODES)
        self._new_match = new_match
        self._deal_from_options = deal_from_options
        self._step_rewards = step_rewards
        self._start_rewards = start_rewards
        self._on_next_deal = on_next_deal
        self.match: M | None = None
        self.rng: random.Random | None = None
        """The episode's RNG: it deals the match's deals (and may serve the env's opponents)."""
        self._pending: Sequence[float] | None = None

    @property
    def deal(self) -> Any:
        """The deal in play (the last one, once the episode is over); None before the first reset."""
        return None if self.match is None else self.match.deal

    def check_reset(self, seed: object, options: object) -> ResetPlan:
        """The reset's arguments checked, in this order, so every env names the first bad one the
        same way: the seed, ``options`` itself, ``carry_over``, the two together, a finished match
        to carry from, then the given deal."""
        checked = check_seed(seed)
        spec = deal_spec(options)
        carry = carry_over_option(options)
        if carry and spec is not None:
            raise ValueError("options has both 'deal' and 'carry_over': give one (a deal states its own match scores)")
        if carry and (self.match is None or not self.match.is_over):
            raise ValueError(
                "options['carry_over']=True needs a finished match to carry from: play a match to its end "
                "(episode='match') before this reset"
            )
        first_deal = None if spec is None else self._deal_from_options(spec)
        return ResetPlan(checked, first_deal, carry)

    def start(self, plan: ResetPlan, np_random: np.random.Generator) -> M:
        """Start the episode of a checked reset; ``np_random`` is the env's, already reseeded."""
        # One Python RNG per episode, drawn from np_random: shuffling lists with it is fast.
        rng = random.Random(int(np_random.integers(2**63)))
        if plan.carry_over:
            assert self.match is not None
            match: M = self.match.next_match(rng)
        else:
            match = self._new_match(rng, plan.first_deal)
        self.match, self.rng = match, rng
        self._pending = None if self._start_rewards is None else self._start_rewards(match)
        return match

    def step(self, action: int) -> StepResult:
        """Apply ``action`` for the player to act. An illegal one raises ``ValueError`` naming the
        legal actions and changes nothing."""
        match = self.match
        assert match is not None, "call reset() first"
        deal = match.deal
        before = tuple(deal.points)
        match.apply(action)
        rewards = list(self._step_rewards(deal, before))
        if self._pending is not None:  # what the match scored before this first action
            for p, x in enumerate(self._pending):
                rewards[p] += float(x)
            self._pending = None
        if deal.outcome is None:
            return StepResult(rewards, None, tuple(match.scores), False)
        scores = tuple(match.scores)
        if self.episode == "match" and not match.is_over:
            match.next_deal()
            if self._on_next_deal is not None:
                self._on_next_deal(match, rewards)
        done = self.episode == "deal" or match.is_over  # a deal dealt on may end the match at once
        return StepResult(rewards, deal, scores, done)
