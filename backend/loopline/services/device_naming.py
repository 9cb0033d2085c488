"""A hall's device names: the template and overrides stored, checked against the layout, and the
`DeviceNames` every export prints (`domain.device_names` holds the rules)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from loopline.db.models import DeviceNaming, DeviceOverride, Hall, Rack, Row
from loopline.domain import device_names as dn
from loopline.domain.errors import DomainError
from loopline.domain.labels import rack_name
from loopline.services.access import ProjectAccess
from loopline.services.layout_snapshot import load_hall
from loopline.services.mutations import Target, audited_update

UNSET: Any = object()
"""`template=UNSET`: leave the template as it is."""


@dataclass(frozen=True, slots=True)
class HallNaming:
    template: str | None
    version: int
    devices: list[dn.NamedDevice]


def _racks(session: Session, hall_id: int) -> dict[str, int]:
    """Full rack name (`H1.R01.R01-03`) -> rack id."""
    rows = session.execute(
        select(Hall.name, Row.name, Rack.name, Rack.id)
        .join(Row, Row.id == Rack.row_id)
        .join(Hall, Hall.id == Rack.hall_id)
        .where(Rack.hall_id == hall_id)
    ).all()
    return {rack_name(h, r, k): rid for h, r, k, rid in rows}


def _stored(session: Session, hall_id: int) -> tuple[DeviceNaming | None, dict[str, dn.Override]]:
    naming = session.get(DeviceNaming, hall_id)
    racks = {rid: full for full, rid in _racks(session, hall_id).items()}
    overrides = {
        f"{racks[o.rack_id]}.U{o.u:02d}": dn.Override(o.host_name, o.asset_tag)
        for o in session.execute(select(DeviceOverride).where(DeviceOverride.hall_id == hall_id)).scalars()
        if o.rack_id in racks
    }
    return naming, overrides


def _template(text: str | None) -> dn.Template | None:
    return dn.parse_template(text) if text else None


def hall_naming(session: Session, hall_id: int) -> HallNaming:
    """Every device of the hall with its name in effect (refused, naming both devices, if the
    layout has changed so that two now clash)."""
    naming, overrides = _stored(session, hall_id)
    template = naming.template if naming else None
    devices = dn.assign_names(dn.hall_slots(load_hall(session, hall_id)), _template(template), overrides)
    return HallNaming(template, naming.version if naming else 0, devices)


def names_for_export(session: Session, hall_id: int) -> dn.DeviceNames:
    naming, overrides = _stored(session, hall_id)
    if naming is None and not overrides:
        return dn.LOCATION_NAMES
    template = _template(naming.template if naming else None)
    return dn.device_names(dn.assign_names(dn.hall_slots(load_hall(session, hall_id)), template, overrides))


def _snapshot(session: Session, hall_id: int) -> Any:
    def take(naming: DeviceNaming) -> dict[str, Any]:
        _, overrides = _stored(session, hall_id)
        return {
            "template": naming.template,
            "version": naming.version,
            "overrides": {k: [o.host_name, o.asset_tag] for k, o in sorted(overrides.items())},
        }

    return take


def update(
    session: Session,
    access: ProjectAccess,
    hall_id: int,
    if_match: int,
    *,
    template: str | None = UNSET,
    overrides: Sequence[tuple[str, dn.Override]] = (),
    field: str = "overrides",
) -> HallNaming:
    """Set the template and/or overrides (an override with neither name nor tag removes it) under
    the naming's version (`"0"` before the first change); the names that result are checked before
    anything is kept. `field` names the overrides in errors (`overrides[3].device`, `csv...`)."""
    if template is not UNSET and template is not None:
        template = template.strip() or None
        if template is not None:
            dn.parse_template(template)
    racks = _racks(session, hall_id)
    placed = {s.key for s in dn.hall_slots(load_hall(session, hall_id))}
    rows: list[tuple[int, int, dn.Override]] = []
    for i, (device, o) in enumerate(overrides):
        if device not in placed:
            raise DomainError(f"{field}[{i}].device", f"no device {device!r} in this hall")
        if o.host_name:
            dn.check_host_name(o.host_name, f"{field}[{i}].host_name", device)
        if o.asset_tag:
            dn.check_asset_tag(o.asset_tag, f"{field}[{i}].asset_tag", device)
        full, _, u = device.rpartition(".U")
        rows.append((racks[full], int(u), o))
    naming = session.get(DeviceNaming, hall_id)
    if naming is None:
        naming = DeviceNaming(hall_id=hall_id, template=None, version=0)
        session.add(naming)
        session.flush()

    def change(n: DeviceNaming) -> None:
        if template is not UNSET:
            n.template = template
        for rack_id, u, o in rows:
            where = (DeviceOverride.rack_id == rack_id) & (DeviceOverride.u == u)
            if not o.host_name and not o.asset_tag:
                session.execute(delete(DeviceOverride).where(where))
                continue
            values = {
                "hall_id": hall_id,
                "rack_id": rack_id,
                "u": u,
                "host_name": o.host_name,
                "asset_tag": o.asset_tag,
            }
            session.execute(
                pg_insert(DeviceOverride)
                .values(**values)
                .on_conflict_do_update(
                    index_elements=[DeviceOverride.rack_id, DeviceOverride.u],
                    set_={"host_name": o.host_name, "asset_tag": o.asset_tag},
                )
            )

    audited_update(
        session,
        naming,
        if_match,
        Target(access.principal, access.project_id, "device_naming", hall_id, f"device naming of hall {hall_id}"),
        snapshot=_snapshot(session, hall_id),
        change=change,
        check=lambda: _check(session, hall_id),
    )
    return hall_naming(session, hall_id)


def _check(session: Session, hall_id: int) -> None:
    hall_naming(session, hall_id)


def import_csv(session: Session, access: ProjectAccess, hall_id: int, text: str, if_match: int) -> HallNaming:
    """All or nothing: every bad cell is named (line, column) and nothing is applied."""
    known = [s.key for s in dn.hall_slots(load_hall(session, hall_id))]
    parsed = dn.parse_overrides_csv(text, known)
    return update(session, access, hall_id, if_match, overrides=[(p.device, p.override) for p in parsed], field="csv")


def csv_rows(naming: HallNaming) -> Iterable[tuple[str, str, str, str]]:
    return dn.names_csv_rows(naming.devices)
