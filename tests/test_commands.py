"""``python -m sixtysix_env`` lists every command the package runs, and each listed one runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import sixtysix_env
from sixtysix_env.__main__ import COMMANDS, INTERNAL, main

PACKAGE = Path(sixtysix_env.__file__).parent


def _runnable() -> set[str]:
    """Every module of the package that runs as a program (a ``__main__`` block or a package
    ``__main__.py``), named as after ``python -m sixtysix_env.``; read from the files, importing
    nothing."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__main__":
            if len(parts) > 1:
                found.add(".".join(parts[:-1]))
        elif 'if __name__ == "__main__":' in path.read_text(encoding="utf-8"):
            found.add(".".join(parts))
    return found


def test_every_module_that_runs_as_a_program_is_listed_or_internal() -> None:
    listed = {name for name, _ in COMMANDS}
    assert _runnable() == listed | set(INTERNAL)
    assert not listed & set(INTERNAL)


@pytest.mark.parametrize("name", [name for name, _ in COMMANDS])
def test_each_listed_command_is_a_module_that_answers_help(name) -> None:
    module = f"sixtysix_env.{name}"
    assert importlib.util.find_spec(module) is not None
    run = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "usage" in run.stdout.lower()


def test_the_package_lists_the_commands_and_points_a_command_to_its_module(capsys) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m sixtysix_env.COMMAND") and all(name in out for name, _ in COMMANDS)
    assert main(["arena", "--agents", "ppo,heuristic"]) == 2
    assert "python -m sixtysix_env.arena --agents ppo,heuristic" in capsys.readouterr().err
    assert main(["nope\x1b[2J"]) == 2
    err = capsys.readouterr().err
    assert "'nope\\x1b[2J' is not a command" in err and "\x1b" not in err and "tournament" in err


def test_the_list_piped_into_a_reader_that_stops_early_ends_without_a_traceback() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "sixtysix_env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # as `| head -1` does once it has its line
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 0 and "Traceback" not in err and "BrokenPipeError" not in err
