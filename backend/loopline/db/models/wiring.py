"""Stored wiring plans: the parameters they were generated with, their devices and cables.

Devices and cables are bulk-written with COPY (a 100,000-server hall has ~200,000 cables), so
they have natural composite keys (plan, node id / cable id) rather than sequences. Lengths are
integer millimetres. A plan is immutable once generated: regenerate to change it; its
`version` covers its name and notes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import created_at_column, version_column


class WiringPlanRow(Base):
    __tablename__ = "wiring_plans"

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    spec: Mapped[dict[str, Any]] = mapped_column(JSONB)
    """The WiringSpec and geometry the plan was generated with (API shape)."""
    base_plan_id: Mapped[int | None] = mapped_column(ForeignKey("wiring_plans.id", ondelete="SET NULL"))
    """The plan this one upgrades, if any; `diff` is against it."""
    summary: Mapped[dict[str, Any]] = mapped_column(JSONB)
    diff: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    loops: Mapped[list[Any]] = mapped_column(JSONB)
    tray_z_mm: Mapped[int] = mapped_column(Integer)
    """Height of the cable run between racks (negative: under the raised floor), for drawing routes."""
    via: Mapped[str] = mapped_column(String(16))
    """`tray`, `floor` or `faces` (paper): how cables get from rack to rack."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = created_at_column()
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class PlanDeviceRow(Base):
    __tablename__ = "plan_devices"

    plan_id: Mapped[int] = mapped_column(ForeignKey("wiring_plans.id", ondelete="CASCADE"), primary_key=True)
    node_id: Mapped[str] = mapped_column(String(120), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    role: Mapped[str] = mapped_column(String(16))
    rack: Mapped[str] = mapped_column(String(120))
    u: Mapped[int]
    model: Mapped[str] = mapped_column(String(120))
    logical_rack: Mapped[str | None] = mapped_column(String(120))
    cluster: Mapped[int | None]
    loop: Mapped[int | None]
    loop_position: Mapped[int | None]
    x_mm: Mapped[int]
    y_mm: Mapped[int]
    z_mm: Mapped[int]


class PlanCableRow(Base):
    """Filters (row, rack, medium, length) scan one plan's rows through the plan_id prefix of the keys:
    secondary indexes would double the cost of storing a 200,000-cable plan for little gain."""

    __tablename__ = "plan_cables"
    __table_args__ = (
        Index("ix_plan_cables_plan_seq", "plan_id", "seq", unique=True),
        CheckConstraint("raw_mm >= 0 AND slack_mm >= raw_mm AND ordered_mm >= slack_mm", name="lengths_ordered"),
    )

    plan_id: Mapped[int] = mapped_column(ForeignKey("wiring_plans.id", ondelete="CASCADE"), primary_key=True)
    cable_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    """Position in the generated plan: the stable listing order."""
    label: Mapped[str] = mapped_column(String(300))
    link_class: Mapped[str] = mapped_column(String(16))
    a_device: Mapped[str] = mapped_column(String(120))
    a_port: Mapped[str] = mapped_column(String(32))
    a_rack: Mapped[str] = mapped_column(String(120))
    a_row: Mapped[str] = mapped_column(String(120))
    b_device: Mapped[str] = mapped_column(String(120))
    b_port: Mapped[str] = mapped_column(String(32))
    b_rack: Mapped[str] = mapped_column(String(120))
    b_row: Mapped[str] = mapped_column(String(120))
    gbps: Mapped[float] = mapped_column(Float)
    raw_mm: Mapped[int]
    slack_mm: Mapped[int]
    ordered_mm: Mapped[int]
    medium: Mapped[str] = mapped_column(String(32))
    part_number: Mapped[str] = mapped_column(String(80))
    transceiver: Mapped[str | None] = mapped_column(String(80))
    latency_ns: Mapped[int]
    unit_price: Mapped[float] = mapped_column(Float)


class PlanPanelRow(Base):
    """A structured plan's patch panel (`domain.structured.plant.PlantPanel`), written by COPY."""

    __tablename__ = "plan_panels"

    plan_id: Mapped[int] = mapped_column(ForeignKey("wiring_plans.id", ondelete="CASCADE"), primary_key=True)
    panel_id: Mapped[str] = mapped_column(String(140), primary_key=True)
    seq: Mapped[int]
    """Position in the built plant: the stable listing order."""
    rack: Mapped[str] = mapped_column(String(120))
    u: Mapped[int]
    model: Mapped[str] = mapped_column(String(120))
    cassette: Mapped[str | None] = mapped_column(String(120))
    cassettes: Mapped[int]
    front_ports: Mapped[int]
    ports_used: Mapped[int]
    role: Mapped[str] = mapped_column(String(16))


class PlanItemRow(Base):
    """One physical item of a structured plan's plant (cord, panel port, trunk, breakout cable),
    stored once however many links run through it (`PlantItem`)."""

    __tablename__ = "plan_items"
    __table_args__ = (CheckConstraint("length_mm >= 0 AND ordered_mm >= 0 AND fibres >= 0", name="sizes_not_negative"),)

    plan_id: Mapped[int] = mapped_column(ForeignKey("wiring_plans.id", ondelete="CASCADE"), primary_key=True)
    item_id: Mapped[str] = mapped_column(String(300), primary_key=True)
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    label: Mapped[str] = mapped_column(String(300))
    part: Mapped[str] = mapped_column(String(120))
    a_end: Mapped[str] = mapped_column(String(140))
    a_port: Mapped[str] = mapped_column(String(32))
    b_end: Mapped[str] = mapped_column(String(140))
    b_port: Mapped[str] = mapped_column(String(32))
    length_mm: Mapped[int]
    ordered_mm: Mapped[int]
    made_to_order: Mapped[bool]
    fibres: Mapped[int]
    route: Mapped[str] = mapped_column(Text)


class PlanChainStepRow(Base):
    """Step `position` of logical link `cable_id`'s chain (`ChainStep`). No (plan, item) index: "which
    links run through this panel's ports" scans the plan's steps by the key's plan_id prefix (~0.1 s
    for 100,000 steps), cheaper than an index that slows the plant's COPY by half."""

    __tablename__ = "plan_chain_steps"

    plan_id: Mapped[int] = mapped_column(ForeignKey("wiring_plans.id", ondelete="CASCADE"), primary_key=True)
    cable_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[str] = mapped_column(String(300))
    detail: Mapped[str] = mapped_column(String(200))


class PlanOpticRow(Base):
    """An optic the plant fits in a device port (`PlantOptic`)."""

    __tablename__ = "plan_optics"

    plan_id: Mapped[int] = mapped_column(ForeignKey("wiring_plans.id", ondelete="CASCADE"), primary_key=True)
    device: Mapped[str] = mapped_column(String(120), primary_key=True)
    port: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int]
    part: Mapped[str] = mapped_column(String(80))
