"""The arena with bots that raise, hang, sleep or cheat mid-run: each fault forfeits that deal,
named with the deal and the position, and the run finishes with its tables written.

No test here depends on how busy the machine is: a slow bot is slower than the limit by far
(it waits on an event that is only set when the test ends), and a fast bot is far below it."""

from __future__ import annotations

import csv
import threading
import time

import pytest

from sixtysix_env.agents import AGENTS, register_agent
from sixtysix_env.agents.spec import load_module
from sixtysix_env.arena import main, run_arena
from sixtysix_env.engine import Deal

LATE_RAISER = """
class LateRaiser:
    name = "lateraiser"

    def __init__(self):
        self.moves = 0

    def act(self, info, rng):
        self.moves += 1
        if self.moves == 4:  # not on the trial decision: mid-run
            raise RuntimeError("my fourth move went wrong")
        return info.legal_actions()[0]
"""

HANGER = """
import threading

GATE = threading.Event()  # set by the test when it ends, so the thread does not outlive it
CALLS = []


class Hanger:
    name = "hanger"

    def __init__(self):
        self.moves = 0

    def act(self, info, rng):
        self.moves += 1
        CALLS.append(self.moves)
        if self.moves >= 3:
            GATE.wait()
        return info.legal_actions()[0]
"""

SLEEPER = """
import time


class Sleeper:
    name = "sleeper"

    def act(self, info, rng):
        time.sleep(0.02)
        return info.legal_actions()[0]
"""


def _bot(tmp_path, source: str, file: str, cls: str) -> str:
    path = tmp_path / file
    path.write_text(source)
    return f"{path}:{cls}"


def _check_faults(res, bot: str) -> None:
    """Every fault names the bot, a deal that was played and the position, which reads back."""
    played = {(d.pair, d.index, d.track) for d in res.deal_records}
    for f in res.faults:
        assert f.bot == bot and (f.pair, f.index, f.track) in played
        Deal.from_notation(f.position)  # the position at the faulty decision
    forfeits = [d for d in res.deal_records if d.termination == "forfeit"]
    assert len(forfeits) == len(res.faults) and all(d.forfeit_by == bot for d in forfeits)
    assert all(d.game_points == res.rules.max_game_points for d in forfeits)


def test_a_bot_that_raises_mid_run_forfeits_the_deal_and_the_run_finishes(tmp_path, capsys) -> None:
    spec = _bot(tmp_path, LATE_RAISER, "late.py", "LateRaiser")
    out = tmp_path / "out"
    argv = ["--agents", f"{spec},random", "--deals", "3", "--out", str(out), "--no-progress"]
    assert main([*argv, "--records", str(tmp_path / "rec")]) == 0
    printed = capsys.readouterr().out
    assert "forfeited by a bot's fault" in printed and "my fourth move went wrong" in printed
    rows = list(csv.DictReader((out / "faults.csv").open()))
    assert rows and all(r["bot"] == "lateraiser" and r["reason"].startswith("raised RuntimeError") for r in rows)
    assert all(r["index"].startswith(("deal/", "extra/")) and "played=" in r["position"] for r in rows)
    summary = (out / "summary.md").read_text()
    assert "## Forfeited deals" in summary and "my fourth move went wrong" in summary
    deals = list(csv.DictReader((out / "deals.csv").open()))
    assert sum(d["termination"] == "forfeit" for d in deals) == len(rows)
    # the forfeited deals have deal records (a match record cannot hold them) that replay
    from sixtysix_env.records import from_record, load_record

    forfeited = [load_record(p) for p in (tmp_path / "rec").glob("*/*.json") if "forfeit" in load_record(p)["meta"]]
    assert len(forfeited) == len(rows)
    for record in forfeited:
        assert record["meta"]["forfeit"]["bot"] == "lateraiser" and from_record(record).outcome is None


def test_raising_illegal_and_exiting_bots_forfeit_through_run_arena() -> None:
    res = run_arena([f"{__name__}:Exiter", "random"], deals=2, seed=1)
    assert res.faults and all("raised SystemExit" in f.reason for f in res.faults)
    _check_faults(res, f"{__name__}:Exiter")  # a registry-free module bot keeps its text: its name is "random"
    res = run_arena([f"{__name__}:LateCheat", "heuristic"], deals=2, seed=1)
    assert res.faults and all("returned illegal action 31" in f.reason for f in res.faults)
    _check_faults(res, "latecheat")


class Exiter:
    """Calls exit() on its third move; named like a built-in agent, so it keeps its spec text."""

    name = "random"

    def __init__(self) -> None:
        self.moves = 0

    def act(self, info, rng):
        self.moves += 1
        if self.moves == 3:
            raise SystemExit(3)
        return info.legal_actions()[0]


class LateCheat:
    name = "latecheat"

    def __init__(self) -> None:
        self.moves = 0

    def act(self, info, rng):
        self.moves += 1
        return 31 if self.moves == 3 else info.legal_actions()[0]


class ForfeitsEvenDeals:
    """Raises after the first trick of every second deal it plays (it counts a deal at its first
    decision: at most one action played yet): some deals are forfeited and some played out."""

    name = "forfeitseven"

    def __init__(self) -> None:
        self.deals = 0

    def act(self, info, rng):
        if len(info.history) < 2:
            self.deals += 1
        if self.deals % 2 == 0 and info.trick_count >= 1:
            raise RuntimeError("even deal")
        return info.legal_actions()[0]


def test_forfeited_deals_count_in_the_pairs_returns_and_matches() -> None:
    """A forfeit loses the deal by the most game points (3 in the standard game, RULES 2.9): the
    pair's deal count, wins and losses, points per deal and match scores all include it."""
    res = run_arena([f"{__name__}:ForfeitsEvenDeals", "random"], deals=6, block=3, seed=2)
    (pair,) = res.pairs
    forfeits = [d for d in res.deal_records if d.termination == "forfeit"]
    played = [d for d in res.deal_records if d.termination != "forfeit"]
    assert forfeits and played, "the run needs both kinds of deal"
    assert all(d.forfeit_by == "forfeitseven" and d.a_return == -3 for d in forfeits)  # A forfeits: -3 for A
    returns = [d.a_return for d in res.deal_records]
    assert pair.deals == len(returns) == len(forfeits) + len(played)
    assert pair.losses == sum(r < 0 for r in returns) >= len(forfeits)
    assert pair.wins == sum(r > 0 for r in returns)
    assert pair.points_per_deal == pytest.approx(sum(returns) / len(returns))
    without = sum(d.a_return for d in played) / len(played)
    assert pair.points_per_deal < without  # the forfeits pull A's mean down
    for m in res.match_records:
        in_match = [d for d in res.deal_records if (d.block, d.track, d.match) == (m.block, m.track, m.match)]
        assert m.score_b == sum(max(-d.a_return, 0) for d in in_match)
        assert m.score_a == sum(max(d.a_return, 0) for d in in_match)
    assert res.elo["random"] == 0.0 and res.elo["forfeitseven"] < 0  # and the Elo table sees them


def test_a_hanging_bot_is_cut_off_at_the_limit_and_benched_until_it_answers(tmp_path) -> None:
    spec = _bot(tmp_path, HANGER, "hanger.py", "Hanger")
    module = load_module(str(tmp_path / "hanger.py"))
    start = time.perf_counter()
    try:
        res = run_arena([spec, "random"], deals=4, block=2, seed=2, decision_limit_s=3.0)
        took = time.perf_counter() - start
        asked = len(module.CALLS)
    finally:
        module.GATE.set()
    _check_faults(res, "hanger")
    reasons = [f.reason for f in res.faults]
    # one decision ran over (the limit, once), then it is not asked while that decision still runs
    assert reasons[0] == "took more than the 3 s limit over one decision (--decision-limit)"
    assert all(r.startswith("not asked: still busy") for r in reasons[1:])
    assert len(reasons) == len(res.deal_records)  # it hangs in its first deal and answers no more
    assert asked == 1 + 3  # the trial decision, then three in play: no second thread was started
    assert took < 60  # one limit's wait, not one per deal (about 3 s; generous for a busy machine)


def test_a_slow_built_in_agent_is_timed_after_its_answer() -> None:
    register_agent("test_slowpoke", Slowpoke, overwrite=True)
    try:
        res = run_arena(["test_slowpoke", "random"], deals=1, seed=0, decision_limit_s=1.0)
    finally:
        AGENTS.pop("test_slowpoke", None)
    assert len(res.faults) == 2  # once per track (each task builds its agents anew)
    assert all(f.reason.startswith("took ") and f.reason.endswith("over one decision (limit 1 s)") for f in res.faults)
    _check_faults(res, "test_slowpoke")


class Slowpoke:
    """Sleeps 2.5 s on its third move (2.5 times the limit of the test above), once."""

    name = "slowpoke"

    def __init__(self) -> None:
        self.moves = 0

    def act(self, info, rng):
        self.moves += 1
        if self.moves == 3:
            time.sleep(2.5)
        return info.legal_actions()[0]


def test_wall_time_is_reported_beside_cpu_time(tmp_path) -> None:
    """A bot that sleeps 20 ms a decision spends little CPU: the wall columns show it."""
    spec = _bot(tmp_path, SLEEPER, "sleeper.py", "Sleeper")
    out = tmp_path / "out"
    assert main(["--agents", f"{spec},random", "--deals", "1", "--out", str(out), "--no-progress"]) == 0
    rows = {r["agent"]: r for r in csv.DictReader((out / "timing.csv").open())}
    sleeper = rows["sleeper"]
    assert float(sleeper["mean_wall_ms_per_decision"]) >= 20.0
    assert float(sleeper["slowest_wall_ms"]) >= float(sleeper["mean_wall_ms_per_decision"])
    assert float(sleeper["mean_ms_per_decision"]) < float(sleeper["mean_wall_ms_per_decision"]) / 2
    summary = (out / "summary.md").read_text()
    assert "mean CPU ms" in summary and "mean wall ms" in summary


def test_no_limit_and_bad_limits() -> None:
    res = run_arena(["heuristic", "random"], deals=1, decision_limit_s=None)
    assert not res.faults
    for bad in (0, -1.0, float("nan"), float("inf"), True, "1"):
        with pytest.raises(ValueError, match="decision limit"):
            run_arena(["heuristic", "random"], deals=1, decision_limit_s=bad)


@pytest.mark.parametrize("bad", ["0", "-2", "nan", "1_0", "١", "soon"])
def test_cli_refuses_a_bad_decision_limit(tmp_path, capsys, bad) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--agents", "heuristic,random", "--decision-limit", bad, "--out", str(tmp_path), "--no-progress"])
    assert e.value.code == 2
    assert "--decision-limit" in capsys.readouterr().err


def test_threads_of_timed_bots_end_with_their_task(tmp_path) -> None:
    spec = _bot(tmp_path, SLEEPER.replace("0.02", "0"), "quick.py", "Sleeper")
    run_arena([spec, "random"], deals=2, block=1)
    for thread in threading.enumerate():
        if thread.name.startswith("arena bot"):
            thread.join(30)  # each got its end when its task did
            assert not thread.is_alive()


def test_a_bot_that_cannot_be_built_is_a_usage_error(tmp_path, capsys) -> None:
    spec = _bot(
        tmp_path,
        "class Broken:\n    def __init__(self):\n        raise RuntimeError('no model here')\n",
        "broken.py",
        "Broken",
    )
    with pytest.raises(SystemExit) as e:
        main(["--agents", f"{spec},random", "--out", str(tmp_path / "r"), "--no-progress"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"cannot build agent '{spec}': RuntimeError: no model here" in err and "Traceback" not in err


def test_folders_are_printed_with_one_slash(tmp_path, capsys) -> None:
    out, rec = tmp_path / "out", tmp_path / "rec"
    main(["--agents", "heuristic,random", "--deals", "1", "--out", f"{out}/", "--records", f"{rec}/", "--no-progress"])
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == f"written to {out}/; game records in {rec}/"
