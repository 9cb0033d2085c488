"""The one shape of a change to a stored, versioned resource: audited, version-checked, flushed.

`audited_update`: 404 is the caller's (it loads the row) -> `If-Match` checked against the row's
version (409 `StaleVersion`) -> snapshot before -> change -> version bumped -> flush -> layout or
other checks -> snapshot after -> one audit entry. `audited_delete` is the same with a delete.
Both run inside the request's transaction: an error anywhere leaves neither change nor entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from loopline.services import audit
from loopline.services.access import Principal
from loopline.services.versioning import Versioned, bump, check_version

V = TypeVar("V", bound=Versioned)


@dataclass(frozen=True, slots=True)
class Target:
    """What the audit entry names: who acts, in which project (None: account-level), on what."""

    principal: Principal | None
    project_id: int | None
    resource_type: str
    resource_id: int
    label: str
    """How the stale-version message names the resource, e.g. ``hall 3``."""


def audited_update(
    session: Session,
    obj: V,
    expected_version: int | None,
    target: Target,
    *,
    snapshot: Callable[[V], Any],
    change: Callable[[V], None],
    check: Callable[[], None] | None = None,
    action: str = "update",
    bump_version: bool = True,
) -> Any:
    """Apply `change` to `obj`; returns the snapshot after it (the one the audit entry keeps).

    `expected_version=None` skips the version check (a state change the client did not version).
    `bump_version=False` when `change` bumps the version itself (a guarded Core UPDATE).
    `check` runs after the flush: the layout rules, which read what was just written.
    """
    check_version(obj, expected_version, target.label)
    before = snapshot(obj)
    change(obj)
    if bump_version:
        bump(obj)
    session.flush()
    if check is not None:
        check()
    after = snapshot(obj)
    audit.record(
        session,
        target.principal,
        project_id=target.project_id,
        action=action,
        resource_type=target.resource_type,
        resource_id=target.resource_id,
        before=before,
        after=after,
    )
    return after


def audited_delete(
    session: Session,
    obj: V,
    expected_version: int | None,
    target: Target,
    *,
    snapshot: Callable[[V], Any],
    guard: Callable[[], None] | None = None,
    remove: Callable[[V], object] | None = None,
) -> None:
    """Delete `obj` (`session.delete`, or `remove` for a guarded Core DELETE); `guard` may refuse first."""
    check_version(obj, expected_version, target.label)
    if guard is not None:
        guard()
    before = snapshot(obj)
    if remove is None:
        session.delete(obj)
    else:
        remove(obj)
    session.flush()
    audit.record(
        session,
        target.principal,
        project_id=target.project_id,
        action="delete",
        resource_type=target.resource_type,
        resource_id=target.resource_id,
        before=before,
    )
