"""Hostile requests to the web server, through Flask's test client: each is refused (or made
harmless) with a clear JSON error, and changes nothing. docs/web-security.md says what is promised."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pickle
import random
import re
import socket
import threading
import time
import zipfile
from pathlib import Path

import pytest

try:
    import flask  # noqa: F401
except ImportError:  # pragma: no cover - the web extra is part of [all], which CI installs
    if os.environ.get("CI"):
        raise
    pytest.skip("the web extra (flask) is not installed", allow_module_level=True)

from sixtysix_env.match import Match
from sixtysix_env.records import MAX_DEPTH, load_record, match_record, save_record, to_record
from sixtysix_env.rules import PRESETS
from sixtysix_env.web import app as web_app
from sixtysix_env.web import create_app, opponents, replay
from sixtysix_env.web.__main__ import main as web_main
from sixtysix_env.web.guard import split_host

JSON = "application/json"


@pytest.fixture
def client(tmp_path):
    return create_app("random", records=tmp_path / "records", seed=7).test_client()


def _server(client):
    return client.application.config["server"]


def _new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.json
    return r.json["id"], r.json["view"]


def _finished_deal(seed: int = 1):
    rng = random.Random(seed)
    m = Match(PRESETS["standard"], rng)
    while not m.deal.is_over:
        m.apply(rng.choice(m.deal.legal_actions()))
    return m.deal


# ------------------------------------------------------------------ 1. files, paths and modules
class _Payload:
    """Unpickling this creates the marker file: what a crafted SB3 zip can do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


@pytest.fixture
def crafted_zip(tmp_path, monkeypatch):
    """A ``.zip`` whose ``data.pkl`` creates ``marker`` when unpickled, and an SB3 loader that
    unpickles it (stable-baselines3 may be missing: the loader stands in for it)."""
    marker = tmp_path / "pwned"
    path = tmp_path / "model.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data.pkl", pickle.dumps(_Payload(marker)))

    def load_sb3_model(p):
        with zipfile.ZipFile(p) as z:
            pickle.loads(z.read("data.pkl"))
        raise RuntimeError("not a real model")

    monkeypatch.setattr("sixtysix_env.agents.ppo_export.load_sb3_model", load_sb3_model)
    return path, marker


def test_a_request_naming_a_crafted_zip_is_refused_and_the_zip_never_loaded(client, crafted_zip):
    path, marker = crafted_zip
    for spec in (f"ppo:path={path}", "ppo:path=model.zip", f"ppo:path={path}:deterministic=true"):
        r = client.post("/api/games", json={"opponent": spec})
        assert r.status_code == 400 and "cannot be set from the page" in r.json["error"], r.json
        if r.status_code == 200:  # without the check: play until the agent moves (and unpickles)
            gid, view = r.json["id"], r.json["view"]
            client.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]})
    assert not marker.exists()
    assert not _server(client).games


@pytest.mark.parametrize(
    "spec",
    [
        "ppo:model=../../../tmp/x",
        "ppo:model=/etc/passwd",
        "ppo:rules=../x",
        "bot.py:Bot",
        "tests.scripts:Bot",
        "os:system",
        "pimc:solver=fast",
        "pimc:samples=10:samples=20",
        "pimc:samples",
        "pimc:=3",
        "pimc:__class__=1",
        "ismcts:path=x.npz",
        "pimc:prior=../../etc/model.npz",
        "pimc:prior=sixtysix_env/models/ppo_standard.npz",
        "pimc:prior_weight=0.5",  # allowed, but only with prior=: refused when the agent is built
        "heuristic:x=1",
        "PIMC",
        " pimc",
        "pimc:samples=١٢",
        "pimc:samples=1_0",
        "pimc:samples= 7",
        "pimc:samples=" + "9" * 3000,
        "x" * 3000,
        "pimc\x00:samples=3",
    ],
)
def test_request_opponents_outside_the_allow_list_are_refused(client, spec, tmp_path):
    (tmp_path / "bot.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'w')\nclass Bot: pass\n")
    r = client.post("/api/games", json={"opponent": spec})
    assert r.status_code == 400 and r.is_json
    assert len(r.json["error"]) < 1000  # a giant input is not echoed back whole
    assert not _server(client).games and not (tmp_path / "imported").exists()


@pytest.mark.parametrize("opponent", [None, 7, True, ["pimc"], {"name": "pimc"}])
def test_a_request_opponent_of_another_type_is_refused(client, opponent):
    body = {} if opponent is None else {"opponent": opponent}
    r = client.post("/api/games", json=body)
    assert r.status_code == (200 if opponent is None else 400)


def test_the_command_line_may_still_name_a_bot_file(tmp_path):
    bot = tmp_path / "mybot.py"
    bot.write_text("class First:\n    def act(self, info, rng):\n        return info.legal_actions()[0]\n")
    c = create_app(f"{bot}:First", seed=2).test_client()
    assert c.post("/api/games", json={}).status_code == 200
    assert c.post("/api/games", json={"opponent": f"{bot}:First"}).status_code == 200  # the server's own


# ------------------------------------------------------------------ 2. cross-site and rebinding
@pytest.mark.parametrize(
    ("content_type", "data"),
    [
        ("text/plain", '{"opponent": "random"}'),
        ("application/x-www-form-urlencoded", "opponent=random"),
        ("multipart/form-data; boundary=x", "--x--"),
        (None, '{"opponent": "random"}'),
        (None, ""),
    ],
)
def test_state_changing_routes_take_json_only(client, content_type, data):
    gid, _ = _new(client)
    before = client.get(f"/api/games/{gid}").json
    headers = {"Content-Type": content_type} if content_type else {}
    for path in ("/api/games", f"/api/games/{gid}/actions", f"/api/games/{gid}/next", "/api/replay"):
        r = client.post(path, data=data, headers=headers)
        assert r.status_code == 415 and "application/json" in r.json["error"], (path, r.json)
    assert len(_server(client).games) == 1 and client.get(f"/api/games/{gid}").json == before


@pytest.mark.parametrize(
    "host",
    ["evil.example", "evil.example:8066", "127.0.0.1.evil.example", "localhost.", "[::2]:8066", "", "a b"],
)
def test_a_foreign_host_header_is_refused_on_every_route(client, host):
    for method, path in (("GET", "/"), ("GET", "/api/records"), ("GET", "/api/config"), ("POST", "/api/games")):
        r = client.open(path, method=method, headers={"Host": host}, json={} if method == "POST" else None)
        assert r.status_code == 400 and "is not an address of this server" in r.json["error"], (host, path)
    assert not _server(client).games


@pytest.mark.parametrize(
    "value",
    ["x:y", "localhost:", "localhost:-1", "localhost:99999", "localhost:٨٠", "[::1", "[evil]:80", "::1", "a@b"],
)
def test_host_values_that_are_not_a_name_and_port_are_not_read(value):
    assert split_host(value) is None


@pytest.mark.parametrize(
    "host",
    [
        "localhost",
        "LOCALHOST:8066",
        "127.0.0.1:8066",
        "[::1]:8066",
        "[::1]",
        "127.0.0.1",
        "127.0.0.2:8066",
        "127.9.8.7",
    ],
)
def test_loopback_hosts_with_or_without_a_port_are_served(client, host):
    r = client.post("/api/games", json={}, headers={"Host": host})
    assert r.status_code == 200


def test_the_host_given_on_the_command_line_is_served(tmp_path):
    c = create_app("random", seed=1, host="192.168.1.5", allow_hosts=["mybox.lan"]).test_client()
    for host in ("192.168.1.5:8066", "mybox.lan:8066", "localhost"):
        assert c.get("/api/config", headers={"Host": host}).status_code == 200
    assert c.get("/api/config", headers={"Host": "192.168.1.6:8066"}).status_code == 400
    wild = create_app("random", seed=1, host="0.0.0.0").test_client()
    assert wild.get("/api/config", headers={"Host": "0.0.0.0:8066"}).status_code == 400


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://evil.example", "localhost:8066"),
        ("null", "localhost:8066"),
        ("http://localhost:3000", "localhost:8066"),
        ("https://localhost:8066", "localhost:8066"),
        ("http://127.0.0.1:8066", "localhost:8066"),
        ("http://localhost:8066/path", "localhost:8066"),
        ("http://localhost:99999", "localhost:8066"),
    ],
)
def test_a_foreign_origin_is_refused(client, origin, host):
    r = client.post("/api/games", json={}, headers={"Origin": origin, "Host": host})
    assert r.status_code == 403 and "only this server's own page" in r.json["error"]
    r = client.get("/api/records", headers={"Origin": origin, "Host": host})
    assert r.status_code == 403
    assert not _server(client).games


def test_the_pages_own_origin_is_served(client):
    r = client.post("/api/games", json={}, headers={"Origin": "http://localhost:8066", "Host": "localhost:8066"})
    assert r.status_code == 200
    r = client.post("/api/games", json={}, headers={"Origin": "http://[::1]:8066", "Host": "[::1]:8066"})
    assert r.status_code == 200


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_cross_site_fetch_is_refused(client, site):
    r = client.post("/api/games", json={}, headers={"Sec-Fetch-Site": site})
    assert r.status_code == 403 and not _server(client).games


class _FakeServer:
    server_port = 8066

    def serve_forever(self):
        raise KeyboardInterrupt


@pytest.mark.parametrize(("host", "warned"), [("0.0.0.0", True), ("192.168.1.5", True), ("127.0.0.1", False)])
def test_listening_beyond_loopback_warns_that_there_is_no_authentication(monkeypatch, capsys, tmp_path, host, warned):
    monkeypatch.setattr("sixtysix_env.web.server.make_web_server", lambda *a, **k: _FakeServer())
    monkeypatch.setattr("socket.getaddrinfo", lambda *a, **k: [])
    web_main(["--host", host, "--opponent", "random", "--records", str(tmp_path)])
    err = capsys.readouterr().err
    assert ("NO authentication" in err) == warned


# ------------------------------------------------------------------ 3. budgets
@pytest.mark.parametrize(
    ("rules", "spec", "cap"),
    [
        ("standard", "pimc:samples=10000000", "1..400"),
        ("standard", "pimc:time_ms=3600000", "at most 2000"),
        ("standard", "pimc:solve_stock=24:endgame=solve", "0..4"),
        ("standard", "ismcts:iterations=10000000", "1..20000"),
        ("standard", "ismcts:c=1e300", "at most 10"),
        ("standard", "pimc:prior=ensemble_standard:prior_weight=1e9", "at most 10"),
        ("standard", "ppo:endgame=search:endgame_samples=10000000", "1..400"),
        ("standard", "pimc:samples=-1", "1..400"),
        ("three:pagat", "pimc:samples=100000", "1..48"),
        ("four:pagat", "heuristic:bid_samples=100000", "0..48"),
    ],
)
def test_budgets_from_a_request_are_capped(client, rules, spec, cap):
    r = client.post("/api/games", json={"rules": rules, "opponent": spec})
    assert r.status_code == 400 and cap in r.json["error"], r.json
    assert not _server(client).games


def test_a_searching_opponent_from_a_request_gets_a_deadline_per_decision(client):
    gid, view = _new(client, opponent="pimc:samples=400")
    assert view["opponent"] == "pimc:samples=400"
    (agent,) = _server(client).game(gid).agents.values()
    assert agent.samples == 400 and agent.time_ms == opponents.MOVE_MS
    gid, _ = _new(client, opponent="ismcts:time_ms=50")
    (agent,) = _server(client).game(gid).agents.values()
    assert agent.iterations == 200 and agent.time_ms == 50  # the usual budget, and its own shorter deadline
    gid, _ = _new(client, opponent="pimc")
    (agent,) = _server(client).game(gid).agents.values()
    assert agent.samples == 20 and agent.time_ms == opponents.MOVE_MS
    gid, _ = _new(client, opponent="pimc:prior=ensemble_standard:prior_weight=0.1")
    (agent,) = _server(client).game(gid).agents.values()  # a shipped network by name, with the deadline
    assert (agent.prior, agent.prior_weight, agent.time_ms) == ("ensemble_standard", 0.1, opponents.MOVE_MS)


def test_heavy_requests_beyond_the_limit_get_a_503(client, monkeypatch):
    monkeypatch.setattr(web_app, "BUSY_WAIT_S", 0.05)
    gid, view = _new(client)
    record = to_record(_finished_deal())
    server = _server(client)
    for _ in range(web_app.MAX_HEAVY):
        server.heavy.acquire()
    try:
        r = client.post("/api/replay", json=record)
        assert r.status_code == 503 and "busy" in r.json["error"]
        r = client.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]})
        assert r.status_code == 503
        assert client.post("/api/games", json={}).status_code == 503
    finally:
        for _ in range(web_app.MAX_HEAVY):
            server.heavy.release()
    assert client.post("/api/replay", json=record).status_code == 200
    assert len(server.games) == 1


# ------------------------------------------------------------------ 4. replay amplification
def _long_match(deals: int):
    rules = dataclasses.replace(PRESETS["standard"], match_target=10_000)
    rng = random.Random(5)
    m = Match(rules, rng)
    done = []
    while len(done) < deals:
        while not m.deal.is_over:
            m.apply(rng.choice(m.deal.legal_actions()))
        done.append(m.deal)
        if len(done) < deals:
            m.next_deal()
    return match_record(done)


def test_a_replay_with_too_many_deals_is_refused_naming_the_limit(client):
    r = client.post("/api/replay", json=_long_match(replay.MAX_DEALS + 1))
    assert r.status_code == 400 and f"at most {replay.MAX_DEALS} deals" in r.json["error"]


def test_a_replay_with_too_many_positions_is_refused_naming_the_limit(client, monkeypatch):
    record = _long_match(3)
    frames = sum(len(d["actions"]) + 1 for d in record["deals"])
    monkeypatch.setattr(replay, "MAX_FRAMES", frames - 1)
    r = client.post("/api/replay", json=record)
    assert r.status_code == 400 and f"{frames} positions: a replay shows at most {frames - 1}" in r.json["error"]
    monkeypatch.setattr(replay, "MAX_FRAMES", frames)
    assert client.post("/api/replay", json=record).status_code == 200


def test_the_largest_replay_allowed_answers_a_bounded_response(client):
    record = _long_match(replay.MAX_DEALS)
    r = client.post("/api/replay", json=record)
    assert r.status_code == 200
    frames = sum(len(d["frames"]) for d in r.json["deals"])
    assert frames <= replay.MAX_FRAMES and len(r.data) < 8 * 2**20


@pytest.mark.parametrize(
    "change",
    [
        lambda rec: rec.update(players=["x" * 100_000, "bob"]),
        lambda rec: rec.update(meta={"junk": "x" * 100_000}),
    ],
)
def test_replays_that_repeat_huge_fields_in_every_frame_are_refused(client, change):
    record = to_record(_finished_deal())
    change(record)
    r = client.post("/api/replay", json=record)
    assert r.status_code == 400 and len(r.data) < 1000


def test_a_record_file_larger_than_a_replay_reads_is_refused(client, tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "big.json").write_text(" " * (web_app.MAX_BODY + 1))
    r = client.get("/api/records/big.json")
    assert r.status_code == 400 and "at most 1 MiB" in r.json["error"]


# ------------------------------------------------------------------ 5. opponent faults
@pytest.fixture
def flaky(tmp_path):
    bot = tmp_path / "flaky.py"
    bot.write_text(
        "class Flaky:\n"
        "    mode = 'ok'\n"
        "    def act(self, info, rng):\n"
        "        if self.mode == 'raise':\n"
        "            raise RuntimeError('boom')\n"
        "        if self.mode == 'illegal':\n"
        "            return 99\n"
        "        return info.legal_actions()[0]\n"
    )
    return create_app(f"{bot}:Flaky", records=tmp_path / "records", seed=4).test_client()


@pytest.mark.parametrize("mode", ["raise", "illegal"])
def test_an_opponent_fault_after_your_move_takes_the_move_back_and_a_retry_works(flaky, mode, tmp_path):
    gid, view = _new(flaky)
    game = _server(flaky).game(gid)
    (agent,) = game.agents.values()
    while view["outcome"] is None:
        before = flaky.get(f"/api/games/{gid}").json
        action = view["legal"][0]["action"]
        agent.mode = mode
        r = flaky.post(f"/api/games/{gid}/actions", json={"action": action})
        if r.status_code == 200:  # the opponent did not have to move (the deal ended, or your turn again)
            view = r.json["view"]
            continue
        assert r.status_code == 500 and ("boom" in r.json["error"] or "answered 99" in r.json["error"])
        assert flaky.get(f"/api/games/{gid}").json == before  # nothing kept
        agent.mode = "ok"
        r = flaky.post(f"/api/games/{gid}/actions", json={"action": action})
        assert r.status_code == 200, r.json
        view = r.json["view"]
    assert len(game.finished) == 1


def test_an_opponent_fault_on_the_next_deal_leaves_the_deal_over_and_a_retry_works(flaky):
    gid, view = _new(flaky)
    game = _server(flaky).game(gid)
    (agent,) = game.agents.values()
    while view["outcome"] is None:
        view = flaky.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]}).json["view"]
    agent.mode = "raise"
    for _ in range(4):  # the dealer alternates: one of the next deals makes the opponent move first
        r = flaky.post(f"/api/games/{gid}/next", json={})
        if r.status_code == 500:
            break
        view = r.json["view"]
        agent.mode = "ok"
        while view["outcome"] is None:
            view = flaky.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]}).json["view"]
        agent.mode = "raise"
    assert r.status_code == 500
    assert flaky.get(f"/api/games/{gid}").json["view"]["outcome"] is not None  # still the finished deal
    agent.mode = "ok"
    assert flaky.post(f"/api/games/{gid}/next", json={}).status_code == 200


def test_a_new_game_whose_opponent_fails_at_once_is_not_kept(tmp_path):
    bot = tmp_path / "bad.py"
    bot.write_text("class Bad:\n    def act(self, info, rng):\n        raise RuntimeError('boom')\n")
    c = create_app(f"{bot}:Bad", seed=1).test_client()
    for _ in range(6):
        r = c.post("/api/games", json={})
        if r.status_code == 500:
            break
    assert r.status_code == 500 and "boom" in r.json["error"]
    assert all(g.deal.current_player == 0 or g.deal.is_over for g in _server(c).games.values())


# ------------------------------------------------------------------ 6. smaller holes
def test_a_deal_record_with_extra_running_scores_replays(client):
    record = to_record(_finished_deal())
    for junk in (5, [[1]], "x", [None], [[1, 2, 3, 4]]):
        r = client.post("/api/replay", json={**record, "running_scores": junk})
        assert r.status_code == 200, (junk, r.json)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 200_000])
def test_deeply_nested_json_gets_a_400_naming_the_body(client, depth):
    gid, _ = _new(client)
    before = client.get(f"/api/games/{gid}").json
    deep = '{"action": ' + "[" * depth + "]" * depth + "}"
    for path, body in (
        ("/api/games", deep),
        (f"/api/games/{gid}/actions", deep),
        ("/api/replay", "[" * depth + "]" * depth),
    ):
        r = client.post(path, data=body, content_type=JSON)
        assert r.status_code in (400, 413) and r.is_json, (path, r.status_code)
        if r.status_code == 400:
            assert "nest" in r.json["error"] and ("request body" in r.json["error"] or "game record" in r.json["error"])
    assert client.get(f"/api/games/{gid}").json == before


def test_load_and_save_record_refuse_deep_nesting_with_a_value_error(tmp_path):
    record = to_record(_finished_deal())
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ValueError, match="deeper than"):
        save_record(tmp_path / "a.json", {**record, "meta": {"x": deep}})
    with pytest.raises(ValueError, match="deeper than"):
        to_record(_finished_deal(), meta={"x": deep})
    path = tmp_path / "deep.json"
    path.write_text('{"meta": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ValueError, match=r"deep\.json: .*deeper than"):
        load_record(path)
    save_record(tmp_path / "ok.json", record)
    assert load_record(tmp_path / "ok.json") == record


def test_record_folder_links_and_long_names_are_never_a_500(client, tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    save_record(folder / "real.json", to_record(_finished_deal()))
    outside = tmp_path / "secret.json"
    save_record(outside, to_record(_finished_deal(2), players=["secret", "x"]))
    (folder / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    (folder / "outside.json").symlink_to(outside)
    (folder / "inside.json").symlink_to(folder / "real.json")
    (folder / "loop.json").symlink_to(folder / "loop.json")
    listing = client.get("/api/records")
    assert listing.status_code == 200
    assert sorted(r["name"] for r in listing.json["records"]) == ["inside.json", "real.json"]
    for name in ("dangling.json", "outside.json", "loop.json", "x" * 300 + ".json", "x" * 5000 + ".json"):
        r = client.get(f"/api/records/{name}")
        assert r.status_code == 404 and r.is_json and len(r.data) < 1000, name
    assert client.get("/api/records/inside.json").status_code == 200


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("actions", {"action": 0, "extra": 1}, "unknown field(s) extra"),
        ("actions", {"action": 0, "actoin": 1}, "unknown field(s) actoin"),
        ("next", {"force": True}, "unknown field(s) force"),
    ],
)
def test_unknown_fields_of_the_game_routes_are_refused(client, path, body, message):
    gid, _ = _new(client)
    before = client.get(f"/api/games/{gid}").json
    r = client.post(f"/api/games/{gid}/{path}", json=body)
    assert r.status_code == 400 and message in r.json["error"]
    assert client.get(f"/api/games/{gid}").json == before


@pytest.mark.parametrize("digits", [50, 5_000])
def test_a_huge_number_as_action_is_reported_as_such(client, digits):
    gid, _ = _new(client)
    before = client.get(f"/api/games/{gid}").json
    r = client.post(f"/api/games/{gid}/actions", data='{"action": ' + "7" * digits + "}", content_type=JSON)
    assert r.status_code == 400 and f"a number of {digits} digits" in r.json["error"]
    assert client.get(f"/api/games/{gid}").json == before


def test_many_new_games_do_not_evict_a_game_being_played(client):
    gid, view = _new(client)
    r = client.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]})
    assert r.status_code == 200
    for _ in range(web_app.MAX_GAMES + 10):
        _new(client)
    assert client.get(f"/api/games/{gid}").status_code == 200
    assert len(_server(client).games) <= web_app.MAX_GAMES


def test_when_every_game_is_in_use_a_new_one_is_refused_not_another_evicted(client, monkeypatch):
    monkeypatch.setattr(web_app, "MAX_GAMES", 3)
    played = []
    for _ in range(3):
        gid, view = _new(client)
        assert client.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]["action"]}).status_code == 200
        played.append(gid)
    r = client.post("/api/games", json={})
    assert r.status_code == 503 and "3 games in play" in r.json["error"]
    assert all(client.get(f"/api/games/{g}").status_code == 200 for g in played)
    monkeypatch.setattr(web_app, "IDLE_S", 0.0)  # now all are idle: the least recently used goes
    _new(client)
    assert client.get(f"/api/games/{played[0]}").status_code == 404


def test_the_opponent_cache_stays_bounded(client):
    for n in range(1, web_app.MAX_SPECS + 20):
        _new(client, opponent=f"pimc:samples={n}")
    assert len(_server(client).specs) <= web_app.MAX_SPECS


def test_an_unknown_game_id_is_not_echoed_whole(client):
    r = client.get("/api/games/" + "x" * 5000)
    assert r.status_code == 404 and len(r.data) < 1000


@pytest.mark.parametrize("body", [{"rules": "x" * 10_000}, {"rules": ["x"] * 2_000}])
def test_a_giant_field_is_not_echoed_whole(client, body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and len(r.data) < 1000


def test_a_giant_action_is_not_echoed_whole(client):
    gid, _ = _new(client)
    r = client.post(f"/api/games/{gid}/actions", json={"action": "x" * 10_000})
    assert r.status_code == 400 and len(r.data) < 1000


# ------------------------------------------------------------------ the server itself: addresses, threads, bodies
@pytest.mark.parametrize(("host", "shown"), [("0.0.0.0", "127.0.0.1"), ("::", "[::1]"), ("127.0.0.1", "127.0.0.1")])
def test_the_printed_address_is_one_the_host_check_accepts(monkeypatch, capsys, tmp_path, host, shown):
    monkeypatch.setattr("sixtysix_env.web.server.make_web_server", lambda *a, **k: _FakeServer())
    monkeypatch.setattr("socket.getaddrinfo", lambda *a, **k: [])
    web_main(["--host", host, "--opponent", "random", "--records", str(tmp_path)])
    out = capsys.readouterr().out
    printed = re.search(r"open http://(\S+)/ in your browser", out)
    assert printed and printed.group(1) == f"{shown}:8066", out
    app = create_app("random", seed=1, host=host).test_client()
    assert app.get("/api/config", headers={"Host": printed.group(1)}).status_code == 200
    assert ("--allow-host" in out) == (host != "127.0.0.1")


@contextlib.contextmanager
def _live_server(tmp_path, **limits):
    """The real server of ``python -m sixtysix_env.web`` on a free loopback port, in a thread."""
    from sixtysix_env.web.server import make_web_server

    server = make_web_server("127.0.0.1", 0, create_app("random", records=tmp_path / "records", seed=3), **limits)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def _get(port: int, path: str = "/api/config", timeout: float = 10.0) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1]), data


def test_half_sent_requests_hold_a_bounded_number_of_threads_and_time_out(tmp_path):
    """Slowloris: 60 connections each send half a request and wait. At most ``threads`` workers
    exist at once, ``queue_size`` connections wait for one, the rest get a 503 at once; each
    worker gives up at the read timeout, and a whole request is answered after."""
    base = threading.active_count()
    with _live_server(tmp_path, threads=4, queue_size=8, read_timeout=1.0, request_deadline=2.0) as server:
        port = server.server_port
        sockets = []
        most = 0
        try:
            for _ in range(60):
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: never ends
                sockets.append(s)
                most = max(most, threading.active_count() - base)
            busy = 0
            for s in sockets[-20:]:  # beyond the workers and the queue: refused at once, unread
                s.settimeout(2)
                busy += s.recv(64).startswith(b"HTTP/1.1 503")
            assert busy == 20
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                most = max(most, threading.active_count() - base)
                time.sleep(0.05)
            assert most <= 4 + 1, f"{most} threads for 60 half-sent requests"  # the workers and serve_forever
            status, _ = _get(port)
            assert status == 200
        finally:
            for s in sockets:
                s.close()


def test_a_client_that_drips_bytes_is_cut_off_at_the_request_deadline(tmp_path):
    with _live_server(tmp_path, threads=2, read_timeout=1.0, request_deadline=1.5) as server:
        s = socket.create_connection(("127.0.0.1", server.server_port), timeout=5)
        start = time.monotonic()
        try:
            s.sendall(b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            closed = False
            while time.monotonic() - start < 8:
                try:
                    s.sendall(b"a")  # one byte every 0.3 s: each read is well within the read timeout
                except OSError:
                    closed = True
                    break
                s.settimeout(0.3)
                try:
                    if s.recv(1024) == b"":
                        closed = True
                        break
                except TimeoutError:
                    pass
        finally:
            s.close()
        assert closed and time.monotonic() - start < 4, "the drip kept a worker past the request deadline"


def test_a_chunked_body_is_refused_without_being_read(tmp_path):
    """A body with Transfer-Encoding has no size to check before reading: it gets a 411 and no
    game is made (werkzeug would read it all, past the 1 MiB limit, and then find it empty)."""
    with _live_server(tmp_path, threads=2, read_timeout=2.0, request_deadline=5.0) as server:
        body = json.dumps({"rules": "standard", "opponent": "random"}).encode()
        chunk = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.server_port}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as s:
            s.sendall(head + chunk)
            data = b""
            while part := s.recv(65536):
                data += part
        status = int(data.split(b" ", 2)[1])
        assert status == 411 and b"Content-Length" in data, data[:300]
        assert not server.app.config["server"].games


def test_a_chunked_body_gets_a_411_on_every_post_route(client):
    gid, _ = _new(client)
    for path in ("/api/games", f"/api/games/{gid}/actions", f"/api/games/{gid}/next", "/api/replay"):
        r = client.post(path, data=b"{}", headers={"Transfer-Encoding": "chunked", "Content-Type": JSON})
        assert r.status_code == 411 and "Transfer-Encoding" in r.json["error"], (path, r.json)
    assert len(_server(client).games) == 1


def test_the_guide_states_the_servers_numbers():
    from sixtysix_env.web import server

    text = (Path(__file__).resolve().parents[1] / "docs" / "web-security.md").read_text(encoding="utf-8")
    assert f"**{server.MAX_THREADS} worker" in text and f"**{server.QUEUE_SIZE}**" in text
    assert f"**{server.READ_TIMEOUT_S:g} s**" in text and f"**{server.REQUEST_DEADLINE_S:g} s**" in text
    assert "127.0.0.0/8" in text and "Transfer-Encoding" in text
