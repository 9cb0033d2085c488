"""The device catalog: server models, switch models, rack types and PDU models.

`builtin` entries are seeded, read-only and global (no owner); users add their own, which belong
to them (`owner_id`): listed and usable by their owner, and in the projects the owner is a member
of. A name is unique among the global entries and among one owner's entries.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import enum_column, version_column
from loopline.domain.facility.model import Airflow


def _source_column() -> Mapped[str]:
    """The datasheet or standard the entry's facts come from (URL or document name); "" for none."""
    return mapped_column(Text, default="", server_default="")


def _device_fact_checks() -> tuple[CheckConstraint, ...]:
    """Facts are optional (NULL: not known); those given are sane."""
    return (
        CheckConstraint("typical_w >= 0 AND max_w >= 0", name="power_not_negative"),
        CheckConstraint("max_w >= typical_w", name="max_at_least_typical"),
        CheckConstraint("weight_kg >= 0", name="weight_not_negative"),
    )


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
        CheckConstraint("gpus >= 0 AND frontend_nic_ports >= 0", name="gpu_counts_not_negative"),
        CheckConstraint("gpu_interconnect_gbps > 0 AND frontend_port_gbps > 0", name="gpu_speeds_positive"),
        *_device_fact_checks(),
        *_unique_names("server_models"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    nic_ports: Mapped[int]
    port_gbps: Mapped[float]
    height_u: Mapped[int] = mapped_column(default=1)
    gpus: Mapped[int] = mapped_column(default=0, server_default="0")
    """GPUs per server (0: not a GPU server). A GPU server's `nic_ports` x `port_gbps` are its compute
    NICs, one per rail."""
    gpu_interconnect_gbps: Mapped[float | None]
    """The intra-server GPU interconnect (NVLink and the like): Gb/s per GPU, each direction (None:
    not known, or no GPUs)."""
    frontend_nic_ports: Mapped[int] = mapped_column(default=0, server_default="0")
    """NIC ports for the front-end (storage, in-band management) network, apart from the compute NICs."""
    frontend_port_gbps: Mapped[float | None]
    typical_w: Mapped[float | None]
    """Facility facts (None: not known): typical and maximum draw (W), weight (kg), airflow."""
    max_w: Mapped[float | None]
    weight_kg: Mapped[float | None]
    airflow: Mapped[Airflow | None] = enum_column(Airflow, "airflow", nullable=True)
    source: Mapped[str] = _source_column()
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
        CheckConstraint("breakout_links >= 1", name="breakout_links_positive"),
        CheckConstraint("height_u >= 1", name="height_positive"),
        *_device_fact_checks(),
        *_unique_names("switch_models"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    server_ports: Mapped[int]
    """Downlink (server-facing) ports; for aggregation/spine switches the ports facing the ToRs."""
    server_port_gbps: Mapped[float]
    uplink_ports: Mapped[int]
    uplink_gbps: Mapped[float]
    breakout_links: Mapped[int | None]
    """The most links one port breaks out into, each at the port's speed over that count (2: a 400G
    port as 2 x 200G); None: not known. 1: no breakout."""
    height_u: Mapped[int] = mapped_column(default=1)
    typical_w: Mapped[float | None]
    """Facility facts (None: not known): typical and maximum draw (W), weight (kg), airflow."""
    max_w: Mapped[float | None]
    weight_kg: Mapped[float | None]
    airflow: Mapped[Airflow | None] = enum_column(Airflow, "airflow", nullable=True)
    source: Mapped[str] = _source_column()
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
        CheckConstraint("weight_kg >= 0 AND static_load_kg > 0", name="loads_valid"),
        *_unique_names("rack_types"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    width_mm: Mapped[int]
    depth_mm: Mapped[int]
    height_u: Mapped[int]
    weight_kg: Mapped[float | None]
    """The empty rack's own weight, kg (None: not known)."""
    static_load_kg: Mapped[float | None]
    """Load rating: what the rack may carry standing on its feet, kg (None: not known)."""
    source: Mapped[str] = _source_column()
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """None: a global entry (builtin), visible to everyone."""
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class PduModel(Base):
    """A rack power distribution unit: what a feed plugs into (its weight counts on the rack)."""

    __tablename__ = "pdu_models"
    __table_args__ = (
        CheckConstraint("outlets >= 1", name="outlets_positive"),
        CheckConstraint("phases IN (1, 3)", name="phases_one_or_three"),
        CheckConstraint("weight_kg >= 0", name="weight_not_negative"),
        *_unique_names("pdu_models"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    outlets: Mapped[int]
    phases: Mapped[int] = mapped_column(default=1)
    weight_kg: Mapped[float | None]
    source: Mapped[str] = _source_column()
    builtin: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """None: a global entry (builtin), visible to everyone."""
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}
