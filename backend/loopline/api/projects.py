"""`/api/v1/projects`: projects, members, fabric settings, audit log, export and import."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from loopline.api.deps import (
    CurrentUser,
    DbSession,
    IfMatch,
    LayoutReader,
    LayoutWriter,
    Paging,
    ProjectId,
    ProjectOwner,
    UserId,
    etag,
)
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.api.schemas.exchange import ImportResult, ProjectDocument
from loopline.api.schemas.projects import (
    AuditRead,
    FabricSettingsIn,
    FabricSettingsRead,
    FabricSettingsUpdate,
    MemberCreate,
    MemberRead,
    MemberUpdate,
    ProjectCreate,
    ProjectRead,
    ProjectUpdate,
)
from loopline.db.models import Role
from loopline.services import audit, exchange, projects
from loopline.services.access import Scope

router = APIRouter(
    prefix="/api/v1/projects",
    tags=["projects"],
    responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 409, 422)},
)


@router.get("", response_model=Page[ProjectRead], summary="Projects you are a member of")
def list_projects(session: DbSession, principal: CurrentUser, paging: Paging) -> object:
    principal.require_scope(Scope.LAYOUT_READ)
    return projects.list_projects(session, principal, page=paging.page, limit=paging.limit)


@router.post(
    "", response_model=ProjectRead, status_code=status.HTTP_201_CREATED, summary="Create a project (you own it)"
)
def create_project(data: ProjectCreate, session: DbSession, principal: CurrentUser, response: Response) -> object:
    principal.require_scope(Scope.LAYOUT_WRITE)
    fabric = (data.fabric or FabricSettingsIn()).to_domain()
    project = projects.create_project(session, principal, data.name, data.description, fabric)
    response.headers["ETag"] = etag(project.version)
    return projects.ProjectWithRole.of(project, Role.OWNER)


@router.post(
    "/import",
    response_model=ImportResult,
    status_code=status.HTTP_201_CREATED,
    summary="Import a project document as a new project",
)
def import_project(doc: ProjectDocument, session: DbSession, principal: CurrentUser) -> ImportResult:
    """Catalog entries are matched by name: identical ones are reused, missing ones created; a
    different entry under the same name is a 409. The whole import is one transaction."""
    principal.require_scope(Scope.LAYOUT_WRITE)
    project, halls, racks = exchange.import_project(session, principal, doc.to_import())
    return ImportResult(project_id=project.id, halls=halls, racks=racks)


@router.get("/{project_id}", response_model=ProjectRead, summary="Get a project")
def get_project(project_id: ProjectId, session: DbSession, access: LayoutReader, response: Response) -> object:
    project = projects.get_project(session, project_id)
    response.headers["ETag"] = etag(project.version)
    return projects.ProjectWithRole.of(project, access.role)


@router.patch(
    "/{project_id}",
    response_model=ProjectRead,
    summary="Rename or describe a project",
    responses={428: ERROR_RESPONSES[428]},
)
def update_project(
    project_id: ProjectId,
    data: ProjectUpdate,
    session: DbSession,
    access: LayoutWriter,
    if_match: IfMatch,
    response: Response,
) -> object:
    project = projects.update_project(session, access, data.model_dump(exclude_unset=True), if_match)
    response.headers["ETag"] = etag(project.version)
    return projects.ProjectWithRole.of(project, access.role)


@router.delete(
    "/{project_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Delete a project and everything in it (owner)",
    responses={428: ERROR_RESPONSES[428]},
)
def delete_project(project_id: ProjectId, session: DbSession, access: ProjectOwner, if_match: IfMatch) -> None:
    projects.delete_project(session, access, if_match)


@router.get("/{project_id}/export", response_model=ProjectDocument, summary="Export the whole project as one document")
def export_project(project_id: ProjectId, session: DbSession, access: LayoutReader) -> object:
    return exchange.export_project(session, project_id)


# ---------------------------------------------------------------- fabric


@router.get("/{project_id}/fabric", response_model=FabricSettingsRead, summary="Fabric settings and oversubscription")
def get_fabric(project_id: ProjectId, session: DbSession, access: LayoutReader, response: Response) -> object:
    row, loads = projects.fabric_read(session, project_id)
    response.headers["ETag"] = etag(row.version)
    return FabricSettingsRead.of(row, loads)


@router.patch(
    "/{project_id}/fabric",
    response_model=FabricSettingsRead,
    summary="Change fabric settings",
    responses={428: ERROR_RESPONSES[428]},
)
def update_fabric(
    project_id: ProjectId,
    data: FabricSettingsUpdate,
    session: DbSession,
    access: LayoutWriter,
    if_match: IfMatch,
    response: Response,
) -> object:
    row, loads = projects.update_fabric(session, access, data.model_dump(exclude_unset=True), if_match)
    response.headers["ETag"] = etag(row.version)
    return FabricSettingsRead.of(row, loads)


# ---------------------------------------------------------------- members


@router.get("/{project_id}/members", response_model=Page[MemberRead], summary="Members and their roles")
def list_members(project_id: ProjectId, session: DbSession, access: LayoutReader, paging: Paging) -> object:
    return projects.list_members(session, project_id, page=paging.page, limit=paging.limit)


@router.post(
    "/{project_id}/members",
    response_model=MemberRead,
    status_code=status.HTTP_201_CREATED,
    summary="Add a member (owner)",
)
def add_member(project_id: ProjectId, data: MemberCreate, session: DbSession, access: ProjectOwner) -> object:
    return projects.add_member(session, access, data.email, data.role)


@router.patch(
    "/{project_id}/members/{user_id}",
    response_model=MemberRead,
    summary="Change a member's role (owner)",
    responses={428: ERROR_RESPONSES[428]},
)
def update_member(
    project_id: ProjectId,
    user_id: UserId,
    data: MemberUpdate,
    session: DbSession,
    access: ProjectOwner,
    if_match: IfMatch,
) -> object:
    return projects.update_member(session, access, user_id, data.role, if_match)


@router.delete(
    "/{project_id}/members/{user_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Remove a member (owner)",
    responses={428: ERROR_RESPONSES[428]},
)
def remove_member(
    project_id: ProjectId, user_id: UserId, session: DbSession, access: ProjectOwner, if_match: IfMatch
) -> None:
    projects.remove_member(session, access, user_id, if_match)


# ---------------------------------------------------------------- audit


@router.get("/{project_id}/audit", response_model=Page[AuditRead], summary="Every change in the project, newest first")
def list_audit(
    project_id: ProjectId,
    session: DbSession,
    access: LayoutReader,
    paging: Paging,
    resource_type: Annotated[str | None, Query(description="Only this kind of resource, e.g. `rack`.")] = None,
) -> object:
    return audit.list_for_project(
        session, project_id, page=paging.page, limit=paging.limit, resource_type=resource_type
    )
