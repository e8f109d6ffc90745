"""The documentation site, built once per test session (strict) and shared by the docs tests."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILD_TIMEOUT_S = 600
"""Generous: the build takes 20 s of CPU, which a loaded 2-core machine stretches several times."""


@dataclass(frozen=True)
class Build:
    """One strict build: where the site went and what mkdocs printed."""

    site: Path
    returncode: int
    output: str


def require_mkdocs() -> None:
    """Skip without the ``docs`` extra; under CI (which installs ``.[all]``) fail instead."""
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError as e:
        message = f"the docs site needs {e.name} (pip install -e '.[docs]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


NOT_IN_THE_DOCS_EXTRA = ("flask", "torch", "stable_baselines3", "sb3_contrib", "numba", "matplotlib", "PIL", "ray")
"""Packages of the other extras. The build runs with them unimportable, as in a venv with only
``pip install -e ".[docs]"``: a hook or a docstring that needs one fails the build here."""

_BLOCKED_MKDOCS = (
    "import sys\n"
    "for name in sys.argv.pop(1).split(','):\n"
    "    sys.modules[name] = None  # import raises ImportError, as where the package is not installed\n"
    "from mkdocs.__main__ import cli\n"
    "sys.argv[0] = 'mkdocs'\n"
    "cli()\n"
)


@functools.cache
def built_site() -> Build:
    """``mkdocs build --strict`` of the repository into a fresh folder, without the packages of the
    other extras (``NOT_IN_THE_DOCS_EXTRA``)."""
    site = Path(tempfile.mkdtemp(prefix="sixtysix-site-")) / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    blocked = ",".join(NOT_IN_THE_DOCS_EXTRA)
    done = subprocess.run(
        [sys.executable, "-c", _BLOCKED_MKDOCS, blocked, "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=BUILD_TIMEOUT_S,
    )
    return Build(site, done.returncode, done.stdout + done.stderr)
