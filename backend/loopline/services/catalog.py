"""The device catalog (server and switch models, rack types, PDU models). Builtin entries are
global and read-only; the others belong to their owner.

A user sees (lists, reads) the global entries and their own; another user's entry is 404 to them.
A layout may use the global entries and those of any member of its project
(`layout_snapshot.load_catalog(usable_in=...)`), so a team can share a model its owner made.
Names are unique among the global entries and within one owner's: a user's entry cannot take a
global name, and two users may each have their own "GPU server".

The builtin entries' facility facts (power, weight, airflow, load ratings, each with its source)
are owned by `domain.facility.catalog_facts`: `ensure_builtin_catalog` writes them, onto builtin
rows that predate them too.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from sqlalchemy import ColumnElement, exists, or_, select
from sqlalchemy.orm import Session

from loopline.db.models import FabricSwitch, LogicalRack, PduModel, Rack, RackFeed, RackType, ServerModel, SwitchModel
from loopline.db.repositories import Page, paginate
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.domain.facility import catalog_facts
from loopline.domain.facility.model import DeviceFacts
from loopline.services import audit
from loopline.services.access import Forbidden, Principal
from loopline.services.mutations import Target, audited_delete, audited_update

CatalogModel = ServerModel | SwitchModel | RackType | PduModel
M = TypeVar("M", ServerModel, SwitchModel, RackType, PduModel)

KIND = {ServerModel: "server_model", SwitchModel: "switch_model", RackType: "rack_type", PduModel: "pdu_model"}

FACT_KEYS: dict[type[CatalogModel], frozenset[str]] = {
    ServerModel: frozenset({"typical_w", "max_w", "weight_kg", "airflow", "source"}),
    SwitchModel: frozenset({"typical_w", "max_w", "weight_kg", "airflow", "source"}),
    RackType: frozenset({"weight_kg", "static_load_kg", "source"}),
    PduModel: frozenset({"outlets", "phases", "weight_kg", "source"}),
}
"""What an entry says about itself without changing any layout that uses it: editable while in use.
(A PDU is only ever weighed and counted, so all of it is.)"""


def _snapshot(obj: CatalogModel) -> dict[str, Any]:
    return {c.key: getattr(obj, c.key) for c in obj.__table__.columns}


def visible_to(model: type[CatalogModel], user_id: int) -> ColumnElement[bool]:
    """The entries a user sees: the global ones and their own."""
    return or_(model.owner_id.is_(None), model.owner_id == user_id)


def _unique(session: Session, principal: Principal, model: type[M], name: str, exclude: int | None = None) -> None:
    """Among the global entries and the caller's own."""
    stmt = select(model.id).where(model.name == name, visible_to(model, principal.user.id))
    if exclude is not None:
        stmt = stmt.where(model.id != exclude)
    if session.execute(stmt).first():
        raise Conflict("name", f"a {KIND[model].replace('_', ' ')} named {name!r} already exists")


def list_entries(session: Session, principal: Principal, model: type[M], *, page: int, limit: int) -> Page[M]:
    """The global entries and the caller's own."""
    stmt = select(model).where(visible_to(model, principal.user.id)).order_by(model.name, model.id)
    return paginate(session, stmt, page=page, limit=limit)


def get_entry(session: Session, principal: Principal, model: type[M], entry_id: int) -> M:
    obj = session.get(model, entry_id)
    if obj is None or obj.owner_id not in (None, principal.user.id):
        raise NotFound("id", f"{KIND[model].replace('_', ' ')} {entry_id} not found")
    return obj


def create_entry(session: Session, principal: Principal, model: type[M], values: dict[str, Any]) -> M:
    """`values`: the entry's stored values (lengths in millimetres)."""
    _unique(session, principal, model, values["name"])
    obj = model(**values, builtin=False, created_by=principal.user.id, owner_id=principal.user.id)
    session.add(obj)
    session.flush()
    audit.record(
        session,
        principal,
        project_id=None,
        action="create",
        resource_type=KIND[model],
        resource_id=obj.id,
        after=_snapshot(obj),
    )
    return obj


def _may_change(principal: Principal, obj: CatalogModel) -> None:
    if obj.builtin:
        raise Forbidden("id", f"{obj.name!r} is a builtin catalog entry and read-only: create your own")
    if obj.owner_id != principal.user.id:
        raise Forbidden("id", f"{obj.name!r} is a global catalog entry and read-only: create your own")


def _in_use(session: Session, model: type[CatalogModel], entry_id: int) -> bool:
    q: ColumnElement[bool]
    if model is ServerModel:
        q = exists().where(LogicalRack.server_model_id == entry_id)
    elif model is SwitchModel:
        q = exists().where(LogicalRack.tor_model_id == entry_id) | exists().where(
            FabricSwitch.switch_model_id == entry_id
        )
    elif model is PduModel:
        q = exists().where(RackFeed.pdu_model_id == entry_id)
    else:
        q = exists().where(Rack.rack_type_id == entry_id)
    return bool(session.execute(select(q)).scalar())


def update_entry(
    session: Session, principal: Principal, model: type[M], entry_id: int, values: dict[str, Any], if_match: int
) -> M:
    """`values`: the stored values to set; of an entry in use only the name and the facts
    (`FACT_KEYS`) may change, not what its layouts were planned with."""
    obj = get_entry(session, principal, model, entry_id)
    _may_change(principal, obj)

    def change(obj: M) -> None:
        if "name" in values:
            _unique(session, principal, model, values["name"], exclude=entry_id)
        if set(values) - {"name"} - FACT_KEYS[model] and _in_use(session, model, entry_id):
            raise Conflict(
                "id",
                f"{obj.name!r} is used in a layout: only its name and facts can change; create a new model instead",
            )
        for key, value in values.items():
            setattr(obj, key, value)
        if isinstance(obj, ServerModel | SwitchModel):
            typical, most = obj.typical_w, obj.max_w
            if typical is not None and most is not None and most < typical:
                raise DomainError("max_w", f"must be at least typical_w ({typical:g} W), got {most:g} W")

    audited_update(session, obj, if_match, _target(principal, model, entry_id), snapshot=_snapshot, change=change)
    return obj


def delete_entry(session: Session, principal: Principal, model: type[M], entry_id: int, if_match: int) -> None:
    obj = get_entry(session, principal, model, entry_id)
    _may_change(principal, obj)

    def guard() -> None:
        if _in_use(session, model, entry_id):
            raise Conflict("id", f"{obj.name!r} is used in a layout and cannot be deleted")

    audited_delete(session, obj, if_match, _target(principal, model, entry_id), snapshot=_snapshot, guard=guard)


def _target(principal: Principal, model: type[CatalogModel], entry_id: int) -> Target:
    return Target(principal, None, KIND[model], entry_id, f"{KIND[model]} {entry_id}")


BUILTIN_SERVER_MODELS: list[dict[str, Any]] = [
    {"name": "2x25G server", "nic_ports": 2, "port_gbps": 25.0, "height_u": 1},
    {"name": "1x25G server", "nic_ports": 1, "port_gbps": 25.0, "height_u": 1},
    {"name": "4x25G server", "nic_ports": 4, "port_gbps": 25.0, "height_u": 1},
    {"name": "2x10G server", "nic_ports": 2, "port_gbps": 10.0, "height_u": 1},
    {"name": "2x100G GPU server", "nic_ports": 2, "port_gbps": 100.0, "height_u": 2},
    # NVIDIA DGX H100 (issue 31; figures and sources in catalog_facts.SERVER_FACTS): 8 GPUs, 8 compute
    # NICs (one per rail), 4 front-end ports, NVLink 4 at 3600 Gb/s per GPU each way.
    {
        "name": "8x400G GPU server",
        "nic_ports": 8,
        "port_gbps": 400.0,
        "height_u": 8,
        "gpus": 8,
        "gpu_interconnect_gbps": 3600.0,
        "frontend_nic_ports": 4,
        "frontend_port_gbps": 400.0,
    },
]
BUILTIN_SWITCH_MODELS: list[dict[str, Any]] = [
    {
        "name": "48x25G+8x100G ToR",
        "server_ports": 48,
        "server_port_gbps": 25.0,
        "uplink_ports": 8,
        "uplink_gbps": 100.0,
        "height_u": 1,
    },
    {
        "name": "48x10G+6x40G ToR",
        "server_ports": 48,
        "server_port_gbps": 10.0,
        "uplink_ports": 6,
        "uplink_gbps": 40.0,
        "height_u": 1,
    },
    {
        "name": "32x100G switch",
        "server_ports": 32,
        "server_port_gbps": 100.0,
        "uplink_ports": 0,
        "uplink_gbps": 100.0,
        "height_u": 1,
    },
    {
        "name": "64x100G spine",
        "server_ports": 64,
        "server_port_gbps": 100.0,
        "uplink_ports": 0,
        "uplink_gbps": 100.0,
        "height_u": 2,
    },
    {
        "name": "32x100G+32x100G aggregation",
        "server_ports": 32,
        "server_port_gbps": 100.0,
        "uplink_ports": 32,
        "uplink_gbps": 100.0,
        "height_u": 2,
    },
    # GPU fabrics (issue 31; sources in catalog_facts.SWITCH_FACTS): NVIDIA QM9700 as DGX SuperPOD
    # rail leaf and spine, NVIDIA Spectrum-4 SN5600.
    {
        "name": "32x400G+32x400G leaf",
        "server_ports": 32,
        "server_port_gbps": 400.0,
        "uplink_ports": 32,
        "uplink_gbps": 400.0,
        "height_u": 1,
        "breakout_links": 2,
    },
    {
        "name": "64x400G 1U spine",
        "server_ports": 64,
        "server_port_gbps": 400.0,
        "uplink_ports": 0,
        "uplink_gbps": 400.0,
        "height_u": 1,
        "breakout_links": 2,
    },
    {
        "name": "64x800G switch",
        "server_ports": 64,
        "server_port_gbps": 800.0,
        "uplink_ports": 0,
        "uplink_gbps": 800.0,
        "height_u": 2,
        "breakout_links": 4,
    },
]
BUILTIN_RACK_TYPES: list[dict[str, Any]] = [
    {"name": "42U 600x1200", "width_mm": 600, "depth_mm": 1200, "height_u": 42},
    {"name": "48U 600x1200", "width_mm": 600, "depth_mm": 1200, "height_u": 48},
    {"name": "42U 800x1200", "width_mm": 800, "depth_mm": 1200, "height_u": 42},
]


def _device_facts(facts: DeviceFacts | None) -> dict[str, Any]:
    f = facts or DeviceFacts()
    return {
        "typical_w": f.typical_w,
        "max_w": f.max_w,
        "weight_kg": f.weight_kg,
        "airflow": f.airflow,
        "source": f.source,
    }


def builtin_facts() -> dict[type[CatalogModel], dict[str, dict[str, Any]]]:
    """Per catalog kind, builtin entry name -> its facts as stored (from `catalog_facts`; an entry it
    does not name has none)."""
    racks = {t["name"]: catalog_facts.RACK_TYPE_FACTS.get(t["name"]) for t in BUILTIN_RACK_TYPES}
    return {
        ServerModel: {
            e["name"]: _device_facts(catalog_facts.SERVER_FACTS.get(e["name"])) for e in BUILTIN_SERVER_MODELS
        },
        SwitchModel: {
            e["name"]: _device_facts(catalog_facts.SWITCH_FACTS.get(e["name"])) for e in BUILTIN_SWITCH_MODELS
        },
        RackType: {
            name: {
                "weight_kg": None if f is None else f.weight_kg,
                "static_load_kg": catalog_facts.RACK_TYPE_STATIC_LOAD_KG.get(name),
                "source": "" if f is None else f.source,
            }
            for name, f in racks.items()
        },
        PduModel: {
            # The domain's PduModel names no phases (a PDU is weighed and counted, its feed says
            # the phases); the catalog row keeps 1 unless the domain's figure says otherwise.
            p.name: {
                "outlets": p.outlets,
                "phases": getattr(p, "phases", 1),
                "weight_kg": p.weight_kg,
                "source": p.source,
            }
            for p in catalog_facts.PDU_MODELS
        },
    }


def ensure_builtin_catalog(session: Session) -> int:
    """Insert the builtin catalog entries that are missing (by name) and bring the facts of every
    builtin entry to `catalog_facts` (a database seeded before the facts existed gets them; a
    changed figure is updated, with a new version). Returns how many entries were added."""
    added = 0
    facts = builtin_facts()
    pdus: list[dict[str, Any]] = [{"name": name, **values} for name, values in facts[PduModel].items()]
    kinds: list[tuple[type[CatalogModel], list[dict[str, Any]]]] = [
        (ServerModel, BUILTIN_SERVER_MODELS),
        (SwitchModel, BUILTIN_SWITCH_MODELS),
        (RackType, BUILTIN_RACK_TYPES),
        (PduModel, pdus),
    ]
    for model, entries in kinds:
        found = session.execute(select(model).where(model.owner_id.is_(None), model.builtin.is_(True))).scalars()
        have: dict[str, CatalogModel] = {e.name: e for e in cast("list[CatalogModel]", list(found))}
        global_names = set(session.execute(select(model.name).where(model.owner_id.is_(None))).scalars())
        for entry in entries:
            values = {**entry, **facts[model].get(entry["name"], {})}
            row = have.get(entry["name"])
            if row is None:
                if entry["name"] not in global_names:
                    session.add(model(**values, builtin=True))
                    added += 1
                continue
            changed = {k: v for k, v in facts[model].get(entry["name"], {}).items() if getattr(row, k) != v}
            if changed:
                for key, value in changed.items():
                    setattr(row, key, value)
                row.version += 1
    session.flush()
    return added


def builtin_id(session: Session, model: type[M], name: str) -> int:
    return int(session.execute(select(model.id).where(model.name == name, model.owner_id.is_(None))).scalar_one())
