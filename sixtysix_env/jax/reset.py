"""Auto-reset for a batch of Sixty-Six deals that deals only the deals it needs.

Pgx's ``auto_reset`` under ``vmap`` deals a new deal for every env at every step (its ``lax.cond``
becomes a select); a deal costs about as much as a step (``random_deal``), so this one deals at
most an eighth of the batch per step and scatters the new deals into the finished envs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from .engine import RUNNING

__all__ = ["compact_auto_reset", "batched_auto_reset"]


def compact_auto_reset(env: Any, batch: int, resets: int | None = None) -> Callable[..., Any]:
    """A batched ``step(state, action, key)`` with auto-reset that deals at most ``resets`` new
    deals per step (default ``batch // 8``, at least 1) instead of one per env.

    ``jax.vmap(pgx.experimental.auto_reset(env.step, env.init))`` turns its ``lax.cond`` into a
    select, so every step deals a new deal for every env and throws most away; dealing costs
    about a step. Here the finished envs are found with ``jnp.nonzero(size=resets)``
    and only those get one of ``resets`` new deals (scattered in), and the batch is observed once,
    after the new deals are in. The result reads as Pgx's auto-reset: a finished env returns its
    new deal with ``terminated`` and ``rewards`` of the deal that ended. A random deal lasts about
    20 decisions, so about ``batch / 20`` deals end at a step; one that finds no free deal
    stays over (``state.game.termination != RUNNING``), the next step is a no-op for it (Pgx's rule
    on a finished state: zero rewards) and it is dealt again then (``rollout`` leaves such steps
    out of the loss)."""
    resets = max(1, batch // 8) if resets is None else max(1, min(batch, resets))
    advance, deal, observe = jax.vmap(env.advance), jax.vmap(env.deal), jax.vmap(env.observe)

    def wrapped(state: Any, action: jax.Array, key: jax.Array) -> Any:
        live = state.game.termination == RUNNING  # a new deal may still read terminated from the last one
        state = advance(state.replace(terminated=~live, rewards=jnp.zeros_like(state.rewards)), action)
        ended = state.terminated | state.truncated
        rows = jnp.nonzero(ended, size=resets, fill_value=batch)[0]  # row `batch` is dropped below
        # the barrier: without it XLA recomputed the key split inside each use by the deal (1.39
        # against 1.20 ms a step of 4,096 deals on the CPU)
        fresh = deal(jax.lax.optimization_barrier(jax.random.split(key, resets)))
        dealt = jax.tree_util.tree_map(lambda s, f: s.at[rows].set(f, mode="drop"), state, fresh)
        dealt = dealt.replace(terminated=state.terminated, truncated=state.truncated, rewards=state.rewards)
        return dealt.replace(observation=observe(dealt))

    return wrapped


def batched_auto_reset(env: Any, batch: int, compact: bool = False) -> Callable[..., Any]:
    """``step(state, action, key)`` over a batch of ``batch`` envs with auto-reset: Pgx's own
    ``auto_reset`` under ``vmap`` (any Pgx env), or ``compact_auto_reset`` (Sixty-Six only)."""
    if compact:
        return compact_auto_reset(env, batch)
    from pgx.experimental import auto_reset

    pgx_step = jax.vmap(auto_reset(env.step, env.init))

    def step(state: Any, action: jax.Array, key: jax.Array) -> Any:
        return pgx_step(state, action, jax.random.split(key, batch))

    return step
