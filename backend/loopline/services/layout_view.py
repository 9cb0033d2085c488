"""The whole-hall layout document and its validation report, built from raw rows (fast)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from loopline.api.schemas.common import m
from loopline.api.schemas.layout import hall_dict
from loopline.domain import layout_rules as rules
from loopline.services.layout import rack_read, row_read
from loopline.services.layout_snapshot import DomainCatalog, HallData, domain_hall, load_fabric, load_hall_data


def _issue(i: rules.Issue) -> dict[str, Any]:
    return {"severity": i.severity.value, "code": i.code, "field": i.field, "message": i.message}


def _aisle(a: rules.Aisle) -> dict[str, Any]:
    return {
        "kind": a.kind.value,
        "row_a": a.row_a,
        "row_b": a.row_b,
        "width_m": m(a.width_mm),
        "x0_m": m(a.x0_mm),
        "y0_m": m(a.y0_mm),
        "x1_m": m(a.x1_mm),
        "y1_m": m(a.y1_mm),
    }


def _layer(layer: rules.LayerLoad) -> dict[str, Any]:
    return {
        "layer": layer.layer,
        "switches": layer.switches,
        "downlink_gbps": layer.downlink_gbps,
        "uplink_gbps": layer.uplink_gbps,
        "ratio": layer.ratio,
        "worst_ratio": layer.worst_ratio,
    }


def _report(
    session: Session, data: HallData, *, errors: bool = True
) -> tuple[list[rules.Issue], list[rules.Aisle], list[rules.LayerLoad]]:
    """Issues, aisles and oversubscription. `errors=False` skips the error rules: every write already
    ran them, so a stored layout has none (the validation endpoint still runs them all)."""
    hall = domain_hall(data)
    fabric = load_fabric(session, data.hall.project_id)
    aisles = rules.derive_aisles(hall)
    if errors:
        issues = rules.validate_hall(
            hall, min_cold_mm=data.hall.min_cold_aisle_mm, min_hot_mm=data.hall.min_hot_aisle_mm, fabric=fabric
        )
    else:
        issues = rules.check_aisles(aisles, data.hall.min_cold_aisle_mm, data.hall.min_hot_aisle_mm)
        issues += rules.check_fabric(hall, fabric)
        issues += rules.check_network_racks(hall, fabric)
    return issues, aisles, rules.oversubscription(hall, fabric)


def hall_validation(session: Session, hall_id: int) -> dict[str, Any]:
    issues, aisles, layers = _report(session, load_hall_data(session, hall_id))
    return {
        "errors": [_issue(i) for i in issues if i.severity is rules.Severity.ERROR],
        "warnings": [_issue(i) for i in issues if i.severity is rules.Severity.WARNING],
        "aisles": [_aisle(a) for a in aisles],
        "oversubscription": [_layer(layer) for layer in layers],
    }


def hall_layout(session: Session, hall_id: int) -> dict[str, Any]:
    """Everything the editor draws for one hall: 9 queries, no ORM objects per rack."""
    data = load_hall_data(session, hall_id)
    cat = DomainCatalog(data.server_models, data.switch_models, data.rack_types)
    lr_cache: dict[Any, Any] = {}
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
            racks.append(rack_read(cat, rack, lrs, sws, lr_cache))
        rows.append({**row_read(row, len(racks)), "racks": racks})
    issues, aisles, layers = _report(session, data, errors=False)
    return {
        "hall": hall_dict(data.hall),
        "rows": rows,
        "aisles": [_aisle(a) for a in aisles],
        "warnings": [_issue(i) for i in issues if i.severity is rules.Severity.WARNING],
        "oversubscription": [_layer(layer) for layer in layers],
        "server_models": [_columns(data.server_models[i], SERVER_FIELDS) for i in sorted(used_servers)],
        "switch_models": [_columns(data.switch_models[i], SWITCH_FIELDS) for i in sorted(used_switches)],
        "rack_types": [
            {
                **_columns(data.rack_types[i], ("id", "name", "height_u", "builtin", "version")),
                "width_m": m(data.rack_types[i].width_mm),
                "depth_m": m(data.rack_types[i].depth_mm),
            }
            for i in sorted(used_types)
        ],
    }


SERVER_FIELDS = ("id", "name", "nic_ports", "port_gbps", "height_u", "builtin", "version")
SWITCH_FIELDS = (
    "id",
    "name",
    "server_ports",
    "server_port_gbps",
    "uplink_ports",
    "uplink_gbps",
    "height_u",
    "builtin",
    "version",
)


def _columns(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: getattr(obj, n) for n in names}
