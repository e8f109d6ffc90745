"""Perfect-Information Monte Carlo (PIMC): average over guesses of the hidden cards.

Each sample deals the cards the player cannot see at random (``info.sample(rng)``, consistent
with everything public, including what the opponent's follows since closing rule out), values
every legal action on that full deal, and plays the action with the best average value (game
points for the acting player). Why: exact search is cheap once the cards are placed, and the
average over guesses is a strong policy at a few milliseconds a decision.

How a sampled deal is valued: exactly by alpha-beta once its stock is closed or exhausted (every
possible opposing hand is solved when there are no more than the budget); while the stock is
open, by a heuristic playout for both sides (``endgame="playout"``), or a playout until the stock
closes or runs out and an exact solve from there (``endgame="solve"``; ``solve_stock=k`` solves
from k stock cards on). ``closing="solve"`` (default) or ``"playout"`` values the action that
closes the stock. ``solver="fast"`` runs the same searches and playouts in numba (the ``fast``
extra): the same moves at a tenth of the CPU. ``model="heuristic"`` (with ``miss``) samples whole
deals weighted by how well the heuristic explains the opponent's past choices
(:mod:`sixtysix_env.agents.inference`); ``reply="heuristic"`` values exact endgames as the best
response to the heuristic instead of minimax (:mod:`sixtysix_env.agents.response`);
``tiebreak="response"`` keeps minimax once every card is placed but breaks its ties by that
response. ``prior="ensemble_standard"`` (a shipped network, or the path of a ``.npz``) adds
``prior_weight`` times the log of the network's probability of each action to its mean value
while the stock is open: the network vetoes the actions it finds implausible, which a search that
sees each sample's cards values too well (strategy fusion); a value lead of more than
``prior_weight * 20.7`` points (a probability floor of 1e-9) still overrules it. Ties left go to
the heuristic's choice, then the lowest action id.

The measurements behind each option and default are on the agents page of the documentation
(docs/agents.md, "PIMC: what each option measured").
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Protocol

from ..actions import CLOSE
from ..checks import check_choice, check_int, check_real
from ..engine import Deal
from ..infostate import InfoState
from ..rules import Rules
from .alphabeta import solve, solve_actions
from .base import MAX_BUDGET, MAX_TIME_MS, only_choice, stock_is_settled
from .heuristic import heuristic_deal_action, heuristic_info_action, heuristic_playout
from .inference import MODELS, PastSampler, mismatches
from .response import response_value, response_values

if TYPE_CHECKING:  # numba (the fast extra) is imported only when a fast search is made
    from pathlib import Path

    from .fast.playout import FastPlayouts
    from .fast.response import FastResponse
    from .fast.solver import FastSolver
    from .mlp import MLPPolicy

__all__ = ["PIMCAgent", "best_action", "evaluate_actions"]

_ENDGAMES = ("playout", "solve")
_CLOSINGS = ("solve", "playout")
_SOLVERS = ("python", "fast")
_REPLIES = ("minimax", "heuristic")
_TIEBREAKS = ("search", "response")
_MAX_ENUMERATED = 200
_PROBABILITY_FLOOR = 1e-9
"""The least probability the prior counts: its veto costs at most ``prior_weight * 20.7`` points."""


def _drop_after(miss: float) -> int:
    """Extra misses beyond the best sample's at which a sample's weight falls under 1/1000."""
    if miss <= 0.0:
        return 1
    if miss >= 1.0:
        return 1 << 30
    return max(1, math.ceil(math.log(1e-3) / math.log(miss)))


def _prior_path(prior: str) -> Path:
    """The network file of ``prior``: a shipped model's name, or the path of a ``.npz`` of yours."""
    if not isinstance(prior, str) or not prior:
        raise ValueError(f"prior must name a shipped network or a .npz file, got {prior!r}")
    from .policies import check_model_path, shipped_model  # numpy: only for an agent with a prior

    try:
        return check_model_path(prior) if prior.endswith(".npz") else shipped_model(model=prior)
    except (ValueError, FileNotFoundError) as e:
        raise ValueError(f"prior={prior!r}: {e}") from None


class _Exact(Protocol):
    def action_values(self, deal: Deal) -> dict[int, int]: ...
    def value(self, deal: Deal, player: int | None = None) -> int: ...


class _Playouts(Protocol):
    def action_values(
        self, deal: Deal, legal: list[int], endgame: str = "playout", closing: str = "solve", solve_stock: int = 0
    ) -> list[int]: ...


def fast_solver_for(rules: Rules) -> FastSolver:
    """One numba solver (``sixtysix_env.agents.fast.solver``, needs the ``fast`` extra) per ruleset and
    process: its table (23 MiB) is shared by every agent that searches those rules."""
    from .fast.solver import FastSolver

    solver = _FAST_SOLVERS.get(rules)
    if solver is None:
        solver = _FAST_SOLVERS[rules] = FastSolver(rules, table_bits=20)
    return solver


_FAST_SOLVERS: dict[Rules, FastSolver] = {}


def fast_response_for(rules: Rules) -> FastResponse:
    """One numba best response to the heuristic (``sixtysix_env.agents.fast.response``) per ruleset and
    process, its table shared like the solver's."""
    from .fast.response import FastResponse

    search = _FAST_RESPONSES.get(rules)
    if search is None:
        search = _FAST_RESPONSES[rules] = FastResponse(rules)
    return search


_FAST_RESPONSES: dict[Rules, FastResponse] = {}


class _PythonResponse:
    """The reference best response to the heuristic as an exact valuation (``reply="heuristic"``
    with the Python solver)."""

    def action_values(self, deal: Deal) -> dict[int, int]:
        return response_values(deal)

    def value(self, deal: Deal, player: int | None = None) -> int:
        return response_value(deal, deal.current if player is None else player)


def fast_playouts_for(rules: Rules, reply: str = "minimax") -> FastPlayouts:
    """The numba playouts (``sixtysix_env.agents.fast.playout``) of a ruleset, on its shared solver
    (``reply="heuristic"``: on its best response to the heuristic)."""
    from .fast.playout import FastPlayouts

    playouts = _FAST_PLAYOUTS.get((rules, reply))
    if playouts is None:
        exact = fast_response_for(rules) if reply == "heuristic" else fast_solver_for(rules)
        playouts = _FAST_PLAYOUTS[rules, reply] = FastPlayouts(exact)
    return playouts


_FAST_PLAYOUTS: dict[tuple[Rules, str], FastPlayouts] = {}


def _finish(
    deal: Deal,
    player: int,
    endgame: str,
    solver: _Exact | None = None,
    played_out: bool = False,
    solve_stock: int = 0,
) -> float:
    """Value for ``player`` of a sampled deal after one action: exact once the stock is closed or
    exhausted, else a heuristic playout (``endgame="solve"``: only until that point, or until the
    stock holds ``solve_stock`` cards or fewer, then exact); ``played_out``: a heuristic playout
    to the end, whatever the stock."""
    if played_out:
        return heuristic_playout(deal).returns()[player]
    solve_open = endgame == "solve"
    if solve_open:
        while deal.outcome is None and deal.stock_open and len(deal.stock) > solve_stock:
            deal.apply(heuristic_deal_action(deal))
    if deal.outcome is not None:
        return deal.outcome.returns()[player]
    if not deal.stock_open or (solve_open and len(deal.stock) <= solve_stock):
        return solver.value(deal, player) if solver is not None else solve(deal, player)[0]
    return heuristic_playout(deal).returns()[player]


def evaluate_actions(
    deal: Deal,
    legal: list[int],
    endgame: str = "playout",
    solver: _Exact | None = None,
    playouts: _Playouts | None = None,
    closing: str = "solve",
    solve_stock: int = 0,
) -> list[float]:
    """Value of each action in ``legal`` on one full (sampled) deal, for the player to act
    (``solver``, ``playouts``: the numba search and playouts, the same values, faster;
    ``closing="playout"``: closing the open stock is valued by a playout, not solved;
    ``solve_stock``: with ``endgame="solve"``, exact once the stock holds that many cards)."""
    player = deal.current
    if not deal.stock_open:
        values = solver.action_values(deal) if solver is not None else solve_actions(deal, player)
        return [values[a] for a in legal]
    if playouts is not None:
        return [float(v) for v in playouts.action_values(deal, legal, endgame, closing, solve_stock)]
    out = []
    for a in legal:
        child = deal.clone()
        child.apply(a)
        out.append(_finish(child, player, endgame, solver, a == CLOSE and closing == "playout", solve_stock))
    return out


def best_action(info: InfoState, values: dict[int, float]) -> int:
    """The action of highest value; ties (common near the end, when every action wins) go to the
    heuristic's choice, then to the first action listed."""
    best = max(values.values())
    tied = [a for a, v in values.items() if v >= best - 1e-9]
    if len(tied) > 1:
        preferred = heuristic_info_action(info)
        if preferred in tied:
            return preferred
    return tied[0]


class _Arranged:
    """A stand-in RNG whose ``shuffle`` puts given cards first: ``InfoState.sample`` then deals
    exactly those cards to the opponent's unknown slots."""

    def __init__(self, first: tuple[int, ...]) -> None:
        self.first = first

    def shuffle(self, pool: list[int]) -> None:
        rest = [c for c in pool if c not in self.first]
        pool[:] = [*self.first, *rest]


def _closed_hands(info: InfoState, limit: int) -> list[tuple[int, ...]] | None:
    """Every possible set of the opponent's unknown cards once the stock is closed (its order no
    longer matters then; none his play rules out), when there are at most ``limit`` of them; else
    None."""
    if info.closed_by < 0:
        return None
    allowed = info.unseen & ~info.opponent_cannot_hold()
    unseen = [c for c in range(24) if allowed >> c & 1]
    k = info.opponent_hand_size - info.known_opponent.bit_count()
    if comb(len(unseen), k) > limit:
        return None
    return list(combinations(unseen, k))


class PIMCAgent:
    """PIMC with a budget of ``samples`` determinizations per decision (default 20), or of
    ``time_ms`` milliseconds (then at least one sample, and at most ``samples`` if given).
    A sample budget keeps play reproducible; a time budget depends on the machine. ``endgame``,
    ``solve_stock`` and ``closing`` say how a sampled deal is valued, ``solver`` where (module
    docstring)."""

    name = "pimc"

    def __init__(
        self,
        samples: int | None = None,
        time_ms: float | None = None,
        endgame: str = "playout",
        solver: str = "python",
        closing: str = "solve",
        solve_stock: int = 0,
        model: str | None = None,
        miss: float = 0.1,
        reply: str = "minimax",
        tiebreak: str = "search",
        prior: str | None = None,
        prior_weight: float | None = None,
    ) -> None:
        check_choice("reply", reply, _REPLIES)
        check_choice("tiebreak", tiebreak, _TIEBREAKS)
        if tiebreak == "response" and reply == "heuristic":
            raise ValueError(
                "tiebreak='response' breaks the ties of minimax once every card is placed; with "
                "reply='heuristic' the endgame is already valued as that response: give one of them"
            )
        self.reply = reply
        self.tiebreak = tiebreak
        if model is not None:
            check_choice("model", model, tuple(MODELS))
        miss = check_real("miss", miss, 0.0, 1.0)
        samples = None if samples is None else check_int("samples", samples, 1, MAX_BUDGET)
        time_ms = None if time_ms is None else check_real("time_ms", time_ms, 0.0, MAX_TIME_MS, above=True)
        check_choice("endgame", endgame, _ENDGAMES)
        check_choice("solver", solver, _SOLVERS)
        check_choice("closing", closing, _CLOSINGS)
        solve_stock = check_int("solve_stock", solve_stock, 0, 24)
        if solve_stock and endgame != "solve":
            raise ValueError(
                f"solve_stock={solve_stock} needs endgame='solve' (playouts until the stock holds "
                f"that many cards, then an exact solve), got endgame={endgame!r}"
            )
        self.solve_stock = solve_stock
        if prior is None and prior_weight is not None:
            raise ValueError(f"prior_weight={prior_weight!r} weighs a network's prior: give prior=NETWORK too")
        self.prior_weight = check_real("prior_weight", 0.05 if prior_weight is None else prior_weight, 0.0, 1e6)
        self.prior = prior
        self._prior_path = None if prior is None else _prior_path(prior)
        self.model = model
        self.miss = miss
        self.closing = closing
        self.solver = solver
        self.samples = samples if samples is not None else (1_000_000 if time_ms is not None else 20)
        self.time_ms = time_ms
        self.endgame = endgame

    def prepare(self, rules: Rules) -> None:
        """Compile the numba search ahead of play (``solver="fast"``: 10-20 s once per process), so
        the first decision is not slow; the arena calls it before timing its trial decision."""
        if self._prior_path is not None:
            self._prior_policy(self._prior_path)
        if self.solver == "fast":
            from .fast import playout, response, solver

            solver.warm_up(fast_solver_for(rules))
            if self.reply == "heuristic" or self.tiebreak == "response":
                response.warm_up(fast_response_for(rules))
            playout.warm_up(fast_playouts_for(rules, self.reply))

    def _exact(self, rules: Rules) -> _Exact | None:
        """How a full deal with the stock closed or exhausted is valued: None for the reference
        alpha-beta (minimax), else the object that does it."""
        if self.reply == "heuristic":
            return fast_response_for(rules) if self.solver == "fast" else _PythonResponse()
        return fast_solver_for(rules) if self.solver == "fast" else None

    def act(self, info: InfoState, rng: random.Random) -> int:
        legal = info.legal_actions()
        forced = only_choice(info, legal)
        if forced is not None:
            return forced
        if info.unseen == 0 and self.reply == "minimax":  # every card placed: the one "sample" is the deal itself
            deal = info.sample(rng)
            return solve(deal)[1] if self.tiebreak == "search" else self._exploit(info, deal, legal)
        totals, n = self._totals(info, legal, rng)
        if self._prior_path is None or stock_is_settled(info):
            return best_action(info, dict(zip(legal, totals, strict=True)))
        from .policies import legal_probabilities

        probs = legal_probabilities(self._prior_policy(self._prior_path), info)
        w = self.prior_weight
        return best_action(
            info,
            {a: t / n + w * math.log(max(probs[a], _PROBABILITY_FLOOR)) for a, t in zip(legal, totals, strict=True)},
        )

    @staticmethod
    def _prior_policy(path: Path) -> MLPPolicy:
        """The prior network, loaded once per process. The import of the network code (numpy) waits
        until here, so a process without a prior (a tournament's bot) never loads it."""
        from .policies import cached_policy

        return cached_policy(path)

    def _exploit(self, info: InfoState, deal: Deal, legal: list[int]) -> int:
        """``tiebreak="response"`` on the true deal: a minimax-optimal action, the one worth most
        against the heuristic's replies where minimax is indifferent, then the heuristic's."""
        fast = self.solver == "fast"
        values = fast_solver_for(info.rules).action_values(deal) if fast else solve_actions(deal)
        best = max(values[a] for a in legal)
        tied = [a for a in legal if values[a] == best]
        if len(tied) == 1:
            return tied[0]
        replies = fast_response_for(info.rules).action_values(deal) if fast else response_values(deal)
        return best_action(info, {a: float(replies[a]) for a in tied})

    def action_values(self, info: InfoState, rng: random.Random) -> dict[int, float]:
        """What ``act`` maximises (without a ``prior``; with one, ``act`` adds its term while the
        stock is open): each legal action's mean value in game points for the player to act over the
        samples (exact once every card is placed), for analysis and for distillation labels that
        carry how much a choice matters, not only which one was made."""
        legal = info.legal_actions()
        if info.unseen == 0 and self.reply == "minimax":
            return solve_actions(info.sample(rng))
        totals, n = self._totals(info, legal, rng)
        return {a: t / n for a, t in zip(legal, totals, strict=True)}

    def _totals(self, info: InfoState, legal: list[int], rng: random.Random) -> tuple[list[float], float]:
        """The sum of each action's values over the samples, and the number of samples."""
        deadline = time.perf_counter() + self.time_ms / 1000 if self.time_ms is not None else None
        totals = [0.0] * len(legal)
        weighted: Iterator[tuple[float, Deal]]
        if info.unseen == 0:  # every card placed: the one sample is the deal itself
            weighted = iter([(1.0, info.sample(rng))])
        elif self.model is not None:
            weighted = self._weighted(info, rng, deadline)
        elif (hands := _closed_hands(info, min(self.samples, _MAX_ENUMERATED))) is not None:
            rng.shuffle(hands)  # a time budget then stops after a random subset
            weighted = ((1.0, info.sample(_Arranged(h))) for h in hands)
        else:
            weighted = ((1.0, info.sample(rng)) for _ in range(self.samples))
        exact = self._exact(info.rules)
        playouts = fast_playouts_for(info.rules, self.reply) if self.solver == "fast" else None
        n = 0.0
        for w, deal in weighted:
            n += w
            values = self._values(deal, legal, exact, playouts)
            for i, v in enumerate(values):
                totals[i] += w * v
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return totals, n

    def _values(self, deal: Deal, legal: list[int], exact: _Exact | None, playouts: _Playouts | None) -> list[float]:
        """Each legal action's value on one sampled deal; the search best response
        (:mod:`.search_br`) values it against a target agent's replies instead."""
        return evaluate_actions(deal, legal, self.endgame, exact, playouts, self.closing, self.solve_stock)

    def _weighted(self, info: InfoState, rng: random.Random, deadline: float | None) -> Iterator[tuple[float, Deal]]:
        """Deals sampled with their past, each weighted ``miss`` to the power of the opponent's
        choices the model would have made otherwise, counted from the best sample's (so an
        opponent the model explains badly still leaves samples to average); negligible ones are
        dropped before any is valued. A time budget spends at most half its time here."""
        model = MODELS[self.model]  # type: ignore[index]
        sampler = PastSampler(info, rng)
        stop = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / 2
        drop = _drop_after(self.miss)
        best = 1 << 30
        scored: list[tuple[int, Deal]] = []
        for _ in range(self.samples):
            deal = sampler.sample(rng)
            if deal is not None:
                try:
                    m = mismatches(deal, info.history, info.opponent, model, best + drop)
                except ValueError:  # a history the engine does not replay (a view built by hand)
                    break
                best = min(best, m)
                scored.append((m, deal))
            if stop is not None and time.perf_counter() >= stop:
                break
        kept = [(self.miss ** (m - best), d) for m, d in scored if m < best + drop]
        if not kept:  # no past fits (guard): plain samples, drawn as they are valued
            return ((1.0, info.sample(rng)) for _ in range(self.samples))
        return iter(kept)

    def __repr__(self) -> str:
        return (
            f"PIMCAgent(samples={self.samples}, time_ms={self.time_ms}, endgame={self.endgame!r}, "
            f"solver={self.solver!r}, closing={self.closing!r}, solve_stock={self.solve_stock}, model={self.model!r}, "
            f"miss={self.miss}, reply={self.reply!r}, tiebreak={self.tiebreak!r}, prior={self.prior!r}, "
            f"prior_weight={self.prior_weight})"
        )
