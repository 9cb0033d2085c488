"""A project's price book: its own prices over the default book, in one currency, versioned.

`price_books` holds one row per project that has edited prices (none: the defaults alone, version
0). Every change writes the whole book as a new immutable row of `price_book_versions`: a book is
a few hundred entries, and a bill of materials can name the exact version that priced it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import created_at_column, version_column


class PriceBookRow(Base):
    __tablename__ = "price_books"
    __table_args__ = (CheckConstraint("currency ~ '^[A-Z]{3}$'", name="currency_iso"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), unique=True)
    currency: Mapped[str] = mapped_column(String(3))
    """ISO 4217 code of every price in the book."""
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class PriceBookVersionRow(Base):
    __tablename__ = "price_book_versions"

    book_id: Mapped[int] = mapped_column(ForeignKey("price_books.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    currency: Mapped[str] = mapped_column(String(3))
    entries: Mapped[list[dict[str, Any]]] = mapped_column(JSONB)
    """`[{part_number, category, description, base_price, per_metre}]`, sorted by part number."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_by_label: Mapped[str] = mapped_column(String(400))
    """Who made this version (the audit log's actor name), kept if the account goes."""
    created_at: Mapped[datetime] = created_at_column()
