"""`/api/v1/projects`: projects, members, fabric settings, audit log, export and import."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response, status
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from loopline.api.deps import (
    AuditReader,
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
from loopline.api.schemas.common import ERROR_RESPONSES, MAX_ID, ErrorBody, Page
from loopline.api.schemas.exchange import ImportResult, ProjectDocument
from loopline.api.schemas.project_imports import ImportJobRead, validation_errors
from loopline.api.schemas.projects import (
    AuditRead,
    FabricSettingsIn,
    FabricSettingsRead,
    FabricSettingsUpdate,
    InvitationCreate,
    InvitationCreated,
    InvitationRead,
    MemberRead,
    MemberUpdate,
    ProjectCreate,
    ProjectRead,
    ProjectUpdate,
)
from loopline.db.models import Role
from loopline.services import audit, exchange, invitations, project_imports, projects
from loopline.services.access import Principal, Scope

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


IMPORT_DESCRIPTION = f"""Creates a new project (you own it) from a project document (the body of `GET
/projects/{{id}}/export`). Catalog entries are matched by name among the global ones and yours:
identical ones are reused, missing ones created as yours; a different entry under the same name is
a 409. The whole import is one transaction: a failure leaves nothing behind.

- **Small documents** (at most {project_imports.INLINE_MAX_HALLS} halls and
  {project_imports.INLINE_MAX_RACKS:,} racks) are imported in the request: **201** with the new
  project's id.
- **Larger documents** (up to {project_imports.MAX_HALLS:,} halls and {project_imports.MAX_RACKS:,}
  racks; beyond, **413**), and any document sent with `Prefer: respond-async` or an
  `Idempotency-Key`, become an **import job**: the request checks only the document's outline
  (format, version, project name, the halls/rows/racks lists) and answers **202** with the job and
  a `Location` header; a worker validates and imports it. Poll `GET /api/v1/projects/imports/{{id}}`
  (every second or so) for `status`, `progress` (`halls_done / halls_total`), then `project_id` or
  `errors` (each naming the field of the document)."""

Prefer = Annotated[
    str | None,
    Header(
        description="`respond-async` makes even a small document an import job (202), e.g. to show progress.",
        examples=["respond-async"],
    ),
]
ImportKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=200,
        description="Sending the same document twice with the same key returns the first import job instead "
        "of a second import; the key reused for a different document is refused (422). Implies a job.",
    ),
]
ImportId = Annotated[int, Path(ge=1, le=MAX_ID, description="Import job id.", examples=[7])]


async def _raw_body(request: Request) -> bytes:
    """The body as sent: a large document is only outlined here, and stored as it came."""
    return await request.body()


def _parse_json(raw: bytes) -> object:
    if not raw.strip():
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}])
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as err:
        raise RequestValidationError(
            [{"type": "json_invalid", "loc": ("body", err.pos), "msg": f"JSON decode error: {err.msg}"}]
        ) from None


def _validate(document: object) -> ProjectDocument:
    try:
        return ProjectDocument.model_validate(document)
    except ValidationError as err:
        raise RequestValidationError(validation_errors(err, prefix=("body",))) from None


@router.post(
    "/import",
    status_code=status.HTTP_201_CREATED,
    response_model=None,
    summary="Import a project document as a new project (a job for large documents)",
    description=IMPORT_DESCRIPTION,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ProjectDocument"}}},
        }
    },
    responses={
        201: {"model": ImportResult, "description": "Imported in the request (a small document)."},
        202: {
            "model": ImportJobRead,
            "description": "Queued as an import job: poll the `Location`.",
            "headers": {
                "Location": {"description": "The job: `/api/v1/projects/imports/{id}`.", "schema": {"type": "string"}}
            },
        },
        413: {
            "model": ErrorBody,
            "description": "The body is larger than the API accepts, or the document holds more than "
            f"{project_imports.MAX_HALLS:,} halls or {project_imports.MAX_RACKS:,} racks.",
        },
    },
)
def import_project(
    raw: Annotated[bytes, Depends(_raw_body)],
    session: DbSession,
    principal: CurrentUser,
    response: Response,
    prefer: Prefer = None,
    key: ImportKey = None,
) -> ImportResult | ImportJobRead:
    principal.require_scope(Scope.LAYOUT_WRITE)
    document = _parse_json(raw)
    outline = project_imports.envelope(document)
    if outline.inline and key is None and "respond-async" not in (prefer or "").lower():
        project, halls, racks = exchange.import_project(session, principal, _validate(document).to_import())
        return ImportResult(project_id=project.id, halls=halls, racks=racks)
    job = project_imports.submit(session, principal, raw, outline, key)
    response.status_code = status.HTTP_202_ACCEPTED
    response.headers["Location"] = f"/api/v1/projects/imports/{job.id}"
    return ImportJobRead.model_validate(job)


def _may_read_imports(principal: Principal) -> None:
    # Whoever may send an import may follow it: a token with layout:write alone included.
    if Scope.LAYOUT_WRITE not in principal.scopes:
        principal.require_scope(Scope.LAYOUT_READ)


@router.get(
    "/imports",
    response_model=Page[ImportJobRead],
    summary="Your import jobs, newest first",
)
def list_imports(session: DbSession, principal: CurrentUser, paging: Paging) -> object:
    _may_read_imports(principal)
    return project_imports.list_jobs(session, principal, page=paging.page, limit=paging.limit)


@router.get(
    "/imports/{import_id}",
    response_model=ImportJobRead,
    summary="An import job: state, progress, the new project or the errors",
    description="Only the user who sent the import sees it (anyone else gets 404). Poll it about once a second "
    "until `status` is `succeeded` (then `project_id` is the new project) or `failed` (then `errors` name the "
    "fields).",
)
def get_import(import_id: ImportId, session: DbSession, principal: CurrentUser, response: Response) -> object:
    _may_read_imports(principal)
    job = project_imports.get_job(session, principal, import_id)
    response.headers["ETag"] = etag(job.version)
    return job


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


# ---------------------------------------------------------------- invitations

InvitationId = Annotated[int, Path(ge=1, le=MAX_ID, description="Invitation id.", examples=[3])]


@router.post(
    "/{project_id}/invitations",
    response_model=InvitationCreated,
    status_code=status.HTTP_201_CREATED,
    summary="Invite an address with a role (owner); the link is shown once",
)
def invite(project_id: ProjectId, data: InvitationCreate, session: DbSession, access: ProjectOwner) -> object:
    """The answer is the same whether or not the address has an account here (201, the same fields;
    only the id, times and secret differ, as between any two invitations), so inviting does not tell
    who is registered. Hand the invitee the link (`accept_path` on the editor's address): they log in,
    or register and log in, with the invited address and accept it. It expires after 7 days; a new
    invitation to the same address replaces a pending one. 409 only for an address that is already a
    member (which the owner sees in the member list anyway)."""
    created = invitations.invite(session, access, data.email, data.role)
    return InvitationCreated.model_validate(
        {**vars_of(created.invitation), "token": created.token, "accept_path": created.accept_path}
    )


def vars_of(view: invitations.InvitationView) -> dict[str, object]:
    return {name: getattr(view, name) for name in InvitationRead.model_fields}


@router.get(
    "/{project_id}/invitations",
    response_model=Page[InvitationRead],
    summary="Invitations not yet accepted or revoked (owner), newest first",
)
def list_invitations(project_id: ProjectId, session: DbSession, access: ProjectOwner, paging: Paging) -> object:
    return invitations.list_invitations(session, project_id, page=paging.page, limit=paging.limit)


@router.delete(
    "/{project_id}/invitations/{invitation_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    summary="Revoke an invitation (owner): its link stops working",
    responses={428: ERROR_RESPONSES[428]},
)
def revoke_invitation(
    project_id: ProjectId, invitation_id: InvitationId, session: DbSession, access: ProjectOwner, if_match: IfMatch
) -> None:
    invitations.revoke(session, access, invitation_id, if_match)


# ---------------------------------------------------------------- audit


@router.get("/{project_id}/audit", response_model=Page[AuditRead], summary="Every change in the project, newest first")
def list_audit(
    project_id: ProjectId,
    session: DbSession,
    access: AuditReader,
    paging: Paging,
    resource_type: Annotated[str | None, Query(description="Only this kind of resource, e.g. `rack`.")] = None,
) -> object:
    """Any member; a token needs the `audit:read` scope."""
    return audit.list_for_project(
        session, project_id, page=paging.page, limit=paging.limit, resource_type=resource_type
    )
