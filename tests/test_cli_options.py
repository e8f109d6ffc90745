"""The options the command lines share (``sixtysix_env.cli_options``) refuse the same bad values
with the same message in every command, at parse time (exit status 2, nothing run)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from sixtysix_env import cli_options
from sixtysix_env.agents.ppo_export import main as ppo_export_main
from sixtysix_env.arena import main as arena_main
from sixtysix_env.arena import run_arena
from sixtysix_env.arena.table import main as table_arena_main
from sixtysix_env.checks import as_value_error, check_int
from sixtysix_env.demo import main as demo_main
from sixtysix_env.distributed.ray_backend import RayExecutor
from sixtysix_env.fast.verify import main as verify_main
from sixtysix_env.play import main as play_main
from sixtysix_env.tournament import run_tournament
from sixtysix_env.tournament.cli import main as tournament_main
from sixtysix_env.web.__main__ import main as web_main

from .scripts import load_script

Main = Callable[[Sequence[str]], Any]


def _script(relative: str, name: str = "main") -> Main:
    def run(argv: Sequence[str]) -> Any:
        module = load_script(relative)
        return module.parser().parse_args(argv) if name == "parser" else getattr(module, name)(argv)

    return run


COMMANDS: dict[str, tuple[Main, list[str]]] = {
    "arena": (arena_main, ["--agents", "heuristic,random", "--no-progress"]),
    "tournament": (tournament_main, ["bots", "--no-progress"]),
    "table_arena": (table_arena_main, ["--no-progress"]),
    "demo": (demo_main, []),
    "web": (web_main, []),
    "play": (play_main, []),
    "fast.verify": (verify_main, []),
    "ppo_export": (ppo_export_main, ["model.zip"]),
    "make_labels": (_script("baselines/make_labels.py"), []),
    "bench_gap": (_script("benchmarks/bench_gap.py", "parser"), []),
    "bench_vu": (_script("benchmarks/bench_vu.py"), ["--no-progress"]),
}
WITH_SEED = ["arena", "table_arena", "demo", "web", "play", "fast.verify", "make_labels", "bench_gap", "bench_vu"]
WITH_RULES = ["arena", "tournament", "table_arena", "demo", "web", "play", "ppo_export", "make_labels", "bench_gap"]
WITH_WORKERS = ["arena", "tournament", "make_labels", "bench_gap", "bench_vu"]


def _usage_error(command: str, argv: list[str], capsys) -> str:
    main, required = COMMANDS[command]
    with pytest.raises(SystemExit) as e:
        main([*required, *argv])
    assert e.value.code == 2
    return " ".join(capsys.readouterr().err.split())  # play wraps its messages at 80 columns


@pytest.mark.parametrize("command", WITH_SEED)
@pytest.mark.parametrize("bad", ["x", "١٢", "1_000", "1.5", ""])
def test_every_seed_refuses_the_same_text_the_same_way(command: str, bad: str, capsys) -> None:
    err = _usage_error(command, ["--seed", bad], capsys)
    assert f"argument --seed: {bad!r} is not a whole number: write it in digits 0-9 (at most 18)" in err


@pytest.mark.parametrize("command", WITH_RULES)
def test_every_rules_option_refuses_an_unknown_preset_naming_the_presets(command: str, capsys) -> None:
    err = _usage_error(command, ["--rules", "bridge"], capsys)
    assert "argument --rules: invalid choice: 'bridge': choose one of " in err
    assert "pagat" in err if command in ("table_arena", "play") else "standard, russian" in err


@pytest.mark.parametrize("command", WITH_WORKERS)
@pytest.mark.parametrize(("bad", "message"), [("0", "--workers must be at least 1, got 0"), ("-3", "got -3")])
def test_every_workers_option_refuses_fewer_than_one(command: str, bad: str, message: str, capsys) -> None:
    assert message in _usage_error(command, ["--workers", bad], capsys)


@pytest.mark.parametrize("command", WITH_WORKERS)
def test_every_workers_option_reads_digits_only(command: str, capsys) -> None:
    err = _usage_error(command, ["--workers", "1_0"], capsys)
    assert "argument --workers: '1_0' is not a whole number" in err


def test_rules_notation_is_read_where_a_command_takes_it() -> None:
    parser = argparse.ArgumentParser()
    cli_options.add_rules(parser, notation=True)
    assert parser.parse_args(["--rules", "standard(must_win_trick=False)"]).rules == "standard(must_win_trick=False)"
    assert parser.parse_args([]).rules == "standard"
    with pytest.raises(SystemExit):
        parser.parse_args(["--rules", "standard(nonsense=1)"])
    plain = argparse.ArgumentParser()
    cli_options.add_rules(plain)
    with pytest.raises(SystemExit):
        plain.parse_args(["--rules", "standard(must_win_trick=False)"])


def test_the_arena_keeps_exporting_its_number_types() -> None:
    from sixtysix_env.arena import cli

    assert cli.positive_int is cli_options.positive_int
    assert cli.non_negative_float is cli_options.non_negative_float
    assert cli.positive_float is cli_options.positive_float
    assert cli_options.positive_int("3") == 3
    for check, bad in (
        (cli_options.positive_int, "0"),
        (cli_options.positive_float, "0"),
        (cli_options.non_negative_float, "-1"),
    ):
        with pytest.raises(argparse.ArgumentTypeError):
            check(bad)


# ---------------------------------------------------------------------- the same checks behind the APIs
def test_as_value_error_turns_a_wrong_type_into_a_value_error() -> None:
    with pytest.raises(TypeError):
        check_int("deals", 2.5, 1)
    with pytest.raises(ValueError, match=r"^deals=2\.5 is not allowed: use an int of 1 or more$"):
        as_value_error(check_int, "deals", 2.5, 1)
    with pytest.raises(ValueError, match=r"^the deals: deals=0 is not allowed"):
        as_value_error(check_int, "deals", 0, 1, what="the deals")
    assert as_value_error(check_int, "deals", 7, 1) == 7


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"deals": 2.5}, "deals=2.5 is not allowed: use an int of 1 or more"),
        ({"deals": 2, "workers": True}, "workers=True is not allowed: use an int of 1 or more"),
        ({"deals": 2, "seed": "7"}, "seed='7' is not allowed: use an int"),
        (
            {"deals": 2, "elo_prior": -1.0},
            "the Elo prior (virtual drawn deals per pair): elo_prior=-1.0 is not allowed",
        ),
        ({"deals": 2, "decision_limit_s": 0}, "the decision limit (seconds, or None for no limit): decision_limit_s=0"),
        ({"deals": 2, "trial_timeout_s": float("nan")}, "the trial timeout (seconds): trial_timeout_s=nan"),
    ],
)
def test_run_arena_names_the_bad_number_and_what_is_allowed(kw: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as e:
        run_arena(["heuristic", "random"], **kw)  # type: ignore[arg-type]
    assert message in str(e.value)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"deals": 0}, "deals=0 is not allowed: use an int of 1 or more"),
        ({"strikes": 1.0}, "strikes=1.0 is not allowed: use an int of 1 or more"),
        ({"log_bytes": "9"}, "log_bytes='9' is not allowed"),
        ({"time_limit_ms": 0}, "time_limit_ms=0 is not allowed: use a finite number above 0"),
        ({"kill_after_s": float("inf")}, "kill_after_s=inf is not allowed: use a finite number above 0"),
        ({"build_timeout_s": True}, "build_timeout_s=True is not allowed"),
    ],
)
def test_run_tournament_names_the_bad_number_before_anything_starts(tmp_path, kw, message) -> None:
    with pytest.raises(ValueError) as e:
        run_tournament(tmp_path / "nowhere", **kw)
    assert message in str(e.value)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"window": 0}, "window takes None or an int: window=0 is not allowed: use an int of 1 or more"),
        ({"num_cpus": 2.0}, "num_cpus takes None or an int: num_cpus=2.0 is not allowed"),
    ],
)
def test_the_ray_executor_names_a_bad_size(kw: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as e:
        RayExecutor("local", **kw)  # type: ignore[arg-type]
    assert message in str(e.value)
