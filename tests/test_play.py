"""Terminal play driven through piped stdin: whole games, bad entries, the fair view, records."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from sixtysix_env import Deal
from sixtysix_env.cards import card_symbol
from sixtysix_env.play import main
from sixtysix_env.play.moves import EntryError, keyed_moves, parse_entry
from sixtysix_env.play.view import table_text
from sixtysix_env.records import from_record, load_record
from sixtysix_env.table import FourDeal, ThreeDeal


def play(argv: list[str], entries: str, tmp_path: Path) -> tuple[int, str, list[Path]]:
    out = io.StringIO()
    folder = tmp_path / "recs"
    code = main([*argv, "--records", str(folder)], stdin=io.StringIO(entries), stdout=out)
    return code, out.getvalue(), sorted(folder.glob("*.json")) if folder.exists() else []


def always_first(n: int = 400) -> str:
    return "1\n" * n


def test_a_whole_deal_against_random(tmp_path) -> None:
    code, text, files = play(["--opponent", "random", "--seed", "4", "--seat", "0"], always_first(), tmp_path)
    assert code == 0
    assert "you (seat 0) against random (seat 1)" in text
    assert "Traceback" not in text
    result = re.search(r"Result: (you|random) won the deal .*?: (\d) game points?\.", text, re.S)  # may wrap
    assert result, text[-500:]
    assert len(files) == 1 and f"Record saved: {files[0]}" in text
    assert "Score (game points): you " in text
    assert f"python -m sixtysix_env.replay {files[0]}" in text
    record = load_record(files[0])
    deal = from_record(record)
    assert deal.outcome is not None
    assert ["you", "random"][deal.outcome.winner] == result.group(1)
    assert deal.outcome.game_points == int(result.group(2))
    assert record["players"] == ["you", "random"]
    assert record["meta"]["source"] == "play" and record["meta"]["seed"] == 4
    assert record["meta"]["human_seat"] == 0 and record["meta"]["agents"] == ["human", "random"]
    assert record["meta"]["ended"] == "finished"
    # every one of the person's actions was a "1", i.e. the first move shown, and all were announced
    assert text.count("  you: ") == sum(1 for x in deal.history if x >> 5 == 0)
    assert text.count("  random: ") == sum(1 for x in deal.history if x >> 5 == 1)


def test_the_same_seed_plays_the_same_game(tmp_path) -> None:
    args = ["--opponent", "pimc:samples=3", "--seed", "12", "--no-record"]
    first = play(args, always_first(), tmp_path)[1]
    second = play(args, always_first(), tmp_path)[1]
    assert first == second and "won the deal" in first


def test_a_match_is_played_to_its_target(tmp_path) -> None:
    code, text, files = play(
        ["--opponent", "random", "--episode", "match", "--seed", "2", "--rules", "santase"],
        always_first(3000),
        tmp_path,
    )
    assert code == 0
    assert "a match to 11 game points" in text
    assert "── Deal 1 · " in text and "── Deal 2 · " in text
    final = re.search(r"Match won by (you|random): (.*)\n", text)
    assert final, text[-400:]
    record = load_record(files[0])
    assert record["kind"] == "match" and record["over"] is True
    assert max(record["final_scores"]) >= 11
    assert text.count("Match score (game points): ") == len(record["deals"])
    assert len(from_record(record)) == len(record["deals"])


def test_bad_entries_are_asked_again(tmp_path) -> None:
    entries = "hello\n\n99\nZZ\nM7\n=H\nhelp\nshow\ntricks\n" + always_first()
    code, text, _ = play(["--opponent", "random", "--seed", "1", "--seat", "1"], entries, tmp_path)
    assert code == 0 and "Traceback" not in text
    assert "'hello' is neither a move nor a card" in text
    assert "type the number of a move (1" in text  # the empty line
    assert "there is no move 99: choose 1" in text
    assert "'ZZ' is neither a move nor a card" in text
    assert "How to answer:" in text
    assert "no trick has been played yet" in text or " 1. " in text
    assert "won the deal" in text


def test_cards_can_be_typed_in_every_form() -> None:
    deal = Deal.from_arrangement(
        hands=["9S AC KH QH TD JC", "9C TC AS JD QD KD"], stock="9H TH JH AH KC QC 9D AD TS JS QS KS", dealer=1
    )
    view = deal.information_state(0)
    moves = keyed_moves(view)
    qh = 14
    for text in ("QH", "qh", "Q♥", " q♥ ", "QH\n"):
        assert parse_entry(text, view, moves) == qh
    assert parse_entry("10D", view, moves) == parse_entry("TD", view, moves) == parse_entry("10♦", view, moves) == 22
    assert parse_entry("MH", view, moves) == parse_entry("M♥", view, moves) == 26
    assert parse_entry("close", view, moves) == parse_entry("C", view, moves) == 29
    assert parse_entry("help", view, moves) == "help" and parse_entry("Q", view, moves) == "quit"
    keyed = {m.key: m.action for m in moves}
    assert parse_entry("1", view, moves) == keyed["1"]
    with pytest.raises(EntryError, match="you do not hold A♥"):
        parse_entry("AH", view, moves)
    with pytest.raises(EntryError, match="not possible now"):
        parse_entry("X", view, moves)  # no trick won yet: no exchange
    # the keys follow the hand as shown: trumps (♠ here) first
    assert [m.text for m in moves[:2]] == ["lead 9♠", "lead K♥"]


def test_the_view_shows_nothing_the_seat_cannot_know() -> None:
    rng = random.Random(0)
    names = ["you", "bot"]
    for _ in range(40):
        deal = Deal.new("standard", rng, dealer=rng.randrange(2))
        for _ in range(rng.randrange(20)):
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        for p in (0, 1):
            other = deal.resample_hidden(p, rng)
            seen = table_text(deal.information_state(p), names)
            assert table_text(other.information_state(p), names) == seen
    for game in (ThreeDeal, FourDeal):
        names = ["a", "b", "c", "d"][: game.n_players]
        for _ in range(20):
            deal = game.new(None, rng, dealer=rng.randrange(game.n_players))
            for _ in range(rng.randrange(20)):
                if deal.is_over:
                    break
                deal.apply(rng.choice(deal.legal_actions()))
            for p in range(game.n_players):
                seen = table_text(deal.information_state(p), names)
                assert table_text(deal.resample_hidden(p, rng).information_state(p), names) == seen


def test_the_opponents_hand_is_not_on_screen(tmp_path) -> None:
    _, text, files = play(["--opponent", "random", "--seed", "9", "--seat", "0"], always_first(), tmp_path)
    mine_dealt, theirs_dealt = from_record(load_record(files[0])).arrangement[:2]
    first_screen = text.split("> ")[0]
    hand_line = next(line for line in first_screen.splitlines() if "your hand" in line)
    shown = set(hand_line.split()[2:])
    theirs = {card_symbol(c) for c in theirs_dealt}
    if "  random: lead " in first_screen:  # the card it led is on the table, not in its hand any more
        theirs.discard(first_screen.split("  random: lead ")[1].split()[0])
    assert shown == {card_symbol(c) for c in mine_dealt}
    assert not theirs & set(first_screen.replace(",", " ").split())


@pytest.mark.parametrize(("players", "rules"), [("3", "pagat"), ("3", "marriage"), ("4", "pagat"), ("4", "russian")])
def test_three_and_four_player_deals(players: str, rules: str, tmp_path) -> None:
    code, text, files = play(["--players", players, "--rules", rules, "--seed", "3"], always_first(), tmp_path)
    assert code == 0 and "Traceback" not in text
    assert "won the deal" in text or "drawn deal" in text
    record = load_record(files[0])
    assert record["game"] == {"3": "three", "4": "four"}[players]
    deal = from_record(record)
    assert deal.outcome is not None and record["rules"]["name"] == rules
    if players == "4":
        assert "your partner" in text and " & " in text


def test_four_players_with_a_partner_agent_and_explicit_claiming(tmp_path) -> None:
    args = ["--players", "4", "--seat", "1", "--opponent", "random", "--partner", "random", "--claiming", "explicit"]
    args += ["--seed", "5"]
    code, text, files = play(args, always_first(), tmp_path)
    assert code == 0
    seats = "you (seat 1) and your partner random3 (seat 3) against random0 (seat 0) and random2 (seat 2)"
    assert seats in " ".join(text.split())  # wrapped to 80 columns
    assert load_record(files[0])["rules"]["claiming"] == "explicit"


def test_end_of_input_and_quit_stop_cleanly_and_save(tmp_path) -> None:
    code, text, files = play(["--opponent", "random", "--seed", "6", "--seat", "0"], "1\n", tmp_path)
    assert code == 0 and "Input ended: the game stops here." in text and "Traceback" not in text
    record = load_record(files[0])
    assert record["meta"]["ended"] == "input ended" and record["outcome"] is None
    code, text, files = play(["--opponent", "random", "--seed", "0", "--seat", "0"], "quit\n", tmp_path / "q")
    assert "random: " not in text  # with this seed the person leads first
    assert code == 0 and "You stopped the game." in text
    assert "Nothing was played, so no record was saved." in text and files == []


def test_no_record_writes_nothing(tmp_path) -> None:
    code, text, files = play(["--opponent", "random", "--seed", "1", "--no-record"], always_first(), tmp_path)
    assert code == 0 and files == [] and "Record saved" not in text


def test_a_bot_that_fails_mid_game_ends_it_cleanly(tmp_path, monkeypatch) -> None:
    bot = tmp_path / "flaky.py"
    bot.write_text(
        "class Flaky:\n"
        "    name = 'flaky'\n"
        "    def __init__(self):\n"
        "        self.calls = 0\n"
        "    def act(self, info, rng):\n"
        "        self.calls += 1\n"
        "        if self.calls > 3:\n"
        "            raise RuntimeError('out of ideas')\n"
        "        return info.legal_actions()[0]\n",
        encoding="utf-8",
    )
    code, text, files = play(["--opponent", f"{bot}:Flaky", "--seed", "2"], always_first(), tmp_path)
    assert code == 1
    assert "raised RuntimeError: out of ideas. The game stops here." in text
    meta = load_record(files[0])["meta"]
    assert meta["ended"] == "agent failed" and "out of ideas" in meta["failure"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "3", "--opponent", "alphabeta"], "--opponent alphabeta cannot play this game"),
        (["--players", "4", "--opponent", "pimc:bogus=1"], "--opponent pimc:bogus=1"),
        (["--players", "4", "--partner", "pimc:bogus=1"], "--partner pimc:bogus=1"),
        (["--players", "3", "--rules", "standard"], "--rules standard is not a three-player preset"),
        (["--rules", "pagat"], "--rules pagat is not a two-player preset (pagat is a three and four-player preset)"),
        (["--opponent", "nosuchbot"], "unknown agent 'nosuchbot'"),
        (["--opponent", "pimc:samples=0.5:bogus=1"], "--opponent pimc:samples=0.5:bogus=1"),
        (["--seat", "2"], "--seat 2 is not a seat: choose 0 to 1"),
        (["--players", "3", "--opponent", "random,random,random"], "--opponent takes one agent or 2"),
        (["--partner", "random"], "--partner is for the four-player game"),
        (["--players", "3", "--claiming", "explicit"], "always played out"),
    ],
)
def test_bad_options_are_explained(argv: list[str], message: str, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        play(argv, "", tmp_path)
    assert e.value.code == 2
    assert message in " ".join(capsys.readouterr().err.split())  # wrapped to 80 columns


def test_record_file_is_json_with_suit_symbols(tmp_path) -> None:
    _, _, files = play(["--opponent", "random", "--seed", "7"], always_first(), tmp_path)
    text = files[0].read_text(encoding="utf-8")
    assert re.search(r'"label": "play [0-9JQKA]{1,2}[♣♠♥♦]"', text)
    assert json.loads(text)["format"] == "sixtysix-record"
    assert re.fullmatch(r"\d{8}-\d{6}-two-standard-deal\.json", files[0].name)


class InterruptAfter(io.StringIO):
    """stdin that gives some lines, then behaves as if the person pressed Ctrl-C."""

    def __init__(self, lines: int) -> None:
        super().__init__("1\n" * lines)
        self.left = lines

    def readline(self, *args) -> str:  # type: ignore[override]
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().readline(*args)


def test_ctrl_c_stops_like_quit_and_saves(tmp_path) -> None:
    out = io.StringIO()
    code = main(
        ["--opponent", "random", "--seed", "3", "--records", str(tmp_path)], stdin=InterruptAfter(3), stdout=out
    )
    text = out.getvalue()
    assert code == 0 and "Interrupted: the game stops here." in text and "Traceback" not in text
    record = load_record(next(tmp_path.glob("*.json")))
    assert record["meta"]["ended"] == "interrupted" and record["outcome"] is None


def test_explicit_claiming_two_players_and_a_safe_file_name(tmp_path) -> None:
    code, text, files = play(
        ["--opponent", "random", "--seed", "3", "--claiming", "explicit"], always_first(), tmp_path
    )
    assert code == 0 and "explicit claiming" in text
    assert re.fullmatch(r"\d{8}-\d{6}-two-[A-Za-z0-9_.-]+-deal\.json", files[0].name)
    assert load_record(files[0])["rules"]["claiming"] == "explicit"


def test_ascii_output_where_suit_symbols_cannot_be_shown(tmp_path) -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    code = main(["--opponent", "random", "--seed", "4", "--no-record"], stdin=io.StringIO(always_first()), stdout=out)
    text = raw.getvalue().decode("ascii")
    assert code == 0 and "won the deal" in text and "your hand" in text
    assert re.search(r"your hand  ([0-9JQKA]{1,2}[CSHD] ?)+", text)
    flag = io.StringIO()
    main(
        ["--opponent", "random", "--seed", "4", "--no-record", "--ascii"],
        stdin=io.StringIO(always_first()),
        stdout=flag,
    )
    assert flag.getvalue() == text


def test_table_games_play_against_the_table_heuristic_by_default(tmp_path) -> None:
    code, text, files = play(["--players", "3", "--seat", "0", "--seed", "2"], always_first(), tmp_path)
    assert code == 0 and "against heuristic1 (seat 1) and heuristic2 (seat 2)" in text
    assert load_record(files[0])["players"][1:] == ["heuristic1", "heuristic2"]


# ------------------------------------------------------------------ the screen as a new player finds it
def test_the_trump_card_is_face_down_once_the_stock_is_closed(tmp_path) -> None:
    """Seed 317236: the opponent closes the stock at once; the screen no longer calls the trump
    card face up under the stock."""
    code, text, _ = play(["--opponent", "random", "--seed", "317236", "--no-record"], always_first(), tmp_path)
    assert code == 0
    before, sep, after = text.partition("the stock is closed")
    assert sep and "9♥ face up under the stock" in before
    assert "face up under" not in after and "9♥ turned face down (the stock is closed)" in after


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_every_line_fits_80_columns(players: str, tmp_path, capsys, monkeypatch) -> None:
    """Help, bad entries, the table, the moves and the results, then --help and an error."""
    entries = "help\nxyzzy\n" + "nonsense " * 12 + "\n99\nM7\n" + always_first()
    argv = ["--players", players, "--opponent", "random", "--seed", "317236", "--episode", "match", "--no-record"]
    code, text, _ = play(argv, entries, tmp_path)  # (a record's file path is printed whole, however long)
    assert code == 0 and "How to answer:" in text and "is neither a move nor a card" in text
    ours = [line for line in text.splitlines() if not line.startswith("> ")]  # not the typed entries
    assert max(map(len, ours)) <= 80, max(ours, key=len)
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(["--help"])
    with pytest.raises(SystemExit):
        main(["--players", players, "--rules", "no-such-preset-of-any-kind-at-all"])
    printed = capsys.readouterr()
    assert "examples:" in printed.out and "no-such-preset" in printed.err
    for line in (printed.out + printed.err).splitlines():
        assert len(line) <= 80, line


@pytest.mark.parametrize("bad", ["١٢", "1_000", " 7", "1e3"])
def test_numbers_on_the_command_line_are_ascii_digits(bad: str, capsys) -> None:
    for argv in (["--seed", bad], ["--players", bad], ["--seat", bad]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert repr(bad) in err or bad in err
