"""Rendered exports kept for reuse: a plan never changes once generated, so its wiring sheet only
changes when the layout or device names it prints do (`services.export_cache`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import created_at_column


class ExportCacheRow(Base):
    __tablename__ = "export_cache"

    plan_id: Mapped[int] = mapped_column(ForeignKey("wiring_plans.id", ondelete="CASCADE"), primary_key=True)
    export: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The file, as its URL names it (`wiring-sheet.csv`)."""
    options: Mapped[str] = mapped_column(String(600), primary_key=True)
    """Its query options in one canonical form (`row=R01&rack=`)."""
    inputs: Mapped[str] = mapped_column(String(100))
    """Fingerprint of everything besides the plan that the bytes were rendered from (the hall's
    stored layout, the catalog entries it uses, its device names) and of the code that rendered
    them: a body is served only while this still matches."""
    body: Mapped[bytes] = mapped_column(LargeBinary)
    """The whole file, gzip-compressed (sent as it is to clients that take gzip)."""
    created_at: Mapped[datetime] = created_at_column()
