"""``SixtySixVectorEnv``: a Gymnasium vector env of N deals, the learner against a built-in opponent.

``gymnasium.make_vec("SixtySix-v0", num_envs=N, vectorization_mode="vector_entry_point", ...)``
returns it (``sixtysix_env.registration``), taking the keyword arguments of the single env
``SixtySixEnv`` where the batched engine supports them (the others raise a ``ValueError`` naming
what is supported; ``vectorization_mode="sync"`` runs N single envs for those).

| | |
|---|---|
| episode | one deal (``episode="deal"``); the dealer is random per deal |
| seat | the learner's: ``"random"`` (default; drawn per deal, seeded), ``0`` or ``1``; ``infos["seat"]`` |
| opponent | ``"heuristic"`` (default), ``"random"`` (in the kernels), ``"ppo[:options]"``, a callable (``opponents``) |
| observation | ``(N, 235)`` float32, ``observers.VECTOR_LAYOUT``, from the learner's seat (``"vector"`` only) |
| action | shape ``(N,)``, any integer dtype, values 0..31 (``sixtysix_env.actions``); an illegal one: see below |
| action mask | ``infos["action_mask"]``, ``(N, 32)`` int8; also ``action_masks()`` (bool) |
| infos | ``action_mask`` and ``envs.infos.INFO_KEYS`` at every step, each with its ``_key`` array |
| reward | the learner's (``"game_points"``, ``"win_loss"``, ``"shaped"``) for his action and the replies |
| autoreset | ``autoreset_mode``: ``SAME_STEP`` (default; ``final_obs``, ``final_info``) or ``NEXT_STEP`` (below) |
| truncation | never (a deal has at most 48 actions) |

A deal the opponent ends before the learner's first action (a false claim under explicit
claiming) is no episode for the learner: it is dealt again. On the step a deal ends,
``infos["final_obs"]`` holds its last observation and ``infos["final_info"]`` its winner, game
points, termination and the learner's seat in it (``_final_obs`` / ``_final_info`` mark the envs
concerned); ``infos["seat"]`` is already the new deal's. Seeding ``reset(seed=...)`` makes the
deals, the seats and the opponent's choices reproducible.

``mask_in_observation=True`` makes the observation a Dict ``{observation_key: (N, 235), mask_key:
(N, 32)}``, as in the single env. An illegal action ends that env's deal with ``illegal_reward``
(``illegal_action="terminate"``, the default, as in the single env: ``final_info["illegal_action"]``)
or raises ``IllegalActionError`` before any env changed (``"raise"``).

``autoreset_mode=AutoresetMode.NEXT_STEP`` (or ``"NextStep"``) is Gymnasium's default
protocol, which RLlib assumes: the step that ends a deal returns that deal's last observation (mask
all ones), its reward and its final info as the plain info; the next step ignores that env's action,
returns the new deal's first observation with reward 0, not terminated. Every decision of every
deal is then a step of its own. ``autoreset_mode`` and ``metadata["autoreset_mode"]`` say which
mode an env is in (TorchRL reads the attribute).

The same loop drives this env and ``make_vec(..., vectorization_mode="sync",
vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP})``: same-step resets,
the same info keys (the finished deals' in ``final_info``), masks never all zero, illegal actions
ending the deal. Sync's default ``NEXT_STEP`` instead returns the finished deal with an all-ones
mask and resets on the next step, ignoring its action.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import NUM_ACTIONS
from ..engine import IllegalActionError
from ..fast.batch import OPPONENTS, BatchedDeals
from ..observers import observation_space
from ..rewards import DEFAULT_SHAPING_SCALE
from ..rules import Rules
from .infos import INFO_KEYS, check_keys
from .options import check_option, check_real, check_seed, rules_with_claiming
from .vector_opponents import PolicyDeals, make_opponent

__all__ = ["AUTORESET_MODES", "SixtySixVectorEnv", "OPPONENTS"]

AUTORESET_MODES = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)
"""The Gymnasium autoreset modes the vector env supports."""

_SYNC_HINT = "gymnasium.make_vec('SixtySix-v0', ..., vectorization_mode='sync') runs single envs that support it"


class SixtySixVectorEnv(VectorEnv):
    """N deals as one Gymnasium ``VectorEnv`` (see the module docstring for the table)."""

    # an instance variable in VectorEnv; each env sets its own copy in __init__
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 64,
        rules: str | Rules | None = "standard",
        *,
        opponent: Any = "heuristic",
        seat: int | str = "random",
        reward: str = "game_points",
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        claiming: str | None = None,
        observation: str = "vector",
        episode: str = "deal",
        render_mode: str | None = None,
        parallel: bool | None = None,
        seed: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
        mask_in_observation: bool = False,
        observation_key: str = "observation",
        mask_key: str = "action_mask",
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        try:
            opponent_kind = make_opponent(opponent)
        except ValueError as e:
            raise ValueError(f"{e}; {_SYNC_HINT}") from None
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        if isinstance(seat, bool):
            raise ValueError(f"seat={seat!r} is not allowed: choose one of 'random', 0, 1")
        check_option("seat", seat, ("random", 0, 1))
        if observation != "vector":
            raise ValueError(
                f"observation={observation!r} is not supported by the vector env: only 'vector' "
                f"(the batched engine encodes the 235-float vector); {_SYNC_HINT}"
            )
        if episode != "deal":
            raise ValueError(
                f"episode={episode!r} is not supported by the vector env: only 'deal' (one deal per episode); "
                f"{_SYNC_HINT}"
            )
        if render_mode is not None:
            raise ValueError(f"render_mode={render_mode!r} is not supported by the vector env: only None")
        check_option("illegal_action", illegal_action, ("terminate", "raise"))
        check_option("mask_in_observation", mask_in_observation, (False, True))
        check_keys(observation_key, mask_key)
        self.illegal_action = illegal_action
        self.illegal_reward = (
            check_real("illegal_reward", illegal_reward)
            if illegal_reward is not None
            else (-1.0 if reward == "win_loss" else -3.0)
        )
        self.mask_in_observation = bool(mask_in_observation)
        self.observation_key, self.mask_key = observation_key, mask_key
        r = rules_with_claiming(rules, claiming)
        self.opponent = opponent
        self.seat_option = seat
        self.render_mode = None
        opponent_seat: int | Literal["random"] = "random" if seat == "random" else 1 - int(seat)
        self.deals: BatchedDeals | PolicyDeals
        if isinstance(opponent_kind, str):
            self.deals = BatchedDeals(
                num_envs,
                r,
                reward=reward,
                shaping_scale=shaping_scale,
                autoreset=True,
                dealer="random",
                seed=seed,
                parallel=parallel,
                opponent=opponent_kind,
                opponent_seat=opponent_seat,
                final_observation_seat="learner",
            )
        else:
            self.deals = PolicyDeals(
                num_envs,
                r,
                opponent_kind,
                reward=reward,
                shaping_scale=shaping_scale,
                seed=seed,
                parallel=parallel,
                opponent_seat=opponent_seat,
            )
        num_envs = self.num_envs = self.deals.num_envs
        self.single_observation_space = observation_space("vector")
        if self.mask_in_observation:
            mask_space = spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)
            self.single_observation_space = spaces.Dict(
                {observation_key: self.single_observation_space, mask_key: mask_space}
            )
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self._last_obs = np.zeros((num_envs, self.deals.final_observations.shape[1]), dtype=np.float32)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._rows = np.arange(num_envs)
        self._autoreset_rows = np.zeros(num_envs, dtype=np.bool_)  # NEXT_STEP: reset on this step

    @property
    def rules(self) -> Rules:
        return self.deals.rules

    @property
    def seats(self) -> np.ndarray:
        """(N,) int8: the learner's seat in each env's current deal."""
        return self.deals.learner_seats

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        """New deals for every env; ``seed`` reseeds the deals, the seats and the opponent."""
        if options:
            raise ValueError(f"reset options are not supported by the vector env, got {options!r}")
        seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        obs, masks = self.deals.reset(seed=seed)
        self._autoreset_rows[:] = False
        self._masks[:] = masks
        self._last_obs[:] = obs
        return self._observation(obs, masks), _with_flags(self._infos(masks, self.seats), self._rows >= 0)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        return self._step(actions, None)

    def _step(self, actions: Any, idle: np.ndarray | None) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        """``step``, where the envs flagged ``idle`` do not act and stay as they are (Tianshou
        steps only its ready envs: ``integrations.tianshou``)."""
        resetting = self._autoreset_rows.copy()  # NEXT_STEP: these envs' actions are ignored
        if idle is not None:
            resetting |= idle
        acts, illegal = self._check_actions(actions, resetting)
        seats = self.deals.learner_seats  # a finished deal pays the seat it was played from
        acts[resetting] = -1
        if illegal is not None:
            acts[illegal] = -1  # those envs do not act; their deals end below
        obs, masks, rewards, done = self.deals.step_observe(acts)
        reward = rewards[self._rows, seats]
        reward[resetting] = 0.0
        terminated = done & ~resetting
        final_obs = self.deals.final_observations
        if illegal is not None:
            final_obs = final_obs.copy()
            final_obs[illegal] = self._last_obs[illegal]  # the deal as it stood
            self.deals.redeal(np.flatnonzero(illegal))
            reward[illegal] = self.illegal_reward
            terminated |= illegal
        self._masks[:] = masks
        self._last_obs[:] = obs
        values = self._infos(masks, self.seats)
        ended = np.flatnonzero(terminated)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            # the finished deals as their own last step; the new ones are shown on the next step
            if idle is None:
                self._autoreset_rows[:] = terminated
            else:  # an idle env that was to be reset still is
                self._autoreset_rows[~idle] = terminated[~idle]
            final = self._final_info(seats, terminated, illegal)
            for key, v in values.items():
                v[ended] = final[key][ended]
            out_obs = obs.copy()
            out_obs[ended] = final_obs[ended]
            self._masks[ended] = 1
            infos = _with_flags(values, self._rows >= 0)
            return self._observation(out_obs, self._masks), reward, terminated, self._truncated.copy(), infos
        infos = _with_flags(values, self._rows >= 0)
        if ended.size:
            out = np.full(self.num_envs, None, dtype=object)
            rows = self._observation(final_obs[ended], np.ones((len(ended), NUM_ACTIONS), np.int8), copy=False)
            for k, i in enumerate(ended.tolist()):
                out[i] = {key: v[k] for key, v in rows.items()} if isinstance(rows, dict) else rows[k]
            infos["final_obs"], infos["_final_obs"] = out, terminated.copy()
            infos["final_info"] = _with_flags(self._final_info(seats, terminated, illegal), terminated)
            infos["_final_info"] = terminated.copy()
        return self._observation(obs, masks), reward, terminated, self._truncated.copy(), infos

    def _check_actions(self, actions: Any, skip: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """The actions as int64 (values past the range clipped to illegal ones, so no dtype wraps
        them) and the envs whose action is illegal (None: all legal). Raises on a wrong shape or
        dtype, and on an illegal action with ``illegal_action="raise"``, before any env changed."""
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers in 0..{NUM_ACTIONS - 1}, one per env, got dtype {a.dtype} ({a!r})"
            )
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},): one action per env, got shape {a.shape}")
        clipped = np.minimum(a, NUM_ACTIONS) if a.dtype.kind == "u" else np.clip(a, -1, NUM_ACTIONS)
        acts = clipped.astype(np.int64)
        legal = (acts >= 0) & (acts < NUM_ACTIONS)
        legal[legal] = self._masks[self._rows[legal], acts[legal]] != 0
        bad = ~legal & ~skip
        if not bad.any():
            return acts, None
        if self.illegal_action == "raise":
            i = int(np.flatnonzero(bad)[0])
            raise IllegalActionError(a[i].item(), np.flatnonzero(self._masks[i]).tolist(), f"env {i}")
        return acts, bad

    def reset_envs(self, env_ids: Any) -> tuple[Any, dict[str, Any]]:
        """Explicit resets, for frameworks that reset finished envs themselves (Tianshou): the
        observations and infos (rows ``env_ids`` only) of new deals in those envs. An env whose
        deal ended on the last step (``NEXT_STEP``) shows the deal already dealt for it; any other
        is dealt again."""
        rows = np.asarray(env_ids)
        if rows.dtype.kind not in "iu" or rows.ndim != 1 or ((rows < 0) | (rows >= self.num_envs)).any():
            raise ValueError(f"env_ids must be env indices in 0..{self.num_envs - 1}, got {env_ids!r}")
        rows = rows.astype(np.intp)
        fresh = np.unique(rows[~self._autoreset_rows[rows]])
        if fresh.size:
            self.deals.redeal(fresh)
            batch = self.deals.batch if isinstance(self.deals, PolicyDeals) else self.deals
            self._last_obs[fresh] = batch._obs[fresh]  # the batch's view buffer, rewritten by redeal
        self._autoreset_rows[rows] = False
        bits = self.deals.legal_mask_bits()[rows]
        self._masks[rows] = (bits[:, None] >> np.arange(NUM_ACTIONS, dtype=np.uint32)) & 1
        infos = _with_flags(self._infos(self._masks[rows], self.seats[rows]), np.ones(len(rows), dtype=np.bool_))
        return self._observation(self._last_obs[rows], self._masks[rows]), infos

    def _observation(self, obs: np.ndarray, masks: np.ndarray, copy: bool = True) -> Any:
        if self.mask_in_observation:
            return {self.observation_key: obs.copy(), self.mask_key: masks.copy()}
        return obs.copy() if copy else obs

    def _infos(self, masks: np.ndarray, seats: np.ndarray) -> dict[str, Any]:
        """The contract's keys for deals in play (a reset deal has no result yet)."""
        n = len(masks)
        values = {
            "action_mask": masks.copy(),
            "seat": seats.astype(np.int64),
            "winner": np.full(n, -1, dtype=np.int64),
            "game_points": np.zeros(n, dtype=np.int64),
            "termination": np.full(n, -1, dtype=np.int64),
            "scores": np.zeros((n, 2), dtype=np.int64),
            "illegal_action": np.zeros(n, dtype=np.bool_),
        }
        return values

    def _final_info(self, seats: np.ndarray, ended: np.ndarray, illegal: np.ndarray | None) -> dict[str, Any]:
        """The contract's keys for the deals that ended this step (as the single env's last info)."""
        n = self.num_envs
        winner = self.deals.last_winner.astype(np.int64)
        points = self.deals.last_game_points.astype(np.int64)
        termination = self.deals.last_termination.astype(np.int64)
        bad = np.zeros(n, dtype=np.bool_) if illegal is None else illegal
        winner[bad], points[bad], termination[bad] = -1, 0, -1
        scores = np.zeros((n, 2), dtype=np.int64)
        won = ended & (winner >= 0)
        scores[self._rows[won], winner[won]] = points[won]
        values = {
            "action_mask": np.ones((n, NUM_ACTIONS), dtype=np.int8),
            "seat": seats.astype(np.int64),
            "winner": winner,
            "game_points": points,
            "termination": termination,
            "scores": scores,
            "illegal_action": bad.copy(),
        }
        return values

    def action_masks(self) -> np.ndarray:
        """(N, 32) bool: the legal actions of the current observations (for MaskablePPO)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the deals are arrays in this process."""


def _autoreset_mode(mode: object) -> AutoresetMode:
    """``AutoresetMode.SAME_STEP`` / ``NEXT_STEP``, or their values ``"SameStep"`` / ``"NextStep"``."""
    for m in AUTORESET_MODES:
        if mode is m or (isinstance(mode, str) and mode == m.value):
            return m
    raise ValueError(
        f"autoreset_mode={mode!r} is not supported by the vector env: choose AutoresetMode.SAME_STEP "
        "('SameStep', the default) or AutoresetMode.NEXT_STEP ('NextStep')"
    )


def _with_flags(values: dict[str, Any], present: np.ndarray) -> dict[str, Any]:
    """Gymnasium's batched-info layout: each key next to its ``_key`` array of envs that have it."""
    assert set(values) == {"action_mask", *INFO_KEYS}
    out: dict[str, Any] = {}
    for key, v in values.items():
        out[key] = v
        out[f"_{key}"] = present.copy()
    return out
