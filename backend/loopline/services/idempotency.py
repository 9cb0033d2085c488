"""One request at a time per `Idempotency-Key`: concurrent retries of a submission all get its job.

Without a lock, retries sent together each looked for the key's job, found none, and inserted one:
one won, the others hit the unique constraint (409). `hold(session, scope, key)` takes a
transaction-scoped PostgreSQL advisory lock on (scope, key) before the lookup: the second retry
waits for the first to commit, then finds its job. The lock ends with the transaction.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session


def hold(session: Session, scope: str, key: str) -> None:
    """Wait for, then hold until the transaction ends, the lock of `key` within `scope`
    (e.g. ``simulation:project:3``; keys are unique per project or per user)."""
    session.execute(select(func.pg_advisory_xact_lock(func.hashtextextended(f"{scope}:{key}", 0))))
