"""How much of the gap to perfect information each agent closes, on duplicate deals.

    python benchmarks/bench_gap.py --agents pimc,ppo,alphabeta --against heuristic --deals 800 --seed 0

Every agent (and the oracle, which sees every card: ``sixtysix_env.agents.oracle``) plays the same
``--deals`` deals against the same opponent, each deal twice with the seats swapped. Columns:

- **G**: game points per deal from the agent's side (won minus lost), with a 95% interval over
  the deal pairs (normal approximation on the mean of each pair: the two seatings of a deal are
  not independent);
- **deal win rate**: deals won (a drawn deal counts half);
- **gap closed** = G / G(oracle), on the same deals, with a 95% interval by the delta method on
  the deal pairs (d_i = a_i - r o_i);
- **CPU ms per decision**: the agent's mean CPU time (``time.process_time``) per decision it took;
- **G reduced**: G with the luck of the stock draws taken out (``sixtysix_env.arena.variance``,
  docs/evaluation.md): the same mean (unbiased), a narrower interval; **variance ratio** = how many
  times fewer deal pairs give that width. Fair agents only (the oracle sees the stock), and rules
  the batched engine plays; ``--no-reduce`` leaves it out. With the oracle, **gap closed
  (reduced)** = G reduced / G(oracle);
- **match win rate**: ``--matches`` duplicate match pairs to the rules' ``match_target`` (7 in
  standard), played as real matches (``sixtysix_env.match.Match``: dealer rotation, the deal's
  match score) on shuffles of their own, each match twice with the seats swapped; a 95% Wilson
  interval over the matches. The oracle plays none (its deals cost seconds each).

With two or more agents a second table gives each agent's G minus the first agent's, with a 95%
interval over the deal pairs' differences (plain, and reduced where both have it): every agent
met the same cards in the same seats, so the luck they share cancels (``paired_difference``;
docs/evaluation.md measures how much).

The oracle is an upper bound that no fair agent can reach; with ``--no-oracle`` (``--oracle
none``) the gap column is left out. Among its optimal actions it plays the opponent's own choice in
its seat when that is optimal, else the first in search order (``--oracle opponent``, the default
since issue 23); ``--oracle first`` is the old oracle, always the first optimal action, kept for
comparison (docs/oracle.md compares the two).
Agents are given as in the arena (``pimc:samples=50``, ``mybot.py:MyBot``).

The oracle is the slow part (about 2-4 CPU s per standard deal with the numba search of the
``fast`` extra, minutes without it), and its games depend only on the rules, the opponent, the
seed and the deals: ``--oracle-cache DIR`` (default ``results/oracle-cache``) keeps them in a
JSON file per setting (rules, opponent, seed, tie-break), so measuring your own agents against the
same deals later reuses them; a run's deals are the first ones of any larger run, so a larger run plays only
the pairs the file lacks (saved after every block: an interrupted run keeps what it finished).
``--json FILE`` writes every agent's per-pair results.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.agents.oracle import OracleAgent  # noqa: E402
from sixtysix_env.agents.spec import AgentSpec, parse_agent_spec  # noqa: E402
from sixtysix_env.arena.matches import duplicate_match, match_tally  # noqa: E402
from sixtysix_env.arena.play import ready_agent  # noqa: E402
from sixtysix_env.arena.run import REDUCE_PLAYOUTS, check_reduce  # noqa: E402
from sixtysix_env.arena.stats import Z95, Reduced, mean_interval, reduce_values  # noqa: E402
from sixtysix_env.cli_options import add_count, add_deals, add_rules, add_seed, add_workers  # noqa: E402
from sixtysix_env.distributed import ADDRESS_HELP, RayExecutor, cli_ray_address  # noqa: E402
from sixtysix_env.engine import Deal  # noqa: E402
from sixtysix_env.rules import PRESETS, Rules, get_rules  # noqa: E402

Chooser = Callable[[Deal, random.Random], int]
ORACLES = ("opponent", "first")
"""The oracle's tie-breaks among optimal actions: the opponent's own choice when optimal, or the first."""


@dataclass
class Result:
    """One agent's games, per deal pair (the two seatings): game points, CPU s and decisions."""

    label: str
    pair_points: list[tuple[int, int]] = field(default_factory=list)
    pair_cpu: list[float] = field(default_factory=list)
    pair_decisions: list[int] = field(default_factory=list)
    pair_corrections: list[tuple[float, float]] = field(default_factory=list)
    """Per deal pair, each seating's draw correction (``arena.variance``); empty when not computed."""
    match_won: list[tuple[bool, bool]] = field(default_factory=list)
    """Per duplicate match pair: won with the agent in seat 0, in seat 1."""

    def extend(self, other: Result) -> None:
        self.pair_points.extend(other.pair_points)
        self.pair_cpu.extend(other.pair_cpu)
        self.pair_decisions.extend(other.pair_decisions)
        self.pair_corrections.extend(other.pair_corrections)
        self.match_won.extend(other.match_won)

    def prefix(self, count: int) -> Result:
        """The first ``count`` deal pairs (the deals of a smaller run are the first ones of a larger)."""
        corrections = self.pair_corrections[:count]
        return Result(
            self.label, self.pair_points[:count], self.pair_cpu[:count], self.pair_decisions[:count], corrections
        )

    @property
    def deals(self) -> int:
        return 2 * len(self.pair_points)

    @property
    def wins(self) -> float:
        """Deals won, a drawn deal counting half."""
        return sum(1.0 if g > 0 else 0.5 if g == 0 else 0.0 for pair in self.pair_points for g in pair)

    def pair_means(self) -> list[float]:
        return [(a + b) / 2 for a, b in self.pair_points]

    @property
    def g(self) -> float:
        return statistics.fmean(self.pair_means())

    def g_interval(self) -> tuple[float, float]:
        m = self.pair_means()
        half = Z95 * statistics.stdev(m) / math.sqrt(len(m)) if len(m) > 1 else math.inf
        return self.g - half, self.g + half

    def ms_per_decision(self) -> float:
        decisions = sum(self.pair_decisions)
        return 1000 * sum(self.pair_cpu) / decisions if decisions else float("nan")

    def reduced(self) -> Reduced | None:
        """G with the draw luck taken out (cross-fitted over even and odd deal pairs), or None."""
        if not self.pair_corrections or len(self.pair_corrections) != len(self.pair_points):
            return None
        corrections = [(a + b) / 2 for a, b in self.pair_corrections]
        return reduce_values(self.pair_means(), corrections, [i % 2 for i in range(len(corrections))])

    def reduced_means(self) -> list[float]:
        """Each deal pair's reduced value (the same coefficients as :meth:`reduced`)."""
        r = self.reduced()
        assert r is not None
        pairs = zip(self.pair_means(), self.pair_corrections, strict=True)
        return [m - r.betas[i % 2] * (a + b) / 2 for i, (m, (a, b)) in enumerate(pairs)]


def gap_closed(agent: Result, oracle: Result, reduced: bool = False) -> tuple[float, float, float]:
    """G(agent) / G(oracle) and its 95% delta-method interval over the same deal pairs (``reduced``:
    the agent's reduced pair values, the oracle's plain ones)."""
    a, o = agent.reduced_means() if reduced else agent.pair_means(), oracle.pair_means()
    mo = statistics.fmean(o)
    if mo == 0:
        return math.nan, math.nan, math.nan
    r = statistics.fmean(a) / mo
    if len(a) < 2:
        return r, -math.inf, math.inf
    d = [x - r * y for x, y in zip(a, o, strict=True)]
    half = Z95 * statistics.stdev(d) / (math.sqrt(len(d)) * abs(mo))
    return r, r - half, r + half


def paired_difference(a: Result, b: Result, reduced: bool = False) -> tuple[float, float, float]:
    """``(mean, low, high)`` of a's pair values minus b's on the same deal pairs (``reduced``: each
    agent's reduced pair values). Both met the same cards in the same seats, so the luck they
    share cancels."""
    x, y = (a.reduced_means(), b.reduced_means()) if reduced else (a.pair_means(), b.pair_means())
    return mean_interval([p - q for p, q in zip(x, y, strict=True)])


def paired_table(results: list[Result], oracle: Result | None) -> str | None:
    """Every fair agent after the first minus the first, on the same deal pairs (None for fewer
    than two fair agents)."""
    from tabulate import tabulate

    fair = [r for r in results if r is not oracle]
    if len(fair) < 2:
        return None
    base = fair[0]
    both_reduced = base.reduced() is not None
    rows = []
    for r in fair[1:]:
        d, lo, hi = paired_difference(r, base)
        row = [r.label, f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]"]
        if both_reduced:
            if r.reduced() is not None:
                d, lo, hi = paired_difference(r, base, reduced=True)
                row.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]")
            else:
                row.append("-")
        rows.append(row)
    headers = ["agent", f"G minus {base.label}'s, paired [95% CI]"]
    if both_reduced:
        headers.append("G reduced, minus, paired [95% CI]")
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def play(
    deal: Deal,
    seat: int,
    me: Chooser,
    them: Chooser,
    rngs: tuple[random.Random, random.Random],
    played: list[Deal] | None = None,
) -> tuple[int, float, int]:
    """Plays ``deal`` (a copy) with ``me`` in ``seat``; returns (my game points, my CPU s, my decisions).
    ``played`` gets the finished copy."""
    d = deal.clone()
    cpu = 0.0
    decisions = 0
    while d.outcome is None:
        p = d.current
        if p == seat:
            start = time.process_time()
            action = me(d, rngs[p])
            cpu += time.process_time() - start
            decisions += 1
        else:
            action = them(d, rngs[p])
        d.apply(action)
    if played is not None:
        played.append(d)
    return d.returns()[seat], cpu, decisions


def player_rngs(seed: int, pair: int, seat: int) -> tuple[random.Random, random.Random]:
    """Both players' random sources in deal pair ``pair`` with the agent in ``seat``: the same
    for every agent, so their games differ only by their choices."""
    base = seed * 1_000_003 + 4 * pair + 2 * seat
    return random.Random(base), random.Random(base + 1)


def fair(agent: object) -> Chooser:
    """A fair agent sees only its own information state."""
    act = agent.act  # type: ignore[attr-defined]
    return lambda d, rng: act(d.information_state(d.current), rng)


def make_deals(rules: Rules, count: int, seed: int) -> list[Deal]:
    """The benchmark's deals: the same for every agent (and in every worker) for one seed."""
    rng = random.Random(seed)
    return [Deal.new(rules, rng, dealer=i % 2) for i in range(count)]


def chooser(spec: AgentSpec | str, rules: Rules, opponent: AgentSpec) -> Chooser:
    """A fair agent from its spec, its one-off ``prepare`` done untimed as in the arena, or the
    oracle for a tie-break of ``ORACLES`` (``"opponent"``: ties go to a copy of ``opponent``, which
    draws on the oracle's seat's seeded random source)."""
    if isinstance(spec, str):
        oracle = OracleAgent(ties=ready_agent(opponent, rules) if spec == "opponent" else None)
        return oracle.choose
    return fair(ready_agent(spec, rules))


def oracle_label(oracle: str, opponent: AgentSpec) -> str:
    """The oracle's row: which tie-break it plays."""
    return f"oracle (cheats, ties: {opponent.label if oracle == 'opponent' else 'first'})"


Job = tuple[str, "AgentSpec | str", AgentSpec, Rules, int, int, Sequence[int], str]


def play_pairs(job: Job) -> Result:
    """The games of deal pairs ``indices`` (one worker's share; seeds depend only on the index),
    with each seating's draw correction when ``reduce`` (the job's last item: ``"agents"``,
    ``"heuristic"`` or ``"own"``, who plays the playouts; ``""``: none) is set."""
    label, me_spec, them_spec, rules, count, seed, indices, reduce = job
    deals = make_deals(rules, count, seed)
    # a fresh opponent per agent: no state carried over
    me, them = chooser(me_spec, rules, them_spec), chooser(them_spec, rules, them_spec)
    res = Result(label)
    nets = (None, None)
    if reduce:
        from sixtysix_env.arena.own_playouts import own_correction

        if reduce == "own":
            if not isinstance(me_spec, str):
                mine, theirs = ready_agent(me_spec, rules), ready_agent(them_spec, rules)
        else:  # the batched engine's playouts: numba only here
            from sixtysix_env.arena.variance import draw_correction, playout_nets

            if reduce == "agents" and not isinstance(me_spec, str):
                nets = playout_nets([ready_agent(me_spec, rules), ready_agent(them_spec, rules)], rules)
    for i in indices:
        points, cpu, decisions, played = [], 0.0, 0, []
        for seat in (0, 1):
            g, c, n = play(deals[i], seat, me, them, player_rngs(seed, i, seat), played)
            points.append(g)
            cpu += c
            decisions += n
        res.pair_points.append((points[0], points[1]))
        res.pair_cpu.append(cpu)
        res.pair_decisions.append(decisions)
        if reduce:  # one Monte Carlo seed for both seatings: the noise of equal positions cancels
            mc = seed * 1_000_003 + i
            if reduce == "own":  # each agent plays its own seat in the playouts
                c0, c1 = (
                    own_correction(d, seat, (mine, theirs) if seat == 0 else (theirs, mine), seed=mc)
                    for seat, d in enumerate(played)
                )
            else:
                by_seat = (nets, nets[::-1])  # the agent's network plays the agent's seat
                c0, c1 = (draw_correction(d, seat, seed=mc, nets=by_seat[seat]) for seat, d in enumerate(played))
            res.pair_corrections.append((c0, c1))
    return res


MatchJob = tuple[AgentSpec, AgentSpec, Rules, int, Sequence[int]]


def play_matches(job: MatchJob) -> list[tuple[bool, bool]]:
    """Duplicate match pairs ``indices`` (``arena.matches.duplicate_match``): won in seat 0, in seat 1."""
    me_spec, them_spec, rules, seed, indices = job
    me, them = chooser(me_spec, rules, them_spec), chooser(them_spec, rules, them_spec)
    out = []
    for m in indices:
        first, second = duplicate_match(rules, f"gap/{seed}", m, me, them)
        out.append((first.won, second.won))
    return out


def run(
    label: str,
    me: AgentSpec | str,
    them: AgentSpec,
    rules: Rules,
    count: int,
    seed: int,
    progress: bool,
    workers: int = 1,
    start: int = 0,
    on_block: Callable[[Result], None] | None = None,
    executor: RayExecutor | None = None,
    reduce: str = "",
    matches: int = 0,
) -> Result:
    """Deal pairs ``start`` to ``count - 1``, split over ``workers`` processes in blocks of 5 (same
    results for any count); ``on_block`` sees the games so far after each block, in order.
    ``executor`` (``--ray``) plays the blocks on a Ray cluster instead, with the same results.
    ``reduce``: also each pair's draw corrections (a fair agent only), with ``"agents"``,
    ``"heuristic"`` or ``"own"`` playouts (see ``--reduce-playouts``); ``matches``: that many
    duplicate match pairs too (a fair agent only)."""
    blocks = [range(i, min(i + 5, count)) for i in range(start, count, 5)]
    jobs = [(label, me, them, rules, count, seed, b, reduce) for b in blocks]
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=count - start, desc=label, unit="pair", leave=False, file=sys.stderr)
        except ImportError:
            pass
    res = Result(label)
    pool = ProcessPoolExecutor(workers) if workers > 1 and executor is None else None
    try:
        runner = executor or pool  # both map in order
        parts = runner.map(play_pairs, jobs) if runner is not None else map(play_pairs, jobs)
        for part in parts:
            res.extend(part)
            if on_block is not None:
                on_block(res)
            if bar is not None:
                bar.update(len(part.pair_points))
        if matches and not isinstance(me, str):
            match_jobs = [(me, them, rules, seed, range(i, min(i + 5, matches))) for i in range(0, matches, 5)]
            played = runner.map(play_matches, match_jobs) if runner is not None else map(play_matches, match_jobs)
            for won in played:
                res.match_won.extend(won)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if bar is not None:
            bar.close()
    print(f"{label}: G {res.g:+.3f} over {res.deals} games, {sum(res.pair_cpu):.0f} s CPU", file=sys.stderr, flush=True)
    return res


def oracle_cache_name(oracle: str, them: AgentSpec, rules: Rules, seed: int) -> str:
    """The cache file of one setting; the tie-break is part of it (files of the first oracle,
    named before ties existed, are never read as the new one's)."""
    name = f"{rules.name}_{them.label}_seed{seed}_oracle-{oracle}"
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.=") else "-" for c in name) + ".json"


def oracle_run(
    oracle: str,
    them: AgentSpec,
    rules: Rules,
    count: int,
    seed: int,
    cache: Path | None,
    progress: bool,
    workers: int,
    executor: RayExecutor | None = None,
) -> Result:
    """The oracle's games (tie-break ``oracle``, one of ``ORACLES``), from the cache as far as the
    same setting was played before (any number of deals: a run's deals are the first ones of a
    larger run), the rest played and saved after every block, so an interrupted run keeps what it
    finished."""
    label = oracle_label(oracle, them)
    path = cache / oracle_cache_name(oracle, them, rules, seed) if cache is not None else None
    done = Result(label)
    if path is not None and path.is_file():
        data = json.loads(path.read_text())
        data["pair_points"] = [tuple(p) for p in data["pair_points"]]
        done = Result(**data).prefix(count)
        print(f"{label}: {len(done.pair_points)} deal pairs from {path}", file=sys.stderr, flush=True)
    if len(done.pair_points) == count:
        return done

    def save(new: Result) -> None:
        if path is not None:
            both = done.prefix(count)
            both.extend(new)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(dataclasses.asdict(both)))
            tmp.replace(path)

    rest = run(label, oracle, them, rules, count, seed, progress, workers, len(done.pair_points), save, executor)
    done.extend(rest)
    return done


def table(results: list[Result], oracle: Result | None, against: str, target: int | None = None) -> str:
    """The benchmark's table; the reduced and match columns appear when some row has them
    (``target``: the match target named in the header)."""
    from tabulate import tabulate

    any_reduced = any(r.reduced() is not None for r in results)
    any_matches = any(r.match_won for r in results)
    rows = []
    for r in results:
        lo, hi = r.g_interval()
        row = [r.label, f"{r.g:+.3f} [{lo:+.3f}, {hi:+.3f}]", f"{r.wins / r.deals:.3f}"]
        if oracle is not None:
            if r is oracle:
                row.append("1")
            else:
                g, glo, ghi = gap_closed(r, oracle)
                row.append(f"{g:.2f} [{glo:.2f}, {ghi:.2f}]")
        row.append(f"{r.ms_per_decision():.2f}")
        red = r.reduced()
        if any_reduced:
            row.append(f"{red.mean:+.3f} [{red.low:+.3f}, {red.high:+.3f}]" if red is not None else "-")
            row.append(f"{red.ratio:.2f}" if red is not None else "-")
            if oracle is not None:
                if red is None or r is oracle:
                    row.append("-")
                else:
                    g, glo, ghi = gap_closed(r, oracle, reduced=True)
                    row.append(f"{g:.2f} [{glo:.2f}, {ghi:.2f}]")
        if any_matches:
            row.append(match_tally([w for pair in r.match_won for w in pair]).text())
        rows.append(row)
    headers = ["agent", f"G vs {against} [95% CI]", "deal win rate"]
    if oracle is not None:
        headers.append("gap closed = G / G(oracle) [95% CI]")
    headers.append("CPU ms per decision")
    if any_reduced:
        headers += ["G reduced [95% CI]", "variance ratio"]
        if oracle is not None:
            headers.append("gap closed (reduced)")
    if any_matches:
        headers.append(f"match win rate{f' to {target}' if target else ''} [95% CI] of matches")
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def parser() -> argparse.ArgumentParser:
    """The command line (its defaults are the benchmark's settings)."""
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        epilog="The oracle's exact search is the slow part (2-4 CPU s per standard deal with numba, the fast "
        "extra; minutes without); --oracle-cache reuses its games, --no-oracle leaves it and the gap column out.",
    )
    ap.add_argument("--agents", default="pimc,ppo,alphabeta", help="comma-separated agent specs, as in the arena")
    ap.add_argument("--against", default="heuristic", help="the opponent every agent plays (an agent spec)")
    add_deals(ap, default=800, help="deals, each played twice with the seats swapped")
    add_seed(ap, help="seed of the deals and of the players' random sources")
    add_rules(ap, help="rules preset: " + ", ".join(PRESETS))
    ap.add_argument(
        "--oracle",
        default="opponent",
        choices=[*ORACLES, "none"],
        help="the oracle's tie-break among optimal actions: the opponent's own choice when optimal (else the "
        "first), or always the first (the old oracle); 'none' leaves the oracle and the gap column out",
    )
    ap.add_argument("--no-oracle", dest="oracle", action="store_const", const="none", help="same as --oracle none")
    ap.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True, help="tqdm bars on stderr")
    ap.add_argument(
        "--oracle-cache",
        default="results/oracle-cache",
        help="folder keeping the oracle's games per setting ('none': always replay them)",
    )
    add_workers(ap, help="processes (the results do not depend on it)")
    ap.add_argument("--json", default=None, help="write every agent's per-pair results to this file")
    ap.add_argument(
        "--reduce",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also G with the luck of the stock draws taken out (unbiased, narrower interval; docs/evaluation.md); "
        "default: on where the rules allow it (the batched engine's presets)",
    )
    ap.add_argument(
        "--reduce-playouts",
        choices=REDUCE_PLAYOUTS,
        default="agents",
        help="who plays the playouts of the reduced estimate: an agent with a policy network (ppo) its own seat "
        "and the heuristic the others, the heuristic throughout (cheaper, less variance removed), or every agent "
        "its own seat, search too, with its random choices' luck taken out (own: over 100x the deals' CPU)",
    )
    add_count(
        ap,
        "--matches",
        default=None,
        at_least=0,
        help="duplicate match pairs per agent, to the rules' match target (default: one per 8 deal pairs, "
        "at least 1; 0: none)",
    )
    ap.add_argument(
        "--ray", type=cli_ray_address, default=None, metavar="ADDRESS", help=f"play on a Ray cluster: {ADDRESS_HELP}"
    )
    return ap


def main(argv: Sequence[str] | None = None) -> str:
    ap = parser()
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error(f"--deals must be at least 1, got {args.deals}")
    if args.workers < 1:
        ap.error(f"--workers must be at least 1, got {args.workers}")
    specs = []
    for text in [*args.agents.split(","), args.against]:
        try:
            specs.append(parse_agent_spec(text))
        except (ValueError, TypeError) as e:
            ap.error(f"agent {text!r}: {e}")
    opponent = specs.pop()
    rules = get_rules(args.rules)
    matches = max(1, args.deals // 8) if args.matches is None else args.matches
    try:
        reduce = check_reduce(args.reduce, rules, args.reduce_playouts)
    except ValueError as e:
        ap.error(f"--reduce: {e}")
    print(
        f"{args.deals} duplicate deals ({2 * args.deals} games) per agent, {rules.name} rules, "
        f"against {opponent.label}, seed {args.seed}, oracle: {args.oracle}",
        flush=True,
    )
    results: list[Result] = []
    oracle = None
    executor = RayExecutor(args.ray) if args.ray is not None else None  # docs/ray.md
    if args.oracle != "none":
        cache = None if args.oracle_cache.lower() == "none" else Path(args.oracle_cache)
        oracle = oracle_run(
            args.oracle, opponent, rules, args.deals, args.seed, cache, args.progress, args.workers, executor
        )
        results.append(oracle)
    for spec in specs:
        played = (spec.label, spec, opponent, rules, args.deals, args.seed, args.progress, args.workers)
        playouts = args.reduce_playouts if reduce else ""
        results.append(run(*played, executor=executor, reduce=playouts, matches=matches))
    if executor is not None:
        executor.shutdown()
    out = table(results, oracle, opponent.label, rules.match_target)
    paired = paired_table(results, oracle)
    if paired is not None:
        out += "\n\nEach agent minus the first, on the same deal pairs (the luck they share cancels):\n\n" + paired
    print(out)
    if args.json:
        Path(args.json).write_text(json.dumps([dataclasses.asdict(r) for r in results], indent=1))
    return out


if __name__ == "__main__":
    main()
