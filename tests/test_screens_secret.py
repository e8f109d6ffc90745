"""Face-down cards never reach the person's screens (the terminal and the web page).

In the Russian four-player game a seat commits a card face down against three nines, and for the
contract "five" the declarer and both opponents discard one card face down. Another seat's
face-down card may reach the person only once the rules show it (the nines show a committed card
of the nine's suit) or when it is played to a trick. These tests play whole deals on both screens
and scan every message in between for the card in every form it could take: its id, ``J♥``,
``JH``, ``10♣``, ``10C``, ``TC`` and its name.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sixtysix_env.cards import NUM_CARDS, card_symbol
from sixtysix_env.play import main as play_main
from sixtysix_env.records import from_record, load_record, positions, to_record
from sixtysix_env.table.actions import HIDDEN_ACTION
from sixtysix_env.table.deal import TableDecision
from sixtysix_env.textplay import EVERY_SEAT, move_text
from sixtysix_env.web import create_app

ROOT = Path(__file__).resolve().parents[1]
_SUIT_LETTERS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}
_SUIT_NAMES = {"♣": "clubs", "♠": "spades", "♥": "hearts", "♦": "diamonds"}
_RANK_NAMES = {"9": "nine", "J": "jack", "Q": "queen", "K": "king", "10": "ten", "A": "ace"}


def _forms(card: int) -> re.Pattern[str]:
    """Every way a screen could write ``card`` (not its bare id: numbers are everywhere)."""
    symbol = card_symbol(card)
    rank, suit = symbol[:-1], symbol[-1]
    letters = [rank + _SUIT_LETTERS[suit]] + (["T" + _SUIT_LETTERS[suit]] if rank == "10" else [])
    alternatives = [re.escape(symbol), *letters, f"{_RANK_NAMES[rank]} of {_SUIT_NAMES[suit]}"]
    return re.compile(rf"(?<![A-Za-z0-9])(?:{'|'.join(alternatives)})(?![A-Za-z0-9])", re.IGNORECASE)


def secret_windows(deal: Any, person: int) -> list[tuple[int, int, int, int]]:
    """(seat, card, first, end) for every face-down card of another seat that was not public before
    (the turned trump card is known to be in its holder's hand): the card is secret from
    history index ``first`` (the face-down action) up to, not including, ``end``: the action that
    shows it (the nine left matches it, or the card is played to a trick) or the deal's end."""
    seen = positions(to_record(deal))[0]  # seen[k]: the deal before history[k]
    out = []
    history = deal.history
    for i, x in enumerate(history):
        seat, card = x >> 6, x & 63
        if not deal.secret >> i & 1 or seat == person or seen[i].known[seat] >> card & 1:
            continue  # not face down, the person's own, or a card all knew the seat held (the turned trump)
        end = len(history)
        for j in range(i + 1, len(history)):
            if history[j] == x or seen[j + 1].known[seat] >> card & 1:  # played, or shown by the nines
                end = j
                break
        out.append((seat, card, i, end))
    return out


# --------------------------------------------------------------------------------------- terminal
_ANNOUNCE = re.compile(r"^  (you|random\d): ")


def _terminal_run(seed: int, tmp_path: Path, *, subprocess_run: bool) -> tuple[list[str], Any, int]:
    folder = tmp_path / f"recs-{seed}"
    argv = ["--players", "4", "--rules", "russian", "--opponent", "random", "--seed", str(seed)]
    argv += ["--records", str(folder)]
    entries = "1\n" * 300
    if subprocess_run:
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        done = subprocess.run(
            [sys.executable, "-m", "sixtysix_env.play", *argv],
            input=entries,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
            cwd=ROOT,
            env=env,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        text = done.stdout + done.stderr
    else:
        out = io.StringIO()
        assert play_main(argv, stdin=io.StringIO(entries), stdout=out) == 0
        text = out.getvalue()
    (path,) = sorted(folder.glob("*.json"))
    record = load_record(path)
    return text.split("\n"), from_record(record), record["meta"]["human_seat"]


def _scan_terminal(lines: list[str], deal: Any, person: int) -> int:
    """Check every line between a face-down action and its showing; returns how many were checked."""
    # the line index of each announced action, in history order
    announced = [k for k, line in enumerate(lines) if _ANNOUNCE.match(line)]
    assert len(announced) == len(deal.history), "every action is announced once"
    checked = 0
    for seat, card, first, end in secret_windows(deal, person):
        stop = announced[end] if end < len(announced) else len(lines)
        pattern = _forms(card)
        line = lines[announced[first]]
        verb = "commits" if "commit" in line else "discards"
        assert f"{verb} a card face down" in line, line
        for k in range(announced[first], stop):
            assert not pattern.search(lines[k]), f"seat {seat}'s face-down {card_symbol(card)} shown: {lines[k]!r}"
            checked += 1
    return checked


@pytest.mark.parametrize("seed", [21, 32])
def test_the_terminal_never_shows_another_seats_face_down_card(seed: int, tmp_path: Path) -> None:
    lines, deal, person = _terminal_run(seed, tmp_path, subprocess_run=True)
    windows = secret_windows(deal, person)
    assert windows, f"seed {seed} should have a face-down card of an agent"  # 21 discards, 32 commits
    assert _scan_terminal(lines, deal, person) >= len(windows)


def test_the_terminal_scan_covers_commits_and_discards(tmp_path: Path) -> None:
    """More seeds in process: both kinds of face-down decision by agents are seen and scanned."""
    kinds = set()
    for seed in range(40):
        lines, deal, person = _terminal_run(seed, tmp_path, subprocess_run=False)
        announced = [line for line in lines if _ANNOUNCE.match(line)]
        for _, _, first, _ in secret_windows(deal, person):
            kinds.add("commit" if "commits" in announced[first] else "discard")
        _scan_terminal(lines, deal, person)
        if kinds == {"commit", "discard"} and seed >= 32:
            break
    assert kinds == {"commit", "discard"}


# --------------------------------------------------------------------------------------- web
HOST = {"Host": "127.0.0.1"}


def _card_fields(value: Any, out: set[int]) -> None:
    """Every card id a view dict places: hands, known cards, trick cards, the ``card`` fields."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("hand", "known") and isinstance(item, list):
                out.update(c for c in item if isinstance(c, int))
            elif key == "card" and isinstance(item, int):
                out.add(item)
            else:
                _card_fields(item, out)
    elif isinstance(value, list):
        for item in value:
            _card_fields(item, out)


def _web_deal(seed: int) -> tuple[list[dict[str, Any]], Any, list[str]]:
    """One deal of the Russian game on the web API, the person always taking the first legal move:
    the steps in order (each one action of the deal), the whole deal, and every answer's JSON."""
    app = create_app("random", "four:russian", seed=seed)
    client = app.test_client()
    answer = client.post("/api/games", json={"rules": "four:russian", "opponent": "random"}, headers=HOST)
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    gid = data["id"]
    steps = list(data["steps"])
    raw = [answer.get_data(as_text=True)]
    while data["view"]["outcome"] is None:
        move = data["view"]["legal"][0]["action"]
        answer = client.post(f"/api/games/{gid}/actions", json={"action": move}, headers=HOST)
        assert answer.status_code == 200, answer.get_json()
        data = answer.get_json()
        steps += data["steps"]
        raw.append(answer.get_data(as_text=True))
    raw.append(client.get(f"/api/games/{gid}", headers=HOST).get_data(as_text=True))
    game = app.config["server"].games[gid]
    return steps, game.deal, raw


def test_the_web_page_never_shows_another_seats_face_down_card() -> None:
    kinds: set[str] = set()
    scanned = 0
    for seed in range(60):
        steps, deal, _ = _web_deal(seed)
        assert len(steps) == len(deal.history)
        windows = secret_windows(deal, 0)
        for seat, card, first, end in windows:
            step = steps[first]
            assert step["by"] == seat
            assert step["action"] == HIDDEN_ACTION, step["action"]
            decision = "commits" if "commits" in step["text"] else "discards"
            kinds.add(decision)
            assert f"{decision} a card face down" in step["text"], step["text"]
            pattern = _forms(card)
            for t in range(first, end):
                text = json.dumps(steps[t], ensure_ascii=False)
                assert not pattern.search(text), f"seat {seat}'s face-down {card_symbol(card)} in step {t}"
                placed: set[int] = set()
                _card_fields(steps[t]["view"], placed)
                assert card not in placed, f"seat {seat}'s face-down card {card} placed in step {t}'s view"
                if t != first:
                    assert steps[t]["action"] != card or steps[t]["by"] != seat
                scanned += 1
            for line in steps[end - 1]["view"]["log"]:
                assert not pattern.search(line), line
        if kinds == {"commits", "discards"} and seed >= 20:
            break
    assert kinds == {"commits", "discards"}
    assert scanned > 0


def test_the_persons_own_face_down_card_is_named_for_the_person_only() -> None:
    """The person sees the card they discard or commit; the log of that step names it."""
    for seed in range(80):
        steps, deal, _ = _web_deal(seed)
        own = [i for i, x in enumerate(deal.history) if deal.secret >> i & 1 and x >> 6 == 0]
        if own:
            i = own[0]
            assert steps[i]["by"] == 0
            assert card_symbol(deal.history[i] & 63) in steps[i]["text"]
            assert steps[i]["action"] == deal.history[i] & 63
            return
    pytest.fail("no deal of 80 had the person take a face-down decision")


def test_move_text_depends_on_the_viewer() -> None:
    """The source of the words: another seat's face-down card is never named, the own one is,
    and a spectator's replay (every hand shown) may name all."""
    for seed in range(80):
        _, deal, _ = _web_deal(seed)
        for i, x in enumerate(deal.history):
            if not deal.secret >> i & 1:
                continue
            record_deal = positions(to_record(deal))[0][i]
            seat, card = x >> 6, x & 63
            assert record_deal.decision in (TableDecision.COMMIT, TableDecision.DISCARD)
            for viewer in range(4):
                text = move_text(record_deal, card, viewer)
                if viewer == seat:
                    assert card_symbol(card) in text
                else:
                    assert text in ("commits a card face down", "discards a card face down")
            assert move_text(record_deal, card) in ("commits a card face down", "discards a card face down")
            assert card_symbol(card) in move_text(record_deal, card, EVERY_SEAT)
            assert card_symbol(card) in move_text(record_deal.information_state(seat), card)
            return
    pytest.fail("no face-down decision found")


def test_the_screens_tricks_are_the_cards_played_not_the_cards_decided() -> None:
    """A discard, a commit or a nine left is a card id in the history too, and a contract's trick
    has 3 cards while the partner sits out: the tricks both screens show are the real ones."""
    from sixtysix_env.table import FOUR_PRESETS, THREE_PRESETS, FourDeal, TableMatch, ThreeDeal
    from sixtysix_env.web.view import trick_list

    checked = 0
    for cls, presets in ((FourDeal, FOUR_PRESETS), (ThreeDeal, THREE_PRESETS)):
        for rules in presets.values():
            for seed in range(25):
                rng = random.Random(seed)
                deal = TableMatch(cls, rules, rng).deal
                tricks: list[tuple[list[tuple[int, int]], int]] = []
                current: list[tuple[int, int]] = []
                while not deal.is_over:
                    action = rng.choice(deal.legal_actions())
                    decision, seat, count = deal.decision, deal.current_player, deal.trick_count
                    deal.apply(action)
                    if decision in (TableDecision.LEAD, TableDecision.FOLLOW) and action < NUM_CARDS:
                        current.append((seat, action))
                        if deal.trick_count > count:
                            tricks.append((current, deal.last_winner))
                            current = []
                    for viewer in range(deal.n_players):
                        done, now = trick_list(deal.information_state(viewer))
                        shown = [([(c["player"], c["card"]) for c in t["cards"]], t["winner"]) for t in done]
                        assert shown == tricks, (rules.name, seed, viewer)
                        assert [(c["player"], c["card"]) for c in now] == current
                        checked += 1
    assert checked > 1000
