"""The one audited, versioned change: a stale version is refused, a change is bumped and logged."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import AuditEntry, Project
from loopline.domain.errors import Conflict
from loopline.services import auth, projects
from loopline.services.access import Principal
from loopline.services.mutations import Target, audited_delete, audited_update
from loopline.services.versioning import StaleVersion


@pytest.fixture
def owner(db_session: Session) -> Principal:
    return Principal(auth.register(db_session, "owner@example.com", "correct horse battery"))


@pytest.fixture
def project(db_session: Session, owner: Principal) -> Project:
    return projects.create_project(db_session, owner, "P", "before")


def _entries(session: Session, project_id: int) -> list[tuple[str, str, Any, Any]]:
    rows = session.execute(
        select(AuditEntry.action, AuditEntry.resource_type, AuditEntry.before, AuditEntry.after)
        .where(AuditEntry.project_id == project_id)
        .order_by(AuditEntry.id)
    ).all()
    return [tuple(r) for r in rows]


def _target(owner: Principal, project: Project) -> Target:
    return Target(owner, project.id, "project", project.id, f"project {project.id}")


def _describe(p: Project) -> None:
    p.description = "after"


def _snapshot(p: Project) -> dict[str, Any]:
    return {"description": p.description, "version": p.version}


def test_a_change_bumps_the_version_and_is_audited_once(
    db_session: Session, owner: Principal, project: Project
) -> None:
    after = audited_update(db_session, project, 1, _target(owner, project), snapshot=_snapshot, change=_describe)
    assert after == {"description": "after", "version": 2}
    assert project.version == 2
    assert _entries(db_session, project.id)[-1] == (
        "update", "project", {"description": "before", "version": 1}, {"description": "after", "version": 2}
    )  # fmt: skip


def test_a_stale_version_is_a_409_and_changes_nothing(db_session: Session, owner: Principal, project: Project) -> None:
    logged = len(_entries(db_session, project.id))
    with pytest.raises(StaleVersion) as err:
        audited_update(db_session, project, 3, _target(owner, project), snapshot=_snapshot, change=_describe)
    assert isinstance(err.value, Conflict) and err.value.status == 409
    assert err.value.current_version == 1
    assert (err.value.field, err.value.reason) == (
        "If-Match",
        f"project {project.id} is at version 1, not 3: reload it and apply your change again",
    )
    assert (project.description, project.version) == ("before", 1)
    assert len(_entries(db_session, project.id)) == logged


def test_a_failed_check_after_the_change_writes_no_entry(
    db_session: Session, owner: Principal, project: Project
) -> None:
    logged = len(_entries(db_session, project.id))

    def refuse() -> None:
        raise Conflict("description", "no")

    with pytest.raises(Conflict, match="description: no"):
        audited_update(
            db_session, project, 1, _target(owner, project), snapshot=_snapshot, change=_describe, check=refuse
        )
    assert len(_entries(db_session, project.id)) == logged


def test_without_an_expected_version_the_change_is_not_checked(
    db_session: Session, owner: Principal, project: Project
) -> None:
    audited_update(
        db_session, project, None, _target(owner, project), snapshot=_snapshot, change=_describe, action="cancel"
    )
    assert project.version == 2
    assert _entries(db_session, project.id)[-1][0] == "cancel"


def test_a_delete_is_checked_guarded_and_audited(db_session: Session, owner: Principal, project: Project) -> None:
    project_id = project.id

    def guard() -> None:
        raise Conflict("id", "in use")

    with pytest.raises(Conflict, match="id: in use"):
        audited_delete(db_session, project, 1, _target(owner, project), snapshot=_snapshot, guard=guard)
    with pytest.raises(StaleVersion):
        audited_delete(db_session, project, 2, _target(owner, project), snapshot=_snapshot)
    assert db_session.get(Project, project_id) is not None
    audited_delete(db_session, project, 1, _target(owner, project), snapshot=_snapshot)
    assert db_session.get(Project, project_id) is None
    entry = db_session.execute(
        select(AuditEntry).where(AuditEntry.resource_type == "project", AuditEntry.action == "delete")
    ).scalar_one()
    assert (entry.resource_id, entry.before, entry.after, entry.actor) == (
        project_id, {"description": "before", "version": 1}, None, "owner@example.com"
    )  # fmt: skip
