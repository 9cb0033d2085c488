"""Whole-project export and import as one versioned JSON document (the API's `ProjectDocument`).

Export writes the document's JSON (format `loopline.project`, schema version 1, metres). Import
takes the document as `Document` (stored units, catalog entries referenced by name), resolves the
names against the catalog and creates the project, its halls and rows in one transaction.
The project's price book travels with it (its own entries; the defaults are the installation's).
Facility settings travel as stored (only those set: an unset one stays the domain's default), with
the catalog entries' facts, the PDU models the feeds name, and the halls' tray runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from loopline.db.models import (
    FabricSettingsRow,
    Hall,
    Membership,
    PduModel,
    Project,
    Rack,
    RackFeed,
    RackType,
    Role,
    ServerModel,
    SwitchModel,
    TrayRun,
)
from loopline.db.models.layout import TRAY_LEVEL_COLUMNS
from loopline.domain import layout as dl
from loopline.domain import rack_planning as rp
from loopline.domain.errors import Conflict, DomainError
from loopline.domain.price_book import PriceEntry, check_entries
from loopline.domain.units import m
from loopline.services import audit, facility, pricing
from loopline.services.access import Principal, ProjectAccess
from loopline.services.catalog import FACT_KEYS, visible_to
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
    network: str = "compute"


@dataclass(frozen=True, slots=True)
class DocRack:
    name: str
    rack_type: str
    position_mm: int
    role: dl.RackRole
    port_face: dl.Face
    logical_racks: tuple[DocLogicalRack, ...] = ()
    fabric_switches: tuple[DocSwitch, ...] = ()
    facility: dict[str, Any] | None = None
    """Stored facility settings (`facility.RACK_SETTINGS`) and `feeds`: (name, voltage_v, phases,
    breaker_a, PDU model name) tuples; None: all defaults."""


@dataclass(frozen=True, slots=True)
class DocRow:
    name: str
    origin: dl.Point
    direction: int
    front: dl.Side
    racks: tuple[DocRack, ...] = ()
    cooling_kw: float | None = None


@dataclass(frozen=True, slots=True)
class DocHall:
    columns: dict[str, Any]
    """The hall's stored values: name, site, raised_floor, the `*_mm` lengths, facility settings."""
    rows: tuple[DocRow, ...] = ()
    tray_runs: tuple[tuple[str, int, int, float], ...] = ()
    """(name, width_mm, usable_depth_mm, load_kg_per_m)."""


@dataclass(frozen=True, slots=True)
class Document:
    """A project document to import, in stored units; catalog entries as stored values, by name."""

    name: str
    description: str
    fabric: dl.FabricSettings
    server_models: Sequence[dict[str, Any]] = ()
    switch_models: Sequence[dict[str, Any]] = ()
    rack_types: Sequence[dict[str, Any]] = ()
    pdu_models: Sequence[dict[str, Any]] = ()
    halls: Sequence[DocHall] = field(default_factory=tuple)
    price_book: tuple[str, tuple[PriceEntry, ...]] | None = None
    """The project's price book (currency, own entries); None: the defaults alone."""


SERVER_KEYS = ("nic_ports", "port_gbps", "height_u")
SWITCH_KEYS = ("server_ports", "server_port_gbps", "uplink_ports", "uplink_gbps", "height_u")
DEVICE_FACT_KEYS = ("typical_w", "max_w", "weight_kg", "airflow", "source")
SERVER_GPU_KEYS = ("gpus", "gpu_interconnect_gbps", "frontend_nic_ports", "frontend_port_gbps")
"""Written only where set (not 0 or null), so a document without GPUs reads as it always has."""
SWITCH_OPTIONAL_KEYS = ("breakout_links",)
RACK_TYPE_FACT_KEYS = ("weight_kg", "static_load_kg", "source")
PDU_KEYS = ("outlets", "phases", "weight_kg", "source")


def _set(values: dict[str, Any]) -> dict[str, Any]:
    """Only what is set: a setting left NULL (the domain's default) or a fact not known (None, "") is left out."""
    return {k: (v.value if hasattr(v, "value") else v) for k, v in values.items() if v is not None and v != ""}


def _rack_facility(rack: Any, feeds: Sequence[Any], pdus: dict[int, PduModel]) -> dict[str, Any] | None:
    out = _set({k: getattr(rack, k) for k in facility.RACK_SETTINGS})
    if feeds:
        out["feeds"] = [
            {"name": f.name, **_set({k: getattr(f, k) for k in facility.FEED_SETTINGS}),
             **({"pdu_model": pdus[f.pdu_model_id].name} if f.pdu_model_id is not None else {})}
            for f in feeds
        ]  # fmt: skip
    return out or None


def export_project(session: Session, project_id: int) -> dict[str, Any]:
    project = get_project(session, project_id)
    fabric = fabric_dict(get_fabric_row(session, project_id))
    fabric.pop("version")
    halls: list[dict[str, Any]] = []
    servers: dict[int, ServerModel] = {}
    switches: dict[int, SwitchModel] = {}
    types: dict[int, RackType] = {}
    pdu_ids = select(RackFeed.pdu_model_id).join(Hall, Hall.id == RackFeed.hall_id)
    pdus: dict[int, PduModel] = {
        p.id: p
        for p in session.execute(
            select(PduModel).where(PduModel.id.in_(pdu_ids.where(Hall.project_id == project_id)))
        ).scalars()
    }
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
                            "network": sw.network,  # a document written before it existed reads as compute
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
                        **(
                            {"facility": rf}
                            if (rf := _rack_facility(rack, d.feeds_by_rack.get(rack.id, ()), pdus))
                            else {}
                        ),
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
                    **({"facility": {"cooling_kw": row.cooling_kw}} if row.cooling_kw is not None else {}),
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
                **({"facility": hf} if (hf := _hall_facility(h)) else {}),
                **(
                    {
                        "tray_runs": [
                            {
                                "name": r.name,
                                "width_mm": r.width_mm,
                                "usable_depth_mm": r.usable_depth_mm,
                                "load_kg_per_m": r.load_kg_per_m,
                            }
                            for r in runs
                        ]
                    }  # fmt: skip
                    if (runs := facility.list_tray_runs(session, hall_id))
                    else {}
                ),
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
                {
                    "name": s.name,
                    **{k: getattr(s, k) for k in SERVER_KEYS},
                    **{k: v for k in SERVER_GPU_KEYS if (v := getattr(s, k))},
                    **_set({k: getattr(s, k) for k in DEVICE_FACT_KEYS}),
                }
                for s in sorted(servers.values(), key=lambda s: s.name)
            ],
            "switch_models": [
                {
                    "name": s.name,
                    **{k: getattr(s, k) for k in SWITCH_KEYS},
                    **_set({k: getattr(s, k) for k in SWITCH_OPTIONAL_KEYS + DEVICE_FACT_KEYS}),
                }
                for s in sorted(switches.values(), key=lambda s: s.name)
            ],
            "rack_types": [
                {
                    "name": t.name,
                    "width_m": m(t.width_mm),
                    "depth_m": m(t.depth_mm),
                    "height_u": t.height_u,
                    **_set({k: getattr(t, k) for k in RACK_TYPE_FACT_KEYS}),
                }
                for t in sorted(types.values(), key=lambda t: t.name)
            ],
            **(
                {
                    "pdu_models": [
                        {"name": p.name, **_set({k: getattr(p, k) for k in PDU_KEYS})}
                        for p in sorted(pdus.values(), key=lambda p: p.name)
                    ]
                }
                if pdus
                else {}
            ),
        },
        "halls": halls,
        "price_book": _price_book(session, project_id),
    }


def _hall_facility(h: Hall) -> dict[str, Any]:
    """The hall's facility settings as set (the API's `HallFacilityUpdate` shape)."""
    out = _set({k: getattr(h, k) for k in facility.HALL_SETTINGS})
    trays = {
        level.value: tray
        for level in TRAY_LEVEL_COLUMNS
        if (tray := _set({f: getattr(h, facility.tray_column(level, f)) for f in facility.TRAY_FIELDS}))
    }
    if trays:
        out["trays"] = trays
    return out


def _price_book(session: Session, project_id: int) -> dict[str, Any] | None:
    book = pricing.get_book(session, project_id)
    if book.version == 0:
        return None
    return {"currency": book.currency, "entries": [e.to_json() for e in book.entries]}


def _resolve_catalog(
    session: Session, principal: Principal, doc: Document
) -> tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int]]:
    """Map every catalog name of the document to an id, among the entries the importer may use (the
    global ones and their own): reuse an identical entry, create a missing one as theirs. Other
    users' entries are invisible here, whatever their names."""
    out: list[dict[str, int]] = []
    specs: list[tuple[str, type[Any], Sequence[dict[str, Any]]]] = [
        ("server_models", ServerModel, doc.server_models),
        ("switch_models", SwitchModel, doc.switch_models),
        ("rack_types", RackType, doc.rack_types),
        ("pdu_models", PduModel, doc.pdu_models),
    ]
    user_id = principal.user.id
    for section, model, entries in specs:
        ids: dict[str, int] = {}
        for i, values in enumerate(entries):
            found = session.execute(
                select(model).where(model.name == values["name"], visible_to(model, user_id)).order_by(model.id)
            ).scalars()
            candidates = list(found)
            # Facts do not make an entry different (a builtin's figures may have been updated since
            # the export): a missing entry is created with them.
            plan = {k: v for k, v in values.items() if k not in FACT_KEYS[model]}
            same = next((c for c in candidates if all(getattr(c, k) == v for k, v in plan.items())), None)
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
    return out[0], out[1], out[2], out[3]


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
                        network=s.network,
                        switch_model_id=_ref(switches, s.switch_model, f"{base}.racks[{k}].switch_model"),
                    )
                    for s in r.fabric_switches
                ),
            )
            for k, r in enumerate(row.racks)
        ),
    )


def _import_facility(session: Session, hall_id: int, dh: DocHall, pdus: dict[str, int], base: str) -> None:
    """The rows' and racks' facility settings, written after their rows (by name): two UPDATEs and
    one INSERT of feeds, only where the document sets something."""
    row_cooling = [{"n": r.name, "v": r.cooling_kw} for r in dh.rows if r.cooling_kw is not None]
    if row_cooling:
        session.execute(
            update(facility.ROW_TABLE)
            .where(facility.ROW_TABLE.c.hall_id == hall_id, facility.ROW_TABLE.c.name == bindparam("n"))
            .values(cooling_kw=bindparam("v")),
            row_cooling,
        )
    racks = [(ri, k, r) for ri, row in enumerate(dh.rows) for k, r in enumerate(row.racks) if r.facility]
    if not racks:
        return
    ids = {name: rid for name, rid in session.execute(select(Rack.name, Rack.id).where(Rack.hall_id == hall_id))}
    settings = [
        {"rid": ids[r.name], **{f"v_{k}": r.facility.get(k) for k in facility.RACK_SETTINGS}}
        for _, _, r in racks
        if r.facility and any(r.facility.get(k) is not None for k in facility.RACK_SETTINGS)
    ]
    if settings:
        session.execute(
            update(facility.RACK_TABLE)
            .where(facility.RACK_TABLE.c.id == bindparam("rid"))
            .values({k: bindparam(f"v_{k}") for k in facility.RACK_SETTINGS}),
            settings,
        )
    feeds: dict[int, list[facility.FeedSpec]] = {}
    for ri, k, r in racks:
        for fi, (name, voltage, phases, breaker, pdu) in enumerate((r.facility or {}).get("feeds", ())):
            pdu_id = (
                None if pdu is None else _ref(pdus, pdu, f"{base}.rows[{ri}].racks[{k}].facility.feeds[{fi}].pdu_model")
            )
            feeds.setdefault(ids[r.name], []).append(facility.FeedSpec(name, voltage, phases, breaker, pdu_id))
    facility.insert_feeds(session, hall_id, feeds)


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
    servers, switches, types, pdus = _resolve_catalog(session, principal, doc)
    racks = 0
    for hi, dh in enumerate(doc.halls):
        hall = Hall(project_id=project.id, **dh.columns)
        session.add(hall)
        session.flush()
        session.add_all(TrayRun(hall_id=hall.id, name=n, width_mm=w, usable_depth_mm=d, load_kg_per_m=kg)
                        for n, w, d, kg in dh.tray_runs)  # fmt: skip
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
            _import_facility(session, hall.id, dh, pdus, f"halls[{hi}]")
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
