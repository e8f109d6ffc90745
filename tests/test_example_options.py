"""Every number option of the examples, the training scripts and the benchmarks refuses a bad value
at parse time: exit status 2 and one ``error:`` line naming the option, never a traceback from deep
in a run (``--num-envs 0`` was a ValueError, ``--minibatches 0`` a ZeroDivisionError) nor a run
that reports nonsense (``--minutes -1``, ``--hidden 0``)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load_script, parse_only

NEEDS = {  # a script and the module it imports at the top, where that may be missing
    "examples/cleanrl_ppo.py": "torch",
    "examples/cleanrl_selfplay.py": "torch",
    "examples/jax_ppo.py": "jax",
    "examples/openspiel_ismcts.py": "pyspiel",
    "examples/torchrl_ppo.py": "torch",
    "examples/tianshou_dqn.py": "torch",
    "baselines/train_ppo.py": "gymnasium",
    "baselines/train_fast.py": "torch",
    "benchmarks/bench_training.py": "torch",
    "benchmarks/verify_jax.py": "jax",
}

PPO = [  # cleanrl_ppo.py's add_ppo_arguments, which cleanrl_selfplay.py takes too
    (["--lr", "-1"], "--lr"),
    (["--lr", "0"], "--lr"),
    (["--gamma", "1.5"], "--gamma"),
    (["--gae-lambda", "-0.1"], "--gae-lambda"),
    (["--epochs", "0"], "--epochs"),
    (["--minibatches", "0"], "--minibatches"),
    (["--clip", "0"], "--clip"),
    (["--ent-coef", "-1"], "--ent-coef"),
    (["--vf-coef", "-1"], "--vf-coef"),
    (["--hidden", "0"], "--hidden"),
    (["--num-envs", "0"], "--num-envs"),
    (["--num-steps", "0"], "--num-steps"),
    (["--minutes", "-1"], "--minutes"),
    (["--minutes", "0"], "--minutes"),
    (["--total-timesteps", "0"], "--total-timesteps"),
    (["--threads", "0"], "--threads"),
    (["--seed", "-1"], "--seed"),
    (["--num-envs", "2", "--num-steps", "2", "--minibatches", "5"], "--minibatches"),
    (["--eval-every", "0"], "--eval-every"),  # integrations.curve's options, every framework example
    (["--eval-deals", "-1"], "--eval-deals"),
]

CASES: dict[str, list[tuple[list[str], str]]] = {
    "examples/cleanrl_ppo.py": PPO,
    "examples/cleanrl_selfplay.py": [
        *PPO,
        (["--pool-size", "0"], "--pool-size"),
        (["--snapshot-every", "0"], "--snapshot-every"),
        (["--self", "1.5"], "--self"),
        (["--past", "-0.1"], "--past"),
    ],
    "examples/jax_ppo.py": [
        (["--gamma", "2"], "--gamma"),
        (["--gae-lambda", "1.01"], "--gae-lambda"),
        (["--league", "1.5"], "--league"),
        (["--num-envs", "0"], "--num-envs"),
    ],
    "examples/openspiel_ismcts.py": [
        (["--sim-games", "-1"], "--sim-games"),
        (["--simulations", "0"], "--simulations"),
        (["--simulations", "1_0"], "--simulations"),
        (["--deals", "-1"], "--deals"),
        (["--seed", "-1"], "--seed"),
    ],
    "examples/rllib_ppo.py": [  # parsed without Ray: the number is refused before --address is read
        (["--iterations", "0"], "--iterations"),
        (["--minutes", "0"], "--minutes"),
        (["--batch", "0"], "--batch"),
        (["--minibatch", "0"], "--minibatch"),
        (["--env-runners", "-1"], "--env-runners"),
        (["--envs-per-runner", "0"], "--envs-per-runner"),
        (["--hidden", "0"], "--hidden"),
        (["--lr", "0"], "--lr"),
        (["--threads", "0"], "--threads"),
        (["--seed", "-1"], "--seed"),
    ],
    "examples/torchrl_ppo.py": [
        (["--frames", "0"], "--frames"),
        (["--frames-per-batch", "0"], "--frames-per-batch"),
        (["--envs", "0"], "--envs"),
        (["--minutes", "-1"], "--minutes"),
        (["--epochs", "0"], "--epochs"),
        (["--minibatch", "0"], "--minibatch"),
        (["--lr", "0"], "--lr"),
        (["--hidden", "0"], "--hidden"),
        (["--threads", "0"], "--threads"),
        (["--seed", "-1"], "--seed"),
        (["--snapshot-every", "0"], "--snapshot-every"),
        (["--selfplay", "--league", "nan,0.4,0.1"], "--league"),
    ],
    "examples/tianshou_dqn.py": [
        (["--epochs", "0"], "--epochs"),
        (["--minutes", "0"], "--minutes"),
        (["--epoch-steps", "0"], "--epoch-steps"),
        (["--envs", "0"], "--envs"),
        (["--buffer", "0"], "--buffer"),
        (["--batch", "0"], "--batch"),
        (["--updates-per-step", "0"], "--updates-per-step"),
        (["--lr", "0"], "--lr"),
        (["--hidden", "0"], "--hidden"),
        (["--eps", "1.5"], "--eps"),
        (["--threads", "0"], "--threads"),
        (["--seed", "-1"], "--seed"),
        (["--print-every", "0"], "--print-every"),
    ],
    "baselines/train_ppo.py": [
        (["--seed", "-1"], "--seed"),
        (["--total-timesteps", "-1"], "--total-timesteps"),
        (["--n-envs", "0"], "--n-envs"),
        (["--n-steps", "0"], "--n-steps"),
        (["--batch-size", "1"], "--batch-size"),
        (["--n-envs", "2", "--n-steps", "4", "--batch-size", "16"], "--batch-size"),
        (["--n-epochs", "0"], "--n-epochs"),
        (["--learning-rate", "0"], "--learning-rate"),
        (["--ent-coef", "-1"], "--ent-coef"),
        (["--clip-range", "0"], "--clip-range"),
        (["--gamma", "1.5"], "--gamma"),
        (["--gae-lambda", "2"], "--gae-lambda"),
        (["--vf-coef", "-1"], "--vf-coef"),
        (["--opponents", "heuristic:x"], "--opponents"),
        (["--opponents", "heuristic:-1,self:1"], "--opponents"),
        (["--score-share", "2"], "--score-share"),
        (["--snapshot-every", "0"], "--snapshot-every"),
        (["--pool-size", "0"], "--pool-size"),
        (["--warm-deals", "-1"], "--warm-deals"),
        (["--warm-explore", "2"], "--warm-explore"),
        (["--warm-epochs", "-1"], "--warm-epochs"),
        (["--warm-lr", "0"], "--warm-lr"),
        (["--warm-batch", "0"], "--warm-batch"),
        (["--pimc-samples", "0"], "--pimc-samples"),
        (["--eval-pairs", "-1"], "--eval-pairs"),
        (["--threads", "0"], "--threads"),
    ],
    "baselines/train_fast.py": [
        (["--steps", "1", "--seed", "-1"], "--seed"),
        (["--steps", "1", "--eval-seed", "-1"], "--eval-seed"),
        (["--steps", "1", "--gae-lambda", "2"], "--gae-lambda"),
        (["--steps", "1", "--max-grad-norm", "0"], "--max-grad-norm"),
        (["--steps", "1", "--ent-coef", "-1"], "--ent-coef"),
        (["--steps", "1", "--vf-coef", "-1"], "--vf-coef"),
        (["--steps", "1", "--num-envs", "0"], "--num-envs"),
    ],
    "benchmarks/bench_all.py": [
        (["--seconds", "0"], "--seconds"),
        (["--repeats", "0"], "--repeats"),
        (["--sizes", "64", "0"], "--sizes"),
        (["--vector-size", "0"], "--vector-size"),
        (["--pgx-batch", "0"], "--pgx-batch"),
    ],
    "benchmarks/bench_batched.py": [
        (["--sizes", "0"], "--sizes"),
        (["--seconds", "-1"], "--seconds"),
        (["--repeats", "0"], "--repeats"),
    ],
    "benchmarks/bench_env.py": [(["--seconds", "0"], "--seconds"), (["--repeats", "0"], "--repeats")],
    "benchmarks/bench_hand_knowledge.py": [(["--samples", "0"], "--samples")],
    "benchmarks/bench_solver.py": [
        (["--positions", "0"], "--positions"),
        (["--max-reference-stock", "-1"], "--max-reference-stock"),
    ],
    "benchmarks/bench_training.py": [
        (["--num-envs", "16", "0"], "--num-envs"),
        (["--n-steps", "0"], "--n-steps"),
        (["--batch-size", "1"], "--batch-size"),
        (["--n-epochs", "0"], "--n-epochs"),
        (["--hidden", "0"], "--hidden"),
        (["--layers", "0"], "--layers"),
        (["--iterations", "0"], "--iterations"),
        (["--threads", "0"], "--threads"),
        (["--selfplay-seconds", "0"], "--selfplay-seconds"),
    ],
    "benchmarks/verify_jax.py": [
        (["--deals", "0"], "--deals"),
        (["--reference", "-1"], "--reference"),
        (["--random-rules", "-1"], "--random-rules"),
        (["--random-deals", "0"], "--random-deals"),
        (["--batch", "0"], "--batch"),
        (["--seed", "-1"], "--seed"),
    ],
}


IN_A_PROCESS = {"jax"}
"""Scripts that import these are parsed in a child process: importing JAX starts XLA's threads,
and the suite's later forks (the tournament host, the arena's workers) would warn of a deadlock."""

_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tests.scripts import load_script, parse_only
script = load_script(sys.argv[2])
print(json.dumps([parse_only(script, argv) for argv in json.loads(sys.argv[3])]))
"""


@cache
def _parsed_in_a_child(path: str) -> dict[str, tuple[object, str]]:
    """Each bad case of ``path`` parsed in one child process: ``' '.join(argv)`` -> (exit code, stderr)."""
    cases = [argv for argv, _ in CASES[path]]
    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, root, path, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.strip().splitlines()[-1])
    return {" ".join(argv): (code, err) for argv, (code, err) in zip(cases, results, strict=True)}


def _skip_unless_installed(path: str) -> None:
    needs = NEEDS.get(path)
    if needs is not None and importlib.util.find_spec(needs) is None:
        pytest.skip(f"{path} imports {needs}, not installed")


@cache
def _script(path: str) -> ModuleType:
    _skip_unless_installed(path)
    return load_script(path)


@pytest.mark.parametrize(
    ("path", "argv", "option"),
    [(path, argv, option) for path, cases in CASES.items() for argv, option in cases],
    ids=[f"{path.split('/')[-1]}:{' '.join(argv)}" for path, cases in CASES.items() for argv, _ in cases],
)
def test_a_bad_number_is_refused_by_the_parser_naming_the_option(path: str, argv: list[str], option: str) -> None:
    if NEEDS.get(path) in IN_A_PROCESS:
        _skip_unless_installed(path)
        code, err = _parsed_in_a_child(path)[" ".join(argv)]
    else:
        code, err = parse_only(_script(path), argv)
    assert code == 2, err
    last = err.strip().splitlines()[-1]
    # the option is what the error is about, not a word of a message about another one
    assert f"error: argument {option}:" in last or f"error: {option} " in last, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("path", "argv"),
    [
        ("examples/cleanrl_ppo.py", ["--minutes", "0.01", "--num-envs", "2", "--num-steps", "2", "--minibatches", "4"]),
        ("examples/cleanrl_selfplay.py", ["--gamma", "0", "--gae-lambda", "1", "--past", "0", "--ent-coef", "0"]),
        ("examples/openspiel_ismcts.py", ["--sim-games", "0", "--deals", "0", "--seed", "0"]),
        ("baselines/train_ppo.py", ["--total-timesteps", "0", "--warm-epochs", "0", "--eval-pairs", "0"]),
    ],
)
def test_the_edge_values_a_run_means_are_still_taken(path: str, argv: list[str]) -> None:
    """0 where a script reads it as "none" (``--deals 0``: skip the arena), a whole rollout in
    minibatches of one, a discount of 0 or 1."""
    code, err = parse_only(_script(path), argv)
    assert code is None, err
