"""The property tests once more with a fresh random hypothesis seed, also under ``CI=true``.

CI's hypothesis profile is derandomized (``tests/conftest.py``): every CI run tries the same
examples, so a property that holds only for those (a wrong test, or a rare library bug) stays
hidden until a user's run draws another seed. This test runs every ``@given`` test of the suite
(the fuzz suite's included) in a child pytest with the random ``dev`` profile and a seed drawn
now, and names the seed when one fails, so the failure can be replayed with
``--hypothesis-seed=SEED``.
"""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def property_tests() -> list[str]:
    """Node ids of the module-level test functions decorated with hypothesis's ``@given``."""
    ids = []
    for path in sorted([*TESTS.glob("test_*.py"), *(TESTS / "fuzz").glob("test_*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                for dec in node.decorator_list:
                    target = dec.func if isinstance(dec, ast.Call) else dec
                    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                    if name == "given":
                        ids.append(f"{path.relative_to(ROOT)}::{node.name}")
                        break
    return ids


def test_the_finder_sees_the_property_tests():
    found = property_tests()
    assert (
        "tests/test_observations.py::test_samples_after_closing_give_the_opponent_only_hands_his_play_allows" in found
    )
    assert any(node.startswith("tests/fuzz/") for node in found)
    assert len(found) >= 50 and all("::test_" in node for node in found)


def test_the_property_tests_pass_with_a_fresh_random_seed():
    seed = random.SystemRandom().randrange(2**32)
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # the random profile, not CI's derandomized one
    cmd = [sys.executable, "-m", "pytest", *property_tests(), "-q", "-p", "no:cacheprovider"]
    cmd += ["--hypothesis-profile=dev", f"--hypothesis-seed={seed}"]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, (
        f"a property test failed with --hypothesis-seed={seed} (replay: python -m pytest TEST "
        f"--hypothesis-seed={seed}):\n{run.stdout[-6000:]}"
    )
