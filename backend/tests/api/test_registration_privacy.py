"""Registration does not tell whether an address has an account; it is throttled per address."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.db.models import User

PASSWORD = "correct horse battery"


def test_a_taken_address_gets_the_same_answer_as_a_new_one(app: Any, db_session: Session) -> None:
    first = TestClient(app).post("/api/v1/auth/register", json={"email": "Ada@example.com", "password": PASSWORD})
    again = TestClient(app).post(
        "/api/v1/auth/register", json={"email": "ada@EXAMPLE.com", "password": "another fine passphrase"}
    )
    assert first.status_code == again.status_code == 202
    assert (
        first.json()
        == again.json()
        == {
            "email": "ada@example.com",
            "detail": "If this address is new, its account has been created: log in with the same email and password.",
        }
    )
    assert "set-cookie" not in first.headers and "set-cookie" not in again.headers
    count = select(func.count()).select_from(User).where(User.email == "ada@example.com")
    assert db_session.execute(count).scalar_one() == 1
    # The second registration changed nothing: the first password logs in, the second fails like any wrong one.
    client = TestClient(app)
    r = client.post("/api/v1/auth/login", json={"email": "ada@example.com", "password": "another fine passphrase"})
    assert r.status_code == 401 and r.json()["detail"][0]["msg"] == "unknown email or wrong password"
    assert client.post("/api/v1/auth/login", json={"email": "ada@example.com", "password": PASSWORD}).status_code == 200
    # Only the creation is in the account's audit trail.
    actions = [e["action"] for e in client.get("/api/v1/auth/audit").json()["items"]]
    assert actions == ["register"]


def test_a_weak_password_is_refused_either_way(app: Any) -> None:
    client = TestClient(app)
    r = client.post("/api/v1/auth/register", json={"email": "b@example.com", "password": PASSWORD})
    assert r.status_code == 202
    for email in ("b@example.com", "new@example.com"):
        r = client.post("/api/v1/auth/register", json={"email": email, "password": "password"})
        assert r.status_code == 422 and r.json()["detail"][0]["field"] == "password", email


def test_registrations_from_one_address_are_throttled(app: Any, monkeypatch: Any) -> None:
    from loopline.services import login_throttle

    monkeypatch.setattr(login_throttle, "FREE_REGISTRATIONS_PER_ADDRESS", 3)
    client = TestClient(app)
    # New and taken addresses count alike (else the throttle itself would tell them apart).
    emails = ["one@example.com", "one@example.com", "two@example.com"]
    for email in emails:
        assert client.post("/api/v1/auth/register", json={"email": email, "password": PASSWORD}).status_code == 202
    r = client.post("/api/v1/auth/register", json={"email": "three@example.com", "password": PASSWORD})
    assert r.status_code == 429
    assert r.headers["retry-after"] in {"2", "3"}
    assert r.json()["detail"][0] == {
        "loc": ["email"], "field": "email", "msg": f"too many registrations from your address: try again in "
        f"{r.headers['retry-after']} s",
    }  # fmt: skip
    # Logging in is not held up by it.
    assert client.post("/api/v1/auth/login", json={"email": "one@example.com", "password": PASSWORD}).status_code == 200
