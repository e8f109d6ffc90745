"""Which Ray cluster to use, as a command line names it (``--ray ADDRESS``), checked before Ray starts."""

from __future__ import annotations

import argparse
import importlib.util
import re

from ..checks import parse_int_text

__all__ = ["ADDRESS_HELP", "RAY_MISSING", "check_ray_address", "cli_ray_address"]

ADDRESS_HELP = (
    "'local' (a new one-machine cluster, stopped at the end), 'auto' (the cluster that `ray start` "
    "started on this machine), HOST:PORT (a head node's GCS port, 6379 by default) or ray://HOST:PORT "
    "(Ray Client, port 10001)"
)
"""The forms of a Ray address, for help texts and error messages."""
"""The Ray addresses accepted, for help texts and error messages."""
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


def check_ray_address(address: object) -> str:
    """``address`` when it is one of the forms of :data:`ADDRESS_HELP`, else a ValueError saying
    what was wrong. A host is letters, digits, dots and dashes (a name or an IPv4 address)."""
    if not isinstance(address, str):
        raise ValueError(f"Ray address must be a text, got {address!r}: use {ADDRESS_HELP}")
    if address in ("local", "auto"):
        return address
    rest = address.removeprefix("ray://")
    host, sep, port_text = rest.rpartition(":")
    if not sep or _HOST.fullmatch(host) is None:
        raise ValueError(f"Ray address {address!r} is not allowed: use {ADDRESS_HELP}")
    port = parse_int_text(port_text)
    if port is None or not 1 <= port <= 65535 or port_text.startswith(("+", "-")):
        raise ValueError(f"Ray address {address!r} has no valid port (1..65535 in digits 0-9): use {ADDRESS_HELP}")
    return address


RAY_MISSING = "the Ray backend needs ray: pip install 'sixtysix-env[rllib]' (or 'ray>=2.9')"
"""What to install when ray is missing."""
"""The message when the Ray backend is asked for without ray installed."""


def cli_ray_address(text: str) -> str:
    """An ``argparse`` type for ``--ray``: the address checked, and ray installed (so a command
    line without it fails at once, not after its checks and trial decisions)."""
    try:
        address = check_ray_address(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if importlib.util.find_spec("ray") is None:
        raise argparse.ArgumentTypeError(RAY_MISSING)
    return address
