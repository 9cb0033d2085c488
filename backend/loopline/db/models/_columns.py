"""Column helpers shared by the models."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Enum, func
from sqlalchemy.orm import Mapped, mapped_column


def enum_column(enum_type: type[enum.Enum], name: str, **kwargs: Any) -> Any:
    """A VARCHAR holding the enum's value, with a CHECK constraint listing the allowed values."""
    return mapped_column(
        Enum(
            enum_type,
            name=name,
            native_enum=False,
            create_constraint=True,
            length=32,
            values_callable=lambda e: [m.value for m in e],
            validate_strings=True,
        ),
        **kwargs,
    )


def created_at_column() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), server_default=func.now(), nullable=False)


def version_column() -> Mapped[int]:
    """Optimistic concurrency: bumped by the services on every change, checked in UPDATE ... WHERE version = old."""
    return mapped_column(nullable=False, default=1, server_default="1")
