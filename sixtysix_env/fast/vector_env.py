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
| action | ``(N,)`` ints in 0..31 (``sixtysix_env.actions``); must be legal (else ``IllegalActionError``) |
| action mask | ``infos["action_mask"]``, ``(N, 32)`` int8; also ``action_masks()`` (bool) |
| reward | the learner's (``"game_points"``, ``"win_loss"``, ``"shaped"``) for his action and the replies |
| autoreset | ``SAME_STEP``: a finished deal is replaced within ``step``; see ``final_obs``, ``final_info`` |
| truncation | never (a deal has at most 48 actions) |

A deal the opponent ends before the learner's first action (a false claim under explicit
claiming) is no episode for the learner: it is dealt again. On the step a deal ends,
``infos["final_obs"]`` holds its last observation and ``infos["final_info"]`` its winner, game
points, termination and the learner's seat in it (``_final_obs`` / ``_final_info`` mark the envs
concerned); ``infos["seat"]`` is already the new deal's. Seeding ``reset(seed=...)`` makes the
deals, the seats and the opponent's choices reproducible.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import NUM_ACTIONS, actions_of
from ..engine import IllegalActionError
from ..envs.options import check_option, rules_with_claiming
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
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
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
            raise ValueError(f"reset options are not supported by the vector env, got {sorted(options)}")
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        obs, masks = self.deals.reset(seed=seed)
        self._masks[:] = masks
        return obs.copy(), {"action_mask": masks.copy(), "seat": self.seats}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        seats = self.deals.learner_seats  # a finished deal pays the seat it was played from
        a = np.asarray(actions)
        if a.size != self.num_envs:
            raise ValueError(f"actions must hold {self.num_envs} actions (one per env), got shape {a.shape}")
        a = a.reshape(self.num_envs)
        if a.dtype.kind == "i" and (a < 0).any():  # -1 ("no action") is the batch's, not a learner's
            i = int(np.flatnonzero(a < 0)[0])
            raise IllegalActionError(int(a[i]), actions_of(int(self.deals.legal_mask_bits()[i])), f"env {i}")
        obs, masks, rewards, done = self.deals.step_observe(a)
        self._masks[:] = masks
        infos: dict[str, Any] = {"action_mask": masks.copy(), "seat": self.seats}
        terminated = done.copy()
        if terminated.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            ended = np.flatnonzero(terminated)
            rows = self.deals.final_observations[ended]  # one copy; each entry a row of it
            for k, i in enumerate(ended.tolist()):
                final_obs[i] = rows[k]
            infos["final_obs"], infos["_final_obs"] = final_obs, terminated.copy()
            infos["final_info"] = {
                "winner": self.deals.last_winner.copy(),
                "game_points": self.deals.last_game_points.copy(),
                "termination": self.deals.last_termination.copy(),
                "seat": seats,
                "_winner": terminated.copy(),
                "_game_points": terminated.copy(),
                "_termination": terminated.copy(),
                "_seat": terminated.copy(),
            }
            infos["_final_info"] = terminated.copy()
        return obs.copy(), rewards[self._rows, seats], terminated, self._truncated.copy(), infos

    def action_masks(self) -> np.ndarray:
        """(N, 32) bool: the legal actions of the current observations (for MaskablePPO)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the deals are arrays in this process."""
