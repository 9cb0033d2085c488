"""Domain failures carry the path of the offending field and a human reason.

The API maps them to HTTP errors (`api/errors.py`); the CLI prints them on one line.
"""

from __future__ import annotations


class DomainError(Exception):
    """A request the domain refuses: `field` is a dotted path (``rows[2].racks[0].position_mm``)."""

    status = 422

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class NotFound(DomainError):
    status = 404


class Conflict(DomainError):
    """The resource changed since the client read it, or the request clashes with existing state."""

    status = 409
