"""A plan's cables as the API reads them: filtered pages with both ends (and their routes), and
every route as flat arrays for the 3D view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, PlanDeviceRow, WiringPlanRow
from loopline.db.repositories import Page
from loopline.domain.cable_routes import Point3, route_points
from loopline.domain.media import Medium
from loopline.domain.routing import Via
from loopline.domain.wiring import LinkClass


@dataclass(frozen=True, slots=True)
class CableFilters:
    row: str | None = None
    rack: str | None = None
    medium: Medium | None = None
    link_class: LinkClass | None = None
    min_length_mm: int | None = None
    max_length_mm: int | None = None


def _filtered(plan_id: int, f: CableFilters) -> Select[tuple[PlanCableRow]]:
    stmt = select(PlanCableRow).where(PlanCableRow.plan_id == plan_id)
    if f.row is not None:
        stmt = stmt.where((PlanCableRow.a_row == f.row) | (PlanCableRow.b_row == f.row))
    if f.rack is not None:
        # Either the full name (H1.R01.K03) or the rack's own name (K03) within the filtered row.
        if "." in f.rack:
            stmt = stmt.where((PlanCableRow.a_rack == f.rack) | (PlanCableRow.b_rack == f.rack))
        else:
            suffix = f"%.{f.rack}"
            stmt = stmt.where(PlanCableRow.a_rack.like(suffix) | PlanCableRow.b_rack.like(suffix))
    if f.medium is not None:
        stmt = stmt.where(PlanCableRow.medium == f.medium.value)
    if f.link_class is not None:
        stmt = stmt.where(PlanCableRow.link_class == f.link_class.value)
    if f.min_length_mm is not None:
        stmt = stmt.where(PlanCableRow.raw_mm >= f.min_length_mm)
    if f.max_length_mm is not None:
        stmt = stmt.where(PlanCableRow.raw_mm <= f.max_length_mm)
    return stmt


def list_cables(
    session: Session, plan: WiringPlanRow, filters: CableFilters, *, page: int, limit: int, include_route: bool
) -> Page[dict[str, Any]]:
    stmt = _filtered(plan.id, filters)
    total = session.execute(select(func.count()).select_from(stmt.subquery())).scalar_one()
    rows = list(session.execute(stmt.order_by(PlanCableRow.seq).limit(limit).offset((page - 1) * limit)).scalars())
    positions = (
        _positions(session, plan.id, {n for c in rows for n in (c.a_device, c.b_device)}) if include_route else {}
    )
    items = [cable_json(plan, c, positions if include_route else None) for c in rows]
    return Page(items=items, total=total, page=page, limit=limit)


def _positions(session: Session, plan_id: int, names: set[str] | None) -> dict[str, tuple[Point3, str]]:
    stmt = select(PlanDeviceRow.name, PlanDeviceRow.x_mm, PlanDeviceRow.y_mm, PlanDeviceRow.z_mm, PlanDeviceRow.rack)
    stmt = stmt.where(PlanDeviceRow.plan_id == plan_id)
    if names is not None:
        stmt = stmt.where(PlanDeviceRow.name.in_(names))
    # Plain Core rows: no ORM bookkeeping for the 100,000 devices of a large plan.
    return {name: ((x, y, z), rack) for name, x, y, z, rack in session.connection().execute(stmt)}


def _route(plan: WiringPlanRow, a: tuple[Point3, str], b: tuple[Point3, str]) -> list[Point3]:
    return route_points(Via(plan.via), plan.tray_z_mm, a[1] == b[1], a[0], b[0])


def cable_json(plan: WiringPlanRow, c: PlanCableRow, positions: dict[str, tuple[Point3, str]] | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "cable_id": c.cable_id,
        "label": c.label,
        "link_class": c.link_class,
        "a": {"device": c.a_device, "port": c.a_port, "row": c.a_row, "rack": c.a_rack},
        "b": {"device": c.b_device, "port": c.b_port, "row": c.b_row, "rack": c.b_rack},
        "gbps": c.gbps,
        "medium": c.medium,
        "part_number": c.part_number,
        "transceiver": c.transceiver,
        "raw_length_m": c.raw_mm / 1000,
        "length_with_slack_m": c.slack_mm / 1000,
        "ordered_length_m": c.ordered_mm / 1000,
        "unit_price": c.unit_price,
    }
    if positions is not None:
        points = _route(plan, positions[c.a_device], positions[c.b_device])
        out["route"] = [(x / 1000, y / 1000, z / 1000) for x, y, z in points]
    return out


def render_buffers(session: Session, plan: WiringPlanRow) -> dict[str, Any]:
    positions = _positions(session, plan.id, None)
    media: dict[str, int] = {}
    cable_ids: list[str] = []
    labels: list[str] = []
    medium: list[int] = []
    lengths: list[int] = []
    offsets: list[int] = []
    points: list[int] = []
    stmt = select(
        PlanCableRow.cable_id, PlanCableRow.label, PlanCableRow.medium, PlanCableRow.raw_mm,
        PlanCableRow.a_device, PlanCableRow.b_device,
    ).where(PlanCableRow.plan_id == plan.id).order_by(PlanCableRow.seq)  # fmt: skip
    n_points = 0
    for cable_id, label, med, raw, a, b in session.connection().execute(stmt):
        cable_ids.append(cable_id)
        labels.append(label)
        medium.append(media.setdefault(med, len(media)))
        lengths.append(raw)
        offsets.append(n_points)
        route = _route(plan, positions[a], positions[b])
        n_points += len(route)
        for p in route:
            points.extend(p)
    offsets.append(n_points)
    return {
        "media": list(media),
        "cable_ids": cable_ids,
        "labels": labels,
        "medium": medium,
        "raw_length_mm": lengths,
        "offsets": offsets,
        "points": points,
    }
