"""A structured plan's passive plant in storage: written by `COPY` beside the plan's cables
(`plan_panels`, `plan_items`, `plan_chain_steps`, `plan_optics`), its settings and findings in the
plan's summary (`summary["structured"]`, `domain.wiring.summary.structured_summary`), and read
back as the `StructuredPlant` (`load_plant`) or in the pieces the API serves (a panel, a link's
chain). The builder (`domain.structured`) decides how links map to panels and trunks; nothing here
recomputes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import (
    PlanCableRow,
    PlanChainStepRow,
    PlanItemRow,
    PlanOpticRow,
    PlanPanelRow,
    WiringPlanRow,
)
from loopline.db.repositories.wiring import (
    ITEM_COPY_COLUMNS,
    OPTIC_COPY_COLUMNS,
    PANEL_COPY_COLUMNS,
    STEP_COPY_COLUMNS,
    copy_rows,
)
from loopline.domain import layout as dl
from loopline.domain.errors import NotFound
from loopline.domain.routing import GeometryPreset
from loopline.domain.structured.catalog import builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.exports import panel_ports
from loopline.domain.structured.layout import structure_plan
from loopline.domain.structured.plant import (
    Cabling,
    ChainStep,
    FindingKind,
    PanelPlacement,
    PlantFinding,
    PlantItem,
    PlantOptic,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)
from loopline.domain.wiring import WiringPlan
from loopline.domain.wiring.diff import diff_plants


def build_plant(hall: dl.Hall, plan: WiringPlan, geometry: GeometryPreset) -> StructuredPlant | None:
    """The plant of a plan generated with structured cabling (the builder's, from the builtin
    structured catalog); None for direct cabling."""
    if plan.spec.cabling is not Cabling.STRUCTURED:
        return None
    settings = plan.spec.structured or StructuredSettings()
    return structure_plan(hall, plan, settings, geometry, builtin_catalog())


def store_plant(session: Session, plan_id: int, plant: StructuredPlant) -> None:
    """COPY the plant's rows; its settings and findings go in the summary (`structured_summary`)."""
    copy_rows(
        session,
        "plan_panels",
        PANEL_COPY_COLUMNS,
        (
            (plan_id, p.panel_id, seq, p.rack, p.u, p.model, p.cassette, p.cassettes, p.front_ports, p.ports_used,
             p.role.value)
            for seq, p in enumerate(plant.panels)
        ),
    )  # fmt: skip
    copy_rows(
        session,
        "plan_items",
        ITEM_COPY_COLUMNS,
        (
            (plan_id, i.item_id, seq, i.kind.value, i.label, i.part, i.a_end, i.a_port, i.b_end, i.b_port,
             i.length_mm, i.ordered_mm, i.made_to_order, i.fibres, i.route)
            for seq, i in enumerate(plant.items)
        ),
    )  # fmt: skip
    copy_rows(
        session,
        "plan_chain_steps",
        STEP_COPY_COLUMNS,
        ((plan_id, s.cable_id, s.position, s.item_id, s.detail) for s in plant.steps),
    )
    copy_rows(
        session,
        "plan_optics",
        OPTIC_COPY_COLUMNS,
        ((plan_id, o.device, o.port, seq, o.part) for seq, o in enumerate(plant.optics)),
    )


def is_structured(row: WiringPlanRow) -> bool:
    return "structured" in row.summary


def require_structured(row: WiringPlanRow) -> dict[str, Any]:
    """The plan's stored plant summary; a direct plan is a 404 that says why."""
    found = row.summary.get("structured")
    if found is None:
        raise NotFound("plan_id", f"plan {row.id} is wired direct: it has no panels")
    return dict(found)


def settings_from_json(data: dict[str, Any]) -> StructuredSettings:
    return StructuredSettings(
        panel_at=PanelPlacement(data["panel_at"]),
        lc_pair_loss_db=data.get("lc_pair_loss_db"),
        mpo_pair_loss_db=data.get("mpo_pair_loss_db"),
    )


def finding_from_json(data: dict[str, Any]) -> PlantFinding:
    return PlantFinding(
        FindingKind(data["kind"]), data["severity"], data.get("cable_id"), data.get("item_id"), data["message"]
    )


_PANEL_COLUMNS = (
    PlanPanelRow.panel_id, PlanPanelRow.rack, PlanPanelRow.u, PlanPanelRow.model, PlanPanelRow.cassette,
    PlanPanelRow.cassettes, PlanPanelRow.front_ports, PlanPanelRow.ports_used, PlanPanelRow.role,
)  # fmt: skip
_ITEM_COLUMNS = (
    PlanItemRow.item_id, PlanItemRow.kind, PlanItemRow.label, PlanItemRow.part, PlanItemRow.a_end,
    PlanItemRow.a_port, PlanItemRow.b_end, PlanItemRow.b_port, PlanItemRow.length_mm, PlanItemRow.ordered_mm,
    PlanItemRow.made_to_order, PlanItemRow.fibres, PlanItemRow.route,
)  # fmt: skip


def _panel(p: PlanPanelRow) -> PlantPanel:
    return PlantPanel(
        p.panel_id, p.rack, p.u, p.model, p.cassette, p.cassettes, p.front_ports, p.ports_used, PlantRole(p.role)
    )


def _item(i: PlanItemRow) -> PlantItem:
    return PlantItem(
        i.item_id, SegmentKind(i.kind), i.label, i.part, i.a_end, i.a_port, i.b_end, i.b_port,
        i.length_mm, i.ordered_mm, i.made_to_order, i.fibres, i.route,
    )  # fmt: skip


def load_plant(session: Session, row: WiringPlanRow) -> StructuredPlant | None:
    """The stored plant of a structured plan (None for a direct one): panels, items and optics in
    the order built, steps by link (in the plan's cable order; a step of a link the plan lacks last, by
    ID) and position, the stored findings."""
    stored = row.summary.get("structured")
    if stored is None:
        return None
    # Plain Core rows, not ORM objects: a 100,000-server hall's plant is ~80,000 items and 100,000 steps.
    panels = [
        PlantPanel(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], PlantRole(p[8]))
        for p in session.connection().execute(
            select(*_PANEL_COLUMNS).where(PlanPanelRow.plan_id == row.id).order_by(PlanPanelRow.seq)
        )
    ]
    items = [
        PlantItem(i[0], SegmentKind(i[1]), *i[2:])
        for i in session.connection().execute(
            select(*_ITEM_COLUMNS).where(PlanItemRow.plan_id == row.id).order_by(PlanItemRow.seq)
        )
    ]
    steps = [
        ChainStep(cable_id, position, item_id, detail)
        for cable_id, position, item_id, detail in session.connection().execute(
            select(
                PlanChainStepRow.cable_id, PlanChainStepRow.position, PlanChainStepRow.item_id, PlanChainStepRow.detail
            )
            # The links in the plan's cable order (as the builder walks them), each link's steps in order.
            .join(
                PlanCableRow,
                (PlanCableRow.plan_id == PlanChainStepRow.plan_id)
                & (PlanCableRow.cable_id == PlanChainStepRow.cable_id),
                isouter=True,
            )
            .where(PlanChainStepRow.plan_id == row.id)
            .order_by(PlanCableRow.seq, PlanChainStepRow.cable_id, PlanChainStepRow.position)
        )
    ]
    optics = [
        PlantOptic(device, port, part)
        for device, port, part in session.connection().execute(
            select(PlanOpticRow.device, PlanOpticRow.port, PlanOpticRow.part)
            .where(PlanOpticRow.plan_id == row.id)
            .order_by(PlanOpticRow.seq)
        )
    ]
    return StructuredPlant(
        settings=settings_from_json(stored["settings"]),
        panels=panels,
        items=items,
        steps=steps,
        findings=[finding_from_json(f) for f in stored.get("findings", [])],
        optics=optics,
    )


def plant_change(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> dict[str, object] | None:
    """`new`'s plant against `old`'s, segment by segment (`diff_plants`); None when both are direct.
    An upgrade's change was stored with it at creation; another pair's is worked out from both plants."""
    if not is_structured(old) and not is_structured(new):
        return None
    if new.base_plan_id == old.id and new.diff is not None and "plant" in new.diff:
        return dict(new.diff["plant"])
    return diff_plants(load_plant(session, old), load_plant(session, new)).to_json()


# ---------------------------------------------------------------- what the API serves


@dataclass(frozen=True, slots=True)
class PlantOverview:
    settings: StructuredSettings
    counts: dict[str, int]
    panels: list[PlantPanel]
    trunks: list[PlantItem]
    findings: list[PlantFinding]
    findings_total: int
    """Findings of the plant in all (the stored list keeps the first of each kind)."""
    change: dict[str, object] | None
    """An upgrade's change to the plant from its base plan (`diff_plants`), as stored with it."""


def plant_overview(session: Session, row: WiringPlanRow) -> PlantOverview:
    stored = require_structured(row)
    panels = [
        _panel(p)
        for p in session.execute(
            select(PlanPanelRow).where(PlanPanelRow.plan_id == row.id).order_by(PlanPanelRow.seq)
        ).scalars()
    ]
    trunks = [
        _item(i)
        for i in session.execute(
            select(PlanItemRow)
            .where(PlanItemRow.plan_id == row.id, PlanItemRow.kind == SegmentKind.TRUNK.value)
            .order_by(PlanItemRow.seq)
        ).scalars()
    ]
    return PlantOverview(
        settings=settings_from_json(stored["settings"]),
        counts=dict(stored["counts"]),
        panels=panels,
        trunks=trunks,
        findings=[finding_from_json(f) for f in stored.get("findings", [])],
        findings_total=int(sum(stored.get("finding_counts", {}).values())),
        change=None if row.diff is None else row.diff.get("plant"),
    )


@dataclass(frozen=True, slots=True)
class ChainStepView:
    position: int
    detail: str
    item: PlantItem


@dataclass(frozen=True, slots=True)
class LinkChainView:
    cable_id: str
    steps: list[ChainStepView]
    optic_a: str | None
    """The optic at the link's A end (the ToR port), as the plant fits it."""
    optic_b: str | None


def link_chain(session: Session, row: WiringPlanRow, cable_id: str) -> LinkChainView:
    """A logical link's chain in order, position 0 at the ToR; a link the plant does not carry
    (a server link, in-rack) is a 404 naming the cable."""
    require_structured(row)
    found = session.execute(
        select(PlanChainStepRow.position, PlanChainStepRow.detail, PlanItemRow)
        .join(
            PlanItemRow,
            (PlanItemRow.plan_id == PlanChainStepRow.plan_id) & (PlanItemRow.item_id == PlanChainStepRow.item_id),
        )
        .where(PlanChainStepRow.plan_id == row.id, PlanChainStepRow.cable_id == cable_id)
        .order_by(PlanChainStepRow.position)
    ).all()
    if not found:
        raise NotFound("cable_id", f"plan {row.id} has no structured link {cable_id!r} (server links stay direct)")
    steps = [ChainStepView(position, detail, _item(item)) for position, detail, item in found]
    first, last = steps[0].item, steps[-1].item
    optic = _optics_at(session, row.id, [(first.a_end, first.a_port), (last.b_end, last.b_port)])
    return LinkChainView(cable_id, steps, optic.get((first.a_end, first.a_port)), optic.get((last.b_end, last.b_port)))


def _optics_at(session: Session, plan_id: int, ends: Sequence[tuple[str, str]]) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for device, port in ends:
        part = session.execute(
            select(PlanOpticRow.part).where(
                PlanOpticRow.plan_id == plan_id, PlanOpticRow.device == device, PlanOpticRow.port == port
            )
        ).scalar_one_or_none()
        if part is not None:
            out[(device, port)] = part
    return out


@dataclass(frozen=True, slots=True)
class PanelPortView:
    front_port: str
    rear_port: str
    """The rear port (an MPO) the front port's fibres leave by."""
    port_item: PlantItem | None
    cord: PlantItem | None
    """The cord (or breakout cable) plugged into the front port."""
    cord_far_end: str | None
    """The cord's other end: ``<device> <port>`` or ``<panel> <port>``."""
    cable_ids: list[str]
    """The logical links through the port (several lanes where a port carries a breakout)."""


@dataclass(frozen=True, slots=True)
class PanelMap:
    panel: PlantPanel
    ports: list[PanelPortView]


def panel_map(session: Session, row: WiringPlanRow, panel_id: str) -> PanelMap:
    """Every front port of a panel, in order: the rear port it maps to, the cord plugged and the
    logical links through it (read from the stored items and steps)."""
    require_structured(row)
    stored = session.get(PlanPanelRow, (row.id, panel_id))
    if stored is None:
        raise NotFound("panel_id", f"plan {row.id} has no panel {panel_id!r}")
    panel = _panel(stored)
    # Panel ports run front -> rear on the panel itself; cords end on one of its front ports.
    on_panel = [
        _item(i)
        for i in session.execute(
            select(PlanItemRow)
            .where(PlanItemRow.plan_id == row.id)
            .where((PlanItemRow.a_end == panel_id) | (PlanItemRow.b_end == panel_id))
            .order_by(PlanItemRow.seq)
        ).scalars()
    ]
    port_items: dict[str, PlantItem] = {}
    cords: dict[str, tuple[PlantItem, str]] = {}
    for item in on_panel:
        if item.kind is SegmentKind.PANEL_PORT:
            front = item.a_port if item.a_port.startswith("F") else item.b_port
            port_items[front] = item
        elif item.kind is not SegmentKind.TRUNK:
            if item.a_end == panel_id and item.a_port.startswith("F"):
                cords[item.a_port] = (item, f"{item.b_end} {item.b_port}")
            if item.b_end == panel_id and item.b_port.startswith("F"):
                cords[item.b_port] = (item, f"{item.a_end} {item.a_port}")
    links: dict[str, list[str]] = {}
    ids = [i.item_id for i in port_items.values()]
    if ids:
        for item_id, cable_id in session.execute(
            select(PlanChainStepRow.item_id, PlanChainStepRow.cable_id)
            .where(PlanChainStepRow.plan_id == row.id, PlanChainStepRow.item_id.in_(ids))
            .order_by(PlanChainStepRow.cable_id)
        ):
            links.setdefault(item_id, []).append(cable_id)
    ports = []
    # The rear port each front port maps to is the panel's own (its cassette's fibre map), used or not.
    for port in panel_ports(panel, builtin_catalog()).fronts:
        through = port_items.get(port.name)
        cord = cords.get(port.name)
        ports.append(
            PanelPortView(
                port.name, port.rear, through, None if cord is None else cord[0], None if cord is None else cord[1],
                [] if through is None else links.get(through.item_id, []),
            )
        )  # fmt: skip
    return PanelMap(panel, ports)
