"""Optimistic concurrency: every write names the version it read; a stale one gets 409, never an overwrite."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from loopline.api.app import create_app
from loopline.db.models import Project, User
from loopline.db.session import session_scope
from loopline.services.catalog import ensure_builtin_catalog


def test_two_clients_one_gets_409(owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace) -> None:
    editor = h.client("editor@example.com")
    h.join(owner, editor, project, "editor@example.com", "editor")
    rack = h.row(owner, hall["id"], n=3)["racks"][0]
    url = f"/api/v1/racks/{rack['id']}"
    a, b = owner.get(url), editor.get(url)
    assert h.etag(a) == h.etag(b) == '"1"'
    r = owner.patch(url, json={"name": "A-wins"}, headers={"If-Match": h.etag(a)})
    assert r.status_code == 200 and r.headers["etag"] == '"2"'
    r = editor.patch(url, json={"name": "B-loses"}, headers={"If-Match": h.etag(b)})
    assert r.status_code == 409
    assert r.json()["current_version"] == 2
    assert r.json()["detail"][0]["field"] == "If-Match" and "version 2, not 1" in r.json()["detail"][0]["msg"]
    assert owner.get(url).json()["name"] == "A-wins"
    r = editor.delete(url, headers={"If-Match": '"1"'})
    assert r.status_code == 409 and r.json()["current_version"] == 2


@pytest.mark.parametrize("kind", ["hall", "row", "project", "fabric"])
def test_every_versioned_resource_checks_if_match(
    kind: str, owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    row = h.row(owner, hall["id"], n=1)
    url, body = {
        "hall": (f"/api/v1/halls/{hall['id']}", {"name": "H2"}),
        "row": (f"/api/v1/rows/{row['id']}", {"name": "R9"}),
        "project": (f"/api/v1/projects/{project}", {"name": "P2"}),
        "fabric": (f"/api/v1/projects/{project}/fabric", {"tor_uplinks": 8}),
    }[kind]
    r = owner.patch(url, json=body)
    assert r.status_code == 428 and r.json()["detail"][0]["field"] == "If-Match"
    assert owner.patch(url, json=body, headers={"If-Match": "nonsense"}).status_code == 422
    assert owner.patch(url, json=body, headers={"If-Match": '"1"'}).status_code == 200
    r = owner.patch(url, json=body, headers={"If-Match": '"1"'})
    assert r.status_code == 409 and r.json()["current_version"] == 2
    assert owner.patch(url, json=body, headers={"If-Match": 'W/"2"'}).status_code == 200


def test_a_real_race_between_two_transactions_has_one_winner(migrated_database: str) -> None:
    """Two requests on separate connections pass the If-Match check together; the database lets one win."""
    app = create_app()
    with session_scope() as s:
        ensure_builtin_catalog(s)
    a, b = TestClient(app), TestClient(app)
    a.post("/api/v1/auth/register", json={"email": "race-a@example.com", "password": "correct horse battery"})
    a.post("/api/v1/auth/login", json={"email": "race-a@example.com", "password": "correct horse battery"})
    project = a.post("/api/v1/projects", json={"name": "race"}).json()["id"]
    try:
        b.post("/api/v1/auth/register", json={"email": "race-b@example.com", "password": "correct horse battery"})
        b.post("/api/v1/auth/login", json={"email": "race-b@example.com", "password": "correct horse battery"})
        invited = a.post(
            f"/api/v1/projects/{project}/invitations", json={"email": "race-b@example.com", "role": "editor"}
        )
        b.post("/api/v1/auth/invitations/accept", json={"token": invited.json()["token"]})
        hall = a.post(f"/api/v1/projects/{project}/halls", json={"name": "H", "width_m": 20, "depth_m": 20}).json()
        url = f"/api/v1/halls/{hall['id']}"
        barrier = threading.Barrier(2)
        results: list[int] = []

        def write(client: TestClient, name: str) -> None:
            barrier.wait()
            results.append(client.patch(url, json={"name": name}, headers={"If-Match": '"1"'}).status_code)

        threads = [threading.Thread(target=write, args=(c, n)) for c, n in ((a, "HA"), (b, "HB"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [200, 409]
        assert a.get(url).json()["version"] == 2
    finally:
        with session_scope() as s:
            s.execute(delete(Project).where(Project.id == project))
            s.execute(delete(User).where(User.email.in_(["race-a@example.com", "race-b@example.com"])))
