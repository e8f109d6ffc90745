"""PureJaxRL-style PPO in one jitted function: self-play on both seats of the JAX engine.

    python examples/jax_ppo.py --minutes 30 --eval-every 300 --curve results/jax_ppo --jax-eval-deals 2000
    python -m sixtysix_env.arena --agents ppo:path=results/jax_ppo.npz,heuristic --deals 2000 --seed 0

The environment is ``sixtysix_env.jax.SixtySix`` (a Pgx ``Env``; ``pip install -e ".[jax]"``),
``--num-envs`` deals stepped by ``jax.vmap(pgx.experimental.auto_reset(env.step, env.init))``
(``--reset compact``: by ``sixtysix_env.jax.compact_auto_reset``, which deals fewer new deals per step).
One call of the jitted ``update`` plays ``--num-steps`` steps of every deal (``lax.scan``) and
then runs ``--epochs`` epochs of ``--minibatches`` minibatches of PPO on them (``lax.scan``
again): rollout and learning never leave XLA.

Self-play: every decision of both seats is a learner decision, taken by the same network from
that seat's observation (the vector encoder's 235 floats, ``observers.VECTOR_LAYOUT``). The
advantages are computed per seat: a seat's transition runs from its decision to its own next
decision in the same deal, or to the deal's end, and earns that seat's reward (game points at
the deal's end); the other seat's moves in between are part of its environment. With
``--league F`` a fraction F of the deals has the built-in heuristic (``heuristic_action``, in
JAX) in one seat instead: only the other seat's decisions there are learner decisions.

The policy masks illegal logits to the float32 minimum before the softmax (CleanRL's and
RLlib's masked policies do the same), and the network is ``examples/cleanrl_ppo.py``'s: two
tanh layers of ``--hidden`` units shared by a policy and a value head. It is written with
``jax.numpy`` alone, and Adam is six lines below: neither flax nor optax is needed.

Every ``--eval-every`` seconds the greedy policy plays 500 duplicate deals against the heuristic
on the numba engine (``sixtysix_env.integrations.curve``, as every example), and at the end
``--eval-deals`` (2,000 by default); ``--jax-eval-deals`` also plays duplicate deals against
the JAX heuristic inside XLA. The weights are saved as numpy (``--save-npz``) in the format the
``ppo`` agent plays: ``ppo:path=FILE``. The first command is the run of docs/jax.md (pure
self-play, 30 minutes on 2 shared CPU cores: +0.379 [+0.338, +0.420] game points per deal
against the heuristic over 2,000 duplicate deals).
"""

from __future__ import annotations

import argparse
import math
import time
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from sixtysix_env.cli_options import add_rules, add_seed, non_negative_float, positive_float, positive_int, unit_float
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments
from sixtysix_env.jax.reset import batched_auto_reset

PRINT_EVERY_S = 25.0
"""A progress line at least this often (a call of ``update`` must take less)."""

Params = dict[str, jax.Array]


# ---------------------------------------------------------------------- options
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    add_rules(p)
    add_seed(p, help="seed of the network, the deals and the actions")
    p.add_argument(
        "--env",
        default="sixtysix",
        help="sixtysix (the JAX engine), or a two-player Pgx game id (e.g. leduc_holdem) to try the loop on",
    )
    p.add_argument(
        "--reset",
        choices=("compact", "pgx"),
        default="pgx",
        help="how finished deals are replaced: pgx.experimental.auto_reset (under vmap every deal is dealt anew at "
        "every step, most thrown away) or compact_auto_reset (at most an eighth of the deals per step; sixtysix only)",
    )
    p.add_argument("--num-envs", type=positive_int, default=512, help="deals stepped together")
    p.add_argument("--num-steps", type=positive_int, default=32, help="steps of every deal per update")
    p.add_argument(
        "--total-steps",
        type=positive_int,
        default=None,
        help="decisions of both seats (default 20,000,000; no limit with --minutes)",
    )
    p.add_argument("--minutes", type=positive_float, default=None, help="stop after the update that passes this")
    p.add_argument("--lr", type=positive_float, default=3e-4)
    p.add_argument("--gamma", type=unit_float, default=1.0, help="a deal is short and only its end pays")
    p.add_argument("--gae-lambda", type=unit_float, default=0.95)
    p.add_argument("--epochs", type=positive_int, default=4)
    p.add_argument("--minibatches", type=positive_int, default=8)
    p.add_argument("--clip", type=positive_float, default=0.2)
    p.add_argument("--ent-coef", type=non_negative_float, default=0.01)
    p.add_argument("--vf-coef", type=non_negative_float, default=0.5)
    p.add_argument("--max-grad-norm", type=positive_float, default=0.5)
    p.add_argument("--hidden", type=positive_int, default=256)
    p.add_argument(
        "--league",
        type=unit_float,
        default=0.0,
        help="fraction of the deals with the JAX heuristic in one seat (0: pure self-play)",
    )
    add_curve_arguments(p)
    p.add_argument(
        "--jax-eval-deals",
        type=positive_int,
        default=None,
        help="at the end, also this many duplicate deals against the JAX heuristic inside XLA",
    )
    p.add_argument(
        "--save-npz",
        default="results/jax_ppo.npz",
        help="write the weights here as the ppo agent's numpy file: ppo:path=FILE.npz ('' saves nothing)",
    )
    args = p.parse_args(argv)
    if args.save_npz and not args.save_npz.endswith(".npz"):
        p.error(f"--save-npz must name a .npz file, got {args.save_npz!r}")
    if args.num_envs * args.num_steps < args.minibatches:
        p.error(f"--num-envs x --num-steps ({args.num_envs * args.num_steps}) is fewer than --minibatches")
    if args.env != "sixtysix" and args.reset == "compact":
        p.error("--reset compact reads the Sixty-Six deal's own state: --env sixtysix")
    if args.env != "sixtysix" and (args.league or args.jax_eval_deals):
        p.error("--league and --jax-eval-deals need the JAX heuristic: --env sixtysix")
    return args


def make_env(name: str = "sixtysix", rules: str = "standard") -> Any:
    """The Pgx environment: Sixty-Six's JAX engine, or one of Pgx's own two-player games."""
    if name == "sixtysix":
        from sixtysix_env.jax import SixtySix

        return SixtySix(rules=rules)
    import pgx

    return pgx.make(name)


# ---------------------------------------------------------------------- network
def init_params(key: jax.Array, obs_size: int, num_actions: int, hidden: int) -> Params:
    """Weights in torch's layout (``W`` is (out, in)), so the numpy file takes them as they are.
    Orthogonal init as PureJaxRL's: gain sqrt(2) in the body, 0.01 for the policy head (a
    near-uniform first policy), 1 for the value head."""
    ortho = jax.nn.initializers.orthogonal
    k = jax.random.split(key, 4)
    shapes = ((hidden, obs_size), (hidden, hidden), (num_actions, hidden), (1, hidden))
    gains = (math.sqrt(2), math.sqrt(2), 0.01, 1.0)
    names = ("w0", "w1", "pi_w", "v_w")
    params = {n: ortho(g)(kk, s, jnp.float32) for n, g, kk, s in zip(names, gains, k, shapes, strict=True)}
    for n, s in zip(("b0", "b1", "pi_b", "v_b"), shapes, strict=True):
        params[n] = jnp.zeros(s[0], jnp.float32)
    return params


def forward(params: Params, obs: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Logits (..., actions) and value (...) of observations (..., obs_size)."""
    h = jnp.tanh(obs @ params["w0"].T + params["b0"])
    h = jnp.tanh(h @ params["w1"].T + params["b1"])
    return h @ params["pi_w"].T + params["pi_b"], (h @ params["v_w"].T + params["v_b"])[..., 0]


def masked_logits(logits: jax.Array, mask: jax.Array) -> jax.Array:
    """Illegal actions get the float32 minimum: probability 0, and no NaN from ``-inf - -inf``."""
    return jnp.where(mask, logits, jnp.finfo(jnp.float32).min)


def greedy_action(params: Params, obs: jax.Array, mask: jax.Array) -> jax.Array:
    """The most probable legal action (evaluation)."""
    return jnp.argmax(masked_logits(forward(params, obs)[0], mask), axis=-1)


# ---------------------------------------------------------------------- Adam, by hand
class AdamState(NamedTuple):
    step: jax.Array
    mu: Params
    nu: Params


def adam_init(params: Params) -> AdamState:
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return AdamState(jnp.zeros((), jnp.int32), zeros, zeros)


def adam_update(
    grads: Params, state: AdamState, params: Params, lr: float, max_norm: float, b1: float = 0.9, b2: float = 0.999
) -> tuple[Params, AdamState]:
    """Clip the gradient's global norm to ``max_norm``, then one Adam step (eps 1e-5 as CleanRL)."""
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree_util.tree_leaves(grads)))
    grads = jax.tree_util.tree_map(lambda g: g * jnp.minimum(1.0, max_norm / (norm + 1e-6)), grads)
    step = state.step + 1
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, grads)
    scale = lr * jnp.sqrt(1 - b2**step) / (1 - b1**step)
    params = jax.tree_util.tree_map(lambda p, m, v: p - scale * m / (jnp.sqrt(v) + 1e-5), params, mu, nu)
    return params, AdamState(step, mu, nu)


# ---------------------------------------------------------------------- training
class Transition(NamedTuple):
    obs: jax.Array  # (N, obs_size) float32, the acting seat's view
    mask: jax.Array  # (N, actions) bool
    action: jax.Array  # (N,)
    logp: jax.Array  # (N,)
    value: jax.Array  # (N,)
    player: jax.Array  # (N,) the acting seat
    learner: jax.Array  # (N,) bool: a learner decision (not the league heuristic's)
    rewards: jax.Array  # (N, 2) both seats' rewards for this step
    done: jax.Array  # (N,) the deal ended with this step (the next state is a new deal)


class Runner(NamedTuple):
    params: Params
    opt: AdamState
    env_state: Any
    key: jax.Array
    heuristic_seat: jax.Array  # (N,) the league heuristic's seat, -1 in self-play deals


def per_seat_gae(traj: Transition, last_values: jax.Array, gamma: float, lam: float) -> tuple[jax.Array, jax.Array]:
    """Advantages and returns (T, N) with each seat's decisions chained to its own next decision.

    Backwards through time, each deal carries per seat: the value and advantage of that seat's
    next decision (``last_values`` (N, 2) past the rollout's end), and the reward it has earned
    since. A step that ended the deal cuts both chains (the reward is that step's); otherwise
    its rewards add to both seats' pending rewards. The acting seat then closes its transition:
    ``delta = r + gamma * V(its next decision) - V(now)``, GAE over its own decisions only."""

    def back(carry: tuple[jax.Array, jax.Array, jax.Array], tr: Transition) -> tuple[Any, jax.Array]:
        v_next, a_next, pending = carry
        done = tr.done[:, None]
        pending = jnp.where(done, tr.rewards, pending + tr.rewards)
        v_next = jnp.where(done, 0.0, v_next)
        a_next = jnp.where(done, 0.0, a_next)
        seat = jax.nn.one_hot(tr.player, 2, dtype=jnp.bool_)
        reward = jnp.sum(jnp.where(seat, pending, 0.0), axis=1)
        delta = reward + gamma * jnp.sum(jnp.where(seat, v_next, 0.0), axis=1) - tr.value
        adv = delta + gamma * lam * jnp.sum(jnp.where(seat, a_next, 0.0), axis=1)
        v_next = jnp.where(seat, tr.value[:, None], v_next)
        a_next = jnp.where(seat, adv[:, None], a_next)
        pending = jnp.where(seat, 0.0, pending)
        return (v_next, a_next, pending), adv

    zeros = jnp.zeros_like(last_values)
    _, adv = jax.lax.scan(back, (last_values, zeros, zeros), traj, reverse=True)
    return adv, adv + traj.value


def make_train(env: Any, cfg: argparse.Namespace) -> tuple[Callable[[jax.Array], Runner], Callable[..., Any]]:
    """``init(key) -> Runner`` and ``update(runner) -> (runner, metrics)``: one rollout of
    ``num_steps`` steps of ``num_envs`` deals and the PPO epochs on it (jit ``update`` yourself)."""

    n, t_steps = cfg.num_envs, cfg.num_steps
    compact = cfg.reset == "compact"
    if compact:
        from sixtysix_env.jax import RUNNING as running
    step_fn = batched_auto_reset(env, n, compact)

    with warnings.catch_warnings():  # Pgx marks observe(state, player) deprecated; it is what a bootstrap needs
        warnings.simplefilter("ignore", DeprecationWarning)
        obs_size = int(np.prod(env.observation_shape))
    num_actions = int(env.num_actions)
    n_league = round(cfg.league * n)
    heuristic: Callable[[Any], jax.Array] | None = None
    if n_league:
        from sixtysix_env.jax import heuristic_action

        heuristic = jax.vmap(heuristic_action)

    def observe_seat(state: Any, seat: jax.Array) -> jax.Array:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return env.observe(state, seat)

    def observe_seat_all(state: Any, seat: int) -> jax.Array:
        obs = jax.vmap(observe_seat, in_axes=(0, None))(state, jnp.int32(seat))
        return obs.reshape(n, -1).astype(jnp.float32)

    def init(key: jax.Array) -> Runner:
        k_net, k_env, key = jax.random.split(key, 3)
        params = init_params(k_net, obs_size, num_actions, cfg.hidden)
        state = jax.vmap(env.init)(jax.random.split(k_env, n))
        seats = jnp.full(n, -1, jnp.int32).at[:n_league].set(jnp.arange(n_league, dtype=jnp.int32) % 2)
        return Runner(params, adam_init(params), state, key, seats)

    def rollout_step(carry: tuple[Params, Any, jax.Array, jax.Array], _: None) -> tuple[Any, Transition]:
        params, state, key, seats = carry
        key, k_act, k_step = jax.random.split(key, 3)
        obs = state.observation.reshape(n, -1).astype(jnp.float32)
        mask = state.legal_action_mask
        logits, value = forward(params, obs)
        logits = masked_logits(logits, mask)
        action = jax.random.categorical(k_act, logits)
        player = state.current_player
        learner = player != seats
        if compact:  # a deal left over for want of a new one: no decision (see compact_auto_reset)
            learner &= state.game.termination == running
        if heuristic is not None:
            action = jnp.where(learner, action, heuristic(state))
        logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
        state = step_fn(state, action, k_step)
        done = state.terminated | state.truncated
        tr = Transition(obs, mask, action, logp, value, player, learner, state.rewards.astype(jnp.float32), done)
        return (params, state, key, seats), tr

    def loss_fn(params: Params, b: Transition, adv: jax.Array, ret: jax.Array) -> tuple[jax.Array, Any]:
        w = b.learner.astype(jnp.float32)
        count = jnp.maximum(w.sum(), 1.0)
        logits, value = forward(params, b.obs)
        logits = masked_logits(logits, b.mask)
        logp_all = jax.nn.log_softmax(logits)
        logp = jnp.take_along_axis(logp_all, b.action[:, None], axis=1)[:, 0]
        probs = jnp.exp(logp_all)
        entropy = -jnp.sum(jnp.where(b.mask, probs * logp_all, 0.0), axis=1)
        mean = jnp.sum(w * adv) / count
        std = jnp.sqrt(jnp.sum(w * (adv - mean) ** 2) / count)
        a = (adv - mean) / (std + 1e-8)
        ratio = jnp.exp(logp - b.logp)
        pg = jnp.maximum(-a * ratio, -a * jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip))
        pg_loss = jnp.sum(w * pg) / count
        v_loss = jnp.sum(w * (value - ret) ** 2) / count
        ent = jnp.sum(w * entropy) / count
        approx_kl = jnp.sum(w * ((ratio - 1) - (logp - b.logp))) / count
        loss = pg_loss + cfg.vf_coef * v_loss - cfg.ent_coef * ent
        return loss, (pg_loss, v_loss, ent, approx_kl)

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)

    def update(runner: Runner) -> tuple[Runner, dict[str, jax.Array]]:
        params, opt, state, key, seats = runner
        (params, state, key, seats), traj = jax.lax.scan(rollout_step, (params, state, key, seats), None, t_steps)
        # (N, 2): each seat's value of the state the rollout stopped in, from its own view
        last_values = jnp.stack([forward(params, observe_seat_all(state, s))[1] for s in (0, 1)], axis=1)
        adv, ret = per_seat_gae(traj, last_values, cfg.gamma, cfg.gae_lambda)
        size = t_steps * n
        flat = jax.tree_util.tree_map(lambda x: x.reshape(size, *x.shape[2:]), (traj, adv, ret))
        mb = size // cfg.minibatches

        def epoch(carry: tuple[Params, AdamState, jax.Array], _: None) -> tuple[Any, Any]:
            params, opt, key = carry
            key, k_perm = jax.random.split(key)
            perm = jax.random.permutation(k_perm, size)[: mb * cfg.minibatches]
            batches = jax.tree_util.tree_map(lambda x: x[perm].reshape(cfg.minibatches, mb, *x.shape[1:]), flat)

            def minibatch(carry: tuple[Params, AdamState], b: Any) -> tuple[Any, Any]:
                params, opt = carry
                (loss, aux), grads = grad_fn(params, *b)
                params, opt = adam_update(grads, opt, params, cfg.lr, cfg.max_grad_norm)
                return (params, opt), (loss, *aux)

            (params, opt), stats = jax.lax.scan(minibatch, (params, opt), batches)
            return (params, opt, key), stats

        (params, opt, key), stats = jax.lax.scan(epoch, (params, opt, key), None, cfg.epochs)
        loss, pg_loss, v_loss, ent, kl = (s.mean() for s in stats)
        # the league deals' learner score: its seat's reward in the deals that ended
        ended = traj.done & (seats >= 0)[None, :]
        learner_seat = (1 - jnp.maximum(seats, 0))[None, :]
        learner_reward = jnp.where(learner_seat == 0, traj.rewards[..., 0], traj.rewards[..., 1])
        league_points = jnp.sum(jnp.where(ended, learner_reward, 0.0))
        metrics = {
            "loss": loss,
            "pg_loss": pg_loss,
            "v_loss": v_loss,
            "entropy": ent,
            "approx_kl": kl,
            "deals": jnp.sum(traj.done),
            "learner_decisions": jnp.sum(traj.learner),
            "league_deals": jnp.sum(ended),
            "league_points": league_points,
        }
        return Runner(params, opt, state, key, seats), metrics

    return init, update


# ---------------------------------------------------------------------- export and evaluation
def to_mlp(params: Params, rules: str, source: str) -> Any:
    """The network as the ``ppo`` agent's numpy weights (``sixtysix_env.agents.mlp``): the policy is
    body + pi head, the value body + v head, tanh between."""
    from sixtysix_env.agents.mlp import vector_policy

    p = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
    body = ((p["w0"], p["b0"]), (p["w1"], p["b1"]))
    return vector_policy(
        (*body, (p["pi_w"], p["pi_b"])), (*body, (p["v_w"], p["v_b"])), activation="tanh", rules=rules, source=source
    )


def numpy_greedy(params: Params) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The batched greedy policy ``duplicate_eval`` plays (numpy, from a copy of the weights)."""
    mlp = to_mlp(params, "standard", "evaluation")

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = np.where(masks.astype(bool), mlp.batch_logits(obs), np.finfo(np.float32).min)
        return logits.argmax(-1)

    return policy


def make_jax_eval(env: Any, deals: int) -> Callable[[Params, jax.Array], jax.Array]:
    """``evaluate(params, key) -> points (deals,)``: duplicate deals against the JAX heuristic
    inside XLA, each deal played twice from the same key (the network in seat 0, then seat 1),
    greedy; a pair's points are the mean of its two deals, from the network's side."""
    from sixtysix_env.jax import heuristic_action

    step = jax.vmap(env.step)

    def evaluate(params: Params, key: jax.Array) -> jax.Array:
        keys = jax.random.split(key, deals)
        state = jax.vmap(env.init)(jnp.concatenate([keys, keys]))
        ours = jnp.repeat(jnp.arange(2, dtype=jnp.int32), deals)

        def cond(c: tuple[Any, jax.Array]) -> jax.Array:
            return ~jnp.all(c[0].terminated | c[0].truncated)

        def body(c: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            state, points = c
            obs = state.observation.reshape(2 * deals, -1).astype(jnp.float32)
            mine = greedy_action(params, obs, state.legal_action_mask)
            action = jnp.where(state.current_player == ours, mine, jax.vmap(heuristic_action)(state))
            state = step(state, action)
            reward = jnp.take_along_axis(state.rewards, ours[:, None], axis=1)[:, 0]
            return state, points + reward

        _, points = jax.lax.while_loop(cond, body, (state, jnp.zeros(2 * deals, jnp.float32)))
        return (points[:deals] + points[deals:]) / 2

    return jax.jit(evaluate)


# ---------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    env = make_env(args.env, args.rules)
    init, update = make_train(env, args)
    runner = init(jax.random.PRNGKey(args.seed))
    per_update = args.num_envs * args.num_steps
    total = args.total_steps or (20_000_000 if args.minutes is None else 10**15)
    updates = max(1, total // per_update)
    print(f"{jax.devices()[0]}: {args.num_envs} deals x {args.num_steps} steps = {per_update} decisions an update")
    t0 = time.perf_counter()
    update_jit = jax.jit(update).lower(runner).compile()
    print(f"compiled the update (rollout + {args.epochs} epochs x {args.minibatches} minibatches) in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)  # fmt: skip
    sixtysix = args.env == "sixtysix"
    curve = None
    if sixtysix and args.eval_deals >= 2:  # checkpoints of at most 500 deals, on the rules trained
        label = "JAX PPO (self-play)" + (f", league {args.league:g}" if args.league else "")
        deals = args.eval_deals
        curve = LearningCurve(args.curve, label, args.eval_every, min(500, deals), deals, rules=args.rules)
    start = printed = time.perf_counter()
    last_steps, update_i = 0, 0
    league_points = league_deals = 0.0
    for update_i in range(1, updates + 1):
        runner, metrics = update_jit(runner)
        m = jax.device_get(metrics)
        league_points += float(m["league_points"])
        league_deals += float(m["league_deals"])
        if not np.isfinite(m["loss"]):
            raise SystemExit(f"update {update_i}: the loss is {m['loss']}: stopping")
        now = time.perf_counter()
        steps = update_i * per_update
        if update_i == 1 or update_i == updates or now - printed >= PRINT_EVERY_S:
            rate = (steps - last_steps) / (now - printed) if update_i > 1 else per_update / (now - start)
            league = (
                f", league {league_points / league_deals:+.3f} points/deal vs heuristic ({league_deals:.0f} deals)"
                if league_deals
                else ""
            )
            print(
                f"update {update_i} steps {steps} ({rate:,.0f}/s) loss {m['loss']:+.4f} v_loss {m['v_loss']:.3f} "
                f"entropy {m['entropy']:.3f} kl {m['approx_kl']:.4f}{league} ({now - start:.0f} s)",
                flush=True,
            )
            printed, last_steps = now, steps
            league_points = league_deals = 0.0
        if curve is not None:
            curve.maybe(numpy_greedy(runner.params), steps)
        if args.minutes is not None and now - start > 60 * args.minutes:
            break
    steps = update_i * per_update
    train_s = time.perf_counter() - start
    print(f"trained {steps} decisions in {train_s:.0f} s ({steps / train_s:,.0f}/s, evaluations included)")
    if args.save_npz and sixtysix:
        source = f"examples/jax_ppo.py, {steps} decisions, seed {args.seed}, league {args.league}"
        path = to_mlp(runner.params, args.rules, source).save(args.save_npz)
        print(f"saved {path}: python -m sixtysix_env.arena --agents ppo:path={path},heuristic", flush=True)
    if args.jax_eval_deals:
        t0 = time.perf_counter()
        pairs = np.asarray(make_jax_eval(env, args.jax_eval_deals)(runner.params, jax.random.PRNGKey(12345)))
        half = 1.96 * pairs.std(ddof=1) / math.sqrt(len(pairs))
        print(
            f"JAX heuristic, {len(pairs)} duplicate deals in XLA: {pairs.mean():+.3f} [{pairs.mean() - half:+.3f}, "
            f"{pairs.mean() + half:+.3f}] points per deal ({time.perf_counter() - t0:.1f} s with compilation)"
        )
    if curve is not None:
        print("jax_ppo", curve.final(numpy_greedy(runner.params), steps, options=vars(args)))


if __name__ == "__main__":
    main()
