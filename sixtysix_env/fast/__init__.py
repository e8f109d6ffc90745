"""The batched engine: N two-player deals as arrays, stepped by numba kernels on the CPU.

Same rules, observations, masks and rewards as the reference engine (checked step by step by
``tests/test_fast_engine.py``), at millions of decisions per second. Needs numba
(``pip install sixtysix-env[fast]``).
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("sixtysix_env.fast needs numba: pip install 'sixtysix-env[fast]' (or pip install numba)") from e

from .batch import PARALLEL_MIN_ENVS, BatchedDeals
from .state import NUM_FIELDS, UnsupportedRuleError, encode_rules

__all__ = ["PARALLEL_MIN_ENVS", "NUM_FIELDS", "BatchedDeals", "UnsupportedRuleError", "encode_rules"]
