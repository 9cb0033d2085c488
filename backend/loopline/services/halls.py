"""Halls: the floor of a project (size, raised floor, tray height, aisle minimums)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import Hall
from loopline.db.repositories import Page, paginate
from loopline.domain.errors import Conflict, DomainError
from loopline.domain.gpu_hall import FIELD as GPU_FIELD
from loopline.domain.gpu_hall import GpuClusterSpec, plan_gpu_hall
from loopline.domain.units import m
from loopline.services import audit, facility
from loopline.services.access import ProjectAccess
from loopline.services.layout_snapshot import get_hall_or_404, load_domain_catalog
from loopline.services.layout_validation import validate_hall_or_raise
from loopline.services.mutations import Target, audited_delete, audited_update
from loopline.services.rows import create_rows

LENGTHS = ("width", "depth", "tray_height", "tile", "min_cold_aisle", "min_hot_aisle")


def hall_json(h: Hall) -> dict[str, Any]:
    """The hall as the audit log keeps it: the API's shape (metres)."""
    return {
        "id": h.id,
        "project_id": h.project_id,
        "name": h.name,
        "site": h.site,
        **{f"{k}_m": m(getattr(h, f"{k}_mm")) for k in LENGTHS[:2]},
        "raised_floor": h.raised_floor,
        "raised_floor_height_m": m(h.raised_floor_mm),
        **{f"{k}_m": m(getattr(h, f"{k}_mm")) for k in LENGTHS[2:]},
        "facility": facility.settings_json(facility.hall_settings(h)),
        "version": h.version,
    }


def _unique_hall_name(session: Session, project_id: int, name: str, exclude: int | None = None) -> None:
    stmt = select(Hall.id).where(Hall.project_id == project_id, Hall.name == name)
    if exclude is not None:
        stmt = stmt.where(Hall.id != exclude)
    if session.execute(stmt).first():
        raise Conflict("name", f"a hall named {name!r} already exists in this project")


def create_hall(
    session: Session, access: ProjectAccess, columns: dict[str, Any], gpu_cluster: GpuClusterSpec | None = None
) -> Hall:
    """`columns`: the hall's stored values (name, site, `*_mm` lengths, raised_floor, facility settings).
    With `gpu_cluster`, the cluster's rows and racks are created with it (`domain.gpu_hall`), in the
    same transaction."""
    _unique_hall_name(session, access.project_id, columns["name"])
    hall = Hall(project_id=access.project_id, **columns)
    session.add(hall)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="create",
        resource_type="hall",
        resource_id=hall.id,
        after=hall_json(hall),
    )
    if gpu_cluster is not None:
        plan = plan_gpu_hall(
            load_domain_catalog(session, usable_in=access.project_id),
            gpu_cluster,
            width_mm=hall.width_mm,
            depth_mm=hall.depth_mm,
            cold_aisle_mm=hall.min_cold_aisle_mm,
            hot_aisle_mm=hall.min_hot_aisle_mm,
        )
        create_rows(
            session, access, hall.id, plan.rows, paths=[f"{GPU_FIELD}.rows[{i}]." for i in range(len(plan.rows))]
        )
        session.refresh(hall)  # its kind (GPU) is derived from the racks just written
    return hall


def list_halls(session: Session, project_id: int, *, page: int, limit: int) -> Page[Hall]:
    stmt = select(Hall).where(Hall.project_id == project_id).order_by(Hall.name, Hall.id)
    return paginate(session, stmt, page=page, limit=limit)


def update_hall(session: Session, access: ProjectAccess, hall_id: int, changes: dict[str, Any], if_match: int) -> Hall:
    """`changes`: stored values to set (facility settings: None is the default); a hall without a
    raised floor gets a void of 0."""
    hall = get_hall_or_404(session, hall_id)

    def change(hall: Hall) -> None:
        values = dict(changes)
        if values.get("name") is not None:
            _unique_hall_name(session, hall.project_id, values["name"], exclude=hall.id)
        raised = values.get("raised_floor", hall.raised_floor)
        height_mm = values.get("raised_floor_mm", hall.raised_floor_mm)
        if raised and height_mm <= 0:
            raise DomainError("raised_floor_height_m", "must be > 0 when raised_floor is true")
        if not raised:
            values["raised_floor_mm"] = 0
        for key, value in values.items():
            setattr(hall, key, value)

    audited_update(
        session,
        hall,
        if_match,
        Target(access.principal, hall.project_id, "hall", hall.id, f"hall {hall_id}"),
        snapshot=hall_json,
        change=change,
        check=lambda: validate_hall_or_raise(session, hall.id),
    )
    return hall


def delete_hall(session: Session, access: ProjectAccess, hall_id: int, if_match: int) -> None:
    hall = get_hall_or_404(session, hall_id)
    audited_delete(
        session,
        hall,
        if_match,
        Target(access.principal, hall.project_id, "hall", hall_id, f"hall {hall_id}"),
        snapshot=hall_json,
    )
