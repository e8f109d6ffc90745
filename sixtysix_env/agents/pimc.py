"""Perfect-Information Monte Carlo (PIMC): average over guesses of the hidden cards.

Each sample deals the cards the player cannot see at random (``info.sample(rng)``, consistent
with everything public), values every legal action on that full deal, and the action with the
best average value over the samples is played. Values are game points for the acting player.

How one full deal is valued: once the sampled deal's stock is closed or exhausted, alpha-beta
solves it exactly (0.3-2 ms); while the stock is open an exact solve takes up to seconds, so
each action is followed by a heuristic playout for both sides (``endgame="playout"``, about 0.1
ms), or by a heuristic playout until the stock closes or runs out and an exact solve from there
(``endgame="solve"``, exact in phase 2 but several times slower; with ``solve_stock=k`` the
solve starts once the open stock holds k cards or fewer, so ``2`` solves the last trick before
it runs out too). An action that closes the stock is solved exactly (``closing="solve"``, the
default) or played out by the heuristic like the other actions (``closing="playout"``). With no
unseen cards the one sample is the true deal, so PIMC plays exact alpha-beta; once the stock is
closed only the opponent's hand matters, and when it has no more possible hands than the sample
budget (at most 200), every one of them is solved: an exact average.

Why ``closing="playout"``: the exact solve of a sampled deal knows the opponent's cards, so it
values closing as if the closer could see them, while the other actions are valued by playouts
that cannot: closing is flattered. Played out instead, it gained +0.037 points per deal
(paired SE 0.018) with 100 samples and +0.026 (0.020) with 400, on the first 500 of the 2,000
deal pairs below.

Ties (common near the end, when every action wins) go to the heuristic's choice, then to the
lowest action id, so the agent plays sensibly where the search is indifferent.

Budget: 20 samples (the default) take about 10 ms CPU per decision with the reference solver
(median 8 ms; ``benchmarks/bench_agents.py``). More samples help against the heuristic, up to a
few hundred: on the same 2,000 duplicate standard deal pairs (``benchmarks/bench_gap.py --deals
2000 --seed 0``), G was +0.489 with 20 samples, +0.634 with 50, +0.696 with 100 and +0.744 with
400, the oracle's +1.186 (gap closed 0.41, 0.53, 0.59 and 0.63); 1,000 samples were no better
than 400 on the first 500 pairs (-0.032, paired SE 0.036). Head to head they are closer (40
samples against 20 won 0.499 of 422 deals, 95% CI 0.451-0.546). The default stays 20 (the fixed
reference of the tables); ``samples=400, solver="fast", closing="playout"`` is the strong
setting (README, gap table). Exact endgames did not help: ``endgame="solve"`` with 20 samples
won 0.579 of 318 deals against the heuristic where ``"playout"`` won 0.583 on the same deals, at
about 7 times the time, and with 400 samples it lost 0.068 points per deal (paired SE 0.063, 200
pairs) at 102 ms a decision. Samples that respect the opponent's follows after closing
(``InfoState.opponent_cannot_hold``) moved G with 50 samples from +0.707 to +0.720 on 300 pairs:
kept because it is right, not because it was shown to help.

``solver="fast"`` (the ``fast`` extra) solves with the numba search (``sixtysix_env.fast.solver``)
and plays the open-stock playouts in numba too (``sixtysix_env.fast.playout``): the same values,
so the same moves (tested), at a tenth of the CPU (100 samples: 8.2 ms per decision against 86 ms
with Python playouts, the same 50 deal pairs). Solving sampled deals exactly while the stock is
still open was tried and is worse, because each sample's solve knows that sample's order of the
stock: on 150 duplicate standard deal pairs against the heuristic, G was +0.487 with playouts,
+0.363 solving exactly from 2 stock cards on and +0.217 from 4.

An opponent model (``model="heuristic"``, :mod:`sixtysix_env.agents.inference`) samples whole
deals from their start instead (who was dealt what, what each draw brought), replays the public
history on each, and weighs it ``miss`` (default 0.1) to the power of the opponent's past choices
the model would have made otherwise, counted from the best sample's, so an opponent the model
explains badly still leaves samples to average; ``miss=0`` keeps only the best-explained samples.
Why: what PIMC lacks most against the heuristic is its hand. Given the opponent's true hand (the
stock still sampled), the 400-sample setting scored +1.253 on the first 150 deal pairs below,
against +0.833 sampling it; given his hand only from the fourth trick on, +0.987; from the
seventh, +0.843: his hand is worth most early, where his play has told least
(``benchmarks/bench_hand_knowledge.py``). Inference gets little of it: on the 2,000 pairs, with
400 samples and ``closing="playout"``, ``model="heuristic", miss=0.3`` scored +0.820 against
+0.794 without a model, +0.026 (95% CI -0.017 to +0.068, paired), at 26 ms a decision against 8;
on the first 150 pairs ``miss=0.1`` and ``miss=0`` with 1,200 samples were no better than
``miss=0.3``. The heuristic's choices (lead the lowest card, throw the lowest) say little about
the high cards and trumps that decide a deal. Kept as an option, not the default.

How the opponent is modelled where a sampled deal is valued exactly: ``reply="minimax"`` (the
default) solves it as if he saw every card and never erred; ``reply="heuristic"`` plays his moves
by the heuristic (from what he may know in that sample) and searches only the player's own
(:mod:`sixtysix_env.agents.response`, in numba :mod:`sixtysix_env.fast.response`): the best
response to him. Against the heuristic that is his true policy, so the only error left in a sample
is the player's own perfect information. On the first 300 of the 2,000 deal pairs below, with
400 samples and ``closing="playout"``: +0.040 (95% CI +0.018 to +0.062, paired) with playouts in
phase 1; with ``endgame="solve", solve_stock=2`` too, +0.178 (+0.068 to +0.288). On all 2,000
pairs that setting scored +0.985 against +0.794 (+0.191, 95% CI +0.149 to +0.233), 0.68 of the
tie-breaking oracle's G, at 63 ms a decision (``docs/oracle.md``). With minimax the same exact
endgames lose: ``endgame="solve", solve_stock=2`` without ``reply`` scored +0.633 on those 300
pairs (-0.198 against plain playouts, 287 ms a decision). Minimax in a sample also lets the
opponent see the player's cards, an error that grows the earlier the search starts; the response
removes it. Against any other opponent it is a model, and a wrong one (against VU's
``RdeepBot`` it won 0.710 of seed 0's 1,000 games where minimax won 0.751): an option, not the
default.

In the VU package's game (``vu``: 20 cards, no closing) the same idea is what wins against its
``RdeepBot(16, 4)`` (``benchmarks/bench_vu.py``): ``samples=100, solver="fast", endgame="solve",
solve_stock=2`` won 75.1% of 1,000 games on seed 0, where ``solve_stock=0`` won 71.1% and plain
playouts 70.0% on the same decks (paired against the latter: +5.1 points, 95% CI +2.4 to +7.8),
and 74.5% over 2,000 games on two seeds. A likely reason: with two cards left, the solve's extra
knowledge is only which card lies face down (the other is the known trump card), little more
than it knows once the stock is out.

Once every card is placed the agent plays exact minimax, and minimax is often indifferent: every
action wins, or every action loses, by the same points. ``tiebreak="search"`` (the default) then
plays the search's first action; ``tiebreak="response"`` plays, among the minimax-optimal
actions only, the one worth most against the heuristic's replies (the best response of
:mod:`~.agents.response`), then the heuristic's choice. It never gives up minimax value and only
chooses where a perfect opponent would not punish the choice, so it is safe against anyone; it is
the issue-23 oracle's tie-break seen from the player's side (there the opponent's own policy
picks among optimal actions). Against VU's ``RdeepBot(16, 4)``, added to the setting above, it
changed the result of 15 of the two seeds' 2,000 games, 14 of them to wins: 75.1% [73.2, 76.9]
against 74.5% (paired +0.65 percentage points of win rate, 95% CI +0.27 to +1.03), at no
measurable cost in time.
Against the heuristic, on the first 300 of the 2,000 standard deal pairs, ``samples=400,
solver="fast", closing="playout"`` scored +0.870 with it against +0.832 without (+0.038, 95% CI
+0.017 to +0.060, paired; 13 pairs changed). With ``reply="heuristic"`` there are no minimax
values to break ties of, so the two options are not combined.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Protocol

from ..actions import CLOSE
from ..checks import check_choice, check_int, check_real
from ..engine import Deal
from ..infostate import InfoState
from ..rules import Rules
from .alphabeta import solve, solve_actions
from .base import MAX_BUDGET, MAX_TIME_MS, only_choice
from .heuristic import heuristic_deal_action, heuristic_info_action, heuristic_playout
from .inference import MODELS, PastSampler, mismatches
from .response import response_value, response_values

__all__ = ["PIMCAgent", "best_action", "evaluate_actions"]

_ENDGAMES = ("playout", "solve")
_CLOSINGS = ("solve", "playout")
_SOLVERS = ("python", "fast")
_REPLIES = ("minimax", "heuristic")
_TIEBREAKS = ("search", "response")
_MAX_ENUMERATED = 200


def _drop_after(miss: float) -> int:
    """Extra misses beyond the best sample's at which a sample's weight falls under 1/1000."""
    if miss <= 0.0:
        return 1
    if miss >= 1.0:
        return 1 << 30
    return max(1, math.ceil(math.log(1e-3) / math.log(miss)))


class _Exact(Protocol):
    def action_values(self, deal: Deal) -> dict[int, int]: ...
    def value(self, deal: Deal, player: int | None = None) -> int: ...


class _Playouts(Protocol):
    def action_values(
        self, deal: Deal, legal: list[int], endgame: str = "playout", closing: str = "solve", solve_stock: int = 0
    ) -> list[int]: ...


def fast_solver_for(rules: Rules) -> _Exact:
    """One numba solver (``sixtysix_env.fast.solver``, needs the ``fast`` extra) per ruleset and
    process: its table (23 MiB) is shared by every agent that searches those rules."""
    from ..fast.solver import FastSolver

    solver = _FAST_SOLVERS.get(rules)
    if solver is None:
        solver = _FAST_SOLVERS[rules] = FastSolver(rules, table_bits=20)
    return solver


_FAST_SOLVERS: dict[Rules, _Exact] = {}


def fast_response_for(rules: Rules) -> _Exact:
    """One numba best response to the heuristic (``sixtysix_env.fast.response``) per ruleset and
    process, its table shared like the solver's."""
    from ..fast.response import FastResponse

    search = _FAST_RESPONSES.get(rules)
    if search is None:
        search = _FAST_RESPONSES[rules] = FastResponse(rules)
    return search


_FAST_RESPONSES: dict[Rules, _Exact] = {}


class _PythonResponse:
    """The reference best response to the heuristic as an exact valuation (``reply="heuristic"``
    with the Python solver)."""

    def action_values(self, deal: Deal) -> dict[int, int]:
        return response_values(deal)

    def value(self, deal: Deal, player: int | None = None) -> int:
        return response_value(deal, deal.current if player is None else player)


def fast_playouts_for(rules: Rules, reply: str = "minimax") -> _Playouts:
    """The numba playouts (``sixtysix_env.fast.playout``) of a ruleset, on its shared solver
    (``reply="heuristic"``: on its best response to the heuristic)."""
    from ..fast.playout import FastPlayouts

    playouts = _FAST_PLAYOUTS.get((rules, reply))
    if playouts is None:
        exact = fast_response_for(rules) if reply == "heuristic" else fast_solver_for(rules)
        playouts = _FAST_PLAYOUTS[rules, reply] = FastPlayouts(exact)  # type: ignore[arg-type]
    return playouts


_FAST_PLAYOUTS: dict[tuple[Rules, str], _Playouts] = {}


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
        if self.solver == "fast":
            from ..fast import playout, response, solver

            solver.warm_up(fast_solver_for(rules))
            if self.reply == "heuristic" or self.tiebreak == "response":
                response.warm_up(fast_response_for(rules))  # type: ignore[arg-type]
            playout.warm_up(fast_playouts_for(rules, self.reply))  # type: ignore[arg-type]

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
        totals, _ = self._totals(info, legal, rng)
        return best_action(info, dict(zip(legal, totals, strict=True)))

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
        """What ``act`` maximises: each legal action's mean value in game points for the player to
        act over the samples (exact once every card is placed), for analysis and for distillation
        labels that carry how much a choice matters, not only which one was made."""
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
            values = evaluate_actions(deal, legal, self.endgame, exact, playouts, self.closing, self.solve_stock)
            for i, v in enumerate(values):
                totals[i] += w * v
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return totals, n

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
            f"miss={self.miss}, reply={self.reply!r}, tiebreak={self.tiebreak!r})"
        )
