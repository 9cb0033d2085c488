"""`/api/v1/auth`: open registration, password login (httpOnly session cookie), logout, me."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Cookie, Depends, Request, Response, status

from loopline.api.deps import (
    SESSION_COOKIE,
    BearerToken,
    CurrentUser,
    DbSession,
    Paging,
    SessionCookie,
    principal_of,
    require_scope,
)
from loopline.api.schemas.auth import LoginIn, MeRead, RegisterAccepted, RegisterIn, UserRead
from loopline.api.schemas.common import ERROR_RESPONSES, Page
from loopline.api.schemas.projects import AuditRead, InvitationAccepted, InvitationPreviewRead, InvitationToken
from loopline.db.models import User
from loopline.services import audit, auth, invitations
from loopline.services.access import Principal, Scope, Unauthenticated
from loopline.services.login_throttle import LoginThrottle, RegistrationThrottle
from loopline.settings import get_settings

router = APIRouter(prefix="/api/v1/auth", tags=["auth"], responses={422: ERROR_RESPONSES[422]})


def _set_cookie(response: Response, secret: str) -> None:
    settings = get_settings()
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=settings.session_ttl_hours * 3600,
        httponly=True,
        samesite="lax",
        secure=settings.session_cookie_secure or not settings.local,
        path="/",
    )


REGISTERED = "If this address is new, its account has been created: log in with the same email and password."


@lru_cache
def _registrations(broker_url: str) -> RegistrationThrottle:
    return RegistrationThrottle.of(broker_url)


@router.post(
    "/register",
    response_model=RegisterAccepted,
    status_code=status.HTTP_202_ACCEPTED,
    summary="Create an account (then log in)",
    responses={429: ERROR_RESPONSES[429]},
)
def register(data: RegisterIn, session: DbSession, request: Request) -> RegisterAccepted:
    """Open registration: anyone can create an account; a new account sees only projects it creates or
    is added to by an owner.

    The answer is the same whether or not the address already has an account (202, same body, no
    cookie, about the same time), so registration does not tell who has an account here. Log in next
    (`POST /auth/login`) with the same email and password: it succeeds if the account was created (or
    already had that password) and fails like any wrong password otherwise. A real deployment would
    confirm the address by email instead (see README, Accounts). A weak password is refused (422) either
    way; more than 10 registrations from one address in 15 minutes wait, doubling (429 + `Retry-After`)."""
    address = request.client.host if request.client else "unknown"
    _registrations(get_settings().broker_url).attempt(address)
    auth.register_if_new(session, data.email, data.password, data.display_name)
    return RegisterAccepted(email=data.email.strip().lower(), detail=REGISTERED)


@lru_cache
def _throttle(broker_url: str) -> LoginThrottle:
    return LoginThrottle.of(broker_url)


@router.post(
    "/login",
    response_model=UserRead,
    summary="Log in with email and password",
    responses={401: ERROR_RESPONSES[401], 429: ERROR_RESPONSES[429]},
)
def login(data: LoginIn, session: DbSession, request: Request, response: Response) -> User:
    """Sets the `loopline_session` cookie (httpOnly, SameSite=Lax). After 5 failed logins on an account
    (or 20 from one address) within 15 minutes, each further attempt must wait twice as long as the last
    (2 s, 4 s, ... at most a minute per account, 15 minutes per address): sooner, it is answered 429
    with `Retry-After`. While attempts cannot be counted (the broker is down), 503 with `Retry-After`."""
    throttle = _throttle(get_settings().broker_url)
    address = request.client.host if request.client else "unknown"
    throttle.attempt(data.email, address)  # counted as a failure until the password proves right
    try:
        user = auth.authenticate(session, data.email, data.password)
    except Unauthenticated:
        throttle.failed(data.email, address)
        raise
    throttle.succeeded(data.email, address)
    _set_cookie(response, auth.open_session(session, user, get_settings().session_ttl_hours))
    return user


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT, response_model=None, summary="End the browser session")
def logout(
    session: DbSession,
    response: Response,
    loopline_session: Annotated[str | None, Cookie(description="The session cookie.")] = None,
) -> None:
    if loopline_session:
        auth.close_session(session, loopline_session)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.get("/me", response_model=MeRead, summary="Who is calling", responses={401: ERROR_RESPONSES[401]})
def me(session: DbSession, cookie: SessionCookie, bearer: BearerToken) -> MeRead:
    # Every page asks this first: the caller is found in this handler's own trip to a worker
    # thread, not in one more for a dependency (each trip a wake-up on a busy machine).
    principal = principal_of(session, cookie, bearer)
    return MeRead(
        user=UserRead.model_validate(principal.user),
        via="token" if principal.token else "session",
        scopes=sorted(principal.scopes),
    )


@router.get(
    "/audit",
    response_model=Page[AuditRead],
    summary="Your changes outside projects (tokens, catalog entries), newest first",
    responses={401: ERROR_RESPONSES[401], 403: ERROR_RESPONSES[403]},
)
def my_audit(
    session: DbSession, principal: Annotated[Principal, Depends(require_scope(Scope.AUDIT_READ))], paging: Paging
) -> object:
    """A browser session, or a token with the `audit:read` scope."""
    return audit.list_for_account(session, principal.user.id, page=paging.page, limit=paging.limit)


@router.post(
    "/invitations/preview",
    response_model=InvitationPreviewRead,
    summary="What an invitation link leads to (no login needed)",
    responses={404: ERROR_RESPONSES[404]},
)
def preview_invitation(data: InvitationToken, session: DbSession) -> object:
    """The project, role and invited address behind a link, so its page can say what it is and offer
    to log in or register with that address. A link that is unknown, expired, revoked or used is one
    and the same 404. The secret is sent in the body, never in a URL (logs, history)."""
    return invitations.preview(session, data.token)


@router.post(
    "/invitations/accept",
    response_model=InvitationAccepted,
    summary="Accept an invitation as the logged-in user",
    responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404)},
)
def accept_invitation(data: InvitationToken, session: DbSession, principal: CurrentUser) -> object:
    """Join the project with the invited role. The logged-in account's address must be the invited one
    (403 says which to use); a browser session only. An existing member keeps the higher role."""
    return invitations.accept(session, principal, data.token)
