"""Whole-project export and import as one versioned JSON document (the API's `ProjectDocument`).

Export writes the document's JSON (format `loopline.project`, schema version 1, metres). Import
takes the document as `Document` (stored units, catalog entries referenced by name), resolves the
names against the catalog and creates the project, its halls and rows in one transaction.
The project's price book travels with it (its own entries; the defaults are the installation's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import FabricSettingsRow, Hall, Membership, Project, RackType, Role, ServerModel, SwitchModel
from loopline.domain import layout as dl
from loopline.domain import rack_planning as rp
from loopline.domain.errors import Conflict, DomainError
from loopline.domain.price_book import PriceEntry, check_entries
from loopline.domain.units import m
from loopline.services import audit, pricing
from loopline.services.access import Principal, ProjectAccess
from loopline.services.catalog import visible_to
from loopline.services.layout_snapshot import load_hall_data
from loopline.services.projects import fabric_columns, fabric_dict, get_fabric_row, get_project
from loopline.services.rows import create_rows


@dataclass(frozen=True, slots=True)
class DocLogicalRack:
    servers: int
    server_model: str
    ports_used: int
    tor_model: str
    tor_position: dl.TorPosition
    base_u: int


@dataclass(frozen=True, slots=True)
class DocSwitch:
    name: str
    role: str
    switch_model: str
    u: int
    cluster: int | None


@dataclass(frozen=True, slots=True)
class DocRack:
    name: str
    rack_type: str
    position_mm: int
    role: dl.RackRole
    port_face: dl.Face
    logical_racks: tuple[DocLogicalRack, ...] = ()
    fabric_switches: tuple[DocSwitch, ...] = ()


@dataclass(frozen=True, slots=True)
class DocRow:
    name: str
    origin: dl.Point
    direction: int
    front: dl.Side
    racks: tuple[DocRack, ...] = ()


@dataclass(frozen=True, slots=True)
class DocHall:
    columns: dict[str, Any]
    """The hall's stored values: name, site, raised_floor and the `*_mm` lengths."""
    rows: tuple[DocRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Document:
    """A project document to import, in stored units; catalog entries as stored values, by name."""

    name: str
    description: str
    fabric: dl.FabricSettings
    server_models: Sequence[dict[str, Any]] = ()
    switch_models: Sequence[dict[str, Any]] = ()
    rack_types: Sequence[dict[str, Any]] = ()
    halls: Sequence[DocHall] = field(default_factory=tuple)
    price_book: tuple[str, tuple[PriceEntry, ...]] | None = None
    """The project's price book (currency, own entries); None: the defaults alone."""


SERVER_KEYS = ("nic_ports", "port_gbps", "height_u")
SWITCH_KEYS = ("server_ports", "server_port_gbps", "uplink_ports", "uplink_gbps", "height_u")


def export_project(session: Session, project_id: int) -> dict[str, Any]:
    project = get_project(session, project_id)
    fabric = fabric_dict(get_fabric_row(session, project_id))
    fabric.pop("version")
    halls: list[dict[str, Any]] = []
    servers: dict[int, ServerModel] = {}
    switches: dict[int, SwitchModel] = {}
    types: dict[int, RackType] = {}
    for hall_id in session.execute(select(Hall.id).where(Hall.project_id == project_id).order_by(Hall.name)).scalars():
        d = load_hall_data(session, hall_id)
        h = d.hall
        rows = []
        for row in d.rows:
            racks = []
            for rack in d.racks_by_row.get(row.id, ()):
                types[rack.rack_type_id] = d.rack_types[rack.rack_type_id]
                lrs = []
                for lr in d.lrs_by_rack.get(rack.id, ()):
                    servers[lr.server_model_id] = d.server_models[lr.server_model_id]
                    switches[lr.tor_model_id] = d.switch_models[lr.tor_model_id]
                    lrs.append(
                        {
                            "servers": lr.servers,
                            "server_model": d.server_models[lr.server_model_id].name,
                            "ports_used": lr.ports_used,
                            "tor_model": d.switch_models[lr.tor_model_id].name,
                            "tor_position": lr.tor_position.value,
                            "base_u": lr.base_u,
                        }
                    )
                sws = []
                for sw in d.switches_by_rack.get(rack.id, ()):
                    switches[sw.switch_model_id] = d.switch_models[sw.switch_model_id]
                    sws.append(
                        {
                            "name": sw.name,
                            "role": sw.role,
                            "switch_model": d.switch_models[sw.switch_model_id].name,
                            "u": sw.u,
                            "cluster": sw.cluster,
                        }
                    )
                racks.append(
                    {
                        "name": rack.name,
                        "rack_type": d.rack_types[rack.rack_type_id].name,
                        "position_m": m(rack.position_mm),
                        "role": rack.role.value,
                        "port_face": rack.port_face.value,
                        "logical_racks": lrs,
                        "fabric_switches": sws,
                    }
                )
            rows.append(
                {
                    "name": row.name,
                    "x_m": m(row.x_mm),
                    "y_m": m(row.y_mm),
                    "direction": row.direction,
                    "front": row.front.value,
                    "racks": racks,
                }
            )
        halls.append(
            {
                "name": h.name,
                "site": h.site,
                "width_m": m(h.width_mm),
                "depth_m": m(h.depth_mm),
                "raised_floor": h.raised_floor,
                "raised_floor_height_m": m(h.raised_floor_mm),
                "tray_height_m": m(h.tray_height_mm),
                "tile_m": m(h.tile_mm),
                "min_cold_aisle_m": m(h.min_cold_aisle_mm),
                "min_hot_aisle_m": m(h.min_hot_aisle_mm),
                "rows": rows,
            }
        )
    return {
        "format": "loopline.project",
        "schema_version": 1,
        "project": {"name": project.name, "description": project.description},
        "fabric": {k: (v.value if hasattr(v, "value") else v) for k, v in fabric.items()},
        "catalog": {
            "server_models": [
                {"name": s.name, **{k: getattr(s, k) for k in SERVER_KEYS}}
                for s in sorted(servers.values(), key=lambda s: s.name)
            ],
            "switch_models": [
                {"name": s.name, **{k: getattr(s, k) for k in SWITCH_KEYS}}
                for s in sorted(switches.values(), key=lambda s: s.name)
            ],
            "rack_types": [
                {"name": t.name, "width_m": m(t.width_mm), "depth_m": m(t.depth_mm), "height_u": t.height_u}
                for t in sorted(types.values(), key=lambda t: t.name)
            ],
        },
        "halls": halls,
        "price_book": _price_book(session, project_id),
    }


def _price_book(session: Session, project_id: int) -> dict[str, Any] | None:
    book = pricing.get_book(session, project_id)
    if book.version == 0:
        return None
    return {"currency": book.currency, "entries": [e.to_json() for e in book.entries]}


def _resolve_catalog(session: Session, principal: Principal, doc: Document) -> tuple[dict[str, int], ...]:
    """Map every catalog name of the document to an id, among the entries the importer may use (the
    global ones and their own): reuse an identical entry, create a missing one as theirs. Other
    users' entries are invisible here, whatever their names."""
    out: list[dict[str, int]] = []
    specs: list[tuple[str, type[Any], Sequence[dict[str, Any]]]] = [
        ("server_models", ServerModel, doc.server_models),
        ("switch_models", SwitchModel, doc.switch_models),
        ("rack_types", RackType, doc.rack_types),
    ]
    user_id = principal.user.id
    for section, model, entries in specs:
        ids: dict[str, int] = {}
        for i, values in enumerate(entries):
            found = session.execute(
                select(model).where(model.name == values["name"], visible_to(model, user_id)).order_by(model.id)
            ).scalars()
            candidates = list(found)
            same = next((c for c in candidates if all(getattr(c, k) == v for k, v in values.items())), None)
            if same is None and candidates:
                raise Conflict(
                    f"catalog.{section}[{i}]",
                    f"the catalog already has a different {values['name']!r}: rename it in the document",
                )
            if same is None:
                same = model(**values, builtin=False, created_by=user_id, owner_id=user_id)
                session.add(same)
                session.flush()
            ids[values["name"]] = same.id
        out.append(ids)
    return tuple(out)


def _ref(ids: dict[str, int], name: str, path: str) -> int:
    if name not in ids:
        raise DomainError(path, f"{name!r} is not in the document's catalog")
    return ids[name]


def _row_spec(
    row: DocRow, base: str, servers: dict[str, int], switches: dict[str, int], types: dict[str, int]
) -> rp.RowSpec:
    return rp.RowSpec(
        name=row.name,
        origin=row.origin,
        direction=row.direction,
        front=row.front,
        racks=tuple(
            rp.RackSpec(
                name=r.name,
                rack_type_id=_ref(types, r.rack_type, f"{base}.racks[{k}].rack_type"),
                position_mm=r.position_mm,
                role=r.role,
                port_face=r.port_face,
                logical_racks=tuple(
                    rp.LogicalRackSpec(
                        servers=lr.servers,
                        server_model_id=_ref(servers, lr.server_model, f"{base}.racks[{k}].server_model"),
                        ports_used=lr.ports_used,
                        tor_model_id=_ref(switches, lr.tor_model, f"{base}.racks[{k}].tor_model"),
                        tor_position=lr.tor_position,
                        base_u=lr.base_u,
                    )
                    for lr in r.logical_racks
                ),
                fabric_switches=tuple(
                    rp.FabricSwitchSpec(
                        name=s.name,
                        role=s.role,
                        u=s.u,
                        cluster=s.cluster,
                        switch_model_id=_ref(switches, s.switch_model, f"{base}.racks[{k}].switch_model"),
                    )
                    for s in r.fabric_switches
                ),
            )
            for k, r in enumerate(row.racks)
        ),
    )


def import_project(
    session: Session, principal: Principal, doc: Document, on_hall_done: Callable[[int], None] | None = None
) -> tuple[Project, int, int]:
    """Create the project, its halls and rows (flushes; one transaction with the caller's). Returns
    the project, halls and racks created; `on_hall_done(n)` is called after each hall."""
    project = Project(name=doc.name, description=doc.description)
    session.add(project)
    session.flush()
    session.add(Membership(project_id=project.id, user_id=principal.user.id, role=Role.OWNER))
    session.add(FabricSettingsRow(project_id=project.id, **fabric_columns(doc.fabric)))
    session.flush()
    access = ProjectAccess(project.id, principal, Role.OWNER)
    servers, switches, types = _resolve_catalog(session, principal, doc)
    racks = 0
    for hi, dh in enumerate(doc.halls):
        hall = Hall(project_id=project.id, **dh.columns)
        session.add(hall)
        session.flush()
        rows = [_row_spec(row, f"halls[{hi}].rows[{ri}]", servers, switches, types) for ri, row in enumerate(dh.rows)]
        racks += sum(len(row.racks) for row in dh.rows)
        if rows:
            create_rows(
                session,
                access,
                hall.id,
                rows,
                action="import",
                paths=[f"halls[{hi}].rows[{i}]." for i in range(len(rows))],
            )
        if on_hall_done is not None:
            on_hall_done(hi + 1)
    if doc.price_book is not None:
        currency, entries = doc.price_book
        check_entries(entries, "price_book.entries")
        pricing.replace_book(session, principal, project.id, 0, currency, entries)
    audit.record(
        session,
        principal,
        project_id=project.id,
        action="import",
        resource_type="project",
        resource_id=project.id,
        after={"name": project.name, "halls": len(doc.halls), "racks": racks},
    )
    session.refresh(project)
    return project, len(doc.halls), racks
