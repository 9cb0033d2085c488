"""A structured plan's passive plant as the API shows it: panels, trunks, a link's chain, a panel's
port map. Read from the stored plant (`services/wiring_plant.py`); lengths in metres."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from loopline.api.schemas.common import FromMillimetres, ReadSchema
from loopline.api.schemas.wiring import PlantDiffRead
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import FindingKind, PanelPlacement, PlantRole


class StructuredSettingsRead(ReadSchema):
    panel_at: PanelPlacement = Field(description="Where ToR uplinks land: a panel in each `rack`, or at the `row-end`.")
    lc_pair_loss_db: float | None = Field(
        description="Loss per mated LC pair the loss check used; null: the catalog's stated default."
    )
    mpo_pair_loss_db: float | None = Field(
        description="Loss per mated MPO pair the loss check used; null: the catalog's stated default."
    )


class PlantCountsRead(BaseModel):
    links: int = Field(description="Logical links the plant carries (ToR uplinks; server links stay direct).")
    panels: int = Field(description="Patch panels.")
    cassettes: int = Field(description="Cassettes fitted in the panels.")
    panel_ports: int = Field(description="Panel front ports in use.")
    trunks: int = Field(description="MPO trunks.")
    cords: int = Field(description="Patch cords.")
    breakout_cables: int = Field(description="Breakout cables.")
    fibres: int = Field(description="Fibres in all the trunks.")
    optics: int = Field(description="Optics the plant fits (one per device port; a broken-out port's once).")


class PlantPanelRead(ReadSchema):
    panel_id: str = Field(
        description="`<rack>.U<nn>` (TIA-606 style, the panel's lowest U).", examples=["H1.R01.R01-12.U42"]
    )
    rack: str = Field(description="The rack it is in.")
    u: int = Field(description="Its lowest U.")
    model: str = Field(description="Patch panel model (structured catalog).")
    cassette: str | None = Field(description="Cassette model in its slots; null for an MPO adapter panel.")
    cassettes: int = Field(description="Cassettes fitted.")
    front_ports: int = Field(description="Front ports.")
    ports_used: int = Field(description="Front ports in use.")
    role: PlantRole = Field(description="`rack` (a compute rack's), `row-end` or `network` (a fabric switch rack's).")


class PlantItemRead(ReadSchema):
    item_id: str = Field(description="Stable id (derived from names).")
    kind: SegmentKind = Field(description="Cord, panel port, trunk or breakout cable.")
    label: str = Field(description="Its label: a cable's two ends, a panel port's identifier.")
    part: str = Field(description="Catalog name: the cord, trunk or breakout cable, or the panel port's cassette.")
    a_end: str = Field(description="Device name or panel id at end A.")
    a_port: str = Field(description="Port at end A: a device port (`e5`), a panel front (`F07`) or rear (`R02`) port.")
    b_end: str = Field(description="Device name or panel id at end B.")
    b_port: str = Field(description="Port at end B.")
    length_m: Annotated[float, FromMillimetres("length_mm")] = Field(
        description="Routed length with slack; 0 for a panel port."
    )
    ordered_length_m: Annotated[float, FromMillimetres("ordered_mm")] = Field(
        description="The sold length bought (the routed length when made to order); 0 for a panel port."
    )
    made_to_order: bool = Field(description="No sold length is long enough: made to the routed length.")
    fibres: int = Field(description="Fibres (trunks and cords); 0 for a panel port.")
    route: str = Field(description="Trunks: the racks and trays it runs along.")


class PlantFindingRead(ReadSchema):
    kind: FindingKind = Field(description="Polarity, loss, reach, connector, ports, or a missing catalog fact.")
    severity: str = Field(description="`error` (will not work as drawn) or `warning`.")
    cable_id: str | None = Field(description="The logical link; null for a rack-wide finding.")
    item_id: str | None = Field(description="The segment to blame, when there is one.")
    message: str = Field(description="What is wrong, naming the link and segment.")


class PlantRead(BaseModel):
    settings: StructuredSettingsRead = Field(description="What the plant was built with.")
    counts: PlantCountsRead = Field(description="What the plant holds.")
    panels: list[PlantPanelRead] = Field(description="Every panel, in the order built.")
    trunks: list[PlantItemRead] = Field(description="Every trunk, in the order built.")
    findings: list[PlantFindingRead] = Field(
        description="The checks' findings: the first 50 of each kind (`findings_total` counts them all)."
    )
    findings_total: int = Field(description="Findings in all.")
    change: PlantDiffRead | None = Field(
        description="An upgrade's change to the plant from its base plan ('no trunk moves; 96 cords added'); "
        "null for a plan that upgrades none."
    )


class ChainStepRead(BaseModel):
    position: int = Field(description="0 at the link's A end (the ToR), counting towards the fabric switch.")
    detail: str = Field(description="What of the item the link uses (`fibres 1-2`, `leg 3`, `front F07 -> rear R01`).")
    item: PlantItemRead = Field(description="The item (shared with the other links through it).")


class LinkChainRead(BaseModel):
    cable_id: str = Field(description="The logical link (a cable of the plan's cable list).")
    optic_a: str | None = Field(description="The optic at the ToR port (structured catalog part).")
    optic_b: str | None = Field(description="The optic at the fabric switch port (a broken-out port's, shared).")
    steps: list[ChainStepRead] = Field(description="The chain in order, ToR first.")


class PanelPortRead(BaseModel):
    front_port: str = Field(description="`F<nn>`.", examples=["F07"])
    rear_port: str = Field(description="The rear port (`R<nn>`) it maps to (the cassette's fibre map).")
    port_item_id: str | None = Field(description="The panel port item, when a link uses the port.")
    cord_label: str | None = Field(description="Label of the cord plugged into the front port.")
    cord_part: str | None = Field(description="The cord's part.")
    far_end: str | None = Field(description="The cord's other end: `<device> <port>` or `<panel> <port>`.")
    cable_ids: list[str] = Field(description="Logical links through the port (a breakout's lanes share one).")


class PanelMapRead(BaseModel):
    panel: PlantPanelRead = Field(description="The panel.")
    ports: list[PanelPortRead] = Field(description="Every front port in order.")
