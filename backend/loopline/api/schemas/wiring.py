"""Wiring plans: what the planner asks for, and the plan, cables and diffs they get back (metres)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from loopline.api.schemas.common import MAX_ID, ReadSchema, Schema
from loopline.domain.bom import Category, MediaClass
from loopline.domain.media import Medium, PriceSource
from loopline.domain.structured.catalog import Connector, builtin_catalog
from loopline.domain.structured.plant import Cabling, PanelPlacement, StructuredSettings
from loopline.domain.wiring import DiffStatus, GrinScope, LinkClass, Pattern
from loopline.domain.wiring.spec import MAX_PAIR_LOSS_DB
from loopline.services.wiring_spec import ParallelOptions, PlanOptions, RailOptions


class ParallelPortsIn(Schema):
    ports: int = Field(1, ge=1, le=8, description="New NIC ports per server on the parallel fabric.")
    gbps: float = Field(25.0, gt=0, le=1600, description="Speed of the new ports (Gb/s).", examples=[25.0])
    tor_server_ports: int = Field(48, ge=1, le=1024, description="Server-facing ports of each new ToR.")
    clusters: int = Field(1, ge=1, le=64, description="Clusters the new ToRs are spread over (Type 2).")
    pattern: Pattern | None = Field(
        None,
        description="Physical pattern of the new ToRs' loops; default: the plan's pattern.",
        examples=["paired-row"],
    )
    loop: int | None = Field(None, ge=2, le=4096, description="`l` of the new loops; default: the plan's `l`.")


_PAIR_LOSS = builtin_catalog().mated_pair_loss


class StructuredSettingsIn(Schema):
    panel_at: PanelPlacement = Field(
        PanelPlacement.ROW_END,
        description="Where ToR uplinks land on a panel: `rack` (a panel in every compute rack, a trunk from "
        "each) or `row-end` (cords along the row to panels in its end rack, a trunk from each row end).",
    )
    lc_pair_loss_db: float | None = Field(
        None,
        ge=0,
        le=MAX_PAIR_LOSS_DB,
        description="Loss per mated LC pair (dB) in the optical loss check; default: the catalog's "
        f"{_PAIR_LOSS[Connector.LC_DUPLEX].db:g} dB.",
        examples=[0.5],
    )
    mpo_pair_loss_db: float | None = Field(
        None,
        ge=0,
        le=MAX_PAIR_LOSS_DB,
        description="Loss per mated MPO pair (dB) in the optical loss check; default: the catalog's "
        f"{_PAIR_LOSS[Connector.MPO_12].db:g} dB.",
        examples=[0.75],
    )


class RailIn(Schema):
    """The compute fabric of a GPU cluster (patterns `rail-optimized`, `rail-only`)."""

    su_size: int = Field(
        ge=1,
        le=4096,
        description="Servers per scalable unit (SU), taken in hall order (rows, racks along the row, bottom to "
        "top). Each SU gets one rail leaf per compute NIC port; at most the leaf's server-facing ports.",
        examples=[32],
    )
    leaf_model_id: int = Field(
        ge=1,
        le=MAX_ID,
        description="Catalog switch model of the rail leaves (mounted in the network racks of the SU's rows).",
        examples=[7],
    )
    oversubscription: float | None = Field(
        None,
        gt=0,
        le=64,
        description="Rail-optimized: a leaf's server-facing Gb/s over its spine-facing Gb/s (1 = non-blocking); "
        "the uplinks per leaf follow and must come out whole. Null: 1. Rail-only has no spine and takes none.",
        examples=[1.0],
    )
    spine_planes: int = Field(
        1,
        ge=1,
        le=64,
        description="Rail-optimized: the layout's spines (in name order) split into this many equal planes; rail "
        "i's leaves go up to plane i mod `spine_planes` alone. 1: every leaf to every spine. With one plane per rail "
        "no cross-rail byte crosses a spine (the servers' GPU interconnect carries it to the right rail).",
        examples=[1],
    )


class WiringPlanCreate(Schema):
    name: str = Field(min_length=1, max_length=200, description="Plan name.", examples=["Subways paired rows p=2"])
    pattern: Pattern = Field(description="Wiring pattern (DESIGN §3).", examples=["paired-row"])
    ports: int | None = Field(
        None, ge=1, le=16, description="`p`: ports per server; default: each logical rack's cabled ports."
    )
    subways_type: Literal[1, 2] = Field(1, description="Subways Type 1 (one cluster) or 2 (ToRs over `c` clusters).")
    loop: int | None = Field(
        None, ge=2, le=4096, description="`l`: logical racks per loop; default: the whole row (or row pair)."
    )
    clusters: int = Field(1, ge=1, le=64, description="`c`: clusters a Type 2 loop is spread over.")
    grin_degree: int = Field(0, ge=0, le=16, description="`n`: GRIN links per server (pattern `grin`).")
    grin_scope: GrinScope = Field(GrinScope.RACK, description="GRIN links inside the rack or to the next rack.")
    geometry: Literal["default", "paper"] = Field("default", description="Geometry preset (DESIGN §3.3).")
    route_via: Literal["tray", "floor"] = Field(
        "tray", description="Between racks: overhead tray or under the raised floor (default geometry only)."
    )
    service_allowance_m: float | None = Field(
        None, ge=0, le=5, description="Per cable end; default 0.15 m (0 in the paper preset).", examples=[0.15]
    )
    slack_pct: float | None = Field(None, ge=0, le=100, description="Percentage slack; default 5 % (0 in paper).")
    fabric_optical: bool = Field(True, description="Fabric links use AOC or optics (they leave the row).")
    parallel: ParallelPortsIn | None = Field(
        None, description="Heterogeneous upgrade: new ports on a parallel set of ToRs; no existing cable moves."
    )
    upgrade_from_plan_id: int | None = Field(
        None,
        ge=1,
        le=MAX_ID,
        description="Store the plan as an upgrade of this plan (same hall): the diff is computed and kept.",
    )
    cabling: Cabling = Field(
        Cabling.DIRECT,
        description="`direct`: every link one cable. `structured`: ToR uplinks also run through patch panels, "
        "trunks and cords (server links stay direct); the logical links, and the simulated network, are the same.",
    )
    structured: StructuredSettingsIn | None = Field(
        None, description="Settings of the structured plant (structured cabling only); null: the defaults."
    )
    breakouts: bool = Field(
        False,
        description="A fabric switch port faster than the ToR uplinks it serves breaks out into lanes (a 400G "
        "port into 4 x 100G links) where its optic has a breakout into their speed. Needs structured cabling.",
    )
    rail: RailIn | None = Field(
        None, description="Patterns `rail-optimized` and `rail-only` (GPU clusters): SU size, leaf model, ratio."
    )
    fabric: Literal["compute", "front_end"] = Field(
        "compute",
        description="The network wired: `compute` (the servers' NICs; a GPU server's compute NICs, one per rail) or "
        "`front_end` (a GPU server's front-end NICs, storage and in-band management, ports `f<n>`) with the "
        "non-rail patterns to each logical rack's ToR; a plan of its own (cables, BOM). The front-end plan leaves "
        "the ToR uplinks out: the layout's fabric switches carry no network tag (see its warnings).",
    )

    def to_options(self) -> PlanOptions:
        values = self.model_dump(exclude={"parallel", "structured", "rail"})
        parallel = None if self.parallel is None else ParallelOptions(**self.parallel.model_dump())
        structured = None if self.structured is None else StructuredSettings(**self.structured.model_dump())
        rail = None if self.rail is None else RailOptions(**self.rail.model_dump())
        return PlanOptions(**values, parallel=parallel, structured=structured, rail=rail)


class PlanUpgradeCreate(Schema):
    """What changes from the base plan; everything not given is the base plan's."""

    name: str = Field(min_length=1, max_length=200, description="Name of the upgraded plan.", examples=["p=3"])
    ports: int | None = Field(
        None, ge=1, le=16, description="New `p` (e.g. the base plan's p + 1: Subways moves no cable)."
    )
    parallel: ParallelPortsIn | None = Field(
        None, description="Add a parallel set of ports at a new speed on new ToRs (Type 2 augmentation)."
    )
    loop: int | None = Field(None, ge=2, le=4096, description="New loop length `l`.")
    pattern: Pattern | None = Field(None, description="New wiring pattern.")
    subways_type: Literal[1, 2] | None = Field(None, description="New Subways type.")
    clusters: int | None = Field(None, ge=1, le=64, description="New `c` (Type 2).")
    grin_degree: int | None = Field(None, ge=1, le=16, description="New GRIN degree `n` (pattern grin; default 1).")

    def changes(self) -> dict[str, Any]:
        """The base spec's fields this upgrade replaces, in the stored spec's shape. A field sent as
        null is not given (the base plan's value stays), as the description says."""
        return self.model_dump(exclude={"name"}, exclude_unset=True, exclude_none=True, mode="json")


class ServerModelChoice(BaseModel):
    id: int = Field(description="Catalog server model id (for the logical racks' `server_model_id`).")
    name: str = Field(description="Model name.")
    nic_ports: int = Field(description="NIC ports.")
    port_gbps: float = Field(description="Port speed (Gb/s).")


class HardwareNeed(BaseModel):
    nic_ports: int = Field(description="NIC ports per server the wiring needs.")
    logical_racks: int = Field(description="Logical racks whose servers have fewer.")
    server_models: list[ServerModelChoice] = Field(
        description="Catalog models (usable in this project, at the hall's server port speed) with enough ports, "
        "fewest ports first: switching the logical racks' `server_model_id` to one makes the option buildable."
    )


class WiringOptionRead(BaseModel):
    kind: Literal["ports", "parallel", "loop", "pattern"] = Field(description="What changes.")
    label: str = Field(description="The option in words (`p=3`, `pattern grin`).", examples=["p=3"])
    change: dict[str, Any] = Field(
        description="The body to send (with a name): to `POST /wiring-plans/{id}/upgrades` for an upgrade, "
        "to `POST /halls/{id}/wiring-plans` for a new plan."
    )
    feasible: bool = Field(description="The hall as it is can build it (it was generated, not stored).")
    field: str | None = Field(description="When not: the field the generator names.")
    reason: str | None = Field(description="When not: why.")
    needs_hardware: HardwareNeed | None = Field(
        description="Buildable once the servers have more NIC ports (checked by generating it so); null otherwise."
    )


class WiringOptions(BaseModel):
    options: list[WiringOptionRead] = Field(description="Every option, buildable or not.")
    preselected: int | None = Field(description="Index of the option a form should preselect: the first buildable.")

    @classmethod
    def of(cls, options: list[Any]) -> WiringOptions:
        items = [
            WiringOptionRead(
                kind=o.kind, label=o.label, change=o.change, feasible=o.feasibility.feasible,
                field=o.feasibility.field, reason=o.feasibility.reason,
                needs_hardware=HardwareNeed(
                    nic_ports=max(x.needed for x in o.feasibility.shortfalls),
                    logical_racks=sum(x.logical_racks for x in o.feasibility.shortfalls),
                    server_models=[
                        ServerModelChoice(id=m.id, name=m.name, nic_ports=m.nic_ports, port_gbps=m.port_gbps)
                        for m in o.server_models
                    ],
                ) if o.feasibility.needs_hardware else None,
            )
            for o in options
        ]  # fmt: skip
        return cls(options=items, preselected=next((i for i, o in enumerate(items) if o.feasible), None))


class WiringPlanUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=200, description="New name.")


class PlantItemChangesRead(BaseModel):
    kept: int = Field(description="Items in both plans, unchanged (matched by their stable ID).")
    added: int = Field(description="New items.")
    removed: int = Field(description="Items gone.")
    moved: int = Field(description="Same item, other ends or route (a trunk re-run).")
    changed: int = Field(description="Same item and ends, another part or ordered length (re-sized).")


class PlantDiffRead(BaseModel):
    """An upgrade's change to the structured plant, segment by segment."""

    trunks: PlantItemChangesRead = Field(description="MPO trunks.")
    cords: PlantItemChangesRead = Field(description="Patch cords.")
    breakout_cables: PlantItemChangesRead = Field(description="Breakout cables.")
    panels: PlantItemChangesRead = Field(description="Patch panels (by panel id).")
    words: str = Field(description="The change in a sentence.", examples=["no trunk moves; 96 cords added"])


class DiffCounts(BaseModel):
    kept: int = Field(description="Cables in both plans (same two ports).")
    added: int = Field(description="New cables.")
    moved: int = Field(description="Old cables re-patched to another port (0 for a Subways upgrade).")
    removed: int = Field(description="Old cables gone.")
    changed: int = Field(description="Kept cables whose part or ordered length changed.")
    hardware_added: dict[str, int] = Field(description="New devices per role.")
    hardware_removed: dict[str, int] = Field(description="Devices gone per role.")


class ClassStatsRead(BaseModel):
    count: int = Field(description="Cables of this link class.")
    min_raw_length_m: float = Field(description="Shortest routed length (0 without cables).")
    mean_raw_length_m: float = Field(description="Mean routed length.")
    max_raw_length_m: float = Field(description="Longest routed length.")
    max_ordered_length_m: float = Field(description="Longest ordered length.")
    media: dict[str, int] = Field(description="Cables per medium.")


class RangeRead(BaseModel):
    min: float = Field(description="Smallest value.")
    max: float = Field(description="Largest value.")


class UnpricedPart(BaseModel):
    category: Category = Field(description="What kind of part.")
    part_number: str = Field(description="The part the price book has no price for.")


class PlanCostRead(BaseModel):
    """The plan priced with the project's price book as it is now (never a stored figure)."""

    currency: str = Field(description="ISO 4217 currency of every amount.", examples=["USD"])
    price_book_version: int | None = Field(
        description="The project price book version that priced it; null: the default book alone."
    )
    cables: float = Field(description="Cables (copper and optical, fibre included).")
    transceivers: float = Field(description="Optics: the transceivers at both ends of fibre links.")
    switches: float = Field(description="ToRs and fabric switches.")
    nics: float = Field(description="NICs added to servers whose model lacks the ports (parallel ports).")
    pdus: float = Field(description="Rack PDUs: one per rack feed of the hall that names a PDU model.")
    copper: float = Field(description="Copper cables.")
    optical: float = Field(description="AOCs, fibre and transceivers.")
    total: float = Field(description="Sum of the priced parts; with `complete: false` some are missing.")
    complete: bool = Field(description="Every part is priced: `total` is the whole cost.")
    unpriced: list[UnpricedPart] = Field(description="Parts with no price (also in `warnings`).")


class FacilityChangeRead(BaseModel):
    """One plan against another of the same hall: what it asks more (negative: less) of the plant."""

    typical_w: float = Field(description="IT power, typical draw: this plan's minus the other's, W.")
    max_w: float = Field(description="IT power at maximum draw (what feeds and cooling must take), W.")
    heat_w: float = Field(description="Heat (every watt drawn), W.")
    weight_kg: float = Field(description="Weight on the floor (devices, PDUs, cables in racks, racks), kg.")
    fullest_tray: str | None = Field(
        description="This plan's fullest tray segment (e.g. `T3-12`); null: no cable in a tray."
    )
    fullest_tray_pct: float = Field(description="Its fill, % of the tray's usable cross-section.")
    was_fullest_tray: str | None = Field(description="The other plan's fullest tray segment.")
    was_fullest_tray_pct: float = Field(description="Its fill, %.")
    incomplete: list[str] = Field(
        description="The totals either plan leaves something out of for a missing catalog fact (`typical_w`, "
        "`max_w`, `heat_w`, `weight_kg`, `fullest_tray`): their differences above are not known (a tray's fill "
        "is at least what it says), and `words` does not state them as known (e.g. 'typical not known for "
        "every device').",
        examples=[["typical_w"]],
    )
    words: str = Field(
        description="The difference in a sentence that reads after its subject ('This upgrade ...').",
        examples=["adds 38 kW at most (24 kW typical) and 120 kg, and fills tray T3-12 to 47 % (was 31 %)"],
    )


class PlanFacilityRead(BaseModel):
    """What the plan asks of its hall's plant, from the facility checks with the plan's cables, as the
    hall's facility is now (never a stored figure)."""

    typical_w: float = Field(description="Total IT power, typical draw (devices and optics), W.")
    max_w: float = Field(description="Total IT power at maximum draw, W.")
    heat_w: float = Field(description="Heat: every watt drawn at most, W.")
    weight_kg: float = Field(description="Weight on the floor: devices, PDUs, cables in racks and the racks, kg.")
    fullest_tray: str | None = Field(description="The fullest tray segment (e.g. `T3-12`); null: no cable in a tray.")
    fullest_tray_pct: float = Field(description="Its fill, % of the tray's usable cross-section.")
    incomplete: list[str] = Field(
        description="The totals above that leave something out because a catalog entry lacks a fact "
        "(`typical_w`, `max_w`, `heat_w`, `weight_kg`, `fullest_tray`): each is at least what it says; "
        "the report's `fact_missing` warnings name the entries.",
        examples=[["typical_w"]],
    )
    change: FacilityChangeRead | None = Field(description="An upgrade against its base plan; null for other plans.")


class PlanSummaryRead(BaseModel):
    """The figures a planner compares plans by; lengths in metres."""

    cables: int = Field(description="Cables in all.")
    servers: int = Field(description="Servers wired.")
    tors: int = Field(description="ToR switches (parallel ToRs included).")
    switches: dict[str, int] = Field(description="Fabric switches per role (agg, spine, core).")
    loops: int = Field(description="Subways loops.")
    max_raw_length_m: float = Field(description="Longest routed cable.")
    total_raw_length_m: float = Field(description="Sum of routed lengths.")
    total_ordered_length_m: float = Field(description="Sum of ordered lengths.")
    by_class: dict[str, ClassStatsRead] = Field(
        description="Per link class (server_tor, server_server, tor_fabric, agg_core): count, min/mean/max length."
    )
    media: dict[str, int] = Field(description="Cables per medium.")
    parts: dict[str, int] = Field(description="Cables per part number.")
    transceivers: dict[str, int] = Field(description="Transceivers per part number (two per fibre link).")
    transceiver_count: int = Field(description="Optics count: transceivers in all.")
    copper_cables: int = Field(description="Copper cables (DAC, ACC, AEC).")
    optical_cables: int = Field(description="Optical cables (AOC, fibre).")
    nics: int = Field(description="NICs to add to servers (ports at a speed their model lacks).")
    copper_share: float = Field(description="Copper cables / cables (0..1).")
    tor_oversubscription: RangeRead | None = Field(
        description="Min and max over ToRs of server-facing / uplink bandwidth; null without uplinks."
    )
    cost: PlanCostRead = Field(description="Cost subtotals priced now with the project's price book.")
    facility: PlanFacilityRead = Field(description="IT power, heat, weight and the fullest tray, reckoned now.")
    warnings: list[str] = Field(description="Generator notes and unpriced parts.")


class BomLineRead(BaseModel):
    category: Category = Field(description="What kind of part.")
    part_number: str = Field(description="Part number (switches: the model name).")
    description: str = Field(description="What it is (cables: with their length).")
    length_m: float | None = Field(description="Ordered length of a cable line.")
    media_class: MediaClass | None = Field(description="Copper or optical (cables, transceivers); null otherwise.")
    quantity: int = Field(description="How many.")
    unit_price: float | None = Field(description="Unit price (cables: base + per metre x length); null: unpriced.")
    total: float | None = Field(description="quantity x unit price; null: unpriced.")
    price_source: PriceSource | None = Field(
        description="`default` (the default book) or `project` (the project's book); null: unpriced."
    )


class BomSubtotals(BaseModel):
    cable: float = Field(description="Cables.")
    transceiver: float = Field(description="Transceivers.")
    switch: float = Field(description="Switches.")
    nic: float = Field(description="NICs.")
    pdu: float = Field(description="Rack PDUs (one per rack feed naming a PDU model).")


class MediaSubtotals(BaseModel):
    copper: float = Field(description="Copper cables.")
    optical: float = Field(description="AOCs, fibre and transceivers.")


class BomRead(BaseModel):
    lines: list[BomLineRead] = Field(
        description="Cables per part and ordered length, then transceivers, switches, NICs, rack PDUs; unpriced "
        "lines included."
    )
    currency: str = Field(description="ISO 4217 currency of every price.", examples=["USD"])
    price_book_version: int | None = Field(
        description="The project price book version that priced it; null: the default book alone."
    )
    subtotals: BomSubtotals = Field(description="Priced lines per category.")
    media_subtotals: MediaSubtotals = Field(description="Copper vs optical (transceivers are optical).")
    total: float = Field(description="Sum of the priced lines.")
    complete: bool = Field(description="Every line is priced; false: `unpriced` lists what the total lacks.")
    unpriced: list[UnpricedPart] = Field(description="Lines with no price.")
    warnings: list[str] = Field(description="One sentence per unpriced part.")


class UpgradeBomRead(BaseModel):
    buy: BomRead = Field(
        description="What to buy: added cables (and the new end of moved ones) with their transceivers, "
        "new switches, NICs."
    )
    freed: BomRead = Field(description="What the change frees: removed cables and their parts, switches gone.")
    net_total: float = Field(description="buy.total - freed.total (priced lines only).")


class PlanDiffRead(BaseModel):
    old_plan_id: int = Field(description="The plan diffed against.")
    new_plan_id: int = Field(description="The plan diffed.")
    counts: DiffCounts = Field(description="How many cables are kept, added, moved, removed; devices per role.")
    added: list[str] = Field(description="IDs of every added cable (the new plan's).")
    moved: list[tuple[str, str]] = Field(description="(old ID, new ID) of every moved cable.")
    removed: list[str] = Field(description="IDs of every removed cable (the old plan's).")
    hardware_added: dict[str, list[str]] = Field(description="Names of new devices per role.")
    hardware_removed: dict[str, list[str]] = Field(description="Names of devices gone, per role.")
    bom: UpgradeBomRead = Field(description="The bill of materials of the change alone, priced.")
    facility: FacilityChangeRead = Field(
        description="What the new plan asks more of the hall's plant, in numbers and words."
    )
    plant: PlantDiffRead | None = Field(
        None, description="The structured plant's change, when either plan is structured; null between direct plans."
    )


class WiringPlanRead(ReadSchema):
    id: int = Field(description="Plan id.")
    project_id: int = Field(description="Project id.")
    hall_id: int = Field(description="The hall the plan wires.")
    name: str = Field(description="Plan name.")
    spec: dict[str, Any] = Field(description="The request the plan was generated from.")
    base_plan_id: int | None = Field(description="The plan this one upgrades.")
    summary: PlanSummaryRead = Field(description="The figures to compare plans by, priced now.")
    diff: DiffCounts | None = Field(description="Diff counts against `base_plan_id`.")
    loops: list[Any] = Field(description="Loops: id, Subways type and logical rack names in loop order.")
    created_at: datetime = Field(description="When it was generated.")
    version: int = Field(description="Version, for If-Match.")


class CableEnd(BaseModel):
    device: str = Field(description="Device name (`<hall>.<row>.<rack>.U<nn>`).", examples=["H1.R01.K03.U22"])
    port: str = Field(
        description="Port: `p<n>` on a server NIC, `e<n>` on a switch, `e<n>/<lane>` for a lane of a fabric switch "
        "port broken out into several links (`breakouts`).",
        examples=["p1"],
    )
    row: str = Field(description="Row name.")
    rack: str = Field(description="Rack name (`<hall>.<row>.<rack>`).")


class CableRead(BaseModel):
    cable_id: str = Field(description="Stable ID from the two ports (same across regenerations and upgrades).")
    label: str = Field(description="TIA-606 style label printed at both ends.")
    link_class: LinkClass = Field(description="server_tor, server_server, tor_fabric or agg_core.")
    a: CableEnd = Field(description="The A end.")
    b: CableEnd = Field(description="The B end.")
    gbps: float = Field(description="Link speed (Gb/s).")
    medium: Medium = Field(description="Chosen medium.")
    part_number: str = Field(description="Chosen part.")
    transceiver: str | None = Field(description="Transceiver part per end, when the medium needs one.")
    raw_length_m: float = Field(description="Routed length.")
    length_with_slack_m: float = Field(description="Routed + service allowance per end + slack.")
    ordered_length_m: float = Field(description="Rounded up to the part's next sold length.")
    unit_price: float = Field(
        description="What media selection paid for the cable and its transceivers (default book); "
        "the BOM prices with the project's book."
    )
    route: list[tuple[float, float, float]] | None = Field(
        None, description="Route polyline (x, y, z in metres), with `include_route=true`."
    )


class RenderBuffers(BaseModel):
    """Every cable of a plan as flat arrays, for drawing 100,000 cables in a few buffers."""

    media: list[str] = Field(description="Medium names; `medium` holds indexes into this list.")
    cable_ids: list[str] = Field(description="Cable IDs in buffer order.")
    labels: list[str] = Field(description="Labels in buffer order.")
    medium: list[int] = Field(description="Medium index per cable.")
    raw_length_mm: list[int] = Field(description="Routed length per cable (mm).")
    offsets: list[int] = Field(description="Start of each cable's points in `points` (in points, not numbers).")
    points: list[int] = Field(description="Route points, flat x, y, z in millimetres.")


class DiffCableRead(BaseModel):
    status: DiffStatus = Field(description="kept, added, moved (re-patched) or removed.")
    changed: bool = Field(description="A kept cable whose part or ordered length changed.")
    cable: CableRead = Field(description="The cable (the new plan's; a removed one: the old plan's).")
    moved_from: CableRead | None = Field(description="For a moved cable: the old cable it replaces.")
