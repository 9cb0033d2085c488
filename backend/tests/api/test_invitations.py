"""Invitations: an owner invites an address with a role; the answer does not tell whether the address
has an account; the invitee accepts with a session of that address; links are hashed, expire, revoke."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from loopline.db.models import Invitation

PASSWORD = "correct horse battery"
VOLATILE = {"id", "token", "accept_path", "created_at", "expires_at"}


def _invite(owner: TestClient, project: int, email: str, role: str = "editor") -> Any:
    return owner.post(f"/api/v1/projects/{project}/invitations", json={"email": email, "role": role})


def _msg(r: Any) -> str:
    return str(r.json()["detail"][0]["msg"])


def test_the_answer_is_the_same_for_an_address_with_an_account_and_one_without(
    owner: TestClient, project: int, h: SimpleNamespace
) -> None:
    h.client("known@example.com")  # has an account
    known = _invite(owner, project, "Known@example.com")
    unknown = _invite(owner, project, "nobody-here@example.com")
    assert known.status_code == unknown.status_code == 201
    assert known.headers.keys() - {"content-length"} == unknown.headers.keys() - {"content-length"}
    a, b = known.json(), unknown.json()
    assert a.keys() == b.keys() == VOLATILE | {"email", "role", "status", "version"}
    assert {k: v for k, v in a.items() if k not in VOLATILE} == {
        "email": "known@example.com",
        "role": "editor",
        "status": "pending",
        "version": 1,
    }
    assert {k: v for k, v in b.items() if k not in VOLATILE} == {
        "email": "nobody-here@example.com",
        "role": "editor",
        "status": "pending",
        "version": 1,
    }
    # The volatile fields differ only as between any two invitations: same shape, same lifetime.
    for r in (a, b):
        assert r["token"].startswith("lli_") and len(r["token"]) == 4 + 43
        assert r["accept_path"] == "/invite#" + r["token"]
        created = datetime.fromisoformat(r["created_at"])
        assert datetime.fromisoformat(r["expires_at"]) - created == timedelta(days=7)
    # Nobody was added: both are invitations until accepted.
    members = owner.get(f"/api/v1/projects/{project}/members").json()["items"]
    assert [m["email"] for m in members] == ["owner@example.com"]


def test_the_secret_is_stored_only_as_its_hash(owner: TestClient, project: int, db_session: Session) -> None:
    body = _invite(owner, project, "bob@example.com").json()
    row = db_session.execute(select(Invitation).where(Invitation.id == body["id"])).scalar_one()
    assert row.token_hash == hashlib.sha256(body["token"].encode()).hexdigest()
    assert body["token"] not in {row.email, row.token_hash}
    listed = owner.get(f"/api/v1/projects/{project}/invitations").json()
    assert listed["total"] == 1 and "token" not in listed["items"][0]


def test_the_invitee_registers_with_the_link_and_joins_with_the_role(app: Any, owner: TestClient, project: int) -> None:
    token = _invite(owner, project, "newcomer@example.com", "viewer").json()["token"]
    guest = TestClient(app)
    r = guest.post("/api/v1/auth/invitations/preview", json={"token": token})
    assert r.status_code == 200
    assert r.json() | {"expires_at": None} == {
        "project_name": "P1",
        "email": "newcomer@example.com",
        "role": "viewer",
        "expires_at": None,
    }
    assert guest.post("/api/v1/auth/invitations/accept", json={"token": token}).status_code == 401
    assert (
        guest.post("/api/v1/auth/register", json={"email": "newcomer@example.com", "password": PASSWORD}).status_code
        == 202
    )
    login = guest.post("/api/v1/auth/login", json={"email": "newcomer@example.com", "password": PASSWORD})
    assert login.status_code == 200
    r = guest.post("/api/v1/auth/invitations/accept", json={"token": token})
    assert r.status_code == 200, r.text
    assert r.json() == {"project_id": project, "project_name": "P1", "role": "viewer"}
    assert [(p["id"], p["role"]) for p in guest.get("/api/v1/projects").json()["items"]] == [(project, "viewer")]
    # Used: the same link does nothing a second time, and it left the pending list.
    again = guest.post("/api/v1/auth/invitations/accept", json={"token": token})
    assert again.status_code == 404 and again.json()["detail"][0]["field"] == "token"
    assert owner.get(f"/api/v1/projects/{project}/invitations").json()["items"] == []
    roles = {m["email"]: m["role"] for m in owner.get(f"/api/v1/projects/{project}/members").json()["items"]}
    assert roles == {"owner@example.com": "owner", "newcomer@example.com": "viewer"}


def test_only_the_invited_address_may_accept(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    token = _invite(owner, project, "bob@example.com").json()["token"]
    mallory = h.client("mallory@example.com")
    r = mallory.post("/api/v1/auth/invitations/accept", json={"token": token})
    assert r.status_code == 403
    assert r.json()["detail"][0]["field"] == "token"
    assert _msg(r).startswith("this invitation is for bob@example.com; you are logged in as mallory@example.com")
    assert mallory.get(f"/api/v1/projects/{project}").status_code == 404
    # A token of the right account cannot accept either: a person does, with a browser session.
    bob = h.client("bob@example.com")
    secret = bob.post("/api/v1/tokens", json={"name": "t", "scopes": ["layout:read"]}).json()["token"]
    r = TestClient(h.app).post(
        "/api/v1/auth/invitations/accept", json={"token": token}, headers={"Authorization": f"Bearer {secret}"}
    )
    assert r.status_code == 403 and r.json()["detail"][0]["field"] == "authorization"
    assert bob.post("/api/v1/auth/invitations/accept", json={"token": token}).status_code == 200


def test_revoked_expired_and_unknown_links_get_one_answer(
    owner: TestClient, project: int, h: SimpleNamespace, db_session: Session
) -> None:
    bob = h.client("bob@example.com")
    revoked = _invite(owner, project, "bob@example.com").json()
    r = owner.delete(f"/api/v1/projects/{project}/invitations/{revoked['id']}")
    assert r.status_code == 428
    r = owner.delete(f"/api/v1/projects/{project}/invitations/{revoked['id']}", headers={"If-Match": '"1"'})
    assert r.status_code == 204
    expired = _invite(owner, project, "bob@example.com").json()
    db_session.execute(
        update(Invitation).where(Invitation.id == expired["id"]).values(expires_at=datetime.now(UTC) - timedelta(1))
    )
    listed = owner.get(f"/api/v1/projects/{project}/invitations").json()["items"]
    assert [(i["id"], i["status"]) for i in listed] == [(expired["id"], "expired")]
    answers = [
        bob.post("/api/v1/auth/invitations/accept", json={"token": t}).json()
        for t in (revoked["token"], expired["token"], "lli_" + "x" * 43)
    ]
    msg = "this invitation link is unknown, expired, revoked or already used: ask for a new one"
    assert answers == [{"detail": [{"loc": ["token"], "field": "token", "msg": msg}]}] * 3
    assert bob.get(f"/api/v1/projects/{project}").status_code == 404


def test_a_new_invitation_replaces_the_pending_one(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    first = _invite(owner, project, "bob@example.com", "viewer").json()
    second = _invite(owner, project, "bob@example.com", "editor").json()
    listed = owner.get(f"/api/v1/projects/{project}/invitations").json()["items"]
    assert [(i["id"], i["role"]) for i in listed] == [(second["id"], "editor")]
    bob = h.client("bob@example.com")
    assert bob.post("/api/v1/auth/invitations/accept", json={"token": first["token"]}).status_code == 404
    r = bob.post("/api/v1/auth/invitations/accept", json={"token": second["token"]})
    assert r.json()["role"] == "editor"


def test_only_owners_invite_and_members_are_refused(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    editor = h.client("ed@example.com")
    token = _invite(owner, project, "ed@example.com").json()["token"]
    assert editor.post("/api/v1/auth/invitations/accept", json={"token": token}).status_code == 200
    r = _invite(editor, project, "friend@example.com")
    assert r.status_code == 403 and r.json()["detail"][0]["field"] == "project_id"
    assert editor.get(f"/api/v1/projects/{project}/invitations").status_code == 403
    r = _invite(owner, project, "ED@example.com")
    assert r.status_code == 409
    assert _msg(r) == "ed@example.com is already a member of this project; change their role instead"
    r = _invite(owner, project, "not-an-address")
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "email"]
    stranger = h.client("stranger@example.com")
    assert _invite(stranger, project, "x@example.com").status_code == 404


def test_invitations_are_audited(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    token = _invite(owner, project, "bob@example.com", "viewer").json()["token"]
    h.client("bob@example.com").post("/api/v1/auth/invitations/accept", json={"token": token})
    entries = owner.get(f"/api/v1/projects/{project}/audit?resource_type=invitation").json()["items"]
    assert [(e["actor"], e["action"]) for e in entries] == [
        ("bob@example.com", "accept"),
        ("owner@example.com", "invite"),
    ]
    assert entries[0]["after"]["member"]["role"] == "viewer"
    joined = owner.get(f"/api/v1/projects/{project}/audit?resource_type=member").json()["items"]
    assert [(e["actor"], e["action"], e["after"]["email"], e["after"]["role"]) for e in joined] == [
        ("bob@example.com", "create", "bob@example.com", "viewer")
    ]
