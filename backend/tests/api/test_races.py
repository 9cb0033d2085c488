"""Races between real requests (issue 25, item 5): the app served by uvicorn on a port of its own,
many threads, the real PostgreSQL and Redis, every row committed (and removed afterwards)."""

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import delete, select

from loopline.api.app import create_app
from loopline.db.models import Membership, Project, Role, User
from loopline.db.session import session_scope
from loopline.services import login_throttle
from loopline.services.catalog import ensure_builtin_catalog
from loopline.settings import get_settings

PASSWORD = "correct horse battery"
# Several races here are as wide as a password check: at the product's cost, as in production.
pytestmark = pytest.mark.production_password_cost


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _forget_counts() -> None:
    client = login_throttle.LoginThrottle.of(get_settings().broker_url).client
    for pattern in (f"{login_throttle._PREFIX}:*", f"{login_throttle.REGISTRATION_PREFIX}:*"):
        for key in client.scan_iter(pattern):
            client.delete(key)


@pytest.fixture
def server(migrated_database: str) -> Iterator[str]:
    """The app under uvicorn (as `make run` starts it), on a free port; yields its base URL."""
    with session_scope() as s:
        ensure_builtin_catalog(s)
    _forget_counts()
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(30)
        _forget_counts()


@pytest.fixture
def accounts() -> Iterator[Callable[[str], int]]:
    """`accounts(email)` registers an account (removed afterwards, with the projects it owns)."""
    made: list[str] = []

    def make(email: str) -> int:
        with session_scope() as s:
            from loopline.services.auth import register

            user = register(s, email, PASSWORD, check_strength=False)
            made.append(email)
            return int(user.id)

    yield make
    with session_scope() as s:
        owned = select(Membership.project_id).join(User).where(User.email.in_(made))
        s.execute(delete(Project).where(Project.id.in_(owned)))
        s.execute(delete(User).where(User.email.in_(made)))


def _browser(url: str, email: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=120)
    r = client.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return client


def _together(calls: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Run the calls at once (released by one barrier), answers in the calls' order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], httpx.Response]) -> httpx.Response:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_two_owners_demoting_each_other_leave_one_owner(server: str, accounts: Callable[[str], int]) -> None:
    """It left none, 6 tries of 6: the owners are now counted under a lock on the project."""
    a_id, b_id = accounts("owner-a@example.com"), accounts("owner-b@example.com")
    a, b = _browser(server, "owner-a@example.com"), _browser(server, "owner-b@example.com")
    for attempt in range(6):
        project = a.post("/api/v1/projects", json={"name": f"race {attempt}"}).json()["id"]
        members = f"/api/v1/projects/{project}/members"
        invited = a.post(
            f"/api/v1/projects/{project}/invitations", json={"email": "owner-b@example.com", "role": "owner"}
        )
        assert b.post("/api/v1/auth/invitations/accept", json={"token": invited.json()["token"]}).status_code == 200
        versions = {m["user_id"]: m["version"] for m in a.get(members).json()["items"]}

        def demote(client: httpx.Client, user: int, url: str, version: int) -> Callable[[], httpx.Response]:
            return lambda: client.patch(f"{url}/{user}", json={"role": "editor"}, headers={"If-Match": f'"{version}"'})

        answers = _together([demote(a, b_id, members, versions[b_id]), demote(b, a_id, members, versions[a_id])])
        codes = sorted(r.status_code for r in answers)
        # The second to get the lock is no longer an owner: refused as a member without the role.
        assert codes == [200, 403], [r.text for r in answers]
        with session_scope() as s:
            owners = s.execute(
                select(Membership.user_id).where(Membership.project_id == project, Membership.role == Role.OWNER)
            ).all()
        assert len(owners) == 1


def test_sixty_parallel_wrong_passwords_get_five_checks(
    server: str, accounts: Callable[[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """19 of 60 were checked against 5 allowed: the attempt is now counted before the password.
    The first wait (2 s) is made an hour here, so that attempts the queue delays past it (a slow
    machine checks 5 passwords in more than 2 s) are not let through by the backoff itself."""
    monkeypatch.setattr(login_throttle, "backoff_s", lambda failures, free, cap=0: 0 if failures < free else 3600)
    accounts("target@example.com")
    clients = [httpx.Client(base_url=server, timeout=120) for _ in range(60)]
    wrong = {"email": "target@example.com", "password": "not the password"}
    answers = _together([lambda c=c: c.post("/api/v1/auth/login", json=wrong) for c in clients])  # type: ignore[misc]
    codes = Counter(r.status_code for r in answers)
    assert codes == {401: login_throttle.FREE_FAILURES, 429: 60 - login_throttle.FREE_FAILURES}, codes
    refused = next(r for r in answers if r.status_code == 429)
    assert "this account" in refused.json()["detail"][0]["msg"] and int(refused.headers["retry-after"]) >= 1


def test_a_forged_x_forwarded_for_does_not_reset_the_address_count(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn believes X-Forwarded-For from loopback; each new address used to start a fresh count."""
    monkeypatch.setattr(login_throttle, "FREE_FAILURES_PER_ADDRESS", 3)
    client = httpx.Client(base_url=server, timeout=60)
    for i in range(3):
        body = {"email": f"guess{i}@example.com", "password": "guessing"}
        r = client.post("/api/v1/auth/login", json=body, headers={"X-Forwarded-For": f"203.0.113.{i}"})
        assert r.status_code == 401, r.text
    r = client.post(
        "/api/v1/auth/login",
        json={"email": "guess9@example.com", "password": "guessing"},
        headers={"X-Forwarded-For": "198.51.100.77"},
    )
    assert r.status_code == 429, r.text
    assert "your address" in r.json()["detail"][0]["msg"]


def test_concurrent_retries_with_one_idempotency_key_get_the_original_job(
    server: str, accounts: Callable[[str], int]
) -> None:
    """6 of 8 got 409 (the unique key): they now wait for the first and get its job."""
    accounts("retry@example.com")
    client = _browser(server, "retry@example.com")
    project = client.post("/api/v1/projects", json={"name": "retries"}).json()["id"]
    hall = client.post(f"/api/v1/projects/{project}/halls", json={"name": "H", "width_m": 30, "depth_m": 20}).json()
    catalog = {
        kind: {e["name"]: e["id"] for e in client.get(f"/api/v1/catalog/{kind}", params={"limit": 500}).json()["items"]}
        for kind in ("server-models", "switch-models")
    }
    lr = {"servers": 4, "server_model_id": catalog["server-models"]["2x25G server"], "ports_used": 2,
          "tor_model_id": catalog["switch-models"]["48x25G+8x100G ToR"]}  # fmt: skip
    row = client.post(
        f"/api/v1/halls/{hall['id']}/rows",
        json={"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 2, "rack_template": {"logical_racks": [lr]}},
    ).json()
    spine = catalog["switch-models"]["64x100G spine"]
    network = {"name": "N01", "role": "network",
               "fabric_switches": [{"name": "SP1", "role": "spine", "switch_model_id": spine, "u": 10}]}  # fmt: skip
    assert client.post(f"/api/v1/rows/{row['id']}/racks", json=network).status_code == 201
    plan = client.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "sh", "pattern": "single-homed"})
    assert plan.status_code == 201, plan.text
    url = f"/api/v1/wiring-plans/{plan.json()['id']}/simulations"
    body = {"name": "retried"}
    clients = [_browser(server, "retry@example.com") for _ in range(8)]
    answers = _together(
        [lambda c=c: c.post(url, json=body, headers={"Idempotency-Key": "k-1"}) for c in clients]  # type: ignore[misc]
    )
    assert [r.status_code for r in answers] == [202] * 8, [r.text for r in answers if r.status_code != 202]
    assert len({r.json()["id"] for r in answers}) == 1
    assert client.get(f"/api/v1/projects/{project}/simulations").json()["total"] == 1


def test_login_without_redis_is_a_503_with_retry_after(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails closed: no password is checked while attempts cannot be counted (never a 500)."""
    from fastapi.testclient import TestClient

    from loopline.api import auth as auth_api
    from loopline.settings import Settings

    client = TestClient(app)
    body = {"email": "nobroker@example.com", "password": PASSWORD}
    assert client.post("/api/v1/auth/register", json=body).status_code == 202
    # The broker's address with nothing listening: what Redis stopped looks like to a client.
    monkeypatch.setattr(auth_api, "get_settings", lambda: Settings(broker_url=f"redis://127.0.0.1:{_free_port()}/0"))
    for path in ("/api/v1/auth/login", "/api/v1/auth/register"):
        r = client.post(path, json=body)
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == str(login_throttle.UNAVAILABLE_RETRY_AFTER_S)
        assert "cannot be counted" in r.json()["detail"][0]["msg"]
    monkeypatch.undo()
    assert client.post("/api/v1/auth/login", json=body).status_code == 200


def test_the_owner_waits_at_most_a_minute_however_long_the_attack(app: Any) -> None:
    """After 40 failures (an attacker's), the owner's wait is a minute, not 15: then the right password works."""
    from fastapi.testclient import TestClient

    client = TestClient(app)
    body = {"email": "besieged@example.com", "password": PASSWORD}
    assert client.post("/api/v1/auth/register", json=body).status_code == 202
    redis = login_throttle.LoginThrottle.of(get_settings().broker_url).client
    key = f"{login_throttle._PREFIX}:account:besieged@example.com"
    redis.hset(key, mapping={"failures": 40, "last": repr(time.time())})
    r = client.post("/api/v1/auth/login", json=body)
    assert r.status_code == 429 and 59 <= int(r.headers["retry-after"]) <= 61, r.headers
    redis.hset(key, "last", repr(time.time() - 61))
    assert client.post("/api/v1/auth/login", json=body).status_code == 200
    assert not redis.exists(key), "a success clears the account's count"
    assert login_throttle.backoff_s(40, 5, login_throttle.MAX_ACCOUNT_WAIT_S) == 60
    assert login_throttle.backoff_s(40, 20) == login_throttle.MAX_WAIT_S == 900
