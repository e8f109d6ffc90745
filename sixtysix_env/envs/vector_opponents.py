"""Opponents the batched engine plays from Python, for all envs of a batch at once.

The vector env's ``opponent`` may be more than the two played inside the numba kernels
(``"heuristic"``, ``"random"``):

- a shipped or trained network: ``"ppo"``, ``"ppo:model=fast_standard"``, ``"ppo:rules=vu"``,
  ``"ppo:path=my.npz"`` (the ``ppo`` agent's options), a ``PPOAgent`` or an ``MLPPolicy``: one
  batched numpy forward pass per opponent turn (no torch), greedy unless ``deterministic=False``;
- a callable ``(observations (k, 235) float32, masks (k, 32) int8) -> actions (k,) ints``: the
  learner's own (frozen or current) policy for self-play, or a league's pick. Its answer is
  checked before any deal changes (shape, integer dtype, legality).

:class:`PolicyDeals` drives a self-play ``BatchedDeals`` with such an opponent and offers the
vector env the same interface as a batch with a built-in opponent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from ..actions import NUM_ACTIONS
from ..agents.mlp import MLPPolicy
from ..fast.batch import OPPONENTS, BatchedDeals
from ..rewards import DEFAULT_SHAPING_SCALE
from ..rules import Rules

__all__ = ["BatchOpponent", "CallableOpponent", "NetworkOpponent", "PolicyDeals", "SnapshotPool", "make_opponent"]

BatchPolicy = Callable[[np.ndarray, np.ndarray], Any]
"""``(observations (k, 235) float32, masks (k, 32) int8) -> (k,)`` legal actions."""


class BatchOpponent:
    """Actions for k envs whose opponent is to act (``rng``: the batch's seeded opponent stream)."""

    def actions(self, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError


class NetworkOpponent(BatchOpponent):
    """A numpy policy network: masked argmax of its logits (as ``PPOAgent``), or a draw from the
    masked softmax with the batch's seeded stream (``deterministic=False``)."""

    def __init__(self, policy: MLPPolicy, deterministic: bool = True, name: str = "network") -> None:
        if policy.observation_size != 235 or policy.meta["num_actions"] != NUM_ACTIONS:
            raise ValueError(
                f"opponent network {name!r} reads {policy.observation_size} floats and has "
                f"{policy.meta['num_actions']} actions; the vector env needs 235 and {NUM_ACTIONS}"
            )
        self.policy, self.deterministic, self.name = policy, bool(deterministic), name

    def actions(self, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        z = np.where(masks != 0, self.policy.batch_logits(obs).astype(np.float64), -np.inf)
        if self.deterministic:
            return z.argmax(axis=1)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        cum = np.cumsum(p, axis=1)
        x = rng.random(len(z))[:, None] * cum[:, -1:]
        picks = (cum <= x).sum(axis=1)  # the first action whose cumulative mass passes x
        return np.minimum(picks, NUM_ACTIONS - 1)

    def __repr__(self) -> str:
        return f"NetworkOpponent({self.name!r}, deterministic={self.deterministic})"


class CallableOpponent(BatchOpponent):
    """A user's ``(observations, masks) -> actions`` function, its answer checked."""

    def __init__(self, fn: BatchPolicy) -> None:
        self.fn = fn

    def actions(self, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        out = np.asarray(self.fn(obs.copy(), masks.copy()))
        k = len(obs)
        if out.dtype.kind not in "iu" or out.shape != (k,):
            raise ValueError(
                f"the opponent callable {self.fn!r} must return ({k},) integer actions (one per "
                f"observation row), got dtype {out.dtype} shape {out.shape}"
            )
        acts = np.minimum(out, NUM_ACTIONS).astype(np.int64) if out.dtype.kind == "u" else out.astype(np.int64)
        ok = (acts >= 0) & (acts < NUM_ACTIONS)
        ok[ok] = masks[np.flatnonzero(ok), acts[ok]] != 0
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            raise ValueError(
                f"the opponent callable {self.fn!r} returned illegal action {out[j].item()!r} for row {j}: "
                f"legal there are {np.flatnonzero(masks[j]).tolist()}"
            )
        return acts

    def __repr__(self) -> str:
        return f"CallableOpponent({self.fn!r})"


def make_opponent(opponent: object) -> str | BatchOpponent:
    """A built-in kernel opponent's name, or a :class:`BatchOpponent`; anything else raises a
    ``ValueError`` naming the forms allowed."""
    from ..agents.ppo import PPOAgent

    allowed = (
        f"{', '.join(map(repr, OPPONENTS))} (played inside the kernels), 'ppo[:option=value...]' (a shipped or "
        "saved network: options model=, rules=, path=, deterministic=), a PPOAgent or MLPPolicy, or a callable "
        "(observations, masks) -> actions"
    )
    if isinstance(opponent, str):
        if opponent in OPPONENTS:
            return opponent
        if opponent.split(":", 1)[0].strip() != "ppo":
            raise ValueError(f"opponent={opponent!r} is not available in the vector env: choose {allowed}")
        from ..agents.spec import parse_agent_spec

        agent = parse_agent_spec(opponent, game="two").make()
        assert isinstance(agent, PPOAgent)
        opponent = agent
    if isinstance(opponent, PPOAgent):
        if opponent.endgame != "network":
            raise ValueError(
                f"opponent={opponent!r}: endgame='search' runs PIMC per decision and is not batched; "
                "use the network alone (endgame='network')"
            )
        return NetworkOpponent(opponent.policy, opponent.deterministic, opponent.path.stem)
    if isinstance(opponent, MLPPolicy):
        return NetworkOpponent(opponent, True, str(opponent.meta.get("source", "network")))
    if isinstance(opponent, BatchOpponent):
        return opponent
    if callable(opponent):
        return CallableOpponent(opponent)  # type: ignore[arg-type]
    raise ValueError(f"opponent={opponent!r} is not available in the vector env: choose {allowed}")


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer: a seat bit per (env, deal number), whatever the other envs did."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


class PolicyDeals:
    """A self-play ``BatchedDeals`` whose opponent seat a :class:`BatchOpponent` plays, with the
    interface the vector env reads from a batch with a built-in opponent: every env is at the
    learner's decision after ``reset`` and ``step_observe``; a finished deal is re-dealt in the
    same step (its learner-seat observation kept in ``final_observations``), and a deal the
    opponent ends before the learner's first action is dealt again."""

    def __init__(
        self,
        num_envs: int,
        rules: str | Rules | None,
        opponent: BatchOpponent,
        *,
        reward: str = "game_points",
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        seed: int | None = None,
        parallel: bool | None = None,
        opponent_seat: int | Literal["random"] = "random",
    ) -> None:
        self.batch = BatchedDeals(
            num_envs, rules, reward=reward, shaping_scale=shaping_scale, autoreset=False, seed=seed, parallel=parallel
        )
        self.opponent = opponent
        self.opponent_seat = opponent_seat
        n = self.num_envs = self.batch.num_envs
        self.rules = self.batch.rules
        self._rng = np.random.default_rng(None if seed is None else [seed, 0x5EA7])
        self._seat_key = np.uint64(self._rng.integers(0, 2**63))
        self._deals_dealt = np.zeros(n, dtype=np.uint64)  # per env: its seats do not depend on the others'
        self._learner = np.zeros(n, dtype=np.int8)
        self._rows = np.arange(n)
        self.final_observations = np.zeros((n, self.batch._obs.shape[1]), dtype=np.float32)
        self.last_winner = np.full(n, -1, dtype=np.int8)
        self.last_game_points = np.zeros(n, dtype=np.int8)
        self.last_termination = np.full(n, -1, dtype=np.int8)
        self._rewards = np.zeros((n, 2), dtype=np.float64)
        self._done = np.zeros(n, dtype=np.bool_)
        self._started = False  # the opponent is first asked in reset(): it may be built after the env

    @property
    def learner_seats(self) -> np.ndarray:
        return self._learner.copy()

    def legal_mask_bits(self) -> np.ndarray:
        return self.batch.legal_mask_bits()

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        self.batch.reset(seed=seed)
        if seed is not None:  # the seats and sampled opponent actions: a stream apart from the deals'
            self._rng = np.random.default_rng([seed, 0x5EA7])
            self._seat_key = np.uint64(self._rng.integers(0, 2**63))
            self._deals_dealt[:] = 0
        self._start(self._rows)
        self._started = True
        return self.batch._obs, self.batch._masks

    def redeal(self, rows: np.ndarray) -> None:
        """New deals (and seats) in ``rows``, played up to the learner's first decision."""
        self.batch.redeal(rows)
        self._start(np.asarray(rows, dtype=np.intp))

    def _start(self, rows: np.ndarray) -> None:
        while rows.size:
            if self.opponent_seat == "random":
                keys = self._seat_key ^ (rows.astype(np.uint64) << np.uint64(32)) ^ self._deals_dealt[rows]
                self._learner[rows] = _mix(keys) & np.uint64(1)
                self._deals_dealt[rows] += np.uint64(1)
            else:
                self._learner[rows] = 1 - int(self.opponent_seat)
            _, done = self._opponent_turns(rows)
            rows = np.flatnonzero(done)  # ended before the learner acted: no episode, deal again
            self.batch.redeal(rows)

    def _opponent_turns(self, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The opponent plays wherever it is to act (in ``rows``, default all) until every deal
        is at the learner's decision or over; returns the summed rewards (N, 2) and done (N,)."""
        total = np.zeros((self.num_envs, 2))
        done = np.zeros(self.num_envs, dtype=np.bool_)
        keep = None if rows is None else np.zeros(self.num_envs, dtype=np.bool_)
        if keep is not None:
            keep[rows] = True
        while True:
            current = self.batch.current_player
            theirs = (current >= 0) & (current != self._learner)
            if keep is not None:
                theirs &= keep
            if not theirs.any():
                return total, done
            idx = np.flatnonzero(theirs)
            acts = np.full(self.num_envs, -1, dtype=np.int64)
            acts[idx] = self.opponent.actions(self.batch._obs[idx], self.batch._masks[idx], self._rng)
            _, _, r, d = self.batch.step_observe(acts)
            total[idx] += r[idx]
            done[idx] |= d[idx]
            self._record(idx[d[idx]])

    def _record(self, ended: np.ndarray) -> None:
        if ended.size:
            b = self.batch
            self.last_winner[ended] = b.last_winner[ended]
            self.last_game_points[ended] = b.last_game_points[ended]
            self.last_termination[ended] = b.last_termination[ended]

    def step_observe(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The learner's actions (-1: that env does not act), the opponent's replies, the ended
        deals' learner views saved and re-dealt; as ``BatchedDeals.step_observe``."""
        if not self._started:
            raise RuntimeError("call reset() before step(): the opponent has not played its first moves yet")
        saved = self._snapshot()
        try:
            acting = actions >= 0
            _, _, r, d = self.batch.step_observe(actions)
            self._rewards[:] = np.where(acting[:, None], r, 0.0)
            self._done[:] = d & acting
            self._record(np.flatnonzero(self._done))
            more, more_done = self._opponent_turns()
            self._rewards += more
            self._done |= more_done
            ended = np.flatnonzero(self._done)
            if ended.size:
                views = self.batch.observe(self._learner)
                self.final_observations[ended] = views[ended]
                self.redeal(ended)
        except BaseException:  # an opponent that failed (a user's callable): the step never happened
            self._restore(saved)
            raise
        return self.batch._obs, self.batch._masks, self._rewards, self._done

    _SAVED = ("state", "decks", "history", "rng_state", "_obs", "_masks")

    def _snapshot(self) -> tuple[Any, ...]:
        b = self.batch
        arrays = tuple(getattr(b, name).copy() for name in self._SAVED)
        mine = tuple(a.copy() for a in (self._learner, self.last_winner, self.last_game_points, self.last_termination))
        return arrays, mine, self._rng.bit_generator.state

    def _restore(self, saved: tuple[Any, ...]) -> None:
        arrays, mine, rng_state = saved
        for name, value in zip(self._SAVED, arrays, strict=True):
            getattr(self.batch, name)[:] = value
        for whole, value in zip(
            (self._learner, self.last_winner, self.last_game_points, self.last_termination), mine, strict=True
        ):
            whole[:] = value
        self._rng.bit_generator.state = rng_state


class SnapshotPool:
    """A league's past selves: up to ``capacity`` frozen copies of the learner's network (numpy
    ``MLPPolicy``), the newest replacing the oldest. The self-play env
    (``envs.selfplay.SelfPlayVectorEnv``, kind ``"past"``) draws a member per deal and plays all
    envs of one member in one batched forward pass (greedy, or sampled with
    ``deterministic=False``)."""

    def __init__(self, capacity: int = 8, deterministic: bool = True) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be a positive integer, got {capacity!r}")
        self.capacity, self.deterministic = capacity, bool(deterministic)
        self.members: list[NetworkOpponent] = []
        self._next = 0  # the slot the next snapshot replaces once the pool is full

    def add(self, policy: MLPPolicy, name: str = "snapshot") -> None:
        """Freeze ``policy`` (its arrays are copied: training on may not change the member)."""
        if not isinstance(policy, MLPPolicy):
            raise ValueError(f"a snapshot is an MLPPolicy (e.g. the example's agent.to_mlp()), got {policy!r}")
        frozen = MLPPolicy(
            tuple((w.copy(), b.copy()) for w, b in policy.policy),
            tuple((w.copy(), b.copy()) for w, b in policy.value),
            dict(policy.meta),
        )
        member = NetworkOpponent(frozen, self.deterministic, name)
        if len(self.members) < self.capacity:
            self.members.append(member)
        else:
            self.members[self._next] = member
            self._next = (self._next + 1) % self.capacity

    def __len__(self) -> int:
        return len(self.members)

    def draw(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """``k`` member indices, uniform over the pool."""
        if not self.members:
            raise ValueError("the snapshot pool is empty: add() a snapshot of the learner before playing past selves")
        return rng.integers(0, len(self.members), size=k)

    def actions(self, obs: np.ndarray, masks: np.ndarray, members: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Actions for k rows, row ``j`` played by member ``members[j]`` (an index from ``draw``;
        one past the pool's size, after a shrink that never happens, is taken modulo)."""
        if not self.members:
            raise ValueError("the snapshot pool is empty: add() a snapshot of the learner before playing past selves")
        out = np.empty(len(obs), dtype=np.int64)
        which = members % len(self.members)
        for m in np.unique(which):
            rows = np.flatnonzero(which == m)
            out[rows] = self.members[int(m)].actions(obs[rows], masks[rows], rng)
        return out
