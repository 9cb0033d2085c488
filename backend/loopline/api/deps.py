"""Shared FastAPI dependencies: the request's transaction, who is calling, and project guards.

    access: LayoutWriter            # editor role and the layout:write scope, on the project in the path
    access: Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.WIRING_READ))]

A guard finds the project through the first path parameter it knows (`project_id`, `hall_id`,
`row_id`, `rack_id`; others register a resolver with `register_project_resolver`). It answers 401
without credentials, 404 when the resource does not exist or the caller is not a member, 403 when
the role is too low or an API token lacks the scope.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Annotated

from fastapi import Depends, Header, Path, Query, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.api.schemas.common import MAX_ID
from loopline.db.models import Hall, Membership, Rack, Role, Row
from loopline.db.session import session_scope
from loopline.domain.errors import DomainError, NotFound
from loopline.services import auth
from loopline.services.access import Principal, ProjectAccess, Scope, Unauthenticated, check_role

SESSION_COOKIE = "loopline_session"


def get_db_session() -> Iterator[Session]:
    """One transaction per request: commit when the handler returns, roll back if it raises."""
    with session_scope() as session:
        yield session


DbSession = Annotated[Session, Depends(get_db_session)]

_cookie = APIKeyCookie(name=SESSION_COOKIE, auto_error=False, description="Browser session (set by /auth/login).")
_bearer = HTTPBearer(auto_error=False, description="API token: `Authorization: Bearer llt_...`.")


SessionCookie = Annotated[str | None, Depends(_cookie)]
BearerToken = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def get_principal(session: DbSession, cookie: SessionCookie, bearer: BearerToken) -> Principal:
    return principal_of(session, cookie, bearer)


def principal_of(session: Session, cookie: str | None, bearer: HTTPAuthorizationCredentials | None) -> Principal:
    """The caller named by an API token or a session cookie (the token first), or 401."""
    if bearer is not None:
        principal = auth.principal_from_token(session, bearer.credentials)
        if principal is None:
            raise Unauthenticated("authorization", "invalid, expired or revoked API token")
        return principal
    if cookie:
        principal = auth.principal_from_cookie(session, cookie)
        if principal is not None:
            return principal
    raise Unauthenticated("authorization", "log in (session cookie) or send `Authorization: Bearer <API token>`")


CurrentUser = Annotated[Principal, Depends(get_principal)]
"""The caller: `.user`, `.token` (None for a browser session), `.scopes`."""


def require_scope(scope: Scope) -> Callable[[Principal], Principal]:
    """For routes outside a project (catalog, tokens): the caller must hold `scope`."""

    def dependency(principal: CurrentUser) -> Principal:
        principal.require_scope(scope)
        return principal

    return dependency


ProjectResolver = Callable[[Session, int], int | None]
_RESOLVERS: dict[str, ProjectResolver] = {}


def register_project_resolver(path_param: str, resolver: ProjectResolver) -> None:
    """Teach the guards how to find the project of a new kind of resource (e.g. `plan_id`)."""
    _RESOLVERS[path_param] = resolver


register_project_resolver("project_id", lambda _s, pid: pid)
register_project_resolver("hall_id", lambda s, i: s.execute(select(Hall.project_id).where(Hall.id == i)).scalar())
register_project_resolver(
    "row_id",
    lambda s, i: s.execute(select(Hall.project_id).join(Row, Row.hall_id == Hall.id).where(Row.id == i)).scalar(),
)
register_project_resolver(
    "rack_id",
    lambda s, i: s.execute(select(Hall.project_id).join(Rack, Rack.hall_id == Hall.id).where(Rack.id == i)).scalar(),
)


def resolve_project_id(session: Session, path_params: dict[str, str]) -> int:
    for name, resolver in _RESOLVERS.items():
        if name in path_params:
            try:
                value = int(path_params[name])
            except ValueError:
                raise DomainError(name, "must be an integer") from None
            # Ids are PostgreSQL integers: a larger one names nothing (and must not reach a query).
            project_id = resolver(session, value) if 1 <= value <= MAX_ID else None
            if project_id is None:
                raise NotFound(name, f"{name.removesuffix('_id')} {value} not found")
            return project_id
    raise RuntimeError("a project guard needs a project-scoped path parameter")


def require_project_role(role: Role, scope: Scope | None = None) -> Callable[..., ProjectAccess]:
    """A dependency checking the caller's role in the path's project (and the token scope)."""

    def dependency(request: Request, session: DbSession, principal: CurrentUser) -> ProjectAccess:
        project_id = resolve_project_id(session, request.path_params)
        member_role = session.execute(
            select(Membership.role).where(Membership.project_id == project_id, Membership.user_id == principal.user.id)
        ).scalar()
        check_role(member_role, role, project_id)
        principal.require_scope(scope)
        assert member_role is not None
        return ProjectAccess(project_id, principal, member_role)

    return dependency


LayoutReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.LAYOUT_READ))]
LayoutWriter = Annotated[ProjectAccess, Depends(require_project_role(Role.EDITOR, Scope.LAYOUT_WRITE))]
ProjectOwner = Annotated[ProjectAccess, Depends(require_project_role(Role.OWNER, Scope.LAYOUT_WRITE))]
AuditReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.AUDIT_READ))]


class PreconditionRequired(DomainError):
    status = 428


IF_MATCH_PATTERN = r'^(W/)?("[0-9]{1,9}"|[0-9]{1,9})$'
"""What `If-Match` accepts (the OpenAPI document declares it): a version of ASCII digits, quoted or
not, weak or not. Nine digits at most, so the version and the next one are PostgreSQL integers."""
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


def require_if_match(
    if_match: Annotated[
        str | None,
        Header(
            alias="If-Match",
            description='The version (ETag) you read, e.g. `"3"`; a stale one gets 409.',
            examples=['"1"'],
        ),
    ] = None,
) -> int:
    if if_match is None:
        raise PreconditionRequired("If-Match", "send the version you read (the ETag) in If-Match for this write")
    # Only ASCII digits: str.isdigit() also takes "²", which int() then refuses.
    found = _IF_MATCH.fullmatch(if_match.strip())
    if found is None:
        shown = if_match if len(if_match) <= 40 else f"{if_match[:40]}... ({len(if_match)} characters)"
        raise DomainError("If-Match", f'expected a version number like "3", got {shown!r}')
    return int(found[2].strip('"'))


IfMatch = Annotated[int, Depends(require_if_match)]


def etag(version: int) -> str:
    return f'"{version}"'


class PageParams:
    def __init__(self, page: int = 1, limit: int = 50) -> None:
        self.page = page
        self.limit = limit


def page_params(
    page: Annotated[int, Query(ge=1, le=100000, description="Page number, from 1.")] = 1,
    limit: Annotated[int, Query(ge=1, le=500, description="Items per page.")] = 50,
) -> PageParams:
    return PageParams(page, limit)


Paging = Annotated[PageParams, Depends(page_params)]


ProjectId = Annotated[int, Path(ge=1, le=MAX_ID, description="Project id.", examples=[1])]
HallId = Annotated[int, Path(ge=1, le=MAX_ID, description="Hall id.", examples=[1])]
RowId = Annotated[int, Path(ge=1, le=MAX_ID, description="Row id.", examples=[1])]
RackId = Annotated[int, Path(ge=1, le=MAX_ID, description="Physical rack id.", examples=[1])]
UserId = Annotated[int, Path(ge=1, le=MAX_ID, description="User id.", examples=[2])]
TokenId = Annotated[int, Path(ge=1, le=MAX_ID, description="API token id.", examples=[1])]
EntryId = Annotated[int, Path(ge=1, le=MAX_ID, description="Catalog entry id.", examples=[1])]
PlanId = Annotated[int, Path(ge=1, le=MAX_ID, description="Wiring plan id.", examples=[1])]
JobId = Annotated[int, Path(ge=1, le=MAX_ID, description="Simulation job id.", examples=[1])]
