"""Where numba keeps the batched engine's compiled kernels, and the one-line notice on first compile.

The kernels are compiled with ``cache=True``: the first process that uses them compiles them and
numba writes the machine code next to the sources, in ``sixtysix_env/fast/__pycache__`` (or,
where that folder is read-only, a user-wide folder such as ``~/.cache/numba``; ``NUMBA_CACHE_DIR``
overrides both). ``python -m sixtysix_env.fast.warmup`` compiles ahead.
"""

from __future__ import annotations

import os
import sys

__all__ = ["cache_dir", "is_cached", "announce_compile"]

_announced = False


def _cache_file() -> object | None:
    """numba's cache file of the main step kernel (a numba internal: None if it changed)."""
    from . import kernels as K

    return getattr(getattr(K.step_envs, "_cache", None), "_cache_file", None)


def cache_dir() -> str | None:
    """The folder numba writes the kernels' compiled code to (None if numba does not say)."""
    return getattr(_cache_file(), "_cache_path", None)


def is_cached() -> bool | None:
    """Whether the compiled kernels are on disk for this numba and Python (None: unknown)."""
    index = getattr(_cache_file(), "_index_path", None)
    return None if index is None else os.path.exists(index)


def announce_compile() -> None:
    """One line on stderr, once per process, when the kernels are about to be compiled."""
    global _announced
    if _announced:
        return
    _announced = True
    if is_cached() is False:
        print(
            "sixtysix_env.fast: compiling the numba kernels on first use (about a minute, once; cached in "
            f"{cache_dir()}); `python -m sixtysix_env.fast.warmup` does it ahead",
            file=sys.stderr,
        )
