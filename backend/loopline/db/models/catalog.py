"""The device catalog: server models, switch models and rack types, shared by every project.

`builtin` entries are seeded and read-only; users add their own.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import version_column


class ServerModel(Base):
    __tablename__ = "server_models"
    __table_args__ = (
        CheckConstraint("nic_ports >= 1", name="nic_ports_positive"),
        CheckConstraint("height_u >= 1", name="height_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    nic_ports: Mapped[int]
    port_gbps: Mapped[float]
    height_u: Mapped[int] = mapped_column(default=1)
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class SwitchModel(Base):
    __tablename__ = "switch_models"
    __table_args__ = (
        CheckConstraint("server_ports >= 0 AND uplink_ports >= 0", name="ports_not_negative"),
        CheckConstraint("height_u >= 1", name="height_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    server_ports: Mapped[int]
    """Downlink (server-facing) ports; for aggregation/spine switches the ports facing the ToRs."""
    server_port_gbps: Mapped[float]
    uplink_ports: Mapped[int]
    uplink_gbps: Mapped[float]
    height_u: Mapped[int] = mapped_column(default=1)
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class RackType(Base):
    __tablename__ = "rack_types"
    __table_args__ = (CheckConstraint("width_mm > 0 AND depth_mm > 0 AND height_u > 0", name="size_positive"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    width_mm: Mapped[int]
    depth_mm: Mapped[int]
    height_u: Mapped[int]
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}
