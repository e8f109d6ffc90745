"""sixtysix-env: the card game Sixty-Six as a reinforcement-learning environment."""

from .actions import CLOSE, EXCHANGE, GO_OUT, MARRIAGE, NUM_ACTIONS, PASS, action_label, action_str, parse_action
from .cards import Rank, Suit, card_str, card_symbol, cards_str, parse_card, parse_cards
from .engine import Deal, Decision, IllegalActionError, Outcome, Termination
from .envs import sixtysix_v0
from .infostate import InfoState
from .match import Match
from .registration import register_envs
from .rules import PRESETS, Rules, get_rules

register_envs()

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
