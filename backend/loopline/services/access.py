"""Who is acting and what they may do: scopes, roles, the acting principal.

A browser session acts with the user's project role and every scope. An API token acts with
min(role, scopes): it needs the scope for the kind of access *and* the user needs the role.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from loopline.db.models import ApiToken, Role, User
from loopline.domain.errors import DomainError


class Scope(enum.StrEnum):
    """Every API-token scope; later resources (wiring, BOM, simulations) reuse these."""

    LAYOUT_READ = "layout:read"
    LAYOUT_WRITE = "layout:write"
    BOM_READ = "bom:read"
    PRICE_WRITE = "price:write"
    """Edit the project price book (reading it, like the BOMs it prices, is `bom:read`)."""
    WIRING_READ = "wiring:read"
    WIRING_WRITE = "wiring:write"
    SIM_READ = "sim:read"
    SIM_WRITE = "sim:write"
    TOKENS_READ = "tokens:read"
    """List the account's API tokens (creating and revoking them takes a browser session)."""
    AUDIT_READ = "audit:read"
    """Read audit logs: a project's and the account's own (they hold the before/after of every
    change, price books and token names included, so no other scope implies them)."""


ALL_SCOPES: frozenset[Scope] = frozenset(Scope)


class Unauthenticated(DomainError):
    """No valid session cookie or bearer token: 401."""

    status = 401


class Forbidden(DomainError):
    """Authenticated, but the role or the token's scopes do not allow this: 403."""

    status = 403


@dataclass(frozen=True)
class Principal:
    user: User
    token: ApiToken | None = None
    scopes: frozenset[Scope] = field(default=ALL_SCOPES)

    @property
    def label(self) -> str:
        """How the audit log names the actor."""
        if self.token is None:
            return self.user.email
        return f"{self.user.email} (token {self.token.name!r})"

    def require_scope(self, scope: Scope | None) -> None:
        if scope is not None and scope not in self.scopes:
            raise Forbidden("authorization", f"this API token lacks the {scope.value!r} scope")


@dataclass(frozen=True)
class ProjectAccess:
    """What a guard hands to a route: the project, the principal and its role there."""

    project_id: int
    principal: Principal
    role: Role


def check_role(role: Role | None, needed: Role, project_id: int) -> Role:
    from loopline.domain.errors import NotFound

    if role is None:
        # Not a member: the project does not exist for this user.
        raise NotFound("project_id", f"project {project_id} not found")
    if role.rank < needed.rank:
        raise Forbidden(
            "project_id", f"this needs the {needed.value!r} role in project {project_id}; you are {role.value!r}"
        )
    return role
