"""What a hall can build: the patterns a new plan may take and the upgrades a plan is offered, each
judged against the hall as it is now (`domain.wiring.options.feasibility`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from loopline.db.models import ServerModel
from loopline.db.models.wiring import WiringPlanRow
from loopline.domain import layout as dl
from loopline.domain.errors import DomainError
from loopline.domain.wiring import SUBWAYS_PATTERNS, Pattern
from loopline.domain.wiring.options import Feasibility, feasibility
from loopline.services.layout_snapshot import get_hall_or_404, load_catalog, load_fabric, load_hall
from loopline.services.wiring_spec import PlanOptions, geometry_for, resolve_rail, upgrade_spec, wiring_spec


@dataclass(frozen=True, slots=True)
class WiringOption:
    """A change (an upgrade's) or a pattern (a new plan's) the form may offer, and whether the hall
    can build it; `server_models`: the catalog's models with the NIC ports it needs, when it needs them."""

    kind: str
    label: str
    change: dict[str, Any]
    feasibility: Feasibility
    server_models: list[ServerModel]


_PARALLEL_DEFAULT = {"ports": 1, "gbps": 100.0, "tor_server_ports": 32, "clusters": 1}
_LOOP_SUGGESTIONS = (2, 3, 4, 6, 8)


def _option(
    session: Session, hall: dl.Hall, project_id: int, fabric: dl.FabricSettings, kind: str, label: str,
    change: dict[str, Any], spec: dict[str, Any],
) -> WiringOption:  # fmt: skip
    request = PlanOptions.from_json({**spec, "name": label, "upgrade_from_plan_id": None})
    try:
        request = resolve_rail(session, project_id, request)
        found = feasibility(hall, wiring_spec(request, fabric), geometry_for(request))
    except DomainError as e:  # the request itself (a parameter out of place)
        found = Feasibility(False, e.field, e.reason)
    models: list[ServerModel] = []
    if found.needs_hardware:
        need = max(x.needed for x in found.shortfalls)
        speeds = {lr.server_model.port_gbps for row in hall.rows for rk in row.racks for lr in rk.logical_racks}
        servers, _, _ = load_catalog(session, usable_in=project_id)
        models = sorted(
            (m for m in servers.values() if m.nic_ports >= need and m.port_gbps in speeds),
            key=lambda m: (m.nic_ports, m.height_u, m.name),
        )
    return WiringOption(kind, label, change, found, models)


def upgrade_options(session: Session, base: WiringPlanRow) -> list[WiringOption]:
    """The upgrades of `base` a planner is offered (p + 1, a parallel port, other loop lengths, other
    patterns), each generated against the hall as it is now: buildable, buildable with servers of more
    NIC ports (and which catalog models have them), or not, with the reason."""
    hall = load_hall(session, base.hall_id)
    fabric = load_fabric(session, base.project_id)
    spec = base.spec
    pattern = Pattern(spec["pattern"])
    own = max((lr.ports_used for row in hall.rows for rk in row.racks for lr in rk.logical_racks), default=1)
    ports = int(spec.get("ports") or own)
    candidates: list[tuple[str, str, dict[str, Any]]] = [
        ("ports", f"p={ports + 1}", {"ports": ports + 1}),
        ("parallel", "+1x100G parallel", {"parallel": dict(_PARALLEL_DEFAULT)}),
    ]
    if pattern in SUBWAYS_PATTERNS:
        candidates += [
            ("loop", f"l={n}", {"loop": n}) for n in _LOOP_SUGGESTIONS if n >= ports and n != spec.get("loop")
        ]
    candidates += [("pattern", f"pattern {p.value}", {"pattern": p.value}) for p in Pattern if p is not pattern]
    return [
        _option(session, hall, base.project_id, fabric, kind, label, change, upgrade_spec(spec, change))
        for kind, label, change in candidates
    ]


def pattern_options(session: Session, hall_id: int) -> list[WiringOption]:
    """Every pattern for a new plan of the hall with its default parameters (the racks' own p, GRIN
    degree 1), and whether the hall can build it as it is, or with servers of more NIC ports."""
    hall_row = get_hall_or_404(session, hall_id)
    hall = load_hall(session, hall_id)
    fabric = load_fabric(session, hall_row.project_id)
    out = []
    for p in Pattern:
        change: dict[str, Any] = {"pattern": p.value, **({"grin_degree": 1} if p is Pattern.GRIN else {})}
        out.append(_option(session, hall, hall_row.project_id, fabric, "pattern", p.value, change, change))
    return out
