"""The 0.1 layout's import paths still work for one release: the same module objects, with a
DeprecationWarning naming the new path; the ``python -m`` names are unchanged."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from sixtysix_env._moved import MOVED

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_is_the_new_module_with_a_deprecation_warning(old: str, new: str) -> None:
    if new.startswith(("sixtysix_env.envs.vector", "sixtysix_env.envs.sb3", "sixtysix_env.agents.fast")):
        pytest.importorskip("numba")
    if new == "sixtysix_env.envs.sb3":
        pytest.importorskip("stable_baselines3")
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_old_and_new_paths_give_the_same_classes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old_four = importlib.import_module("sixtysix_env.multiplayer").FourDeal
        old_deal = importlib.import_module("sixtysix_env.multiplayer.table").TableDeal
    from sixtysix_env.table import FourDeal
    from sixtysix_env.table.deal import TableDeal

    assert old_four is FourDeal and old_deal is TableDeal


def test_the_table_arena_command_keeps_its_name() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "sixtysix_env.table_arena", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0 and "python -m sixtysix_env.table_arena" in run.stdout
