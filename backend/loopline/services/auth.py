"""Accounts: registration, password login with session cookies, API tokens."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from loopline.db.models import ApiToken, AuthSession, User
from loopline.db.repositories import Page, paginate
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.domain.passwords import weakness
from loopline.services import audit
from loopline.services.access import Forbidden, Principal, Scope, Unauthenticated
from loopline.services.security import hash_password, hash_secret, new_secret, verify_password

SESSION_PREFIX = "lls_"
TOKEN_PREFIX = "llt_"  # noqa: S105 - a public prefix, not a secret
LAST_USED_EVERY = timedelta(minutes=1)
"""How stale a token's `last_used_at` may be: it is written at most this often."""


def _now() -> datetime:
    return datetime.now(UTC)


def register(
    session: Session, email: str, password: str, display_name: str = "", *, check_strength: bool = True
) -> User:
    """`check_strength=False` only for seeded accounts with a documented password."""
    email = email.strip().lower()
    if check_strength and (reason := weakness(password, hints=(email, display_name))):
        raise DomainError("password", reason)
    if session.execute(select(User.id).where(User.email == email)).first():
        raise Conflict("email", f"an account with the email {email!r} already exists")
    user = User(email=email, display_name=display_name or email.split("@")[0], password_hash=hash_password(password))
    session.add(user)
    session.flush()
    audit.record(
        session,
        Principal(user),
        project_id=None,
        action="register",
        resource_type="user",
        resource_id=user.id,
        after={"email": email},
    )
    return user


def register_if_new(session: Session, email: str, password: str, display_name: str = "") -> User | None:
    """Create the account if no account has this email; None if one has. Both ways cost the same
    (the password is judged and hashed either way, one INSERT ... ON CONFLICT DO NOTHING), so
    neither the answer nor its time tells whether the address is registered."""
    email = email.strip().lower()
    if reason := weakness(password, hints=(email, display_name)):
        raise DomainError("password", reason)
    password_hash = hash_password(password)
    user_id = session.execute(
        pg_insert(User)
        .values(email=email, display_name=display_name or email.split("@")[0], password_hash=password_hash)
        .on_conflict_do_nothing(index_elements=[User.email])
        .returning(User.id)
    ).scalar()
    if user_id is None:
        return None
    user = session.get_one(User, user_id)
    audit.record(
        session,
        Principal(user),
        project_id=None,
        action="register",
        resource_type="user",
        resource_id=user.id,
        after={"email": email},
    )
    return user


def authenticate(session: Session, email: str, password: str) -> User:
    user = session.execute(select(User).where(User.email == email.strip().lower())).scalar_one_or_none()
    if not verify_password(user.password_hash if user else None, password) or user is None:
        raise Unauthenticated("password", "unknown email or wrong password")
    return user


def open_session(session: Session, user: User, ttl_hours: int) -> str:
    """A new browser session; returns the secret for the cookie (only its hash is stored).
    Sessions that have expired, anyone's, are deleted on the way: logins keep the table clean."""
    session.execute(delete(AuthSession).where(AuthSession.expires_at <= _now()))
    secret = new_secret(SESSION_PREFIX)
    session.add(
        AuthSession(user_id=user.id, token_hash=hash_secret(secret), expires_at=_now() + timedelta(hours=ttl_hours))
    )
    session.flush()
    return secret


def close_session(session: Session, secret: str) -> None:
    session.execute(delete(AuthSession).where(AuthSession.token_hash == hash_secret(secret)))


def principal_from_cookie(session: Session, secret: str) -> Principal | None:
    row = session.execute(
        select(User, AuthSession.expires_at)
        .join(AuthSession, AuthSession.user_id == User.id)
        .where(AuthSession.token_hash == hash_secret(secret))
    ).first()
    if row is None or row[1] <= _now():
        return None
    return Principal(row[0])


def principal_from_token(session: Session, secret: str) -> Principal | None:
    row = session.execute(
        select(ApiToken, User).join(User, User.id == ApiToken.user_id).where(ApiToken.token_hash == hash_secret(secret))
    ).first()
    if row is None:
        return None
    token, user = row
    now = _now()
    if token.revoked_at is not None or (token.expires_at is not None and token.expires_at <= now):
        return None
    # At most once a minute (a write per request slowed every token request), without touching
    # the ORM state (and without a version bump).
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        session.execute(update(ApiToken).where(ApiToken.id == token.id).values(last_used_at=now))
    return Principal(user, token, frozenset(Scope(s) for s in token.scopes))


def _require_session(principal: Principal) -> None:
    if principal.token is not None:
        raise Forbidden("authorization", "API tokens are managed with a browser session, not with another token")


def create_token(
    session: Session, principal: Principal, name: str, scopes: Iterable[Scope], expires_in_days: int | None = None
) -> tuple[ApiToken, str]:
    _require_session(principal)
    secret = new_secret(TOKEN_PREFIX)
    token = ApiToken(
        user_id=principal.user.id,
        name=name,
        prefix=secret[:10],
        token_hash=hash_secret(secret),
        scopes=sorted({s.value for s in scopes}),
        expires_at=_now() + timedelta(days=expires_in_days) if expires_in_days else None,
    )
    session.add(token)
    session.flush()
    audit.record(
        session,
        principal,
        project_id=None,
        action="create",
        resource_type="api_token",
        resource_id=token.id,
        after={"name": token.name, "scopes": token.scopes, "prefix": token.prefix},
    )
    return token, secret


def list_tokens(session: Session, principal: Principal, *, page: int, limit: int) -> Page[ApiToken]:
    stmt = select(ApiToken).where(ApiToken.user_id == principal.user.id).order_by(ApiToken.id)
    return paginate(session, stmt, page=page, limit=limit)


def revoke_token(session: Session, principal: Principal, token_id: int) -> None:
    _require_session(principal)
    token = session.get(ApiToken, token_id)
    if token is None or token.user_id != principal.user.id:
        raise NotFound("token_id", f"API token {token_id} not found")
    if token.revoked_at is None:
        token.revoked_at = _now()
        session.flush()
        audit.record(
            session,
            principal,
            project_id=None,
            action="revoke",
            resource_type="api_token",
            resource_id=token.id,
            before={"name": token.name, "scopes": token.scopes},
        )
