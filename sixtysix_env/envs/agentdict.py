"""PettingZoo's per-agent dicts, with a clear error for an agent gone with the episode.

PettingZoo removes every agent from ``rewards``, ``terminations``, ``infos`` ... once it is done,
so ``last()`` after the end of an episode raises ``KeyError`` in its own classic envs too. The
envs keep that behaviour (a ``KeyError``) and say what happened instead of ``KeyError: 'player_1'``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["AgentDict", "EpisodeOverError"]


class EpisodeOverError(KeyError):
    """Asking for an agent PettingZoo removed at the end of the episode (``last()`` after every
    agent is done): a ``KeyError``, as PettingZoo's own classic envs raise, that says so."""

    def __str__(self) -> str:
        return str(self.args[0])


class AgentDict(dict):  # type: ignore[type-arg]
    """PettingZoo's per-agent dict whose missing agent is named as gone with the episode."""

    def __missing__(self, agent: object) -> Any:
        raise EpisodeOverError(
            f"no {agent!r} here: an agent leaves PettingZoo's per-agent dicts once it is done, so after "
            "the episode's end last() has nothing to return (as in PettingZoo's classic envs): call reset()"
        )
