"""Digests that make numba recompile what it compiled in from another file.

numba's cache checks only the cached function's own file, yet a kernel holds the code of every
jitted function it calls (from other files too) and the module constants it reads, compiled in.
So each file whose cache compiles in another file keeps that file's digest on one line (a test
checks it): editing the other file fails the test until the line is updated, and updating it
changes this file, so numba recompiles. The chain: ``state.py`` → ``heuristic.STATE_DIGEST``,
``heuristic.py`` → ``kernels.HEURISTIC_DIGEST``, ``kernels.py`` → ``agents.fast.solver.KERNELS_DIGEST``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["source_digest"]


def source_digest(path: str | Path) -> str:
    """A short hash of a source file's text (line endings normalised, so a checkout on Windows agrees)."""
    text = Path(path).read_text(encoding="utf-8").replace("\r\n", "\n")
    return hashlib.sha256(text.encode()).hexdigest()[:16]
