"""Projects, their members (roles) and fabric settings."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.db.models import FabricSettingsRow, Hall, Membership, Project, Role, User
from loopline.db.repositories import Page
from loopline.domain import layout as dl
from loopline.domain import layout_rules as rules
from loopline.domain.errors import Conflict, NotFound
from loopline.services import audit
from loopline.services.access import Principal, ProjectAccess, check_role
from loopline.services.layout_snapshot import fabric_settings, load_hall
from loopline.services.mutations import Target, audited_delete, audited_update

FABRIC_FIELDS = tuple(f.name for f in fields(dl.FabricSettings))


@dataclass(frozen=True, slots=True)
class ProjectWithRole:
    """A project as one member sees it."""

    id: int
    name: str
    description: str
    created_at: Any
    version: int
    role: Role | None

    @classmethod
    def of(cls, p: Project, role: Role | None) -> ProjectWithRole:
        return cls(p.id, p.name, p.description, p.created_at, p.version, role)


@dataclass(frozen=True, slots=True)
class Member:
    user_id: int
    email: str
    display_name: str
    role: Role
    version: int

    @classmethod
    def of(cls, m: Membership, u: User) -> Member:
        return cls(u.id, u.email, u.display_name, m.role, m.version)


@dataclass(frozen=True, slots=True)
class HallLoad:
    """Oversubscription per layer of one hall."""

    hall_id: int
    hall_name: str
    layers: list[rules.LayerLoad]


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


def fabric_columns(settings: dl.FabricSettings) -> dict[str, Any]:
    return {f: getattr(settings, f) for f in FABRIC_FIELDS}


def create_project(
    session: Session, principal: Principal, name: str, description: str = "", fabric: dl.FabricSettings | None = None
) -> Project:
    """The creator owns it; fabric settings default to `FabricSettings()`."""
    project = Project(name=name, description=description)
    session.add(project)
    session.flush()
    session.add(Membership(project_id=project.id, user_id=principal.user.id, role=Role.OWNER))
    fabric_row = FabricSettingsRow(project_id=project.id, **fabric_columns(fabric or dl.FabricSettings()))
    session.add(fabric_row)
    session.flush()
    session.refresh(project)
    audit.record(
        session,
        principal,
        project_id=project.id,
        action="create",
        resource_type="project",
        resource_id=project.id,
        after={**project_dict(project), "fabric": fabric_dict(fabric_row)},
    )
    return project


def list_projects(session: Session, principal: Principal, *, page: int, limit: int) -> Page[ProjectWithRole]:
    base = (
        select(Project, Membership.role)
        .join(Membership, Membership.project_id == Project.id)
        .where(Membership.user_id == principal.user.id)
    )
    total = int(session.execute(select(func.count()).select_from(base.subquery())).scalar_one())
    rows = session.execute(base.order_by(Project.name, Project.id).limit(limit).offset((page - 1) * limit)).all()
    return Page(items=[ProjectWithRole.of(p, role) for p, role in rows], total=total, page=page, limit=limit)


def get_project(session: Session, project_id: int) -> Project:
    project = session.get(Project, project_id)
    if project is None:
        raise NotFound("project_id", f"project {project_id} not found")
    return project


def _apply(obj: Any, changes: dict[str, Any]) -> None:
    """Set the values sent (None means "leave as is")."""
    for key, value in changes.items():
        if value is not None:
            setattr(obj, key, value)


def update_project(session: Session, access: ProjectAccess, changes: dict[str, Any], if_match: int) -> Project:
    """`changes`: name, description."""
    project = get_project(session, access.project_id)
    audited_update(
        session,
        project,
        if_match,
        Target(access.principal, project.id, "project", project.id, f"project {project.id}"),
        snapshot=project_dict,
        change=lambda p: _apply(p, changes),
    )
    return project


def delete_project(session: Session, access: ProjectAccess, if_match: int) -> None:
    project = get_project(session, access.project_id)
    audited_delete(
        session,
        project,
        if_match,
        Target(access.principal, access.project_id, "project", access.project_id, f"project {project.id}"),
        snapshot=project_dict,
    )


# ---------------------------------------------------------------- members


def list_members(session: Session, project_id: int, *, page: int, limit: int) -> Page[Member]:
    base = select(Membership, User).join(User, User.id == Membership.user_id).where(Membership.project_id == project_id)
    total = int(session.execute(select(func.count()).where(Membership.project_id == project_id)).scalar_one())
    rows = session.execute(base.order_by(User.email).limit(limit).offset((page - 1) * limit)).all()
    return Page(items=[Member.of(mb, u) for mb, u in rows], total=total, page=page, limit=limit)


def _membership(session: Session, project_id: int, user_id: int) -> tuple[Membership, User]:
    row = session.execute(
        select(Membership, User)
        .join(User, User.id == Membership.user_id)
        .where(Membership.project_id == project_id, Membership.user_id == user_id)
        .execution_options(populate_existing=True)
    ).first()
    if row is None:
        raise NotFound("user_id", f"user {user_id} is not a member of project {project_id}")
    return row[0], row[1]


def _lock_members(session: Session, access: ProjectAccess) -> None:
    """Serialise membership changes of one project until the transaction ends: two owners demoting
    each other at once both counted two owners and left none. The project row is the lock (FOR NO
    KEY UPDATE: rows that merely reference the project, halls or plans, are not held up). Under it
    the caller's own role is read again: an owner demoted meanwhile no longer manages members."""
    session.execute(select(Project.id).where(Project.id == access.project_id).with_for_update(key_share=True))
    role = session.execute(
        select(Membership.role).where(
            Membership.project_id == access.project_id, Membership.user_id == access.principal.user.id
        )
    ).scalar()
    check_role(role, Role.OWNER, access.project_id)


def _keep_an_owner(session: Session, project_id: int, membership: Membership) -> None:
    """Counted under `_lock_members`, so the count is the committed one."""
    if membership.role is not Role.OWNER:
        return
    owners = session.execute(
        select(func.count()).where(Membership.project_id == project_id, Membership.role == Role.OWNER)
    ).scalar_one()
    if owners <= 1:
        raise Conflict("role", "a project needs at least one owner: make someone else owner first")


def update_member(session: Session, access: ProjectAccess, user_id: int, role: Role, if_match: int) -> Member:
    _lock_members(session, access)
    membership, user = _membership(session, access.project_id, user_id)

    def change(membership: Membership) -> None:
        if role is not Role.OWNER:
            _keep_an_owner(session, access.project_id, membership)
        membership.role = role

    audited_update(
        session,
        membership,
        if_match,
        Target(access.principal, access.project_id, "member", user_id, f"membership of user {user_id}"),
        snapshot=lambda membership: asdict(Member.of(membership, user)),
        change=change,
    )
    return Member.of(membership, user)


def remove_member(session: Session, access: ProjectAccess, user_id: int, if_match: int) -> None:
    _lock_members(session, access)
    membership, user = _membership(session, access.project_id, user_id)
    audited_delete(
        session,
        membership,
        if_match,
        Target(access.principal, access.project_id, "member", user_id, f"membership of user {user_id}"),
        snapshot=lambda membership: asdict(Member.of(membership, user)),
        guard=lambda: _keep_an_owner(session, access.project_id, membership),
    )


# ---------------------------------------------------------------- fabric


def get_fabric_row(session: Session, project_id: int) -> FabricSettingsRow:
    row = session.get(FabricSettingsRow, project_id)
    if row is None:
        row = FabricSettingsRow(project_id=project_id, **fabric_columns(dl.FabricSettings()))
        session.add(row)
        session.flush()
    return row


def fabric_read(session: Session, project_id: int) -> tuple[FabricSettingsRow, list[HallLoad]]:
    """The stored settings and, per hall, the oversubscription they give."""
    row = get_fabric_row(session, project_id)
    settings = fabric_settings(row)
    halls = session.execute(select(Hall.id, Hall.name).where(Hall.project_id == project_id).order_by(Hall.name)).all()
    return row, [HallLoad(h.id, h.name, rules.oversubscription(load_hall(session, h.id), settings)) for h in halls]


def update_fabric(
    session: Session, access: ProjectAccess, changes: dict[str, Any], if_match: int
) -> tuple[FabricSettingsRow, list[HallLoad]]:
    """`changes`: fabric settings fields to set (None: leave as is)."""
    row = get_fabric_row(session, access.project_id)
    audited_update(
        session,
        row,
        if_match,
        Target(access.principal, access.project_id, "fabric", access.project_id, "fabric settings"),
        snapshot=fabric_dict,
        change=lambda r: _apply(r, changes),
    )
    return fabric_read(session, access.project_id)
