"""Roles (viewer, editor, owner) and token scopes: 401 without credentials, 404 for non-members, 403 otherwise."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient


def _member(owner: TestClient, project: int, h: SimpleNamespace, email: str, role: str) -> TestClient:
    client = h.client(email)
    h.join(owner, client, project, email, role)
    return client


def _token(client: TestClient, *scopes: str) -> dict[str, str]:
    secret = client.post("/api/v1/tokens", json={"name": "t", "scopes": list(scopes)}).json()["token"]
    return {"Authorization": f"Bearer {secret}"}


def test_roles(owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace) -> None:
    viewer = _member(owner, project, h, "viewer@example.com", "viewer")
    editor = _member(owner, project, h, "editor@example.com", "editor")
    stranger = h.client("stranger@example.com")
    row = h.row(owner, hall["id"], n=2)
    rack = row["racks"][0]
    hall_url, row_url, rack_url = (
        f"/api/v1/halls/{hall['id']}",
        f"/api/v1/rows/{row['id']}",
        f"/api/v1/racks/{rack['id']}",
    )
    v1 = {"If-Match": '"1"'}

    # Everyone in the project reads; a stranger sees nothing (404, existence hidden).
    for url in (f"/api/v1/projects/{project}", hall_url, f"{hall_url}/layout", row_url, rack_url):
        assert viewer.get(url).status_code == 200
        assert stranger.get(url).status_code == 404, url
        assert TestClient(h.app).get(url).status_code == 401
    assert [p["role"] for p in viewer.get("/api/v1/projects").json()["items"]] == ["viewer"]
    assert stranger.get("/api/v1/projects").json()["total"] == 0

    # A viewer cannot write.
    r = viewer.patch(rack_url, json={"position_m": 3}, headers=v1)
    assert r.status_code == 403 and "needs the 'editor' role" in r.json()["detail"][0]["msg"]
    assert viewer.post(f"{row_url}/racks", json={}).status_code == 403
    assert viewer.delete(row_url, headers=v1).status_code == 403
    assert (
        viewer.post(f"/api/v1/projects/{project}/halls", json={"name": "X", "width_m": 5, "depth_m": 5}).status_code
        == 403
    )

    # An editor writes layout but does not manage members or delete the project.
    assert editor.patch(rack_url, json={"position_m": 3}, headers=v1).status_code == 200
    r = editor.post(f"/api/v1/projects/{project}/invitations", json={"email": "stranger@example.com", "role": "owner"})
    assert r.status_code == 403
    assert editor.delete(f"/api/v1/projects/{project}", headers=v1).status_code == 403

    # The owner changes roles; a project keeps at least one owner.
    members = owner.get(f"/api/v1/projects/{project}/members").json()["items"]
    me = next(m for m in members if m["email"] == "owner@example.com")
    r = owner.patch(f"/api/v1/projects/{project}/members/{me['user_id']}", json={"role": "viewer"}, headers=v1)
    assert r.status_code == 409 and "at least one owner" in r.text
    vid = next(m for m in members if m["email"] == "viewer@example.com")["user_id"]
    r = owner.patch(f"/api/v1/projects/{project}/members/{vid}", json={"role": "editor"}, headers=v1)
    assert r.status_code == 200 and r.json()["role"] == "editor" and r.json()["version"] == 2
    assert viewer.patch(rack_url, json={"position_m": 4}, headers={"If-Match": '"2"'}).status_code == 200
    assert owner.delete(f"/api/v1/projects/{project}/members/{vid}", headers={"If-Match": '"2"'}).status_code == 204
    assert viewer.get(rack_url).status_code == 404
    assert owner.delete(f"/api/v1/projects/{project}", headers=v1).status_code == 204
    assert owner.get(hall_url).status_code == 404


def test_token_scopes_cap_the_role(owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=1)
    rack_url = f"/api/v1/racks/{row['racks'][0]['id']}"
    program = TestClient(h.app)
    read_only = _token(owner, "layout:read")
    bom_only = _token(owner, "bom:read")
    writer = _token(owner, "layout:read", "layout:write")
    assert program.get(rack_url, headers=read_only).status_code == 200
    r = program.get(rack_url, headers=bom_only)
    assert r.status_code == 403 and "'layout:read' scope" in r.text
    r = program.patch(rack_url, json={"position_m": 2}, headers={**read_only, "If-Match": '"1"'})
    assert r.status_code == 403 and "'layout:write' scope" in r.text
    assert program.patch(rack_url, json={"position_m": 2}, headers={**writer, "If-Match": '"1"'}).status_code == 200
    assert program.get("/api/v1/catalog/server-models", headers=bom_only).status_code == 403
    assert program.get("/api/v1/catalog/server-models", headers=read_only).status_code == 200

    # A viewer's write token still cannot write: min(role, scopes).
    viewer = _member(owner, project, h, "v@example.com", "viewer")
    viewer_writer = _token(viewer, "layout:read", "layout:write")
    r = program.patch(rack_url, json={"position_m": 3}, headers={**viewer_writer, "If-Match": '"2"'})
    assert r.status_code == 403


def test_token_lists_and_audit_logs_need_their_own_scopes(owner: TestClient, project: int, app: Any) -> None:
    """A `layout:read` token listed the account's tokens and read its audit log (issue 25, item 7)."""
    program = TestClient(app)
    tokens, my_audit, project_audit = "/api/v1/tokens", "/api/v1/auth/audit", f"/api/v1/projects/{project}/audit"
    layout = _token(owner, "layout:read", "layout:write", "bom:read", "wiring:read", "sim:read")
    for url in (tokens, my_audit, project_audit):
        r = program.get(url, headers=layout)
        assert r.status_code == 403, url
        assert r.json()["detail"][0]["field"] == "authorization"
    assert "'tokens:read'" in program.get(tokens, headers=layout).json()["detail"][0]["msg"]
    assert "'audit:read'" in program.get(my_audit, headers=layout).json()["detail"][0]["msg"]

    lister, auditor = _token(owner, "tokens:read"), _token(owner, "audit:read")
    listed = program.get(tokens, headers=lister)
    assert listed.status_code == 200 and listed.json()["total"] == 3
    assert program.get(my_audit, headers=lister).status_code == 403
    assert program.get(project_audit, headers=lister).status_code == 403
    assert program.get(tokens, headers=auditor).status_code == 403
    created = program.get(my_audit, headers=auditor).json()["items"]
    assert [e["action"] for e in created if e["resource_type"] == "api_token"] == ["create"] * 3
    assert program.get(project_audit, headers=auditor).json()["items"][-1]["resource_type"] == "project"
    # A browser session holds every scope; the scopes do not manage tokens (that takes a session).
    for url in (tokens, my_audit, project_audit):
        assert owner.get(url).status_code == 200
    assert program.post(tokens, json={"name": "x", "scopes": ["tokens:read"]}, headers=lister).status_code == 403
