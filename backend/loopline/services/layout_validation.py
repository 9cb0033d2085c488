"""The layout rules after (or before) every write: an error refuses the whole request.

Every write flushes, then re-reads the hall's geometry and contents and runs the rules; an error
raises `LayoutInvalid` (422) and the request's transaction is rolled back, so nothing
half-written stays. `check_new_rows` checks rows about to be written, before the COPY.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import FabricSwitch, Rack, Row
from loopline.domain import fabric_capacity
from loopline.domain import layout as dl
from loopline.domain import layout_rules as rules
from loopline.domain.errors import Conflict, DomainError
from loopline.services.layout_snapshot import domain_hall, load_fabric, load_hall_data

MAX_ISSUES = 50


class LayoutInvalid(DomainError):
    """The write would leave the layout invalid; `issues` lists every error found (up to 50)."""

    def __init__(self, issues: Sequence[rules.Issue]) -> None:
        super().__init__(issues[0].field, issues[0].message)
        self.issues = list(issues[:MAX_ISSUES])


def validate_hall_or_raise(session: Session, hall_id: int) -> None:
    session.flush()
    hall = domain_hall(load_hall_data(session, hall_id))
    errors = rules.check_geometry(hall)
    for row in hall.rows:
        for rack in row.racks:
            errors += rules.check_contents(row, rack)
    if errors:
        raise LayoutInvalid(errors)


def check_new_rows(session: Session, hall_id: int, new_rows: Sequence[dl.Row]) -> None:
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


def check_unique_names(
    session: Session, hall_id: int, row_names: Sequence[str], rack_names: Sequence[str], switch_names: Sequence[str]
) -> None:
    """Names new to the hall: no two alike in the request (422), none already taken in the hall (409)."""
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


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """`GET /halls/{id}/validation`: the layout rules, the aisles, oversubscription per layer and the
    fabric's port need per layer (warnings when a layer runs out, so wiring would fail)."""

    errors: list[rules.Issue]
    warnings: list[rules.Issue]
    aisles: list[rules.Aisle]
    oversubscription: list[rules.LayerLoad]
    fabric_ports: list[fabric_capacity.LayerPorts]


def hall_report(session: Session, hall_id: int) -> ValidationReport:
    data = load_hall_data(session, hall_id)
    hall = domain_hall(data)
    fabric = load_fabric(session, data.hall.project_id)
    issues = rules.validate_hall(
        hall, min_cold_mm=data.hall.min_cold_aisle_mm, min_hot_mm=data.hall.min_hot_aisle_mm, fabric=fabric
    )
    layers, short = fabric_capacity.fabric_ports(hall, fabric)
    return ValidationReport(
        errors=[i for i in issues if i.severity is rules.Severity.ERROR],
        warnings=[i for i in issues if i.severity is rules.Severity.WARNING] + short,
        aisles=rules.derive_aisles(hall, data.hall.min_cold_aisle_mm, data.hall.min_hot_aisle_mm),
        oversubscription=rules.oversubscription(hall, fabric),
        fabric_ports=layers,
    )
