"""PostgreSQL going away answers 503 with Retry-After (never 500), and the API reconnects by itself.

Against the real PostgreSQL, without restarting it (other suites use it): the API's connections are
ended with `pg_terminate_backend` from a superuser connection (what a restart does to them), and
the test database is closed to new connections (`ALLOW_CONNECTIONS false`, what a server that is
starting up or gone answers).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, event
from sqlalchemy.exc import OperationalError

from loopline.api.app import create_app
from loopline.api.errors import database_unavailable
from loopline.db.models import Project, User
from loopline.db.session import get_engine, session_scope
from loopline.services.catalog import ensure_builtin_catalog

PASSWORD = "correct horse battery"
PORTS = Path(__file__).resolve().parents[3] / ".run" / "ports.json"


def _superuser() -> psycopg.Connection[Any]:
    port = json.loads(PORTS.read_text())["postgres"]
    return psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True)


def _database() -> str:
    return str(get_engine().url.database)


@pytest.fixture
def api_pids(migrated_database: str) -> Iterator[set[int]]:
    """The backend pids of every connection the API's pool opens from now on."""
    engine = get_engine()
    engine.dispose()
    pids: set[int] = set()

    def record(dbapi_connection: Any, _record: Any) -> None:
        pids.add(int(dbapi_connection.info.backend_pid))

    event.listen(engine, "connect", record)
    try:
        yield pids
    finally:
        event.remove(engine, "connect", record)


@pytest.fixture
def browser(migrated_database: str) -> Iterator[tuple[TestClient, int]]:
    """A logged-in client of the real app (its own transactions, committed) and a project."""
    with session_scope() as s:
        ensure_builtin_catalog(s)
    client = TestClient(create_app())
    email = "outage@example.com"
    client.post("/api/v1/auth/register", json={"email": email, "password": PASSWORD})
    assert client.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD}).status_code == 200
    project = int(client.post("/api/v1/projects", json={"name": "outage"}).json()["id"])
    try:
        yield client, project
    finally:
        with session_scope() as s:
            s.execute(delete(Project).where(Project.id == project))
            s.execute(delete(User).where(User.email == email))


def test_the_api_reconnects_after_its_connections_are_terminated(
    api_pids: set[int], browser: tuple[TestClient, int]
) -> None:
    client, project = browser
    assert client.get(f"/api/v1/projects/{project}").status_code == 200
    assert api_pids, "the requests above went through the pool"
    with _superuser() as su:
        ended = su.execute("SELECT count(*) FROM pg_stat_activity WHERE pg_terminate_backend(pid) AND pid = ANY(%s)",
                           (sorted(api_pids),)).fetchone()  # fmt: skip
    assert ended is not None and ended[0] >= 1
    # Every pooled connection is dead: the pool's pre-ping replaces each one, nobody sees an error.
    for _ in range(5):
        r = client.get(f"/api/v1/projects/{project}")
        assert r.status_code == 200, r.text


def test_a_connection_ended_mid_request_is_a_503_with_retry_after(
    api_pids: set[int], browser: tuple[TestClient, int]
) -> None:
    """A write waits on a row lock; its backend is terminated while it waits (what a restart does)."""
    client, project = browser
    version = client.get(f"/api/v1/projects/{project}").json()["version"]
    answers: list[Any] = []
    with psycopg.connect(str(get_engine().url.set(drivername="postgresql")), autocommit=False) as holder:
        holder.execute("SELECT id FROM projects WHERE id = %s FOR UPDATE", (project,))
        writer = threading.Thread(
            target=lambda: answers.append(
                client.patch(f"/api/v1/projects/{project}", json={"name": "lost"}, headers={"If-Match": f'"{version}"'})
            )
        )
        writer.start()
        with _superuser() as su:
            waiting: list[int] = []
            deadline = time.monotonic() + 30
            while not waiting and time.monotonic() < deadline:
                rows = su.execute(
                    "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid = ANY(%s)",
                    (sorted(api_pids),),
                ).fetchall()
                waiting = [int(r[0]) for r in rows]
                time.sleep(0.05)
            assert waiting, "the write never waited on the lock"
            su.execute("SELECT pg_terminate_backend(%s)", (waiting[0],))
        writer.join(30)
        holder.rollback()
    (r,) = answers
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "5"
    assert r.json()["detail"][0]["field"] == "server" and "unavailable" in r.json()["detail"][0]["msg"]
    assert r.headers["x-frame-options"] == "DENY"
    # Nothing was written, and the next request is served on a new connection.
    assert client.get(f"/api/v1/projects/{project}").json()["name"] == "outage"
    r = client.patch(f"/api/v1/projects/{project}", json={"name": "kept"}, headers={"If-Match": f'"{version}"'})
    assert r.status_code == 200, r.text


def test_a_database_that_refuses_connections_is_a_503_until_it_is_back(
    api_pids: set[int], browser: tuple[TestClient, int]
) -> None:
    client, project = browser
    name = _database()
    with _superuser() as su:
        su.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        try:
            su.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(%s)", (sorted(api_pids),)
            )
            statuses = []
            for _ in range(3):
                r = client.get(f"/api/v1/projects/{project}")
                statuses.append(r.status_code)
                assert r.headers.get("retry-after") == "5", r.text
            assert statuses == [503, 503, 503]
        finally:
            su.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert client.get(f"/api/v1/projects/{project}").status_code == 200


def test_the_503_says_why_by_the_servers_sqlstate() -> None:
    """The reasons for the states a restart gives (the driver's own exception classes)."""

    def reason(error: Exception) -> str:
        return database_unavailable(OperationalError("SELECT 1", None, error))

    assert "starting up" in reason(psycopg.errors.CannotConnectNow("the database system is starting up"))
    assert "unavailable" in reason(psycopg.errors.AdminShutdown("terminating connection"))
    assert "unavailable" in reason(psycopg.OperationalError("connection refused"))
    assert "conflicted" in reason(psycopg.errors.DeadlockDetected("deadlock detected"))
