"""``python -m sixtysix_env.table_arena``: the three- and four-player arena's command, which lives
in :mod:`sixtysix_env.arena.table` (the name of the command is kept)."""

from __future__ import annotations

from .arena.table import main

__all__ = ["main"]

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
