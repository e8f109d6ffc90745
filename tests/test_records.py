"""Game records: round trips for every rule system, matches, and clear errors for bad records."""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sixtysix_env import Deal, Match
from sixtysix_env.cards import card_str
from sixtysix_env.records import (
    RECORD_FORMAT,
    RECORD_VERSION,
    from_record,
    load_record,
    match_record,
    positions,
    save_record,
    to_record,
)
from sixtysix_env.rules import PRESETS, get_rules
from sixtysix_env.table import FOUR_PRESETS, THREE_PRESETS, FourDeal, TableMatch, ThreeDeal

CUSTOM = get_rules("standard").replace(
    name="house", must_win_trick=False, last_trick_bonus=0, closing_min_stock=4, match_target=5
)
TWO_RULES = {
    **{name: PRESETS[name] for name in ("standard", "russian", "marriage", "santase", "schnapsen", "vu")},
    "custom": CUSTOM,
    "explicit": get_rules("standard").replace(claiming="explicit"),
    "schnapsen-explicit": get_rules("schnapsen").replace(claiming="explicit", exchange_timing="any_turn"),
}
TABLE_RULES = {
    **{f"three-{n}": (ThreeDeal, r) for n, r in THREE_PRESETS.items()},
    **{f"four-{n}": (FourDeal, r) for n, r in FOUR_PRESETS.items()},
    "four-explicit": (FourDeal, FOUR_PRESETS["pagat"].replace(claiming="explicit")),
    "three-custom": (ThreeDeal, THREE_PRESETS["pagat"].replace(name="short", match_deals=3, last_trick_bonus=0)),
}


def play(deal, rng: random.Random, steps: int | None = None):
    """Random legal play to the end (or for ``steps`` actions)."""
    k = 0
    while not deal.is_over and (steps is None or k < steps):
        deal.apply(rng.choice(deal.legal_actions()))
        k += 1
    return deal


def assert_same_deal(a, b) -> None:
    assert a.rules == b.rules
    assert a.dealer == b.dealer
    assert a.history == b.history
    assert a.outcome == b.outcome
    assert a.scores == b.scores
    assert a.hands == b.hands
    assert a.to_notation() == b.to_notation()
    assert a.legal_mask() == b.legal_mask()


def round_trip(record: dict, tmp_path) -> dict:
    path = save_record(tmp_path / "r.json", record)
    loaded = load_record(path)
    assert loaded == json.loads(json.dumps(record))
    return loaded


@pytest.mark.parametrize("name", list(TWO_RULES))
def test_two_player_deals_round_trip(name: str, tmp_path) -> None:
    rules = TWO_RULES[name]
    rng = random.Random(hash(name) % 1000)
    for i in range(12):
        deal = play(Deal.new(rules, rng, dealer=i % 2, scores=(i % 3, 1)), rng)
        record = to_record(deal, players=["ann", "bob"], meta={"seed": i})
        assert record["format"] == RECORD_FORMAT and record["version"] == RECORD_VERSION
        assert record["kind"] == "deal" and record["game"] == "two" and record["players"] == ["ann", "bob"]
        assert len(record["actions"]) == len(deal.history)
        back = from_record(round_trip(record, tmp_path))
        assert_same_deal(back, deal)
        assert back.rules == rules  # every field, custom variants included
        assert to_record(back, players=["ann", "bob"], meta={"seed": i}) == record


@pytest.mark.parametrize("name", list(TABLE_RULES))
def test_table_deals_round_trip(name: str, tmp_path) -> None:
    game, rules = TABLE_RULES[name]
    rng = random.Random(len(name))
    for i in range(8):
        deal = play(game.new(rules, rng, dealer=i % game.n_players), rng)
        record = to_record(deal)
        assert record["game"] == ("three" if game is ThreeDeal else "four")
        assert record["players"] == [f"player_{p}" for p in range(game.n_players)]
        assert all(a["seat"] in range(game.n_players) for a in record["actions"])
        back = from_record(round_trip(record, tmp_path))
        assert type(back) is game
        assert_same_deal(back, deal)
        assert to_record(back) == record


def test_unfinished_deal_round_trips_and_plays_on() -> None:
    rng = random.Random(3)
    deal = play(Deal.new("standard", rng), rng, steps=7)
    record = to_record(deal)
    assert record["outcome"] is None
    back = from_record(record)
    assert_same_deal(back, deal)
    back.apply(back.legal_actions()[0])  # a live deal, not a frozen copy
    table = play(FourDeal.new(None, rng), rng, steps=5)
    assert_same_deal(from_record(to_record(table)), table)


def test_actions_carry_seat_and_label() -> None:
    deal = Deal.from_arrangement(
        hands=["9S AC KH QH TD JC", "9C TC AS JD QD KD"],
        stock="9H TH JH AH KC QC 9D AD TS JS QS KS",
        dealer=0,
    )
    deal.apply_all("M3 KD")
    record = to_record(deal)
    assert record["hands"][0] == ["9S", "AC", "KH", "QH", "TD", "JC"]
    assert record["stock"][-1] == "KS"
    assert record["actions"] == [
        {"seat": 1, "action": 27, "label": "declare marriage ♦"},
        {"seat": 1, "action": 21, "label": "play K♦"},
    ]
    assert record["rules"]["exchange_rank"] == "NINE"


def two_player_match(rules, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    match = Match(rules, rng)
    deals = [match.deal]
    while True:
        while not match.deal.is_over:
            match.apply(rng.choice(match.deal.legal_actions()))
        if match.is_over:
            return deals
        deals.append(match.next_deal())


def table_match(game, rules, seed: int) -> list:
    rng = random.Random(seed)
    match = TableMatch(game, rules, rng)
    deals = [match.deal]
    while True:
        while not match.deal.is_over:
            match.apply(rng.choice(match.deal.legal_actions()))
        if match.is_over:
            return deals
        deals.append(match.next_deal())


@pytest.mark.parametrize("name", ["standard", "russian", "santase", "schnapsen", "custom"])
def test_two_player_match_round_trips_with_scores(name: str, tmp_path) -> None:
    rules = TWO_RULES[name]
    deals = two_player_match(rules, seed=5)
    # The scores the match kept, independently of the record code.
    ref = Match(rules, random.Random(0), first_deal=deals[0].clone())
    expected = []
    for d in deals:
        fresh = Deal.from_arrangement(d.arrangement[0:2], d.arrangement[2], d.dealer, rules, d.scores)
        ref.deal = fresh
        for x in d.history:
            ref.apply(x & 31)
        expected.append(list(ref.scores))
    record = match_record(deals, players=["me", "bot"], meta={"source": "test"})
    assert record["kind"] == "match" and record["target"] == rules.match_target
    assert record["running_scores"] == expected
    assert record["final_scores"] == expected[-1] and max(expected[-1]) >= rules.match_target
    assert record["over"] is True
    assert record["winners"] == [expected[-1].index(max(expected[-1]))]
    back = from_record(round_trip(record, tmp_path))
    assert len(back) == len(deals)
    for a, b in zip(back, deals, strict=True):
        assert_same_deal(a, b)
    assert match_record(back, players=["me", "bot"], meta={"source": "test"}) == record
    assert [len(p) for p in positions(record)] == [len(d.history) + 1 for d in deals]


@pytest.mark.parametrize(
    ("game", "preset"), [(ThreeDeal, "pagat"), (ThreeDeal, "marriage"), (FourDeal, "pagat"), (FourDeal, "russian")]
)
def test_table_match_round_trips(game, preset: str, tmp_path) -> None:
    rules = game._get_rules(preset)
    deals = table_match(game, rules, seed=2)
    record = match_record(deals)
    assert record["over"] is True and record["winners"]
    assert len(record["running_scores"]) == len(deals)
    back = from_record(round_trip(record, tmp_path))
    for a, b in zip(back, deals, strict=True):
        assert_same_deal(a, b)
    if game is FourDeal:
        team = record["final_scores"].index(max(record["final_scores"]))
        assert record["winners"] == [p for p in range(4) if p % 2 == team]


def test_unfinished_match_keeps_the_last_deal_open() -> None:
    rng = random.Random(9)
    match = Match("standard", rng)
    deals = [match.deal]
    while not match.deal.is_over:
        match.apply(rng.choice(match.deal.legal_actions()))
    deals.append(match.next_deal())
    for _ in range(3):
        match.apply(rng.choice(match.deal.legal_actions()))
    record = match_record(deals)
    assert record["over"] is False and record["winners"] == []
    assert len(record["running_scores"]) == 1
    assert from_record(record)[-1].outcome is None


def test_positions_are_every_step_and_independent() -> None:
    rng = random.Random(4)
    deal = play(Deal.new("standard", rng), rng)
    steps = positions(to_record(deal))
    assert len(steps) == 1 and len(steps[0]) == len(deal.history) + 1
    assert steps[0][0].history == [] and steps[0][-1].history == deal.history
    for k, pos in enumerate(steps[0]):
        assert pos.history == deal.history[:k]
    steps[0][0].apply(steps[0][0].legal_actions()[0])
    assert steps[0][1].history == deal.history[:1]


def test_match_record_rejects_mixed_or_unfinished_deals() -> None:
    rng = random.Random(1)
    a = play(Deal.new("standard", rng), rng)
    open_deal = Deal.new("standard", rng)
    with pytest.raises(ValueError, match="deal 0 of the match is unfinished"):
        match_record([open_deal, a])
    with pytest.raises(ValueError, match="another game or rule set"):
        match_record([a, play(Deal.new("russian", rng), rng)])
    with pytest.raises(ValueError, match="at least one deal"):
        match_record([])
    with pytest.raises(ValueError, match="players must be 2 names"):
        to_record(a, players=["solo"])
    with pytest.raises(ValueError, match="resampled"):
        to_record(a.resample_hidden(0, rng))


# ------------------------------------------------------------------------------------ bad records
@pytest.fixture
def record() -> dict:
    rng = random.Random(7)
    return to_record(play(Deal.new("standard", rng), rng))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="chess-pgn"), "format is 'chess-pgn', expected 'sixtysix-record'"),
        (lambda r: r.update(version=2), "version 2 was written by a newer sixtysix-env"),
        (lambda r: r.update(version="1"), "field 'version' must be int"),
        (lambda r: r.update(kind="tournament"), "kind 'tournament' is not allowed"),
        (lambda r: r.update(game="five"), "game 'five' is not allowed"),
        (lambda r: r.pop("dealer"), "missing field 'dealer'"),
        (lambda r: r.pop("actions"), "missing field 'actions'"),
        (lambda r: r.pop("outcome"), "missing field 'outcome'"),
        (lambda r: r["hands"][0].__setitem__(0, "ZZ"), "the dealt cards: "),
        (lambda r: r["hands"][0].__setitem__(0, "ZZ"), "'ZZ'"),
        (lambda r: r["hands"][0].__setitem__(0, r["hands"][1][0]), "duplicate card"),
        (lambda r: r["stock"].pop(), "stock has 11 cards"),
        (lambda r: r["rules"].update(colour="red"), "unknown fields colour"),
        (lambda r: r["rules"].update(claiming="sometimes"), "Rules.claiming='sometimes' is not allowed"),
        (lambda r: r["rules"].update(exchange_rank="QUEENS"), "exchange_rank 'QUEENS' is not a rank"),
        (lambda r: r["actions"][0].update(seat=1 - r["actions"][0]["seat"]), "action 0: seat"),
        (lambda r: r["actions"][0].pop("action"), "action 0: missing field 'action'"),
        (lambda r: r["outcome"].update(game_points=r["outcome"]["game_points"] + 1), "differs from the replayed"),
        (lambda r: r.update(players=["a", "b", "c"]), "players must be 2 names"),
        (lambda r: r.update(meta=[]), "field 'meta' must be dict"),
    ],
)
def test_bad_records_name_the_problem(record: dict, change, message: str) -> None:
    bad = copy.deepcopy(record)
    change(bad)
    with pytest.raises(ValueError, match="bad game record") as err:
        from_record(bad)
    assert message in str(err.value)


def test_illegal_action_names_step_and_legal_actions(record: dict) -> None:
    bad = copy.deepcopy(record)
    first = bad["actions"][0]["action"]
    deal = Deal.from_arrangement(bad["hands"], bad["stock"], bad["dealer"])
    illegal = next(a for a in range(32) if not deal.is_legal(a))
    bad["actions"][0]["action"] = illegal
    with pytest.raises(ValueError, match=r"action 0: action \d+ is illegal here; the legal actions are") as err:
        from_record(bad)
    assert f"{first} (" in str(err.value)  # the recorded (legal) action is among those named


def test_extra_actions_after_the_end_are_rejected(record: dict) -> None:
    bad = copy.deepcopy(record)
    bad["actions"].append(dict(bad["actions"][-1]))
    with pytest.raises(ValueError, match="already over"):
        from_record(bad)


def test_older_rules_without_a_new_field_read_with_its_default(record: dict) -> None:
    older = copy.deepcopy(record)
    del older["rules"]["claiming"]
    assert from_record(older).rules == get_rules("standard")


def test_match_record_scores_are_checked() -> None:
    record = match_record(two_player_match("standard", seed=1))
    bad = copy.deepcopy(record)
    bad["final_scores"] = [0, 0]
    with pytest.raises(ValueError, match="final_scores is"):
        from_record(bad)
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0]["action"] = 31
    with pytest.raises(ValueError, match="deal 0: action 0: action 31 is illegal"):
        from_record(bad)
    bad = copy.deepcopy(record)
    bad["deals"].append(copy.deepcopy(bad["deals"][0]))
    with pytest.raises(ValueError, match="already over"):
        from_record(bad)


def test_load_record_names_the_file(tmp_path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"format": "sixtysix-record", "version": 1,', encoding="utf-8")
    with pytest.raises(ValueError, match=r"game.json: not valid JSON \(line 1"):
        load_record(path)
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ValueError, match="not a UTF-8 text file"):
        load_record(path)
    path.write_text("[1, 2, 3]", encoding="utf-8")
    with pytest.raises(ValueError, match="expected a JSON object, got list"):
        load_record(path)
    with pytest.raises(FileNotFoundError):
        load_record(tmp_path / "missing.json")


def test_saved_file_is_readable_utf8_json(record: dict, tmp_path) -> None:
    path = save_record(tmp_path / "sub" / "deal.json", record)
    text = path.read_text(encoding="utf-8")
    assert "♥" in text or "♠" in text or "♦" in text or "♣" in text  # labels keep their symbols
    assert json.loads(text) == record
    bad = copy.deepcopy(record)
    bad["version"] = 0
    with pytest.raises(ValueError, match="version 0 does not exist"):
        save_record(tmp_path / "bad.json", bad)
    assert not (tmp_path / "bad.json").exists()


# ------------------------------------------------------------------------------------ the Russian cut
_NINES = ["9C", "9S", "9H", "9D"]


@settings(max_examples=60, deadline=None)
@given(
    order=st.permutations(range(24)),
    cuts=st.lists(st.sampled_from(_NINES), max_size=3),
    dealer=st.integers(0, 3),
    steps=st.integers(0, 40),
    seed=st.integers(0, 2**16),
)
def test_a_russian_deal_reads_back_its_cut(order, cuts, dealer, steps, seed) -> None:
    """Every cut the Russian four-player game can show (none, one or two nines and play goes on;
    three nines and the dealing pair scores 1 without a card played, RULES 5.3) is written to the
    record and read back: the replayed deal shows the same nines, and a deal ended by the cut
    stays ended by it."""
    from sixtysix_env.records import loads_json
    from sixtysix_env.table import TableTermination

    rules = FOUR_PRESETS["russian"]
    hands = [[order[6 * p + k] for k in range(6)] for p in range(4)]
    assume(len(cuts) == 3 or hands[dealer][5] % 6 != 0)  # a cut that stopped shows no nine at the bottom
    deal = FourDeal.from_arrangement(hands, dealer, rules, cuts=" ".join(cuts))
    play(deal, random.Random(seed), steps)
    record = to_record(deal)
    assert record.get("cuts", []) == cuts  # written as shown, in order
    back = from_record(loads_json(json.dumps(record)))
    assert [card_str(c) for c in back.cuts] == cuts
    assert_same_deal(back, deal)
    if len(cuts) == 3:
        assert back.is_over and back.outcome.termination == TableTermination.CUT and back.history == []
        assert back.outcome.scored == ((1, 0) if dealer % 2 == 0 else (0, 1))  # the dealing pair
        match = from_record(loads_json(json.dumps(match_record([deal]))))
        assert [card_str(c) for c in match[0].cuts] == cuts
    else:
        assert back.outcome == deal.outcome and (back.outcome is None or back.history)


DOCS = Path(__file__).resolve().parent.parent / "docs" / "records.md"


def docs_examples() -> list[str]:
    """The two example records of docs/records.md, as ``save_record`` writes them."""
    from sixtysix_env.records import _dumps

    deal = Deal.from_arrangement(
        hands=["9S AC KH QH TD JC", "9C TC AS JD QD KD"], stock="9H TH JH AH KC QC 9D AD TS JS QS KS", dealer=0
    )
    deal.apply_all("M3 KD")
    play(deal, random.Random(0))
    two = to_record(deal, players=["you", "pimc"], meta={"source": "play", "created": "2026-12-01T08:00:00Z"})
    four = play(FourDeal.new(None, random.Random(0), dealer=3), random.Random(0), steps=6)
    return [_dumps(two), _dumps(to_record(four))]


def test_the_examples_in_the_format_document_are_current_records() -> None:
    text = DOCS.read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in text.split("```json\n")[1:]]
    assert blocks == docs_examples(), "docs/records.md is stale: run python tests/test_records.py to rewrite it"
    two, four = (from_record(json.loads(b)) for b in blocks)
    assert two.outcome is not None and isinstance(four, FourDeal) and four.outcome is None


if __name__ == "__main__":  # rewrite the examples of docs/records.md
    parts = DOCS.read_text(encoding="utf-8").split("```json\n")
    new = [parts[0]]
    for part, example in zip(parts[1:], docs_examples(), strict=True):
        new.append(example + "\n```" + part.split("```", 1)[1])
    DOCS.write_text("```json\n".join(new), encoding="utf-8")
    print(f"rewrote the examples in {DOCS}")


# ---------------------------------------------------------------------------------------- trust
def _two_deal_match() -> dict:
    """A two-player match record of at least two deals, the first won with some game points."""
    for seed in range(50):
        rng = random.Random(seed)
        match = Match(PRESETS["standard"], rng)
        deals = []
        while not match.is_over and len(deals) < 3:
            while not match.deal.is_over:
                match.apply(rng.choice(match.deal.legal_actions()))
            deals.append(match.deal)
            if not match.is_over:
                match.next_deal()
        if len(deals) >= 2:
            return match_record(deals, players=["ann", "bob"])
    raise AssertionError("no match of two deals")


def test_a_deal_whose_scores_do_not_follow_the_previous_deal_is_refused() -> None:
    """Deal 1 must start at the match score deal 0 left: [5, 5] after a deal ending [3, 0] is refused
    by from_record, replay_frames and POST /api/replay, each naming the deal."""
    record = _two_deal_match()
    from_record(record)  # as written, it reads
    after_first = record["running_scores"][0]
    assert record["deals"][1]["scores"] == after_first
    bad = copy.deepcopy(record)
    bad["deals"][1]["scores"] = [x + 2 for x in after_first]
    with pytest.raises(ValueError, match=r"deal 1: scores \[.*\] do not follow the previous deal"):
        from_record(bad)
    pytest.importorskip("flask")
    from sixtysix_env.web import create_app
    from sixtysix_env.web.replay import replay_frames

    with pytest.raises(ValueError, match=r"deal 1: scores"):
        replay_frames(bad)
    client = create_app("random", seed=1).test_client()
    answer = client.post("/api/replay", json=bad, headers={"Host": "127.0.0.1"})
    assert answer.status_code == 400 and "deal 1: scores" in answer.get_json()["error"]
    assert client.post("/api/replay", json=record, headers={"Host": "127.0.0.1"}).status_code == 200


def test_table_match_records_keep_their_deals_scores_in_order() -> None:
    """The check holds for the table games too: a Russian four-player match reads back, and a
    later deal moved to another score is refused."""
    for seed in range(40):
        rng = random.Random(seed)
        match = TableMatch(FourDeal, FOUR_PRESETS["russian"], rng)
        deals = []
        while not match.is_over and len(deals) < 4:
            while not match.deal.is_over:
                match.apply(rng.choice(match.deal.legal_actions()))
            deals.append(match.deal)
            if not match.is_over:
                match.next_deal()
        record = match_record(deals, players=["a", "b", "c", "d"])
        assert len(from_record(record)) == len(deals)
        if len(deals) >= 2:
            bad = copy.deepcopy(record)
            bad["deals"][-1]["scores"] = [s + 1 for s in bad["deals"][-1]["scores"]]
            with pytest.raises(ValueError, match=rf"deal {len(deals) - 1}: scores .* do not follow"):
                from_record(bad)
            return
    raise AssertionError("no Russian match of two deals")


def _load_in_time(load, path: Path, seconds: float = 5.0):
    """``load(path)`` in a thread: (finished, result or exception). A FIFO opened for reading
    blocks until a writer comes; the test opens one afterwards so the thread never hangs."""
    import threading

    box: list = []
    thread = threading.Thread(target=lambda: box.append(_call(load, path)), daemon=True)
    thread.start()
    thread.join(seconds)
    done = not thread.is_alive()
    if not done:
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # let the blocked reader see an end
        thread.join(5)
    return done, box[0] if box else None


def _call(load, path):
    try:
        return load(path)
    except Exception as e:  # returned, to be checked by the test
        return e


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_record_path_that_is_not_a_file_is_a_value_error_naming_it(tmp_path, kind) -> None:
    path = tmp_path / "x.json"
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    done, result = _load_in_time(load_record, path)
    assert done, "load_record blocked on a FIFO"
    assert isinstance(result, ValueError) and str(path) in str(result), repr(result)


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_model_path_that_is_not_a_file_is_a_value_error_naming_it(tmp_path, kind) -> None:
    from sixtysix_env.agents.mlp import MLPPolicy
    from sixtysix_env.agents.ppo import load_policy

    path = tmp_path / "x.npz"
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    for load in (MLPPolicy.load, load_policy):
        done, result = _load_in_time(load, path)
        assert done, f"{load.__qualname__} blocked on a FIFO"
        assert isinstance(result, ValueError) and str(path) in str(result), repr(result)
    with pytest.raises(FileNotFoundError):
        MLPPolicy.load(tmp_path / "missing.npz")


def test_model_meta_with_a_huge_number_names_the_file(tmp_path) -> None:
    import numpy as np

    from sixtysix_env.agents.mlp import FORMAT, VERSION, MLPPolicy

    path = tmp_path / "big.npz"
    meta = f'{{"format": "{FORMAT}", "version": {VERSION}, "observation_size": {"9" * 5000}}}'
    np.savez(path, meta=np.array(meta))
    with pytest.raises(ValueError, match=r"big\.npz") as e:
        MLPPolicy.load(path)
    assert "5,000 digits" in str(e.value) and len(str(e.value)) < 400


def test_a_model_file_with_many_members_is_refused_quickly_and_briefly(tmp_path) -> None:
    import time
    import zipfile

    from sixtysix_env.agents.mlp import MLPPolicy

    path = tmp_path / "many.npz"
    with zipfile.ZipFile(path, "w") as z:
        for i in range(20_000):
            z.writestr(f"policy_w{i}.npy", b"")
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"many\.npz") as e:
        MLPPolicy.load(path)
    took = time.perf_counter() - start
    message = str(e.value)
    assert "20,000 members" in message and len(message) < 300 and "policy_w19999" not in message
    assert took < 0.1, f"{took:.3f} s to refuse"
    # a directory that declares few members but is far larger than they need is refused as well
    data = bytearray(path.read_bytes())
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = (5).to_bytes(2, "little") * 2  # 5 entries on this disk, 5 in all
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="zip directory"):
        MLPPolicy.load(path)


def test_the_shipped_model_still_loads() -> None:
    from sixtysix_env.agents.ppo import DEFAULT_MODEL, load_policy

    assert load_policy(DEFAULT_MODEL).observation_size == 235
