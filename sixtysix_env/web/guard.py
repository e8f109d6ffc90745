"""Which requests the server answers at all: the ``Host`` it serves, its own ``Origin``, and JSON
bodies for the routes that change state.

The API has no authentication, so these checks are what keeps other web pages out: a page the
person visits may send requests to 127.0.0.1 (a cross-site form or ``fetch``), and a DNS name it
controls may point at 127.0.0.1 (DNS rebinding) to read the answers. A browser always names the
address it asked for in ``Host`` and the page that asks in ``Origin``; a cross-site page cannot
send ``application/json`` without a CORS preflight, which this server never grants.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

__all__ = ["LOOPBACK_NAMES", "allowed_hosts", "is_loopback", "refusal", "split_host"]

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""Names of this computer that a browser sends in ``Host`` (IPv6 without its brackets); every
other loopback address (127.0.0.0/8) is served too (:func:`is_loopback`): an address typed as
digits cannot be a foreign name rebound to this computer."""
_WILDCARDS = frozenset({"", "0.0.0.0", "::"})
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-")


def is_loopback(host: str) -> bool:
    """``host`` (a name or address, IPv6 with or without brackets) is this computer only."""
    name = host.strip().lower().removeprefix("[").removesuffix("]")
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _loopback_address(name: str) -> bool:
    """``name`` is a loopback address written as digits (127.0.0.2, ::1), not a name."""
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a ``Host`` header may give when the server listens on ``host``: the loopback
    names, ``host`` itself unless it is a wildcard (0.0.0.0, ::), and ``extra``."""
    names = set(LOOPBACK_NAMES)
    for name in (host, *extra):
        name = name.strip().lower().removeprefix("[").removesuffix("]")
        if name not in _WILDCARDS:
            names.add(name)
    return frozenset(names)


def split_host(value: str) -> tuple[str, int | None] | None:
    """``"localhost:8066"`` -> ``("localhost", 8066)``, ``"[::1]"`` -> ``("::1", None)``; None
    when ``value`` is not a host name or address with an optional port."""
    value = value.lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        host, rest = value[1:end], value[end + 1 :]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return None
    else:
        host, sep, port = value.partition(":")
        rest = sep + port
        if not host or not set(host) <= _HOST_CHARS:
            return None
    if not rest:
        return host, None
    port_text = rest[1:]
    if not rest.startswith(":") or not port_text.isascii() or not port_text.isdigit() or len(port_text) > 5:
        return None
    number = int(port_text)
    return (host, number) if number <= 65535 else None


def refusal(
    method: str,
    headers: Mapping[str, str],
    mimetype: str,
    hosts: frozenset[str],
    routed: bool = True,
    scheme: str = "http",
) -> tuple[int, str] | None:
    """Why a request is refused, as ``(status, message)``, or None to answer it. ``headers``
    is looked up case-insensitively (werkzeug's ``Headers``); ``routed``: False for a request
    that gets a 404 or 405 anyway (its body is not checked then)."""
    raw = headers.get("Host")
    if raw is None:
        return 400, "the request has no Host header: open the page at http://127.0.0.1:PORT/"
    parsed = split_host(raw)
    if parsed is None or (parsed[0] not in hosts and not _loopback_address(parsed[0])):
        shown = raw[:80]
        return 400, (
            f"Host {shown!r} is not an address of this server (it answers to {', '.join(sorted(hosts))}): "
            "open the page at the address it printed"
        )
    if headers.get("Transfer-Encoding") is not None:  # never read: a chunked body has no size to check first
        return 411, (
            "a body sent in chunks (Transfer-Encoding) is refused: send it whole, with a Content-Length (at most 1 MiB)"
        )
    origin = headers.get("Origin")
    if origin is not None and not _same_origin(origin, scheme, parsed):
        return 403, f"requests from the page {origin[:80]!r} are refused: only this server's own page may call its API"
    if method in ("GET", "HEAD", "OPTIONS") or not routed:
        return None
    site = headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return 403, f"a {site} request is refused: only this server's own page may call its API"
    if mimetype != "application/json":
        given = headers.get("Content-Type") or "none"
        return 415, f"a {method} body must be sent as Content-Type: application/json (got {given[:60]!r})"
    return None


def _same_origin(origin: str, scheme: str, host: tuple[str, int | None]) -> bool:
    """``origin`` (``scheme://host[:port]``) is the address the request was sent to, by ``scheme``."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme != scheme or parts.path or parts.query or parts.username or not parts.hostname:
        return False
    default = 80 if scheme == "http" else 443
    name, sent = host
    return parts.hostname == name and (port or default) == (sent or default)
