"""The three- and four-player games on the shared AEC bookkeeping (:mod:`.base`).

The rules live in :mod:`sixtysix_env.table`; ``SixtySixAEC`` keeps PettingZoo's dicts in
step with the deal (or match) and this class supplies the table game: its engine, encoders,
rewards and renders. ``sixtysix_three_v0`` and ``sixtysix_four_v0`` subclass it with their game,
their defaults and their documentation.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from ..cards import card_symbol
from ..render import hand_text
from ..render_image import table_frame
from ..table.actions import CONTRACT_NAMES, NUM_TABLE_ACTIONS, table_action_label
from ..table.deal import TableDeal, TableTermination
from ..table.match import TableMatch
from ..table.observers import TABLE_ENCODERS, table_observation_space
from ..table.rewards import DEFAULT_SHAPING_SCALE, check_reward_scheme, table_step_rewards, win_loss_rewards
from . import base
from .base import SixtySixAEC
from .options import given_deal

__all__ = ["TableEnv", "wrap", "table_mask_array"]


def table_mask_array(mask: int) -> np.ndarray:
    """An int action bitmask as the (NUM_TABLE_ACTIONS,) int8 array PettingZoo expects."""
    raw = np.frombuffer(mask.to_bytes((NUM_TABLE_ACTIONS + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:NUM_TABLE_ACTIONS].view(np.int8)


def wrap(env: TableEnv, illegal_reward: float | None) -> AECEnv:
    """Wrapped as PettingZoo's classic games are: an illegal action ends the episode with
    ``illegal_reward`` for the offender (default: the largest loss of one deal)."""
    return base.wrap(env, illegal_reward, "pettingzoo")


class TableEnv(SixtySixAEC):
    """Base of the three- and four-player AEC environments."""

    game: ClassVar[type[TableDeal]]
    num_actions: ClassVar[int] = NUM_TABLE_ACTIONS
    mask_array = staticmethod(table_mask_array)
    match: TableMatch | None
    deal: TableDeal | None

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
        n = self.game.n_players
        super().__init__(
            rules=self.game._get_rules(rules),
            n_players=n,
            encoders=TABLE_ENCODERS,
            observation_space=lambda name: table_observation_space(name, n),
            observation=observation,
            reward=reward,
            episode=episode,
            render_mode=render_mode,
            shaping_scale=shaping_scale,
            check_reward_scheme=check_reward_scheme,
            observation_key=observation_key,
        )

    def _new_match(self, rng: random.Random, first_deal: TableDeal | None) -> TableMatch:
        return TableMatch(self.game, self.rules, rng, first_deal=first_deal)

    def _deal_from_options(self, spec: Any) -> TableDeal:
        if isinstance(spec, TableDeal):
            if not isinstance(spec, self.game):
                raise ValueError(f"options['deal'] is a {type(spec).__name__}: this env plays {self.game.__name__}")
            return given_deal(spec, self.rules)
        if not isinstance(spec, dict) or "hands" not in spec or set(spec) - {"hands", "dealer"}:
            raise ValueError(
                f"options['deal'] must be {{'hands': [...{self.game.n_players} hands in the order dealt], "
                "'dealer': 0} with card strings"
            )
        return self.game.from_arrangement(spec["hands"], spec.get("dealer", 0), self.rules)

    def _step_rewards(self, deal: TableDeal, before: tuple[int, ...]) -> tuple[float, ...]:
        match = self.match
        assert match is not None
        match_winners = None
        if self.episode == "match":
            match_winners = match.winners if match.is_over else []
        return table_step_rewards(self.reward_scheme, deal, before, match_winners, self.shaping_scale)

    def _action_label(self, action: int, decision: Any) -> str:
        return table_action_label(action, decision)

    def _on_next_deal(self, match: TableMatch, rewards: list[float]) -> None:
        """Deals the cut decided (Russian game) while dealing on: nobody acted in them, so their
        payoffs join this step's ``rewards``; one may end the match (then win_loss pays its winners)."""
        if not match.cut_deals:
            return
        if self.reward_scheme == "win_loss":
            if match.is_over:
                stake = match.stake
                rewards[:] = [stake * x for x in win_loss_rewards(len(self.possible_agents), match.winners)]
            return
        for out in match.cut_deals:
            for p, x in enumerate(out.payoffs):
                rewards[p] += float(x)

    def _start_rewards(self, match: TableMatch) -> list[float] | None:
        """Deals the cut decided before the first deal of a match episode: nobody acted in them,
        so their payoffs join the first step's rewards (win_loss pays only the match's end)."""
        if self.episode != "match" or not match.cut_deals or self.reward_scheme == "win_loss":
            return None
        return [float(sum(out.payoffs[p] for out in match.cut_deals)) for p in range(len(self.possible_agents))]

    def _render_text(self, deal: TableDeal, scores: Any) -> str:
        return render_table(deal, self.possible_agents, self._last_text)

    def _render_frame(self, deal: TableDeal, scores: Any) -> np.ndarray:
        return table_frame(deal, self.possible_agents, last=self._last_text, match_scores=scores)


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
