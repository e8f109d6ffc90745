#!/usr/bin/env bash
# Smoke-test every RL framework example in its own virtual environment (their pins differ).
#
#   ci/frameworks.sh                  # all: cleanrl tianshou torchrl openspiel rllib
#   ci/frameworks.sh tianshou torchrl # some
#
# Each venv lives in .venvs/NAME (reused when it exists): torch first (a CPU build), then the
# package with the framework's extra from pyproject.toml, then the example's short run. A training
# example's run also writes its numpy weights and its curve (CSV, JSON, PNG: the extra includes
# matplotlib) to a temp folder; the arena then plays the saved weights, so a save the arena cannot
# load fails here. Any failure fails the script; the install and run times of each are printed at the end.
# With CI=true each venv is removed after its run: the five (1.2-1.9 GB each, torch in
# every one) filled a CI disk once, and a clean checkout cannot reuse them anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
all=(cleanrl tianshou torchrl openspiel rllib)
names=("${@:-${all[@]}}")
export OMP_NUM_THREADS=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

smoke() {
  case "$1" in
    cleanrl) echo "examples/cleanrl_ppo.py --total-timesteps 2048 --num-envs 16 --num-steps 64 --eval-deals 20" ;;
    tianshou) echo "examples/tianshou_dqn.py --epochs 1 --epoch-steps 300 --envs 2 --batch 64 --eval-deals 20" ;;
    torchrl) echo "examples/torchrl_ppo.py --frames 512 --frames-per-batch 256 --minibatch 128 --envs 2 --eval-deals 20" ;;
    openspiel) echo "examples/openspiel_ismcts.py --sim-games 20 --simulations 10 --deals 2" ;;
    rllib) echo "examples/rllib_ppo.py --iterations 1 --batch 400 --env-runners 1 --envs-per-runner 2 --eval-deals 20" ;;
    *) echo "unknown framework '$1': choose from ${all[*]}" >&2; return 2 ;;
  esac
}

report=()
for name in "${names[@]}"; do
  cmd=$(smoke "$name")
  venv="$root/.venvs/$name"
  t0=$(date +%s)
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q torch==2.13.0
  fi
  "$venv/bin/pip" install -q -e "$root[$name,testcore]"
  t1=$(date +%s)
  echo "== $name: python $cmd"
  "$venv/bin/python" -m sixtysix_env.fast.warmup
  case "$name" in
    openspiel) "$venv/bin/python" $cmd ;;  # search, nothing trained to save
    *)
      "$venv/bin/python" $cmd --save-npz "$out/$name.npz" --curve "$out/$name"
      test -s "$out/$name.png" || { echo "$name: no curve PNG at $out/$name.png" >&2; exit 1; }
      "$venv/bin/python" -m sixtysix_env.arena --agents "ppo:path=$out/$name.npz,heuristic" --deals 2 \
        --no-progress --out "$out/$name-arena" > /dev/null
      echo "== $name: the arena played the saved weights ($out/$name.npz), the curve is drawn" ;;
  esac
  case "$name" in  # both seats' decisions with a league (docs/selfplay.md)
    cleanrl) "$venv/bin/python" examples/cleanrl_selfplay.py --total-timesteps 2048 --num-envs 32 --num-steps 32 \
      --eval-deals 0 --save-npz "" ;;
    torchrl) "$venv/bin/python" examples/torchrl_ppo.py --selfplay --frames 512 --frames-per-batch 256 \
      --minibatch 128 --envs 8 --eval-deals 0 --save-npz "" ;;
  esac
  if [ -f "tests/test_frameworks_$name.py" ]; then  # the framework's own data check (no decision lost)
    "$venv/bin/python" -m pytest "tests/test_frameworks_$name.py" -q -p no:cacheprovider
  fi
  case "$name" in  # the sampling benchmark builds its collectors from the example's own functions
    rllib | torchrl | tianshou)
      "$venv/bin/python" benchmarks/bench_frameworks.py --framework "$name" --envs 4 --steps 256 \
        --single-steps 64 --repeats 1 ;;
  esac
  if [ "$name" = rllib ]; then  # the Ray backend's tests need ray: run here, each on a local cluster it starts
    "$venv/bin/python" -m pytest tests/test_ray_backend.py tests/test_ray_address.py -q -p no:cacheprovider
  fi
  t2=$(date +%s)
  if [ "${CI:-}" = true ]; then rm -rf "$venv"; fi
  report+=("$name: install $((t1 - t0)) s, smoke run $((t2 - t1)) s")
done
printf '%s\n' "== framework smoke runs passed" "${report[@]}"
