"""A variance-reduced, unbiased estimate of a deal's result: the luck of the stock draws taken out.

Why: duplicate deals (the same cards, seats swapped) already cancel the luck of the hands dealt,
but once the two plays of a deal differ, the cards each player draws from the stock differ too,
and that luck is most of what is left. This is AIVAT's chance correction (Burch et al., 2018)
for the one chance event of a deal after the shuffle: the draws.

The estimator. Replay a finished deal's actions on the batched engine's state row. At every action
that draws from the stock (the trick's last card, or a ``DRAW`` decision), with the state ``h``
just before it, let ``V(h, c)`` be a value for ``player`` of the state after the draw when the
drawn cards are ``c`` and the rest of the face-down stock is in a uniformly random order, and
``term = V(h, c_actual) - E_c V(h, c)`` (the expectation over a uniformly random face-down stock).
The reduced result is ``return - sum(terms)``; over many deals, :func:`.stats.reduce_values` scales the
sum by a coefficient fitted on the other half of the deals (cross-fitting), which keeps the mean.

Why it is unbiased: the players act on their own views only (no agent sees the face-down stock),
so given everything that happened before a draw, the face-down stock is still in a uniformly random
order, and each term has mean zero given that history; so does their sum (the tower rule, with
the number of draws a bounded stopping time). ``V`` may be any function: a poor one only removes
less variance. Here ``V`` is estimated by Monte Carlo: ``samples`` random orders of the face-down
stock (from a seeded generator of its own, independent of the deal), each played out to the end
by the heuristic (``fast.heuristic``) or, for a seat given a policy network (``nets``,
:func:`playout_net`), by that network; the mean over samples is an unbiased estimate of ``V``,
which keeps every term's mean at zero. The same random orders serve both sides of a term (the
actual cards swapped into their draw positions), so that most of their noise cancels. The closer
the playouts' players are to the real ones, the more luck the terms remove: about 7x less
variance with a ``ppo`` agent's own network, 1.3-1.6x with the heuristic standing in
(docs/evaluation.md). For an agent without a network, :mod:`.own_playouts` lets it play its own
seat on the reference engine, at far more CPU.

Not valid for a player who sees the stock (the oracle, ``agents.oracle``): its choices depend on
the order, and the terms no longer have mean zero. Rules the batched engine does not support
(``fast.state.encode_rules``) have no reduced estimate: :func:`supports` says which.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from ..engine import Deal
from ..fast.heuristic import heuristic_action
from ..fast.kernels import apply_action, encode_observation, stock_open
from ..fast.rows import row_of
from ..fast.state import (
    CURRENT,
    GAME_POINTS,
    MASK,
    MAX_STOCK,
    NUM_FIELDS,
    OBS_SIZE,
    STOCK,
    STOCK_LEN,
    TERMINATION,
    WINNER,
    encode_rules,
)
from ..rules import Rules, get_rules
from .own_playouts import initial_deal

__all__ = [
    "DEFAULT_SAMPLES",
    "draw_correction",
    "initial_deal",
    "playout_net",
    "playout_nets",
    "reduced_return",
    "supports",
]

DEFAULT_SAMPLES = 64
"""Random stock orders per draw: enough that ``V``'s own noise is small beside the luck it removes."""

_RUNNING = -1
_JIT: dict[str, Any] = {"cache": True, "nogil": True}


@njit(**_JIT)
def _next(state):
    """splitmix64 on ``state[0]``: a seeded generator of this module's own (no global random state)."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(**_JIT)
def _playout(s, R, player):
    """The heuristic plays both sides of row ``s`` (changed in place) to the end: game points for ``player``."""
    while s[TERMINATION] == _RUNNING:
        apply_action(s, R, heuristic_action(s, R))
    if s[WINNER] < 0:
        return 0
    return s[GAME_POINTS] if s[WINNER] == player else -s[GAME_POINTS]


@njit(**_JIT)
def _sample_rows(root, R, actions, samples, seed, rows, signs, term_of):
    """Replay ``actions`` from ``root``; for each draw, ``samples`` pairs of rows just after it:
    the draw from a random order of the face-down stock (sign -1: ``E_c V(h, c)``) and the same
    order with the actual cards swapped into their draw positions (sign +1: ``V(h, c_actual)``),
    so that both share every other card's place (still a uniform order below ``c``). Row ``r``
    belongs to draw ``term_of[r]``. Returns ``(rows used, draws)``."""
    s = root.copy()
    pre = np.empty_like(s)
    order = np.empty(16, dtype=np.int32)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    count = 0
    used = 0
    for i in range(actions.shape[0]):
        n = s[STOCK_LEN]
        was_open = stock_open(s)
        pre[:] = s
        a = actions[i]
        apply_action(s, R, a)
        drawn = n - s[STOCK_LEN]
        if not was_open or drawn <= 0:
            continue
        hidden = n - 1  # face-down cards in slots STOCK+1 .. STOCK+n-1, the top drawn first
        if hidden <= 1 or drawn > hidden:  # one face-down card (or none) left: nothing random in the draw
            count += 1
            continue
        for _ in range(samples):
            for k in range(hidden):  # a uniformly random order of the face-down cards (Fisher-Yates)
                order[k] = pre[STOCK + 1 + k]
            for k in range(hidden - 1, 0, -1):
                j = np.int64(_next(rng) % np.uint64(k + 1))
                order[k], order[j] = order[j], order[k]
            for side in range(2):
                if side == 1:  # the actual cards swapped into their draw positions
                    for t in range(hidden - 1, hidden - 1 - drawn, -1):
                        c = pre[STOCK + 1 + t]
                        for k in range(hidden):
                            if order[k] == c:
                                order[k], order[t] = order[t], order[k]
                                break
                w = rows[used]
                w[:] = pre
                for k in range(hidden):
                    w[STOCK + 1 + k] = order[k]
                apply_action(w, R, a)
                signs[used] = 1.0 if side == 1 else -1.0
                term_of[used] = count
                used += 1
        count += 1
    return used, count


@njit(**_JIT)
def _heuristic_values(rows, n, R, player, values):
    """``values[r]``: the heuristic's playout of row ``r`` for ``player`` (rows changed in place)."""
    for r in range(n):
        values[r] = _playout(rows[r], R, player)


@njit(**_JIT)
def _advance(rows, n, R, has_net, player, obs, need, values):
    """Play the heuristic's moves for the seats without a network until every running row waits
    for a network (``need[r] = 1``, its observation in ``obs[r]``) or is over (``values[r]`` set)."""
    waiting = 0
    for r in range(n):
        s = rows[r]
        need[r] = 0
        while s[TERMINATION] == _RUNNING and not has_net[s[CURRENT]]:
            apply_action(s, R, heuristic_action(s, R))
        if s[TERMINATION] == _RUNNING:
            need[r] = 1
            encode_observation(s, R, s[CURRENT], obs[r])
            waiting += 1
        elif s[WINNER] < 0:
            values[r] = 0
        else:
            values[r] = s[GAME_POINTS] if s[WINNER] == player else -s[GAME_POINTS]
    return waiting


@njit(**_JIT)
def _apply_rows(rows, R, index, actions):
    for k in range(index.shape[0]):
        apply_action(rows[index[k]], R, actions[k])


def _network_values(
    rows: np.ndarray, n: int, R: np.ndarray, player: int, nets: tuple[Any, Any], values: np.ndarray
) -> None:
    """Playouts in lockstep where seat ``p`` plays ``nets[p]``'s masked argmax (as ``PPOAgent``)
    or, for None, the heuristic: one batched forward pass per seat and step."""
    has_net = np.array([nets[0] is not None, nets[1] is not None])
    obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
    need = np.zeros(n, dtype=np.int64)
    while _advance(rows, n, R, has_net, player, obs, need, values):
        waiting = [np.flatnonzero((need[:n] == 1) & (rows[:n, CURRENT] == seat)) for seat in (0, 1)]
        for seat, index in enumerate(waiting):  # both chosen before either moves
            if not len(index):
                continue
            legal = (rows[index, MASK].astype(np.int64)[:, None] >> np.arange(32)) & 1
            logits = nets[seat].batch_logits(obs[index]).astype(np.float64)
            z = np.where(legal != 0, logits[:, :32], -np.inf)
            _apply_rows(rows, R, index, z.argmax(axis=1).astype(np.int64))


@lru_cache(maxsize=8)
def _rules_vector(rules: Rules) -> np.ndarray:
    return encode_rules(rules)


def supports(rules: str | Rules) -> bool:
    """Whether the reduced estimate exists for ``rules``: two players on the batched engine."""
    try:
        _rules_vector(get_rules(rules))
    except ValueError:
        return False
    return True


def draw_correction(
    deal: Deal,
    player: int,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    start: Deal | None = None,
    nets: tuple[Any, Any] = (None, None),
) -> float:
    """The sum of the draw terms of ``deal`` (finished or not: a forfeited deal counts the draws it
    had) for ``player``, in game points. ``start``: the deal's first position (default: rebuilt
    from ``deal.arrangement``, which assumes the deal started at its arrangement). ``nets``: per
    seat, a policy network (``agents.mlp.MLPPolicy``, see :func:`playout_net`) that plays that
    seat in the playouts of ``V`` instead of the heuristic: the closer ``V``'s players are to the
    real ones, the more luck the terms take out (the mean stays right with any)."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    if not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a whole number >= 1, got {samples!r}")
    first = initial_deal(deal) if start is None else start
    R = _rules_vector(deal.rules)
    actions = np.array([x & 31 for x in deal.history], dtype=np.int64)
    size = (MAX_STOCK // 2 + 1) * 2 * samples
    rows = np.zeros((size, NUM_FIELDS), dtype=np.int32)
    signs = np.zeros(size, dtype=np.float64)
    term_of = np.zeros(size, dtype=np.int64)
    used, _ = _sample_rows(row_of(first), R, actions, samples, seed & 0xFFFFFFFFFFFFFFFF, rows, signs, term_of)
    values = np.zeros(size, dtype=np.int64)
    if nets == (None, None):
        _heuristic_values(rows, used, R, player, values)
    else:
        _network_values(rows, used, R, player, nets, values)
    return float((signs[:used] * values[:used]).sum() / samples)


def playout_net(agent: object, rules: Rules) -> Any:
    """The policy network ``agent`` plays by (a ``PPOAgent``'s ``policy``), to play its seat in the
    playouts of ``V``; None (the heuristic plays it) for any other agent or a network whose
    observation is not the batched engine's."""
    from ..agents.mlp import MLPPolicy

    try:
        policy = getattr(agent, "policy", None)
    except Exception:  # a model that fails to load: the heuristic stands in
        return None
    if not isinstance(policy, MLPPolicy) or policy.observation_size != OBS_SIZE:
        return None
    return policy


def playout_nets(agents: Sequence[object], rules: Rules) -> tuple[Any, Any]:
    """``(playout_net(agents[0]), playout_net(agents[1]))``: the networks of the agents by seat."""
    return (playout_net(agents[0], rules), playout_net(agents[1], rules))


def reduced_return(deal: Deal, player: int, points: float, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> float:
    """``points`` (the player's result of ``deal``) less the draw terms: the same mean, less luck."""
    return points - draw_correction(deal, player, samples, seed)
