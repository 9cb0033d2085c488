"""All ORM models, imported here so Alembic and the app see one metadata."""

from __future__ import annotations

from loopline.db.base import Base

__all__ = ["Base"]
