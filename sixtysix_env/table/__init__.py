"""Sixty-Six for three players (docs/RULES.md 5.1) and for four in partnerships (5.2, and the
Russian game with its cut, redeals and contracts, 5.3).

``ThreeDeal`` and ``FourDeal`` have the two-player ``Deal``'s API over 49 action ids (the
two-player ids plus the trump choice and the Russian game's decisions, see :mod:`.actions`);
``TableView`` is what one player may know, the encoders in :mod:`.observers` read only that, and
``TableMatch`` plays deals in a row.
The PettingZoo environments are ``sixtysix_env.envs.sixtysix_three_v0`` and ``sixtysix_four_v0``.
"""

from .actions import CHOOSE_TRUMP, NUM_TABLE_ACTIONS, TRUMP_BY_CARD, parse_table_action, table_action_label
from .deal import MAX_TABLE_ACTIONS, TableDecision, TableOutcome, TableTermination, follow_cards, trick_winner
from .four import FourDeal, partner_of, team_of
from .match import TableMatch
from .rules import FOUR_PRESETS, THREE_PRESETS, FourRules, ThreeRules, get_four_rules, get_three_rules
from .three import ThreeDeal, stake_payment
from .view import TableView

__all__ = [
    "CHOOSE_TRUMP",
    "FOUR_PRESETS",
    "MAX_TABLE_ACTIONS",
    "NUM_TABLE_ACTIONS",
    "THREE_PRESETS",
    "TRUMP_BY_CARD",
    "FourDeal",
    "FourRules",
    "TableDecision",
    "TableMatch",
    "TableOutcome",
    "TableTermination",
    "TableView",
    "ThreeDeal",
    "ThreeRules",
    "follow_cards",
    "get_four_rules",
    "get_three_rules",
    "parse_table_action",
    "partner_of",
    "stake_payment",
    "table_action_label",
    "team_of",
    "trick_winner",
]
