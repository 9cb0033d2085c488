"""The audit log: every change, who made it, when, and the resource before and after."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from loopline.db.models import AuditEntry
from loopline.db.repositories import Page, paginate
from loopline.services.access import Principal


def record(
    session: Session,
    principal: Principal | None,
    *,
    project_id: int | None,
    action: str,
    resource_type: str,
    resource_id: int | None,
    before: Any = None,
    after: Any = None,
) -> None:
    session.add(
        AuditEntry(
            project_id=project_id,
            actor_user_id=principal.user.id if principal else None,
            actor_token_id=principal.token.id if principal and principal.token else None,
            actor=principal.label if principal else "system",
            action=action,
            resource_type=resource_type,
            resource_id=resource_id,
            before=before,
            after=after,
            at=func.now(),
        )
    )


def list_for_project(
    session: Session, project_id: int, *, page: int, limit: int, resource_type: str | None = None
) -> Page[AuditEntry]:
    stmt = select(AuditEntry).where(AuditEntry.project_id == project_id)
    if resource_type:
        stmt = stmt.where(AuditEntry.resource_type == resource_type)
    return paginate(session, stmt.order_by(AuditEntry.id.desc()), page=page, limit=limit)


def record_many(
    session: Session,
    principal: Principal | None,
    *,
    project_id: int | None,
    action: str,
    resource_type: str,
    entries: list[tuple[int | None, Any, Any]],
) -> None:
    """One entry per (resource id, before, after), in one INSERT."""
    if not entries:
        return
    session.execute(
        insert(AuditEntry),
        [
            {
                "project_id": project_id,
                "actor_user_id": principal.user.id if principal else None,
                "actor_token_id": principal.token.id if principal and principal.token else None,
                "actor": principal.label if principal else "system",
                "action": action,
                "resource_type": resource_type,
                "resource_id": resource_id,
                "before": before,
                "after": after,
            }
            for resource_id, before, after in entries
        ],
    )


def list_for_account(session: Session, user_id: int, *, page: int, limit: int) -> Page[AuditEntry]:
    """Changes outside any project made by this user: registration, API tokens, catalog entries."""
    stmt = select(AuditEntry).where(AuditEntry.project_id.is_(None), AuditEntry.actor_user_id == user_id)
    return paginate(session, stmt.order_by(AuditEntry.id.desc()), page=page, limit=limit)
