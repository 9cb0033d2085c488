"""Who is calling, when a reverse proxy stands in between: `X-Forwarded-For` and `-Proto` are taken
only from the proxies named in `LOOPLINE_TRUSTED_PROXIES`.

The login throttle counts failures per client address, and the `Origin` check compares schemes:
both read `scope["client"]` and `scope["scheme"]`, which this middleware (the outermost) sets. A
forwarded header from any other peer is ignored, loopback included (any local program can send one,
and it reset the per-address count). Behind trusted proxies the client is the rightmost address in
`X-Forwarded-For` that is not itself a trusted proxy, as each proxy appends the peer it saw.

The server must not rewrite these itself (uvicorn runs with `--no-proxy-headers`; by default it
trusts loopback). If it did anyway (uvicorn marks its rewrite with port 0), the address it chose
came from a header nobody here vouched for: all such requests share one address,
`FORWARDED_UNTRUSTED`, so a forged header still cannot reset a count.

In the lanes process (`from_socket`, see `relay.py`) a request without a peer address came over
its Unix socket, which only the front can open: the front's headers say who called and how.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from loopline.settings import Network

FORWARDED_UNTRUSTED = "forwarded-untrusted"


def _trusted(address: str, networks: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_behind(peer: str, forwarded_for: str | None, networks: tuple[Network, ...]) -> str:
    """The client's address: `peer`, unless `peer` is a trusted proxy and says whom it forwards."""
    if not forwarded_for or not _trusted(peer, networks):
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            return hop
    return hops[0] if hops else peer


class TrustedProxies:
    """Pure ASGI middleware: sets the client address and scheme a trusted proxy reports."""

    def __init__(self, app: ASGIApp, *, networks: tuple[Network, ...], from_socket: bool = False) -> None:
        self.app = app
        self.networks = networks
        self.from_socket = from_socket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        forwarded_for = headers.get(b"x-forwarded-for", b"").decode("latin-1") or None
        if not scope.get("client"):
            if self.from_socket:
                scope = {**scope, "client": (forwarded_for.split(",")[-1].strip(), 0) if forwarded_for else None}
                scope = _with_scheme(scope, headers)
            await self.app(scope, receive, send)
            return
        peer, port = scope["client"]
        if port == 0 and forwarded_for is not None:
            scope = {**scope, "client": (FORWARDED_UNTRUSTED, 0)}
        elif _trusted(peer, self.networks):
            scope = _with_scheme({**scope, "client": (client_behind(peer, forwarded_for, self.networks), 0)}, headers)
        await self.app(scope, receive, send)


def _with_scheme(scope: Scope, headers: dict[bytes, bytes]) -> Scope:
    """`scope` with the scheme a trusted `X-Forwarded-Proto` names (the last hop's), if any."""
    proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1").split(",")[-1].strip().lower()
    return {**scope, "scheme": proto} if proto in ("http", "https") else scope
