"""The vector observation of one deal for one player, bit for bit ``observers.encode_vector``.

The port of ``fast.kernels.encode_observation``: the eight 24-card parts are bit masks and the 33
small one-hot parts and flags are packed as bits into two more words, so the 225 binary features
are one shift-and-mask of ten words (built part by part and concatenated, the same vector took
about 4x as long on the CPU: 1.7 ms against 0.4 ms for 4,096 deals). The ten float parts are read
from tables of ``float32(k / n)`` made with numpy in float64, exactly as the reference engine
computes them (a float64 division rounded to float32), so no compiler rewrite of a division (into
a multiplication by the reciprocal) can change a bit.
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
_MAX_COUNT = 256  # counted points stay far below (120 card points, 100 in marriages, 10 bonus)


def _ratio_table(denominator: float, size: int = _MAX_COUNT) -> jax.Array:
    return jnp.asarray((np.arange(size, dtype=np.float64) / denominator).astype(np.float32))


_BY_66 = _ratio_table(66.0)
_BY_12 = _ratio_table(12.0, 32)

assert OBS["hand"] == 0 and OBS["trump_suit"] == 8 * 24 and OBS_BINARY_SIZE + 10 == OBS_SIZE
# the small features' bits in ``encode_observation``'s two packed words (10 words of 24 bits)
assert [OBS[k] - OBS["trump_suit"] for k in ("trump_location", "decision", "declared_suit")] == [4, 8, 13]
assert [OBS[k] - OBS["trump_suit"] for k in ("my_marriages", "opponent_marriages", "closed_by_me")] == [17, 21, 25]
assert OBS["claim_chance"] - OBS["trump_suit"] == 32 and OBS_BINARY_SIZE == 225


def _bits24(masks: jax.Array) -> jax.Array:
    return ((masks[:, None] >> _SHIFTS) & 1).reshape(-1)


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
    location = jnp.where(
        in_stock & (g.stock[0] == tc),
        0,
        jnp.where(((hand >> tc) & 1) != 0, 1, jnp.where(((opp_hand >> tc) & 1) != 0, 2, 3)),
    )
    closed_by = g.closed_by
    flags = (
        (closed_by == me).astype(jnp.int32)
        | (closed_by == opp).astype(jnp.int32) << 1
        | ((closed_by < 0) & (n_stock == 0)).astype(jnp.int32) << 2
        | (getp(g.tricks, me) > 0).astype(jnp.int32) << 3
        | (getp(g.tricks, opp) > 0).astype(jnp.int32) << 4
        | (g.dealer == me).astype(jnp.int32) << 5
        | (g.leader == me).astype(jnp.int32) << 6
        | (getp(g.claim, me) != 0).astype(jnp.int32) << 7
    )
    # the 33 small binary features (trump_suit .. claim_chance) packed as bits, 24 to a word
    decision = jnp.where(g.termination == RUNNING, jnp.left_shift(1, g.decision), 0)
    declared = jnp.where(g.declared >= 0, jnp.left_shift(1, jnp.maximum(g.declared, 0)), 0)
    opp_marriages = getp(g.marriages, opp)
    small = (
        jnp.left_shift(1, g.trump)
        | jnp.left_shift(1, location) << 4
        | decision << 8
        | declared << 13
        | getp(g.marriages, me) << 17
        | (opp_marriages & 7) << 21
    )
    small_hi = (opp_marriages >> 3) | flags << 1
    words = jnp.stack(
        [
            hand,
            known_opp,
            getp(g.won, me),
            getp(g.won, opp),
            lead,
            jnp.left_shift(1, tc),
            bottom,
            unseen,
            small,
            small_hi,
        ]
    ).astype(jnp.int32)
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
    binary = _bits24(words)[:OBS_BINARY_SIZE].astype(jnp.float32)
    return jnp.concatenate([binary, floats])
