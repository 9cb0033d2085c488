"""Whole-project export and import as one versioned JSON document (`ProjectDocument`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.api.schemas.common import m, mm
from loopline.api.schemas.exchange import DocCatalog, DocHall, ProjectDocument
from loopline.api.schemas.layout import FabricSwitchSpec, LogicalRackSpec, RackSpec, RowCreate
from loopline.api.schemas.projects import FabricSettingsIn
from loopline.db.models import FabricSettingsRow, Hall, Membership, Project, RackType, Role, ServerModel, SwitchModel
from loopline.domain.errors import Conflict, DomainError
from loopline.services import audit
from loopline.services.access import Principal, ProjectAccess
from loopline.services.layout import create_rows
from loopline.services.layout_snapshot import load_hall_data
from loopline.services.projects import fabric_dict, get_fabric_row, get_project

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
    }


def _resolve_catalog(session: Session, principal: Principal, cat: DocCatalog) -> tuple[dict[str, int], ...]:
    """Map every catalog name of the document to an id: reuse an identical entry, create a missing one."""
    out: list[dict[str, int]] = []
    specs: list[tuple[str, type[Any], list[Any], dict[str, Any]]] = [
        ("server_models", ServerModel, cat.server_models, {}),
        ("switch_models", SwitchModel, cat.switch_models, {}),
        ("rack_types", RackType, cat.rack_types, {}),
    ]
    for section, model, entries, _ in specs:
        ids: dict[str, int] = {}
        for i, entry in enumerate(entries):
            values = entry.model_dump()
            if model is RackType:
                values = {
                    "name": values["name"],
                    "width_mm": mm(values["width_m"]),
                    "depth_mm": mm(values["depth_m"]),
                    "height_u": values["height_u"],
                }
            existing = session.execute(select(model).where(model.name == values["name"])).scalar_one_or_none()
            if existing is None:
                existing = model(**values, builtin=False, created_by=principal.user.id)
                session.add(existing)
                session.flush()
            elif any(getattr(existing, k) != v for k, v in values.items()):
                raise Conflict(
                    f"catalog.{section}[{i}]",
                    f"the catalog already has a different {values['name']!r}: rename it in the document",
                )
            ids[values["name"]] = existing.id
        out.append(ids)
    return tuple(out)


def _ref(ids: dict[str, int], name: str, path: str) -> int:
    if name not in ids:
        raise DomainError(path, f"{name!r} is not in the document's catalog")
    return ids[name]


def import_project(session: Session, principal: Principal, doc: ProjectDocument) -> tuple[Project, int, int]:
    project = Project(name=doc.project.name, description=doc.project.description)
    session.add(project)
    session.flush()
    session.add(Membership(project_id=project.id, user_id=principal.user.id, role=Role.OWNER))
    session.add(FabricSettingsRow(project_id=project.id, **FabricSettingsIn.model_validate(doc.fabric).model_dump()))
    session.flush()
    access = ProjectAccess(project.id, principal, Role.OWNER)
    servers, switches, types = _resolve_catalog(session, principal, doc.catalog)
    racks = 0
    for hi, dh in enumerate(doc.halls):
        hall = _create_hall(session, project.id, dh)
        rows = []
        for ri, row in enumerate(dh.rows):
            base = f"halls[{hi}].rows[{ri}]"
            rows.append(
                RowCreate(
                    name=row.name,
                    x_m=row.x_m,
                    y_m=row.y_m,
                    direction=row.direction,
                    front=row.front,
                    racks=[
                        RackSpec(
                            name=r.name,
                            rack_type_id=_ref(types, r.rack_type, f"{base}.racks[{k}].rack_type"),
                            position_m=r.position_m,
                            role=r.role,
                            port_face=r.port_face,
                            logical_racks=[
                                LogicalRackSpec(
                                    servers=lr.servers,
                                    server_model_id=_ref(servers, lr.server_model, f"{base}.racks[{k}].server_model"),
                                    ports_used=lr.ports_used,
                                    tor_model_id=_ref(switches, lr.tor_model, f"{base}.racks[{k}].tor_model"),
                                    tor_position=lr.tor_position,
                                    base_u=lr.base_u,
                                )
                                for lr in r.logical_racks
                            ],
                            fabric_switches=[
                                FabricSwitchSpec(
                                    name=s.name,
                                    role=s.role,
                                    u=s.u,
                                    cluster=s.cluster,
                                    switch_model_id=_ref(switches, s.switch_model, f"{base}.racks[{k}].switch_model"),
                                )
                                for s in r.fabric_switches
                            ],
                        )
                        for k, r in enumerate(row.racks)
                    ],
                )
            )
            racks += len(row.racks)
        if rows:
            create_rows(
                session,
                access,
                hall.id,
                rows,
                action="import",
                paths=[f"halls[{hi}].rows[{i}]." for i in range(len(rows))],
            )
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


def _create_hall(session: Session, project_id: int, dh: DocHall) -> Hall:
    hall = Hall(
        project_id=project_id,
        name=dh.name,
        site=dh.site,
        width_mm=mm(dh.width_m),
        depth_mm=mm(dh.depth_m),
        raised_floor=dh.raised_floor,
        raised_floor_mm=mm(dh.raised_floor_height_m),
        tray_height_mm=mm(dh.tray_height_m),
        tile_mm=mm(dh.tile_m),
        min_cold_aisle_mm=mm(dh.min_cold_aisle_m),
        min_hot_aisle_mm=mm(dh.min_hot_aisle_m),
    )
    session.add(hall)
    session.flush()
    return hall
