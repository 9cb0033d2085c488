"""The device catalog. Builtin entries are global and read-only; the others belong to their owner.

A user sees (lists, reads) the global entries and their own; another user's entry is 404 to them.
A layout may use the global entries and those of any member of its project
(`layout_snapshot.load_catalog(usable_in=...)`), so a team can share a model its owner made.
Names are unique among the global entries and within one owner's: a user's entry cannot take a
global name, and two users may each have their own "GPU server".
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import ColumnElement, exists, or_, select
from sqlalchemy.orm import Session

from loopline.db.models import FabricSwitch, LogicalRack, Rack, RackType, ServerModel, SwitchModel
from loopline.db.repositories import Page, paginate
from loopline.domain.errors import Conflict, NotFound
from loopline.services import audit
from loopline.services.access import Forbidden, Principal
from loopline.services.mutations import Target, audited_delete, audited_update

CatalogModel = ServerModel | SwitchModel | RackType
M = TypeVar("M", ServerModel, SwitchModel, RackType)

KIND = {ServerModel: "server_model", SwitchModel: "switch_model", RackType: "rack_type"}


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
    else:
        q = exists().where(Rack.rack_type_id == entry_id)
    return bool(session.execute(select(q)).scalar())


def update_entry(
    session: Session, principal: Principal, model: type[M], entry_id: int, values: dict[str, Any], if_match: int
) -> M:
    """`values`: the stored values to set; only the name of an entry in use may change."""
    obj = get_entry(session, principal, model, entry_id)
    _may_change(principal, obj)

    def change(obj: M) -> None:
        if "name" in values:
            _unique(session, principal, model, values["name"], exclude=entry_id)
        if set(values) - {"name"} and _in_use(session, model, entry_id):
            raise Conflict(
                "id", f"{obj.name!r} is used in a layout: only its name can change; create a new model instead"
            )
        for key, value in values.items():
            setattr(obj, key, value)

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
]
BUILTIN_RACK_TYPES: list[dict[str, Any]] = [
    {"name": "42U 600x1200", "width_mm": 600, "depth_mm": 1200, "height_u": 42},
    {"name": "48U 600x1200", "width_mm": 600, "depth_mm": 1200, "height_u": 48},
    {"name": "42U 800x1200", "width_mm": 800, "depth_mm": 1200, "height_u": 42},
]


def ensure_builtin_catalog(session: Session) -> int:
    """Insert the builtin catalog entries that are missing (by name); returns how many were added."""
    added = 0
    for model, entries in (
        (ServerModel, BUILTIN_SERVER_MODELS),
        (SwitchModel, BUILTIN_SWITCH_MODELS),
        (RackType, BUILTIN_RACK_TYPES),
    ):
        have = set(session.execute(select(model.name).where(model.owner_id.is_(None))).scalars())
        for entry in entries:
            if entry["name"] not in have:
                session.add(model(**entry, builtin=True))
                added += 1
    session.flush()
    return added


def builtin_id(session: Session, model: type[M], name: str) -> int:
    return int(session.execute(select(model.id).where(model.name == name, model.owner_id.is_(None))).scalar_one())
