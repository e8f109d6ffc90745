"""The vector observation of one deal for one player, bit for bit ``observers.encode_vector``.

The port of ``fast.kernels.encode_observation``: the 24-card parts are expanded from bit masks,
the small one-hot parts and flags from ints. The ten float parts are read from tables of
``float32(k / n)`` made with numpy in float64, exactly as the reference engine computes them
(a float64 division rounded to float32), so no compiler rewrite of a division (into a
multiplication by the reciprocal) can change a bit.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..fast.state import OBS, OBS_BINARY_SIZE, OBS_SIZE
from .engine import RUNNING, getp
from .state import Game

__all__ = ["encode_observation"]

_SHIFTS = jnp.arange(24, dtype=jnp.int32)
_SHIFTS4 = jnp.arange(4, dtype=jnp.int32)
_ARANGE5 = jnp.arange(5, dtype=jnp.int32)
_MAX_COUNT = 256  # counted points stay far below (120 card points, 100 in marriages, 10 bonus)


def _ratio_table(denominator: float, size: int = _MAX_COUNT) -> jax.Array:
    return jnp.asarray((np.arange(size, dtype=np.float64) / denominator).astype(np.float32))


_BY_66 = _ratio_table(66.0)
_BY_12 = _ratio_table(12.0, 32)

assert OBS["hand"] == 0 and OBS["trump_suit"] == 8 * 24 and OBS_BINARY_SIZE + 10 == OBS_SIZE


def _bits24(masks: jax.Array) -> jax.Array:
    return ((masks[:, None] >> _SHIFTS) & 1).reshape(-1)


def _one_hot(index: jax.Array, size: int, on: Any = True) -> jax.Array:
    return ((jnp.arange(size, dtype=jnp.int32) == index) & on).astype(jnp.int32)


def encode_observation(g: Game, me: Any) -> jax.Array:
    """observers.encode_vector(InfoState.of(deal, me)) as float32 ``(OBS_SIZE,)``."""
    P = g.params
    me = jnp.asarray(me, jnp.int32)
    opp = 1 - me
    hand = getp(g.hand, me)
    opp_hand = getp(g.hand, opp)
    n_stock = g.stock_len
    tc = g.trump_card
    in_stock = n_stock > 0
    slots = jnp.arange(g.stock.shape[0], dtype=jnp.int32)
    hidden_bits = jnp.where((slots >= 1) & (slots < n_stock), jnp.left_shift(1, g.stock), 0)
    stock_hidden = jnp.sum(hidden_bits)  # distinct cards: the sum is the OR
    known_opp = jnp.where(in_stock, getp(g.known, opp), opp_hand)
    unseen = jnp.where(in_stock, (opp_hand & ~getp(g.known, opp)) | stock_hidden, 0)
    bottom = jnp.where(in_stock, jnp.left_shift(1, g.stock[0]), 0)
    lead = jnp.where(g.lead_card >= 0, jnp.left_shift(1, jnp.maximum(g.lead_card, 0)), 0)
    cards = jnp.stack(
        [hand, known_opp, getp(g.won, me), getp(g.won, opp), lead, jnp.left_shift(1, tc), bottom, unseen]
    ).astype(jnp.int32)
    location = jnp.where(
        in_stock & (g.stock[0] == tc),
        0,
        jnp.where(((hand >> tc) & 1) != 0, 1, jnp.where(((opp_hand >> tc) & 1) != 0, 2, 3)),
    )
    closed_by = g.closed_by
    flags = jnp.stack(
        [
            closed_by == me,
            closed_by == opp,
            (closed_by < 0) & (n_stock == 0),
            getp(g.tricks, me) > 0,
            getp(g.tricks, opp) > 0,
            g.dealer == me,
            g.leader == me,
            getp(g.claim, me) != 0,
        ]
    ).astype(jnp.int32)
    small = jnp.concatenate(
        [
            _one_hot(g.trump, 4),
            _one_hot(location, 4),
            ((g.decision == _ARANGE5) & (g.termination == RUNNING)).astype(jnp.int32),
            _one_hot(g.declared, 4),
            (getp(g.marriages, me) >> _SHIFTS4) & 1,
            (getp(g.marriages, opp) >> _SHIFTS4) & 1,
            flags,
        ]
    )
    stock_ratio = _ratio_table(float(P.stock_size), 16)
    hand_ratio = _ratio_table(float(P.hand_size), 16)
    score_ratio = _ratio_table(float(P.match_target), 64)

    def count(x: jax.Array, n: int) -> jax.Array:
        return jnp.clip(x, 0, n - 1)

    floats = jnp.stack(
        [
            stock_ratio[count(n_stock, 16)],
            _BY_66[count(getp(g.points, me), _MAX_COUNT)],
            _BY_66[count(getp(g.points, opp), _MAX_COUNT)],
            _BY_66[count(getp(g.pending, me), _MAX_COUNT)],
            _BY_66[count(getp(g.pending, opp), _MAX_COUNT)],
            hand_ratio[count(jax.lax.population_count(hand), 16)],
            hand_ratio[count(jax.lax.population_count(opp_hand), 16)],
            score_ratio[count(getp(g.scores, me), 64)],
            score_ratio[count(getp(g.scores, opp), 64)],
            _BY_12[count(g.trick_count, 32)],
        ]
    )
    binary = jnp.concatenate([_bits24(cards), small]).astype(jnp.float32)
    return jnp.concatenate([binary, floats])
