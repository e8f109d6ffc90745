"""A search best response: PIMC whose opponent model is a given target agent (``br:target=SPEC``).

``pimc:reply=heuristic`` values a sampled deal as the best response to the built-in heuristic.
This is the same idea for any agent: in every deal sampled from the player's own view
(``info.sample(rng)``), the opponent's moves are the *target's* own choices, asked on the
opponent's view of that sampled deal (``InfoState.of(deal, opponent)``: his sampled hand, what
he knows of ours, the public history), never on the real hidden cards. Our own later moves are
the target's policy on our view of the sample (``rollout="target"``, default: the root choice is
then one step of policy improvement over the target) or the heuristic's (``rollout="heuristic"``),
and searched once the stock is closed or exhausted and our hand holds at most ``search_cards``
cards: the best we can do with every card of that sample face up against the target's replies
(a one-player search, exact for that target on that sample). Each root action is valued that
way on every sample, and the best average is played.

It is a strategy like any other: whatever it plays, its game points per deal against the target
(the arena's G, duplicate deals) are a lower bound on the target's exploitability
(``python -m sixtysix_env.exploitability``, docs/exploitability.md). Its limits: the hidden
cards are sampled uniformly, not from the target's posterior; PIMC's strategy fusion (each
sample is valued as if we knew its cards); and a search only as deep as ``search_cards``.

Spec: ``br:target=ppo+model=cleanrl_standard_long:samples=8``. The target is any agent text the
arena takes, written with ``+`` where it has ``:`` (a spec's parts are split at colons).
Expensive targets (``pimc``, ``ismcts``) cost a whole search per reply: ``target_moves=k`` lets
the target play only the opponent's next ``k`` moves of each rollout, the heuristic the rest.
"""

from __future__ import annotations

import random

from ..checks import check_choice, check_int
from ..engine import Deal
from ..infostate import InfoState
from ..rules import Rules
from .base import Agent, only_choice
from .heuristic import heuristic_deal_action
from .pimc import PIMCAgent, _Exact, _Playouts, best_action

__all__ = ["SearchBestResponse", "parse_target"]

ROLLOUTS = ("target", "heuristic")
"""Who plays our own later moves in a rollout (until our moves are searched): the target's policy
on our view of the sample (one step of policy improvement over the target), or the heuristic."""
SEPARATOR = "+"
"""What stands for ``:`` in the target's spec (``target=ppo+model=NAME``)."""


def parse_target(target: object) -> tuple[str, Agent]:
    """The target's spec text (``+`` read as ``:``) and a new agent built from it; a ValueError
    naming what is allowed otherwise."""
    from .spec import parse_agent_spec  # the spec parser reads the registry, which names this module lazily

    if not isinstance(target, str) or not target.strip():
        raise ValueError(
            f"target={target!r} is not allowed: give the target agent's spec, with '+' for ':' "
            "(target=heuristic, target=ppo+model=cleanrl_standard_long)"
        )
    text = target.strip().replace(SEPARATOR, ":")
    head = text.split(":")[0]
    if head == "br":
        raise ValueError(f"target={target!r} is not allowed: the target of a best response cannot be one itself")
    try:
        spec = parse_agent_spec(text)
    except ValueError as e:
        raise ValueError(f"bad target={target!r} (read as {text!r}): {e}") from None
    return text, spec.make()


class SearchBestResponse(PIMCAgent):
    """PIMC against a known target (module docstring): ``target`` the target's spec (``+`` for
    ``:``), ``samples``/``time_ms`` PIMC's budget, ``search_cards`` from how few cards in our hand
    our moves are searched once the stock is closed or exhausted (0: never, the rollout policy
    plays them), ``target_moves`` how many of the opponent's moves per rollout the target plays (None:
    all; the heuristic plays the rest, ours too), ``rollout`` who plays our own later moves
    (``ROLLOUTS``)."""

    name = "br"

    def __init__(
        self,
        target: str = "heuristic",
        samples: int | None = None,
        time_ms: float | None = None,
        search_cards: int = 3,
        target_moves: int | None = None,
        rollout: str = "target",
    ) -> None:
        super().__init__(samples=8 if samples is None and time_ms is None else samples, time_ms=time_ms)
        self.target_text, self.target = parse_target(target)
        self.search_cards = check_int("search_cards", search_cards, 0, 6)
        self.target_moves = None if target_moves is None else check_int("target_moves", target_moves, 1, 1000)
        check_choice("rollout", rollout, ROLLOUTS)
        self.rollout = rollout
        self._target_rng = random.Random(0)
        self._rules: Rules | None = None

    def prepare(self, rules: Rules) -> None:
        """The target's one-off set-up (a numba search compiled), before play."""
        prepare = getattr(self.target, "prepare", None)
        if callable(prepare) and rules is not self._rules:
            prepare(rules)
            self._rules = rules

    def act(self, info: InfoState, rng: random.Random) -> int:
        legal = info.legal_actions()
        forced = only_choice(info, legal)
        if forced is not None:
            return forced
        totals, _ = self._search(info, legal, rng)
        return best_action(info, dict(zip(legal, totals, strict=True)))

    def action_values(self, info: InfoState, rng: random.Random) -> dict[int, float]:
        """Each legal action's mean value (game points) against the target over the samples."""
        legal = info.legal_actions()
        totals, n = self._search(info, legal, rng)
        return {a: t / n for a, t in zip(legal, totals, strict=True)}

    def _search(self, info: InfoState, legal: list[int], rng: random.Random) -> tuple[list[float], float]:
        self.prepare(info.rules)
        # the target's own randomness for this decision, drawn from ours: seeded play stays reproducible
        self._target_rng = random.Random(rng.getrandbits(64))
        return self._totals(info, legal, rng)

    def _values(self, deal: Deal, legal: list[int], exact: _Exact | None, playouts: _Playouts | None) -> list[float]:
        me = deal.current
        out = []
        for a in legal:
            child = deal.clone()
            child.apply(a)
            out.append(float(self._value(child, me, 0)))
        return out

    def _reply(self, deal: Deal, moves: int) -> int:
        """The opponent's move: the target's on his view of this (sampled) deal, within the cap."""
        if self.target_moves is not None and moves >= self.target_moves:
            return heuristic_deal_action(deal)
        view = InfoState.of(deal, deal.current)
        return int(self.target.act(view, self._target_rng))

    def _value(self, deal: Deal, me: int, moves: int) -> int:
        """Our game points on ``deal`` from here: the target replies, we play the heuristic, or
        search our moves once few cards are left and the stock is closed or exhausted."""
        while deal.outcome is None:
            if deal.current != me:
                deal.apply(self._reply(deal, moves))
                moves += 1
                continue
            legal = deal.legal_actions()
            if len(legal) > 1 and not deal.stock_open and deal.hands[me].bit_count() <= self.search_cards:
                best = -(1 << 30)
                for a in legal:
                    child = deal.clone()
                    child.apply(a)
                    best = max(best, self._value(child, me, moves))
                return best
            deal.apply(self._own(deal, moves))
        return int(deal.returns()[me])

    def _own(self, deal: Deal, moves: int) -> int:
        """Our own later move in a rollout: the target's policy on our view of the sample (within
        the cap, as his), or the heuristic's."""
        if self.rollout == "heuristic" or (self.target_moves is not None and moves >= self.target_moves):
            return heuristic_deal_action(deal)
        return int(self.target.act(InfoState.of(deal, deal.current), self._target_rng))

    def __repr__(self) -> str:
        return (
            f"SearchBestResponse(target={self.target_text!r}, samples={self.samples}, time_ms={self.time_ms}, "
            f"search_cards={self.search_cards}, target_moves={self.target_moves}, rollout={self.rollout!r})"
        )
