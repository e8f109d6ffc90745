"""The HTTP layer: a Flask app serving the page, the card pictures and a small JSON API.

Rules are a two-player preset name or ``three:NAME`` / ``four:NAME`` for the table games.
API (every answer is JSON; errors are ``{"error": "..."}`` with a 4xx status, or 500 when an agent
fails, and a refused request changes nothing):

| method and path | body | answer |
|---|---|---|
| ``GET /api/config`` | | presets, agents, defaults |
| ``GET /api/cards`` | | every card face and the back, as SVG text |
| ``POST /api/games`` | ``{"rules": "standard", "opponent": "pimc"}``, both optional | ``{"id", "view", "steps"}`` |
| ``GET /api/games/<id>`` | | ``{"id", "view"}`` |
| ``POST /api/games/<id>/actions`` | ``{"action": 12}`` | ``{"id", "view", "steps"}``: yours, then each opponent move |
| ``POST /api/games/<id>/next`` | | the next deal of the match |
| ``GET /api/records`` | | the record files in the ``--records`` folder, newest first |
| ``GET /api/records/<name>`` | | one of them as replay frames (both hands face up) |
| ``POST /api/replay`` | a game record (JSON) | its replay frames |
"""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from ..agents import agent_names
from ..agents.spec import AgentSpec, parse_agent_spec
from ..agents.table_registry import TABLE_AGENTS
from ..records import load_record
from .cardart import all_cards
from .game import AgentFailed, GameStateError, WebGame, probe, rule_choices, seat_agent
from .replay import replay_frames

__all__ = ["ApiError", "create_app"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 8 * 1024 * 1024
"""Largest request body (an uploaded record): a long match record is well under 1 MB."""
MAX_GAMES = 64
"""Games kept in memory; the oldest is dropped beyond this (a local server for one person)."""


class ApiError(Exception):
    """A request the API refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Server:
    """What the app holds: the defaults from the command line and the games in play."""

    def __init__(self, opponent: AgentSpec, rules: str, records: Path | None, seed: int | None) -> None:
        self.opponent = opponent
        self.rules = rules
        self.records = records
        self.seeds = random.Random(seed)
        self.games: OrderedDict[str, WebGame] = OrderedDict()
        self.lock = threading.Lock()
        self.specs: dict[str, AgentSpec] = {opponent.label: opponent}
        self.choices = rule_choices()
        self.probed: dict[tuple[str, str], str | None] = {}

    def spec(self, text: object) -> AgentSpec:
        """The opponent for a new game: the command line's, or a registered agent by name.

        The page may not name files or modules: that would let a request import code."""
        if text is None or text == self.opponent.label:
            return self.opponent
        if not isinstance(text, str) or text.split(":")[0] not in agent_names():
            allowed = ", ".join(dict.fromkeys([self.opponent.label, *agent_names()]))
            raise ApiError(400, f"unknown opponent {text!r}: choose one of {allowed}")
        if text not in self.specs:
            try:
                self.specs[text] = parse_agent_spec(text)
            except Exception as e:
                raise ApiError(400, f"cannot build opponent {text!r}: {e}") from None
        return self.specs[text]

    def new_game(self, rules: object, opponent: object) -> tuple[str, WebGame]:
        name = self.rules if rules is None else rules
        if not isinstance(name, str) or name not in self.choices:
            raise ApiError(400, f"unknown rules {rules!r}: choose one of {', '.join(self.choices)}")
        kind, preset, _ = self.choices[name]
        spec = self.spec(opponent)
        if kind != "two":
            key = (kind, spec.label)
            if key not in self.probed:
                try:
                    self.probed[key] = probe(seat_agent(spec, kind), kind, preset)
                except Exception as e:
                    self.probed[key] = f"building it raised {type(e).__name__}: {e}"
            problem = self.probed[key]
            if problem:
                every = ", ".join(TABLE_AGENTS)
                raise ApiError(
                    400, f"{spec.label!r} cannot play the {kind}-player game: {problem} ({every} play every game)"
                )
        with self.lock:
            seed = self.seeds.getrandbits(63)
        try:
            game = WebGame(kind, preset, spec, seed, records=self.records)
        except Exception as e:
            raise ApiError(400, f"cannot start a game against {spec.label!r}: {type(e).__name__}: {e}") from None
        gid = uuid.uuid4().hex[:16]
        with self.lock:
            self.games[gid] = game
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)
        return gid, game

    def game(self, gid: str) -> WebGame:
        with self.lock:
            game = self.games.get(gid)
        if game is None:
            raise ApiError(404, f"unknown game id {gid!r}: start one with POST /api/games")
        return game


def _json_body() -> dict[str, Any]:
    """The request's JSON object; an empty body reads as ``{}``."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    body = request.get_json(force=True, silent=True)
    if not isinstance(body, dict):
        text = raw[:60].decode("utf-8", "replace")
        raise ApiError(400, f'the request body must be a JSON object, such as {{"action": 12}}; got {text!r}')
    return body


def create_app(
    opponent: str | AgentSpec = "pimc", rules: str = "standard", records: Path | None = None, seed: int | None = None
) -> Flask:
    """The app: ``opponent`` (an agent spec) and ``rules`` (a preset name) are the page's defaults;
    finished games are saved under ``records`` when given; ``seed`` makes the deals reproducible."""
    if rules not in rule_choices():
        raise ValueError(f"unknown rules {rules!r}: choose one of {', '.join(rule_choices())}")
    spec = opponent if isinstance(opponent, AgentSpec) else parse_agent_spec(opponent)
    server = Server(spec, rules, records, seed)
    app = Flask(__name__, static_folder=None)
    app.config["server"] = server
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY

    @app.errorhandler(ApiError)
    def _api_error(e: ApiError) -> Any:
        return jsonify(error=str(e)), e.status

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Any:
        message = e.description or e.name
        if e.code == 405:
            allowed = ", ".join(sorted(m for m in (e.valid_methods or []) if m not in ("HEAD", "OPTIONS")))  # type: ignore[attr-defined]
            message = f"method {request.method} is not allowed for {request.path}: use {allowed}"
        elif e.code == 404:
            message = f"no such page or API route: {request.path}"
        elif e.code == 413:
            message = f"the request body is larger than {MAX_BODY // 2**20} MiB"
        return jsonify(error=message), e.code

    def route(rule: str, methods: tuple[str, ...] = ("GET",)) -> Callable[[Callable[..., Any]], Any]:
        return app.route(rule, methods=list(methods))

    @route("/")
    def index() -> Any:
        return send_from_directory(STATIC, "index.html")

    @route("/static/<path:name>")
    def static_file(name: str) -> Any:
        return send_from_directory(STATIC, name)

    @route("/api/config")
    def config() -> Any:
        return jsonify(
            rules=[{"name": k, "game": g, "title": t} for k, (g, _, t) in server.choices.items()],
            default_rules=server.rules,
            opponents=list(dict.fromkeys([server.opponent.label, *agent_names()])),
            table_opponents=list(TABLE_AGENTS),
            default_opponent=server.opponent.label,
            records=server.records is not None,
        )

    @route("/api/cards")
    def cards() -> Any:
        return jsonify(all_cards())

    @route("/api/games", ("POST",))
    def new_game() -> Any:
        body = _json_body()
        unknown = sorted(set(body) - {"rules", "opponent"})
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(unknown)}: a new game takes 'rules' and 'opponent'")
        gid, game = server.new_game(body.get("rules"), body.get("opponent"))
        with game.lock:
            steps = _guard(game.run_agent)
            return jsonify(id=gid, view=game.view(), steps=steps)

    @route("/api/games/<gid>")
    def show_game(gid: str) -> Any:
        game = server.game(gid)
        with game.lock:
            return jsonify(id=gid, view=game.view())

    @route("/api/games/<gid>/actions", ("POST",))
    def act(gid: str) -> Any:
        game = server.game(gid)
        body = _json_body()
        if "action" not in body:
            raise ApiError(400, 'the body needs an "action": an action id 0..31 from the view\'s "legal" list')
        with game.lock:
            steps = _guard(lambda: game.play(body["action"]))
            return jsonify(id=gid, view=game.view(), steps=steps)

    @route("/api/games/<gid>/next", ("POST",))
    def next_deal(gid: str) -> Any:
        game = server.game(gid)
        with game.lock:
            steps = _guard(game.next_deal)
            return jsonify(id=gid, view=game.view(), steps=steps)

    @route("/api/records")
    def list_records() -> Any:
        folder = server.records
        if folder is None or not folder.is_dir():
            return jsonify(folder=str(folder) if folder else None, records=[])
        files = sorted(folder.glob("*.json"), key=lambda f: f.stat().st_mtime, reverse=True)
        return jsonify(folder=str(folder), records=[{"name": f.name, "size": f.stat().st_size} for f in files])

    @route("/api/records/<name>")
    def open_record(name: str) -> Any:
        folder = server.records
        if folder is None:
            raise ApiError(404, "this server has no records folder (start it with --records DIR)")
        path = folder / name
        if "/" in name or "\\" in name or name.startswith(".") or not name.endswith(".json") or not path.is_file():
            raise ApiError(404, f"no record {name!r} in {folder}: GET /api/records lists them")
        try:
            return jsonify(name=name, **replay_frames(load_record(path)))
        except ValueError as e:
            raise ApiError(400, str(e)) from None

    @route("/api/replay", ("POST",))
    def replay_upload() -> Any:
        raw = request.get_data()
        if not raw.strip():
            raise ApiError(400, "send a game record (the JSON of a saved file) as the request body")
        try:
            body = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise ApiError(400, "this is not a game record: the file is not UTF-8 text") from None
        except json.JSONDecodeError as e:
            raise ApiError(
                400, f"this is not a game record: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
            ) from None
        try:
            return jsonify(name=None, **replay_frames(body))
        except ValueError as e:
            raise ApiError(400, str(e)) from None

    return app


def _guard(call: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Run a game call, its refusals turned into API errors (409: wrong moment; 400: bad action; 500: agent failed)."""
    try:
        return call()
    except GameStateError as e:
        raise ApiError(409, str(e)) from None
    except AgentFailed as e:
        raise ApiError(500, str(e)) from None
    except ValueError as e:
        raise ApiError(400, str(e)) from None
