"""Security headers on every response; no cross-site writes with the session cookie; 405 with Allow."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.settings import get_settings


def test_every_response_carries_the_security_headers(owner: TestClient) -> None:
    for response in (
        owner.get("/api/v1/auth/me"),
        TestClient(owner.app).get("/api/v1/auth/me"),  # a 401
        owner.get("/api/v1/does-not-exist"),  # a 404
        owner.get("/"),
    ):
        headers = response.headers
        csp = headers["content-security-policy"]
        assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin"
        assert "strict-transport-security" not in headers, "plain HTTP in local use"
    assert "cdn.jsdelivr.net" in owner.get("/docs").headers["content-security-policy"]


def test_a_write_from_another_site_is_refused_and_writes_nothing(owner: TestClient) -> None:
    evil = {"Origin": "http://attacker.example.com:8000"}
    r = owner.post("/api/v1/tokens", json={"name": "stolen", "scopes": ["layout:read"]}, headers=evil)
    assert r.status_code == 403
    assert r.json()["detail"][0]["field"] == "Origin"
    same_site = {"Sec-Fetch-Site": "same-site"}
    assert (
        owner.post("/api/v1/tokens", json={"name": "x", "scopes": ["layout:read"]}, headers=same_site).status_code
        == 403
    )
    assert owner.get("/api/v1/tokens").json()["total"] == 0
    # The editor itself (same origin), and programs that send no Origin, are served.
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert (
        owner.post("/api/v1/tokens", json={"name": "mine", "scopes": ["layout:read"]}, headers=own).status_code == 201
    )
    assert owner.post("/api/v1/tokens", json={"name": "cli", "scopes": ["layout:read"]}).status_code == 201
    # Reads are not writes.
    assert owner.get("/api/v1/tokens", headers=evil).status_code == 200


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_body_that_does_not_say_it_is_json_is_refused(owner: TestClient, content_type: str | None) -> None:
    headers = {"content-type": content_type} if content_type else {}
    r = owner.post("/api/v1/tokens", content=b'{"name": "x", "scopes": ["layout:read"]}', headers=headers)
    assert r.status_code == 415, r.text
    assert r.json()["detail"][0]["field"] == "Content-Type"
    assert owner.get("/api/v1/tokens").json()["total"] == 0


def test_unsupported_methods_on_api_routes_are_405_with_allow(owner: TestClient) -> None:
    r = owner.get("/api/v1/auth/login")
    assert (r.status_code, r.headers["allow"]) == (405, "POST")
    r = owner.put("/api/v1/auth/me", json={})
    assert (r.status_code, r.headers["allow"]) == (405, "GET")
    assert owner.delete("/api/v1/no-such-thing").status_code == 404
    assert owner.post("/some/editor/page", json={}).status_code == 405


def test_outside_local_use_hsts_is_sent_and_cookies_are_secure(monkeypatch: pytest.MonkeyPatch, app: Any) -> None:
    from loopline.api.app import create_app

    monkeypatch.setenv("LOOPLINE_ENV", "production")
    monkeypatch.setenv("LOOPLINE_SECRET_KEY", "x" * 48)
    get_settings.cache_clear()
    try:
        production = create_app()
        production.dependency_overrides = app.dependency_overrides
        client = TestClient(production, base_url="https://testserver")
        account = {"email": "prod@example.com", "password": "correct horse battery"}
        assert client.post("/api/v1/auth/register", json=account).status_code == 202
        r = client.post("/api/v1/auth/login", json=account)
        assert r.status_code == 200, r.text
        assert "Secure" in r.headers["set-cookie"]
        assert r.headers["strict-transport-security"].startswith("max-age=")
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://testserver", True),
        ("http://testserver:80", True),
        ("HTTP://TestServer", True),
        ("https://testserver", False),  # passed: the scheme was ignored
        ("https://testserver:80", False),
        ("http://testserver:8080", False),
        ("http://testserver.evil.example", False),
        ("null", False),
        ("http://", False),
        ("http://testserver:99999", False),
    ],
)
def test_the_origin_check_compares_scheme_host_and_port(owner: TestClient, origin: str, allowed: bool) -> None:
    r = owner.post("/api/v1/tokens", json={"name": "o", "scopes": ["layout:read"]}, headers={"Origin": origin})
    assert r.status_code == (201 if allowed else 403), r.text
    if not allowed:
        assert r.json()["detail"][0]["field"] == "Origin"


def _app_behind(monkeypatch: pytest.MonkeyPatch, app: Any, proxies: str) -> Any:
    """The test app, rebuilt with `LOOPLINE_TRUSTED_PROXIES` set (and the test's session)."""
    from loopline.api import app as app_module
    from loopline.settings import Settings

    monkeypatch.setattr(app_module, "get_settings", lambda: Settings(trusted_proxies=proxies))
    rebuilt = app_module.create_app()
    rebuilt.dependency_overrides = app.dependency_overrides
    return rebuilt


def test_https_through_a_trusted_proxy_is_the_sites_own_origin(
    owner: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind a TLS proxy the API hears http: the proxy's X-Forwarded-Proto says https, if it is trusted."""
    body = {"name": "p", "scopes": ["layout:read"]}
    tls = {"Origin": "https://testserver", "X-Forwarded-Proto": "https"}
    proxied = TestClient(_app_behind(monkeypatch, app, "10.0.0.0/8"), client=("10.0.0.7", 4000))
    proxied.cookies = owner.cookies
    assert proxied.post("/api/v1/tokens", json=body, headers=tls).status_code == 201
    plain_page = {"Origin": "http://testserver", "X-Forwarded-Proto": "https"}
    assert proxied.post("/api/v1/tokens", json=body, headers=plain_page).status_code == 403
    # The same headers from a peer that is not a configured proxy (loopback included) change nothing.
    direct = TestClient(_app_behind(monkeypatch, app, "10.0.0.0/8"), client=("127.0.0.1", 4000))
    direct.cookies = owner.cookies
    assert direct.post("/api/v1/tokens", json=body, headers=tls).status_code == 403


def test_a_bad_trusted_proxies_setting_is_refused_naming_the_entry() -> None:
    from pydantic import ValidationError

    from loopline.settings import Settings

    with pytest.raises(ValidationError, match="'10.0.0.300' is not an IP address or network"):
        Settings(trusted_proxies="10.0.0.1, 10.0.0.300")
    assert [str(n) for n in Settings(trusted_proxies=" 10.0.0.1 ,::1, 192.168.1.5/16").trusted_proxy_networks] == [
        "10.0.0.1/32",
        "::1/128",
        "192.168.0.0/16",
    ]
