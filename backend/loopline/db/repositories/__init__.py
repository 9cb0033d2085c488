"""Query helpers: statements scoped by project, always ordered, paginated as `{items, total, page, limit}`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

T = TypeVar("T")


@dataclass
class Page(Generic[T]):
    items: list[T]
    total: int
    page: int
    limit: int


def paginate(session: Session, stmt: Select[Any], *, page: int, limit: int) -> Page[Any]:
    """`stmt` must already be ordered; `page` counts from 1."""
    total = session.execute(select(func.count()).select_from(stmt.order_by(None).subquery())).scalar_one()
    items = list(session.execute(stmt.limit(limit).offset((page - 1) * limit)).scalars().all())
    return Page(items=items, total=total, page=page, limit=limit)
