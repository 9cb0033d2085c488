"""Accounts: registration, login with an httpOnly cookie, logout, API tokens (hashed, scoped, revocable)."""

from __future__ import annotations

import hashlib
import time
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import ApiToken, AuthSession, User

PASSWORD = "correct horse battery"


def test_register_login_me_logout(app: Any, db_session: Session) -> None:
    client = TestClient(app)
    assert client.get("/api/v1/auth/me").status_code == 401
    r = client.post("/api/v1/auth/register", json={"email": "Ada@Example.com", "password": PASSWORD})
    assert r.status_code == 202 and r.json()["email"] == "ada@example.com"
    assert "set-cookie" not in r.headers, "registering does not log in (that would tell a new address)"
    r = client.post("/api/v1/auth/login", json={"email": "Ada@Example.com", "password": PASSWORD})
    cookie = r.headers["set-cookie"]
    assert "loopline_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    me = client.get("/api/v1/auth/me").json()
    assert me["via"] == "session" and "layout:write" in me["scopes"]
    user = db_session.execute(select(User).where(User.email == "ada@example.com")).scalar_one()
    assert user.password_hash.startswith("$argon2")
    secret = client.cookies["loopline_session"]
    stored = db_session.execute(select(AuthSession.token_hash).where(AuthSession.user_id == user.id)).scalars().all()
    assert hashlib.sha256(secret.encode()).hexdigest() in stored and secret not in stored
    assert client.post("/api/v1/auth/logout").status_code == 204
    client.cookies.set("loopline_session", secret)  # a replayed cookie is dead after logout
    assert client.get("/api/v1/auth/me").status_code == 401

    fresh = TestClient(app)
    r = fresh.post("/api/v1/auth/login", json={"email": "ada@example.com", "password": "wrong password"})
    assert r.status_code == 401 and r.json()["detail"][0]["msg"] == "unknown email or wrong password"
    assert fresh.post("/api/v1/auth/login", json={"email": "nobody@x.io", "password": PASSWORD}).status_code == 401
    assert fresh.post("/api/v1/auth/login", json={"email": "ADA@example.com", "password": PASSWORD}).status_code == 200
    assert fresh.get("/api/v1/auth/me").status_code == 200


def test_register_validation(app: Any) -> None:
    client = TestClient(app)
    assert client.post("/api/v1/auth/register", json={"email": "a@b.c", "password": "short"}).status_code == 422
    assert client.post("/api/v1/auth/register", json={"email": "not-an-email", "password": PASSWORD}).status_code == 422
    assert client.post("/api/v1/auth/register", json={"email": "a@b.c", "password": PASSWORD}).status_code == 202


def test_api_tokens_are_shown_once_stored_hashed_and_revocable(
    owner: TestClient, app: Any, db_session: Session, project: int
) -> None:
    r = owner.post("/api/v1/tokens", json={"name": "bom tool", "scopes": ["layout:read", "bom:read"]})
    assert r.status_code == 201, r.text
    secret, token_id = r.json()["token"], r.json()["id"]
    assert secret.startswith("llt_") and r.json()["prefix"] == secret[:10]
    row = db_session.get(ApiToken, token_id)
    assert row is not None and row.token_hash == hashlib.sha256(secret.encode()).hexdigest()
    listed = owner.get("/api/v1/tokens").json()
    assert listed["total"] == 1 and "token" not in listed["items"][0]

    program = TestClient(app)
    bearer = {"Authorization": f"Bearer {secret}"}
    me = program.get("/api/v1/auth/me", headers=bearer).json()
    assert me["via"] == "token" and me["scopes"] == ["bom:read", "layout:read"]
    assert program.get(f"/api/v1/projects/{project}", headers=bearer).status_code == 200
    # A token cannot mint tokens.
    r = program.post("/api/v1/tokens", json={"name": "x", "scopes": ["layout:read"]}, headers=bearer)
    assert r.status_code == 403
    assert owner.delete(f"/api/v1/tokens/{token_id}").status_code == 204
    r = program.get(f"/api/v1/projects/{project}", headers=bearer)
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert owner.get("/api/v1/tokens").json()["items"][0]["revoked_at"] is not None
    assert program.get("/api/v1/auth/me", headers={"Authorization": "Bearer llt_forged"}).status_code == 401


def test_token_scopes_are_validated(owner: TestClient) -> None:
    r = owner.post("/api/v1/tokens", json={"name": "x", "scopes": ["layout:admin"]})
    assert r.status_code == 422
    assert owner.post("/api/v1/tokens", json={"name": "x", "scopes": []}).status_code == 422


def test_someone_elses_token_cannot_be_revoked(owner: TestClient, h: SimpleNamespace) -> None:
    token_id = owner.post("/api/v1/tokens", json={"name": "x", "scopes": ["layout:read"]}).json()["id"]
    other = h.client("mallory@example.com")
    assert other.delete(f"/api/v1/tokens/{token_id}").status_code == 404


def test_expired_tokens_and_sessions_are_refused(owner: TestClient, app: Any, db_session: Session) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    r = owner.post("/api/v1/tokens", json={"name": "short", "scopes": ["layout:read"], "expires_in_days": 1})
    assert r.status_code == 201 and r.json()["expires_at"] is not None
    bearer = {"Authorization": f"Bearer {r.json()['token']}"}
    program = TestClient(app)
    assert program.get("/api/v1/auth/me", headers=bearer).status_code == 200
    past = datetime.now(UTC) - timedelta(seconds=1)
    db_session.execute(update(ApiToken).where(ApiToken.id == r.json()["id"]).values(expires_at=past))
    assert program.get("/api/v1/auth/me", headers=bearer).status_code == 401
    assert owner.get("/api/v1/auth/me").status_code == 200
    db_session.execute(update(AuthSession).values(expires_at=past))
    assert owner.get("/api/v1/auth/me").status_code == 401


def test_common_and_trivial_passwords_are_refused_at_registration(app: Any, db_session: Session) -> None:
    client = TestClient(app)
    for weak in ("12345678", "password", " " * 8):
        r = client.post("/api/v1/auth/register", json={"email": "weak@example.com", "password": weak})
        assert r.status_code == 422, (weak, r.text)
        detail = r.json()["detail"][0]
        assert detail["field"] == "password"
        assert detail["msg"].startswith("too easy to guess")
    assert db_session.execute(select(User).where(User.email == "weak@example.com")).first() is None
    assert "loopline_session" not in client.cookies


def test_backoff_doubles_after_the_free_failures_and_is_capped() -> None:
    from loopline.services.login_throttle import MAX_WAIT_S, backoff_s

    assert [backoff_s(n, 5) for n in range(9)] == [0, 0, 0, 0, 0, 2, 4, 8, 16]
    assert backoff_s(40, 5) == MAX_WAIT_S == 900


def test_failed_logins_on_an_account_are_throttled_with_backoff(app: Any, monkeypatch: Any) -> None:
    from loopline.services import login_throttle
    from loopline.settings import get_settings

    # The first wait is an hour here (2 s in production), so that a slow machine's argon2 checks
    # cannot outlast it; the wait is then passed by moving the last failure back in time.
    real_backoff = login_throttle.backoff_s
    monkeypatch.setattr(login_throttle, "backoff_s", lambda f, free, cap=3600: 3600 * (real_backoff(f, free) > 0))
    TestClient(app).post("/api/v1/auth/register", json={"email": "grace@example.com", "password": PASSWORD})
    client = TestClient(app)
    wrong = {"email": "grace@example.com", "password": "not the password"}
    for _ in range(5):
        assert client.post("/api/v1/auth/login", json=wrong).status_code == 401
    # The sixth attempt waits, even with the right password: no password is checked meanwhile.
    r = client.post("/api/v1/auth/login", json={"email": "grace@example.com", "password": PASSWORD})
    assert r.status_code == 429
    assert 3590 <= int(r.headers["retry-after"]) <= 3601
    assert r.json()["detail"][0]["msg"].startswith("too many failed logins for this account: try again in")
    # Another account from the same address is not held up by this one.
    assert client.post("/api/v1/auth/login", json={"email": "other@example.com", "password": "x"}).status_code == 401
    redis_client = login_throttle.LoginThrottle.of(get_settings().broker_url).client
    account_key = f"{login_throttle._PREFIX}:account:grace@example.com"
    redis_client.hset(account_key, "last", repr(time.time() - 3601))  # the hour has passed
    r = client.post("/api/v1/auth/login", json={"email": "grace@example.com", "password": PASSWORD})
    assert r.status_code == 200, r.text
    # A success clears the account's count: one more failure is free again.
    assert client.post("/api/v1/auth/login", json=wrong).status_code == 401
    assert client.post("/api/v1/auth/login", json=wrong).status_code == 401


def test_a_failure_stamped_after_the_attempt_began_refuses_nobody_within_the_free_ones(app: Any) -> None:
    """A fresh-clone run answered 429 "from your address" with 5 of 20 used: between reading `now`
    and the address's `last`, a parallel wrong password stamped `last` later than `now`, and
    0 - (now - last) came out positive. Within its free failures a limit never waits."""
    from loopline.services import login_throttle
    from loopline.settings import get_settings

    throttle = login_throttle.LoginThrottle.of(get_settings().broker_url)
    account, by_address = throttle._keys("later@example.com", "192.0.2.7")
    for key in (account, by_address):
        throttle.client.hset(key, mapping={"failures": 1, "last": repr(time.time() + 5)})
    throttle.attempt("later@example.com", "192.0.2.7")  # raised TooManyAttempts (wait 5 s)
    assert int(throttle.client.hget(by_address, "failures") or 0) == 2
    # Past the free ones a future stamp counts as "just now": the whole backoff, not more.
    throttle.client.hset(account, mapping={"failures": login_throttle.FREE_FAILURES, "last": repr(time.time() + 30)})
    with pytest.raises(login_throttle.TooManyAttempts) as refused:
        throttle.attempt("later@example.com", "192.0.2.7")
    assert refused.value.retry_after_s == login_throttle.backoff_s(login_throttle.FREE_FAILURES, 5) + 1
    throttle.client.delete(account, by_address)


def test_failed_logins_from_one_address_are_throttled(app: Any, monkeypatch: Any) -> None:
    from loopline.services import login_throttle

    monkeypatch.setattr(login_throttle, "FREE_FAILURES_PER_ADDRESS", 3)
    client = TestClient(app)
    for i in range(3):
        body = {"email": f"guess{i}@example.com", "password": "guessing"}
        assert client.post("/api/v1/auth/login", json=body).status_code == 401
    r = client.post("/api/v1/auth/login", json={"email": "guess9@example.com", "password": "guessing"})
    assert r.status_code == 429
    assert "your address" in r.json()["detail"][0]["msg"]


def test_expired_sessions_are_deleted_when_someone_logs_in(owner: TestClient, app: Any, db_session: Session) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import func, update

    past = datetime.now(UTC) - timedelta(seconds=1)
    db_session.execute(update(AuthSession).values(expires_at=past))
    assert db_session.execute(select(func.count()).select_from(AuthSession)).scalar_one() == 1
    later = TestClient(app)
    later.post("/api/v1/auth/register", json={"email": "later@example.com", "password": PASSWORD})
    assert (
        later.post("/api/v1/auth/login", json={"email": "later@example.com", "password": PASSWORD}).status_code == 200
    )
    expires = db_session.execute(select(AuthSession.expires_at)).scalars().all()
    assert len(expires) == 1 and expires[0] > datetime.now(UTC), "only the new session is left"


def test_a_tokens_last_use_is_written_at_most_once_a_minute(owner: TestClient, app: Any, db_session: Session) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    r = owner.post("/api/v1/tokens", json={"name": "poller", "scopes": ["layout:read"]})
    token_id, bearer = r.json()["id"], {"Authorization": f"Bearer {r.json()['token']}"}
    program = TestClient(app)

    def last_used() -> datetime | None:
        db_session.expire_all()
        return db_session.execute(select(ApiToken.last_used_at).where(ApiToken.id == token_id)).scalar_one()

    assert last_used() is None
    program.get("/api/v1/auth/me", headers=bearer)
    first = last_used()
    assert first is not None
    program.get("/api/v1/auth/me", headers=bearer)
    assert last_used() == first, "a second request within the minute writes nothing"
    two_minutes_ago = datetime.now(UTC) - timedelta(minutes=2)
    db_session.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=two_minutes_ago))
    program.get("/api/v1/auth/me", headers=bearer)
    latest = last_used()
    assert latest is not None and latest > first
