"""``python -m sixtysix_env.newbot NAME``: write NAME.py, a commented template bot to start from.

The file explains the ``act(info, rng)`` interface and what an ``InfoState`` holds, plays a simple
working strategy, and runs as a script (``python NAME.py``) to check that it plays only legal
actions and to measure it against the heuristic bot with the arena. It never overwrites a file.
"""

from __future__ import annotations

import argparse
import importlib.util
import keyword
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from string import Template

__all__ = ["class_name", "main", "render", "write_bot"]


def class_name(name: str) -> str:
    """The bot's class name: ``my_bot`` -> ``MyBot``, ``alice`` -> ``AliceBot``."""
    camel = "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)
    return camel if camel.endswith("Bot") else camel + "Bot"


def check_name(name: str) -> str:
    """``name`` if it can be a bot's file and module name, else a ValueError saying why."""
    if keyword.iskeyword(name):
        raise ValueError(f"bot name {name!r} is a Python keyword: choose another name")
    if not name.isidentifier() or not name.isascii():
        raise ValueError(
            f"bot name {name!r} must be a Python identifier (letters, digits and _, not starting with a digit), "
            "such as my_bot"
        )
    if name.startswith("_"):
        raise ValueError(f"bot name {name!r} must not start with _")
    if name in sys.stdlib_module_names or name in sys.builtin_module_names or _installed(name):
        raise ValueError(
            f"bot name {name!r} is the name of an installed module: a file {name}.py would hide it from "
            "Python; choose another name"
        )
    return name


def _installed(name: str) -> bool:
    """An importable module of that name other than a file in the current folder (a bot itself)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    origin = Path(spec.origin) if spec.origin else None
    return origin is None or origin.parent.resolve() != Path.cwd().resolve()


def render(name: str) -> str:
    """The template bot's source for ``name``."""
    text = resources.files("sixtysix_env").joinpath("templates/bot.py.txt").read_text(encoding="utf-8")
    return Template(text).substitute(name=check_name(name), cls=class_name(name))


def write_bot(name: str, folder: str | Path = ".") -> Path:
    """Write ``folder/name.py``; a ValueError for a bad name, an existing file or no folder."""
    directory = Path(folder).expanduser()
    if not directory.is_dir():
        raise ValueError(f"folder {str(folder)!r} does not exist")
    path = directory / f"{name}.py"
    if path.exists():
        raise ValueError(f"{path} already exists: not overwritten (choose another name or move it)")
    source = render(name)
    try:
        with open(path, "x", encoding="utf-8") as f:
            f.write(source)
    except FileExistsError:
        raise ValueError(f"{path} already exists: not overwritten (choose another name or move it)") from None
    except OSError as e:
        raise ValueError(f"cannot write {path}: {e.strerror or e}") from None
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sixtysix_env.newbot NAME``: write a bot file from the template; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m sixtysix_env.newbot",
        description="Write NAME.py: a commented template bot (interface, InfoState, a simple strategy, a test).",
    )
    parser.add_argument("name", metavar="NAME", help="the bot's name, a Python identifier such as my_bot")
    parser.add_argument("--dir", default=".", help="folder to write it in (default: here)")
    args = parser.parse_args(argv)
    try:
        path = write_bot(args.name, args.dir)
    except ValueError as e:
        parser.error(str(e))
    cls = class_name(args.name)
    print(f"wrote {path} (class {cls}). Next:")
    print(f"  python {path}                      # check it plays legally, then 200 deals against heuristic")
    print(f"  python -m sixtysix_env.arena --agents {path}:{cls},heuristic,random --deals 200 --out results/")
    print(f"  python -m sixtysix_env.tournament {path.parent} --include heuristic,random")
    print(f"  python -m sixtysix_env.play --opponent {path}:{cls}    # play against it yourself")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
