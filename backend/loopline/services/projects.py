"""Projects, their members (roles) and fabric settings."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.api.schemas.projects import (
    FabricSettingsIn,
    FabricSettingsUpdate,
    MemberCreate,
    ProjectCreate,
    ProjectUpdate,
)
from loopline.db.models import FabricSettingsRow, Hall, Membership, Project, Role, User
from loopline.db.repositories import Page
from loopline.domain import layout_rules as rules
from loopline.domain.errors import Conflict, NotFound
from loopline.services import audit
from loopline.services.access import Principal, ProjectAccess
from loopline.services.layout_snapshot import fabric_settings, load_hall
from loopline.services.versioning import bump, check_version

FABRIC_FIELDS = tuple(FabricSettingsIn.model_fields)


def project_dict(p: Project, role: Role | None = None) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "description": p.description,
        "created_at": p.created_at.isoformat(),
        "version": p.version,
        "role": role,
    }


def fabric_dict(f: FabricSettingsRow) -> dict[str, Any]:
    return {**{k: getattr(f, k) for k in FABRIC_FIELDS}, "version": f.version}


def create_project(session: Session, principal: Principal, data: ProjectCreate) -> Project:
    project = Project(name=data.name, description=data.description)
    session.add(project)
    session.flush()
    session.add(Membership(project_id=project.id, user_id=principal.user.id, role=Role.OWNER))
    fabric = FabricSettingsRow(project_id=project.id, **(data.fabric or FabricSettingsIn()).model_dump())
    session.add(fabric)
    session.flush()
    session.refresh(project)
    audit.record(
        session,
        principal,
        project_id=project.id,
        action="create",
        resource_type="project",
        resource_id=project.id,
        after={**project_dict(project), "fabric": fabric_dict(fabric)},
    )
    return project


def list_projects(session: Session, principal: Principal, *, page: int, limit: int) -> Page[dict[str, Any]]:
    base = (
        select(Project, Membership.role)
        .join(Membership, Membership.project_id == Project.id)
        .where(Membership.user_id == principal.user.id)
    )
    total = int(session.execute(select(func.count()).select_from(base.subquery())).scalar_one())
    rows = session.execute(base.order_by(Project.name, Project.id).limit(limit).offset((page - 1) * limit)).all()
    return Page(items=[project_dict(p, role) for p, role in rows], total=total, page=page, limit=limit)


def get_project(session: Session, project_id: int) -> Project:
    project = session.get(Project, project_id)
    if project is None:
        raise NotFound("project_id", f"project {project_id} not found")
    return project


def _apply_changes(obj: Any, data: BaseModel) -> None:
    """Set the fields the client sent (null means "leave as is") and bump the version."""
    for key, value in data.model_dump(exclude_unset=True).items():
        if value is not None:
            setattr(obj, key, value)
    bump(obj)


def update_project(session: Session, access: ProjectAccess, data: ProjectUpdate, if_match: int) -> Project:
    project = get_project(session, access.project_id)
    check_version(project, if_match, f"project {project.id}")
    before = project_dict(project)
    _apply_changes(project, data)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=project.id,
        action="update",
        resource_type="project",
        resource_id=project.id,
        before=before,
        after=project_dict(project),
    )
    return project


def delete_project(session: Session, access: ProjectAccess, if_match: int) -> None:
    project = get_project(session, access.project_id)
    check_version(project, if_match, f"project {project.id}")
    before = project_dict(project)
    session.delete(project)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="delete",
        resource_type="project",
        resource_id=access.project_id,
        before=before,
    )


# ---------------------------------------------------------------- members


def _member_dict(m: Membership, u: User) -> dict[str, Any]:
    return {"user_id": u.id, "email": u.email, "display_name": u.display_name, "role": m.role, "version": m.version}


def list_members(session: Session, project_id: int, *, page: int, limit: int) -> Page[dict[str, Any]]:
    base = select(Membership, User).join(User, User.id == Membership.user_id).where(Membership.project_id == project_id)
    total = int(session.execute(select(func.count()).where(Membership.project_id == project_id)).scalar_one())
    rows = session.execute(base.order_by(User.email).limit(limit).offset((page - 1) * limit)).all()
    return Page(items=[_member_dict(mb, u) for mb, u in rows], total=total, page=page, limit=limit)


def add_member(session: Session, access: ProjectAccess, data: MemberCreate) -> dict[str, Any]:
    user = session.execute(select(User).where(User.email == data.email.strip().lower())).scalar_one_or_none()
    if user is None:
        raise NotFound("email", f"no user with the email {data.email!r}: they must register first")
    exists = session.execute(
        select(Membership.id).where(Membership.project_id == access.project_id, Membership.user_id == user.id)
    ).first()
    if exists:
        raise Conflict("email", f"{user.email} is already a member; change their role instead")
    membership = Membership(project_id=access.project_id, user_id=user.id, role=data.role)
    session.add(membership)
    session.flush()
    after = _member_dict(membership, user)
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="create",
        resource_type="member",
        resource_id=user.id,
        after=after,
    )
    return after


def _membership(session: Session, project_id: int, user_id: int) -> tuple[Membership, User]:
    row = session.execute(
        select(Membership, User)
        .join(User, User.id == Membership.user_id)
        .where(Membership.project_id == project_id, Membership.user_id == user_id)
    ).first()
    if row is None:
        raise NotFound("user_id", f"user {user_id} is not a member of project {project_id}")
    return row[0], row[1]


def _keep_an_owner(session: Session, project_id: int, membership: Membership) -> None:
    if membership.role is not Role.OWNER:
        return
    owners = session.execute(
        select(func.count()).where(Membership.project_id == project_id, Membership.role == Role.OWNER)
    ).scalar_one()
    if owners <= 1:
        raise Conflict("role", "a project needs at least one owner: make someone else owner first")


def update_member(session: Session, access: ProjectAccess, user_id: int, role: Role, if_match: int) -> dict[str, Any]:
    membership, user = _membership(session, access.project_id, user_id)
    check_version(membership, if_match, f"membership of user {user_id}")
    before = _member_dict(membership, user)
    if role is not Role.OWNER:
        _keep_an_owner(session, access.project_id, membership)
    membership.role = role
    bump(membership)
    session.flush()
    after = _member_dict(membership, user)
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="update",
        resource_type="member",
        resource_id=user_id,
        before=before,
        after=after,
    )
    return after


def remove_member(session: Session, access: ProjectAccess, user_id: int, if_match: int) -> None:
    membership, user = _membership(session, access.project_id, user_id)
    check_version(membership, if_match, f"membership of user {user_id}")
    _keep_an_owner(session, access.project_id, membership)
    before = _member_dict(membership, user)
    session.delete(membership)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="delete",
        resource_type="member",
        resource_id=user_id,
        before=before,
    )


# ---------------------------------------------------------------- fabric


def get_fabric_row(session: Session, project_id: int) -> FabricSettingsRow:
    row = session.get(FabricSettingsRow, project_id)
    if row is None:
        row = FabricSettingsRow(project_id=project_id, **FabricSettingsIn().model_dump())
        session.add(row)
        session.flush()
    return row


def fabric_read(session: Session, project_id: int) -> dict[str, Any]:
    row = get_fabric_row(session, project_id)
    settings = fabric_settings(row)
    halls = session.execute(select(Hall.id, Hall.name).where(Hall.project_id == project_id).order_by(Hall.name)).all()
    over = [
        {
            "hall_id": h.id,
            "hall_name": h.name,
            "layers": [
                {
                    "layer": x.layer,
                    "switches": x.switches,
                    "downlink_gbps": x.downlink_gbps,
                    "uplink_gbps": x.uplink_gbps,
                    "ratio": x.ratio,
                    "worst_ratio": x.worst_ratio,
                }
                for x in rules.oversubscription(load_hall(session, h.id), settings)
            ],
        }
        for h in halls
    ]
    return {**fabric_dict(row), "oversubscription": over}


def update_fabric(session: Session, access: ProjectAccess, data: FabricSettingsUpdate, if_match: int) -> dict[str, Any]:
    row = get_fabric_row(session, access.project_id)
    check_version(row, if_match, "fabric settings")
    before = fabric_dict(row)
    _apply_changes(row, data)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="update",
        resource_type="fabric",
        resource_id=access.project_id,
        before=before,
        after=fabric_dict(row),
    )
    return fabric_read(session, access.project_id)
