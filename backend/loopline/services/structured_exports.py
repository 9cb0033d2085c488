"""A structured plan's exports (issue 29 item 6), read from its stored plant (`wiring_plant.load_plant`):
the wiring sheet a line per segment, the trunk pull list, the panel port map (PDF), and the plant's
part of the label sheet and of the NetBox import. The renderers are `domain.structured.exports`;
nothing here decides how a link maps to panels or trunks (the builder did, storage kept it).

Each function loads and checks what it may refuse (a direct plan: 404 saying it has no panels) before
it returns its body, so a refusal is a 4xx before any byte is sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, PlanChainStepRow, PlanItemRow, PlanPanelRow, WiringPlanRow
from loopline.domain import netbox
from loopline.domain.device_names import DeviceNames
from loopline.domain.exports import csv_chunks
from loopline.domain.print_sheets import PrintedLabel
from loopline.domain.structured import exports as sx
from loopline.domain.structured.catalog import StructuredCatalog, builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import ChainStep, PlantItem, StructuredPlant
from loopline.domain.wiring.model import LinkClass
from loopline.services import wiring_plant

YIELD_PER = 2000
"""Rows fetched per round trip of a server-side cursor."""


def _encoded(pieces: Iterable[str]) -> Iterator[bytes]:
    for piece in pieces:
        yield piece.encode()


def catalog() -> StructuredCatalog:
    """The structured catalog the plant's parts are named from."""
    return builtin_catalog()


def stored_plant(session: Session, plan: WiringPlanRow) -> StructuredPlant:
    """The plan's plant; a direct plan is a 404 naming why (`wiring_plant.require_structured`)."""
    wiring_plant.require_structured(plan)
    plant = wiring_plant.load_plant(session, plan)
    if plant is None:  # require_structured refused a plan without one
        raise AssertionError("a structured plan without a stored plant")
    return plant


def plant_or_none(session: Session, plan: WiringPlanRow) -> StructuredPlant | None:
    return wiring_plant.load_plant(session, plan)


def segments_csv(session: Session, plan: WiringPlanRow, names: DeviceNames) -> Iterator[bytes]:
    """A line per chain step of every structured link, the links in plan order. The items (one per
    cord, panel port, trunk) and the steps are read first, as rows; the links (the plan's ToR uplinks)
    stream through a server-side cursor as the body is sent."""
    wiring_plant.require_structured(plan)
    i = PlanItemRow
    items = {
        r[0]: PlantItem(r[0], SegmentKind(r[1]), *r[2:])
        for r in session.execute(
            select(i.item_id, i.kind, i.label, i.part, i.a_end, i.a_port, i.b_end, i.b_port, i.length_mm,
                   i.ordered_mm, i.made_to_order, i.fibres, i.route).where(i.plan_id == plan.id)
        )
    }  # fmt: skip
    panels = frozenset(session.execute(select(PlanPanelRow.panel_id).where(PlanPanelRow.plan_id == plan.id)).scalars())
    # The steps by link (one index scan of their key), then the plan's cables in plan order through
    # a server-side cursor: two plans that need no statistics, whenever the plan was stored.
    s = PlanChainStepRow
    steps: dict[str, list[ChainStep]] = {}
    for r in session.execute(
        select(s.cable_id, s.position, s.item_id, s.detail).where(s.plan_id == plan.id).order_by(s.cable_id, s.position)
    ):
        steps.setdefault(r[0], []).append(ChainStep(r[0], r[1], r[2], r[3]))
    c = PlanCableRow
    stmt = (
        select(c.cable_id, c.label, c.a_device, c.a_port, c.b_device, c.b_port)
        .where(c.plan_id == plan.id, c.link_class == LinkClass.TOR_FABRIC.value)
        .order_by(c.seq)
    )

    def links() -> Iterator[tuple[sx.PlantLink, list[ChainStep]]]:
        for r in session.execute(stmt, execution_options={"yield_per": YIELD_PER}):
            if (chain := steps.get(r[0])) is not None:
                yield sx.PlantLink(*r), chain

    return _encoded(csv_chunks(sx.SEGMENT_COLUMNS, sx.segment_rows(links(), items, panels, names)))


def trunk_pull_list_csv(session: Session, plan: WiringPlanRow) -> Iterator[bytes]:
    plant = stored_plant(session, plan)
    return _encoded(csv_chunks(sx.TRUNK_PULL_COLUMNS, sx.trunk_pull_rows(plant.items, plant.steps)))


def panel_map_pdf(session: Session, plan: WiringPlanRow, names: DeviceNames) -> Iterator[bytes]:
    """A page per panel, in the plant's order, sent a few panels at a time as they are drawn."""
    plant = stored_plant(session, plan)
    sheets = sx.panel_sheets(plant.panels, plant.items, plant.steps, catalog(), names)
    return sx.panel_map_stream(sheets, f"Panel port map: plan {plan.name}")


def plant_labels(plant: StructuredPlant, names: DeviceNames) -> Iterator[PrintedLabel]:
    return sx.plant_labels(plant.panels, plant.items, plant.steps, names)


@dataclass(frozen=True, slots=True)
class NetboxPlant:
    """The plant's part of a NetBox import: panel device types, the panels as devices, and the
    cords and trunks as cables; `structured` the logical links they replace as direct cables."""

    types: dict[str, netbox.NetboxDeviceType]
    devices: list[netbox.NetboxDevice]
    cables: list[Sequence[object]]
    structured: frozenset[str]

    def note(self) -> str:
        return (
            f"Structured cabling: {len(self.devices)} patch panels are devices (role Patch panel, a device type per"
            " panel model as fitted, with its rear ports and front ports mapped to rear-port positions; NetBox's"
            " positions carry no polarity, so a panel at the far end of a Type-B trunk (TIA-568.3-D Method B:"
            " port k arrives at port n + 1 - k) has a type of its own, `..., positions reversed`, whose front"
            " ports sit on the positions their links arrive on);"
            f" 08-cables.csv ends with the plant's {len(self.cables)} cords and trunk legs between"
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
