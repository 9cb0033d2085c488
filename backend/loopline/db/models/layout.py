"""The floor: halls, rows, physical racks and what they hold (logical racks, fabric switches).

Lengths are integer millimetres. `racks`, `logical_racks` and `fabric_switches` carry `hall_id`
too, so a whole hall loads with one indexed query per table. A rack's `version` covers its
contents: logical racks and fabric switches are edited through their rack.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from loopline.db.base import Base
from loopline.db.models._columns import enum_column, version_column
from loopline.domain.layout import Face, RackRole, Side, TorPosition


class Hall(Base):
    __tablename__ = "halls"
    __table_args__ = (
        UniqueConstraint("project_id", "name"),
        CheckConstraint("width_mm > 0 AND depth_mm > 0 AND tile_mm > 0", name="size_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    site: Mapped[str] = mapped_column(String(100), default="S1")
    width_mm: Mapped[int]
    depth_mm: Mapped[int]
    raised_floor: Mapped[bool] = mapped_column(default=False)
    raised_floor_mm: Mapped[int] = mapped_column(default=0)
    tray_height_mm: Mapped[int] = mapped_column(default=300)
    tile_mm: Mapped[int] = mapped_column(default=600)
    min_cold_aisle_mm: Mapped[int] = mapped_column(default=1200)
    min_hot_aisle_mm: Mapped[int] = mapped_column(default=900)
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class Row(Base):
    __tablename__ = "rows"
    __table_args__ = (
        UniqueConstraint("hall_id", "name"),
        CheckConstraint("direction IN (0, 90, 180, 270)", name="direction_right_angle"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    x_mm: Mapped[int]
    y_mm: Mapped[int]
    direction: Mapped[int]
    front: Mapped[Side] = enum_column(Side, "side")
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class Rack(Base):
    __tablename__ = "racks"
    __table_args__ = (UniqueConstraint("hall_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"))
    row_id: Mapped[int] = mapped_column(ForeignKey("rows.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    rack_type_id: Mapped[int] = mapped_column(ForeignKey("rack_types.id", ondelete="RESTRICT"), index=True)
    position_mm: Mapped[int]
    role: Mapped[RackRole] = enum_column(RackRole, "rack_role")
    port_face: Mapped[Face] = enum_column(Face, "face")
    version: Mapped[int] = version_column()

    logical_racks: Mapped[list[LogicalRack]] = relationship(
        lazy="raise", cascade="all, delete-orphan", order_by="LogicalRack.ordinal", passive_deletes=True
    )
    fabric_switches: Mapped[list[FabricSwitch]] = relationship(
        lazy="raise", cascade="all, delete-orphan", order_by="FabricSwitch.u", passive_deletes=True
    )

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class LogicalRack(Base):
    __tablename__ = "logical_racks"
    __table_args__ = (
        UniqueConstraint("rack_id", "ordinal"),
        CheckConstraint("servers >= 0 AND ports_used >= 1 AND base_u >= 1", name="counts_valid"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"), index=True)
    rack_id: Mapped[int] = mapped_column(ForeignKey("racks.id", ondelete="CASCADE"))
    ordinal: Mapped[int]
    """0 for the lowest logical rack of the physical rack."""
    servers: Mapped[int]
    server_model_id: Mapped[int] = mapped_column(ForeignKey("server_models.id", ondelete="RESTRICT"), index=True)
    ports_used: Mapped[int]
    tor_model_id: Mapped[int] = mapped_column(ForeignKey("switch_models.id", ondelete="RESTRICT"), index=True)
    tor_position: Mapped[TorPosition] = enum_column(TorPosition, "tor_position")
    base_u: Mapped[int]


class FabricSwitch(Base):
    """An aggregation, spine or core switch in a network rack."""

    __tablename__ = "fabric_switches"
    __table_args__ = (
        UniqueConstraint("hall_id", "name"),
        CheckConstraint("role IN ('agg', 'spine', 'core')", name="role_known"),
        CheckConstraint("u >= 1", name="u_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"))
    rack_id: Mapped[int] = mapped_column(ForeignKey("racks.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(16))
    switch_model_id: Mapped[int] = mapped_column(ForeignKey("switch_models.id", ondelete="RESTRICT"), index=True)
    u: Mapped[int]
    cluster: Mapped[int | None]


class DeviceNaming(Base):
    """A hall's naming of its devices: the template (None: devices keep their location names) and,
    under the same version, the per-device overrides."""

    __tablename__ = "device_naming"

    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"), primary_key=True)
    template: Mapped[str | None] = mapped_column(String(200))
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class DeviceOverride(Base):
    """One device's own host name and/or asset tag. Keyed by its rack and lowest U, so renaming a
    hall, row or rack keeps it; deleting the rack deletes it."""

    __tablename__ = "device_overrides"
    __table_args__ = (
        UniqueConstraint("rack_id", "u"),
        CheckConstraint("host_name IS NOT NULL OR asset_tag IS NOT NULL", name="says_something"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"), index=True)
    rack_id: Mapped[int] = mapped_column(ForeignKey("racks.id", ondelete="CASCADE"))
    u: Mapped[int]
    host_name: Mapped[str | None] = mapped_column(String(64))
    asset_tag: Mapped[str | None] = mapped_column(String(50))
