"""Optimistic concurrency: compare the client's `If-Match` with the row's version, then bump it.

Models map `version` as SQLAlchemy's `version_id_col` with `version_id_generator=False`, so the
UPDATE also says `WHERE version = <old>`: a race between two requests that both passed the check
still fails (StaleDataError, mapped to 409) instead of overwriting silently.
"""

from __future__ import annotations

from typing import Any, Protocol

from loopline.domain.errors import Conflict


class StaleVersion(Conflict):
    def __init__(self, resource: str, expected: int, current: int) -> None:
        super().__init__(
            "If-Match",
            f"{resource} is at version {current}, not {expected}: reload it and apply your change again",
        )
        self.current_version = current


class Versioned(Protocol):
    version: Any


def check_version(obj: Versioned, expected: int | None, resource: str) -> None:
    if expected is not None and obj.version != expected:
        raise StaleVersion(resource, expected, obj.version)


def bump(obj: Versioned) -> None:
    obj.version = obj.version + 1
