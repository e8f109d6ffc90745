"""Game records: one versioned JSON format for a deal or a match of any of the three games.

A record holds what is needed to replay a game exactly (every field of the rules, the dealer, the
cards as dealt, every action with its seat) plus what a reader wants without replaying (action
labels, the outcome, running match scores). ``from_record`` replays it through the engine, so a
record that does not describe a legal game is rejected with the step that breaks it. The format
is documented in ``docs/records.md``.

    record = to_record(deal, players=["me", "pimc"])
    save_record("game.json", record)
    deal = from_record(load_record("game.json"))
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .actions import action_label
from .cards import Rank, cards_str
from .checks import parse_float_text
from .deal_types import DealLike
from .engine import Deal
from .match import Match
from .rules import Rules
from .table import FourDeal, FourRules, TableMatch, ThreeDeal, ThreeRules
from .table.actions import table_action_label
from .table.deal import TableDeal

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GAMES",
    "to_record",
    "match_record",
    "from_record",
    "positions",
    "save_record",
    "load_record",
    "loads_json",
    "check_nesting",
    "record_game",
]

RECORD_FORMAT = "sixtysix-record"
"""The ``format`` tag of every game record."""
RECORD_VERSION = 1
"""Bumped only when a reader of the old version would misread a new record (docs/records.md)."""

GAMES: dict[str, tuple[type, type]] = {
    "two": (Deal, Rules),
    "three": (ThreeDeal, ThreeRules),
    "four": (FourDeal, FourRules),
}
"""Record ``game`` -> (deal class, rules dataclass)."""
_TABLE_DEALS: dict[str, type[TableDeal]] = {"three": ThreeDeal, "four": FourDeal}
"""The table games' deal classes from ``GAMES``, typed as ``TableDeal`` for their shared API."""

_N_PLAYERS = {"two": 2, "three": 3, "four": 4}

MAX_DEPTH = 32
"""Deepest nesting of JSON arrays and objects a record may hold (a record itself needs 5; ``meta`` the rest):
deeper values are refused with a ValueError, never a ``RecursionError``."""
MAX_FILE_BYTES = 64 * 2**20
"""Largest record file :func:`load_record` reads (a long match record is well under 1 MiB)."""
_AnyDeal = DealLike  # Deal, ThreeDeal or FourDeal: the API they share


# ---------------------------------------------------------------------------------------- writing
def record_game(deal: _AnyDeal) -> str:
    """``"two"``, ``"three"`` or ``"four"`` for a deal object."""
    if isinstance(deal, Deal):
        return "two"
    if isinstance(deal, ThreeDeal):
        return "three"
    if isinstance(deal, FourDeal):
        return "four"
    raise ValueError(f"cannot record {deal!r}: expected a Deal, ThreeDeal or FourDeal")


def _rules_dict(rules: Any) -> dict[str, Any]:
    out = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        out[f.name] = value.name if isinstance(value, enum.Enum) else value
    return out


def _players(players: Sequence[str] | None, n: int) -> list[str]:
    if players is None:
        return [f"player_{p}" for p in range(n)]
    names = list(players)
    if len(names) != n or not all(isinstance(x, str) for x in names):
        raise ValueError(f"players must be {n} names (strings), one per seat; got {players!r}")
    return names


def _meta(meta: dict | None) -> dict:
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise ValueError(f"meta must be a dict (JSON object), got {meta!r}")
    check_nesting(meta, "meta", MAX_DEPTH - 1)
    try:
        json.dumps(meta)
    except (TypeError, ValueError) as e:
        raise ValueError(f"meta must hold only JSON values: {e}") from None
    return dict(meta)


def _outcome_dict(deal: _AnyDeal) -> dict[str, Any] | None:
    out = deal.outcome
    if out is None:
        return None
    return {
        "winner": out.winner,
        "game_points": out.game_points,
        "termination": out.termination.name.lower(),
        "returns": list(deal.returns()),
        "points": list(deal.points),
    }


def _deal_body(deal: _AnyDeal) -> dict[str, Any]:
    """The per-deal part of a record (shared by deal and match records)."""
    game = record_game(deal)
    if isinstance(deal, Deal):  # game == "two"
        if deal.arrangement is None:
            raise ValueError("cannot record a resampled deal: it has no arrangement (the cards as dealt)")
        h0, h1, stock, dealer = deal.arrangement
        cards: dict[str, Any] = {
            "hands": [cards_str(h0).split(), cards_str(h1).split()],
            "stock": cards_str(stock).split(),
        }
        shift, label = 5, action_label
    elif isinstance(deal, TableDeal):
        dealer = deal.dealer
        cards = {"hands": [cards_str(h).split() for h in deal.dealt]}
        cuts = getattr(deal, "cuts", ())  # the Russian four-player game's cut (nines shown first)
        if cuts:
            cards["cuts"] = cards_str(cuts).split()
        shift, label = 6, table_action_label
    else:  # record_game refused it already
        raise ValueError(f"cannot record a {game} deal of type {type(deal).__name__}")
    low = (1 << shift) - 1
    actions = [{"seat": x >> shift, "action": x & low, "label": label(x & low)} for x in deal.history]
    return {
        "dealer": dealer,
        "scores": list(deal.scores),
        **cards,
        "actions": actions,
        "outcome": _outcome_dict(deal),
    }


def to_record(deal: _AnyDeal, *, players: Sequence[str] | None = None, meta: dict | None = None) -> dict[str, Any]:
    """A deal record of a two-, three- or four-player deal, finished or not."""
    game = record_game(deal)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "kind": "deal",
        "game": game,
        "players": _players(players, _N_PLAYERS[game]),
        "meta": _meta(meta),
        "rules": _rules_dict(deal.rules),
        **_deal_body(deal),
    }


def match_record(
    deals: Sequence[_AnyDeal], *, players: Sequence[str] | None = None, meta: dict | None = None
) -> dict[str, Any]:
    """A match record: the deals in order (every one finished but maybe the last), scored by the
    match rules (``Match`` / ``TableMatch``) into running and final scores and the winners."""
    if not deals:
        raise ValueError("a match record needs at least one deal")
    game = record_game(deals[0])
    rules = deals[0].rules
    for i, d in enumerate(deals):
        if record_game(d) != game or d.rules != rules:
            raise ValueError(f"deal {i} of the match is of another game or rule set than deal 0")
        if d.outcome is None and i < len(deals) - 1:
            raise ValueError(f"deal {i} of the match is unfinished; only the last deal may be")
    bodies = [_deal_body(d) for d in deals]
    _, running, match = _replay_match(bodies, game, rules)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "kind": "match",
        "game": game,
        "players": _players(players, _N_PLAYERS[game]),
        "meta": _meta(meta),
        "rules": _rules_dict(rules),
        "target": rules.match_target,
        "deals": bodies,
        "running_scores": running,
        "final_scores": list(match.scores),
        "over": match.is_over,
        "winners": _match_winners(match),
    }


def _match_winners(match: Match | TableMatch) -> list[int]:
    if isinstance(match, Match):
        return [match.winner] if match.is_over else []
    return list(match.winners)


# ---------------------------------------------------------------------------------------- reading
def _fail(where: str, message: str) -> ValueError:
    return ValueError(f"bad game record: {where}{message}")


def _need(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict):
        raise _fail(where, f"expected a JSON object, got {type(obj).__name__}")
    if key not in obj:
        raise _fail(where, f"missing field {key!r}")
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise _fail(where, f"field {key!r} must be {names}, got {value!r}")
    return value


def check_nesting(value: Any, what: str = "the record", limit: int = MAX_DEPTH) -> None:
    """Refuse ``value`` when its lists and dicts nest deeper than ``limit`` (walked without
    recursion, so a pathological value cannot overflow the stack here or later in ``json.dumps``)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, (dict, list, tuple)):
            continue
        if depth > limit:
            raise ValueError(f"{what} nests lists and objects deeper than {limit} levels")
        stack.extend((c, depth + 1) for c in (item.values() if isinstance(item, dict) else item))


MAX_JSON_DIGITS = 40
"""Longest integer :func:`loads_json` reads (a 63-bit seed has 19 digits); longer ones are refused."""


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_DIGITS:
        raise ValueError(f"a number of {digits} digits (numbers have at most {MAX_JSON_DIGITS})")
    return int(text)  # the JSON scanner only hands over ASCII digits with an optional minus


def _json_float(text: str) -> float:
    value = parse_float_text(text)
    if value is None:
        raise ValueError(f"the number {text[:30]!r} is too long or not finite")
    return value


def _json_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON number")


def loads_json(text: str, limit: int = MAX_DEPTH) -> Any:
    """``json.loads`` for text from outside: a ValueError saying what is wrong for bad JSON, numbers
    of more than 18 digits, ``NaN``/``Infinity``, or nesting deeper than ``limit``."""
    try:
        value = json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except json.JSONDecodeError as e:
        raise ValueError(f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise ValueError(f"lists and objects nest deeper than {limit} levels") from None
    except ValueError as e:
        raise ValueError(f"not valid JSON here: {e}") from None
    check_nesting(value, "the JSON", limit)
    return value


def _check_header(record: Any) -> tuple[str, str]:
    if not isinstance(record, dict):
        raise _fail("", f"expected a JSON object, got {type(record).__name__}")
    try:
        check_nesting(record)
    except ValueError as e:
        raise _fail("", str(e)) from None
    if "format" not in record:
        raise _fail("", f"missing field 'format' (a sixtysix-env game record has format {RECORD_FORMAT!r})")
    fmt = record["format"]
    if fmt != RECORD_FORMAT:
        raise _fail("", f"format is {fmt!r}, expected {RECORD_FORMAT!r} (is this a sixtysix-env game record?)")
    version = _need(record, "version", int, "")
    if version > RECORD_VERSION:
        raise _fail("", f"version {version} was written by a newer sixtysix-env; this one reads version 1")
    if version < 1:
        raise _fail("", f"version {version} does not exist (versions start at 1)")
    kind = _need(record, "kind", str, "")
    if kind not in ("deal", "match"):
        raise _fail("", f"kind {kind!r} is not allowed: choose deal or match")
    game = _need(record, "game", str, "")
    if game not in GAMES:
        raise _fail("", f"game {game!r} is not allowed: choose one of {', '.join(GAMES)}")
    return kind, game


_RETIRED_RULES: dict[str, dict[str, object]] = {"two": {"closed_schwarz_points": 3}}
"""Rules fields a version-1 record may hold that a rules dataclass no longer has, with the value
that meant what the rules now do without the field: a record holding that value reads as before,
another value is refused (the game it describes cannot be played any more)."""


def _rules_from(record: dict, game: str) -> Any:
    data = dict(_need(record, "rules", dict, ""))
    cls = GAMES[game][1]
    names = {f.name for f in dataclasses.fields(cls)}
    for field, same in _RETIRED_RULES.get(game, {}).items():
        if field in data and field not in names:
            value = data.pop(field)
            if value != same:
                raise _fail("rules: ", f"{field}={value!r} is a rule this version no longer has (only {same!r} reads)")
    unknown = sorted(set(data) - names)
    if unknown:
        raise _fail(
            "rules: ", f"unknown fields {', '.join(unknown)} for {cls.__name__} (allowed: {', '.join(sorted(names))})"
        )
    values = dict(data)
    if "exchange_rank" in values:
        rank = values["exchange_rank"]
        try:
            values["exchange_rank"] = Rank[rank.upper()] if isinstance(rank, str) else Rank(rank)
        except (KeyError, ValueError):
            raise _fail(
                "rules: ", f"exchange_rank {rank!r} is not a rank ({', '.join(r.name for r in Rank)})"
            ) from None
    try:
        return cls(**values)  # missing fields take the dataclass default (docs/records.md, versions)
    except (TypeError, ValueError) as e:
        raise _fail("rules: ", str(e)) from None


def _start_deal(body: dict, game: str, rules: Any, where: str) -> _AnyDeal:
    dealer = _need(body, "dealer", int, where)
    scores = tuple(_need(body, "scores", list, where))
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise _fail(where, f"scores must be integers, got {list(scores)!r}")
    hands = _need(body, "hands", list, where)
    try:
        if game == "two":
            stock = _need(body, "stock", list, where)
            if len(scores) != 2:
                raise ValueError(f"scores must have 2 entries, got {list(scores)!r}")
            return Deal.from_arrangement(hands, stock, dealer, rules, scores)
        cls = _TABLE_DEALS[game]
        if len(scores) != cls.n_sides:
            raise ValueError(f"scores must have {cls.n_sides} entries, got {list(scores)!r}")
        if body.get("cuts"):
            return cls.from_arrangement(hands, dealer, rules, scores, cuts=_need(body, "cuts", list, where))
        return cls.from_arrangement(hands, dealer, rules, scores)
    except TypeError:
        raise _fail(where, "this record has a cut ('cuts'), which this version's engine does not know") from None
    except ValueError as e:
        if str(e).startswith("bad game record"):
            raise
        raise _fail(where, f"the dealt cards: {e}") from None


def _replay(body: Any, game: str, rules: Any, where: str, seen: list | None = None, match: Any = None) -> _AnyDeal:
    """The deal of one record entry, replayed through its actions, each checked. With ``match``
    (a ``Match`` / ``TableMatch``) the deal becomes the match's current deal and is played through
    it, so the match scores it; ``seen`` collects a clone of every position."""
    deal = _start_deal(body, game, rules, where)
    apply = deal.apply
    if match is not None:
        if not match.results:  # the first deal: the match score it was dealt at (0, or carried)
            match.scores = list(deal.scores)
        elif list(deal.scores) != list(match.scores):  # a later deal starts where the previous one left the match
            raise _fail(
                where,
                f"scores {list(deal.scores)} do not follow the previous deal: the match stood at "
                f"{list(match.scores)} after it",
            )
        match.deal = deal
        apply = match.apply
    actions = _need(body, "actions", list, where)
    if seen is not None:
        seen.append(deal.clone())
    for k, entry in enumerate(actions):
        at = f"{where}action {k}: "
        seat = _need(entry, "seat", int, at)
        action = _need(entry, "action", int, at)
        if deal.is_over:
            raise _fail(at, f"the deal is already over after {k} actions, but the record has {len(actions)}")
        if seat != deal.current_player:
            raise _fail(at, f"seat {seat} acts, but it is seat {deal.current_player}'s turn")
        if not deal.is_legal(action):
            label = action_label if game == "two" else table_action_label
            legal = ", ".join(f"{a} ({label(a)})" for a in deal.legal_actions())
            raise _fail(at, f"action {action} is illegal here; the legal actions are {legal}")
        apply(action)
        if seen is not None:
            seen.append(deal.clone())
    if "outcome" not in body:
        raise _fail(where, "missing field 'outcome' (null for an unfinished deal)")
    recorded = body["outcome"]
    if recorded is not None and not isinstance(recorded, dict):
        raise _fail(where, f"field 'outcome' must be an object or null, got {recorded!r}")
    actual = _outcome_dict(deal)
    if recorded is not None and actual is not None:
        recorded = {k: recorded.get(k) for k in actual}
    if recorded != actual:
        raise _fail(where, f"the recorded outcome {recorded} differs from the replayed one {actual}")
    return deal


def _new_match(game: str, rules: Any) -> Match | TableMatch:
    """A match object that only scores: its deals come from the record (set before each is played)."""
    rng = random.Random(0)
    if game == "two":
        return Match(rules, rng)
    return TableMatch(_TABLE_DEALS[game], rules, rng)


def _replay_match(
    bodies: list, game: str, rules: Any, seen: list | None = None
) -> tuple[list[_AnyDeal], list[list[int]], Match | TableMatch]:
    """The deals of a match entry list, scored by the match rules: (deals, running scores, match)."""
    match = _new_match(game, rules)
    deals: list[_AnyDeal] = []
    running: list[list[int]] = []
    for i, body in enumerate(bodies):
        where = f"deal {i}: "
        if match.is_over:
            raise _fail(where, f"the match was already over after deal {i - 1} (scores {list(match.scores)})")
        if i < len(bodies) - 1 and isinstance(body, dict) and body.get("outcome") is None:
            raise _fail(where, "unfinished; only the last deal of a match may be")
        deal_positions: list | None = [] if seen is not None else None
        deal = _replay(body, game, rules, where, deal_positions, match)
        deals.append(deal)
        if deal.outcome is not None:
            running.append(list(match.scores))
        if seen is not None:
            seen.append(deal_positions)
    return deals, running, match


def from_record(record: dict) -> Any:
    """The game of a record, replayed: a deal record gives its ``Deal`` / ``ThreeDeal`` / ``FourDeal``
    after all its actions, a match record the list of its deals. Raises ``ValueError`` saying what is
    wrong (format, version, a missing field, a bad card, an illegal action at step k)."""
    kind, game = _check_header(record)
    rules = _rules_from(record, game)
    n = _N_PLAYERS[game]
    players = _need(record, "players", list, "")
    if len(players) != n or not all(isinstance(p, str) for p in players):
        raise _fail("", f"players must be {n} names, got {players!r}")
    _need(record, "meta", dict, "")
    if kind == "deal":
        return _replay(record, game, rules, "")
    bodies = _need(record, "deals", list, "")
    if not bodies:
        raise _fail("", "a match record needs at least one deal")
    deals, running, match = _replay_match(bodies, game, rules)
    expected = {
        "running_scores": running,
        "final_scores": list(match.scores),
        "over": match.is_over,
        "winners": _match_winners(match),
        "target": rules.match_target,
    }
    for key, value in expected.items():
        if key not in record:
            raise _fail("", f"missing field {key!r}")
        if record[key] != value:
            raise _fail("", f"{key} is {record[key]!r}, but replaying the deals gives {value!r}")
    return deals


def positions(record: dict) -> list[list[Any]]:
    """Per deal of the record, every position from the dealt one to the last (independent clones),
    for replay screens. A deal record gives one list."""
    from_record(record)  # validates the whole record first
    kind, game = _check_header(record)
    rules = _rules_from(record, game)
    if kind == "deal":
        seen: list = []
        _replay(record, game, rules, "", seen)
        return [seen]
    out: list = []
    _replay_match(record["deals"], game, rules, out)
    return out


# ---------------------------------------------------------------------------------------- files
def _dumps(value: Any, indent: int = 0) -> str:
    """JSON with containers of plain values on one line (an action, a hand), the rest indented."""
    flat = not isinstance(value, (dict, list)) or not any(
        isinstance(v, (dict, list)) for v in (value.values() if isinstance(value, dict) else value)
    )
    if flat:
        return json.dumps(value, ensure_ascii=False)
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + _dumps(v, indent + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


def save_record(path: str | Path, record: dict) -> Path:
    """Write a record as UTF-8 JSON (checked first, so a bad record never reaches a file)."""
    from_record(record)
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(_dumps(record) + "\n", encoding="utf-8")
    return p


def load_record(path: str | Path) -> dict:
    """Read and check a record file; ``ValueError`` names the file and what is wrong with it (a
    folder, a FIFO or a device is refused before it is opened, so reading never blocks).
    ``FileNotFoundError`` when there is nothing at ``path``."""
    p = Path(path)
    info = p.stat()  # FileNotFoundError, PermissionError: what the system says
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, socket or device)"
        raise ValueError(f"{p}: {kind}, not a game record file (.json)")
    if info.st_size > MAX_FILE_BYTES:
        raise ValueError(f"{p}: {info.st_size} bytes is larger than a record may be ({MAX_FILE_BYTES // 2**20} MiB)")
    try:
        with p.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:  # it grew since the check
            raise ValueError(f"{p}: larger than a record may be ({MAX_FILE_BYTES // 2**20} MiB)")
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{p}: not a UTF-8 text file ({e.reason} at byte {e.start})") from None
    try:
        record = loads_json(text)
    except ValueError as e:
        raise ValueError(f"{p}: {e}") from None
    try:
        from_record(record)
    except ValueError as e:
        raise ValueError(f"{p}: {e}") from None
    return record
