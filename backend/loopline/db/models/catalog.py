"""The device catalog: server models, switch models and rack types.

`builtin` entries are seeded, read-only and global (no owner); users add their own, which belong
to them (`owner_id`): listed and usable by their owner, and in the projects the owner is a member
of. A name is unique among the global entries and among one owner's entries.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import version_column


def _unique_names(table: str) -> tuple[UniqueConstraint, Index]:
    """Unique per owner, and unique among the global entries (NULL owners are distinct in a UNIQUE)."""
    return (
        UniqueConstraint("owner_id", "name"),
        Index(f"uq_{table}_global_name", "name", unique=True, postgresql_where=text("owner_id IS NULL")),
    )


class ServerModel(Base):
    __tablename__ = "server_models"
    __table_args__ = (
        CheckConstraint("nic_ports >= 1", name="nic_ports_positive"),
        CheckConstraint("height_u >= 1", name="height_positive"),
        *_unique_names("server_models"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    nic_ports: Mapped[int]
    port_gbps: Mapped[float]
    height_u: Mapped[int] = mapped_column(default=1)
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """None: a global entry (builtin), visible to everyone."""
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class SwitchModel(Base):
    __tablename__ = "switch_models"
    __table_args__ = (
        CheckConstraint("server_ports >= 0 AND uplink_ports >= 0", name="ports_not_negative"),
        CheckConstraint("height_u >= 1", name="height_positive"),
        *_unique_names("switch_models"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    server_ports: Mapped[int]
    """Downlink (server-facing) ports; for aggregation/spine switches the ports facing the ToRs."""
    server_port_gbps: Mapped[float]
    uplink_ports: Mapped[int]
    uplink_gbps: Mapped[float]
    height_u: Mapped[int] = mapped_column(default=1)
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """None: a global entry (builtin), visible to everyone."""
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class RackType(Base):
    __tablename__ = "rack_types"
    __table_args__ = (
        CheckConstraint("width_mm > 0 AND depth_mm > 0 AND height_u > 0", name="size_positive"),
        *_unique_names("rack_types"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    width_mm: Mapped[int]
    depth_mm: Mapped[int]
    height_u: Mapped[int]
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """None: a global entry (builtin), visible to everyone."""
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}
