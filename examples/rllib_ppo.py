"""RLlib: PPO on the batched engine (the learner against the heuristic), on one machine or a Ray cluster.

    python examples/rllib_ppo.py --minutes 28 --curve results/rllib_ppo   # the README's run, in the driver
    python examples/rllib_ppo.py --env-runners 2                 # two sampling processes
    python examples/rllib_ppo.py --address auto --env-runners 8  # on the cluster `ray start` made (docs/ray.md)
    python examples/rllib_ppo.py --self-play                     # the two-player AEC env, one shared policy

Every env runner builds the batched engine itself: ``gymnasium.make_vec("sixtysix_env:SixtySix-v0",
num_envs=N, vectorization_mode="vector_entry_point", autoreset_mode="NextStep",
mask_in_observation=True, observation_key="observations")``. Two settings matter:

- ``"sixtysix_env:SixtySix-v0"``: Gymnasium imports the package before looking the id up, so a
  remote runner process, which never imports it otherwise, finds the env (plain ``"SixtySix-v0"``
  failed there with ``NameNotFound``);
- ``autoreset_mode="NextStep"``: RLlib's episodes assume Gymnasium's default next-step autoreset.
  With the vector env's same-step default RLlib still trains, on wrong data: the first decision
  of every deal was never trained on and every terminal observation was the next deal's first.

The observation is the Dict ``{"observations", "action_mask"}`` that RLlib's
``ActionMaskingTorchRLModule`` reads. ``--self-play`` trains on the AEC env instead
(``PettingZooEnv``, both seats mapped to one shared policy); ``--single`` on single
``SixtySix-v0`` envs in RLlib's default (sync) vectorization, the slow path the batched engine replaces.

Threads: RLlib's and torch's defaults start one compute thread per core in every process; on a
busy 2-core machine that is 10-20x slower than one thread each, so this script sets
``OMP_NUM_THREADS=1`` and ``torch.set_num_threads(1)`` everywhere (``--threads`` changes it).

The network is the other examples' (two tanh layers of ``--hidden``, linear policy and value
heads on them), so what it learned is saved as numpy weights the arena plays (``--save-npz``,
default ``results/rllib_ppo.npz``; ``python -m sixtysix_env.arena --agents
ppo:path=results/rllib_ppo.npz,heuristic``); with ``--self-play`` that is the shared policy.

Each iteration prints its env steps and the deals' mean return (with ``--self-play`` each seat's:
one policy plays both, so their sum is 0); at the end, the sampling-and-training throughput over
the iterations after the first (which includes starting the runners) and the env runners that
really ran. Every ``--eval-every`` seconds the greedy policy plays 500 duplicate deals against
``heuristic`` (with ``--self-play`` too: the one measure of strength there), and at the end 2,000
(``sixtysix_env.integrations.curve``; ``--curve PREFIX`` writes PREFIX.csv, .json and .png; the
PNG needs matplotlib, in the ``rllib`` extra). RLlib's INFO and deprecation lines are silenced;
its env check is off (it samples random actions, which Sixty-Six's masks mostly forbid: 98
"Illegal move made" warnings with ``--self-play``; the envs' own tests check them).

An env runner that cannot start (a node without ``sixtysix-env``, whose runner cannot build the
env) stops the run at once with a message naming it: RLlib's own default restarts such runners
and trains on with fewer, logging errors.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import math
import os
import statistics
import time
import warnings
from typing import Any

from sixtysix_env.checks import cli_int
from sixtysix_env.cli_options import AtLeast, add_count, positive_float, positive_int
from sixtysix_env.distributed import ADDRESS_HELP, cli_ray_address
from sixtysix_env.distributed.ray_backend import connection_hint
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments, heartbeat

GYM_ID = "sixtysix_env:SixtySix-v0"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument(
        "--iterations", type=positive_int, default=None, help="PPO iterations (default 60; no limit with --minutes)"
    )
    p.add_argument("--minutes", type=positive_float, default=None, help="stop training after this much wall time")
    p.add_argument("--batch", type=positive_int, default=8192, help="env steps per iteration")
    p.add_argument("--minibatch", type=positive_int, default=2048, help="env steps per gradient step")
    add_count(p, "--env-runners", default=0, at_least=0, help="sampling processes (0: sample in the driver)")
    p.add_argument("--envs-per-runner", type=positive_int, default=128, help="deals each runner plays at once")
    p.add_argument("--address", type=cli_ray_address, default="local", help=f"Ray cluster: {ADDRESS_HELP}")
    p.add_argument("--self-play", action="store_true", help="the AEC env, both seats one shared policy")
    p.add_argument(
        "--single",
        action="store_true",
        help="single SixtySix-v0 envs in RLlib's own sync vector env instead of the batched engine (slow; debugging)",
    )
    p.add_argument("--hidden", type=positive_int, default=256)
    p.add_argument("--lr", type=positive_float, default=3e-4)
    p.add_argument("--threads", type=positive_int, default=1, help="torch threads per process")
    p.add_argument("--seed", type=cli_int, action=AtLeast, at_least=0, default=0)
    p.add_argument(
        "--save-npz",
        default="results/rllib_ppo.npz",
        help="write the trained module here as numpy weights the arena plays as ppo:path=FILE ('' saves nothing)",
    )
    add_curve_arguments(p)
    args = p.parse_args(argv)
    if args.save_npz and not args.save_npz.endswith(".npz"):
        p.error(f"--save-npz must name a .npz file, got {args.save_npz!r}")
    if args.iterations is None:
        args.iterations = 60 if args.minutes is None else 10**9
    if args.eval_deals < 0:
        p.error(f"--eval-deals must be 0 or more, got {args.eval_deals}")
    return args


def build_config(args: argparse.Namespace) -> Any:
    """The ``PPOConfig`` of the run (RLlib imported here: ``--help`` works without it)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        # one activation throughout (two tanh layers, linear heads), as the numpy weights file holds
        model_config={
            "fcnet_hiddens": [args.hidden, args.hidden],
            "fcnet_activation": "tanh",
            "head_fcnet_hiddens": [],
            "vf_share_layers": True,
        },
    )
    config = PPOConfig()
    if args.self_play:
        from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
        from ray.tune.registry import register_env

        from sixtysix_env import sixtysix_v0

        register_env("sixtysix", lambda _: PettingZooEnv(sixtysix_v0.env(observation_key="observations")))
        config = (
            config.environment("sixtysix", disable_env_checking=True)
            .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        )
    elif args.single:  # RLlib's default vectorization: a Gymnasium SyncVectorEnv of single envs
        env_config = {"mask_in_observation": True, "observation_key": "observations", "opponent": "heuristic"}
        config = config.environment(GYM_ID, env_config=env_config, disable_env_checking=True)
        config = config.rl_module(rl_module_spec=module)
    else:
        env_config = {
            "autoreset_mode": "NextStep",
            "mask_in_observation": True,
            "observation_key": "observations",
            "opponent": "heuristic",
            "seed": args.seed,
        }
        config = (
            config.environment(GYM_ID, env_config=env_config, disable_env_checking=True)
            .env_runners(gym_env_vectorize_mode="vector_entry_point")
            .rl_module(rl_module_spec=module)
        )
    return (
        config.env_runners(
            num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner, sample_timeout_s=600
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(args.minibatch, args.batch),
            num_epochs=4,
            lr=args.lr,
            gamma=1.0,
            entropy_coeff=0.01,
        )
        # a runner that fails to start stops the build (RLlib's default restarts it and trains on
        # with fewer, logging errors; restarts also make Ray log an error line for every runner)
        .fault_tolerance(restart_failed_env_runners=False, ignore_env_runner_failures=False)
        .debugging(seed=args.seed)
    )


def quiet_libraries() -> None:
    """RLlib's, Tune's and Ray's INFO lines and deprecation notices, which say nothing about this
    run (the API stack, renamed classes, GPU monitoring, setup times): warnings of other kinds stay."""
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    for name, level in (
        ("ray", logging.WARNING),
        ("ray.rllib", logging.ERROR),
        ("ray.tune", logging.ERROR),
        ("ray.util", logging.ERROR),
        ("ray._common", logging.ERROR),
    ):
        logging.getLogger(name).setLevel(level)


def build_algo(config: Any, runners: int) -> Any:
    """The algorithm, or SystemExit naming the env runner that could not start and why (on a
    node without the package: its runner cannot build the env)."""
    try:
        algo = config.build_algo()
    except Exception as e:  # RLlib re-raises a runner's failure as it got it (a Ray actor error)
        first = next((line for line in str(e).splitlines() if "Error" in line), str(e).splitlines()[0])
        raise SystemExit(
            f"an env runner could not start, so the run stops ({runners} asked for): {first.strip()[:300]}\n"
            "Every node needs the same Python environment with sixtysix-env installed (docs/ray.md)."
        ) from e
    return algo


def to_mlp(weights: dict[str, Any], source: str) -> Any:
    """The learner's RL module (its state: parameter name -> array) as numpy weights
    (``sixtysix_env.agents.mlp``): encoder then policy head, and encoder then value head, the
    Linear layers in order with tanh between. The learner's copy, because the env runners' is
    inference-only (no value head)."""
    import numpy as np

    from sixtysix_env.agents.mlp import vector_policy

    def layers(prefix: str) -> list[tuple[Any, Any]]:
        names = [k for k in weights if k.startswith(prefix) and k.endswith(".weight")]
        if not names:
            raise ValueError(f"the RL module has no {prefix!r} layers (has {sorted(weights)[:8]}...)")
        return [
            (np.asarray(weights[k], dtype=np.float32), np.asarray(weights[k[: -len("weight")] + "bias"], np.float32))
            for k in names
        ]

    body = layers("encoder.")
    policy, value = tuple(body + layers("pi.")), tuple(body + layers("vf."))
    return vector_policy(policy, value, activation="tanh", rules="standard", source=source)


def learner_weights(algo: Any, module_id: str) -> dict[str, Any]:
    """The trained module's parameters as the learner holds them (name -> array)."""
    state = algo.learner_group.get_state(components="learner/rl_module")
    return state["learner"]["rl_module"][module_id]


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # before torch and Ray start their pools
    import numpy as np
    import ray
    import torch
    from ray.rllib.core import DEFAULT_MODULE_ID
    from ray.rllib.core.columns import Columns

    torch.set_num_threads(args.threads)
    quiet_libraries()
    env_kw = {"runtime_env": {"env_vars": {"OMP_NUM_THREADS": str(args.threads)}}, "logging_level": logging.WARNING}
    if args.address == "local":
        # a new one-machine cluster for this run; Ray listens on every interface all the same
        # (its GCS and raylet ports), with token authentication on by default: docs/ray.md
        cpus = max(2, args.env_runners + 1)
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, **env_kw)
    else:
        try:
            ray.init(address=args.address, log_to_driver=False, **env_kw)
        except ConnectionError as e:  # most often: HOST:PORT without RAY_AUTH_MODE=token (docs/ray.md)
            raise SystemExit(connection_hint(args.address, e)) from e
    curve = LearningCurve.from_args(args, "RLlib PPO")
    config = build_config(args)
    built = time.time()
    print(f"building RLlib's PPO ({args.env_runners} env runners; this takes a while)", flush=True)
    with heartbeat("building RLlib's PPO"):
        algo = build_algo(config, args.env_runners)
    print(f"built in {time.time() - built:.0f} s", flush=True)
    policy = algo.get_module("shared" if args.self_play else None)

    def greedy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        batch = {Columns.OBS: {"observations": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks).float()}}
        with torch.no_grad():
            logits = policy.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(-1).numpy()

    start = time.time()
    marks: list[tuple[float, float, float]] = []  # (wall time, env steps, sampling s) after each iteration
    i = steps = 0
    for i in range(1, args.iterations + 1):
        result = algo.train()
        runners = result.get("env_runners", {})
        steps = runners.get("num_env_steps_sampled_lifetime", 0)
        marks.append((time.time(), steps, result.get("timers", {}).get("env_runner_sampling_timer", math.nan)))
        length = runners.get("episode_len_mean", float("nan"))
        if args.self_play:  # one policy in both seats: the episode's return is 0, each seat's is not
            seats = runners.get("agent_episode_returns_mean", {})
            ret = " ".join(f"{agent} {value:+.2f}" for agent, value in sorted(seats.items())) or "none yet"
            returns = f"seat returns {ret}"
        else:
            returns = f"return {runners.get('episode_return_mean', float('nan')):+.2f}"
        print(
            f"iteration {i} env steps {steps:.0f} deal length {length:.1f} {returns} ({time.time() - start:.0f} s)",
            flush=True,
        )
        if args.eval_deals >= 2:
            curve.maybe(greedy, steps)
        if args.minutes is not None and curve.elapsed() > 60 * args.minutes:
            break
    print(f"trained {i} iterations, {steps:.0f} env steps in {time.time() - start:.0f} s")
    if args.save_npz:
        module_id = "shared" if args.self_play else DEFAULT_MODULE_ID
        source = f"examples/rllib_ppo.py, {steps:.0f} env steps, seed {args.seed}"
        mlp = to_mlp(learner_weights(algo, module_id), source)
        path = mlp.save(args.save_npz)
        print(f"saved {path}: python -m sixtysix_env.arena --agents ppo:path={path},heuristic", flush=True)
    ran = algo.env_runner_group.num_healthy_remote_env_runners() if args.env_runners else 0
    if len(marks) > 1:
        rates = [(s1 - s0) / (t1 - t0) for (t0, s0, _), (t1, s1, _) in itertools.pairwise(marks)]
        sampling = [(s1 - s0) / x for (_, s0, _), (_, s1, x) in itertools.pairwise(marks)]
        print(
            f"throughput: {statistics.median(rates):.0f} env steps/s sampling and training, "
            f"{statistics.median(sampling):.0f} sampling alone (medians of iterations 2-{len(marks)}), "
            f"{ran} env runners x {args.envs_per_runner} envs"
        )
    if args.eval_deals >= 2:
        print("rllib_ppo", curve.final(greedy, steps, options=vars(args)))
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
