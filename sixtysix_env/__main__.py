"""``python -m sixtysix_env``: the package's commands, each run as ``python -m sixtysix_env.NAME``.

The package itself runs none of them, so that each command has one way to be called; this lists
them for whoever types the package's name first.
"""

from __future__ import annotations

import os
import sys

__all__ = ["COMMANDS", "INTERNAL", "main", "usage"]

COMMANDS: tuple[tuple[str, str], ...] = (
    ("demo", "watch the shipped PPO agent play a match against PIMC search"),
    ("play", "play against an agent in the terminal, any rule system, two to four players"),
    ("web", "play in the browser (the web extra)"),
    ("replay", "show a game record step by step"),
    ("arena", "duplicate matches between agents: points per deal, match wins, Elo"),
    ("table_arena", "the arena of the three- and four-player games"),
    ("newbot", "write a template bot to start from"),
    ("tournament", "every bot of a folder against every other, refereed: a league table"),
    ("exploitability", "what a best response wins against each agent"),
    ("exploitability.miniature", "the miniature preset solved exactly"),
    ("agents.ppo_export", "turn a MaskablePPO .zip into the .npz weights the ppo agent plays from"),
    ("fast.verify", "check the batched engine against the reference engine"),
    ("fast.warmup", "compile the batched engine's numba kernels ahead of first use"),
)
"""Every command, ``(NAME, what it does)``: ``python -m sixtysix_env.NAME --help`` says more."""

INTERNAL = ("rulesdoc", "tournament.node", "arena.table", "integrations.curve")
"""Modules that run as programs but are not commands for users: the docs' variant table writer,
the process a Ray node starts, and the modules whose commands live elsewhere (``table_arena``,
the framework examples)."""


def usage() -> str:
    """The list ``python -m sixtysix_env`` prints."""
    width = max(len(name) for name, _ in COMMANDS)
    lines = [f"  {name.ljust(width)}  {what}" for name, what in COMMANDS]
    return "\n".join(
        [
            "usage: python -m sixtysix_env.COMMAND [--help]",
            "",
            "commands:",
            *lines,
            "",
            "documentation: README.md and docs/ in the repository (the site: mkdocs serve, the docs extra)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        try:
            print(usage(), flush=True)
        except BrokenPipeError:  # piped into `head`: the reader has what it wanted, and no traceback
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    from .text_safety import terminal_text

    names = [name for name, _ in COMMANDS]
    if args[0] in names:
        rest = terminal_text(" ".join(args[1:]), limit=200)
        told = f"run the command as its own module: python -m sixtysix_env.{args[0]} {rest}".rstrip()
    else:
        told = (
            f"'{terminal_text(args[0], limit=80)}' is not a command; the commands are {', '.join(names)} "
            "(each run as python -m sixtysix_env.NAME)"
        )
    print(f"python -m sixtysix_env: {told}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
