"""Sixty-Six as an OpenSpiel game, ``python_sixtysix``, registered when this module is imported.

    import pyspiel
    import sixtysix_env.integrations.openspiel  # registers the game
    game = pyspiel.load_game("python_sixtysix", {"rules": "schnapsen"})

One game is one two-player deal of the reference engine (``sixtysix_env.engine.Deal``), zero-sum,
paying the game points at the end. Chance nodes deal it: first the dealer (0 or 1), then the
cards one at a time, player 0's hand, player 1's hand, then the stock top first (its last card is
the face-up trump card). Player actions are the env's ``Discrete(32)`` ids (``sixtysix_env.actions``).

* ``rules``: a preset name (``sixtysix_env.rules.PRESETS``), the game's only parameter.
* observation tensor: the 235-float vector of ``observers.encode_vector`` (what the envs show).
* information-state tensor: that vector, then the deal's action history, one row per action
  (32 one-hot action + 2 one-hot actor), ``MAX_DEAL_ACTIONS`` rows.
* information-state string: the player's ``InfoState`` (hand, known cards, points, the public
  history). It forgets the order in which the player drew his own cards, which no decision of
  the engine's agents depends on; the strings are otherwise perfect recall.
* ``resample_from_infostate``: a deal consistent with the player's view (``InfoState.sample``),
  which OpenSpiel's ISMCTS bot needs.

``ISMCTSAgent`` wraps OpenSpiel's Python ISMCTS bot as one of our agents, so the arena can play
it: ``python -m sixtysix_env.arena --agents sixtysix_env.integrations.openspiel:ISMCTSAgent,heuristic``.
Needs ``open_spiel`` (``pip install open-spiel``), imported with this module only.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..actions import NUM_ACTIONS, action_label
from ..cards import NUM_CARDS, card_symbol
from ..engine import MAX_DEAL_ACTIONS, Deal
from ..infostate import InfoState
from ..observers import VECTOR_SIZE, encode_vector
from ..rules import PRESETS, Rules, get_rules

__all__ = ["GAME_NAME", "SixtySixGame", "SixtySixState", "ISMCTSAgent", "HISTORY_ROW", "INFO_STATE_SIZE"]

GAME_NAME = "python_sixtysix"
"""The name the game is registered under in ``pyspiel``."""
HISTORY_ROW = NUM_ACTIONS + 2
"""Floats per action in the information-state tensor's history: [by me, by opponent, one-hot action]."""
INFO_STATE_SIZE = VECTOR_SIZE + MAX_DEAL_ACTIONS * HISTORY_ROW
"""Length of the information-state tensor: the vector observation plus the history rows."""
_MAX_GAME_POINTS = 3

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Sixty-Six (sixtysix_env)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "standard"},
)


def _game_info(rules: Rules) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=NUM_CARDS,
        num_players=2,
        min_utility=-float(_MAX_GAME_POINTS),
        max_utility=float(_MAX_GAME_POINTS),
        utility_sum=0.0,
        max_game_length=1 + rules.deck_size + MAX_DEAL_ACTIONS,
    )


class SixtySixGame(pyspiel.Game):
    """One deal of Sixty-Six under the ``rules`` preset."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        name = params.get("rules", "standard")
        if name not in PRESETS:
            raise ValueError(f"rules={name!r} is not a preset: choose one of {', '.join(sorted(PRESETS))}")
        self.rules = get_rules(name)
        super().__init__(_GAME_TYPE, _game_info(self.rules), {"rules": name})
        self._deck = [c for c in range(NUM_CARDS) if self.rules.deck_mask >> c & 1]

    def new_initial_state(self) -> SixtySixState:
        return SixtySixState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SixtySixObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return SixtySixObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class SixtySixState(pyspiel.State):
    """A deal being dealt (chance nodes) or played (the engine's ``Deal``)."""

    def __init__(self, game: SixtySixGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._deck = game._deck
        self._dealer = -1
        self._dealt: list[int] = []
        self.deal: Deal | None = None

    # ------------------------------------------------------------------ the game
    def current_player(self) -> int:
        if self.deal is None:
            return pyspiel.PlayerId.CHANCE
        if self.deal.outcome is not None:
            return pyspiel.PlayerId.TERMINAL
        return self.deal.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None and player == self.deal.current_player
        return self.deal.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.deal is None
        if self._dealer < 0:
            return [(0, 0.5), (1, 0.5)]
        left = [c for c in self._deck if c not in self._dealt]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.deal is not None:
            self.deal.apply(int(action))
            return
        if self._dealer < 0:
            self._dealer = int(action)
            return
        self._dealt.append(int(action))
        if len(self._dealt) == len(self._deck):
            n = self._rules.hand_size
            hands = (self._dealt[:n], self._dealt[n : 2 * n])
            self.deal = Deal.from_arrangement(hands, self._dealt[2 * n :], self._dealer, self._rules)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self._dealer < 0 else f"deal {card_symbol(action)}"
        return action_label(int(action))

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.outcome is not None

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        assert self.deal is not None and self.deal.outcome is not None
        return [float(r) for r in self.deal.outcome.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SixtySixState:
        """A state with a deal consistent with ``player_id``'s view (for ISMCTS)."""
        out = self.clone()  # OpenSpiel's clone: the C++ part, and a deep copy of the Python attributes
        if self.deal is not None:
            rng = random.Random(int(probability_sampler() * 2**53))
            out.deal = InfoState.of(self.deal, player_id).sample(rng)
        return out

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: dealer {self._dealer}, {len(self._dealt)} cards dealt"
        return self.deal.to_notation() if self.deal.arrangement is not None else repr(self.deal)  # resampled


class SixtySixObserver:
    """Tensors and strings for one player (OpenSpiel's ``PyObserver`` interface)."""

    def __init__(self, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = INFO_STATE_SIZE if self.perfect_recall else VECTOR_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:VECTOR_SIZE]}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[VECTOR_SIZE:].reshape(MAX_DEAL_ACTIONS, HISTORY_ROW)

    def set_from(self, state: SixtySixState, player: int) -> None:
        self.tensor.fill(0.0)
        deal = state.deal
        if deal is None:
            return
        self.dict["observation"][:] = encode_vector(InfoState.of(deal, player))
        if self.perfect_recall:
            rows = self.dict["history"]
            for i, code in enumerate(deal.history[:MAX_DEAL_ACTIONS]):
                rows[i, code & 31] = 1.0
                rows[i, NUM_ACTIONS + (code >> 5)] = 1.0

    def string_from(self, state: SixtySixState, player: int) -> str:
        deal = state.deal
        if deal is None:
            return f"p{player} dealing"
        info = InfoState.of(deal, player)
        fields = {k: getattr(info, k) for k in _VIEW_FIELDS}
        if self.perfect_recall:
            fields["history"] = tuple(deal.history)
        return f"p{player} {fields}"


# What a player knows now (his InfoState); information states add the history.
_VIEW_FIELDS = tuple(k for k in InfoState.__slots__ if k not in ("rules", "_known", "history"))


pyspiel.register_game(_GAME_TYPE, SixtySixGame)


class ISMCTSAgent:
    """OpenSpiel's Python ISMCTS bot (random-rollout evaluator) as an arena agent.

    ``simulations`` per decision, ``uct_c`` exploration, ``rollouts`` per leaf. The bot sees what
    our agents see: it searches from a deal consistent with the ``InfoState`` it is given and
    resamples worlds from it."""

    def __init__(self, simulations: int = 200, uct_c: float = 2.0, rollouts: int = 1, rules: str = "standard") -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        self.name = f"openspiel-ismcts:{simulations}"
        self.game = pyspiel.load_game(GAME_NAME, {"rules": rules})
        self._mcts, self._ismcts = mcts, ismcts
        self.simulations, self.uct_c, self.rollouts = simulations, uct_c, rollouts

    def act(self, info: InfoState, rng: random.Random) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = self.game.new_initial_state()
        state.deal = info.sample(rng)  # one world the bot resamples from; only info is used
        seed = rng.randrange(2**31)
        evaluator = self._mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed))
        bot = self._ismcts.ISMCTSBot(
            self.game,
            evaluator,
            self.uct_c,
            self.simulations,
            random_state=np.random.RandomState(seed),
            final_policy_type=self._ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        worlds = random.Random(seed)  # the bot's own resampler draws from an unseeded sampler
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, worlds.random))
        return int(bot.step(state))
