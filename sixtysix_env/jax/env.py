"""``SixtySix``: one deal of Sixty-Six as a Pgx environment (``pgx.Env``), pure JAX.

Code written for Pgx runs unchanged: ``jax.jit(jax.vmap(env.step))``,
``pgx.experimental.auto_reset(env.step, env.init)``, mctx-style search over ``jax.vmap(env.step)``.
One episode is one deal. ``rewards`` are the deal's game points (``rewards.step_rewards``'s
``"game_points"``): ``+g`` to the winner and ``-g`` to the loser at the step that ends the deal,
zeros otherwise (and for a drawn deal). An illegal action follows Pgx: the deal ends at once
with ``-1`` for the player who made it and ``+1`` for the other.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import pgx.core as core

from ..actions import NUM_ACTIONS
from ..observers import VECTOR_SIZE
from ..rules import Rules
from .engine import RUNNING, apply_action, random_deal, start_deal
from .heuristic import heuristic_action
from .observe import encode_observation
from .rules import Params, make_params
from .state import ENV_ID, Game, State

__all__ = ["SixtySix", "VERSION"]

VERSION = "v0"
"""The environment's version (Pgx's ``Env.version``), raised when its behaviour changes."""
_ACTION_BITS = jnp.arange(NUM_ACTIONS, dtype=jnp.uint32)


def mask_to_bool(mask: jax.Array) -> jax.Array:
    """A uint32 legal mask as ``(32,)`` bool."""
    return ((mask >> _ACTION_BITS) & 1) != 0


_ILLEGAL_REWARDS = jnp.array([[-1.0, 1.0], [1.0, -1.0]], jnp.float32)
"""Pgx's rewards for an illegal action, by the player who made it."""


def _rewards(g: Game, over: jax.Array) -> jax.Array:
    """The deal's game points to each seat at the step that ends it (zeros while it runs, for a
    draw, and once ``over`` already)."""
    won = (g.termination != RUNNING) & (g.winner >= 0) & ~over
    r0 = jnp.where(won, jnp.where(g.winner == 0, g.game_points, -g.game_points), 0).astype(jnp.float32)
    return jnp.stack([r0 + 0.0, 0.0 - r0])  # never -0.0


def _state_of(g: Game, observation: jax.Array | None = None) -> State:
    return State(  # type: ignore[call-arg]
        current_player=g.current,
        observation=jnp.zeros(VECTOR_SIZE, jnp.float32) if observation is None else observation,
        rewards=jnp.zeros(2, jnp.float32),
        terminated=g.termination != RUNNING,
        truncated=jnp.bool_(False),
        legal_action_mask=mask_to_bool(g.mask),
        _step_count=jnp.int32(0),
        _game=g,
    )


class SixtySix(core.Env):
    """Sixty-Six for two players, one deal per episode, as a ``pgx.Env``.

    ``rules``: a two-player preset name (standard, russian, marriage, santase, schnapsen, vu), a
    ``Rules`` or ``Params``; a rule the batched engines do not implement raises
    ``UnsupportedRuleError``. Every rule is a compile-time constant of the jitted functions.
    """

    def __init__(self, rules: str | Rules | Params = "standard") -> None:
        super().__init__()
        self.params = make_params(rules)
        self.rules_name = rules if isinstance(rules, str) else getattr(rules, "name", "custom")

    # ------------------------------------------------------------------ pgx.Env
    def _init(self, key: jax.Array) -> State:
        # The barrier keeps XLA from fusing the deal into the observation that Pgx's ``init``
        # computes next: fused, the features recomputed parts of the shuffle, and a batch of
        # 4,096 inits took about twice as long on the CPU (3.3 ms against 1.7 ms).
        return _state_of(jax.lax.optimization_barrier(random_deal(key, self.params)))

    def step(self, state: core.State, action: jax.Array, key: Any = None) -> State:
        """``pgx.Env.step``, field for field (tested against it), without its three ``lax.cond``
        over the whole state: under ``vmap`` each becomes a select of every field, and they cost
        about a fifth of a step. A finished deal is kept by the engine's switch; the rest of Pgx's
        rules (zero rewards once over, -1 for an illegal action, an all-True mask at the end)
        touch only the small fields."""
        del key  # the deal holds no chance after the deal: the stock's order is part of the state
        state = self.advance(state, action)
        return state.replace(observation=self.observe(state))  # type: ignore[attr-defined, no-any-return]

    def advance(self, state: State, action: jax.Array) -> State:
        """``step`` without the new observation (``observation`` is left as it was): for
        ``compact_auto_reset``, which observes once after it has dealt the new deals."""
        illegal = ~state.legal_action_mask[action]
        over = state.terminated | state.truncated
        g = apply_action(state._game, action, keep=over)
        terminated = jnp.where(over, state.terminated, g.termination != RUNNING) | illegal
        return state.replace(  # type: ignore[attr-defined, no-any-return]
            current_player=g.current,
            rewards=jnp.where(illegal, _ILLEGAL_REWARDS[state.current_player], _rewards(g, over)),
            terminated=terminated,
            legal_action_mask=mask_to_bool(g.mask) | terminated,
            _step_count=state._step_count + jnp.where(over, 0, 1).astype(state._step_count.dtype),
            _game=g,
        )

    def deal(self, key: jax.Array) -> State:
        """``init`` without the observation (zeros): a new deal for ``compact_auto_reset``."""
        return _state_of(random_deal(key, self.params))

    def _step(self, state: core.State, action: jax.Array, key: Any = None) -> State:
        """Pgx's game step, which its ``Env.step`` wraps (``step`` above does without it)."""
        del key
        assert isinstance(state, State)
        g = apply_action(state._game, action)
        return state.replace(  # type: ignore[attr-defined, no-any-return]
            current_player=g.current,
            rewards=_rewards(g, jnp.bool_(False)),
            terminated=g.termination != RUNNING,
            legal_action_mask=mask_to_bool(g.mask),
            _game=g,
        )

    def _observe(self, state: core.State, player_id: jax.Array) -> jax.Array:
        assert isinstance(state, State)
        return encode_observation(state._game, player_id)

    def observe(self, state: core.State, player_id: Any = None) -> jax.Array:
        """The vector observation (float32 ``(VECTOR_SIZE,)``) for ``player_id`` (default: the
        player to act), equal bit for bit to ``observers.encode_vector`` of the reference
        engine's ``InfoState`` for that player."""
        if player_id is None:
            player_id = state.current_player
        return jax.lax.stop_gradient(self._observe(state, jnp.asarray(player_id, jnp.int32)))

    @property
    def id(self) -> core.EnvId:
        return ENV_ID  # type: ignore[return-value]

    @property
    def version(self) -> str:
        return VERSION

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (VECTOR_SIZE,)

    # ------------------------------------------------------------------ beyond pgx
    def init_from_deck(self, deck: Any, dealer: Any) -> State:
        """The deal from a deck row (hand 0, hand 1, then the stock bottom first, as
        ``fast.state.arrangement_rows``) and a dealer: for lockstep checks and fixed deals."""
        state = _state_of(start_deal(deck, dealer, self.params))
        return state.replace(observation=self.observe(state))  # type: ignore[attr-defined, no-any-return]

    def heuristic_action(self, state: State) -> jax.Array:
        """The heuristic player's action for the player to act (-1 once the deal is over)."""
        return heuristic_action(state)

    def play_heuristic(self, state: State, seat: Any) -> State:
        """Let the heuristic play seat ``seat`` while it is to act and the deal runs (at most 48
        actions). ``rewards`` is summed over those steps, so it holds the deal's result if the
        heuristic ended it. Use it after ``init`` when the heuristic may lead first."""

        def heuristic_turn(s: State) -> Any:
            return (~s.terminated) & (s.current_player == seat)

        def play(s: State) -> State:
            nxt = self.step(s, heuristic_action(s))
            return nxt.replace(rewards=nxt.rewards + s.rewards)  # type: ignore[attr-defined, no-any-return]

        return jax.lax.while_loop(heuristic_turn, play, state)  # type: ignore[no-any-return]

    def step_vs_heuristic(self, state: State, action: jax.Array, seat: Any) -> State:
        """Step the learner's ``action``, then ``play_heuristic(seat)``: single-agent training
        against the heuristic entirely under jit (the learner is to act again unless the deal ended)."""
        return self.play_heuristic(self.step(state, action), seat)

    def __repr__(self) -> str:
        return f"SixtySix({self.rules_name!r})"
