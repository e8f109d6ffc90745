"""Arena: statistics on hand-made inputs, reproducible tiny runs, the duplicate and match structure."""

from __future__ import annotations

import itertools
import math
import random
import sys

import pytest

from sixtysix_env import PRESETS, Deal
from sixtysix_env.agents import HeuristicAgent, RandomAgent
from sixtysix_env.arena import (
    _next_dealer,
    _table,
    bradley_terry_elo,
    main,
    mean_interval,
    parse_agent_spec,
    play_deal,
    run_arena,
    summary_markdown,
    wilson_interval,
    write_results,
)


# ------------------------------------------------------------------ statistics
def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_mean_interval_known_values() -> None:
    mean, lo, hi = mean_interval([1, 2, 3, 4, 5])
    half = 1.959963984540054 * math.sqrt(2.5) / math.sqrt(5)
    assert (mean, lo, hi) == pytest.approx((3.0, 3 - half, 3 + half))
    assert mean_interval([2.0, 2.0]) == (2.0, 2.0, 2.0)
    assert math.isnan(mean_interval([])[0])


def test_elo_two_players() -> None:
    elo = bradley_terry_elo(["a", "b"], {("a", "b"): (75, 100)}, prior=0)
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(3))
    assert (elo["a"] + elo["b"]) / 2 == pytest.approx(1500)
    anchored = bradley_terry_elo(["a", "b"], {("b", "a"): (25, 100)}, prior=0, anchor="b")
    assert anchored == pytest.approx({"a": 400 * math.log10(3), "b": 0.0})


def test_elo_recovers_consistent_strengths() -> None:
    # strengths 1, 2, 4: expected scores a-b 1/3, a-c 1/5, b-c 1/3 over 300 games each
    scores = {("a", "b"): (100, 300), ("a", "c"): (60, 300), ("c", "b"): (200, 300)}
    elo = bradley_terry_elo(["a", "b", "c"], scores, prior=0, anchor="a")
    assert elo == pytest.approx({"a": 0.0, "b": 400 * math.log10(2), "c": 400 * math.log10(4)})


def test_elo_prior_keeps_a_perfect_score_finite() -> None:
    with pytest.raises(ValueError, match="infinite"):
        bradley_terry_elo(["a", "b"], {("a", "b"): (10, 10)}, prior=0)
    elo = bradley_terry_elo(["a", "b"], {("a", "b"): (10, 10)}, prior=1)
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(10.5 / 0.5))
    with pytest.raises(ValueError, match="anchor"):
        bradley_terry_elo(["a", "b"], {("a", "b"): (5, 10)}, anchor="c")
    with pytest.raises(ValueError, match="bad pair"):
        bradley_terry_elo(["a", "b"], {("a", "a"): (5, 10)})


# ------------------------------------------------------------------ agent specs and rules flow
def test_parse_agent_spec() -> None:
    spec = parse_agent_spec("pimc:samples=3:endgame=solve")
    assert (spec.label, spec.name, dict(spec.options)) == (
        "pimc:samples=3:endgame=solve",
        "pimc",
        {"samples": 3, "endgame": "solve"},
    )
    assert spec.make().samples == 3
    for bad in ("nope", "pimc:samples", "pimc:samples=0", "pimc:bogus=1"):
        with pytest.raises(ValueError):
            parse_agent_spec(bad)


def test_next_dealer_follows_the_rules() -> None:
    standard, marriage, russian = PRESETS["standard"], PRESETS["marriage"], PRESETS["russian"]
    assert _next_dealer(standard, 0, 1) == 1  # the winner deals
    assert _next_dealer(standard, 1, 1) == 1
    assert _next_dealer(standard, 0, -1) == 0  # drawn: same dealer
    assert _next_dealer(russian, 0, -1) == 1  # drawn: new dealer
    assert _next_dealer(marriage, 0, 0) == 1  # alternate
    assert _next_dealer(marriage, 1, 1) == 0


def test_play_deal_rejects_an_illegal_agent() -> None:
    class Cheat:
        name = "cheat"

        def act(self, info, rng) -> int:
            return 31

    with pytest.raises(ValueError, match="cheat"):
        play_deal(
            Deal.new("standard", random.Random(0)), (Cheat(), RandomAgent()), (random.Random(0), random.Random(1))
        )


# ------------------------------------------------------------------ tiny runs
def _tiny(**kwargs):
    return run_arena(["heuristic", "random", "alphabeta"], deals=6, block=3, seed=3, **kwargs)


def test_tiny_run_is_reproducible_and_independent_of_workers() -> None:
    a, b = _tiny(), _tiny()
    assert a.pairs == b.pairs
    assert a.deal_records == b.deal_records
    assert a.elo == b.elo
    c = _tiny(workers=2)
    assert c.pairs == a.pairs
    assert c.deal_records == a.deal_records


def test_tiny_run_structure() -> None:
    res = _tiny()
    target = res.rules.match_target
    for p, pair in enumerate(res.pairs):
        deals = [d for d in res.deal_records if d.pair == p]
        assert pair.deals == len(deals) == pair.wins + pair.losses + pair.draws
        assert 0 <= pair.deal_win_ci[0] <= pair.deal_win_rate <= pair.deal_win_ci[1] <= 1
        # every one of the 6 deals is played in both tracks (seats swapped) ...
        for track in (0, 1):
            assert {f"deal/{g}" for g in range(6)} <= {d.index for d in deals if d.track == track}
        # ... and extra deals only finish matches
        for m in (m for m in res.match_records if m.pair == p):
            assert max(m.score_a, m.score_b) >= target
            in_match = [d for d in deals if (d.block, d.track, d.match) == (m.block, m.track, m.match)]
            assert len(in_match) == m.deals
            assert sum(max(d.a_return, 0) for d in in_match) == m.score_a
            assert sum(max(-d.a_return, 0) for d in in_match) == m.score_b
        assert pair.match_wins == sum(m.a_won for m in res.match_records if m.pair == p)
    assert res.elo["random"] == 0.0
    assert res.elo["heuristic"] > 0


def test_both_tracks_and_every_pair_play_the_same_cards(tmp_path) -> None:
    """Read back from the arena's own game records: deal k has the same cards in both tracks
    (seats swapped) and for every pair, so luck cancels in the comparison."""
    from sixtysix_env.records import from_record, load_record

    run_arena(["random", "heuristic", "alphabeta"], deals=4, block=2, seed=11, records=tmp_path)
    cards: dict[str, set[tuple]] = {}
    seats: dict[tuple[str, str], set[tuple[str, ...]]] = {}
    first_of_a_block = {"deal/0", "deal/2"}  # dealt by the same seat in every track and pair
    for path in sorted(tmp_path.glob("*/*.json")):
        record = load_record(path)
        meta = record["meta"]
        for index, deal in zip(meta["deals"], from_record(record), strict=True):
            hand0, hand1, stock, dealer = deal.arrangement
            same = dealer if index in first_of_a_block else None  # later dealers follow the results
            cards.setdefault(index, set()).add((frozenset(hand0), frozenset(hand1), tuple(stock), same))
            seats.setdefault((path.parent.name, index), set()).add(tuple(record["players"]))
    assert {f"deal/{g}" for g in range(4)} <= set(cards)
    assert all(len(dealt) == 1 for dealt in cards.values()), cards
    # every pair met each of its deals in both seat orders
    assert all(len(orders) == 2 for (_, index), orders in seats.items() if index.startswith("deal/"))


def test_explicit_claiming_and_other_presets_run() -> None:
    for rules in (PRESETS["schnapsen"], PRESETS["russian"].replace(claiming="explicit")):
        res = run_arena(["heuristic", "random"], deals=2, block=2, seed=0, rules=rules)
        assert res.pairs[0].deals >= 4


def test_run_arena_rejects_bad_options() -> None:
    with pytest.raises(ValueError, match="two agents"):
        run_arena(["random"], deals=2)
    with pytest.raises(ValueError, match="distinct"):
        run_arena(["random", "random"], deals=2)
    for kw in ({"deals": 0}, {"deals": 2, "block": 0}, {"deals": 2, "workers": 0}):
        with pytest.raises(ValueError):
            run_arena(["random", "heuristic"], **kw)


# ------------------------------------------------------------------ output
def test_cli_writes_tables(tmp_path, capsys) -> None:
    out = tmp_path / "res"
    assert (
        main(["--agents", "heuristic,random", "--deals", "4", "--block", "2", "--out", str(out), "--no-progress"]) == 0
    )
    for name in ("summary.md", "pairs.csv", "elo.csv", "deals.csv", "timing.csv"):
        assert (out / name).is_file()
    summary = (out / "summary.md").read_text()
    assert "| heuristic" in summary and "Elo" in summary
    assert (out / "pairs.csv").read_text().splitlines()[0].startswith("a,b,deals")
    assert "written to" in capsys.readouterr().out
    again = tmp_path / "again"
    main(["--agents", "heuristic,random", "--deals", "4", "--block", "2", "--out", str(again), "--no-progress"])
    for name in ("pairs.csv", "elo.csv", "deals.csv"):
        assert (out / name).read_text() == (again / name).read_text()


def test_cli_errors_are_usage_errors(tmp_path) -> None:
    for argv in (["--agents", "nope,random"], ["--agents", "random,heuristic", "--rules", "bridge"]):
        with pytest.raises(SystemExit) as e:
            main([*argv, "--out", str(tmp_path), "--no-progress"])
        assert e.value.code == 2


def test_tables_without_tabulate(monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "tabulate", None)
    text = _table(["agent", "Elo"], [["pimc", "12.5"], ["random", "0.0"]])
    lines = text.splitlines()
    assert lines[0].startswith("| agent") and set(lines[1]) <= {"|", "-"}
    assert len(lines) == 4
    res = run_arena([HeuristicAgent.name, RandomAgent.name], deals=2, block=2)
    assert "| heuristic" in summary_markdown(res)
    write_results(res, tmp_path)


# ------------------------------------------------------------------ checks before the first deal
def _cli_error(argv, capsys) -> str:
    with pytest.raises(SystemExit) as e:
        main([*argv, "--no-progress"])
    assert e.value.code == 2
    return capsys.readouterr().err


def test_out_that_is_a_file_or_unwritable_is_refused_before_play(tmp_path, capsys) -> None:
    afile = tmp_path / "results.txt"
    afile.write_text("keep me")
    err = _cli_error(["--agents", "heuristic,random", "--deals", "2", "--out", str(afile)], capsys)
    assert "existing file" in err and "results.txt" in err
    assert afile.read_text() == "keep me"
    err = _cli_error(["--agents", "heuristic,random", "--deals", "2", "--out", str(afile / "sub")], capsys)
    assert "cannot write" in err and "sub" in err
    for empty in ("", " "):  # not the current folder by accident
        assert "--out is empty" in _cli_error(["--agents", "heuristic,random", "--out", empty], capsys)
        assert "--records is empty" in _cli_error(
            ["--agents", "heuristic,random", "--out", str(tmp_path / "r"), "--records", empty], capsys
        )
    (tmp_path / "res" / "summary.md").mkdir(parents=True)
    err = _cli_error(["--agents", "heuristic,random", "--deals", "2", "--out", str(tmp_path / "res")], capsys)
    assert "summary.md" in err


def test_agents_that_would_fail_mid_run_are_refused_before_play(tmp_path, capsys) -> None:
    out = ["--deals", "2", "--out", str(tmp_path / "r")]
    err = _cli_error(["--agents", "ppo:path=/nonexistent/model.zip,random", *out], capsys)
    assert "ppo:path=/nonexistent/model.zip" in err and "no PPO model at /nonexistent/model.zip" in err
    err = _cli_error(["--agents", "pimc:samples=1e9,random", *out], capsys)
    assert "samples" in err and "int" in err
    assert not (tmp_path / "r" / "summary.md").exists()


def test_an_absurd_budget_is_refused_before_play() -> None:
    # 3 s per decision against a 0.2 s trial limit (the trial decision finishes in the background)
    with pytest.raises(ValueError, match=r"pimc:time_ms=3000.*took more than 0.2 s"):
        run_arena(["pimc:time_ms=3000", "random"], deals=2, trial_timeout_s=0.2)


def test_a_slow_prepare_is_not_the_trial_decisions_time(tmp_path, monkeypatch) -> None:
    """An agent's one-off prepare(rules) (compiling a search) runs before the trial decision is
    timed. Its slowness is made on the trial's own clock, which prepare() moves on by an hour,
    so the test does not depend on how busy the machine is."""
    from sixtysix_env.arena import checks

    now = [0.0]
    monkeypatch.setattr(checks, "_clock", lambda: now[0])
    monkeypatch.setitem(sys.modules, "test_arena_clock", now)
    bot = tmp_path / "slowstart.py"
    bot.write_text(
        "import sys\n\nclass SlowStart:\n    name = 'slowstart'\n    prepared = None\n\n"
        "    def prepare(self, rules):\n        sys.modules['test_arena_clock'][0] += 3600.0\n"
        "        type(self).prepared = rules.name\n\n"
        "    def act(self, info, rng):\n        assert self.prepared == info.rules.name\n"
        "        return info.legal_actions()[0]\n"
    )
    result = run_arena([f"{bot}:SlowStart", "random"], deals=1, trial_timeout_s=10.0)
    assert result.pairs[0].deals >= 2  # it played, though prepare() took an hour by the trial's clock
    assert now[0] >= 3600.0
    # the same hour spent in act() is refused
    with pytest.raises(ValueError, match="took more than 10 s over one trial decision"):
        checks.trial_decisions([parse_agent_spec(f"{__name__}:HourLongDecision")], PRESETS["standard"], 10.0)


class HourLongDecision:
    """A bot whose decision takes an hour on the trial's clock (see the test above)."""

    name = "hourlong"

    def act(self, info, rng):
        sys.modules["test_arena_clock"][0] += 3600.0
        return info.legal_actions()[0]


def test_an_illegal_trial_decision_is_refused(tmp_path) -> None:
    bot = tmp_path / "cheat.py"
    bot.write_text("class Cheat:\n    name = 'cheat'\n\n    def act(self, info, rng):\n        return 31\n")
    with pytest.raises(ValueError, match="not a legal action"):
        run_arena([f"{bot}:Cheat", "random"], deals=2)


def test_elo_prior_must_be_finite(tmp_path, capsys) -> None:
    for bad in ("nan", "inf", "-1"):
        err = _cli_error(["--agents", "heuristic,random", "--elo-prior", bad, "--out", str(tmp_path)], capsys)
        assert "--elo-prior" in err
    for bad in (math.nan, math.inf, -1.0):
        with pytest.raises(ValueError, match="prior"):
            run_arena(["heuristic", "random"], deals=2, elo_prior=bad)
        with pytest.raises(ValueError, match="prior"):
            bradley_terry_elo(["a", "b"], {("a", "b"): (5, 10)}, prior=bad)


def test_bad_start_method_and_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="start method"):
        run_arena(["heuristic", "random"], deals=2, workers=2, start_method="threads")
    with pytest.raises(ValueError, match="deals"):
        run_arena(["heuristic", "random"], deals=2.5)


# ------------------------------------------------------------------ user bots in worker processes
BOT_SOURCE = """
class EagerBot:
    name = "eager"

    def __init__(self, prefer_high: bool = False) -> None:
        self.prefer_high = prefer_high

    def act(self, info, rng):
        legal = info.legal_actions()
        return legal[-1] if self.prefer_high else legal[0]
"""


class RegisteredBot:
    """A bot registered by name in this process (module level, so spawn workers can import it)."""

    name = "registered"

    def act(self, info, rng):
        return max(info.legal_actions())


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_file_bots_and_registered_options_in_spawned_workers(tmp_path, method) -> None:
    from sixtysix_env.agents import AGENTS, register_agent

    bot = tmp_path / "eager.py"
    bot.write_text(BOT_SOURCE)
    register_agent("test_registered", RegisteredBot, overwrite=True)
    try:
        agents = [f"{bot}:EagerBot:prefer_high=true", "pimc:samples=2", "test_registered"]
        here = run_arena(agents, deals=2, block=1, seed=5)
        there = run_arena(agents, deals=2, block=1, seed=5, workers=2, start_method=method)
    finally:
        AGENTS.pop("test_registered", None)
    assert there.deal_records == here.deal_records
    # a user's class is listed by its name, with the options it was given
    assert there.agents == ["eager:prefer_high=true", "pimc:samples=2", "test_registered"]


def test_a_registration_that_cannot_reach_spawn_workers_is_named() -> None:
    from sixtysix_env.agents import AGENTS, register_agent

    register_agent("test_lambda", lambda: RandomAgent(), overwrite=True)
    try:
        with pytest.raises(ValueError, match=r"test_lambda.*cannot be sent"):
            run_arena(["test_lambda", "heuristic"], deals=2, workers=2, start_method="spawn")
    finally:
        AGENTS.pop("test_lambda", None)


def test_cli_takes_a_file_bot(tmp_path, capsys) -> None:
    bot = tmp_path / "eager.py"
    bot.write_text(BOT_SOURCE)
    out = tmp_path / "res"
    argv = ["--agents", f"{bot}:EagerBot,heuristic", "--deals", "2", "--out", str(out), "--no-progress"]
    assert main([*argv, "--workers", "2", "--start-method", "spawn"]) == 0
    summary = (out / "summary.md").read_text()
    assert "| eager " in summary and f"{bot}:EagerBot" not in summary
    html = (out / "summary.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<td>heuristic</td>" in html


# ------------------------------------------------------------------ game records
def test_records_one_match_record_per_match(tmp_path) -> None:
    from sixtysix_env.records import from_record, load_record

    res = run_arena(["heuristic", "pimc:samples=2"], deals=3, block=2, seed=1, records=tmp_path / "rec")
    folder = tmp_path / "rec" / "heuristic-vs-pimc_samples=2"
    files = sorted(folder.glob("*.json"))
    assert len(files) == len(res.match_records)
    for m in res.match_records:
        record = load_record(folder / f"block{m.block}-track{m.track}-match{m.match}.json")
        assert record["kind"] == "match" and record["meta"]["source"] == "arena"
        seats = ["heuristic", "pimc:samples=2"] if m.track == 0 else ["pimc:samples=2", "heuristic"]
        assert record["players"] == seats
        a_seat = m.track
        assert record["final_scores"][a_seat] == m.score_a and record["final_scores"][1 - a_seat] == m.score_b
        assert len(from_record(record)) == m.deals == len(record["meta"]["deals"])


def test_records_folder_is_checked_before_play(tmp_path, capsys) -> None:
    afile = tmp_path / "rec"
    afile.write_text("")
    err = _cli_error(["--agents", "heuristic,random", "--out", str(tmp_path / "r"), "--records", str(afile)], capsys)
    assert "--records" in err and "existing file" in err
    assert not (tmp_path / "r" / "summary.md").exists()


def test_both_tracks_of_a_block_are_dealt_by_the_same_first_dealer(tmp_path) -> None:
    """Duplicate deals need the same cards *and* the same dealer: the first deal of block ``b`` is
    dealt by seat ``b % 2`` in both tracks (seat 0 in block 0, seat 1 in block 1), and from then on
    the winner of a deal deals the next one (standard rules, RULES 2.1), read back from the game
    records as well as from the deal table."""
    from sixtysix_env.records import load_record

    res = run_arena(["random", "heuristic"], deals=4, block=2, seed=11, records=tmp_path)
    first_dealer = {0: 0, 1: 1}  # block -> seat, written out
    by_task: dict[tuple[int, int], list] = {}
    for d in res.deal_records:
        by_task.setdefault((d.block, d.track), []).append(d)
    assert sorted(by_task) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for (block, track), deals in by_task.items():
        assert deals[0].index == f"deal/{2 * block}"
        assert deals[0].dealer_seat == first_dealer[block], (block, track, deals[0])
        seat_of = {"random": track, "heuristic": 1 - track}  # A = random sits in seat 0 in track 0
        for before, after in itertools.pairwise(deals):
            expected = before.dealer_seat if before.winner == "draw" else seat_of[before.winner]
            assert after.dealer_seat == expected, (block, track, before, after)
    # the records hold the same dealer for every deal they replay
    dealers = {(d.block, d.track, d.index): d.dealer_seat for d in res.deal_records}
    seen = 0
    for path in sorted(tmp_path.glob("*/block*-track*-match*.json")):
        record = load_record(path)
        block, track = (int(part.removeprefix("block").removeprefix("track")) for part in path.stem.split("-")[:2])
        for index, body in zip(record["meta"]["deals"], record["deals"], strict=True):
            assert body["dealer"] == dealers[(block, track, index)], (path.name, index)
            seen += 1
    assert seen == len(res.deal_records)
