"""The HTTP layer: a Flask app serving the page, the card pictures and a small JSON API.

Rules are a two-player preset name or ``three:NAME`` / ``four:NAME`` for the table games.
API (every answer is JSON; errors are ``{"error": "..."}`` with a 4xx status, 503 when the server
is busy, or 500 when an agent fails, and a refused or failed request changes nothing):

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

A step is ``{"action", "text", "view", "by"}``: the move as your seat saw it, so another seat's card
committed or discarded face down (the Russian four-player game) is action 63 and "commits a card
face down", never the card.

Every request must name this server in ``Host`` (a loopback name or address, or the ``--host`` given) and,
when it has an ``Origin``, come from this server's own page; every POST must be
``Content-Type: application/json`` (:mod:`.guard`). A request may name only the opponents of
:mod:`.opponents` (registered agents with plain options, capped budgets, a ``MOVE_MS`` deadline
per search decision; never a file, path or module). A replay shows at most ``replay.MAX_DEALS``
deals and ``replay.MAX_FRAMES`` positions; at most ``MAX_HEAVY`` moves or replays run at once.
docs/web-security.md has the numbers.
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from ..agents import WrongGameError, agent_names
from ..agents.spec import AgentSpec, parse_agent_spec
from ..records import load_record, loads_json
from .cardart import all_cards
from .game import AgentFailed, GameStateError, WebGame, probe, rule_choices, seat_agent
from .guard import allowed_hosts, refusal
from .opponents import request_agents, request_opponent
from .replay import replay_frames

__all__ = ["ApiError", "create_app"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 2**20
"""Largest request body (an uploaded record), and record file replayed: a long match record is about 100 KB."""
MAX_SMALL_BODY = 16 * 1024
"""Largest body of the game routes (new game, move, next deal)."""
MAX_GAMES = 64
"""Games kept in memory. Beyond it one is dropped: an untouched one (the person never moved) first,
else one idle for ``IDLE_S``; when none may go, a new game is refused (503)."""
IDLE_S = 30 * 60
"""Seconds without a request after which a game the person played in may be dropped for a new one."""
MAX_HEAVY = 2
"""Moves (agents thinking) and replays run at once; more wait up to ``BUSY_WAIT_S``, then get a 503."""
BUSY_WAIT_S = 20.0
MAX_SPECS = 32
"""Opponents kept built (a cache by text, least recently used dropped)."""


class ApiError(Exception):
    """A request the API refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.status, self.args[0]))


class Server:
    """What the app holds: the defaults from the command line and the games in play."""

    def __init__(
        self, opponent: AgentSpec, rules: str, records: Path | None, seed: int | None, hosts: frozenset[str]
    ) -> None:
        self.opponent = opponent
        self.rules = rules
        self.records = records
        self.hosts = hosts
        self.seeds = random.Random(seed)
        self.games: OrderedDict[str, WebGame] = OrderedDict()
        """By last use, oldest first."""
        self.used: dict[str, float] = {}
        self.lock = threading.Lock()
        self.heavy = threading.BoundedSemaphore(MAX_HEAVY)
        self.specs: OrderedDict[tuple[bool, str], AgentSpec] = OrderedDict()
        self.choices = rule_choices()
        self.probed: dict[tuple[str, str], str | None] = {}

    @contextmanager
    def busy(self) -> Iterator[None]:
        """A slot for heavy work (agents thinking, a replay), or a 503 when none frees up in time."""
        if not self.heavy.acquire(timeout=BUSY_WAIT_S):
            raise ApiError(503, f"the server is busy ({MAX_HEAVY} moves or replays running): try again in a moment")
        try:
            yield
        finally:
            self.heavy.release()

    def spec(self, text: object, kind: str) -> AgentSpec:
        """The opponent for a new game of ``kind``: the command line's, or one of the allow-list of
        :mod:`.opponents` (a request may not name files, paths or modules, nor large budgets)."""
        if text is None or text == self.opponent.label:
            return self.opponent
        key = (kind == "two", text if isinstance(text, str) else repr(type(text)))
        with self.lock:
            cached = self.specs.get(key)
            if cached is not None:
                self.specs.move_to_end(key)
                return cached
        try:
            spec = request_opponent(text, kind)
        except ValueError as e:
            raise ApiError(400, str(e)) from None
        try:  # built once, so a bad combination of options fails here, not at the first move
            spec.make()
        except Exception as e:
            raise ApiError(400, f"cannot build opponent {text!r}: {type(e).__name__}: {str(e)[:300]}") from None
        with self.lock:
            self.specs[key] = spec
            while len(self.specs) > MAX_SPECS:
                self.specs.popitem(last=False)
        return spec

    def new_game(self, rules: object, opponent: object) -> tuple[str, WebGame]:
        name = self.rules if rules is None else rules
        if not isinstance(name, str) or name not in self.choices:
            raise ApiError(400, f"unknown rules {repr(rules)[:60]}: choose one of {', '.join(self.choices)}")
        kind, preset, _ = self.choices[name]
        spec = self.spec(opponent, kind)
        if kind != "two" and spec is self.opponent:
            key = (kind, spec.label)
            if key not in self.probed:
                try:
                    self.probed[key] = probe(seat_agent(spec, kind), kind, preset)
                except WrongGameError as e:  # a registered name of the two-player game only
                    self.probed[key] = str(e)
                except Exception as e:
                    self.probed[key] = f"building it raised {type(e).__name__}: {e}"
            problem = self.probed[key]
            if problem:
                every = ", ".join(agent_names(kind))
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
            if len(self.games) >= MAX_GAMES:
                victim = self._victim()
                if victim is None:
                    raise ApiError(
                        503, f"the server holds {MAX_GAMES} games in play, none idle: finish one or try later"
                    )
                del self.games[victim], self.used[victim]
            self.games[gid] = game
            self.used[gid] = time.monotonic()
        return gid, game

    def _victim(self) -> str | None:
        """The game to drop for a new one: the least recently used that the person never moved in,
        else the least recently used idle for ``IDLE_S``; None when every game is in use."""
        for gid, game in self.games.items():
            if game.person_moves == 0:
                return gid
        now = time.monotonic()
        for gid in self.games:
            if now - self.used[gid] >= IDLE_S:
                return gid
        return None

    def drop(self, gid: str) -> None:
        with self.lock:
            self.games.pop(gid, None)
            self.used.pop(gid, None)

    def game(self, gid: str) -> WebGame:
        with self.lock:
            game = self.games.get(gid)
            if game is not None:
                self.games.move_to_end(gid)
                self.used[gid] = time.monotonic()
        if game is None:
            shown = gid if len(gid) <= 40 else gid[:40] + "..."
            raise ApiError(404, f"unknown game id {shown!r}: start one with POST /api/games")
        return game


def _record_path(folder: Path, name: str) -> Path | None:
    """The file ``name`` of the records folder, or None: a plain ``*.json`` name, a regular file
    (through a symlink only to a file of the folder itself), within the size a replay reads."""
    if (
        len(name) > 200
        or not name.endswith(".json")
        or name.startswith(".")
        or any(c in name for c in "/\\\0")
        or not name.isprintable()
    ):
        return None
    try:
        root = folder.resolve(strict=True)
        path = (folder / name).resolve(strict=True)
        if path.parent != root or not path.is_file():
            return None
    except (OSError, RuntimeError):  # dangling or looping links, names the system refuses
        return None
    return path


def _record_files(folder: Path) -> list[dict[str, Any]]:
    """The records of ``folder`` as ``{"name", "size"}``, newest first; unreadable entries left out."""
    found = []
    try:
        names = [e.name for e in os.scandir(folder)]
    except OSError:
        return []
    for name in names:
        path = _record_path(folder, name)
        if path is None:
            continue
        try:
            st = path.stat()
        except OSError:
            continue
        found.append((st.st_mtime, name, st.st_size))
    found.sort(key=lambda x: (-x[0], x[1]))
    return [{"name": name, "size": size} for _, name, size in found]


def _read_json(limit: int, example: str) -> Any:
    """The request body as JSON (:func:`~sixtysix_env.records.loads_json`: bounded nesting and
    numbers); None for an empty body; a 400 or 413 naming the problem."""
    raw = request.get_data(cache=True)
    if len(raw) > limit:
        raise ApiError(413, f"the request body has {len(raw)} bytes: this route takes at most {limit}")
    if not raw.strip():
        return None
    try:
        return loads_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, f"the request body must be a JSON object, such as {example}: it is not UTF-8") from None
    except ValueError as e:
        raise ApiError(400, f"the request body must be a JSON object, such as {example}: it is {e}") from None


def _json_body(fields: tuple[str, ...], example: str) -> dict[str, Any]:
    """The request's JSON object with only ``fields`` (an empty body reads as ``{}``)."""
    body = _read_json(MAX_SMALL_BODY, example)
    if body is None:
        return {}
    if not isinstance(body, dict):
        shown = request.get_data()[:60].decode("utf-8", "replace")
        raise ApiError(400, f"the request body must be a JSON object, such as {example}; got {shown!r}")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        takes = f"takes {', '.join(repr(f) for f in fields)}" if fields else "takes no fields"
        shown = ", ".join(u[:40] for u in unknown[:5])
        raise ApiError(400, f"unknown field(s) {shown}: {request.path} {takes}")
    return body


def create_app(
    opponent: str | AgentSpec = "pimc",
    rules: str = "standard",
    records: Path | None = None,
    seed: int | None = None,
    host: str = "127.0.0.1",
    allow_hosts: Iterable[str] = (),
) -> Flask:
    """The app: ``opponent`` (an agent spec) and ``rules`` (a preset name) are the page's defaults;
    finished games are saved under ``records`` when given; ``seed`` makes the deals reproducible.
    ``host`` is the address served: requests must name it (or a loopback name, or one of
    ``allow_hosts``) in their ``Host`` header."""
    if rules not in rule_choices():
        raise ValueError(f"unknown rules {rules!r}: choose one of {', '.join(rule_choices())}")
    spec = opponent if isinstance(opponent, AgentSpec) else parse_agent_spec(opponent)
    server = Server(spec, rules, records, seed, allowed_hosts(host, allow_hosts))
    app = Flask(__name__, static_folder=None)
    app.config["server"] = server
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY

    @app.before_request
    def _guard_request() -> Any:
        routed = request.routing_exception is None
        refused = refusal(request.method, request.headers, request.mimetype, server.hosts, routed, request.scheme)
        if refused is not None:
            status, message = refused
            return jsonify(error=message), status
        return None

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
            opponents=list(dict.fromkeys([server.opponent.label, *request_agents("two")])),
            table_opponents=list(request_agents("three")),
            default_opponent=server.opponent.label,
            records=server.records is not None,
        )

    @route("/api/cards")
    def cards() -> Any:
        return jsonify(all_cards())

    @route("/api/games", ("POST",))
    def new_game() -> Any:
        body = _json_body(("rules", "opponent"), '{"rules": "standard", "opponent": "pimc"}')
        with server.busy():
            gid, game = server.new_game(body.get("rules"), body.get("opponent"))
            with game.lock:
                try:
                    steps = _guard(game.start)
                except ApiError:
                    server.drop(gid)  # the opponent failed before your first turn: no game to keep
                    raise
                return jsonify(id=gid, view=game.view(), steps=steps)

    @route("/api/games/<gid>")
    def show_game(gid: str) -> Any:
        game = server.game(gid)
        with game.lock:
            return jsonify(id=gid, view=game.view())

    @route("/api/games/<gid>/actions", ("POST",))
    def act(gid: str) -> Any:
        game = server.game(gid)
        body = _json_body(("action",), '{"action": 12}')
        if "action" not in body:
            raise ApiError(400, 'the body needs an "action": an action id 0..31 from the view\'s "legal" list')
        with game.lock, server.busy():
            steps = _guard(lambda: game.play(body["action"]))
            return jsonify(id=gid, view=game.view(), steps=steps)

    @route("/api/games/<gid>/next", ("POST",))
    def next_deal(gid: str) -> Any:
        game = server.game(gid)
        _json_body((), "{}")
        with game.lock, server.busy():
            steps = _guard(game.next_deal)
            return jsonify(id=gid, view=game.view(), steps=steps)

    @route("/api/records")
    def list_records() -> Any:
        folder = server.records
        if folder is None or not folder.is_dir():
            return jsonify(folder=str(folder) if folder else None, records=[])
        return jsonify(folder=str(folder), records=_record_files(folder))

    @route("/api/records/<name>")
    def open_record(name: str) -> Any:
        folder = server.records
        if folder is None:
            raise ApiError(404, "this server has no records folder (start it with --records DIR)")
        path = _record_path(folder, name)
        if path is None:
            shown = name if len(name) <= 60 else name[:60] + "..."
            raise ApiError(404, f"no record {shown!r} in {folder}: GET /api/records lists them")
        size = path.stat().st_size
        if size > MAX_BODY:
            raise ApiError(400, f"{name} has {size} bytes: a replay reads at most {MAX_BODY // 2**20} MiB")
        with server.busy():
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
            body = loads_json(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise ApiError(400, "this is not a game record: the file is not UTF-8 text") from None
        except ValueError as e:
            raise ApiError(400, f"this is not a game record: {e}") from None
        with server.busy():
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
