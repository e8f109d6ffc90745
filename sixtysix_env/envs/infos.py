"""The info contract every environment keeps, so frameworks can batch infos step after step.

RL frameworks stack infos into arrays (Tianshou's buffer, Gymnasium's vector envs, TorchRL's
specs): a key that appears only on the last step, or a ``None``, breaks them. So every info dict
of every env (PettingZoo ``infos[agent]``, Gymnasium ``info``, the vector env's ``infos``) has
the keys ``INFO_KEYS`` at every step, with numbers only:

* ``seat``: int, the agent's seat (the learner's in the single-agent envs);
* ``winner``: int, who won the episode's last finished deal (a player; with four players a team);
  -1 before a deal ends, for a drawn deal and after an illegal action;
* ``game_points``: int, what that deal paid its winner (0 before);
* ``termination``: int, how it ended (``engine.Termination`` / ``TableTermination``; -1 before);
* ``scores``: int64 array (one per side), the match scores after it;
* ``illegal_action``: bool, the episode ended on an illegal action (where the env ends it).

The single-agent envs add ``action_mask`` (int8, (32,)) to these. Masks are never all zero where
a policy reads them after the end of an episode (``terminal_mask``): any action is accepted and
ignored there, so a policy masking logits with -inf still gets finite numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["INFO_KEYS", "deal_info", "terminal_mask", "check_keys"]

INFO_KEYS = ("seat", "winner", "game_points", "termination", "scores", "illegal_action")
"""The keys of every env's ``info`` at every step (numbers only, so frameworks can stack them)."""


def deal_info(seat: int, scores: Sequence[int], outcome: Any = None, illegal: bool = False) -> dict[str, Any]:
    """One info dict of the contract; ``outcome`` (``Outcome`` / ``TableOutcome``) once a deal ended."""
    return {
        "seat": int(seat),
        "winner": -1 if outcome is None or illegal else int(outcome.winner),
        "game_points": 0 if outcome is None or illegal else int(outcome.game_points),
        "termination": -1 if outcome is None or illegal else int(outcome.termination),
        "scores": np.asarray(scores, dtype=np.int64),
        "illegal_action": bool(illegal),
    }


def terminal_mask(num_actions: int) -> np.ndarray:
    """The mask shown after an episode ended: every action (accepted, ignored by the reset)."""
    return np.ones(num_actions, dtype=np.int8)


def check_keys(observation_key: str, mask_key: str) -> None:
    """Observation key names must be distinct non-empty strings."""
    for name, key in (("observation_key", observation_key), ("mask_key", mask_key)):
        if not isinstance(key, str) or not key:
            raise ValueError(f"{name}={key!r} is not allowed: give a non-empty string")
    if observation_key == mask_key:
        raise ValueError(f"observation_key and mask_key are both {mask_key!r}: give two different names")
