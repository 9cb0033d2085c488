"""The floor: halls, rows, physical racks and what they hold (logical racks, fabric switches), and
the physical plant around them (feeds, cooling, load limits, trays).

Lengths are integer millimetres. `racks`, `logical_racks` and `fabric_switches` carry `hall_id`
too, so a whole hall loads with one indexed query per table. A rack's `version` covers its
contents: logical racks and fabric switches are edited through their rack.

Facility settings are NULL when not set: the domain (`loopline.domain.facility.model`) owns every
default, and `services/facility.py` fills them in when it builds the plant.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint, column, exists, table
from sqlalchemy.orm import Mapped, column_property, mapped_column, relationship

from loopline.db.base import Base
from loopline.db.models._columns import enum_column, version_column
from loopline.domain.facility.model import CoolingKind, TrayLevel
from loopline.domain.layout import Face, RackRole, Side, TorPosition

TRAY_LEVEL_COLUMNS: dict[TrayLevel, str] = {
    TrayLevel.ABOVE_RACKS: "tray_above_racks",
    TrayLevel.CROSS_AISLE: "tray_cross_aisle",
    TrayLevel.UNDER_FLOOR: "tray_under_floor",
}
"""Each level's tray is stored as `<prefix>_width_mm`, `<prefix>_usable_depth_mm`, `<prefix>_load_kg_per_m`."""


# The tables a hall's kind is read from, by name: their mapped classes are declared below or elsewhere.
_LR = table("logical_racks", column("hall_id"), column("server_model_id"))
_SM = table("server_models", column("id"), column("gpus"))


class Hall(Base):
    __tablename__ = "halls"
    __table_args__ = (
        UniqueConstraint("project_id", "name"),
        CheckConstraint("width_mm > 0 AND depth_mm > 0 AND tile_mm > 0", name="size_positive"),
        CheckConstraint("power_factor > 0 AND power_factor <= 1", name="power_factor_valid"),
        CheckConstraint(
            "max_tray_fill_pct > 0 AND max_tray_fill_pct <= 100 "
            "AND max_signal_tray_fill_pct > 0 AND max_signal_tray_fill_pct <= 100 "
            "AND max_phase_imbalance_pct >= 0 AND max_phase_imbalance_pct <= 100",
            name="percentages_valid",
        ),
        CheckConstraint(
            "floor_load_kg_m2 > 0 AND hall_cooling_kw >= 0 AND tray_bend_radius_mm >= 0", name="facility_positive"
        ),
        CheckConstraint(
            " AND ".join(
                f"{p}_width_mm > 0 AND {p}_usable_depth_mm > 0 AND {p}_load_kg_per_m > 0"
                for p in TRAY_LEVEL_COLUMNS.values()
            ),
            name="trays_positive",
        ),
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
    # Facility settings (`domain.facility.model.HallFacility`); NULL: the domain's default.
    floor_load_kg_m2: Mapped[float | None]
    hall_cooling_kw: Mapped[float | None]
    power_factor: Mapped[float | None]
    max_phase_imbalance_pct: Mapped[float | None]
    max_tray_fill_pct: Mapped[float | None]
    max_signal_tray_fill_pct: Mapped[float | None]
    tray_bend_radius_mm: Mapped[float | None]
    tray_above_racks_width_mm: Mapped[int | None]
    tray_above_racks_usable_depth_mm: Mapped[int | None]
    tray_above_racks_load_kg_per_m: Mapped[float | None]
    tray_cross_aisle_width_mm: Mapped[int | None]
    tray_cross_aisle_usable_depth_mm: Mapped[int | None]
    tray_cross_aisle_load_kg_per_m: Mapped[float | None]
    tray_under_floor_width_mm: Mapped[int | None]
    tray_under_floor_usable_depth_mm: Mapped[int | None]
    tray_under_floor_load_kg_per_m: Mapped[float | None]
    version: Mapped[int] = version_column()
    has_gpu_servers: Mapped[bool] = column_property(
        exists().where(_LR.c.hall_id == id, _LR.c.server_model_id == _SM.c.id, _SM.c.gpus > 0)
    )
    """Derived, never stored: whether a logical rack of the hall holds GPU servers (issue 31)."""

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    @property
    def kind(self) -> str:
        """`gpu`: a hall with a GPU server; `general` otherwise."""
        return "gpu" if self.has_gpu_servers else "general"


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
    cooling_kw: Mapped[float | None]
    """The row's own cooling (kW); NULL: it shares the hall's."""
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class Rack(Base):
    __tablename__ = "racks"
    __table_args__ = (
        UniqueConstraint("hall_id", "name"),
        CheckConstraint("power_budget_kw > 0 AND cooling_kw >= 0 AND static_load_kg > 0", name="facility_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"))
    row_id: Mapped[int] = mapped_column(ForeignKey("rows.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    rack_type_id: Mapped[int] = mapped_column(ForeignKey("rack_types.id", ondelete="RESTRICT"), index=True)
    position_mm: Mapped[int]
    role: Mapped[RackRole] = enum_column(RackRole, "rack_role")
    port_face: Mapped[Face] = enum_column(Face, "face")
    # Facility settings (`domain.facility.model.RackFacility`); NULL: the domain's default.
    power_budget_kw: Mapped[float | None]
    cooling_kw: Mapped[float | None]
    cooling_kind: Mapped[CoolingKind | None] = enum_column(CoolingKind, "cooling_kind", nullable=True)
    static_load_kg: Mapped[float | None]
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
        CheckConstraint("network IN ('compute', 'front_end')", name="network_known"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"))
    rack_id: Mapped[int] = mapped_column(ForeignKey("racks.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(16))
    switch_model_id: Mapped[int] = mapped_column(ForeignKey("switch_models.id", ondelete="RESTRICT"), index=True)
    u: Mapped[int]
    cluster: Mapped[int | None]
    network: Mapped[str] = mapped_column(String(16), default="compute", server_default="compute")
    """The network it switches (issue 31): `compute` or a GPU cluster's `front_end` (wiring.frontend)."""


class RackFeed(Base):
    """One power feed of a rack ("A" or "B"), written with its rack under the rack's version.
    A rack without feed rows has the domain's default feeds."""

    __tablename__ = "rack_feeds"
    __table_args__ = (
        UniqueConstraint("rack_id", "name"),
        CheckConstraint("name IN ('A', 'B')", name="name_a_or_b"),
        CheckConstraint("phases IN (1, 3)", name="phases_one_or_three"),
        CheckConstraint("voltage_v > 0 AND breaker_a > 0", name="ratings_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"), index=True)
    rack_id: Mapped[int] = mapped_column(ForeignKey("racks.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(1))
    voltage_v: Mapped[float | None]
    """Line-to-neutral; NULL: the domain's default (as are phases and breaker_a)."""
    phases: Mapped[int | None]
    breaker_a: Mapped[float | None]
    pdu_model_id: Mapped[int | None] = mapped_column(ForeignKey("pdu_models.id", ondelete="RESTRICT"), index=True)


class TrayRun(Base):
    """A named tray run (e.g. "T3") whose tray differs from its level's (`Hall.tray_*`); written
    under the hall's version."""

    __tablename__ = "tray_runs"
    __table_args__ = (
        UniqueConstraint("hall_id", "name"),
        CheckConstraint("width_mm > 0 AND usable_depth_mm > 0 AND load_kg_per_m > 0", name="tray_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(50))
    width_mm: Mapped[int]
    usable_depth_mm: Mapped[int]
    load_kg_per_m: Mapped[float]


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
