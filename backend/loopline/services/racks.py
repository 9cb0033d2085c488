"""Racks and their contents (logical racks, fabric switches), written under the rack's version.

Racks are read with Core statements (three queries for any number of racks) into `RackRecord`s:
the stored values, in millimetres, plus the U range the domain computes for each logical rack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select, update
from sqlalchemy.engine import Row as SqlRow
from sqlalchemy.orm import Session

from loopline.db.models import FabricSwitch, LogicalRack, Rack, RackFeed, Row
from loopline.db.repositories import Page
from loopline.db.repositories import layout as layout_repo
from loopline.domain import layout as dl
from loopline.domain import rack_planning as rp
from loopline.domain.errors import DomainError, NotFound
from loopline.domain.units import m
from loopline.services import audit, facility
from loopline.services.access import ProjectAccess
from loopline.services.layout_snapshot import FS_COLS, LR_COLS, RACK_COLS, get_row_or_404, load_domain_catalog
from loopline.services.layout_validation import check_unique_names, validate_hall_or_raise
from loopline.services.mutations import Target, audited_delete, audited_update
from loopline.services.versioning import StaleVersion

LR_FIELDS = ("ordinal", "servers", "server_model_id", "ports_used", "tor_model_id", "tor_position", "base_u")
SWITCH_FIELDS = ("name", "role", "switch_model_id", "u", "cluster", "network")


@dataclass(frozen=True, slots=True)
class LogicalRackRecord(rp.PlannedLogicalRack):
    """A stored logical rack with its top U and ToR U (`domain.layout.LogicalRack`)."""

    top_u: int
    tor_u: int

    @classmethod
    def of(cls, cat: rp.Catalog, lr: Any) -> LogicalRackRecord:
        placed = cat.logical_rack(lr)
        return cls(
            lr.ordinal, lr.servers, lr.server_model_id, lr.ports_used, lr.tor_model_id, lr.tor_position, lr.base_u,
            placed.top_u, placed.tor_u(),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class RackRecord:
    """A stored rack with its contents, bottom up; lengths in millimetres."""

    id: int
    row_id: int
    hall_id: int
    name: str
    rack_type_id: int
    position_mm: int
    role: dl.RackRole
    port_face: dl.Face
    version: int
    logical_racks: tuple[LogicalRackRecord, ...]
    fabric_switches: tuple[rp.PlannedSwitch, ...]
    facility: facility.RackSettings
    """Feeds, budgets, cooling, load limit in effect, and which are the domain's defaults."""


def rack_record(
    cat: rp.Catalog,
    rack: Any,
    lrs: Any,
    switches: Any,
    feeds: Any = (),
    cache: dict[tuple[Any, ...], LogicalRackRecord] | None = None,
) -> RackRecord:
    """`cache` shares the records of identical logical racks (a row usually repeats one)."""
    if cache is None:
        records = tuple(LogicalRackRecord.of(cat, lr) for lr in lrs)
    else:
        found: list[LogicalRackRecord] = []
        for lr in lrs:
            key = tuple(lr[1:])
            record = cache.get(key)
            if record is None:
                record = cache[key] = LogicalRackRecord.of(cat, lr)
            found.append(record)
        records = tuple(found)
    return RackRecord(
        id=rack.id,
        row_id=rack.row_id,
        hall_id=rack.hall_id,
        name=rack.name,
        rack_type_id=rack.rack_type_id,
        position_mm=rack.position_mm,
        role=rack.role,
        port_face=rack.port_face,
        version=rack.version,
        logical_racks=records,
        fabric_switches=tuple(rp.PlannedSwitch(*(getattr(sw, f) for f in SWITCH_FIELDS)) for sw in switches),
        facility=facility.rack_settings(rack, feeds),
    )


def rack_json(rack: RackRecord) -> dict[str, Any]:
    """The rack as the audit log keeps it: the API's shape (metres)."""
    return {
        "id": rack.id,
        "row_id": rack.row_id,
        "hall_id": rack.hall_id,
        "name": rack.name,
        "rack_type_id": rack.rack_type_id,
        "position_m": m(rack.position_mm),
        "role": rack.role,
        "port_face": rack.port_face,
        "version": rack.version,
        "logical_racks": [{f: getattr(lr, f) for f in (*LR_FIELDS, "top_u", "tor_u")} for lr in rack.logical_racks],
        "fabric_switches": [{f: getattr(sw, f) for f in SWITCH_FIELDS} for sw in rack.fabric_switches],
        "facility": facility.settings_json(rack.facility),
    }


def load_racks(session: Session, where: ColumnElement[bool], cat: rp.Catalog | None = None) -> list[RackRecord]:
    """Racks matching `where` with their contents and feeds: four queries (plus the catalog)."""
    cat = cat or load_domain_catalog(session)
    racks = session.execute(select(*RACK_COLS).where(where).order_by(Rack.row_id, Rack.position_mm, Rack.id)).all()
    ids = [r.id for r in racks]
    lrs: dict[int, list[SqlRow[Any]]] = {i: [] for i in ids}
    sws: dict[int, list[SqlRow[Any]]] = {i: [] for i in ids}
    if ids:
        for lr in session.execute(
            select(*LR_COLS).where(LogicalRack.rack_id.in_(ids)).order_by(LogicalRack.rack_id, LogicalRack.ordinal)
        ):
            lrs[lr.rack_id].append(lr)
        for sw in session.execute(
            select(*FS_COLS).where(FabricSwitch.rack_id.in_(ids)).order_by(FabricSwitch.rack_id, FabricSwitch.u)
        ):
            sws[sw.rack_id].append(sw)
    feeds = facility.load_feeds(session, RackFeed.rack_id.in_(ids)) if ids else {}
    return [rack_record(cat, r, lrs[r.id], sws[r.id], feeds.get(r.id, ())) for r in racks]


def get_rack_or_404(session: Session, rack_id: int) -> Rack:
    rack = session.get(Rack, rack_id)
    if rack is None:
        raise NotFound("rack_id", f"rack {rack_id} not found")
    return rack


def rack_detail(session: Session, rack_id: int) -> RackRecord:
    found = load_racks(session, Rack.id == rack_id)
    if not found:
        raise NotFound("rack_id", f"rack {rack_id} not found")
    return found[0]


def rack_count(session: Session, row_id: int) -> int:
    return int(session.execute(select(func.count()).where(Rack.row_id == row_id)).scalar_one())


def list_racks(session: Session, row_id: int, *, page: int, limit: int) -> Page[RackRecord]:
    get_row_or_404(session, row_id)
    total = rack_count(session, row_id)
    ids = list(
        session.execute(
            select(Rack.id)
            .where(Rack.row_id == row_id)
            .order_by(Rack.position_mm, Rack.id)
            .limit(limit)
            .offset((page - 1) * limit)
        ).scalars()
    )
    return Page(items=load_racks(session, Rack.id.in_(ids)), total=total, page=page, limit=limit)


def create_rack(session: Session, access: ProjectAccess, row_id: int, spec: rp.RackSpec) -> RackRecord:
    """Named from the row's default pattern when unnamed; right after the row's last rack when unplaced."""
    row = get_row_or_404(session, row_id)
    cat = load_domain_catalog(session, usable_in=access.project_id)
    existing = load_racks(session, Rack.row_id == row_id, cat)
    end = max((r.position_mm + cat.rack_types[r.rack_type_id].width_mm for r in existing), default=0)
    row_spec = rp.RowSpec(name=row.name, origin=dl.Point(0, 0), racks=(spec,))
    plan = rp.plan_row_racks(cat, row_spec, "", start_index=len(existing) + 1, start_mm=end)[0]
    if spec.facility is not None and spec.facility.feeds:
        facility.check_feeds(session, access.project_id, spec.facility.feeds)
    check_unique_names(session, row.hall_id, [], [plan.name], [s.name for s in plan.switches])
    ids, _ = layout_repo.insert_racks(session, row.hall_id, [(row_id, plan)])
    validate_hall_or_raise(session, row.hall_id)
    after = rack_detail(session, ids[0])
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="create",
        resource_type="rack",
        resource_id=ids[0],
        after=rack_json(after),
    )
    return after


def update_rack(
    session: Session, access: ProjectAccess, rack_id: int, changes: dict[str, Any], if_match: int
) -> RackRecord:
    """`changes`: name, row_id, rack_type_id, position_mm, role, port_face (stored values),
    `logical_racks` / `fabric_switches` (domain specs) replacing the rack's contents, the facility
    settings (`facility.RACK_SETTINGS`: None sets the domain's default) and `feeds`
    (`facility.FeedSpec`s replacing the rack's feeds; empty: the default feeds)."""
    rack = get_rack_or_404(session, rack_id)
    cat = load_domain_catalog(session, usable_in=access.project_id)

    def change(rack: Rack) -> None:
        values: dict[str, Any] = {}
        if changes.get("name") is not None and changes["name"] != rack.name:
            check_unique_names(session, rack.hall_id, [], [changes["name"]], [])
            values["name"] = changes["name"]
        if changes.get("row_id") is not None and changes["row_id"] != rack.row_id:
            target = session.get(Row, changes["row_id"])
            if target is None or target.hall_id != rack.hall_id:
                raise DomainError("row_id", f"row {changes['row_id']} is not a row of this rack's hall")
            values["row_id"] = target.id
        if changes.get("rack_type_id") is not None:
            if changes["rack_type_id"] not in cat.rack_types:
                raise DomainError("rack_type_id", f"unknown rack type {changes['rack_type_id']}")
            values["rack_type_id"] = changes["rack_type_id"]
        for key in ("position_mm", "role", "port_face"):
            if changes.get(key) is not None:
                values[key] = changes[key]
        for key in facility.RACK_SETTINGS:
            if key in changes:
                values[key] = changes[key]
        if changes.get("feeds"):
            facility.check_feeds(session, access.project_id, changes["feeds"])
        # Core UPDATE guarded by the version: a concurrent writer that got here first makes it match nothing.
        done = session.execute(
            update(Rack)
            .where(Rack.id == rack_id, Rack.version == if_match)
            .values(**values, version=if_match + 1)
            .execution_options(synchronize_session=False)
        ).rowcount
        if done != 1:
            current = session.execute(select(Rack.version).where(Rack.id == rack_id)).scalar_one()
            raise StaleVersion(f"rack {rack_id}", if_match, current)
        if changes.get("logical_racks") is not None:
            lrs = rp.plan_logical_racks(cat, changes["logical_racks"], "")
            layout_repo.replace_logical_racks(session, rack.hall_id, rack_id, lrs)
        if changes.get("fabric_switches") is not None:
            layout_repo.delete_fabric_switches(session, rack_id)
            switches = rp.plan_switches(cat, changes["fabric_switches"], "")
            if switches:
                check_unique_names(session, rack.hall_id, [], [], [s.name for s in switches])
                layout_repo.insert_fabric_switches(session, rack.hall_id, rack_id, switches)
        if "feeds" in changes:
            facility.replace_feeds(session, rack.hall_id, rack_id, changes["feeds"])
        session.expire(rack)

    hall_id = rack.hall_id
    audited_update(
        session,
        rack,
        if_match,
        Target(access.principal, access.project_id, "rack", rack_id, f"rack {rack_id}"),
        snapshot=lambda _: rack_json(rack_detail(session, rack_id)),
        change=change,
        check=lambda: validate_hall_or_raise(session, hall_id),
        bump_version=False,
    )
    return rack_detail(session, rack_id)


def delete_rack(session: Session, access: ProjectAccess, rack_id: int, if_match: int) -> None:
    rack = get_rack_or_404(session, rack_id)

    def remove(rack: Rack) -> None:
        done = session.execute(
            delete(Rack)
            .where(Rack.id == rack_id, Rack.version == if_match)
            .execution_options(synchronize_session=False)
        ).rowcount
        if done != 1:
            current = session.execute(select(Rack.version).where(Rack.id == rack_id)).scalar_one()
            raise StaleVersion(f"rack {rack_id}", if_match, current)
        session.expunge(rack)

    audited_delete(
        session,
        rack,
        if_match,
        Target(access.principal, access.project_id, "rack", rack_id, f"rack {rack_id}"),
        snapshot=lambda _: rack_json(rack_detail(session, rack_id)),
        remove=remove,
    )
