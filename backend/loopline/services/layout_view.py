"""The whole-hall layout document and its validation report, built from raw rows (fast).

Both return stored rows, records and domain results; the API's read schemas shape them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from loopline.db.models import Hall, RackType, ServerModel, SwitchModel
from loopline.domain import layout_rules as rules
from loopline.services import facility
from loopline.services.layout_snapshot import HallData, domain_catalog, domain_hall, load_fabric, load_hall_data
from loopline.services.racks import LogicalRackRecord, rack_record
from loopline.services.rows import RowRecord


@dataclass(frozen=True, slots=True)
class HallLayoutView:
    """Everything the editor draws for one hall, and the catalog entries it uses."""

    hall: Hall
    rows: list[RowRecord]
    aisles: list[rules.Aisle]
    warnings: list[rules.Issue]
    oversubscription: list[rules.LayerLoad]
    server_models: list[ServerModel]
    switch_models: list[SwitchModel]
    rack_types: list[RackType]
    rack_facility_defaults: facility.RackSettings


def _report(session: Session, data: HallData) -> tuple[list[rules.Issue], list[rules.Aisle], list[rules.LayerLoad]]:
    """Warnings, aisles and oversubscription. The error rules are skipped: every write already ran
    them, so a stored layout has none (the validation report, services/layout_validation.py, runs
    them all)."""
    hall = domain_hall(data)
    fabric = load_fabric(session, data.hall.project_id)
    aisles = rules.derive_aisles(hall, data.hall.min_cold_aisle_mm, data.hall.min_hot_aisle_mm)
    issues = rules.check_aisles(aisles)
    issues += rules.check_fabric(hall, fabric)
    issues += rules.check_network_racks(hall, fabric)
    return issues, aisles, rules.oversubscription(hall, fabric)


def hall_layout(session: Session, hall_id: int) -> HallLayoutView:
    """Everything the editor draws for one hall: 10 queries, no ORM objects per rack."""
    data = load_hall_data(session, hall_id)
    cat = domain_catalog(data.server_models, data.switch_models, data.rack_types)
    lr_cache: dict[tuple[Any, ...], LogicalRackRecord] = {}
    rows = []
    used_types: set[int] = set()
    used_servers: set[int] = set()
    used_switches: set[int] = set()
    for row in data.rows:
        racks = []
        for rack in data.racks_by_row.get(row.id, ()):
            lrs = data.lrs_by_rack.get(rack.id, ())
            sws = data.switches_by_rack.get(rack.id, ())
            used_types.add(rack.rack_type_id)
            for lr in lrs:
                used_servers.add(lr.server_model_id)
                used_switches.add(lr.tor_model_id)
            used_switches.update(sw.switch_model_id for sw in sws)
            racks.append(rack_record(cat, rack, lrs, sws, data.feeds_by_rack.get(rack.id, ()), lr_cache))
        rows.append(RowRecord.of(row, len(racks), racks))
    issues, aisles, layers = _report(session, data)
    return HallLayoutView(
        hall=data.hall,
        rows=rows,
        aisles=aisles,
        warnings=[i for i in issues if i.severity is rules.Severity.WARNING],
        oversubscription=layers,
        server_models=[data.server_models[i] for i in sorted(used_servers)],
        switch_models=[data.switch_models[i] for i in sorted(used_switches)],
        rack_types=[data.rack_types[i] for i in sorted(used_types)],
        rack_facility_defaults=facility.default_rack_settings(),
    )
