"""Play Sixty-Six in the browser against any agent, and replay saved games.

  python -m sixtysix_env.web                              # http://127.0.0.1:8066/ against pimc
  python -m sixtysix_env.web --opponent heuristic --rules santase
  python -m sixtysix_env.web --opponent mybot.py:MyBot   # your own bot (a class with act(info, rng))

The page only listens on this computer (127.0.0.1) unless --host says otherwise. The API has no
authentication: with --host beyond this computer, anyone who can reach the address can play and
read the records folder (docs/web-security.md).
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

from ..checks import cli_int
from ..cli_options import add_records, add_rules, add_seed
from .game import rule_choices
from .guard import is_loopback

WILDCARDS = ("0.0.0.0", "::", "")
"""Listening addresses that mean "every address of this computer": no browser can open them."""


def page_url(host: str, port: int) -> str:
    """The address to print for the page: ``host`` itself, or this computer's loopback address when
    ``host`` is a wildcard (0.0.0.0, ::), so that the printed address is one the Host check accepts."""
    name = host.strip().removeprefix("[").removesuffix("]")
    if name in WILDCARDS:
        name = "::1" if name == "::" else "127.0.0.1"
    shown = f"[{name}]" if ":" in name else name
    return f"http://{shown}:{port}/"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sixtysix_env.web", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=cli_int, default=8066, help="port (default 8066; 0 picks a free one)")
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name this server answers to in the Host header (a LAN name or address; repeatable)",
    )
    p.add_argument(
        "--opponent",
        default="pimc",
        metavar="SPEC",
        help="the agent you play: a name with options (pimc:samples=40), file.py:Class or package.module:Class "
        "(default pimc)",
    )
    choices = list(rule_choices())
    add_rules(
        p,
        presets=choices,
        help=f"the page's first rules: {', '.join(choices)} (default standard; the table games are three:NAME and "
        "four:NAME)",
    )
    add_records(
        p,
        default="sixtysix-records",
        type=Path,
        help="folder where finished games are saved and replays are listed (default ./sixtysix-records)",
    )
    add_seed(p, default=None, help="seed for the deals and the opponent (default: random)")
    return p


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    try:
        from . import server as web_server
        from .app import create_app
    except ImportError as e:
        sys.exit(f"the web page needs Flask: pip install 'sixtysix-env[web]' ({e})")
    if not 0 <= args.port <= 65535:
        sys.exit(f"--port {args.port} is out of range: use 0..65535 (0 picks a free port)")
    try:
        app = create_app(
            args.opponent, args.rules, records=args.records, seed=args.seed, host=args.host, allow_hosts=args.allow_host
        )
    except ValueError as e:
        sys.exit(f"error: {e}")
    except Exception as e:  # a bot's constructor may raise anything on bad options
        sys.exit(f"error: cannot build --opponent {args.opponent!r}: {type(e).__name__}: {e}")
    try:
        socket.getaddrinfo(args.host, args.port)
    except socket.gaierror as e:
        sys.exit(f"cannot listen on --host {args.host!r}: {e.strerror} (use 127.0.0.1, or 0.0.0.0 for every address)")
    # werkzeug reports a port in use itself ("Port N is in use by another program") and exits
    try:
        server = web_server.make_web_server(args.host, args.port, app)
    except OSError as e:
        sys.exit(f"cannot listen on {args.host}:{args.port}: {e.strerror or e} (try another --port, or 0)")
    if not is_loopback(args.host):
        print(
            f"WARNING: listening on {args.host}, beyond this computer. The API has NO authentication: anyone who "
            "can reach this address can play, start games and read the replays of the records folder. Use "
            "--host 127.0.0.1 unless you mean it.",
            file=sys.stderr,
            flush=True,
        )
    port = server.server_port
    print(f"Sixty-Six: open {page_url(args.host, port)} in your browser (Ctrl+C to stop)", flush=True)
    if args.host.strip().removeprefix("[").removesuffix("]") in WILDCARDS:
        print(
            f"  listening on every address: from another computer, open http://ADDRESS:{port}/ where ADDRESS is "
            "this computer's name or address on the network, given to the server with --allow-host ADDRESS "
            "(the Host check refuses any name it was not given)",
            flush=True,
        )
    print(f"  opponent {args.opponent}, rules {args.rules}, games saved in {args.records}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped")


if __name__ == "__main__":
    main()
