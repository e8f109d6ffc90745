"""``SelfPlayVectorEnv``: N deals where every decision of both seats is a learner decision.

The Gymnasium vector env (``SixtySix-v0``) trains one seat against a built-in opponent. This env
is its multi-agent counterpart over the same batched engine (``fast.BatchedDeals``, no copy of
it): each step, every env is at the decision of one of its two players, whichever seat that is,
and reports it the way Pgx and PettingZoo do::

    env = SelfPlayVectorEnv(256, "standard", seed=0)
    obs, infos = env.reset(seed=0)
    for _ in range(1000):
        seat = infos["current_player"]                     # (N,) 0 or 1: who acts in each env
        actions = policy(obs, infos["action_mask"])        # one action per env, for that seat
        obs, rewards, terminations, truncations, infos = env.step(actions)
        # rewards (N, 2): each seat's reward for this step (a deal's end pays both seats)

| | |
|---|---|
| agents | ``possible_agents == agents == ("player_0", "player_1")`` (PettingZoo's names) |
| whose turn | ``current_player`` (N,) int (Pgx), ``agent_selection`` (N,) str (PettingZoo); both in ``infos`` |
| observation | ``(N, 235)`` float32 of the player to act, from his seat (``observers.VECTOR_LAYOUT``) |
| dict | ``mask_in_observation=True``: PettingZoo's ``{"observation": (N, 235), "action_mask": (N, 32)}`` |
| action mask | ``infos["action_mask"]`` (N, 32) int8 and ``legal_action_mask`` (N, 32) bool (Pgx), never all zero |
| action | ``(N,)`` integers 0..31 for each env's player to act; a bad one raises before any env changed |
| reward | ``(N, 2)`` float32 per seat (``"game_points"``, ``"win_loss"``, ``"shaped"``), zero-sum |
| termination | ``(N,)`` the deal ended with this step's action; the env then holds a new deal (same-step autoreset) |
| truncation | never (a deal has at most 48 actions): all False |

A seat's transition runs from its decision to its own next decision in the same deal, or to the
deal's end: its reward is the sum of its column of ``rewards`` over the steps in between (the
other seat's moves included). :func:`seat_advantages` does that bookkeeping for a rollout and
computes per-seat GAE; ``observe(seats)`` gives any seat's view to bootstrap a rollout's cut.

A league (``league={"self": 0.45, "heuristic": 0.4, "past": 0.15}``) makes only a share of the envs
both-seat self-play: in the others one seat is the learner's (drawn per deal, seeded) and the
other a fixed opponent, played inside the env so that every step is still a learner decision:
``"heuristic"`` or ``"random"`` in the numba kernels, ``"past"`` a frozen snapshot of the
learner's own network from a :class:`~sixtysix_env.envs.vector_opponents.SnapshotPool` (batched
numpy). ``trained_seats`` (N, 2) says which seats are the learner's; ``kinds`` which opponent
each env has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS
from ..engine import IllegalActionError
from ..fast.batch import BatchedDeals
from ..observers import observation_space
from ..rewards import DEFAULT_SHAPING_SCALE
from ..rules import Rules
from .options import check_option, check_seed
from .vector_opponents import SnapshotPool

__all__ = ["AGENTS", "KINDS", "SelfPlayVectorEnv", "seat_advantages"]

AGENTS = ("player_0", "player_1")
"""PettingZoo's names of the two seats."""
KINDS = ("self", "heuristic", "random", "past")
"""What plays the other seat of an env: the learner (both seats trained), the kernels' heuristic or
random player, or a frozen past self from the snapshot pool."""


def _league(league: Mapping[str, float] | None, n: int) -> list[int]:
    """The number of envs of each kind (``KINDS`` order); self-play takes what the rounding leaves."""
    if league is None:
        return [n, 0, 0, 0]
    if not isinstance(league, Mapping):
        raise ValueError(f"league must be a dict of shares by kind {KINDS}, got {league!r}")
    for k, v in league.items():
        check_option("league kind", k, KINDS)
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 1:
            raise ValueError(f"league[{k!r}] must be a share between 0 and 1, got {v!r}")
    if sum(league.values()) > 1 + 1e-9:
        raise ValueError(f"the league's shares add up to more than 1: {dict(league)!r}")
    counts = [0] + [round(league.get(k, 0.0) * n) for k in KINDS[1:]]
    if sum(counts) > n:  # rounding up in every kind
        counts[int(np.argmax(counts))] -= sum(counts) - n
    counts[0] = n - sum(counts)
    return counts


class _PastSelfDeals:
    """Deals where a snapshot of the pool plays one seat (drawn per deal with its member), stepped
    until the learner's seat is to act; rewards of a deal the learner never acted in are dropped."""

    def __init__(self, batch: BatchedDeals, pool: SnapshotPool, rng: np.random.Generator) -> None:
        self.batch, self.pool, self.rng = batch, pool, rng
        n = batch.num_envs
        self.learner = np.zeros(n, dtype=np.int8)
        self.member = np.zeros(n, dtype=np.int64)
        self.acted = np.zeros(n, dtype=np.bool_)
        self.rewards = np.zeros((n, 2), dtype=np.float64)
        self.done = np.zeros(n, dtype=np.bool_)

    def _draw(self, rows: np.ndarray) -> None:
        self.learner[rows] = self.rng.integers(0, 2, size=len(rows))
        self.member[rows] = self.pool.draw(len(rows), self.rng)
        self.acted[rows] = False

    def reset(self, seed: int | None) -> None:
        self.batch.reset(seed=seed)
        self._draw(np.arange(self.batch.num_envs))
        self.rewards[:] = 0.0
        self._opponent_turns()

    def step(self, actions: np.ndarray) -> None:
        self.rewards[:] = 0.0
        self.done[:] = False
        _, _, r, d = self.batch.step_observe(actions)
        self.rewards += r
        self.done |= d
        self._draw(np.flatnonzero(d))
        self._opponent_turns()

    def _opponent_turns(self) -> None:
        b = self.batch
        self.acted |= b.current_player == self.learner  # at the learner's decision: it will act now
        while True:
            theirs = np.flatnonzero(b.current_player != self.learner)
            if not theirs.size:
                return
            acts = np.full(b.num_envs, -1, dtype=np.int64)
            acts[theirs] = self.pool.actions(b._obs[theirs], b._masks[theirs], self.member[theirs], self.rng)
            counted = self.acted.copy()
            _, _, r, d = b.step_observe(acts)
            self.rewards[counted] += r[counted]
            self.done |= d & counted
            ended = np.flatnonzero(d)
            self._draw(ended)
            self.acted |= b.current_player == self.learner


class SelfPlayVectorEnv:
    """N two-player deals, every decision of every trained seat a learner decision (see the
    module docstring for the table).

    Arguments: ``num_envs``; ``rules`` (a two-player preset or ``Rules``); ``reward`` and
    ``shaping_scale`` (as ``BatchedDeals``); ``seed``; ``league`` (shares of envs by kind, None:
    all both-seat self-play); ``pool`` (the snapshots the ``"past"`` envs play, required when
    their share is positive); ``mask_in_observation`` (observations as PettingZoo's dict);
    ``parallel`` (as ``BatchedDeals``).
    """

    possible_agents = AGENTS
    agents = AGENTS
    num_agents = 2

    def __init__(
        self,
        num_envs: int = 256,
        rules: str | Rules | None = "standard",
        *,
        reward: str = "game_points",
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        seed: int | None = None,
        league: Mapping[str, float] | None = None,
        pool: SnapshotPool | None = None,
        mask_in_observation: bool = False,
        parallel: bool | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        n = self.num_envs = int(num_envs)
        counts = _league(league, n)
        if counts[3] and pool is None:
            raise ValueError("league['past'] > 0 needs pool=SnapshotPool(...) holding the past selves")
        if pool is not None and not isinstance(pool, SnapshotPool):
            raise ValueError(f"pool must be a SnapshotPool, got {pool!r}")
        check_option("mask_in_observation", mask_in_observation, (False, True))
        self.mask_in_observation = bool(mask_in_observation)
        self.league = dict(zip(KINDS, counts, strict=True))
        self.pool = pool
        self._seed = check_seed(seed)
        seeds = self._segment_seeds(self._seed)
        common: dict[str, Any] = {"reward": reward, "shaping_scale": shaping_scale, "parallel": parallel}
        self._segments: list[tuple[str, slice, Any]] = []
        start = 0
        for k, (kind, count) in enumerate(zip(KINDS, counts, strict=True)):
            if not count:
                continue
            rows = slice(start, start + count)
            start += count
            part: Any
            if kind == "self":
                part = BatchedDeals(count, rules, seed=seeds[k], **common)
            elif kind in ("heuristic", "random"):
                part = BatchedDeals(count, rules, seed=seeds[k], opponent=kind, opponent_seat="random", **common)
            else:
                assert pool is not None
                batch = BatchedDeals(count, rules, seed=seeds[k], **common)
                own = seeds[k]
                part = _PastSelfDeals(batch, pool, np.random.default_rng(None if own is None else own + 1))
            self._segments.append((kind, rows, part))
        self.rules = self._batch(self._segments[0][2]).rules
        self.kinds = np.concatenate([np.full(r.stop - r.start, KINDS.index(k), np.int8) for k, r, _ in self._segments])
        """(N,) int8: each env's opponent kind, an index into ``KINDS`` (fixed for the env's life)."""
        self.single_observation_space: spaces.Space = observation_space("vector")
        if self.mask_in_observation:
            self.single_observation_space = spaces.Dict(
                {"observation": self.single_observation_space, "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)}
            )
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self._obs = np.zeros((n, 235), dtype=np.float32)
        self._masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._current = np.zeros(n, dtype=np.int64)
        self._trained = np.zeros((n, 2), dtype=np.bool_)
        self._rewards = np.zeros((n, 2), dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._rows = np.arange(n)
        self._started = False

    @staticmethod
    def _segment_seeds(seed: int | None) -> list[int | None]:
        if seed is None:
            return [None] * len(KINDS)
        return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(len(KINDS))]

    @staticmethod
    def _batch(part: Any) -> BatchedDeals:
        return part.batch if isinstance(part, _PastSelfDeals) else part

    # ------------------------------------------------------------------ the API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """New deals in every env; ``seed`` reseeds the deals, the seats and the past selves' draws."""
        if options:
            raise ValueError(f"reset options are not supported by the self-play env, got {options!r}")
        seed = check_seed(seed)
        seeds = self._segment_seeds(seed)
        for kind, _, part in self._segments:
            k = KINDS.index(kind)
            if isinstance(part, _PastSelfDeals):
                own = seeds[k]
                if own is not None:
                    part.rng = np.random.default_rng(own + 1)
                part.reset(seeds[k])
            else:
                part.reset(seed=seeds[k])
        self._rewards[:] = 0.0
        self._done[:] = False
        self._gather()
        self._started = True
        return self._observation(), self._infos()

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play ``actions[i]`` for env ``i``'s player to act. Returns (observations, rewards (N, 2)
        per seat, terminations, truncations, infos); raises ``ValueError`` on a wrong shape or
        dtype and ``IllegalActionError`` (naming the env and its legal actions) on an illegal
        action, before any env changed."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = self._check(actions)
        for _, rows, part in self._segments:
            if isinstance(part, _PastSelfDeals):
                part.step(acts[rows])
                self._rewards[rows] = part.rewards
                self._done[rows] = part.done
            else:
                _, _, r, d = part.step_observe(acts[rows])
                self._rewards[rows] = r
                self._done[rows] = d
        self._gather()
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observation(), self._rewards.copy(), self._done.copy(), truncations, self._infos()

    def _check(self, actions: Any) -> np.ndarray:
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers in 0..{NUM_ACTIONS - 1}, one per env, got dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},): one action per env, got shape {a.shape}")
        acts = (np.minimum(a, NUM_ACTIONS) if a.dtype.kind == "u" else np.clip(a, -1, NUM_ACTIONS)).astype(np.int64)
        ok = (acts >= 0) & (acts < NUM_ACTIONS)
        ok[ok] = self._masks[self._rows[ok], acts[ok]] != 0
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            seat = int(self._current[i])
            raise IllegalActionError(
                a[i].item(), np.flatnonzero(self._masks[i]).tolist(), f"env {i} ({AGENTS[seat]} to act)"
            )
        return acts

    def _gather(self) -> None:
        """The segments' views of the players to act into the env's arrays."""
        for kind, rows, part in self._segments:
            b = self._batch(part)
            self._obs[rows] = b._obs
            self._masks[rows] = b._masks
            current = b.current_player
            self._current[rows] = current
            if kind == "self":
                self._trained[rows] = True
            else:
                self._trained[rows] = False
                self._trained[self._rows[rows], current] = True

    def _observation(self) -> Any:
        if self.mask_in_observation:
            return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        return self._obs.copy()

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._masks.copy(),
            "current_player": self._current.copy(),
            "agent_selection": self.agent_selection,
        }

    # ------------------------------------------------------------------ views
    @property
    def current_player(self) -> np.ndarray:
        """(N,) int64: the seat to act in each env (Pgx's ``current_player``)."""
        return self._current.copy()

    @property
    def agent_selection(self) -> np.ndarray:
        """(N,) str: PettingZoo's name of the agent to act in each env."""
        return np.asarray(AGENTS, dtype=object)[self._current]

    @property
    def legal_action_mask(self) -> np.ndarray:
        """(N, 32) bool: the legal actions of each env's player to act (Pgx's name)."""
        return self._masks.astype(bool)

    @property
    def trained_seats(self) -> np.ndarray:
        """(N, 2) bool: the learner's seats in each env's current deal (both in self-play envs)."""
        return self._trained.copy()

    def observe(self, seats: np.ndarray | int) -> np.ndarray:
        """(N, 235) float32: each env's current deal from ``seats`` (an int or an (N,) array of 0/1),
        e.g. to bootstrap the value of the seat not to act where a rollout stops."""
        s = np.broadcast_to(np.asarray(seats), (self.num_envs,))
        if s.dtype.kind not in "iu" or ((s != 0) & (s != 1)).any():
            raise ValueError(f"seats must be 0 or 1 (one per env or one for all), got {seats!r}")
        out = np.empty((self.num_envs, 235), dtype=np.float32)
        for _, rows, part in self._segments:
            out[rows] = self._batch(part).observe(np.ascontiguousarray(s[rows], dtype=np.int8))
        return out

    def batch(self, kind: str) -> BatchedDeals | None:
        """The ``BatchedDeals`` behind the envs of one kind (None when the league has none): for
        reference views (``deal(i)``, ``outcome(i)``) in tests and debugging."""
        check_option("kind", kind, KINDS)
        for k, _, part in self._segments:
            if k == kind:
                return self._batch(part)
        return None

    def __repr__(self) -> str:
        return f"<SelfPlayVectorEnv n={self.num_envs} rules={self.rules.name} league={self.league}>"


def seat_advantages(
    current_player: np.ndarray,
    rewards: np.ndarray,
    terminations: np.ndarray,
    values: np.ndarray,
    last_values: np.ndarray,
    gamma: float = 1.0,
    lam: float = 0.95,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat GAE over a rollout of T steps of N envs (numpy; for any framework).

    ``current_player`` (T, N) is the seat that acted at each step, ``rewards`` (T, N, 2) each
    seat's reward for that step, ``terminations`` (T, N) whether the deal ended with it,
    ``values`` (T, N) the actor's value estimate, ``last_values`` (N, 2) each seat's value where
    the rollout stops (its bootstrap if its last transition is cut there). A seat's transition
    runs from its decision to its own next decision in the same deal (reward: the sum of its
    column in between, the other seat's steps included) or to the deal's end (no bootstrap).
    Returns (advantages, returns), each (T, N), for the acting seat of every step."""
    t_steps, n = current_player.shape
    if rewards.shape != (t_steps, n, 2) or terminations.shape != (t_steps, n) or values.shape != (t_steps, n):
        raise ValueError(
            f"shapes must be current_player (T, N), rewards (T, N, 2), terminations and values (T, N), "
            f"got {current_player.shape}, {rewards.shape}, {terminations.shape}, {values.shape}"
        )
    if last_values.shape != (n, 2):
        raise ValueError(f"last_values must be (N, 2) = ({n}, 2), got {last_values.shape}")
    rows = np.arange(n)
    next_value = last_values.astype(np.float64).copy()  # at each seat's next decision
    next_adv = np.zeros((n, 2))
    pending = np.zeros((n, 2))  # rewards between the current step and each seat's next decision
    alive = np.ones((n, 2))  # 0 when the deal ends before that seat's next decision
    adv = np.zeros((t_steps, n))
    for t in range(t_steps - 1, -1, -1):
        ended = terminations[t].astype(bool)
        next_value[ended], next_adv[ended], pending[ended], alive[ended] = 0.0, 0.0, 0.0, 0.0
        pending += rewards[t]
        p = current_player[t].astype(np.intp)
        delta = pending[rows, p] + gamma * alive[rows, p] * next_value[rows, p] - values[t]
        adv[t] = delta + gamma * lam * alive[rows, p] * next_adv[rows, p]
        next_value[rows, p], next_adv[rows, p], pending[rows, p], alive[rows, p] = values[t], adv[t], 0.0, 1.0
    return adv, adv + values
