"""One registry of agents, keyed by game, and one parser of agent text: every entry point reads
``pimc:samples=3`` into the same ``AgentSpec`` and refuses a bad one with the same message."""

from __future__ import annotations

import io
import warnings

import pytest

from sixtysix_env.agents import REGISTRY, WrongGameError, agent_names, make_agent, register_agent
from sixtysix_env.agents.spec import AgentSpec, parse_agent_spec
from sixtysix_env.agents.table.pimc import TablePIMCAgent
from sixtysix_env.arena.cli import main as arena_main
from sixtysix_env.arena.run import agent_spec
from sixtysix_env.arena.table import main as table_arena_main
from sixtysix_env.demo import main as demo_main
from sixtysix_env.play.cli import main as play_main


def _flat(text: str) -> str:
    return " ".join(text.split())  # command lines wrap their errors to 80 columns


def _made(monkeypatch) -> list[AgentSpec]:
    """Every spec an entry point builds an agent from, in order (``AgentSpec.make`` is the one way)."""
    made: list[AgentSpec] = []
    real = AgentSpec.make

    def spy(self: AgentSpec):
        made.append(self)
        return real(self)

    monkeypatch.setattr(AgentSpec, "make", spy)
    return made


def _play(argv: list[str]) -> int:
    return play_main([*argv, "--no-record", "--seed", "1"], stdin=io.StringIO(""), stdout=io.StringIO())


def test_the_registry_lists_each_games_agents():
    assert agent_names() == agent_names("two") == ["random", "heuristic", "alphabeta", "pimc", "ismcts", "ppo", "br"]
    assert agent_names("three") == agent_names("four") == ["random", "heuristic", "pimc"]
    assert list(REGISTRY) == ["two", "three", "four"]
    assert isinstance(make_agent("pimc", game="four", samples=2), TablePIMCAgent)
    with pytest.raises(ValueError, match="unknown game 'five': choose one of two, three, four"):
        agent_names("five")
    with pytest.raises(ValueError, match="unknown game"):
        parse_agent_spec("random", game="five")


def test_registering_for_the_table_games_only():
    register_agent("test_table_only", "sixtysix_env.agents.table.base:TableRandomAgent", game=("three", "four"))
    try:
        assert "test_table_only" in agent_names("four") and "test_table_only" not in agent_names("two")
        assert parse_agent_spec("test_table_only", game="three").make().act  # built from the lazy path
        with pytest.raises(WrongGameError, match="plays only the three and four-player games; for the two-player"):
            parse_agent_spec("test_table_only")
    finally:
        for game in ("three", "four"):
            REGISTRY[game].pop("test_table_only", None)


def test_unknown_names_list_the_games_agents():
    three = r"unknown agent 'nope' for the three-player game: choose one of random, heuristic, pimc,"
    with pytest.raises(ValueError, match=three):
        parse_agent_spec("nope", game="three")
    with pytest.raises(WrongGameError, match="'alphabeta' plays only the two-player game; for the four-player game"):
        parse_agent_spec("alphabeta", game="four")
    with pytest.raises(ValueError, match="choose one of random, heuristic, alphabeta, pimc, ismcts, ppo"):
        make_agent("nope")


def test_the_same_text_is_the_same_spec_at_every_entry_point_of_the_table_games(monkeypatch, capsys):
    pytest.importorskip("flask")
    from sixtysix_env.web.app import create_app

    text = "pimc:samples=3"
    expected = parse_agent_spec(text, game="four")
    assert expected == AgentSpec(text, "pimc", (("samples", 3),), game="four")
    made = _made(monkeypatch)
    assert _play(["--players", "4", "--opponent", text]) == 0
    seen = {"play": set(made)}
    made.clear()
    assert table_arena_main(["--game", "four", "--agents", f"{text},random", "--deals", "1", "--no-progress"]) == 0
    seen["table arena"] = {s for s in made if s.name == "pimc"}
    made.clear()
    client = create_app(opponent="random", seed=0).test_client()
    r = client.post("/api/games", json={"rules": "four:pagat", "opponent": text})
    assert r.status_code == 200, r.json
    seen["web"] = {s for s in made if s.name == "pimc"}
    assert seen == {k: {expected} for k in seen}
    capsys.readouterr()


def test_the_same_text_is_the_same_spec_at_every_entry_point_of_the_two_player_game(monkeypatch):
    pytest.importorskip("flask")
    from sixtysix_env.tournament.run import _file_spec  # noqa: F401  (the --include call reads parse_agent_spec)
    from sixtysix_env.web.app import create_app

    text = "pimc:samples=3"
    expected = parse_agent_spec(text)
    assert expected.game == "two" and expected == agent_spec(text)
    made = _made(monkeypatch)
    assert _play(["--opponent", text]) == 0
    seen = {"play": set(made)}
    made.clear()
    assert create_app(opponent=text).config["server"].opponent == expected
    seen["web command line"] = set(made)
    made.clear()
    demo_main(["--agents", f"{text},random", "--seed", "1"])
    seen["demo"] = {s for s in made if s.name == "pimc"}
    assert seen == {k: {expected} for k in seen}


def test_the_vector_envs_opponent_text_is_read_by_the_one_parser(monkeypatch):
    pytest.importorskip("numba")
    from sixtysix_env.envs.vector_opponents import make_opponent

    made = _made(monkeypatch)
    make_opponent("ppo:deterministic=true")
    assert made and set(made) == {parse_agent_spec("ppo:deterministic=true")}


def test_a_table_game_spec_with_a_bad_option_is_refused_with_the_one_message(capsys):
    text = "heuristic:bid_samples=x"
    with pytest.raises(ValueError) as e:
        parse_agent_spec(text, game="four")
    message = str(e.value)
    assert message == "option bid_samples='x' of agent 'heuristic:bid_samples=x' must be an int, got str 'x'"
    with pytest.raises(SystemExit):
        _play(["--players", "4", "--opponent", text])
    assert f"--opponent {text}: {message}" in _flat(capsys.readouterr().err)
    with pytest.raises(SystemExit):
        table_arena_main(["--game", "four", "--agents", f"{text},random", "--no-progress"])
    assert message in _flat(capsys.readouterr().err)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from sixtysix_env.agents.table.registry import make_table_agent

        with pytest.raises(ValueError) as old:
            make_table_agent(text)
    assert str(old.value) == message
    with pytest.raises(ValueError, match="bad options for agent 'random': it does not take samples"):
        parse_agent_spec("random:samples=3", game="three")


@pytest.mark.parametrize("game", ["two", "three"])
def test_pimc_samples_0_is_refused_identically_everywhere(game, capsys):
    with pytest.raises(ValueError) as e:
        parse_agent_spec("pimc:samples=0", game=game)
    message = str(e.value)
    assert "samples" in message and "0" in message
    players = [] if game == "two" else ["--players", "3"]
    with pytest.raises(SystemExit):
        _play([*players, "--opponent", "pimc:samples=0"])
    assert f"--opponent pimc:samples=0: {message}" in _flat(capsys.readouterr().err)
    if game == "two":
        with pytest.raises(ValueError) as arena:
            agent_spec("pimc:samples=0")
        assert str(arena.value) == message
        with pytest.raises(SystemExit):
            arena_main(["--agents", "pimc:samples=0,random", "--no-progress"])
        assert message in _flat(capsys.readouterr().err)
        with pytest.raises(SystemExit):
            demo_main(["--agents", "pimc:samples=0,random"])
        assert message in _flat(capsys.readouterr().err)
    else:
        with pytest.raises(SystemExit):
            table_arena_main(["--game", "three", "--agents", "pimc:samples=0,random", "--no-progress"])
        assert message in _flat(capsys.readouterr().err)


def test_a_two_player_agent_at_a_table_keeps_plays_message(capsys):
    with pytest.raises(SystemExit):
        _play(["--players", "3", "--opponent", "ismcts"])
    err = _flat(capsys.readouterr().err)
    assert "--opponent ismcts cannot play this game: agent 'ismcts' plays only the two-player game" in err
    assert "choose one of random, heuristic, pimc" in err
