"""``SixtySixVectorEnv``: a Gymnasium vector env of N deals, the learner against a built-in opponent.

``gymnasium.make_vec("SixtySix-v0", num_envs=N, vectorization_mode="vector_entry_point", ...)``
returns it (``sixtysix_env.registration``), taking the keyword arguments of the single env
``SixtySixEnv`` where the batched engine supports them (the others raise a ``ValueError`` naming
what is supported; ``vectorization_mode="sync"`` runs N single envs for those).

| | |
|---|---|
| episode | one deal (``episode="deal"``); the dealer is random per deal |
| seat | the learner's: ``"random"`` (default; drawn per deal, seeded), ``0`` or ``1``; ``infos["seat"]`` |
| opponent | played inside the batch (numba kernels): ``"heuristic"`` (default, ``HeuristicAgent``), ``"random"`` |
| observation | ``(N, 235)`` float32, ``observers.VECTOR_LAYOUT``, from the learner's seat (``"vector"`` only) |
| action | ``(N,)`` ints in 0..31 (``sixtysix_env.actions``); an illegal one: see below |
| action mask | ``infos["action_mask"]``, ``(N, 32)`` int8; also ``action_masks()`` (bool) |
| infos | ``action_mask`` and ``envs.infos.INFO_KEYS`` at every step, each with its ``_key`` array |
| reward | the learner's (``"game_points"``, ``"win_loss"``, ``"shaped"``) for his action and the replies |
| autoreset | ``SAME_STEP``: a finished deal is replaced within ``step``; see ``final_obs``, ``final_info`` |
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

The same loop drives this env and ``make_vec(..., vectorization_mode="sync",
vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP})``: same-step resets,
the same info keys (the finished deals' in ``final_info``), masks never all zero, illegal actions
ending the deal. Sync's default ``NEXT_STEP`` instead returns the finished deal with an all-ones
mask and resets on the next step, ignoring its action.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import NUM_ACTIONS, actions_of
from ..engine import IllegalActionError
from ..envs.infos import INFO_KEYS, check_keys
from ..envs.options import check_option, check_real, check_seed, rules_with_claiming
from ..observers import observation_space
from ..rewards import DEFAULT_SHAPING_SCALE
from ..rules import Rules
from .batch import OPPONENTS, BatchedDeals

__all__ = ["SixtySixVectorEnv", "OPPONENTS"]

_SYNC_HINT = "gymnasium.make_vec('SixtySix-v0', ..., vectorization_mode='sync') runs single envs that support it"


class SixtySixVectorEnv(VectorEnv):
    """N deals as one Gymnasium ``VectorEnv`` (see the module docstring for the table)."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 64,
        rules: str | Rules | None = "standard",
        *,
        opponent: str = "heuristic",
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
    ) -> None:
        if not isinstance(opponent, str) or opponent not in OPPONENTS:
            raise ValueError(
                f"opponent={opponent!r} is not available in the vector env: choose one of "
                f"{', '.join(map(repr, OPPONENTS))} (played inside the batch); {_SYNC_HINT}"
            )
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
        self.deals = BatchedDeals(
            num_envs,
            r,
            reward=reward,
            shaping_scale=shaping_scale,
            autoreset=True,
            dealer="random",
            seed=seed,
            parallel=parallel,
            opponent=opponent,
            opponent_seat="random" if seat == "random" else 1 - int(seat),
            final_observation_seat="learner",
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

    @property
    def rules(self) -> Rules:
        return self.deals.rules

    @property
    def seats(self) -> np.ndarray:
        """(N,) int8: the learner's seat in each env's current deal."""
        return self.deals.learner_seats

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """New deals for every env; ``seed`` reseeds the deals, the seats and the opponent."""
        if options:
            raise ValueError(f"reset options are not supported by the vector env, got {options!r}")
        seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        obs, masks = self.deals.reset(seed=seed)
        self._masks[:] = masks
        self._last_obs[:] = obs
        return self._observation(obs, masks), self._infos(masks, self.seats)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        seats = self.deals.learner_seats  # a finished deal pays the seat it was played from
        a = np.asarray(actions)
        if a.size != self.num_envs:
            raise ValueError(f"actions must hold {self.num_envs} actions (one per env), got shape {a.shape}")
        acts = a.reshape(self.num_envs)
        illegal = self._illegal(acts)
        if illegal is None and acts.dtype.kind == "i" and (acts < 0).any():  # -1 ("no action") is the batch's
            i = int(np.flatnonzero(acts < 0)[0])
            raise IllegalActionError(int(acts[i]), actions_of(int(self.deals.legal_mask_bits()[i])), f"env {i}")
        if illegal is not None:
            acts = np.where(illegal, -1, acts)  # those envs do not act; their deals end below
        obs, masks, rewards, done = self.deals.step_observe(acts)
        reward = rewards[self._rows, seats]
        terminated = done.copy()
        final_obs = self.deals.final_observations
        if illegal is not None:
            final_obs = final_obs.copy()
            final_obs[illegal] = self._last_obs[illegal]  # the deal as it stood
            self.deals.redeal(np.flatnonzero(illegal))
            reward[illegal] = self.illegal_reward
            terminated |= illegal
        self._masks[:] = masks
        self._last_obs[:] = obs
        infos = self._infos(masks, self.seats)
        if terminated.any():
            out = np.full(self.num_envs, None, dtype=object)
            ended = np.flatnonzero(terminated)
            rows = self._observation(final_obs[ended], np.ones((len(ended), NUM_ACTIONS), np.int8), copy=False)
            for k, i in enumerate(ended.tolist()):
                out[i] = {key: v[k] for key, v in rows.items()} if isinstance(rows, dict) else rows[k]
            infos["final_obs"], infos["_final_obs"] = out, terminated.copy()
            infos["final_info"] = self._final_info(seats, terminated, illegal)
            infos["_final_info"] = terminated.copy()
        return self._observation(obs, masks), reward, terminated, self._truncated.copy(), infos

    def _illegal(self, acts: np.ndarray) -> np.ndarray | None:
        """(N,) bool of the envs whose action is illegal, when they end the deal (else None: the
        batch raises ``IllegalActionError`` on them)."""
        if self.illegal_action == "raise" or acts.dtype.kind not in "iu":
            return None
        in_range = (acts >= 0) & (acts < NUM_ACTIONS)
        bad = ~in_range
        bad[in_range] = self._masks[self._rows[in_range], acts[in_range]] == 0
        return bad if bad.any() else None

    def _observation(self, obs: np.ndarray, masks: np.ndarray, copy: bool = True) -> Any:
        if self.mask_in_observation:
            return {self.observation_key: obs.copy(), self.mask_key: masks.copy()}
        return obs.copy() if copy else obs

    def _infos(self, masks: np.ndarray, seats: np.ndarray) -> dict[str, Any]:
        """The contract's keys for deals in play (a reset deal has no result yet)."""
        n = self.num_envs
        values = {
            "action_mask": masks.copy(),
            "seat": seats.astype(np.int64),
            "winner": np.full(n, -1, dtype=np.int64),
            "game_points": np.zeros(n, dtype=np.int64),
            "termination": np.full(n, -1, dtype=np.int64),
            "scores": np.zeros((n, 2), dtype=np.int64),
            "illegal_action": np.zeros(n, dtype=np.bool_),
        }
        return _with_flags(values, np.ones(n, dtype=np.bool_))

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
        return _with_flags(values, ended)

    def action_masks(self) -> np.ndarray:
        """(N, 32) bool: the legal actions of the current observations (for MaskablePPO)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the deals are arrays in this process."""


def _with_flags(values: dict[str, Any], present: np.ndarray) -> dict[str, Any]:
    """Gymnasium's batched-info layout: each key next to its ``_key`` array of envs that have it."""
    assert set(values) == {"action_mask", *INFO_KEYS}
    out: dict[str, Any] = {}
    for key, v in values.items():
        out[key] = v
        out[f"_{key}"] = present.copy()
    return out
