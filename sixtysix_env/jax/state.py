"""The JAX engine's state: one deal as a pytree of int32 scalars and small arrays.

``Game`` mirrors the numba engine's int32 row (``fast.state``), field by field, with names in
lower case: per-player fields are ``(2,)`` arrays (``hand[p]``), card sets are 24-bit masks in
int32, the legal mask is a uint32 (bit 31 is go out), the stock is ``(12,)`` int32 with slot 0
the bottom (face-up) card and only the first ``stock_len`` slots meaningful. ``params`` (the
rules) is static pytree metadata, so a ``Game`` carries its rules through ``jit``/``vmap``
without costing an array.

``State`` is the ``pgx.State`` of the ``SixtySix`` env: the seven fields every Pgx game has,
plus ``_game``.
"""

from __future__ import annotations

import jax
import pgx.core as core
from pgx._src.struct import dataclass, field

from .rules import Params

__all__ = ["Game", "State", "MAX_STOCK", "ENV_ID"]

MAX_STOCK = 12
"""Stock slots (a 24-card deck leaves 12 cards)."""
ENV_ID = "sixtysix"
"""The environment's id (Pgx's ``Env.id``)."""


@dataclass
class Game:
    """One deal (see the module docstring); the attributes of ``engine.Deal`` as arrays."""

    dealer: jax.Array
    trump: jax.Array  # trump suit
    trump_card: jax.Array  # the card turned up
    exchange_card: jax.Array  # trump nine (schnapsen: jack)
    current: jax.Array  # the player to act (kept after the deal ends)
    decision: jax.Array  # engine.Decision
    leader: jax.Array
    lead_card: jax.Array  # -1 when no trick is open
    declared: jax.Array  # suit declared on this lead, -1 if none
    just_closed: jax.Array
    closed_by: jax.Array  # -1 while not closed
    closed_opp_tricks: jax.Array
    closed_opp_points: jax.Array
    closed_own_tricks: jax.Array
    trick_count: jax.Array
    mask: jax.Array  # uint32 legal action mask, 0 once the deal is over
    winner: jax.Array  # -1 drawn or still running
    game_points: jax.Array
    termination: jax.Array  # engine.Termination, -1 while the deal runs
    stock_len: jax.Array
    hand: jax.Array  # (2,) card masks
    known: jax.Array  # (2,) cards of each hand its opponent has seen
    won: jax.Array  # (2,) cards in each player's won tricks
    points: jax.Array  # (2,) counted points
    pending: jax.Array  # (2,) marriage points waiting for a first trick
    tricks: jax.Array  # (2,)
    marriages: jax.Array  # (2,) suits declared, as 4-bit masks
    claim: jax.Array  # (2,) explicit claiming: may go out on the next lead
    scores: jax.Array  # (2,) match scores before this deal (always 0: one episode is one deal)
    stock: jax.Array  # (MAX_STOCK,) card ids, slot 0 the bottom (face-up) card
    params: Params = field(pytree_node=False)


@dataclass
class State(core.State):
    """``pgx.State`` of one Sixty-Six deal (pgx's seven fields, then the deal)."""

    current_player: jax.Array
    observation: jax.Array  # float32 (VECTOR_SIZE,): the current player's vector observation
    rewards: jax.Array  # float32 (2,): game points of the deal at the step that ends it
    terminated: jax.Array
    truncated: jax.Array
    legal_action_mask: jax.Array  # bool (32,); all True once terminated (pgx's convention)
    _step_count: jax.Array
    _game: Game

    @property
    def env_id(self) -> core.EnvId:
        return ENV_ID  # type: ignore[return-value]

    @property
    def game(self) -> Game:
        """The deal (public alias of ``_game``)."""
        return self._game
