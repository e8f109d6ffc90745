"""Play Sixty-Six in the browser: ``python -m sixtysix_env.web`` (the ``web`` extra: Flask).

A person plays any agent on a local page (cards drawn as SVG by :mod:`.cardart`), and replays
saved game records with both hands face up. The layers: :mod:`.view` turns an ``InfoState`` into
what the page shows, :mod:`.game` plays a match through the API a bot uses, :mod:`.replay` turns a
record into frames, and :mod:`.app` is the HTTP layer (the only module that imports Flask).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":  # lazy: importing the package must not need Flask
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
