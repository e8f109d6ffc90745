"""The browser page's HTTP API, through Flask's test client: whole deals, fair views, bad requests
refused with a 4xx JSON answer that leaves the game unchanged, records saved and replayed."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

try:
    import flask  # noqa: F401
except ImportError:  # pragma: no cover - the web extra is part of [all], which CI installs
    if os.environ.get("CI"):
        raise
    pytest.skip("the web extra (flask) is not installed", allow_module_level=True)

from sixtysix_env.cards import cards_of
from sixtysix_env.records import from_record, load_record, to_record
from sixtysix_env.rules import PRESETS
from sixtysix_env.table import FOUR_PRESETS, THREE_PRESETS
from sixtysix_env.web import create_app
from sixtysix_env.web.__main__ import main as web_main
from sixtysix_env.web.cardart import all_cards, card_svg

TWO_PLAYER = list(PRESETS)
TABLE = [f"three:{n}" for n in THREE_PRESETS] + [f"four:{n}" for n in FOUR_PRESETS]


@pytest.fixture
def client(tmp_path):
    app = create_app("random", records=tmp_path / "records", seed=7)
    return app.test_client()


def _server(client):
    return client.application.config["server"]


def _new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.json
    return r.json["id"], r.json["view"]


def _play_deal(client, gid, view):
    """Play the person's side with the first legal action until the deal ends; returns the last view."""
    while view["outcome"] is None:
        assert view["turn"] == 0 and view["legal"], view
        r = client.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]})
        assert r.status_code == 200, r.json
        steps = r.json["steps"]
        assert steps[0]["by"] == 0 and all(s["by"] != 0 for s in steps[1:])
        assert all(s["text"].startswith((s["view"]["names"][s["by"]] + ":", "Both draw")) for s in steps[1:])
        view = r.json["view"]
        assert view == steps[-1]["view"]
    return view


def test_config_offers_every_preset_of_the_three_games_and_the_agents(client):
    r = client.get("/api/config")
    assert r.status_code == 200
    assert [x["name"] for x in r.json["rules"]] == TWO_PLAYER + TABLE
    assert {x["game"] for x in r.json["rules"]} == {"two", "three", "four"}
    assert r.json["opponents"][0] == "random" and "pimc" in r.json["opponents"]
    assert r.json["table_opponents"] == ["random", "heuristic", "pimc"]


@pytest.mark.parametrize("rules", TWO_PLAYER)
def test_a_whole_deal_is_played_through_the_api(client, rules):
    gid, view = _new(client, rules=rules)
    assert view["rules"] == rules
    view = _play_deal(client, gid, view)
    out = view["outcome"]
    assert out["text"] and out["game_points"] in (0, 1, 2, 3)
    assert view["legal"] == [] and view["turn"] is None
    assert sum(view["scores"]) == out["game_points"]
    assert view["log"][-1] == out["text"]


@pytest.mark.parametrize("rules", TABLE)
def test_a_whole_table_deal_is_played_through_the_api(client, rules):
    gid, view = _new(client, rules=rules)
    n = 3 if rules.startswith("three") else 4
    assert view["n_players"] == n and view["stock"] is None
    assert [p["hand"] is None for p in view["players"]] == [False] + [True] * (n - 1)
    assert len(view["sides"]) == (3 if n == 3 else 2)
    view = _play_deal(client, gid, view)
    assert view["outcome"]["text"].endswith(".")
    assert view["log"][-1] == view["outcome"]["text"]
    r = client.post(f"/api/games/{gid}/next", json={})
    assert r.status_code == 200 and r.json["view"]["deal_number"] == 2


def test_the_table_view_hides_the_other_hands(client):
    gid, view = _new(client, rules="four:pagat")
    deal = _server(client).game(gid).deal
    for p in (1, 2, 3):  # the partner's hand is hidden too
        hidden = set(cards_of(deal.hands[p])) - set(view["players"][p]["known"])
        assert not hidden & set(view["players"][0]["hand"])
        assert view["players"][p]["hand"] is None and view["players"][p]["hand_size"] == deal.hands[p].bit_count()


def test_an_agent_that_plays_only_two_players_is_refused_for_the_table_games(client):
    r = client.post("/api/games", json={"rules": "three:pagat", "opponent": "alphabeta"})
    assert r.status_code == 400
    assert "'alphabeta' cannot play the three-player game" in r.json["error"]
    assert "random, heuristic, pimc play every game" in r.json["error"]


@pytest.mark.parametrize("opponent", ["heuristic", "pimc:samples=2"])
def test_the_table_games_are_played_against_the_table_agents(client, opponent):
    gid, view = _new(client, rules="four:pagat", opponent=opponent)
    kinds = {type(a).__name__ for a in _server(client).game(gid).agents.values()}
    assert kinds == {"TableHeuristicAgent" if opponent == "heuristic" else "TablePIMCAgent"}
    assert _play_deal(client, gid, view)["outcome"] is not None


def test_the_view_shows_only_what_the_seat_may_know(client):
    gid, view = _new(client)
    deal = _server(client).game(gid).deal
    me, other = view["players"]
    assert sorted(me["hand"]) == sorted(cards_of(deal.hands[0]))
    assert other["hand"] is None
    assert other["hand_size"] == deal.hands[1].bit_count()
    assert set(other["known"]) <= set(cards_of(deal.hands[1]))
    hidden = set(cards_of(deal.hands[1])) - set(other["known"])
    shown = set(me["hand"]) | {c["card"] for c in view["table"]} | {view["trump"]["card"]}
    assert not hidden & shown
    assert view["stock"]["size"] == len(deal.stock)


def test_opponent_moves_come_one_step_each(client):
    # find a seed where the opponent leads first: the new game answers with its opening move
    for _ in range(20):
        gid, view = _new(client)
        if view["log"]:
            break
    r = client.get(f"/api/games/{gid}")
    assert r.json["view"]["table"] and r.json["view"]["table"][0]["player"] == 1
    assert r.json["view"]["log"][0].startswith("random: lead ")


def test_an_illegal_action_is_refused_and_changes_nothing(client):
    gid, view = _new(client)
    legal = {a["action"] for a in view["legal"]}
    bad = next(a for a in range(32) if a not in legal)
    before = client.get(f"/api/games/{gid}").json
    r = client.post(f"/api/games/{gid}/actions", json={"action": bad})
    assert r.status_code == 400
    assert f"action {bad} is not legal" in r.json["error"] and "legal actions are" in r.json["error"]
    assert client.get(f"/api/games/{gid}").json == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{not json", "must be a JSON object"),
        ("[1, 2]", "must be a JSON object"),
        ('"12"', "must be a JSON object"),
        ("{}", 'needs an "action"'),
        ('{"action": "QH"}', "must be an integer action id"),
        ('{"action": true}', "must be an integer action id"),
        ('{"action": 1.5}', "must be an integer action id"),
        ('{"action": 99}', "not legal"),
    ],
)
def test_malformed_bodies_get_a_400_naming_the_problem(client, body, message):
    gid, _ = _new(client)
    before = client.get(f"/api/games/{gid}").json
    r = client.post(f"/api/games/{gid}/actions", data=body, content_type="application/json")
    assert r.status_code == 400 and r.is_json
    assert message in r.json["error"]
    assert client.get(f"/api/games/{gid}").json == before


def test_unknown_game_ids_and_routes_get_a_404(client):
    for r in (
        client.get("/api/games/nope"),
        client.post("/api/games/nope/actions", json={"action": 0}),
        client.post("/api/games/nope/next", json={}),
    ):
        assert r.status_code == 404 and "unknown game id 'nope'" in r.json["error"]
    r = client.get("/api/nothing")
    assert r.status_code == 404 and "/api/nothing" in r.json["error"]


def test_wrong_methods_get_a_405_naming_the_right_one(client):
    gid, _ = _new(client)
    r = client.get(f"/api/games/{gid}/actions")
    assert r.status_code == 405 and "use POST" in r.json["error"]
    r = client.delete("/api/games")
    assert r.status_code == 405 and "method DELETE" in r.json["error"]
    r = client.post("/api/config")
    assert r.status_code == 405 and "use GET" in r.json["error"]


def test_moves_at_the_wrong_moment_get_a_409(client):
    gid, view = _new(client)
    r = client.post(f"/api/games/{gid}/next", json={})
    assert r.status_code == 409 and "still being played" in r.json["error"]
    view = _play_deal(client, gid, view)
    r = client.post(f"/api/games/{gid}/actions", json={"action": 0})
    assert r.status_code == 409 and "deal is over" in r.json["error"]
    r = client.post(f"/api/games/{gid}/next", json={})
    assert r.status_code == 200
    assert r.json["view"]["outcome"] is None and r.json["view"]["deal_number"] == 2
    assert r.json["view"]["scores"] == view["scores"]


def test_a_match_is_played_to_its_target(client):
    gid, view = _new(client, rules="santase")
    while True:
        view = _play_deal(client, gid, view)
        if view["match_over"]:
            break
        view = client.post(f"/api/games/{gid}/next", json={}).json["view"]
    assert max(view["scores"]) >= PRESETS["santase"].match_target
    assert view["match_winners"] == [view["scores"].index(max(view["scores"]))]
    r = client.post(f"/api/games/{gid}/next", json={})
    assert r.status_code == 409 and "match is over" in r.json["error"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "poker"}, "unknown rules 'poker'"),
        ({"opponent": "nobody"}, "unknown opponent 'nobody'"),
        ({"opponent": "evil.py:Bot"}, "unknown opponent 'evil.py:Bot'"),
        ({"opponent": "pimc:samples=-x"}, "samples='-x' of 'pimc' is not allowed from the page"),
        ({"colour": "red"}, "unknown field(s) colour"),
    ],
)
def test_bad_new_game_requests_get_a_400(client, body, message):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and message in r.json["error"]
    assert not _server(client).games


def test_a_registered_agent_with_options_can_be_chosen_on_the_page(client):
    gid, view = _new(client, opponent="pimc:samples=4")
    assert view["opponent"] == "pimc:samples=4"
    _play_deal(client, gid, view)


def test_the_same_seed_deals_the_same_games(tmp_path):
    views = []
    for _ in range(2):
        c = create_app("heuristic", seed=11).test_client()
        gid, view = _new(c)
        views.append(_play_deal(c, gid, view))
    assert views[0] == views[1]


def test_a_bot_that_answers_an_illegal_action_gets_a_clear_500(tmp_path):
    bot = tmp_path / "badbot.py"
    bot.write_text("class Bad:\n    name = 'bad'\n    def act(self, info, rng):\n        return 99\n")
    c = create_app(f"{bot}:Bad", seed=1).test_client()
    r = c.post("/api/games", json={})
    if r.status_code == 200:  # you lead first: the bad bot answers your card
        gid, view = r.json["id"], r.json["view"]
        r = c.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]})
    assert r.status_code == 500
    assert "answered 99, which is not legal here" in r.json["error"]


def test_your_own_bot_file_plays_a_deal(tmp_path):
    bot = tmp_path / "mybot.py"
    bot.write_text(
        "class First:\n    name = 'first'\n    def act(self, info, rng):\n        return info.legal_actions()[0]\n"
    )
    c = create_app(f"{bot}:First", seed=2).test_client()
    gid, view = _new(c)
    assert view["names"][1].endswith("mybot.py:First")
    assert _play_deal(c, gid, view)["outcome"] is not None


def test_finished_deals_are_saved_as_a_match_record_and_replayed(client, tmp_path):
    gid, view = _new(client)
    view = _play_deal(client, gid, view)
    folder = tmp_path / "records"
    files = list(folder.glob("*.json"))
    assert len(files) == 1 and view["record"] == str(files[0])
    record = load_record(files[0])
    assert record["kind"] == "match" and record["players"] == ["you", "random"]
    assert record["meta"]["source"] == "web"
    (deal,) = from_record(record)
    assert deal.outcome.winner == view["outcome"]["winner"]

    listing = client.get("/api/records").json
    assert [r["name"] for r in listing["records"]] == [files[0].name]
    replay = client.get(f"/api/records/{files[0].name}").json
    (frames,) = [d["frames"] for d in replay["deals"]]
    assert len(frames) == len(record["deals"][0]["actions"]) + 1
    first, last = frames[0]["view"], frames[-1]["view"]
    assert first["players"][1]["hand"] is not None and len(first["players"][1]["hand"]) == 6  # both hands face up
    assert first["legal"] == [] and first["you"] is None
    assert last["outcome"]["winner"] == view["outcome"]["winner"]
    assert frames[1]["text"].split()[0] in ("You:", "random:")
    assert frames[0]["text"].startswith("Deal 1: ")


def test_a_second_deal_rewrites_the_same_record_file(client, tmp_path):
    gid, view = _new(client)
    _play_deal(client, gid, view)
    view = client.post(f"/api/games/{gid}/next", json={}).json["view"]
    _play_deal(client, gid, view)
    (file,) = (tmp_path / "records").glob("*.json")
    assert len(load_record(file)["deals"]) == 2


def test_uploaded_records_are_replayed_and_bad_ones_refused(client):
    gid, view = _new(client)
    _play_deal(client, gid, view)
    deal = _server(client).game(gid).finished[0]
    record = to_record(deal, players=["ann", "bob"])
    r = client.post("/api/replay", json=record)
    assert r.status_code == 200 and len(r.json["deals"]) == 1
    assert r.json["deals"][0]["frames"][1]["text"].split()[0] in ("ann:", "bob:")

    broken = json.loads(json.dumps(record))
    broken["actions"][0]["action"] = 31
    r = client.post("/api/replay", json=broken)
    assert r.status_code == 400 and "action 0: action 31 is illegal" in r.json["error"]
    r = client.post("/api/replay", json={"format": "something-else"})
    assert r.status_code == 400 and "is this a sixtysix-env game record?" in r.json["error"]
    r = client.post("/api/replay", data="", content_type="application/json")
    assert r.status_code == 400 and "send a game record" in r.json["error"]
    r = client.post("/api/replay", data="hello", content_type="application/json")
    assert r.status_code == 400 and "not valid JSON (line 1, column 1" in r.json["error"]
    r = client.post("/api/replay", data=b"\xff\xfe", content_type="application/json")
    assert r.status_code == 400 and "not UTF-8" in r.json["error"]
    r = client.post("/api/replay", json=[1, 2])
    assert r.status_code == 400 and "expected a JSON object" in r.json["error"]
    r = client.post("/api/replay", json={**record, "game": "three"})
    assert r.status_code == 400 and "bad game record" in r.json["error"]


def test_a_saved_table_game_is_replayed_with_every_hand(client, tmp_path):
    gid, view = _new(client, rules="three:pagat")
    _play_deal(client, gid, view)
    (file,) = (tmp_path / "records").glob("*three-pagat*.json")
    replay = client.get(f"/api/records/{file.name}").json
    (deal,) = replay["deals"]
    first = deal["frames"][0]["view"]
    assert first["n_players"] == 3 and all(len(p["hand"]) == 8 for p in first["players"])
    assert deal["frames"][-1]["view"]["outcome"] is not None


def test_a_huge_body_gets_a_413(client):
    r = client.post("/api/replay", data=b"{" + b" " * (2 * 2**20) + b"}", content_type="application/json")
    assert r.status_code == 413 and "larger than 1 MiB" in r.json["error"]


def test_record_names_outside_the_folder_are_refused(client, tmp_path):
    for name in ("..%2Fsecret.json", ".hidden.json", "missing.json", "notes.txt"):
        r = client.get(f"/api/records/{name}")
        assert r.status_code == 404 and r.is_json


def test_the_page_and_its_files_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and b"/static/app.js" in r.data
    for name in ("app.js", "style.css", "favicon.svg"):
        assert client.get(f"/static/{name}").status_code == 200
    cards = client.get("/api/cards").json
    assert len(cards) == 25 and cards["back"].startswith("<svg")


def test_card_pictures_are_well_formed_svg_with_rank_and_suit():
    pictures = all_cards()
    for cid in range(24):
        svg = ET.fromstring(pictures[str(cid)])
        assert svg.tag.endswith("svg") and svg.get("viewBox") == "0 0 200 280"
        texts = [t.text for t in svg.iter() if t.tag.endswith("text")]
        assert texts[0] == ["9", "J", "Q", "K", "10", "A"][cid % 6]
        assert len([p for p in svg.iter() if p.tag.endswith("path")]) >= 3  # two corner suits and the centre
    ET.fromstring(pictures["back"])
    with pytest.raises(ValueError, match=r"allowed 0\.\.23"):
        card_svg(24)


def test_command_line_refuses_bad_options(capsys):
    with pytest.raises(SystemExit) as e:
        web_main(["--help"])
    assert e.value.code == 0 and "--opponent SPEC" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        web_main(["--rules", "poker"])
    assert e.value.code == 2 and "invalid choice: 'poker'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        web_main(["--opponent", "nobody"])
    assert "unknown agent 'nobody'" in str(e.value.code)
    with pytest.raises(SystemExit) as e:
        web_main(["--opponent", "pimc:samples=x"])
    # the option's type is checked before the agent is built (agents.spec.check_option_types)
    assert "samples='x' of agent 'pimc:samples=x' must be an int" in str(e.value.code)
    with pytest.raises(SystemExit) as e:
        web_main(["--port", "70000"])
    assert "out of range" in str(e.value.code)
    with pytest.raises(SystemExit) as e:
        web_main(["--host", "no-such-host.invalid", "--port", "0"])
    assert "cannot listen on --host 'no-such-host.invalid'" in str(e.value.code)


def test_records_default_folder_is_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    c = create_app("random", records=Path("sixtysix-records"), seed=3).test_client()
    gid, view = _new(c)
    _play_deal(c, gid, view)
    assert len(list((tmp_path / "sixtysix-records").glob("*.json"))) == 1
