"""Halls, rows, racks and their contents, and the whole-hall layout document."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from loopline.api.schemas.catalog import RackTypeRead, ServerModelRead, SwitchModelRead
from loopline.api.schemas.common import MAX_ID, FromMillimetres, ReadSchema, Schema
from loopline.api.schemas.facility import (
    HallFacilityRead,
    HallFacilityUpdate,
    RackFacilityRead,
    RackFacilityUpdate,
    RowFacilityRead,
    RowFacilityUpdate,
)
from loopline.api.schemas.projects import LayerLoadRead
from loopline.domain import rack_planning as rp
from loopline.domain.gpu_hall import GpuClusterSpec
from loopline.domain.layout import Face, Point, RackRole, Side, TorPosition
from loopline.domain.layout_rules import DEFAULT_MIN_COLD_AISLE_MM, DEFAULT_MIN_HOT_AISLE_MM
from loopline.domain.units import m, mm
from loopline.services import facility

Direction = Literal[0, 90, 180, 270]
MAX_FLOOR_M = 1000.0


class FabricRole(enum.StrEnum):
    AGG = "agg"
    SPINE = "spine"
    CORE = "core"


# ---------------------------------------------------------------- hall


class GpuClusterCreate(Schema):
    """A GPU cluster laid out with its hall (issue 31): a row per scalable unit (its GPU racks and a
    network rack for its rail leaves) and a row of spine racks."""

    scalable_units: int = Field(ge=1, le=500, description="Scalable units (SUs), a row each.", examples=[4])
    servers_per_su: int = Field(
        ge=1, le=512, description="GPU servers per SU (at most the rail leaf's server ports).", examples=[32]
    )
    server_model_id: int = Field(ge=1, le=MAX_ID, description="A GPU server model (gpus > 0).", examples=[6])
    servers_per_rack: int = Field(ge=1, le=64, description="GPU servers per GPU rack.", examples=[4])
    rail_leaf_model_id: int = Field(
        ge=1, le=MAX_ID, description="The switch model of the rail leaves (placed by the rail wiring).", examples=[7]
    )
    spine_model_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="The spine switch model; none for a rail-only hall.", examples=[8]
    )
    spines: int = Field(0, ge=0, le=4096, description="Spines (with `spine_model_id`).", examples=[16])
    frontend_tor_model_id: int | None = Field(
        None,
        ge=1,
        le=MAX_ID,
        description="The GPU racks' own ToR, which the front-end fabric cables the servers' front-end NICs to "
        "(default: the rail leaf model).",
    )
    frontend_spine_model_id: int | None = Field(
        None,
        ge=1,
        le=MAX_ID,
        description="The front-end fabric's spine model (network `front_end`, in the spine row after the compute "
        "spines); none: a front-end plan wires servers to ToRs only.",
    )
    frontend_spines: int = Field(0, ge=0, le=4096, description="Front-end spines (with `frontend_spine_model_id`).")

    @model_validator(mode="after")
    def _bounded(self) -> GpuClusterCreate:
        racks = self.scalable_units * (-(-self.servers_per_su // self.servers_per_rack) + 1)
        if racks > MAX_RACKS_PER_REQUEST:
            raise ValueError(
                f"the cluster needs {racks:,} racks; one request creates at most {MAX_RACKS_PER_REQUEST:,}"
            )
        return self

    def to_domain(self) -> GpuClusterSpec:
        return GpuClusterSpec(**self.model_dump())


class HallCreate(Schema):
    name: str = Field(min_length=1, max_length=100, description="Hall name, unique in the project.", examples=["H1"])
    site: str = Field(
        "S1", min_length=1, max_length=100, description="Site code used in cable labels.", examples=["S1"]
    )
    width_m: float = Field(gt=0, le=MAX_FLOOR_M, description="Floor width (x), metres.", examples=[30])
    depth_m: float = Field(gt=0, le=MAX_FLOOR_M, description="Floor depth (y), metres.", examples=[20])
    raised_floor: bool = Field(False, description="Whether the hall has a raised floor.")
    raised_floor_height_m: float = Field(
        0, ge=0, le=3, description="Height of the raised-floor void, metres (0 without a raised floor).", examples=[0.6]
    )
    tray_height_m: float = Field(
        0.3, ge=0, le=5, description="Height of the overhead cable tray above the rack tops, metres.", examples=[0.3]
    )
    tile_m: float = Field(0.6, ge=0.3, le=1.5, description="Floor tile size, metres.", examples=[0.6])
    min_cold_aisle_m: float = Field(
        m(DEFAULT_MIN_COLD_AISLE_MM), ge=0, le=10, description="Narrower cold aisles are reported as warnings."
    )
    min_hot_aisle_m: float = Field(
        m(DEFAULT_MIN_HOT_AISLE_MM), ge=0, le=10, description="Narrower hot aisles are reported as warnings."
    )
    facility: HallFacilityUpdate | None = Field(
        None, description="Facility settings (power, cooling, floor, trays); those left out are the defaults."
    )
    gpu_cluster: GpuClusterCreate | None = Field(
        None, description="A GPU cluster whose rows and racks are created with the hall, in one transaction."
    )

    @model_validator(mode="after")
    def _raised_floor_height(self) -> HallCreate:
        _check_raised_floor(self.raised_floor, self.raised_floor_height_m)
        return self

    def columns(self) -> dict[str, Any]:
        """The hall's stored values (millimetres, facility settings as columns)."""
        return {
            **hall_columns(self.model_dump(exclude={"facility", "gpu_cluster"})),
            **(self.facility.columns() if self.facility else {}),
        }


def hall_columns(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key == "raised_floor_height_m":
            out["raised_floor_mm"] = mm(value)
        elif key.endswith("_m"):
            out[key[:-2] + "_mm"] = mm(value)
        else:
            out[key] = value
    return out


def _check_raised_floor(raised: bool | None, height: float | None) -> None:
    if raised and height is not None and height <= 0:
        raise ValueError("raised_floor_height_m must be > 0 when raised_floor is true")
    if raised is False and height:
        raise ValueError("raised_floor_height_m must be 0 when raised_floor is false")


class HallUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=100, description="Hall name.")
    site: str | None = Field(None, min_length=1, max_length=100, description="Site code used in cable labels.")
    width_m: float | None = Field(None, gt=0, le=MAX_FLOOR_M, description="Floor width (x), metres.")
    depth_m: float | None = Field(None, gt=0, le=MAX_FLOOR_M, description="Floor depth (y), metres.")
    raised_floor: bool | None = Field(None, description="Whether the hall has a raised floor.")
    raised_floor_height_m: float | None = Field(None, ge=0, le=3, description="Raised-floor void height, metres.")
    tray_height_m: float | None = Field(None, ge=0, le=5, description="Tray height above the racks, metres.")
    tile_m: float | None = Field(None, ge=0.3, le=1.5, description="Floor tile size, metres.")
    min_cold_aisle_m: float | None = Field(None, ge=0, le=10, description="Minimum cold aisle width, metres.")
    min_hot_aisle_m: float | None = Field(None, ge=0, le=10, description="Minimum hot aisle width, metres.")
    facility: HallFacilityUpdate | None = Field(
        None, description="Facility settings to change: a setting sent as null goes back to its default."
    )

    def changes(self) -> dict[str, Any]:
        """The values sent and not null, as stored (millimetres); facility settings sent, null included."""
        sent = {k: v for k, v in self.model_dump(exclude_unset=True, exclude={"facility"}).items() if v is not None}
        return {**hall_columns(sent), **(self.facility.columns() if self.facility else {})}


class HallRead(ReadSchema):
    id: int = Field(description="Hall id.", examples=[1])
    project_id: int = Field(description="Project id.", examples=[1])
    name: str = Field(description="Hall name.", examples=["H1"])
    site: str = Field(description="Site code used in cable labels.", examples=["S1"])
    width_m: Annotated[float, FromMillimetres("width_mm")] = Field(
        description="Floor width (x), metres.", examples=[30]
    )
    depth_m: Annotated[float, FromMillimetres("depth_mm")] = Field(
        description="Floor depth (y), metres.", examples=[20]
    )
    raised_floor: bool = Field(description="Whether the hall has a raised floor.")
    raised_floor_height_m: Annotated[float, FromMillimetres("raised_floor_mm")] = Field(
        description="Raised-floor void height, metres.", examples=[0.6]
    )
    tray_height_m: Annotated[float, FromMillimetres("tray_height_mm")] = Field(
        description="Tray height above the racks, metres.", examples=[0.3]
    )
    tile_m: Annotated[float, FromMillimetres("tile_mm")] = Field(description="Floor tile size, metres.", examples=[0.6])
    min_cold_aisle_m: Annotated[float, FromMillimetres("min_cold_aisle_mm")] = Field(
        description="Minimum cold aisle width, metres.", examples=[1.2]
    )
    min_hot_aisle_m: Annotated[float, FromMillimetres("min_hot_aisle_mm")] = Field(
        description="Minimum hot aisle width, metres.", examples=[0.9]
    )
    facility: HallFacilityRead = Field(description="Facility settings in effect, and which are defaults.")
    kind: Literal["gpu", "general"] = Field(
        description="`gpu`: the hall holds GPU servers (a catalog server model with GPUs); `general` otherwise."
    )
    version: int = Field(description="Version for `If-Match`.", examples=[1])

    @model_validator(mode="before")
    @classmethod
    def _with_facility(cls, data: Any) -> Any:
        # A stored hall holds its settings as columns (NULL: default): read them in effect.
        if isinstance(data, dict) or hasattr(data, "facility"):
            return data
        return _WithFacility(data, facility.hall_settings(data))


class _WithFacility:
    """A stored hall with its facility settings in effect as `facility`."""

    def __init__(self, hall: Any, settings: facility.HallSettings) -> None:
        self._hall = hall
        self.facility = settings

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hall, name)


# ---------------------------------------------------------------- rack contents


class LogicalRackSpec(Schema):
    servers: int = Field(ge=0, le=200, description="`r`: servers in this logical rack.", examples=[15])
    server_model_id: int = Field(
        ge=1, le=MAX_ID, description="Catalog server model (its NIC ports and speed).", examples=[1]
    )
    ports_used: int = Field(1, ge=1, le=64, description="`p`: NIC ports cabled per server (<= the model's NIC ports).")
    tor_model_id: int = Field(
        ge=1, le=MAX_ID, description="Catalog switch model of this logical rack's ToR.", examples=[2]
    )
    tor_position: TorPosition = Field(TorPosition.TOP, description="Where the ToR sits: top, middle or bottom.")
    base_u: int | None = Field(
        None,
        ge=1,
        le=100,
        description="Lowest U of this logical rack; when omitted, stacked right above the previous one (from U1).",
    )

    def to_domain(self) -> rp.LogicalRackSpec:
        return rp.LogicalRackSpec(
            servers=self.servers,
            server_model_id=self.server_model_id,
            tor_model_id=self.tor_model_id,
            ports_used=self.ports_used,
            tor_position=self.tor_position,
            base_u=self.base_u,
        )


class LogicalRackRead(ReadSchema):
    ordinal: int = Field(description="0 for the lowest logical rack in the physical rack.")
    servers: int = Field(description="`r`: servers.", examples=[15])
    server_model_id: int = Field(ge=1, le=MAX_ID, description="Catalog server model.")
    ports_used: int = Field(description="`p`: NIC ports cabled per server.", examples=[2])
    tor_model_id: int = Field(ge=1, le=MAX_ID, description="Catalog switch model of the ToR.")
    tor_position: TorPosition = Field(description="top, middle or bottom.")
    base_u: int = Field(description="Lowest U.", examples=[1])
    top_u: int = Field(description="Highest U.", examples=[16])
    tor_u: int = Field(description="Lowest U of the ToR.", examples=[16])


class FabricSwitchSpec(Schema):
    name: str = Field(min_length=1, max_length=100, description="Switch name, unique in the hall.", examples=["SP1"])
    role: FabricRole = Field(description="`agg`, `spine` or `core`.")
    switch_model_id: int = Field(ge=1, le=MAX_ID, description="Catalog switch model.", examples=[3])
    u: int = Field(ge=1, le=100, description="Lowest U the switch occupies.", examples=[20])
    cluster: int | None = Field(None, ge=0, le=10000, description="Cluster an aggregation switch serves.")
    network: Literal["compute", "front_end"] = Field(
        "compute",
        description="The network it switches: `compute`, or a GPU cluster's `front_end` (the spines a front-end "
        "wiring plan takes; a compute plan leaves them out).",
    )

    def to_domain(self) -> rp.FabricSwitchSpec:
        return rp.FabricSwitchSpec(self.name, self.role.value, self.switch_model_id, self.u, self.cluster, self.network)


class FabricSwitchRead(ReadSchema):
    name: str = Field(description="Switch name.")
    role: FabricRole = Field(description="`agg`, `spine` or `core`.")
    switch_model_id: int = Field(ge=1, le=MAX_ID, description="Catalog switch model.")
    u: int = Field(description="Lowest U.")
    cluster: int | None = Field(description="Cluster an aggregation switch serves.")
    network: Literal["compute", "front_end"] = Field(description="The network it switches.")


# ---------------------------------------------------------------- rack


class RackSpec(Schema):
    name: str | None = Field(
        None,
        min_length=1,
        max_length=100,
        description="Rack name, unique in the hall; when omitted, from the row's `rack_name_pattern`.",
        examples=["R01-01"],
    )
    rack_type_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="Catalog rack type; the default 42U 600x1200 when omitted."
    )
    position_m: float | None = Field(
        None,
        ge=0,
        le=MAX_FLOOR_M,
        description="Offset of the rack's start edge along the row, metres; when omitted, right after the last rack.",
    )
    role: RackRole = Field(RackRole.COMPUTE, description="`compute` (servers) or `network` (fabric switches).")
    port_face: Face = Field(Face.FRONT, description="Face the server and ToR ports are on.")
    logical_racks: list[LogicalRackSpec] = Field(
        default_factory=list, max_length=16, description="`b` logical racks, bottom up."
    )
    fabric_switches: list[FabricSwitchSpec] = Field(
        default_factory=list, max_length=64, description="Aggregation/spine/core switches (network racks)."
    )
    facility: RackFacilityUpdate | None = Field(
        None,
        description="Feeds, power budget, cooling and static load, as a rack's PATCH takes them (in a "
        "`rack_template`: every rack of the row); a setting not sent or null is the default.",
    )

    def to_domain(self) -> rp.RackSpec:
        return rp.RackSpec(
            name=self.name,
            rack_type_id=self.rack_type_id,
            position_mm=None if self.position_m is None else mm(self.position_m),
            role=self.role,
            port_face=self.port_face,
            logical_racks=tuple(lr.to_domain() for lr in self.logical_racks),
            fabric_switches=tuple(sw.to_domain() for sw in self.fabric_switches),
            facility=None if self.facility is None else self.facility.to_domain(),
        )


class RackCreate(RackSpec):
    pass


class RackUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=100, description="Rack name, unique in the hall.")
    row_id: int | None = Field(None, ge=1, le=MAX_ID, description="Move the rack to another row of the same hall.")
    rack_type_id: int | None = Field(None, ge=1, le=MAX_ID, description="Catalog rack type.")
    position_m: float | None = Field(None, ge=0, le=MAX_FLOOR_M, description="Offset along the row, metres.")
    role: RackRole | None = Field(None, description="`compute` or `network`.")
    port_face: Face | None = Field(None, description="Face the ports are on.")
    logical_racks: list[LogicalRackSpec] | None = Field(None, max_length=16, description="Replaces the logical racks.")
    fabric_switches: list[FabricSwitchSpec] | None = Field(None, max_length=64, description="Replaces the switches.")
    facility: RackFacilityUpdate | None = Field(
        None, description="Facility settings to change (feeds, budget, cooling, load): null goes back to the default."
    )

    def changes(self) -> dict[str, Any]:
        """The values sent and not null, as stored (millimetres, contents as domain specs); facility
        settings sent, null included (`facility.RACK_SETTINGS`, `feeds`)."""
        out: dict[str, Any] = {} if self.facility is None else self.facility.changes()
        for key, value in self.model_dump(exclude_unset=True, exclude={"facility"}).items():
            if value is None:
                continue
            if key == "position_m":
                out["position_mm"] = mm(value)
            elif key == "logical_racks":
                out[key] = tuple(lr.to_domain() for lr in self.logical_racks or ())
            elif key == "fabric_switches":
                out[key] = tuple(sw.to_domain() for sw in self.fabric_switches or ())
            else:
                out[key] = value
        return out


class RackRead(ReadSchema):
    id: int = Field(description="Rack id.")
    row_id: int = Field(description="Row id.")
    hall_id: int = Field(description="Hall id.")
    name: str = Field(description="Rack name.", examples=["R01-01"])
    rack_type_id: int = Field(description="Catalog rack type.")
    position_m: Annotated[float, FromMillimetres("position_mm")] = Field(
        description="Offset along the row, metres.", examples=[0.6]
    )
    role: RackRole = Field(description="`compute` or `network`.")
    port_face: Face = Field(description="Face the ports are on.")
    version: int = Field(description="Version for `If-Match`; covers the contents.", examples=[1])
    logical_racks: list[LogicalRackRead] = Field(description="Logical racks, bottom up.")
    fabric_switches: list[FabricSwitchRead] = Field(description="Fabric switches, bottom up.")
    facility: RackFacilityRead = Field(
        description="Feeds, budget, cooling and load limit in effect; which are defaults."
    )


# ---------------------------------------------------------------- row


class RowCreate(Schema):
    name: str = Field(min_length=1, max_length=100, description="Row name, unique in the hall.", examples=["R01"])
    x_m: float = Field(ge=0, le=MAX_FLOOR_M, description="x of the row origin (its first rack's start corner), metres.")
    y_m: float = Field(ge=0, le=MAX_FLOOR_M, description="y of the row origin, metres.")
    direction: Direction = Field(0, description="Direction the row runs, degrees counter-clockwise from +x.")
    front: Side = Field(
        Side.LEFT,
        description="Which long side the rack fronts face, seen walking along `direction` (left = far side).",
    )
    racks: list[RackSpec] = Field(default_factory=list, max_length=1000, description="Racks, in order along the row.")
    rack_count: int | None = Field(
        None, ge=0, le=1000, description="Append this many copies of `rack_template`, touching, in order."
    )
    rack_template: RackSpec | None = Field(None, description="Contents of each of the `rack_count` racks.")
    rack_name_pattern: str = Field(
        "{row}-{index:02d}",
        max_length=100,
        description="Names of generated racks: `{row}` is the row name, `{index}` counts from 1.",
    )
    facility: RowFacilityUpdate | None = Field(None, description="The row's own cooling; omitted: the hall's.")

    @model_validator(mode="after")
    def _count_needs_template(self) -> RowCreate:
        if self.rack_count and self.rack_template is None:
            raise ValueError("rack_count needs a rack_template")
        return self

    def to_domain(self) -> rp.RowSpec:
        return rp.RowSpec(
            name=self.name,
            origin=Point(mm(self.x_m), mm(self.y_m)),
            direction=self.direction,
            front=self.front,
            racks=tuple(r.to_domain() for r in self.racks),
            rack_count=self.rack_count,
            rack_template=None if self.rack_template is None else self.rack_template.to_domain(),
            rack_name_pattern=self.rack_name_pattern,
            cooling_kw=None if self.facility is None else self.facility.cooling_kw,
        )


class RowUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=100, description="Row name.")
    x_m: float | None = Field(None, ge=0, le=MAX_FLOOR_M, description="x of the row origin, metres.")
    y_m: float | None = Field(None, ge=0, le=MAX_FLOOR_M, description="y of the row origin, metres.")
    direction: Direction | None = Field(None, description="Direction, degrees: 0, 90, 180 or 270.")
    front: Side | None = Field(None, description="Which side the fronts face.")
    facility: RowFacilityUpdate | None = Field(None, description="The row's cooling: null goes back to the hall's.")

    def changes(self) -> dict[str, Any]:
        """The values sent and not null, as stored (millimetres); `cooling_kw` when sent, null included."""
        out: dict[str, Any] = {}
        if self.facility is not None and "cooling_kw" in self.facility.model_fields_set:
            out["cooling_kw"] = self.facility.cooling_kw
        for key, value in self.model_dump(exclude_unset=True, exclude={"facility"}).items():
            if value is None:
                continue
            if key in ("x_m", "y_m"):
                out[key[0] + "_mm"] = mm(value)
            else:
                out[key] = value
        return out


class RowRead(ReadSchema):
    id: int = Field(description="Row id.")
    hall_id: int = Field(description="Hall id.")
    name: str = Field(description="Row name.", examples=["R01"])
    x_m: Annotated[float, FromMillimetres("x_mm")] = Field(description="x of the row origin, metres.", examples=[2.0])
    y_m: Annotated[float, FromMillimetres("y_mm")] = Field(description="y of the row origin, metres.", examples=[3.0])
    direction: int = Field(description="Degrees: 0, 90, 180 or 270.", examples=[0])
    front: Side = Field(description="Which side the fronts face.")
    version: int = Field(description="Version for `If-Match`.", examples=[1])
    rack_count: int = Field(description="Racks in the row.", examples=[12])
    facility: RowFacilityRead = Field(description="The row's cooling, and whether it is set.")


class RowDetail(RowRead):
    racks: list[RackRead] = Field(description="Racks, in order along the row.")


class RowDuplicate(Schema):
    name: str = Field(min_length=1, max_length=100, description="Name of the copy.", examples=["R05"])
    x_m: float = Field(ge=0, le=MAX_FLOOR_M, description="x of the copy's origin, metres.")
    y_m: float = Field(ge=0, le=MAX_FLOOR_M, description="y of the copy's origin, metres.")
    direction: Direction | None = Field(None, description="Direction of the copy; the original's when omitted.")
    front: Side | None = Field(None, description="Front of the copy; the original's when omitted.")
    rack_name_pattern: str = Field("{row}-{index:02d}", max_length=100, description="Names of the copied racks.")

    def origin(self) -> Point:
        return Point(mm(self.x_m), mm(self.y_m))


class RowPairCreate(Schema):
    """Two rows facing each other across a cold aisle: A's fronts look at B's fronts."""

    name_a: str = Field(
        min_length=1, max_length=100, description="Name of the first row (at the origin).", examples=["R01"]
    )
    name_b: str = Field(min_length=1, max_length=100, description="Name of the row across the aisle.", examples=["R02"])
    x_m: float = Field(ge=0, le=MAX_FLOOR_M, description="x of row A's origin, metres.", examples=[2])
    y_m: float = Field(ge=0, le=MAX_FLOOR_M, description="y of row A's origin, metres.", examples=[2])
    direction: Direction = Field(0, description="Direction both rows run, degrees.")
    cold_aisle_m: float = Field(1.2, gt=0, le=20, description="Width of the cold aisle between them, metres.")
    rack_count: int = Field(ge=1, le=1000, description="Racks in each row.", examples=[12])
    rack_template: RackSpec = Field(description="Contents (and facility settings) of every rack.")
    rack_name_pattern: str = Field("{row}-{index:02d}", max_length=100, description="Rack names.")
    facility: RowFacilityUpdate | None = Field(None, description="Each row's own cooling; omitted: the hall's.")

    def to_domain(self) -> rp.RowPairSpec:
        return rp.RowPairSpec(
            name_a=self.name_a,
            name_b=self.name_b,
            origin=Point(mm(self.x_m), mm(self.y_m)),
            rack_count=self.rack_count,
            rack_template=self.rack_template.to_domain(),
            direction=self.direction,
            cold_aisle_mm=mm(self.cold_aisle_m),
            rack_name_pattern=self.rack_name_pattern,
            cooling_kw=None if self.facility is None else self.facility.cooling_kw,
        )


MAX_RACKS_PER_REQUEST = 20_000
"""Ten times the largest hall benchmarked (2,000 racks, 100,000 servers): a request past it is a
mistake, refused before any work rather than failing deep in the database."""


class RowsBulkCreate(Schema):
    rows: list[RowCreate] = Field(
        min_length=1,
        max_length=500,
        description=f"Rows to create, all or nothing; at most {MAX_RACKS_PER_REQUEST:,} racks in all.",
    )

    @field_validator("rows")
    @classmethod
    def _bounded(cls, rows: list[RowCreate]) -> list[RowCreate]:
        racks = sum(len(r.racks) + (r.rack_count or 0) for r in rows)
        if racks > MAX_RACKS_PER_REQUEST:
            raise ValueError(
                f"the rows hold {racks:,} racks; one request creates at most {MAX_RACKS_PER_REQUEST:,} "
                "(send the rows in several requests)"
            )
        return rows


class BulkResult(BaseModel):
    rows: list[RowRead] = Field(description="The created rows.")
    racks_created: int = Field(description="Physical racks created.", examples=[2000])
    logical_racks_created: int = Field(description="Logical racks created.", examples=[4000])


# ---------------------------------------------------------------- layout document


class IssueRead(ReadSchema):
    severity: Literal["error", "warning"] = Field(description="Errors are refused on write; warnings are shown.")
    code: str = Field(description="Machine-readable rule, e.g. `aisle_too_narrow`.", examples=["aisle_too_narrow"])
    field: str = Field(description="Path in the layout document.", examples=["rows[R02].y_m"])
    message: str = Field(description="What is wrong.")


class AisleRead(ReadSchema):
    kind: Literal["cold", "hot", "mixed"] = Field(description="cold: fronts face it; hot: backs face it.")
    row_a: str = Field(description="Row on one side.")
    row_b: str = Field(description="Row on the other side.")
    width_m: Annotated[float, FromMillimetres("width_mm")] = Field(
        description="Width between the two rows, metres.", examples=[1.2]
    )
    x0_m: Annotated[float, FromMillimetres("x0_mm")] = Field(description="Strip bounding box, metres.")
    y0_m: Annotated[float, FromMillimetres("y0_mm")] = Field(description="Strip bounding box, metres.")
    x1_m: Annotated[float, FromMillimetres("x1_mm")] = Field(description="Strip bounding box, metres.")
    y1_m: Annotated[float, FromMillimetres("y1_mm")] = Field(description="Strip bounding box, metres.")
    min_width_m: Annotated[float, FromMillimetres("min_width_mm")] = Field(
        description="The hall's minimum for an aisle of this kind (cold: `min_cold_aisle_m`; hot and mixed: "
        "`min_hot_aisle_m`), metres.",
        examples=[1.2],
    )
    too_narrow: bool = Field(
        description="True when `width_m` is below `min_width_m` (also an `aisle_too_narrow` warning)."
    )


class ValidationRead(ReadSchema):
    errors: list[IssueRead] = Field(description="Rule violations (writes creating these are refused).")
    warnings: list[IssueRead] = Field(description="Accepted but worth a look (narrow aisles, short uplinks).")
    aisles: list[AisleRead] = Field(description="Aisles derived from the rows.")
    oversubscription: list[LayerLoadRead] = Field(description="Per layer, bottom up, for this hall.")


class LayoutRack(RackRead):
    facility: RackFacilityRead | None = Field(  # type: ignore[assignment]
        description="Feeds, budget, cooling and load limit in effect; null when the rack sets none of them "
        "(it then has the hall document's `rack_facility_defaults`, and the document stays small)."
    )

    @field_validator("facility", mode="before")
    @classmethod
    def _only_when_set(cls, value: Any) -> Any:
        if isinstance(value, facility.RackSettings) and set(value.defaults) == facility.ALL_RACK_SETTINGS:
            return None
        return value


class LayoutRow(RowRead):
    racks: list[LayoutRack] = Field(description="Racks, in order along the row.")


class HallLayout(ReadSchema):
    hall: HallRead = Field(description="The hall.")
    rows: list[LayoutRow] = Field(description="Rows with racks and contents.")
    aisles: list[AisleRead] = Field(description="Derived aisles.")
    warnings: list[IssueRead] = Field(description="Validation warnings.")
    oversubscription: list[LayerLoadRead] = Field(description="Per layer, bottom up.")
    server_models: list[ServerModelRead] = Field(description="Catalog server models used in the hall.")
    switch_models: list[SwitchModelRead] = Field(description="Catalog switch models used in the hall.")
    rack_types: list[RackTypeRead] = Field(description="Catalog rack types used in the hall.")
    rack_facility_defaults: RackFacilityRead = Field(
        description="The facility of a rack that sets none (every rack whose `facility` is null)."
    )
