"""``BatchedDeals``: N independent two-player deals stepped together as arrays.

The rules are those of the reference engine (:class:`~sixtysix_env.engine.Deal`), translated
once into numba kernels (``kernels.py``) that read the rules from an int vector, so every preset
runs through the same code. Observations are bit-identical to
``observers.encode_vector(InfoState.of(deal, player))``, masks to ``deal.legal_mask()``, and
rewards to ``rewards.step_rewards`` in deal episodes.

Self-play (``opponent=None``, the default): the caller picks every env's action for its player
to act, whichever seat that is. ``step_observe`` returns, per env, the observation of the player
to act (from that player's seat) and his legal mask; ``current_player`` says who that is::

    deals = BatchedDeals(4096, "standard", seed=0)
    obs, masks = deals.reset()
    for _ in range(1000):
        seat = deals.current_player                       # (N,) 0 or 1
        actions = np.where(seat == 0, policy_a(obs, masks), policy_b(obs, masks))
        obs, masks, rewards, done = deals.step_observe(actions)

``deals.sample_actions()`` and ``deals.heuristic_actions()`` are vectorised random and heuristic
policies for the players to act. ``rewards[i, p]`` is player ``p``'s reward for the action; a
finished deal is reported in ``done`` (with ``last_winner`` / ``last_game_points`` /
``last_termination``) and, with ``autoreset`` (default), replaced at once by a new deal from the
batch's own seeded RNG.

With a built-in opponent (``opponent="random"`` or ``"heuristic"``) the batch plays one seat itself
inside the kernels, so every env is always at the other seat's (the learner's) decision.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np

from ..actions import NUM_ACTIONS, actions_of
from ..checks import as_index, check_bool, check_choice, check_int, check_real, is_choice
from ..engine import MAX_DEAL_ACTIONS, Deal, IllegalActionError, Outcome, Termination
from ..rewards import DEFAULT_SHAPING_SCALE, REWARD_SCHEMES, check_reward_scheme
from ..rules import Rules, get_rules
from . import kernels as K
from .cache import announce_compile
from .heuristic import heuristic_actions_kernel
from .state import (
    COLUMNS,
    CURRENT,
    DECISION,
    NUM_FIELDS,
    OBS_SIZE,
    POINTS,
    STATE_DTYPE,
    TERMINATION,
    arrangement_rows,
    check_rows,
    encode_rules,
)

__all__ = ["BatchedDeals", "DealerMode", "PARALLEL_MIN_ENVS", "OPPONENTS"]

DealerMode = Literal["random", "alternate", 0, 1]
"""Who deals each new deal of a batch: ``"random"``, ``"alternate"``, or always seat 0 or 1."""
_DEALER_MODES: dict[int | str, int] = {
    0: K.DEALER_ZERO,
    1: K.DEALER_ONE,
    "alternate": K.DEALER_ALTERNATE,
    "random": K.DEALER_RANDOM,
}
OPPONENTS = {"random": K.OPPONENT_RANDOM, "heuristic": K.OPPONENT_HEURISTIC}
"""Built-in opponents, played inside the kernels: uniform over the legal actions, or
``HeuristicAgent`` (``sixtysix_env.fast.heuristic``)."""
MAX_ENVS = 1 << 22
"""The most envs one batch takes (about 1.5 KB each)."""
PARALLEL_MIN_ENVS = 16384
"""With ``parallel=None`` the batch uses all cores from this many envs on. Below it, handing work
to threads costs more than it saves; on a busy 2-core machine threads gain little even above it
(``benchmarks/bench_batched.py`` measures both)."""

_POOL: ThreadPoolExecutor | None = None


def _int_array(name: str, values: object) -> np.ndarray:
    """``values`` as an integer array (never cast: 1.5 or 256 must not become a card or a dealer)."""
    out = np.asarray(values)
    if out.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integers, got {values!r} (dtype {out.dtype})")
    return out


def _pool() -> ThreadPoolExecutor:
    """One process-wide pool for the kernels (they release the GIL); created on first use."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 1) - 1), thread_name_prefix="sixtysix")
    return _POOL


Seed = int | np.random.SeedSequence | np.random.Generator | None


class BatchedDeals:
    """N independent deals of one rule set, stepped together.

    Arguments:

    - ``num_envs``: number of deals (1 to 65,536 and beyond; memory is ``bytes_per_env`` each).
    - ``rules``: a preset name or a ``Rules`` object (every two-player preset is supported; a
      ``Rules`` field the kernels do not know raises ``UnsupportedRuleError``).
    - ``reward``: ``"game_points"``, ``"win_loss"`` or ``"shaped"`` (as ``rewards.step_rewards``
      in deal episodes).
    - ``shaping_scale``: the ``shaped`` scheme's factor on the change in counted points.
    - ``autoreset``: replace a finished deal by a new random one within the same ``step``.
    - ``dealer``: who deals each new random deal: ``"random"``, ``"alternate"`` (per env, from a
      random first dealer), or a fixed seat ``0`` / ``1``.
    - ``seed``: seeds the batch's RNG (two splitmix64 streams per env: deals and sampled actions),
      so a seeded batch replays exactly, whatever the batch size's threading.
    - ``parallel``: split the envs over all cores (threads running the GIL-free kernels on
      slices of the arrays); ``None`` does so from ``PARALLEL_MIN_ENVS`` envs on.
    - ``opponent``: ``None`` for self-play (the caller acts for both seats), or a built-in opponent
      played inside the batch (``OPPONENTS``: ``"random"``, ``"heuristic"``): ``step`` then
      returns only when the other seat (the learner) is to act or the deal ended. A seat
      ``0``/``1`` here means the random opponent in that seat (the older form).
    - ``opponent_seat``: the built-in opponent's seat, ``0``, ``1`` (default) or ``"random"``: drawn
      for every deal from the batch's seeded RNG (``opponent_seats`` has each env's).
    - ``final_observation_seat``: when set (0, 1, or ``"learner"``: the seat facing the built-in
      opponent in each env), a deal that ends writes that seat's observation of the
      finished deal to ``final_observations[i]`` before any reset.
    """

    def __init__(
        self,
        num_envs: int,
        rules: str | Rules | None = None,
        *,
        reward: str = "game_points",
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        autoreset: bool = True,
        dealer: DealerMode = "random",
        seed: Seed = None,
        parallel: bool | None = None,
        opponent: str | int | None = None,
        opponent_seat: int | Literal["random"] = 1,
        final_observation_seat: int | Literal["learner"] | None = None,
    ) -> None:
        n = check_int("num_envs", num_envs, 1, MAX_ENVS)
        check_choice("dealer", dealer, _DEALER_MODES)
        dealer = as_index(dealer) if as_index(dealer) is not None else dealer  # type: ignore[assignment]
        if is_choice(opponent, 0) or is_choice(opponent, 1):  # the older form: a random opponent's seat
            opponent, opponent_seat = "random", int(opponent)
        check_choice("opponent", opponent, (None, *OPPONENTS))
        check_choice("opponent_seat", opponent_seat, (0, 1, "random"))
        check_choice("final_observation_seat", final_observation_seat, (None, 0, 1, "learner"))
        if as_index(opponent_seat) is not None:
            opponent_seat = as_index(opponent_seat)  # type: ignore[assignment]
        if as_index(final_observation_seat) is not None:
            final_observation_seat = as_index(final_observation_seat)
        if final_observation_seat == "learner" and opponent is None:
            raise ValueError("final_observation_seat='learner' needs a built-in opponent")
        self.num_envs = n
        self.rules = get_rules(rules)
        self.params = encode_rules(self.rules)
        self.reward = check_reward_scheme(reward)
        self.shaping_scale = check_real("shaping_scale", shaping_scale)
        self.autoreset = check_bool("autoreset", autoreset)
        self.opponent = opponent
        self.opponent_seat = opponent_seat if opponent is not None else None
        self.parallel = (n >= PARALLEL_MIN_ENVS) if parallel is None else check_bool("parallel", parallel)
        threads = min(os.cpu_count() or 1, n) if self.parallel else 1
        bounds = np.linspace(0, n, threads + 1).astype(int)
        self._slices = [slice(a, b) for a, b in itertools.pairwise(bounds)]
        self.config = np.zeros(K.NUM_CONFIG, dtype=np.int64)
        self.config[K.C_REWARD] = REWARD_SCHEMES.index(self.reward)
        self.config[K.C_AUTORESET] = int(self.autoreset)
        self.config[K.C_DEALER_MODE] = _DEALER_MODES[dealer]
        # by now opponent is None or a name (check_choice above): str() only tells the type checker
        self.config[K.C_OPPONENT] = K.NO_OPPONENT if opponent is None else OPPONENTS[str(opponent)]
        self.config[K.C_OPPONENT_SEAT] = K.SEAT_RANDOM if opponent_seat == "random" else opponent_seat
        if final_observation_seat is None:
            self.config[K.C_FINAL_SEAT] = -1
        elif final_observation_seat == "learner":
            self.config[K.C_FINAL_SEAT] = K.FINAL_SEAT_LEARNER
        else:
            self.config[K.C_FINAL_SEAT] = final_observation_seat
        # State and per-env bookkeeping (see state.py for the columns).
        self.state = np.zeros((n, NUM_FIELDS), dtype=STATE_DTYPE)
        self.decks = np.zeros((n, self.rules.deck_size), dtype=np.int8)
        self.history = np.zeros((n, MAX_DEAL_ACTIONS), dtype=np.int8)
        self.rng_state = np.zeros((n, 2), dtype=np.uint64)
        fixed_seat = -1 if opponent is None else 0 if opponent_seat == "random" else opponent_seat
        self._seats = np.full(n, fixed_seat, dtype=np.int8)  # each env's opponent seat (drawn per deal)
        # Output buffers, reused by every step (``step_observe`` returns them).
        self._obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self._masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros((n, 2), dtype=np.float64)
        self._done = np.zeros(n, dtype=np.bool_)
        self.final_observations = np.zeros((n if final_observation_seat is not None else 0, OBS_SIZE), np.float32)
        """Observation of each env's last finished deal for ``final_observation_seat`` (if set)."""
        self.last_winner = np.full(n, -1, dtype=np.int8)
        """Winner (-1 drawn) of the deal each env finished last (valid where ``done`` was set)."""
        self.last_game_points = np.zeros(n, dtype=np.int8)
        self.last_termination = np.full(n, -1, dtype=np.int8)
        self._actions = np.zeros(n, dtype=np.int64)
        self._no_players = np.full(n, -1, dtype=np.int8)
        self._step_views = self._make_views()
        self._seeded = False
        announce_compile()
        self.reset(seed=seed)

    def _make_views(self) -> dict[int, tuple[Any, ...]]:
        """The step's per-slice views, made once (slicing a dozen arrays per step costs microseconds)."""
        return {
            sl.start: (
                self.state[sl], self.decks[sl], self.history[sl], self.rng_state[sl], self._seats[sl],
                self._rewards[sl], self._done[sl], self.last_winner[sl], self.last_game_points[sl],
                self.last_termination[sl], (self._obs[sl], self._masks[sl], self.final_observations[sl]),
            )
            for sl in self._slices
        }  # fmt: skip

    # Copies (pickle, copy.deepcopy: Ray, multiprocessing, checkpoints) hold their own arrays; the
    # views into them are made again, or the copy would step arrays it no longer reads.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_step_views"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._step_views = self._make_views()

    # ------------------------------------------------------------------ creation
    def seed(self, seed: Seed = None) -> None:
        """Seed both RNG streams of every env from ``seed`` (None: fresh OS entropy)."""
        gen = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.rng_state[:] = gen.integers(0, 2**64 - 1, size=self.rng_state.shape, dtype=np.uint64, endpoint=True)
        self._seeded = True

    def reset(
        self,
        seed: Seed = None,
        arrangements: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int], int]] | None = None,
        *,
        decks: np.ndarray | None = None,
        dealers: np.ndarray | Sequence[int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Start every env on a new deal and return (observations, legal masks) for the players to
        act (the batch's buffers: copy them to keep them past the next call).

        Random deals come from the batch's RNG (reseeded by ``seed``). Given cards come either as
        ``arrangements``, one ``Deal.arrangement``-style tuple ``(hand0, hand1, stock top first,
        dealer)`` per env, or as ``decks`` (N, deck_size) rows of hand 0, hand 1 and the stock
        bottom first (face-up card first) with ``dealers`` (N,)."""
        from_rows = arrangements is not None or decks is not None
        if arrangements is not None:
            if decks is not None:
                raise ValueError("give arrangements or decks, not both")
            if isinstance(arrangements, str) or not isinstance(arrangements, Sequence):
                raise ValueError(f"arrangements must be a list of {self.num_envs} tuples, got {arrangements!r}")
            if len(arrangements) != self.num_envs:
                raise ValueError(f"need {self.num_envs} arrangements (one per env), got {len(arrangements)}")
            rows, dealer_rows = arrangement_rows(arrangements, self.rules)
        elif decks is not None:
            if dealers is None:
                raise ValueError("decks need dealers (N,) too")
            rows = _int_array("decks", decks)
            dealer_rows = _int_array("dealers", dealers)
            if rows.ndim != 2 or rows.shape[0] != self.num_envs or dealer_rows.shape != (self.num_envs,):
                raise ValueError(
                    f"decks and dealers must have {self.num_envs} rows, got {rows.shape}, {dealer_rows.shape}"
                )
        elif dealers is not None:
            raise ValueError("dealers go with decks: give both (or arrangements, which hold their dealers)")
        if from_rows:
            check_rows(rows, dealer_rows, self.rules)  # before any cast, so 256 is no dealer 0
            rows, dealer_rows = rows.astype(np.int8), dealer_rows.astype(np.int8)
        else:
            dealer_rows = self._no_players
        # Checked: from here on the reset cannot fail, so a rejected one leaves the batch as it was.
        if seed is not None or not self._seeded:
            self.seed(seed)
        if from_rows:
            self.decks[:] = rows
        self.state[:, COLUMNS["SCORES"] : COLUMNS["SCORES"] + 2] = 0
        self.config[K.C_WRITE_OBS] = 1
        self._run(
            K.reset_envs,
            lambda sl: (
                self.state[sl], self.params, self.decks[sl], self.history[sl], self.rng_state[sl], self.config,
                self._seats[sl], from_rows, dealer_rows[sl], self._obs[sl], self._masks[sl],
            ),
        )  # fmt: skip
        self._done[:] = False
        return self._obs, self._masks

    def redeal(self, rows: np.ndarray | Sequence[int]) -> None:
        """New random deals in the envs ``rows`` only (their observations and masks rewritten),
        for an end the engine does not know, such as the vector env's illegal action."""
        idx = np.asarray(rows, dtype=np.intp)
        if idx.size == 0:
            return
        wholes: tuple[np.ndarray, ...] = (self.state, self.decks, self.history, self.rng_state, self._seats)
        parts = [a[idx] for a in wholes]
        obs, masks = self._obs[idx], self._masks[idx]
        parts[0][:, COLUMNS["SCORES"] : COLUMNS["SCORES"] + 2] = 0
        self.config[K.C_WRITE_OBS] = 1
        state, decks, history, rng, seats = parts
        dealers = self._no_players[idx]
        K.reset_envs(state, self.params, decks, history, rng, self.config, seats, False, dealers, obs, masks)
        for whole, part in zip(wholes, parts, strict=True):
            whole[idx] = part
        self._obs[idx], self._masks[idx] = obs, masks

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> np.ndarray:
        """(N,) int8: the player to act in each env, -1 where the deal is over."""
        s = self.state
        return np.where(s[:, TERMINATION] < 0, s[:, CURRENT], -1).astype(np.int8)

    @property
    def decision(self) -> np.ndarray:
        """(N,) int8: ``engine.Decision`` of each env (-1 where the deal is over)."""
        s = self.state
        return np.where(s[:, TERMINATION] < 0, s[:, DECISION], -1).astype(np.int8)

    @property
    def opponent_seats(self) -> np.ndarray:
        """(N,) int8: the built-in opponent's seat in each env's current deal (-1 in self-play)."""
        return self._seats.copy()

    @property
    def learner_seats(self) -> np.ndarray:
        """(N,) int8: the seat facing the built-in opponent in each env's current deal (-1 in
        self-play). Read it before ``step`` to know whose reward a finished deal pays: with
        ``opponent_seat="random"`` an auto-reset deal may seat the learner differently."""
        if self.opponent is None:
            return np.full(self.num_envs, -1, dtype=np.int8)
        return (1 - self._seats).astype(np.int8, copy=False)

    @property
    def is_over(self) -> np.ndarray:
        return self.state[:, TERMINATION] >= 0

    @property
    def points(self) -> np.ndarray:
        """(N, 2) counted points of each player (tricks plus marriages that count)."""
        return self.state[:, POINTS : POINTS + 2].copy()

    @property
    def bytes_per_env(self) -> int:
        """Memory of one env: state, deck, history, RNG and the output buffers."""
        arrays = (
            self.state, self.decks, self.history, self.rng_state, self._obs, self._masks, self._rewards,
            self._done, self.last_winner, self.last_game_points, self.last_termination, self._actions,
            self._seats, self.final_observations,
        )  # fmt: skip
        return sum(a.nbytes for a in arrays) // self.num_envs

    def legal_mask_bits(self) -> np.ndarray:
        """(N,) uint32: bit ``a`` set when action ``a`` is legal (0 for a finished deal)."""
        return self.state[:, COLUMNS["MASK"]].view(np.uint32).copy()

    def legal_masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, 32) int8 legal action masks of the players to act (all zero for a finished deal)."""
        if out is None:
            out = np.empty((self.num_envs, NUM_ACTIONS), dtype=np.int8)
        K.write_masks(self.state, out)
        return out

    def observe(self, player: int | np.ndarray | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """(N, 235) float32 vector observations, for the player to act (``None``), for one seat
        for every env (0 or 1), or per env (an (N,) array of seats, -1 for the player to act).
        For a finished deal "the player to act" is the engine's last ``Deal.current``."""
        if player is None:
            players = self._no_players
        elif np.isscalar(player):
            if player not in (0, 1):
                raise ValueError(f"player must be 0, 1 or None, got {player!r}")
            players = np.full(self.num_envs, player, dtype=np.int8)
        else:
            players = np.asarray(player).astype(np.int8)
            if players.shape != (self.num_envs,) or ((players < -1) | (players > 1)).any():
                raise ValueError(f"player array must have shape ({self.num_envs},) with values -1, 0, 1")
        if out is None:
            out = np.empty((self.num_envs, OBS_SIZE), dtype=np.float32)
        elif out.shape != (self.num_envs, OBS_SIZE) or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float32 array of shape ({self.num_envs}, {OBS_SIZE})")
        self._run(K.observe_envs, lambda sl: (self.state[sl], self.params, players[sl], out[sl]))
        return out

    def sample_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) int64: a uniformly random legal action per env from the batch's seeded action
        stream (-1 where the deal is over): a vectorised random policy."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        self._run(K.sample_actions, lambda sl: (self.state[sl], self.rng_state[sl], out[sl]))
        return out

    def heuristic_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) int64: ``HeuristicAgent``'s action for the player to act in each env (-1 where the
        deal is over), from what that player may know: a vectorised, deterministic policy."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        self._run(heuristic_actions_kernel, lambda sl: (self.state[sl], self.params, out[sl]))
        return out

    # ------------------------------------------------------------------ moves
    def step(self, actions: np.ndarray | Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """Play ``actions[i]`` for the player to act in env ``i`` (-1: env ``i`` does not act;
        required for a finished deal when ``autoreset`` is off). Returns new arrays
        (rewards (N, 2) float64 per player, done (N,) bool).

        Raises ``IllegalActionError`` (a ``ValueError``) naming the first env with an illegal
        action, the action and its legal ones; then no env has changed."""
        self._step(actions, write_obs=False)
        return self._rewards.copy(), self._done.copy()

    def step_observe(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``step`` fused with the next view: (observations for the players to act, legal masks,
        rewards, done). Fastest path; the arrays are the batch's buffers, overwritten by the next
        call (copy what you keep)."""
        self._step(actions, write_obs=True)
        return self._obs, self._masks, self._rewards, self._done

    def _step(self, actions: np.ndarray | Sequence[int], write_obs: bool) -> None:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {a.dtype}")
        given = a
        if a.dtype.kind == "u" and a.dtype.itemsize == 8:  # 2**64-1 would wrap to -1 ("no action")
            a = np.minimum(a, NUM_ACTIONS)  # every value past 31 is illegal alike
        if a.dtype != np.int64 or not a.flags.c_contiguous:
            a = a.astype(np.int64)
        bad = K.first_illegal(self.state, a)  # before any env changes; -1 is "no action", -5 is illegal
        if bad >= 0:
            self._raise_illegal(int(bad), int(given[bad]))
        self.config[K.C_WRITE_OBS] = int(write_obs)
        single = len(self._slices) == 1

        def args(sl: slice) -> tuple[Any, ...]:
            state, decks, history, rng, seats, rewards, done, winner, points, termination, io = self._step_views[
                sl.start
            ]
            return (state, self.params, decks, history, rng, self.config, seats, self.shaping_scale,
                    a if single else a[sl], rewards, done, winner, points, termination, io)  # fmt: skip

        self._run(K.step_envs, args)

    def _run(self, kernel: Callable[..., Any], args: Callable[[slice], tuple[Any, ...]]) -> None:
        """Run ``kernel`` over all envs: at once, or on one slice per core, this thread taking the
        first slice while the pool's threads take the others."""
        if len(self._slices) == 1:
            kernel(*args(self._slices[0]))
            return
        futures = [_pool().submit(kernel, *args(sl)) for sl in self._slices[1:]]
        kernel(*args(self._slices[0]))
        for f in futures:
            f.result()

    def _raise_illegal(self, i: int, action: int) -> None:
        legal = actions_of(int(self.legal_mask_bits()[i]))
        where = f"env {i} ({self.deal(i).describe()})"
        if not legal:
            where += " whose deal is over (pass -1 for it, or use autoreset)"
        raise IllegalActionError(action, legal, where)

    # ------------------------------------------------------------------ reference views
    def arrangement(self, i: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
        """Env ``i``'s deal as ``Deal.arrangement``: (hand0, hand1, stock top first, dealer)."""
        n = self.rules.hand_size
        row = [int(c) for c in self.decks[i]]
        return (
            tuple(row[:n]),
            tuple(row[n : 2 * n]),
            tuple(reversed(row[2 * n :])),
            int(self.state[i, COLUMNS["DEALER"]]),
        )

    def deal(self, i: int) -> Deal:
        """Env ``i`` as a reference ``Deal`` (its arrangement with the actions played so far):
        for debugging, rendering, and search agents that need the full engine."""
        h0, h1, stock, dealer = self.arrangement(i)
        d = Deal.from_arrangement((h0, h1), stock, dealer, self.rules)
        moves = int(self.state[i, COLUMNS["NUM_MOVES"]])
        for a in self.history[i, : min(moves, MAX_DEAL_ACTIONS)]:
            d.apply(int(a))
        return d

    def outcome(self, i: int) -> Outcome | None:
        """Env ``i``'s outcome, or None while its deal runs."""
        s = self.state[i]
        if s[TERMINATION] < 0:
            return None
        return Outcome(int(s[COLUMNS["WINNER"]]), int(s[COLUMNS["GAME_POINTS"]]), Termination(int(s[TERMINATION])))

    def __repr__(self) -> str:
        return (
            f"<BatchedDeals n={self.num_envs} rules={self.rules.name} reward={self.reward} "
            f"autoreset={self.autoreset} parallel={self.parallel} opponent={self.opponent}>"
        )
