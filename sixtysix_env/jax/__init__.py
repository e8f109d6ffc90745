"""The JAX engine: Sixty-Six deals as pure, jit- and vmap-able functions, and a Pgx environment.

Needs jax and pgx (``pip install 'sixtysix-env[jax]'``; GPU users install ``jax[cuda12]``
themselves). Nothing else in ``sixtysix_env`` imports this package, so ``import sixtysix_env``
never imports jax.

Public names (stable):

- ``SixtySix(rules: str | Rules | Params = "standard")``: a ``pgx.Env``. ``init(key) -> State``
  (a random deal, random dealer), ``step(state, action, key=None) -> State``,
  ``observe(state, player_id=None) -> float32 (235,)``, ``id`` ("sixtysix"), ``version``,
  ``num_players`` (2), ``num_actions`` (32), ``observation_shape`` ((235,)); beyond pgx:
  ``init_from_deck(deck, dealer) -> State`` (deck row: hand 0, hand 1, stock bottom first),
  ``heuristic_action(state)``, ``play_heuristic(state, seat) -> State`` (the heuristic plays
  ``seat`` until the other seat is to act), ``step_vs_heuristic(state, action, seat) -> State``,
  ``advance(state, action) -> State`` (``step`` without the new observation), ``deal(key) ->
  State`` (``init`` without the observation) and ``params`` (the static ``Params``).
- ``State``: the ``pgx.State`` (``current_player``, ``observation``, ``rewards`` float32 (2,),
  ``terminated``, ``truncated``, ``legal_action_mask`` bool (32,), ``_step_count``) plus
  ``_game`` (alias ``game``): a ``Game``.
- ``Game``: the deal's fields (int32 scalars and (2,) arrays, card sets as 24-bit masks, ``mask``
  uint32) with the rules as static ``params``.
- ``heuristic_action(state: State | Game, params: Params | None = None) -> int32``: the
  heuristic player's action for the player to act (-1 once the deal is over), the same as the
  numba and Python heuristics.
- ``make_params(rules) -> Params``: the static rules tuple (raises ``UnsupportedRuleError``).
- ``compact_auto_reset(env, batch, resets=None)`` and ``batched_auto_reset(env, batch, compact)``:
  batched ``step(state, action, key)`` with auto-reset; the compact one deals at most ``resets``
  (default ``batch // 8``) new deals a step instead of one per env.
- ``apply_action(game, action, keep=False) -> Game``, ``start_deal(deck, dealer, params) -> Game``,
  ``random_deal(key, params) -> Game``, ``encode_observation(game, player) -> float32 (235,)``:
  the engine without the Pgx wrapper (no observation computed unless asked).
"""

from __future__ import annotations

from .engine import RUNNING, apply_action, compute_mask, random_deal, start_deal
from .env import SixtySix, mask_to_bool
from .heuristic import heuristic_action
from .observe import encode_observation
from .reset import batched_auto_reset, compact_auto_reset
from .rules import Params, UnsupportedRuleError, make_params
from .state import Game, State

__all__ = [
    "batched_auto_reset",
    "compact_auto_reset",
    "SixtySix",
    "State",
    "Game",
    "Params",
    "UnsupportedRuleError",
    "make_params",
    "heuristic_action",
    "apply_action",
    "compute_mask",
    "start_deal",
    "random_deal",
    "encode_observation",
    "mask_to_bool",
    "RUNNING",
]
