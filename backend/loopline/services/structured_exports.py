"""A structured plan's exports (issue 29 item 6), read from its stored plant (`wiring_plant.load_plant`):
the wiring sheet a line per segment, the trunk pull list, the panel port map (PDF), and the plant's
part of the label sheet and of the NetBox import. The renderers are `domain.structured.exports`;
nothing here decides how a link maps to panels or trunks (the builder did, storage kept it).

Each function loads and checks what it may refuse (a direct plan: 404 saying it has no panels) before
it returns its body, so a refusal is a 4xx before any byte is sent.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, PlanChainStepRow, PlanItemRow, PlanPanelRow, WiringPlanRow
from loopline.domain import netbox
from loopline.domain.device_names import DeviceNames
from loopline.domain.exports import csv_chunks
from loopline.domain.print_sheets import PrintedLabel
from loopline.domain.structured import exports as sx
from loopline.domain.structured.catalog import StructuredCatalog, builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import ChainStep, PlantItem, PlantPanel, PlantRole, StructuredPlant
from loopline.domain.wiring.model import LinkClass
from loopline.services import wiring_plant

YIELD_PER = 2000
"""Rows fetched per round trip of a server-side cursor."""
PANEL_BATCH = 40
"""Panels whose port maps are read from the plant at once (a few pieces of the PDF writer's)."""


def _encoded(pieces: Iterable[str]) -> Iterator[bytes]:
    for piece in pieces:
        yield piece.encode()


def catalog() -> StructuredCatalog:
    """The structured catalog the plant's parts are named from."""
    return builtin_catalog()


_ITEM_COLUMNS = (
    PlanItemRow.item_id, PlanItemRow.kind, PlanItemRow.label, PlanItemRow.part, PlanItemRow.a_end,
    PlanItemRow.a_port, PlanItemRow.b_end, PlanItemRow.b_port, PlanItemRow.length_mm, PlanItemRow.ordered_mm,
    PlanItemRow.made_to_order, PlanItemRow.fibres, PlanItemRow.route,
)  # fmt: skip
_PANEL_COLUMNS = (
    PlanPanelRow.panel_id, PlanPanelRow.rack, PlanPanelRow.u, PlanPanelRow.model, PlanPanelRow.cassette,
    PlanPanelRow.cassettes, PlanPanelRow.front_ports, PlanPanelRow.ports_used, PlanPanelRow.role,
)  # fmt: skip


def _item(r: Sequence[Any]) -> PlantItem:
    return PlantItem(r[0], SegmentKind(r[1]), *r[2:])


def _panel(r: Sequence[Any]) -> PlantPanel:
    return PlantPanel(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], PlantRole(r[8]))


def stored_panels(session: Session, plan: WiringPlanRow) -> list[PlantPanel]:
    """The plan's panels in their stored order (a direct plan: a 404 naming why), without the rest
    of its plant."""
    wiring_plant.require_structured(plan)
    return [
        _panel(r)
        for r in session.execute(
            select(*_PANEL_COLUMNS).where(PlanPanelRow.plan_id == plan.id).order_by(PlanPanelRow.seq)
        )
    ]


def stored_plant(session: Session, plan: WiringPlanRow) -> StructuredPlant:
    """The plan's plant as the exports read it: panels, items and steps in their stored order, read
    as rows (a third of the time ORM objects take on a 100,000-server plant); a direct plan is a 404
    naming why (`wiring_plant.require_structured`). Settings and findings are not printed here."""
    stored = wiring_plant.require_structured(plan)
    pid = plan.id
    panels = [
        _panel(r)
        for r in session.execute(select(*_PANEL_COLUMNS).where(PlanPanelRow.plan_id == pid).order_by(PlanPanelRow.seq))
    ]
    items = [
        _item(r)
        for r in session.execute(select(*_ITEM_COLUMNS).where(PlanItemRow.plan_id == pid).order_by(PlanItemRow.seq))
    ]
    s = PlanChainStepRow
    steps = [
        ChainStep(*r)
        for r in session.execute(
            select(s.cable_id, s.position, s.item_id, s.detail).where(s.plan_id == pid).order_by(s.cable_id, s.position)
        )
    ]
    return StructuredPlant(wiring_plant.settings_from_json(stored["settings"]), panels, items, steps)


def plant_or_none(session: Session, plan: WiringPlanRow) -> StructuredPlant | None:
    return stored_plant(session, plan) if wiring_plant.is_structured(plan) else None


def segments_csv(session: Session, plan: WiringPlanRow, names: DeviceNames) -> Iterator[bytes]:
    """A line per chain step of every structured link, the links (the plan's ToR uplinks) in plan
    order, read as the body is sent: the uplinks through a server-side cursor, and for each batch of
    them their steps and the items those name, by key (plans that need no statistics, however soon
    after the plan was stored). The first lines leave before the rest of the plant is read."""
    wiring_plant.require_structured(plan)
    panels = frozenset(session.execute(select(PlanPanelRow.panel_id).where(PlanPanelRow.plan_id == plan.id)).scalars())
    c, s, i = PlanCableRow, PlanChainStepRow, PlanItemRow
    uplinks = (
        select(c.cable_id, c.label, c.a_device, c.a_port, c.b_device, c.b_port)
        .where(c.plan_id == plan.id, c.link_class == LinkClass.TOR_FABRIC.value)
        .order_by(c.seq)
    )
    items: dict[str, PlantItem] = {}

    def links() -> Iterator[tuple[sx.PlantLink, list[ChainStep]]]:
        batch: list[sx.PlantLink] = []
        for r in session.execute(uplinks, execution_options={"yield_per": YIELD_PER}).partitions():
            batch = [sx.PlantLink(*x) for x in r]
            ids = [link.cable_id for link in batch]
            steps: dict[str, list[ChainStep]] = {}
            for x in session.execute(
                select(s.cable_id, s.position, s.item_id, s.detail)
                .where(s.plan_id == plan.id, s.cable_id.in_(ids))
                .order_by(s.cable_id, s.position)
            ):
                steps.setdefault(x[0], []).append(ChainStep(*x))
            wanted = {step.item_id for chain in steps.values() for step in chain} - items.keys()
            if wanted:
                items.update(
                    (x[0], _item(x))
                    for x in session.execute(select(*_ITEM_COLUMNS).where(i.plan_id == plan.id, i.item_id.in_(wanted)))
                )
            for link in batch:
                if (chain := steps.get(link.cable_id)) is not None:
                    yield link, chain

    return _encoded(csv_chunks(sx.SEGMENT_COLUMNS, sx.segment_rows(links(), items, panels, names)))


def trunk_pull_list_csv(session: Session, plan: WiringPlanRow) -> Iterator[bytes]:
    """The plant's trunks in their stored order, each with the links it carries. Two plain reads,
    no join: right after a plan is stored its tables have no statistics yet, and a join planned
    blind (the grouped count joined to the trunks) ran for 90 s on the 100,000-server plan where it
    takes 0.2 s once analysed. The steps have no (plan, item) index, so the count is one pass over
    the plan's steps (by the plan prefix of their key), kept to the trunks' ids."""
    wiring_plant.require_structured(plan)
    i, s = PlanItemRow, PlanChainStepRow
    trunks = [
        _item(r)
        for r in session.execute(
            select(*_ITEM_COLUMNS).where(i.plan_id == plan.id, i.kind == SegmentKind.TRUNK.value).order_by(i.seq)
        )
    ]
    counts = (
        select(s.item_id, func.count(s.cable_id.distinct()))
        .where(s.plan_id == plan.id, s.item_id.in_([t.item_id for t in trunks]))
        .group_by(s.item_id)
    )
    carried: dict[str, int] = {item_id: links for item_id, links in session.execute(counts)}
    rows = ((t, carried.get(t.item_id, 0)) for t in trunks)
    lines = sx.trunk_pull_lines(rows)
    return _encoded(csv_chunks(sx.TRUNK_PULL_COLUMNS, lines))


def panel_sheets(session: Session, plan: WiringPlanRow, names: DeviceNames) -> Iterator[sx.PanelSheet]:
    """The panels' port maps in their stored order, read `PANEL_BATCH` panels at a time as they are
    drawn: for each batch only the items with an end on one of its panels (its cords, trunks and
    panel ports) and the whole chains of the links through those, so the first pages leave before
    the rest of the plant is read. The steps have no (plan, item) index: a batch's links are found
    by one pass over the plan's steps (tens of milliseconds), not by a read of the whole plant."""
    pid = plan.id
    panels = stored_panels(session, plan)
    plant_panels = frozenset(p.panel_id for p in panels)
    cat = catalog()
    i, s = PlanItemRow, PlanChainStepRow

    def sheets() -> Iterator[sx.PanelSheet]:
        for start in range(0, len(panels), PANEL_BATCH):
            batch = panels[start : start + PANEL_BATCH]
            ids = [p.panel_id for p in batch]
            on_batch = or_(i.a_end.in_(ids), i.b_end.in_(ids))
            through = select(s.cable_id).where(
                s.plan_id == pid, s.item_id.in_(select(i.item_id).where(i.plan_id == pid, on_batch))
            )
            steps = [
                ChainStep(*r)
                for r in session.execute(
                    select(s.cable_id, s.position, s.item_id, s.detail)
                    .where(s.plan_id == pid, s.cable_id.in_(through))
                    .order_by(s.cable_id, s.position)
                )
            ]
            named = list({step.item_id for step in steps})
            # In stored order, as the whole plant lists them: the first cable found in a port wins.
            items = [
                _item(r)
                for r in session.execute(
                    select(*_ITEM_COLUMNS).where(i.plan_id == pid, or_(on_batch, i.item_id.in_(named))).order_by(i.seq)
                )
            ]
            yield from sx.panel_sheets(batch, items, steps, cat, names, plant_panels)

    return sheets()


def panel_map_pdf(session: Session, plan: WiringPlanRow, names: DeviceNames) -> Iterator[bytes]:
    """A page per panel, in the plant's order, sent a few panels at a time as they are drawn and read
    (`panel_sheets`)."""
    return sx.panel_map_stream(panel_sheets(session, plan, names), f"Panel port map: plan {plan.name}")


def plant_labels(session: Session, plan: WiringPlanRow, names: DeviceNames) -> Iterator[PrintedLabel]:
    """The plant's labels; the plant is read when the first is asked for (the label sheet draws them
    after the direct cables' labels, which then leave first)."""
    plant = stored_plant(session, plan)
    yield from sx.plant_labels(plant.panels, plant.items, plant.steps, names)


@dataclass(frozen=True, slots=True)
class NetboxPlant:
    """The plant's part of a NetBox import: panel device types, the panels as devices, and the
    cords and trunks as cables; `structured` the logical links they replace as direct cables."""

    types: dict[str, netbox.NetboxDeviceType]
    devices: list[netbox.NetboxDevice]
    cables: list[Sequence[object]]
    structured: frozenset[str]

    def note(self) -> str:
        return netbox_note(len(self.devices))


def panel_type_clashes(panels: Iterable[PlantPanel], models: Collection[str]) -> set[str]:
    """The device `models` a panel's NetBox type is or may be named (`sx.panel_device_type`: its
    model as fitted, or that and `, positions ...` at a far end), checked from the panels alone,
    before the plant's chains that settle the far ends' positions are read."""
    names = {sx.panel_type_name(p) for p in panels}
    return {m for m in models if m in names or m.split(", positions ", 1)[0] in names}


def netbox_note(panels: int) -> str:
    """The README's paragraph on a structured plan's panels, trunks and cords (`panels` the plant's
    panels: written before the rest of the plant is read)."""
    return (
        f"Structured cabling: {panels} patch panels are devices (role Patch panel, a device type per"
        " panel model as fitted, with its rear ports and front ports mapped to rear-port positions; NetBox's"
        " positions carry no polarity, so a panel at the far end of a Type-B trunk (TIA-568.3-D Method B:"
        " port k arrives at port n + 1 - k) has a type of its own, `..., positions reversed`, whose front"
        " ports sit on the positions their links arrive on);"
        " 08-cables.csv ends with the plant's cords and trunk legs (a NetBox cable per leg) between"
        " interfaces, front ports and rear ports, in place of the ToR uplinks as direct cables, so NetBox's"
        " cable trace runs ToR -> cord -> panel front -> rear -> trunk -> rear -> front -> cord -> switch."
    )


def netbox_plant(
    plant: StructuredPlant, site: str, faces: dict[str, str], names: DeviceNames, colours: dict[str, str]
) -> NetboxPlant:
    cat = catalog()
    types, type_of = sx.netbox_panel_types(plant.panels, plant.items, plant.steps, cat)
    panel_ids = [p.panel_id for p in plant.panels]
    for pid in panel_ids:
        netbox.check_length("device", pid)
    cables = list(sx.plant_cable_rows(plant.items, plant.steps, panel_ids, site, cat, names, colours))
    devices = list(sx.panel_devices(plant.panels, faces, type_of))
    return NetboxPlant(types, devices, cables, frozenset(s.cable_id for s in plant.steps))
