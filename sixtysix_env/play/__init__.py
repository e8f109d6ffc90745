"""Terminal play: a person against agents, for every rule system and the three- and four-player games.

    python -m sixtysix_env.play --opponent pimc --rules standard
    python -m sixtysix_env.play --players 4 --episode match

The person sees only what that seat may know (``view``), chooses among the legal moves by key or
by typing a card (``moves``); agents play the other seats (``session``); the game is saved as a
record (``sixtysix_env.records``) that ``python -m sixtysix_env.replay`` shows again. Input is
plain stdin, so piped input works (the tests play whole games that way).
"""

from .cli import main

__all__ = ["main"]
