"""sixtysix-env: the card game Sixty-Six as a reinforcement-learning environment.

Importing the package loads only the engine; the environments (and with them Gymnasium and
PettingZoo) load on first use: ``sixtysix_env.sixtysix_v0``, ``sixtysix_env.SixtySixEnv``.
"""

from typing import Any

from . import _moved
from .actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, NUM_ACTIONS, PASS, action_label, action_str, parse_action
from .cards import Rank, Suit, card_str, card_symbol, cards_str, parse_card, parse_cards
from .engine import Deal, Decision, IllegalActionError, Outcome, Termination
from .infostate import InfoState
from .match import Match
from .registration import register_when_imported
from .rules import PRESETS, Rules, get_rules

register_when_imported()
_moved.install()  # the 0.1 layout's import paths, with a DeprecationWarning, for one release

_LAZY = {"sixtysix_v0": "sixtysix_env.envs.sixtysix_v0", "SixtySixEnv": "sixtysix_env.envs.gym_env"}


def __getattr__(name: str) -> Any:
    """The environments, imported on first use (they import Gymnasium and PettingZoo)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'sixtysix_env' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(_LAZY[name])
    value = module if name == "sixtysix_v0" else getattr(module, name)
    globals()[name] = value
    return value


__all__ = [
    "CLOSE",
    "EXCHANGE",
    "GO_OUT",
    "MARRIAGE",
    "NUM_ACTIONS",
    "PASS",
    "PRESETS",
    "Deal",
    "InfoState",
    "Match",
    "Decision",
    "IllegalActionError",
    "Outcome",
    "Rank",
    "Rules",
    "SixtySixEnv",
    "Suit",
    "Termination",
    "action_label",
    "sixtysix_v0",
    "action_str",
    "card_str",
    "card_symbol",
    "cards_str",
    "get_rules",
    "parse_action",
    "parse_card",
    "parse_cards",
]
