"""The PettingZoo AEC adapter shared by the three- and four-player environments.

The rules live in :mod:`sixtysix_env.multiplayer`; this class only syncs PettingZoo's dicts from
the deal (or match) after each step. ``sixtysix_three_v0`` and ``sixtysix_four_v0`` subclass it
with their game, their defaults and their documentation.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..cards import card_symbol
from ..multiplayer.actions import CONTRACT_NAMES, NUM_TABLE_ACTIONS, table_action_label
from ..multiplayer.match import TableMatch
from ..multiplayer.observers import TABLE_ENCODERS, table_observation_space
from ..multiplayer.rewards import DEFAULT_SHAPING_SCALE, check_reward_scheme, table_step_rewards, win_loss_rewards
from ..multiplayer.table import TableDeal, TableTermination
from ..multiplayer.view import TableView
from ..render import hand_text
from ..render_image import require_pillow, table_frame
from .infos import check_keys, deal_info
from .options import EPISODES, check_agent, check_option, check_real, check_seed, deal_spec, given_deal

__all__ = ["TableEnv", "wrap", "table_mask_array"]


def table_mask_array(mask: int) -> np.ndarray:
    """An int action bitmask as the (NUM_TABLE_ACTIONS,) int8 array PettingZoo expects."""
    raw = np.frombuffer(mask.to_bytes((NUM_TABLE_ACTIONS + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:NUM_TABLE_ACTIONS].view(np.int8)


def wrap(env: TableEnv, illegal_reward: float | None) -> AECEnv:
    """Wrapped as PettingZoo's classic games are: an illegal action ends the episode with
    ``illegal_reward`` for the offender (default: the largest loss of one deal)."""
    if illegal_reward is None:
        illegal_reward = -1.0 if env.reward_scheme == "win_loss" else -float(env.largest_loss)
    illegal_reward = check_real("illegal_reward", illegal_reward)
    out: AECEnv = wrappers.TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


class TableEnv(AECEnv[str, Any, int]):
    """Base of the three- and four-player AEC environments."""

    game: ClassVar[type[TableDeal]]
    largest_loss: ClassVar[int]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rules: Any = None,
        observation: str = "vector",
        reward: str = "game_points",
        episode: str = "deal",
        render_mode: str | None = None,
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        observation_key: str = "observation",
    ) -> None:
        super().__init__()
        n = self.game.n_players
        self.rules = self.game._get_rules(rules)
        check_keys(observation_key, "action_mask")
        self.observation_key = observation_key
        check_option("observation", observation, TABLE_ENCODERS)
        check_option("episode", episode, EPISODES)
        check_option("render_mode", render_mode, [*self.metadata["render_modes"], None])
        self.observation_name = observation
        self.reward_scheme = check_reward_scheme(reward)
        self.episode = episode
        self.render_mode = render_mode
        if render_mode == "rgb_array":
            require_pillow()  # a missing extra is named now, not at the first frame
        self.shaping_scale = check_real("shaping_scale", shaping_scale)
        self._encode = TABLE_ENCODERS[observation]
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        self.agents = []
        obs_space = spaces.Dict(
            {
                observation_key: table_observation_space(observation, n),
                "action_mask": spaces.Box(0, 1, shape=(NUM_TABLE_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_TABLE_ACTIONS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.match: TableMatch | None = None
        self.deal: TableDeal | None = None
        self._finished_deal: TableDeal | None = None
        self._last_text: str | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Every argument is checked before anything changes: a bad reset leaves the env as it was.
        seed = check_seed(seed)
        spec = deal_spec(options)
        first_deal = None if spec is None else self._deal_from_options(spec)
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.match = TableMatch(self.game, self.rules, rng, first_deal=first_deal)
        self.deal = self.match.deal
        agents = self.possible_agents
        self.agents = agents[:]
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos = {a: deal_info(p, self.match.scores) for p, a in enumerate(agents)}
        self.agent_selection = agents[self.deal.current_player]
        self._finished_deal = None
        self._last_text = None
        if self.render_mode == "human":  # the dealt position, before the first action
            self.render()

    def _deal_from_options(self, spec: Any) -> TableDeal:
        if isinstance(spec, TableDeal):
            if not isinstance(spec, self.game):
                raise ValueError(f"options['deal'] is a {type(spec).__name__}: this env plays {self.game.__name__}")
            return given_deal(spec, self.rules)
        if not isinstance(spec, dict) or "hands" not in spec or set(spec) - {"hands", "dealer"}:
            raise ValueError(
                f"options['deal'] must be {{'hands': [...{self.game.n_players} hands in the order dealt], "
                "'dealer': 0}} with card strings"
            )
        return self.game.from_arrangement(spec["hands"], spec.get("dealer", 0), self.rules)

    def step(self, action: int) -> None:
        if not self.agents:
            raise ValueError(f"step({action!r}) after the episode ended (every agent is done): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match, deal = self.match, self.deal
        assert match is not None and deal is not None
        before = tuple(deal.points)
        decision = deal.decision
        match.apply(action)  # raises ValueError naming the legal actions; the deal is then unchanged
        self._cumulative_rewards[agent] = 0.0
        self._finished_deal = None
        if self.render_mode is not None:
            self._last_text = f"{agent}: {table_action_label(int(action), decision)}"
        match_winners = None
        if self.episode == "match":
            match_winners = match.winners if match.is_over else []
        rewards = table_step_rewards(self.reward_scheme, deal, before, match_winners, self.shaping_scale)
        self.rewards = dict(zip(self.possible_agents, rewards, strict=True))
        if deal.outcome is not None:
            self._finished_deal = deal
            self.infos = {a: deal_info(p, match.scores, deal.outcome) for p, a in enumerate(self.possible_agents)}
            if self.episode == "match" and not match.is_over:
                self.deal = match.next_deal()
                self._add_cut_deals(match)
            if self.episode == "deal" or match.is_over:
                self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()
        if not self.terminations[agent]:
            self.agent_selection = self.possible_agents[self.deal.current_player]
        if self.render_mode == "human":  # PettingZoo's convention, as in sixtysix_v0
            self.render()

    def _add_cut_deals(self, match: TableMatch) -> None:
        """Deals the cut decided (Russian game) while dealing on: nobody acted in them, so their
        payoffs join this step's rewards; one may end the match (then win_loss pays its winners)."""
        if not match.cut_deals:
            return
        if self.reward_scheme == "win_loss":
            if match.is_over:
                stake = match.stake
                self.rewards = dict(
                    zip(
                        self.possible_agents,
                        (stake * x for x in win_loss_rewards(len(self.possible_agents), match.winners)),
                        strict=True,
                    )
                )
            return
        for out in match.cut_deals:
            for a, x in zip(self.possible_agents, out.payoffs, strict=True):
                self.rewards[a] += float(x)

    def observe(self, agent: str) -> dict[str, Any]:
        deal = self.deal
        assert deal is not None, "call reset() first"
        view = TableView.of(deal, check_agent(agent, self.possible_agents))
        return {self.observation_key: self._encode(view), "action_mask": table_mask_array(view.legal_mask)}

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        deal = self._finished_deal or self.deal
        if deal is None:
            return None
        if self.render_mode == "rgb_array":
            scores = self.match.scores if self.match is not None and self.episode == "match" else None
            return table_frame(deal, self.possible_agents, last=self._last_text, match_scores=scores)
        text = render_table(deal, self.possible_agents, self._last_text)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def render_table(deal: TableDeal, names: list[str], last: str | None = None) -> str:
    """A spectator's text (every hand face up): trump, hands, the trick, points and the result."""
    trump = "not chosen yet" if deal.trump < 0 else "♣♠♥♦"[deal.trump]
    if deal.trump_card >= 0:
        trump += f" (turned {card_symbol(deal.trump_card)})"
    lines = [f"Sixty-Six, {deal.game} ({deal.rules.name}) · trump {trump} · dealer {names[deal.dealer]}"]
    for p in range(deal.n_players):
        side = deal.side_of(p)
        label = f"team {side}" if deal.n_sides == 2 else "points"
        lines.append(
            f"  {names[p]:>9}: {hand_text(deal.hands[p], deal.trump):<34} {label} {deal.points[side]:>3}, "
            f"tricks {deal.tricks_won[p]}"
        )
    if deal.contract:
        contract = CONTRACT_NAMES[deal.contract]
        lines.append(f"  contract: {contract} by {names[deal.bidder]}, {names[deal.sitting_out]} sits out, no trumps")
    if deal.trick:
        played = ", ".join(f"{names[q]} {card_symbol(c)}" for q, c in zip(deal.trick_seats(), deal.trick, strict=False))
        lines.append(f"  trick: {played}")
    if last:
        lines.append(f"  last: {last}")
    out = deal.outcome
    if out is None:
        lines.append(f"  to act: {names[deal.current]} ({deal.decision.name.lower()})")
    elif out.termination == TableTermination.DRAWN:
        lines.append("  drawn deal: the most points are shared, nobody pays")
    else:
        who = f"team {out.winner}" if deal.n_sides == 2 else names[out.winner]
        lines.append(f"  {who} wins ({out.termination.name.lower()}): payoffs {list(out.payoffs)}")
    return "\n".join(lines)
