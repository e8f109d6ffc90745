"""The terminal replay: every action shown with its player, points as they change, the result."""

from __future__ import annotations

import io
import json
import os
import random
import threading

import pytest

from sixtysix_env import Deal, Match
from sixtysix_env.records import match_record, save_record, to_record
from sixtysix_env.replay import main
from sixtysix_env.table import FourDeal, TableMatch, ThreeDeal
from sixtysix_env.textplay import EVERY_SEAT, move_text


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def finished(deal, rng: random.Random):
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.fixture
def deal_file(tmp_path):
    deal = Deal.from_arrangement(
        hands=["9S AC KH QH TD JC", "9C TC AS JD QD KD"], stock="9H TH JH AH KC QC 9D AD TS JS QS KS", dealer=0
    )
    deal.apply_all("M3 KD")
    finished(deal, random.Random(0))
    return save_record(tmp_path / "deal.json", to_record(deal, players=["ann", "bob"])), deal


def test_replay_shows_hands_every_action_and_the_result(deal_file) -> None:
    path, deal = deal_file
    code, text = run([str(path)])
    assert code == 0
    assert "seats: 0 ann · 1 bob" in text
    lines = text.splitlines()
    assert "  ann    9♠ K♥ Q♥ 10♦ A♣ J♣" in lines  # as held: trumps first, suits in alternating colours
    assert "  bob    A♠ K♦ Q♦ J♦ 10♣ 9♣" in lines
    assert "trump card K♠" in text
    step_lines = [line for line in text.splitlines() if line[:6].strip().isdigit()]
    assert len(step_lines) == len(deal.history)
    assert step_lines[0].startswith("    1  bob  declare the marriage K♦ Q♦ (20)")
    assert "bob  lead K♦" in step_lines[1]
    assert "trick to bob (+" in step_lines[2] and "points ann 0 · bob" in step_lines[2]
    assert f"result: {'bob' if deal.outcome.winner else 'ann'} won the deal" in text


def test_replay_of_a_match_goes_deal_by_deal(tmp_path) -> None:
    rng = random.Random(5)
    match = Match("standard", rng)
    deals = [match.deal]
    while True:
        while not match.deal.is_over:
            match.apply(rng.choice(match.deal.legal_actions()))
        if match.is_over:
            break
        deals.append(match.next_deal())
    path = save_record(tmp_path / "m.json", match_record(deals, players=["ann", "bob"]))
    code, text = run([str(path)])
    assert code == 0
    n = len(deals)
    for i in range(1, n + 1):
        assert f"Deal {i} of {n} · dealer" in text
    winner = ["ann", "bob"][match.winner]
    assert f"Match won by {winner}: ann {match.scores[0]} · bob {match.scores[1]}" in text
    code, one = run([str(path), "--deal", "2"])
    assert code == 0 and f"Deal 2 of {n}" in one and f"Deal 1 of {n}" not in one and "Match won by" not in one


@pytest.mark.parametrize("game", [ThreeDeal, FourDeal])
def test_replay_of_table_games(game, tmp_path) -> None:
    rng = random.Random(1)
    match = TableMatch(game, None, rng)
    deals = [match.deal]
    while True:
        while not match.deal.is_over:
            match.apply(rng.choice(match.deal.legal_actions()))
        if match.is_over:
            break
        deals.append(match.next_deal())
    names = ["ann", "bob", "cat", "dan"][: game.n_players]
    path = save_record(tmp_path / "t.json", match_record(deals, players=names))
    code, text = run([str(path), "--deal", "1"])
    assert code == 0
    first = deals[0]
    steps = [line for line in text.splitlines() if line[:6].strip().isdigit()]
    assert len(steps) == len(first.history)
    replayed = first.__class__.from_arrangement(first.dealt, first.dealer, first.rules)
    for line, x in zip(steps, first.history, strict=True):
        assert names[x >> 6] in line and move_text(replayed, x & 63, EVERY_SEAT) in line
        replayed.apply(x & 63)
    if game is FourDeal:
        assert "ann & cat" in text and "bob & dan" in text
    else:
        assert "stakes" in text or "drawn deal" in text


def test_step_mode_waits_for_enter_and_stops_on_q(deal_file) -> None:
    path, _ = deal_file
    code, text = run([str(path), "--step"], stdin="\n\nq\n")
    assert code == 0
    steps = [line for line in text.splitlines() if line[:6].strip().isdigit()]
    assert len(steps) == 3 and text.rstrip().endswith("(stopped)")
    code, text = run([str(path), "--step"], stdin="")  # end of input stops too
    assert code == 0 and "(stopped)" in text


def test_bad_files_get_one_clear_line(tmp_path, capsys) -> None:
    assert run([str(tmp_path / "nope.json")])[0] == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "a.json").write_text("{ not json", encoding="utf-8")
    assert run([str(tmp_path / "a.json")])[0] == 2
    err = capsys.readouterr().err
    assert "not valid JSON (line 1" in err and "Traceback" not in err
    (tmp_path / "b.json").write_text(json.dumps({"format": "other"}), encoding="utf-8")
    assert run([str(tmp_path / "b.json")])[0] == 2
    assert "format is 'other'" in capsys.readouterr().err
    assert run([str(tmp_path)])[0] == 2
    assert "is a folder; its records: a.json, b.json" in capsys.readouterr().err


def test_deal_number_out_of_range(deal_file, capsys) -> None:
    path, _ = deal_file
    assert run([str(path), "--deal", "2"])[0] == 2
    assert "it has 1 deal (1..1)" in capsys.readouterr().err


def test_odd_paths_get_one_clear_line(tmp_path, capsys, monkeypatch) -> None:
    """An empty name (not the current folder), a file that cannot be opened, a binary file."""
    assert run([""])[0] == 2
    assert "the file name is empty" in capsys.readouterr().err
    import sixtysix_env.replay as replay

    def locked(path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(replay, "load_record", locked)
    assert run([str(tmp_path / "locked.json")])[0] == 2
    err = capsys.readouterr().err
    assert "cannot open" in err and "Permission denied" in err
    monkeypatch.undo()
    (tmp_path / "c.json").write_bytes(bytes(range(256)))
    assert run([str(tmp_path / "c.json")])[0] == 2
    err = capsys.readouterr().err
    assert "not a UTF-8 text file" in err and "Traceback" not in err


def test_record_text_is_shown_without_control_characters(tmp_path) -> None:
    """Player names and meta are the record's to choose: a window title (OSC 0), a clipboard write
    (OSC 52), a screen clear, a bidi override and a forged line reach the terminal as visible escapes."""
    deal = finished(Deal.new("standard", random.Random(3)), random.Random(3))
    evil = ["ann\x1b]0;owned\x07", "bob\x1b]52;c;ZXZpbA==\x07\x1b[2J\u202e\nResult: ann won"]
    meta = {"source": "web\x1b[31m", "created": "2026\x9b1m"}
    path = save_record(tmp_path / "evil.json", to_record(deal, players=evil, meta=meta))
    code, text = run([str(path)])
    assert code == 0
    for bad in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert bad not in text
    assert "ann\\x1b]0;owned\\x07" in text  # shown, not executed
    assert not any(line.startswith("Result: ann won") for line in text.splitlines())


def test_a_folder_and_a_fifo_get_one_clear_line(tmp_path, capsys) -> None:
    folder = tmp_path / "x.json"
    folder.mkdir()
    assert run([str(folder)])[0] == 2
    assert "is a folder" in capsys.readouterr().err
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    codes: list[int] = []
    reader = threading.Thread(target=lambda: codes.append(run([str(fifo)])[0]), daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # it opened the FIFO and waits for a writer: let it see an end, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
        pytest.fail("replay blocked on a FIFO")
    assert codes == [2]  # refused before it is opened
    err = capsys.readouterr().err
    assert str(fifo) in err and "not a regular file" in err
