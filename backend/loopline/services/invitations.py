"""Invitations to a project: the only way an owner adds someone.

An owner invites an address with a role; the answer is the same whether or not the address has an
account here (nothing in it depends on the users table), so inviting tells nobody who is
registered. The invitation carries a secret shown once to the owner as a link (`/invite#<secret>`;
there is no mail here, a real deployment would send it); only its SHA-256 hash is stored. Whoever
logs in (or registers, then logs in) with the invited address and opens the link accepts it and
becomes a member with the role. Invitations expire after INVITATION_TTL and can be revoked.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from loopline.db.models import Invitation, Membership, Project, Role, User
from loopline.db.repositories import Page
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.services import audit
from loopline.services.access import Forbidden, Principal, ProjectAccess
from loopline.services.mutations import Target, audited_update
from loopline.services.projects import Member
from loopline.services.security import hash_secret, new_secret

INVITATION_PREFIX = "lli_"
INVITATION_TTL = timedelta(days=7)
"""Long enough for a colleague to get round to it, short enough that a forgotten link dies."""
ACCEPT_PATH = "/invite#"
"""The link's secret travels in the fragment: browsers do not send it to the server or in `Referer`."""


def _now() -> datetime:
    return datetime.now(UTC)


def _status(inv: Invitation, now: datetime) -> str:
    if inv.accepted_at is not None:
        return "accepted"
    if inv.revoked_at is not None:
        return "revoked"
    return "expired" if inv.expires_at <= now else "pending"


@dataclass(frozen=True, slots=True)
class InvitationView:
    """An invitation as its project's owners see it (never the secret, which only its hash keeps)."""

    id: int
    email: str
    role: Role
    status: str
    created_at: datetime
    expires_at: datetime
    version: int

    @classmethod
    def of(cls, inv: Invitation, now: datetime | None = None) -> InvitationView:
        return cls(
            inv.id, inv.email, inv.role, _status(inv, now or _now()), inv.created_at, inv.expires_at, inv.version
        )


@dataclass(frozen=True, slots=True)
class NewInvitation:
    """The answer to an invitation: the view and the link's secret, shown this once."""

    invitation: InvitationView
    token: str

    @property
    def accept_path(self) -> str:
        return ACCEPT_PATH + self.token


@dataclass(frozen=True, slots=True)
class InvitationPreview:
    """What the holder of a link may see before accepting: where it leads and for whom."""

    project_name: str
    email: str
    role: Role
    expires_at: datetime


def _snapshot(inv: Invitation) -> dict[str, Any]:
    return {
        "id": inv.id,
        "email": inv.email,
        "role": inv.role.value,
        "expires_at": inv.expires_at.isoformat(),
        "accepted_at": inv.accepted_at.isoformat() if inv.accepted_at else None,
        "revoked_at": inv.revoked_at.isoformat() if inv.revoked_at else None,
        "version": inv.version,
    }


def _normalise(email: str) -> str:
    email = email.strip().lower()
    local, at, domain = email.partition("@")
    if not at or not local or "." not in domain or " " in email:
        raise DomainError("email", f"{email!r} is not an email address")
    return email


def invite(session: Session, access: ProjectAccess, email: str, role: Role) -> NewInvitation:
    """A new pending invitation; an older pending one for the same address is revoked (the new link
    replaces it). Refused only for what the owner already sees: an address among the members."""
    email = _normalise(email)
    member = session.execute(
        select(Membership.id)
        .join(User, User.id == Membership.user_id)
        .where(Membership.project_id == access.project_id, User.email == email)
    ).first()
    if member is not None:
        raise Conflict("email", f"{email} is already a member of this project; change their role instead")
    now = _now()
    session.execute(
        update(Invitation)
        .where(
            Invitation.project_id == access.project_id,
            Invitation.email == email,
            Invitation.accepted_at.is_(None),
            Invitation.revoked_at.is_(None),
        )
        .values(revoked_at=now, version=Invitation.version + 1)
        .execution_options(synchronize_session=False)
    )
    secret = new_secret(INVITATION_PREFIX)
    inv = Invitation(
        project_id=access.project_id,
        email=email,
        role=role,
        token_hash=hash_secret(secret),
        invited_by_user_id=access.principal.user.id,
        created_at=now,
        expires_at=now + INVITATION_TTL,
    )
    session.add(inv)
    session.flush()
    session.refresh(inv)
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="invite",
        resource_type="invitation",
        resource_id=inv.id,
        after=_snapshot(inv),
    )
    return NewInvitation(InvitationView.of(inv, now), secret)


def list_invitations(
    session: Session, project_id: int, *, page: int, limit: int, include_closed: bool = False
) -> Page[InvitationView]:
    """Pending (and expired, not yet revoked) invitations, newest first; `include_closed` adds the
    accepted and revoked ones."""
    where = [Invitation.project_id == project_id]
    if not include_closed:
        where += [Invitation.accepted_at.is_(None), Invitation.revoked_at.is_(None)]
    total = int(session.execute(select(func.count()).select_from(Invitation).where(*where)).scalar_one())
    rows = session.execute(
        select(Invitation).where(*where).order_by(Invitation.id.desc()).limit(limit).offset((page - 1) * limit)
    ).scalars()
    now = _now()
    return Page(items=[InvitationView.of(i, now) for i in rows], total=total, page=page, limit=limit)


def revoke(session: Session, access: ProjectAccess, invitation_id: int, if_match: int) -> None:
    inv = session.execute(
        select(Invitation).where(Invitation.id == invitation_id, Invitation.project_id == access.project_id)
    ).scalar_one_or_none()
    if inv is None:
        raise NotFound("invitation_id", f"invitation {invitation_id} not found in project {access.project_id}")
    if inv.accepted_at is not None:
        raise Conflict("invitation_id", f"invitation {invitation_id} was already accepted: remove the member instead")

    def change(i: Invitation) -> None:
        i.revoked_at = i.revoked_at or _now()

    audited_update(
        session,
        inv,
        if_match,
        Target(access.principal, access.project_id, "invitation", inv.id, f"invitation {inv.id}"),
        snapshot=_snapshot,
        change=change,
        action="revoke",
    )


def _usable(session: Session, secret: str, *, lock: bool = False) -> Invitation:
    """The pending invitation behind a link. One answer for every way a link is unusable (unknown,
    expired, revoked, used): the holder learns nothing else from it."""
    stmt = select(Invitation).where(Invitation.token_hash == hash_secret(secret.strip()))
    inv = session.execute(stmt.with_for_update() if lock else stmt).scalar_one_or_none()
    if inv is None or _status(inv, _now()) != "pending":
        raise NotFound("token", "this invitation link is unknown, expired, revoked or already used: ask for a new one")
    return inv


def preview(session: Session, secret: str) -> InvitationPreview:
    inv = _usable(session, secret)
    project = session.get_one(Project, inv.project_id)
    return InvitationPreview(project.name, inv.email, inv.role, inv.expires_at)


@dataclass(frozen=True, slots=True)
class Accepted:
    project_id: int
    project_name: str
    role: Role


def accept(session: Session, principal: Principal, secret: str) -> Accepted:
    """The logged-in user joins the project with the invited role, if the invitation is for their
    address. Someone already a member keeps the higher of the two roles (an invitation never
    demotes). Browser sessions only: a program does not accept invitations on a person's behalf."""
    if principal.token is not None:
        raise Forbidden("authorization", "invitations are accepted with a browser session, not with an API token")
    inv = _usable(session, secret, lock=True)
    if inv.email != principal.user.email:
        raise Forbidden(
            "token", f"this invitation is for {inv.email}; you are logged in as {principal.user.email}: log in as "
            f"{inv.email} (or register that address) to accept it"
        )  # fmt: skip
    session.execute(select(Project.id).where(Project.id == inv.project_id).with_for_update(key_share=True))
    membership = session.execute(
        select(Membership).where(Membership.project_id == inv.project_id, Membership.user_id == principal.user.id)
    ).scalar_one_or_none()
    joined = membership is None
    if membership is None:
        membership = Membership(project_id=inv.project_id, user_id=principal.user.id, role=inv.role)
        session.add(membership)
    elif membership.role.rank < inv.role.rank:
        membership.role = inv.role
        membership.version += 1
    inv.accepted_at = _now()
    inv.accepted_user_id = principal.user.id
    inv.version += 1
    session.flush()
    audit.record(
        session,
        principal,
        project_id=inv.project_id,
        action="accept",
        resource_type="invitation",
        resource_id=inv.id,
        after={**_snapshot(inv), "member": {"user_id": principal.user.id, "role": membership.role.value}},
    )
    if joined:
        # The same entry an owner's change of members leaves, so the member history is one list.
        audit.record(
            session,
            principal,
            project_id=inv.project_id,
            action="create",
            resource_type="member",
            resource_id=principal.user.id,
            after=asdict(Member.of(membership, principal.user)),
        )
    project = session.get_one(Project, inv.project_id)
    return Accepted(project.id, project.name, membership.role)
