"""The JAX engine's and the JAX PPO example's checks (``tests/jax/check_*.py``), run by pytest in a
process of its own.

Importing pgx starts XLA's thread pool, and a process that forks after that (the arena's workers,
the tournament host) risks a deadlock in the child: JAX warns so. Collected in this process, the
checks would start it before every other test; in a child process they leave this one as it was.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECK_FILES = ("-o", "python_files=check_*.py")
"""The checks' files are not named ``test_*.py``, so this process does not collect them."""

if any(importlib.util.find_spec(m) is None for m in ("jax", "pgx", "numba")):
    pytest.skip("the JAX checks need the jax extra (pip install -e '.[jax]')", allow_module_level=True)


@pytest.mark.parametrize("checks", ["check_engine.py", "check_ppo.py"])
def test_the_jax_checks_pass_in_a_process_of_their_own(checks: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", f"tests/jax/{checks}", "-q", "-p", "no:cacheprovider", *CHECK_FILES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "no tests ran" not in run.stdout
