#!/usr/bin/env bash
# The JAX engine on a GPU: benchmarks/bench_jax.py with JAX_PLATFORMS=cuda, and optionally a short
# examples/jax_ppo.py run, on a machine with an NVIDIA GPU (what the `device` tool lends).
#
#     bash benchmarks/gpu_jax.sh                      # the benchmark (~5 min)
#     PPO_MINUTES=3 bash benchmarks/gpu_jax.sh        # and 3 minutes of PPO at 4,096 deals
#
# What it needs, installed BEFORE it runs (such machines have no internet, so nothing is fetched):
#   - a Python 3.10+ with this repository installed (pip install -e ".[jax,fast,bench]"): numpy,
#     numba, pgx, tabulate;
#   - jax with CUDA: the wheels of `pip install "jax[cuda12]"` (jax, jaxlib, jax-cuda12-plugin,
#     jax-cuda12-pjrt and the nvidia-* CUDA 12 wheels, about 3 GB). They are far over what a
#     working tree may carry (64 MiB), so they must be preinstalled on the machine image, or in a
#     wheelhouse on its disk: WHEELS=/path/to/wheelhouse makes the script install them with
#     `pip install --no-index --find-links $WHEELS "jax[cuda12]" pgx numba tabulate`.
#   PYTHON=/path/to/python picks the interpreter (default: .venv/bin/python, else python3).
# Output goes to $OUT (the device tool's folder) or results/: bench_jax_gpu.json and the log.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
OUT=${OUT:-results}
mkdir -p "$OUT"

if ! command -v nvidia-smi >/dev/null; then
  echo "no nvidia-smi: this machine has no NVIDIA GPU driver; nothing to measure" >&2
  exit 2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)

if [ -n "${WHEELS:-}" ]; then
  "$PYTHON" -m pip install --no-index --find-links "$WHEELS" "jax[cuda12]" pgx numba tabulate
  "$PYTHON" -m pip install --no-index --no-deps -e .
fi
if ! JAX_PLATFORMS=cuda "$PYTHON" -c "import jax; assert jax.devices()[0].platform == 'gpu', jax.devices()" 2>/dev/null; then
  echo "JAX sees no GPU: install jax[cuda12] (see the top of this script; no internet here, so carry a wheelhouse)" >&2
  JAX_PLATFORMS=cuda "$PYTHON" -c "import jax; print(jax.__version__, jax.devices())" >&2 || true
  exit 3
fi

# numba runs on the host CPUs in the same run, so the / numba column is this machine's ratio.
JAX_PLATFORMS=cuda XLA_PYTHON_CLIENT_PREALLOCATE=false "$PYTHON" benchmarks/bench_jax.py \
  --sizes 1 64 1024 4096 16384 65536 262144 --steps 32 --repeats 5 \
  --engines jax jax-heuristic numba leduc --device-label "$GPU" --json "$OUT/bench_jax_gpu.json" \
  2>&1 | tee "$OUT/bench_jax_gpu.log"

if [ -n "${PPO_MINUTES:-}" ]; then
  JAX_PLATFORMS=cuda XLA_PYTHON_CLIENT_PREALLOCATE=false "$PYTHON" examples/jax_ppo.py \
    --minutes "$PPO_MINUTES" --num-envs 4096 --num-steps 32 --eval-deals 2000 \
    --save-npz "$OUT/jax_ppo_gpu.npz" --curve "$OUT/jax_ppo_gpu" 2>&1 | tee "$OUT/jax_ppo_gpu.log"
fi
