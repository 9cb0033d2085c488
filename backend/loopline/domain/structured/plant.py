"""A structured plan's passive plant (issue 29): what the planner chose, and what it builds.

The direct plan stays the truth of the network: its logical links (one per lane where a port breaks
out) are what the engine's scenario, diffs and the summary's link counts read. The plant adds, per
logical link that leaves its row (ToR uplinks), the chain of physical items it runs through: cords,
panel ports, trunks, breakout cables. Items are shared: a trunk carries many links, a breakout
cable or an MPO panel port several lanes, so the plant keeps each item once (`PlantItem`) and each
link's chain as steps naming items (`ChainStep`). A bill counts items, a wiring sheet prints steps.

These are the shapes the generator (`structured.layout`), storage, exports and the API agree on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from loopline.domain.structured.chain import SegmentKind


class Cabling(StrEnum):
    DIRECT = "direct"
    """Every link one point-to-point cable (the default, unchanged)."""
    STRUCTURED = "structured"
    """ToR uplinks through panels and trunks; server links stay direct (in-rack)."""


class PanelPlacement(StrEnum):
    RACK = "rack"
    """A panel at the top of every compute rack; a trunk from each rack to each network rack."""
    ROW_END = "row-end"
    """Cords run along the row to panels in the row's end rack; a trunk from each row end."""


@dataclass(frozen=True, slots=True)
class StructuredSettings:
    """The planner's choices for a structured plan (stored with the plan's spec)."""

    panel_at: PanelPlacement = PanelPlacement.ROW_END
    lc_pair_loss_db: float | None = None
    """Loss per mated LC pair; None: the catalog's stated default (`catalog.py`, with its source)."""
    mpo_pair_loss_db: float | None = None
    """Loss per mated MPO pair; None: the catalog's stated default."""


class PlantRole(StrEnum):
    """Where a panel stands in the plant."""

    RACK = "rack"
    ROW_END = "row-end"
    NETWORK = "network"


@dataclass(frozen=True, slots=True)
class PlantPanel:
    panel_id: str
    """TIA-606 style ``<rack>.U<nn>`` (the panel's lowest U), unique in the plan."""
    rack: str
    u: int
    model: str
    """`PatchPanel.name` in the structured catalog."""
    cassette: str | None
    """`Cassette.name` in every slot, None for an MPO adapter panel."""
    cassettes: int
    """Cassettes fitted (0 without)."""
    front_ports: int
    ports_used: int
    role: PlantRole


@dataclass(frozen=True, slots=True)
class PlantItem:
    """One physical thing a chain runs through. Cables (cords, trunks, breakout cables) have lengths;
    a panel port has none. Ends name a device (plan device name) or a panel (`panel_id`) and its port:
    a device port (``e5``), a panel's front port (``F07``) or rear port (``R02``)."""

    item_id: str
    """Unique in the plan; stable across regenerations of the same layout (derived from names)."""
    kind: SegmentKind
    label: str
    part: str
    """Catalog name of the cord, trunk, breakout cable, or the panel's cassette / adapter."""
    a_end: str
    a_port: str
    b_end: str
    b_port: str
    length_mm: int = 0
    """Routed length (slack included); 0 for a panel port."""
    ordered_mm: int = 0
    """The sold length bought (or `length_mm` when made to order); 0 for a panel port."""
    made_to_order: bool = False
    fibres: int = 0
    """Fibres in a trunk or cord; 0 for a panel port."""
    route: str = ""
    """Trunks: the racks and trays it runs along, for the pull list."""


@dataclass(frozen=True, slots=True)
class ChainStep:
    """Step `position` (0 at the link's A end, the ToR) of logical link `cable_id`'s chain."""

    cable_id: str
    position: int
    item_id: str
    detail: str
    """What of the item the link uses: ``fibres 1-2``, ``leg 3``, ``front F07 -> rear R01``."""


@dataclass(frozen=True, slots=True)
class PlantOptic:
    """A transceiver the plant fits in a device port: one per port a structured link leaves from, so
    a broken-out port's optic (e.g. 400G-DR4) is one, however many lanes' links share it, and each
    lane's far end has its own (the breakout's `into`, e.g. 100G-DR). The bill counts these."""

    device: str
    port: str
    """The physical port (``e5``, not a lane's ``e5/2``)."""
    part: str
    """`Optic.part` in the structured catalog (the builder's choice, per link speed and end)."""


class FindingKind(StrEnum):
    POLARITY = "polarity"
    LOSS = "loss"
    REACH = "reach"
    CONNECTOR = "connector"
    PORTS = "ports"
    FACT_MISSING = "fact_missing"
    """A check that lacks a catalog figure (a channel budget, an attenuation) and says which."""


@dataclass(frozen=True, slots=True)
class PlantFinding:
    kind: FindingKind
    severity: str
    """``error`` (the link will not work as drawn) or ``warning``."""
    cable_id: str | None
    """The logical link it concerns; None for a rack-wide finding (port exhaustion)."""
    item_id: str | None
    """The segment it names, when one is to blame."""
    message: str


@dataclass(slots=True)
class StructuredPlant:
    settings: StructuredSettings
    panels: list[PlantPanel] = field(default_factory=list)
    items: list[PlantItem] = field(default_factory=list)
    steps: list[ChainStep] = field(default_factory=list)
    findings: list[PlantFinding] = field(default_factory=list)
    optics: list[PlantOptic] = field(default_factory=list)
    """Every optic the structured links need, one per device port (ordered as the builder emits)."""
