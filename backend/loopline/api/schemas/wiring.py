"""Wiring plans: what the planner asks for, and the plan, cables and diffs they get back (metres)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from loopline.api.schemas.common import MAX_ID, ReadSchema, Schema
from loopline.domain.media import Medium
from loopline.domain.wiring import GrinScope, LinkClass, Pattern
from loopline.services.wiring import ParallelOptions, PlanOptions


class ParallelPortsIn(Schema):
    ports: int = Field(1, ge=1, le=8, description="New NIC ports per server on the parallel fabric.")
    gbps: float = Field(25.0, gt=0, le=1600, description="Speed of the new ports (Gb/s).", examples=[25.0])
    tor_server_ports: int = Field(48, ge=1, le=1024, description="Server-facing ports of each new ToR.")
    clusters: int = Field(1, ge=1, le=64, description="Clusters the new ToRs are spread over (Type 2).")


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

    def to_options(self) -> PlanOptions:
        values = self.model_dump(exclude={"parallel"})
        parallel = None if self.parallel is None else ParallelOptions(**self.parallel.model_dump())
        return PlanOptions(**values, parallel=parallel)


class WiringPlanUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=200, description="New name.")


class DiffCounts(BaseModel):
    kept: int = Field(description="Cables in both plans (same two ports).")
    added: int = Field(description="New cables.")
    moved: int = Field(description="Old cables re-patched to another port (0 for a Subways upgrade).")
    removed: int = Field(description="Old cables gone.")
    changed: int = Field(description="Kept cables whose part or ordered length changed.")
    hardware_added: dict[str, int] = Field(description="New devices per role.")
    hardware_removed: dict[str, int] = Field(description="Devices gone per role.")


class PlanDiffRead(BaseModel):
    old_plan_id: int = Field(description="The plan diffed against.")
    new_plan_id: int = Field(description="The plan diffed.")
    counts: DiffCounts
    added: list[str] = Field(description="IDs of added cables (first 1,000).")
    moved: list[tuple[str, str]] = Field(description="(old ID, new ID) of moved cables (first 1,000).")
    removed: list[str] = Field(description="IDs of removed cables (first 1,000).")
    hardware_added: dict[str, list[str]] = Field(description="Names of new devices per role (first 1,000 each).")


class WiringPlanRead(ReadSchema):
    id: int = Field(description="Plan id.")
    project_id: int = Field(description="Project id.")
    hall_id: int = Field(description="The hall the plan wires.")
    name: str = Field(description="Plan name.")
    spec: dict[str, Any] = Field(description="The request the plan was generated from.")
    base_plan_id: int | None = Field(description="The plan this one upgrades.")
    summary: dict[str, Any] = Field(
        description="Counts per class and medium, min/mean/max length per class (m), copper share, warnings."
    )
    diff: dict[str, Any] | None = Field(description="Diff counts against `base_plan_id`.")
    loops: list[Any] = Field(description="Loops: id, Subways type and logical rack names in loop order.")
    created_at: datetime = Field(description="When it was generated.")
    version: int = Field(description="Version, for If-Match.")


class CableEnd(BaseModel):
    device: str = Field(description="Device name (`<hall>.<row>.<rack>.U<nn>`).", examples=["H1.R01.K03.U22"])
    port: str = Field(description="Port: `p<n>` on a server NIC, `e<n>` on a switch.", examples=["p1"])
    row: str = Field(description="Row name.")
    rack: str = Field(description="Rack name (`<hall>.<row>.<rack>`).")


class CableRead(BaseModel):
    cable_id: str = Field(description="Stable ID from the two ports (same across regenerations and upgrades).")
    label: str = Field(description="TIA-606 style label printed at both ends.")
    link_class: LinkClass = Field(description="server_tor, server_server, tor_fabric or agg_core.")
    a: CableEnd
    b: CableEnd
    gbps: float = Field(description="Link speed (Gb/s).")
    medium: Medium = Field(description="Chosen medium.")
    part_number: str = Field(description="Chosen part.")
    transceiver: str | None = Field(description="Transceiver part per end, when the medium needs one.")
    raw_length_m: float = Field(description="Routed length.")
    length_with_slack_m: float = Field(description="Routed + service allowance per end + slack.")
    ordered_length_m: float = Field(description="Rounded up to the part's next sold length.")
    unit_price: float = Field(description="Price of the cable (and its transceivers).")
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


class BomLineRead(BaseModel):
    category: Literal["cable", "transceiver", "switch"] = Field(description="What kind of part.")
    part_number: str = Field(description="Part number (switches: the model name).")
    description: str = Field(description="What it is (cables: with their length).")
    length_m: float | None = Field(description="Ordered length of a cable line.")
    quantity: int = Field(description="How many.")
    unit_price: float | None = Field(description="Unit price; null when the price book has none.")
    total: float | None = Field(description="quantity x unit price.")
    price_source: Literal["default", "project"] | None = Field(description="Where the price came from.")


class BomRead(BaseModel):
    lines: list[BomLineRead] = Field(description="One line per part number (and length, for cables).")
    total: float = Field(description="Sum of the priced lines.")
    warnings: list[str] = Field(description="Unpriced parts and other notes.")
