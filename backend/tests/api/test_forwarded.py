"""Forwarded headers are believed only from configured proxies (issue 25, item 5)."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from loopline.api.forwarded import FORWARDED_UNTRUSTED, TrustedProxies, client_behind
from loopline.settings import parse_networks

PROXIES = parse_networks("10.0.0.0/8, 192.168.1.1")


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        ("127.0.0.1", "203.0.113.9", "127.0.0.1"),  # loopback is no proxy unless configured
        ("198.51.100.4", "203.0.113.9", "198.51.100.4"),
        ("10.1.2.3", "203.0.113.9", "203.0.113.9"),
        ("10.1.2.3", "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # the client's own header is not believed
        ("10.1.2.3", "203.0.113.9, 192.168.1.1, 10.9.9.9", "203.0.113.9"),  # a chain of proxies
        ("10.1.2.3", None, "10.1.2.3"),
        ("10.1.2.3", "not-an-ip", "not-an-ip"),
    ],
)
def test_the_client_is_the_first_untrusted_hop_from_the_right(
    peer: str, forwarded_for: str | None, client: str
) -> None:
    assert client_behind(peer, forwarded_for, PROXIES) == client


@given(st.ip_addresses(), st.lists(st.ip_addresses().map(str), max_size=4))
def test_an_untrusted_peer_is_always_the_client(peer: IPv4Address | IPv6Address, hops: list[str]) -> None:
    """Whatever a peer outside the proxies sends, its own address is the one counted."""
    assume(not any(peer in network for network in PROXIES))
    assert client_behind(str(peer), ", ".join(hops), PROXIES) == str(peer)


async def _scope_after(client: tuple[str, int], headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def app(scope: Any, _receive: Any, _send: Any) -> None:
        seen.update(scope)

    scope = {"type": "http", "client": client, "scheme": "http", "headers": headers}
    await TrustedProxies(app, networks=PROXIES)(scope, None, None)  # type: ignore[arg-type]
    return seen


@pytest.mark.parametrize(
    ("client", "headers", "address", "scheme"),
    [
        (
            ("10.0.0.2", 5555),
            [(b"x-forwarded-for", b"203.0.113.9"), (b"x-forwarded-proto", b"https")],
            "203.0.113.9",
            "https",
        ),
        (
            ("127.0.0.1", 5555),
            [(b"x-forwarded-for", b"203.0.113.9"), (b"x-forwarded-proto", b"https")],
            "127.0.0.1",
            "http",
        ),
        # The server rewrote the client itself (uvicorn's port 0): nobody here vouched for it.
        (("203.0.113.9", 0), [(b"x-forwarded-for", b"203.0.113.9")], FORWARDED_UNTRUSTED, "http"),
        (("10.0.0.2", 5555), [(b"x-forwarded-proto", b"gopher")], "10.0.0.2", "http"),
    ],
)
def test_the_middleware_sets_the_address_and_scheme(
    client: tuple[str, int], headers: list[tuple[bytes, bytes]], address: str, scheme: str
) -> None:
    import asyncio

    scope = asyncio.run(_scope_after(client, headers))
    assert (scope["client"][0], scope["scheme"]) == (address, scheme)


def _scope_over_socket(from_socket: bool, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """A request that came over a Unix socket (no peer address), as the lanes process gets them."""
    import asyncio

    seen: dict[str, Any] = {}

    async def app(scope: Any, _receive: Any, _send: Any) -> None:
        seen.update(scope)

    scope = {"type": "http", "client": None, "scheme": "http", "headers": headers}
    asyncio.run(TrustedProxies(app, networks=PROXIES, from_socket=from_socket)(scope, None, None))  # type: ignore[arg-type]
    return seen


def test_the_lanes_process_believes_the_front_over_its_socket_and_nobody_else_does() -> None:
    headers = [(b"x-forwarded-for", b"203.0.113.9"), (b"x-forwarded-proto", b"https")]
    relayed = _scope_over_socket(True, headers)
    assert (relayed["client"], relayed["scheme"]) == (("203.0.113.9", 0), "https")
    # Without a forwarded address it stays unknown; a process not serving the socket ignores both.
    assert _scope_over_socket(True, [])["client"] is None
    plain = _scope_over_socket(False, headers)
    assert (plain["client"], plain["scheme"]) == (None, "http")
