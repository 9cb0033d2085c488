"""Rows of racks: created alone, in bulk, in facing pairs or as a copy; moved, renamed, deleted.

Creating rows plans their racks in the domain (`domain.rack_planning`), checks the hall as it
would be, then writes rows with one INSERT and racks with COPY (`db/repositories/layout.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from loopline.db.models import Rack, RackFeed, Row
from loopline.db.repositories import Page
from loopline.db.repositories import layout as layout_repo
from loopline.domain import layout as dl
from loopline.domain import rack_planning as rp
from loopline.domain.units import m
from loopline.services import audit, facility
from loopline.services.access import ProjectAccess
from loopline.services.layout_snapshot import ROW_COLS, get_hall_or_404, get_row_or_404, load_domain_catalog
from loopline.services.layout_validation import check_new_rows, check_unique_names, validate_hall_or_raise
from loopline.services.mutations import Target, audited_delete, audited_update
from loopline.services.racks import RackRecord, load_racks, rack_count, rack_json


@dataclass(frozen=True, slots=True)
class RowRecord:
    """A stored row (millimetres), how many racks it holds and, for a detail, the racks."""

    id: int
    hall_id: int
    name: str
    x_mm: int
    y_mm: int
    direction: int
    front: dl.Side
    version: int
    rack_count: int
    facility: facility.RowSettings
    racks: tuple[RackRecord, ...] = ()

    @classmethod
    def of(cls, row: Any, rack_count: int, racks: Sequence[RackRecord] = ()) -> RowRecord:
        return cls(
            row.id, row.hall_id, row.name, row.x_mm, row.y_mm, row.direction, row.front, row.version,
            rack_count, facility.row_settings(row), tuple(racks),
        )  # fmt: skip


def row_json(row: RowRecord) -> dict[str, Any]:
    """The row as the audit log keeps it: the API's shape (metres), without its racks."""
    return {
        "id": row.id,
        "hall_id": row.hall_id,
        "name": row.name,
        "x_m": m(row.x_mm),
        "y_m": m(row.y_mm),
        "direction": row.direction,
        "front": row.front,
        "version": row.version,
        "rack_count": row.rack_count,
        "facility": facility.settings_json(row.facility),
    }


@dataclass
class CreatedRows:
    rows: list[RowRecord]
    rack_ids: list[int]
    logical_racks: int


def row_detail(session: Session, row_id: int) -> RowRecord:
    row = get_row_or_404(session, row_id)
    racks = load_racks(session, Rack.row_id == row_id)
    return RowRecord.of(row, len(racks), racks)


def list_rows(session: Session, hall_id: int, *, page: int, limit: int) -> Page[RowRecord]:
    get_hall_or_404(session, hall_id)
    counts = (
        select(Rack.row_id, func.count().label("n")).where(Rack.hall_id == hall_id).group_by(Rack.row_id).subquery()
    )
    stmt = (
        select(*ROW_COLS, func.coalesce(counts.c.n, 0).label("n"))
        .outerjoin(counts, counts.c.row_id == Row.id)
        .where(Row.hall_id == hall_id)
        .order_by(Row.name, Row.id)
    )
    total = int(session.execute(select(func.count()).where(Row.hall_id == hall_id)).scalar_one())
    items = [RowRecord.of(r, r.n) for r in session.execute(stmt.limit(limit).offset((page - 1) * limit))]
    return Page(items=items, total=total, page=page, limit=limit)


def create_rows(
    session: Session,
    access: ProjectAccess,
    hall_id: int,
    specs: Sequence[rp.RowSpec],
    *,
    action: str = "create",
    paths: Sequence[str] | None = None,
) -> CreatedRows:
    """Create rows with their racks: one INSERT for the rows, COPY for the racks and their contents.

    `paths` prefix the fields named in errors (default: none for one row, `rows[i].` for several).
    """
    get_hall_or_404(session, hall_id)
    cat = load_domain_catalog(session, usable_in=access.project_id)
    paths = paths or ([""] if len(specs) == 1 else [f"rows[{i}]." for i in range(len(specs))])
    plans = [rp.plan_row_racks(cat, spec, path) for spec, path in zip(specs, paths, strict=True)]
    facility.check_feed_lists(session, access.project_id, _feeds_to_check(specs, paths))
    check_unique_names(
        session,
        hall_id,
        [s.name for s in specs],
        [p.name for ps in plans for p in ps],
        [s.name for ps in plans for p in ps for s in p.switches],
    )
    check_new_rows(session, hall_id, rp.planned_rows(cat, specs, plans))
    stored = session.execute(
        insert(Row).returning(*ROW_COLS, sort_by_parameter_order=True),
        [
            {
                "hall_id": hall_id,
                "name": s.name,
                "x_mm": s.origin.x_mm,
                "y_mm": s.origin.y_mm,
                "direction": s.direction,
                "front": s.front,
                "cooling_kw": s.cooling_kw,
                "version": 1,
            }
            for s in specs
        ],
    ).all()
    rack_ids, n_lrs = layout_repo.insert_racks(
        session, hall_id, [(row.id, p) for row, ps in zip(stored, plans, strict=True) for p in ps]
    )
    rows = [RowRecord.of(row, len(ps)) for row, ps in zip(stored, plans, strict=True)]
    audit.record_many(
        session,
        access.principal,
        project_id=access.project_id,
        action=action,
        resource_type="row",
        entries=[
            (r.id, None, {**row_json(r), "racks": [p.name for p in ps]}) for r, ps in zip(rows, plans, strict=True)
        ],
    )
    return CreatedRows(rows, rack_ids, n_lrs)


def _feeds_to_check(
    specs: Sequence[rp.RowSpec], paths: Sequence[str]
) -> list[tuple[str, tuple[facility.FeedSpec, ...]]]:
    """The feeds the request names, each rack spec once (a template stands for all its copies, and a
    row pair's two rows share theirs), with the field path of each list."""
    out: list[tuple[str, tuple[facility.FeedSpec, ...]]] = []
    seen: set[int] = set()
    for spec, path in zip(specs, paths, strict=True):
        racks = [(f"{path}racks[{i}].", r) for i, r in enumerate(spec.racks)]
        if spec.rack_count and spec.rack_template is not None:
            racks.append((f"{path}rack_template.", spec.rack_template))
        for prefix, rack in racks:
            if rack.facility is not None and rack.facility.feeds and id(rack) not in seen:
                seen.add(id(rack))
                out.append((f"{prefix}facility.feeds", rack.facility.feeds))
    return out


def create_row_pair(session: Session, access: ProjectAccess, hall_id: int, pair: rp.RowPairSpec) -> CreatedRows:
    """Row A at the origin with its fronts towards +normal; row B across the cold aisle facing back."""
    a, b = rp.row_pair(load_domain_catalog(session, usable_in=access.project_id), pair)
    return create_rows(session, access, hall_id, [a, b], action="create_pair", paths=["", ""])


def update_row(
    session: Session, access: ProjectAccess, row_id: int, changes: dict[str, Any], if_match: int
) -> RowRecord:
    """`changes`: name, x_mm, y_mm, direction, front (stored values; the racks move with the row)
    and `cooling_kw` (None: the row shares the hall's cooling)."""
    row = get_row_or_404(session, row_id)
    count = rack_count(session, row_id)

    def change(row: Row) -> None:
        if changes.get("name") is not None and changes["name"] != row.name:
            check_unique_names(session, row.hall_id, [changes["name"]], [], [])
        for key, value in changes.items():
            if value is not None or key == "cooling_kw":
                setattr(row, key, value)

    audited_update(
        session,
        row,
        if_match,
        Target(access.principal, access.project_id, "row", row_id, f"row {row_id}"),
        snapshot=lambda row: row_json(RowRecord.of(row, count)),
        change=change,
        check=lambda: validate_hall_or_raise(session, row.hall_id),
    )
    return RowRecord.of(row, count)


def delete_row(session: Session, access: ProjectAccess, row_id: int, if_match: int) -> None:
    row = get_row_or_404(session, row_id)

    def snapshot(row: Row) -> dict[str, Any]:
        racks = load_racks(session, Rack.row_id == row_id)
        return {**row_json(RowRecord.of(row, len(racks))), "racks": [rack_json(r) for r in racks]}

    audited_delete(
        session,
        row,
        if_match,
        Target(access.principal, access.project_id, "row", row_id, f"row {row_id}"),
        snapshot=snapshot,
    )


def _spec_of(rack: RackRecord) -> rp.RackSpec:
    return rp.RackSpec(
        rack_type_id=rack.rack_type_id,
        position_mm=rack.position_mm,
        role=rack.role,
        port_face=rack.port_face,
        logical_racks=tuple(
            rp.LogicalRackSpec(
                servers=lr.servers,
                server_model_id=lr.server_model_id,
                tor_model_id=lr.tor_model_id,
                ports_used=lr.ports_used,
                tor_position=lr.tor_position,
                base_u=lr.base_u,
            )
            for lr in rack.logical_racks
        ),
    )


def duplicate_row(
    session: Session,
    access: ProjectAccess,
    row_id: int,
    *,
    name: str,
    origin: dl.Point,
    direction: int | None = None,
    front: dl.Side | None = None,
    rack_name_pattern: str = rp.DEFAULT_RACK_NAME_PATTERN,
) -> CreatedRows:
    """A copy of the row (racks, logical racks, the row's and racks' facility settings and feeds)
    at a new origin; fabric switches stay (their names are unique)."""
    row = get_row_or_404(session, row_id)
    racks = load_racks(session, Rack.row_id == row_id)
    copy = rp.RowSpec(
        name=name,
        origin=origin,
        direction=direction if direction is not None else row.direction,
        front=front or row.front,
        racks=tuple(_spec_of(r) for r in racks),
        rack_name_pattern=rack_name_pattern,
    )
    created = create_rows(session, access, row.hall_id, [copy], action="duplicate")
    _copy_facility(session, row, racks, created)
    return created


def _copy_facility(session: Session, row: Row, racks: Sequence[RackRecord], created: CreatedRows) -> None:
    """The copy's racks (in the original's order) take the originals' stored settings and feeds:
    NULLs stay NULL, so a default stays the default."""
    (new_row,) = created.rows
    if row.cooling_kw is not None:
        session.execute(update(Row).where(Row.id == new_row.id).values(cooling_kw=row.cooling_kw))
    stored = {
        r.id: r
        for r in session.execute(
            select(Rack.id, *(getattr(Rack, k) for k in facility.RACK_SETTINGS)).where(Rack.row_id == row.id)
        )
    }
    pairs = list(zip((r.id for r in racks), created.rack_ids, strict=True))
    settings = [
        {"rid": new, **{f"v_{k}": getattr(stored[old], k) for k in facility.RACK_SETTINGS}}
        for old, new in pairs
        if any(getattr(stored[old], k) is not None for k in facility.RACK_SETTINGS)
    ]
    if settings:
        session.execute(
            update(facility.RACK_TABLE)
            .where(facility.RACK_TABLE.c.id == bindparam("rid"))
            .values({k: bindparam(f"v_{k}") for k in facility.RACK_SETTINGS}),
            settings,
        )
    feeds = facility.load_feeds(session, RackFeed.rack_id.in_([old for old, _ in pairs])) if pairs else {}
    facility.insert_feeds(
        session, row.hall_id, {new: facility.stored_feed_specs(feeds[old]) for old, new in pairs if old in feeds}
    )
