"""The audit log records every change (who, when, what, before/after) and is readable through the API."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient


def test_changes_are_audited(owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=2)
    rack = row["racks"][0]
    owner.patch(f"/api/v1/racks/{rack['id']}", json={"name": "K1"}, headers={"If-Match": '"1"'}).raise_for_status()
    secret = owner.post("/api/v1/tokens", json={"name": "ci", "scopes": ["layout:read", "layout:write"]}).json()[
        "token"
    ]
    program = TestClient(h.app)
    program.delete(
        f"/api/v1/racks/{rack['id']}", headers={"Authorization": f"Bearer {secret}", "If-Match": '"2"'}
    ).raise_for_status()
    # A refused write leaves no trace.
    owner.patch(f"/api/v1/halls/{hall['id']}", json={"width_m": 1}, headers={"If-Match": '"1"'})

    log = owner.get(f"/api/v1/projects/{project}/audit").json()
    entries = [(e["action"], e["resource_type"]) for e in log["items"]]
    assert entries == [
        ("delete", "rack"),
        ("update", "rack"),
        ("create", "row"),
        ("create", "hall"),
        ("create", "project"),
    ]
    assert log["total"] == 5
    delete, update = log["items"][0], log["items"][1]
    assert delete["actor"] == "owner@example.com (token 'ci')" and delete["actor_token_id"] is not None
    assert delete["before"]["name"] == "K1" and delete["after"] is None
    assert update["before"]["name"] == "R01-01" and update["after"]["name"] == "K1"
    assert update["actor"] == "owner@example.com" and update["at"]
    page = owner.get(f"/api/v1/projects/{project}/audit", params={"limit": 2, "page": 2, "resource_type": "rack"})
    assert page.json()["total"] == 2 and page.json()["items"] == []


def test_viewers_read_the_log_and_strangers_do_not(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    viewer = h.client("viewer@example.com")
    h.join(owner, viewer, project, "viewer@example.com", "viewer")
    assert viewer.get(f"/api/v1/projects/{project}/audit").json()["items"][0]["resource_type"] == "member"
    assert h.client("x@example.com").get(f"/api/v1/projects/{project}/audit").status_code == 404


def test_account_changes_are_audited_too(owner: TestClient) -> None:
    token = owner.post("/api/v1/tokens", json={"name": "ci", "scopes": ["layout:read"]}).json()
    owner.delete(f"/api/v1/tokens/{token['id']}")
    owner.post("/api/v1/catalog/server-models", json={"name": "mine", "nic_ports": 1, "port_gbps": 10})
    items = owner.get("/api/v1/auth/audit").json()["items"]
    assert [(e["action"], e["resource_type"]) for e in items] == [
        ("create", "server_model"),
        ("revoke", "api_token"),
        ("create", "api_token"),
        ("register", "user"),
    ]
    assert token["token"] not in str(items)  # secrets never reach the log
