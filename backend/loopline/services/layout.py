"""Halls, rows and racks: CRUD, bulk creation, validation after every write.

Every write flushes, then re-reads the hall's geometry and contents and runs the layout rules;
an error raises `LayoutInvalid` (422) and the request's transaction is rolled back, so nothing
half-written stays. Racks and their contents are written with bulk `INSERT`s, not one ORM
object per rack.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from sqlalchemy import ColumnElement, delete, func, insert, select, update
from sqlalchemy.orm import Session

from loopline.api.schemas.common import m, mm
from loopline.api.schemas.layout import (
    FabricSwitchSpec,
    HallCreate,
    HallUpdate,
    LogicalRackSpec,
    RackCreate,
    RackSpec,
    RackUpdate,
    RowCreate,
    RowDuplicate,
    RowPairCreate,
    RowUpdate,
    hall_dict,
)
from loopline.db.models import FabricSwitch, Hall, LogicalRack, Rack, Row
from loopline.db.repositories import Page, paginate
from loopline.db.repositories.bulk import allocate_ids, copy_rows
from loopline.domain import layout as dl
from loopline.domain import layout_rules as rules
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.services import audit
from loopline.services.access import ProjectAccess
from loopline.services.layout_snapshot import (
    FS_COLS,
    LR_COLS,
    RACK_COLS,
    ROW_COLS,
    DomainCatalog,
    domain_hall,
    get_hall_or_404,
    load_hall_data,
)
from loopline.services.versioning import StaleVersion, bump, check_version

DEFAULT_RACK_TYPE = "42U 600x1200"
MAX_ISSUES = 50


class LayoutInvalid(DomainError):
    """The write would leave the layout invalid; `issues` lists every error found (up to 50)."""

    def __init__(self, issues: Sequence[rules.Issue]) -> None:
        super().__init__(issues[0].field, issues[0].message)
        self.issues = list(issues[:MAX_ISSUES])


# ---------------------------------------------------------------- validation


def validate_hall_or_raise(session: Session, hall_id: int) -> None:
    session.flush()
    hall = domain_hall(load_hall_data(session, hall_id))
    errors = rules.check_geometry(hall)
    for row in hall.rows:
        for rack in row.racks:
            errors += rules.check_contents(row, rack)
    if errors:
        raise LayoutInvalid(errors)


# ---------------------------------------------------------------- serialisation


_TOR_BELOW = {dl.TorPosition.BOTTOM: 0, dl.TorPosition.MIDDLE: 1, dl.TorPosition.TOP: 2}


def lr_read(cat: DomainCatalog, lr: Any) -> dict[str, Any]:
    server_u = cat.servers[lr.server_model_id].height_u
    below = (0, lr.servers // 2, lr.servers)[_TOR_BELOW[lr.tor_position]]
    return {
        "ordinal": lr.ordinal,
        "servers": lr.servers,
        "server_model_id": lr.server_model_id,
        "ports_used": lr.ports_used,
        "tor_model_id": lr.tor_model_id,
        "tor_position": lr.tor_position,
        "base_u": lr.base_u,
        "top_u": lr.base_u + lr.servers * server_u + cat.switches[lr.tor_model_id].height_u - 1,
        "tor_u": lr.base_u + below * server_u,
    }


def fs_read(sw: Any) -> dict[str, Any]:
    return {"name": sw.name, "role": sw.role, "switch_model_id": sw.switch_model_id, "u": sw.u, "cluster": sw.cluster}


def rack_read(
    cat: DomainCatalog, rack: Any, lrs: Iterable[Any], sws: Iterable[Any], cache: dict[Any, Any] | None = None
) -> dict[str, Any]:
    """A rack as `RackRead` wants it. `cache` shares the dicts of identical logical racks (read-only use)."""
    if cache is None:
        lr_dicts = [lr_read(cat, lr) for lr in lrs]
    else:
        lr_dicts = []
        for lr in lrs:
            key = tuple(lr[1:])
            found = cache.get(key)
            if found is None:
                found = cache[key] = lr_read(cat, lr)
            lr_dicts.append(found)
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
        "logical_racks": lr_dicts,
        "fabric_switches": [fs_read(sw) for sw in sws],
    }


def row_read(row: Any, rack_count: int) -> dict[str, Any]:
    return {
        "id": row.id,
        "hall_id": row.hall_id,
        "name": row.name,
        "x_m": m(row.x_mm),
        "y_m": m(row.y_mm),
        "direction": row.direction,
        "front": row.front,
        "version": row.version,
        "rack_count": rack_count,
    }


def racks_read(session: Session, where: ColumnElement[bool], cat: DomainCatalog | None = None) -> list[dict[str, Any]]:
    """Racks matching `where` with their contents: three queries (plus the catalog)."""
    cat = cat or DomainCatalog.load(session)
    racks = session.execute(select(*RACK_COLS).where(where).order_by(Rack.row_id, Rack.position_mm, Rack.id)).all()
    ids = [r.id for r in racks]
    lrs: dict[int, list[Any]] = {i: [] for i in ids}
    sws: dict[int, list[Any]] = {i: [] for i in ids}
    if ids:
        for lr in session.execute(
            select(*LR_COLS).where(LogicalRack.rack_id.in_(ids)).order_by(LogicalRack.rack_id, LogicalRack.ordinal)
        ):
            lrs[lr.rack_id].append(lr)
        for sw in session.execute(
            select(*FS_COLS).where(FabricSwitch.rack_id.in_(ids)).order_by(FabricSwitch.rack_id, FabricSwitch.u)
        ):
            sws[sw.rack_id].append(sw)
    return [rack_read(cat, r, lrs[r.id], sws[r.id]) for r in racks]


# ---------------------------------------------------------------- halls


def create_hall(session: Session, access: ProjectAccess, data: HallCreate) -> Hall:
    _unique_hall_name(session, access.project_id, data.name)
    hall = Hall(project_id=access.project_id, **_hall_columns(data.model_dump()))
    session.add(hall)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="create",
        resource_type="hall",
        resource_id=hall.id,
        after=hall_dict(hall),
    )
    return hall


def _hall_columns(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key == "raised_floor_height_m":
            out["raised_floor_mm"] = mm(value)
        elif key.endswith("_m"):
            out[key[:-2] + "_mm"] = mm(value)
        else:
            out[key] = value
    return out


def _unique_hall_name(session: Session, project_id: int, name: str, exclude: int | None = None) -> None:
    stmt = select(Hall.id).where(Hall.project_id == project_id, Hall.name == name)
    if exclude is not None:
        stmt = stmt.where(Hall.id != exclude)
    if session.execute(stmt).first():
        raise Conflict("name", f"a hall named {name!r} already exists in this project")


def list_halls(session: Session, project_id: int, *, page: int, limit: int) -> Page[Hall]:
    stmt = select(Hall).where(Hall.project_id == project_id).order_by(Hall.name, Hall.id)
    return paginate(session, stmt, page=page, limit=limit)


def update_hall(session: Session, access: ProjectAccess, hall_id: int, data: HallUpdate, if_match: int) -> Hall:
    hall = get_hall_or_404(session, hall_id)
    check_version(hall, if_match, f"hall {hall_id}")
    before = hall_dict(hall)
    values = data.model_dump(exclude_unset=True)
    if values.get("name") is not None:
        _unique_hall_name(session, hall.project_id, values["name"], exclude=hall.id)
    raised = hall.raised_floor if values.get("raised_floor") is None else values["raised_floor"]
    height = m(hall.raised_floor_mm) if values.get("raised_floor_height_m") is None else values["raised_floor_height_m"]
    if raised and height <= 0:
        raise DomainError("raised_floor_height_m", "must be > 0 when raised_floor is true")
    if not raised:
        values["raised_floor_height_m"] = 0.0
    for key, value in _hall_columns({k: v for k, v in values.items() if v is not None}).items():
        setattr(hall, key, value)
    bump(hall)
    validate_hall_or_raise(session, hall.id)
    audit.record(
        session,
        access.principal,
        project_id=hall.project_id,
        action="update",
        resource_type="hall",
        resource_id=hall.id,
        before=before,
        after=hall_dict(hall),
    )
    return hall


def delete_hall(session: Session, access: ProjectAccess, hall_id: int, if_match: int) -> None:
    hall = get_hall_or_404(session, hall_id)
    check_version(hall, if_match, f"hall {hall_id}")
    before = hall_dict(hall)
    session.delete(hall)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=hall.project_id,
        action="delete",
        resource_type="hall",
        resource_id=hall_id,
        before=before,
    )


# ---------------------------------------------------------------- planning racks


@dataclass
class RackPlan:
    name: str
    rack_type_id: int
    position_mm: int
    role: dl.RackRole
    port_face: dl.Face
    lrs: list[dict[str, Any]] = field(default_factory=list)
    switches: list[dict[str, Any]] = field(default_factory=list)


def default_rack_type(cat: DomainCatalog) -> int:
    for i, t in cat.rack_type_rows.items():
        if t.name == DEFAULT_RACK_TYPE:
            return i
    if not cat.rack_type_rows:
        raise DomainError("rack_type_id", "the catalog has no rack types: create one first")
    return min(cat.rack_type_rows)


def _rack_name(pattern: str, row_name: str, index: int, path: str) -> str:
    try:
        return pattern.format(row=row_name, index=index)
    except (KeyError, IndexError, ValueError) as exc:
        raise DomainError(f"{path}rack_name_pattern", f"cannot format {pattern!r}: {exc}") from None


def plan_logical_racks(cat: DomainCatalog, specs: Sequence[LogicalRackSpec], path: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cursor = 1
    for j, spec in enumerate(specs):
        p = f"{path}logical_racks[{j}]"
        if spec.server_model_id not in cat.servers:
            raise DomainError(f"{p}.server_model_id", f"unknown server model {spec.server_model_id}")
        if spec.tor_model_id not in cat.switches:
            raise DomainError(f"{p}.tor_model_id", f"unknown switch model {spec.tor_model_id}")
        base = spec.base_u if spec.base_u is not None else cursor
        height = spec.servers * cat.servers[spec.server_model_id].height_u + cat.switches[spec.tor_model_id].height_u
        cursor = base + height
        out.append(
            {
                "ordinal": j,
                "servers": spec.servers,
                "server_model_id": spec.server_model_id,
                "ports_used": spec.ports_used,
                "tor_model_id": spec.tor_model_id,
                "tor_position": spec.tor_position,
                "base_u": base,
            }
        )
    return out


def plan_switches(cat: DomainCatalog, specs: Sequence[FabricSwitchSpec], path: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for j, spec in enumerate(specs):
        if spec.switch_model_id not in cat.switches:
            raise DomainError(
                f"{path}fabric_switches[{j}].switch_model_id", f"unknown switch model {spec.switch_model_id}"
            )
        out.append(
            {
                "name": spec.name,
                "role": spec.role.value,
                "switch_model_id": spec.switch_model_id,
                "u": spec.u,
                "cluster": spec.cluster,
            }
        )
    return out


def plan_rack(cat: DomainCatalog, spec: RackSpec, name: str, position_mm: int, path: str) -> RackPlan:
    type_id = spec.rack_type_id if spec.rack_type_id is not None else default_rack_type(cat)
    if type_id not in cat.rack_types:
        raise DomainError(f"{path}rack_type_id", f"unknown rack type {type_id}")
    return RackPlan(
        name=name,
        rack_type_id=type_id,
        position_mm=position_mm,
        role=spec.role,
        port_face=spec.port_face,
        lrs=plan_logical_racks(cat, spec.logical_racks, path),
        switches=plan_switches(cat, spec.fabric_switches, path),
    )


def plan_row_racks(
    cat: DomainCatalog, data: RowCreate, path: str, *, start_index: int = 1, start_mm: int = 0
) -> list[RackPlan]:
    """Explicit racks, then `rack_count` copies of the template; unpositioned racks touch the previous one."""
    specs: list[tuple[str, RackSpec]] = [(f"{path}racks[{i}].", spec) for i, spec in enumerate(data.racks)]
    if data.rack_count and data.rack_template is not None:
        specs += [(f"{path}rack_template.", data.rack_template)] * data.rack_count
    plans: list[RackPlan] = []
    cursor = start_mm
    template_plan: RackPlan | None = None
    for offset, (p, spec) in enumerate(specs):
        index = start_index + offset
        name = (
            spec.name
            if spec.name and spec is not data.rack_template
            else _rack_name(data.rack_name_pattern, data.name, index, path)
        )
        position = mm(spec.position_m) if spec.position_m is not None else cursor
        if spec is data.rack_template and template_plan is not None:
            # Same contents for every copy: plan the template once.
            plan = RackPlan(
                name,
                template_plan.rack_type_id,
                position,
                template_plan.role,
                template_plan.port_face,
                template_plan.lrs,
                template_plan.switches,
            )
        else:
            plan = plan_rack(cat, spec, name, position, p)
            if spec is data.rack_template:
                template_plan = plan
        plans.append(plan)
        cursor = position + cat.rack_types[plan.rack_type_id].width_mm
    return plans


# ---------------------------------------------------------------- writing racks in bulk


def _check_names(
    session: Session, hall_id: int, row_names: list[str], rack_names: list[str], switch_names: list[str]
) -> None:
    for kind, names, model in (
        ("row", row_names, Row),
        ("rack", rack_names, Rack),
        ("fabric switch", switch_names, FabricSwitch),
    ):
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise DomainError("name", f"the request names two {kind}s {name!r}")
            seen.add(name)
        if names:
            clash = session.execute(
                select(model.name).where(model.hall_id == hall_id, model.name.in_(names)).limit(1)
            ).scalar()
            if clash is not None:
                raise Conflict("name", f"a {kind} named {clash!r} already exists in this hall")


RACK_COPY_COLUMNS = ("id", "hall_id", "row_id", "name", "rack_type_id", "position_mm", "role", "port_face", "version")
LR_COPY_COLUMNS = (
    "hall_id",
    "rack_id",
    "ordinal",
    "servers",
    "server_model_id",
    "ports_used",
    "tor_model_id",
    "tor_position",
    "base_u",
)
FS_COPY_COLUMNS = ("hall_id", "rack_id", "name", "role", "switch_model_id", "u", "cluster")


def insert_racks(session: Session, hall_id: int, plans: list[tuple[int, RackPlan]]) -> tuple[list[int], int]:
    """Write racks (row id, plan) and their contents with COPY; returns (rack ids, logical racks written)."""
    if not plans:
        return [], 0
    ids = allocate_ids(session, "racks", len(plans))
    copy_rows(
        session,
        "racks",
        RACK_COPY_COLUMNS,
        (
            (rack_id, hall_id, row_id, p.name, p.rack_type_id, p.position_mm, p.role, p.port_face, 1)
            for rack_id, (row_id, p) in zip(ids, plans, strict=True)
        ),
    )
    lr_rows = [
        (hall_id, rack_id, *(lr[c] for c in LR_COPY_COLUMNS[2:]))
        for rack_id, (_, p) in zip(ids, plans, strict=True)
        for lr in p.lrs
    ]
    if lr_rows:
        copy_rows(session, "logical_racks", LR_COPY_COLUMNS, lr_rows)
    sw_rows = [
        (hall_id, rack_id, *(sw[c] for c in FS_COPY_COLUMNS[2:]))
        for rack_id, (_, p) in zip(ids, plans, strict=True)
        for sw in p.switches
    ]
    if sw_rows:
        copy_rows(session, "fabric_switches", FS_COPY_COLUMNS, sw_rows)
    return ids, len(lr_rows)


def planned_rows(cat: DomainCatalog, items: Sequence[RowCreate], plans: Sequence[Sequence[RackPlan]]) -> list[dl.Row]:
    """The rows about to be written, as the domain sees them (identical contents share objects)."""
    lr_cache: dict[tuple[Any, ...], dl.LogicalRack] = {}
    out: list[dl.Row] = []
    for item, rack_plans in zip(items, plans, strict=True):
        racks = []
        for p in rack_plans:
            lrs = []
            for lr in p.lrs:
                key = tuple(lr.values())
                if key not in lr_cache:
                    lr_cache[key] = cat.logical_rack(SimpleNamespace(**lr))
                lrs.append(lr_cache[key])
            racks.append(
                dl.Rack(
                    name=p.name,
                    rack_type=cat.rack_types[p.rack_type_id],
                    position_mm=p.position_mm,
                    logical_racks=tuple(lrs),
                    role=p.role,
                    port_face=p.port_face,
                    fabric_switches=tuple(
                        dl.FabricSwitch(
                            sw["name"], sw["role"], cat.switches[sw["switch_model_id"]], sw["u"], sw["cluster"]
                        )
                        for sw in p.switches
                    ),
                )
            )
        out.append(dl.Row(item.name, dl.Point(mm(item.x_m), mm(item.y_m)), item.direction, item.front, tuple(racks)))
    return out


def check_new_rows(session: Session, hall_id: int, new_rows: list[dl.Row]) -> None:
    """Validate the hall as it would be with `new_rows` added, before anything is written."""
    hall = domain_hall(load_hall_data(session, hall_id))
    combined = replace(hall, rows=hall.rows + tuple(new_rows))
    errors = rules.check_geometry(combined)
    seen: set[int] = set()
    for row in new_rows:
        for rack in row.racks:
            # Racks with the same contents give the same answers: check each distinct contents once.
            key = hash((rack.rack_type, rack.logical_racks, rack.fabric_switches))
            if key in seen:
                continue
            found = rules.check_contents(row, rack)
            if not found:
                seen.add(key)
            errors += found
    if errors:
        raise LayoutInvalid(errors)


@dataclass
class CreatedRows:
    rows: list[dict[str, Any]]
    rack_ids: list[int]
    logical_racks: int


def create_rows(
    session: Session,
    access: ProjectAccess,
    hall_id: int,
    items: Sequence[RowCreate],
    *,
    action: str = "create",
    paths: Sequence[str] | None = None,
) -> CreatedRows:
    """Create rows with their racks: one INSERT for the rows, one for the racks, one for their contents."""
    get_hall_or_404(session, hall_id)
    cat = DomainCatalog.load(session)
    paths = paths or ([""] if len(items) == 1 else [f"rows[{i}]." for i in range(len(items))])
    plans = [plan_row_racks(cat, item, path) for item, path in zip(items, paths, strict=True)]
    _check_names(
        session,
        hall_id,
        [i.name for i in items],
        [p.name for ps in plans for p in ps],
        [s["name"] for ps in plans for p in ps for s in p.switches],
    )
    check_new_rows(session, hall_id, planned_rows(cat, items, plans))
    rows = session.execute(
        insert(Row).returning(*ROW_COLS, sort_by_parameter_order=True),
        [
            {
                "hall_id": hall_id,
                "name": i.name,
                "x_mm": mm(i.x_m),
                "y_mm": mm(i.y_m),
                "direction": i.direction,
                "front": i.front,
                "version": 1,
            }
            for i in items
        ],
    ).all()
    rack_ids, n_lrs = insert_racks(
        session, hall_id, [(row.id, p) for row, ps in zip(rows, plans, strict=True) for p in ps]
    )
    out = [row_read(row, len(ps)) for row, ps in zip(rows, plans, strict=True)]
    project_id = access.project_id
    audit.record_many(
        session,
        access.principal,
        project_id=project_id,
        action=action,
        resource_type="row",
        entries=[(r["id"], None, {**r, "racks": [p.name for p in ps]}) for r, ps in zip(out, plans, strict=True)],
    )
    return CreatedRows(out, rack_ids, n_lrs)


def create_row_pair(session: Session, access: ProjectAccess, hall_id: int, data: RowPairCreate) -> CreatedRows:
    """Row A at the origin with its fronts towards +normal; row B across the cold aisle facing back."""
    cat = DomainCatalog.load(session)
    type_id = data.rack_template.rack_type_id or default_rack_type(cat)
    if type_id not in cat.rack_types:
        raise DomainError("rack_template.rack_type_id", f"unknown rack type {type_id}")
    depth = cat.rack_types[type_id].depth_mm
    ux, uy = dl.Row("", dl.Point(0, 0), data.direction).normal
    offset = depth + mm(data.cold_aisle_m)
    bx, by = mm(data.x_m) + ux * offset, mm(data.y_m) + uy * offset
    if bx < 0 or by < 0:
        raise DomainError(
            "y_m" if uy else "x_m", f"row {data.name_b!r} would start outside the hall ({bx / 1000:g}, {by / 1000:g})"
        )
    common = {
        "direction": data.direction,
        "rack_count": data.rack_count,
        "rack_template": data.rack_template,
        "rack_name_pattern": data.rack_name_pattern,
    }
    a = RowCreate(name=data.name_a, x_m=data.x_m, y_m=data.y_m, front=dl.Side.LEFT, **common)
    b = RowCreate(name=data.name_b, x_m=bx / 1000, y_m=by / 1000, front=dl.Side.RIGHT, **common)
    return create_rows(session, access, hall_id, [a, b], action="create_pair", paths=["", ""])


def get_row_or_404(session: Session, row_id: int) -> Row:
    row = session.get(Row, row_id)
    if row is None:
        raise NotFound("row_id", f"row {row_id} not found")
    return row


def _rack_count(session: Session, row_id: int) -> int:
    return int(session.execute(select(func.count()).where(Rack.row_id == row_id)).scalar_one())


def row_detail(session: Session, row_id: int) -> dict[str, Any]:
    row = get_row_or_404(session, row_id)
    racks = racks_read(session, Rack.row_id == row_id)
    return {**row_read(row, len(racks)), "racks": racks}


def list_rows(session: Session, hall_id: int, *, page: int, limit: int) -> Page[dict[str, Any]]:
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
    items = [row_read(r, r.n) for r in session.execute(stmt.limit(limit).offset((page - 1) * limit))]
    return Page(items=items, total=total, page=page, limit=limit)


def update_row(session: Session, access: ProjectAccess, row_id: int, data: RowUpdate, if_match: int) -> dict[str, Any]:
    row = get_row_or_404(session, row_id)
    check_version(row, if_match, f"row {row_id}")
    count = _rack_count(session, row_id)
    before = row_read(row, count)
    values = data.model_dump(exclude_unset=True)
    if values.get("name") is not None and values["name"] != row.name:
        _check_names(session, row.hall_id, [values["name"]], [], [])
    for key, value in values.items():
        if value is None:
            continue
        if key in ("x_m", "y_m"):
            setattr(row, key[0] + "_mm", mm(value))
        else:
            setattr(row, key, value)
    bump(row)
    validate_hall_or_raise(session, row.hall_id)
    after = row_read(row, count)
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="update",
        resource_type="row",
        resource_id=row.id,
        before=before,
        after=after,
    )
    return after


def delete_row(session: Session, access: ProjectAccess, row_id: int, if_match: int) -> None:
    row = get_row_or_404(session, row_id)
    check_version(row, if_match, f"row {row_id}")
    before = {**row_read(row, 0), "racks": racks_read(session, Rack.row_id == row_id)}
    before["rack_count"] = len(before["racks"])
    session.delete(row)
    session.flush()
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="delete",
        resource_type="row",
        resource_id=row_id,
        before=before,
    )


def _spec_from_read(rack: dict[str, Any]) -> RackSpec:
    return RackSpec(
        rack_type_id=rack["rack_type_id"],
        position_m=rack["position_m"],
        role=rack["role"],
        port_face=rack["port_face"],
        logical_racks=[
            LogicalRackSpec(
                **{
                    k: lr[k]
                    for k in ("servers", "server_model_id", "ports_used", "tor_model_id", "tor_position", "base_u")
                }
            )
            for lr in rack["logical_racks"]
        ],
    )


def duplicate_row(session: Session, access: ProjectAccess, row_id: int, data: RowDuplicate) -> CreatedRows:
    """A copy of the row (racks, logical racks) at a new origin; fabric switches stay (their names are unique)."""
    row = get_row_or_404(session, row_id)
    racks = racks_read(session, Rack.row_id == row_id)
    copy = RowCreate(
        name=data.name,
        x_m=data.x_m,
        y_m=data.y_m,
        direction=data.direction if data.direction is not None else row.direction,
        front=data.front or row.front,
        racks=[_spec_from_read(r) for r in racks],
        rack_name_pattern=data.rack_name_pattern,
    )
    return create_rows(session, access, row.hall_id, [copy], action="duplicate")


# ---------------------------------------------------------------- racks


def get_rack_or_404(session: Session, rack_id: int) -> Rack:
    rack = session.get(Rack, rack_id)
    if rack is None:
        raise NotFound("rack_id", f"rack {rack_id} not found")
    return rack


def rack_detail(session: Session, rack_id: int) -> dict[str, Any]:
    found = racks_read(session, Rack.id == rack_id)
    if not found:
        raise NotFound("rack_id", f"rack {rack_id} not found")
    return found[0]


def list_racks(session: Session, row_id: int, *, page: int, limit: int) -> Page[dict[str, Any]]:
    get_row_or_404(session, row_id)
    total = _rack_count(session, row_id)
    ids = list(
        session.execute(
            select(Rack.id)
            .where(Rack.row_id == row_id)
            .order_by(Rack.position_mm, Rack.id)
            .limit(limit)
            .offset((page - 1) * limit)
        ).scalars()
    )
    return Page(items=racks_read(session, Rack.id.in_(ids)), total=total, page=page, limit=limit)


def create_rack(session: Session, access: ProjectAccess, row_id: int, data: RackCreate) -> dict[str, Any]:
    row = get_row_or_404(session, row_id)
    cat = DomainCatalog.load(session)
    existing = racks_read(session, Rack.row_id == row_id, cat)
    end = max((mm(r["position_m"]) + cat.rack_types[r["rack_type_id"]].width_mm for r in existing), default=0)
    spec_row = RowCreate(name=row.name, x_m=0, y_m=0, racks=[data])
    plan = plan_row_racks(cat, spec_row, "", start_index=len(existing) + 1, start_mm=end)[0]
    _check_names(session, row.hall_id, [], [plan.name], [s["name"] for s in plan.switches])
    ids, _ = insert_racks(session, row.hall_id, [(row_id, plan)])
    validate_hall_or_raise(session, row.hall_id)
    after = rack_detail(session, ids[0])
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="create",
        resource_type="rack",
        resource_id=ids[0],
        after=after,
    )
    return after


def update_rack(
    session: Session, access: ProjectAccess, rack_id: int, data: RackUpdate, if_match: int
) -> dict[str, Any]:
    rack = get_rack_or_404(session, rack_id)
    check_version(rack, if_match, f"rack {rack_id}")
    before = rack_detail(session, rack_id)
    cat = DomainCatalog.load(session)
    values = data.model_dump(exclude_unset=True)
    changes: dict[str, Any] = {}
    if values.get("name") is not None and values["name"] != rack.name:
        _check_names(session, rack.hall_id, [], [values["name"]], [])
        changes["name"] = values["name"]
    if values.get("row_id") is not None and values["row_id"] != rack.row_id:
        target = session.get(Row, values["row_id"])
        if target is None or target.hall_id != rack.hall_id:
            raise DomainError("row_id", f"row {values['row_id']} is not a row of this rack's hall")
        changes["row_id"] = target.id
    if values.get("rack_type_id") is not None:
        if values["rack_type_id"] not in cat.rack_types:
            raise DomainError("rack_type_id", f"unknown rack type {values['rack_type_id']}")
        changes["rack_type_id"] = values["rack_type_id"]
    if values.get("position_m") is not None:
        changes["position_mm"] = mm(values["position_m"])
    for key in ("role", "port_face"):
        if values.get(key) is not None:
            changes[key] = values[key]
    # Core UPDATE guarded by the version: a concurrent writer that got here first makes it match nothing.
    done = session.execute(
        update(Rack)
        .where(Rack.id == rack_id, Rack.version == if_match)
        .values(**changes, version=if_match + 1)
        .execution_options(synchronize_session=False)
    ).rowcount
    if done != 1:
        current = session.execute(select(Rack.version).where(Rack.id == rack_id)).scalar_one()
        raise StaleVersion(f"rack {rack_id}", if_match, current)
    if data.logical_racks is not None:
        session.execute(delete(LogicalRack).where(LogicalRack.rack_id == rack_id))
        lrs = plan_logical_racks(cat, data.logical_racks, "")
        if lrs:
            session.execute(insert(LogicalRack), [{"hall_id": rack.hall_id, "rack_id": rack_id, **lr} for lr in lrs])
    if data.fabric_switches is not None:
        session.execute(delete(FabricSwitch).where(FabricSwitch.rack_id == rack_id))
        sws = plan_switches(cat, data.fabric_switches, "")
        if sws:
            _check_names(session, rack.hall_id, [], [], [s["name"] for s in sws])
            session.execute(insert(FabricSwitch), [{"hall_id": rack.hall_id, "rack_id": rack_id, **s} for s in sws])
    session.expire(rack)
    validate_hall_or_raise(session, rack.hall_id)
    after = rack_detail(session, rack_id)
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="update",
        resource_type="rack",
        resource_id=rack_id,
        before=before,
        after=after,
    )
    return after


def delete_rack(session: Session, access: ProjectAccess, rack_id: int, if_match: int) -> None:
    rack = get_rack_or_404(session, rack_id)
    check_version(rack, if_match, f"rack {rack_id}")
    before = rack_detail(session, rack_id)
    done = session.execute(
        delete(Rack).where(Rack.id == rack_id, Rack.version == if_match).execution_options(synchronize_session=False)
    ).rowcount
    if done != 1:
        current = session.execute(select(Rack.version).where(Rack.id == rack_id)).scalar_one()
        raise StaleVersion(f"rack {rack_id}", if_match, current)
    session.expunge(rack)
    audit.record(
        session,
        access.principal,
        project_id=access.project_id,
        action="delete",
        resource_type="rack",
        resource_id=rack_id,
        before=before,
    )
