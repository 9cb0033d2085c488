"""The versioned project document: whole-project export and import (lossless round trip).

Catalog entries are referenced by name, so a document moves between installations.
The price book's current entries travel with it; members, tokens, the audit log and the price
book's earlier versions do not.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from loopline.api.schemas.catalog import MAX_WEIGHT_KG, ServerModelCreate, SwitchModelCreate
from loopline.api.schemas.common import Schema
from loopline.api.schemas.facility import (
    TRAY_RUN_NAME,
    FeedIn,
    HallFacilityUpdate,
    RackFacilityUpdate,
    RowFacilityUpdate,
    TrayRunPut,
)
from loopline.api.schemas.layout import Direction, FabricRole, hall_columns
from loopline.api.schemas.pricing import PriceBookPut
from loopline.api.schemas.projects import FabricSettingsIn
from loopline.domain.layout import Face, Point, RackRole, Side, TorPosition
from loopline.domain.units import mm
from loopline.services import exchange as ex
from loopline.services import facility

FORMAT = "loopline.project"
SCHEMA_VERSION = 1


class DocServerModel(ServerModelCreate):
    """A server model as the catalog creates it (one set of limits), named as the reference key."""

    name: str = Field(min_length=1, max_length=200, description="Catalog name (the reference key).")


class DocSwitchModel(SwitchModelCreate):
    """A switch model as the catalog creates it, named as the reference key."""

    name: str = Field(min_length=1, max_length=200, description="Catalog name (the reference key).")


class DocRackType(Schema):
    name: str = Field(min_length=1, max_length=200, description="Catalog name (the reference key).")
    width_m: float = Field(ge=0.3, le=1.5, description="Width, metres.")
    depth_m: float = Field(ge=0.4, le=2.0, description="Depth, metres.")
    height_u: int = Field(ge=1, le=60, description="Height in U.")
    weight_kg: float | None = Field(None, ge=0, le=MAX_WEIGHT_KG, description="Own weight, kg.")
    static_load_kg: float | None = Field(None, gt=0, le=MAX_WEIGHT_KG * 10, description="Static load rating, kg.")
    source: str = Field("", max_length=2000, description="Where the facts come from.")


class DocPduModel(Schema):
    name: str = Field(min_length=1, max_length=200, description="Catalog name (the reference key).")
    outlets: int = Field(ge=1, le=1000, description="Outlets.")
    phases: Literal[1, 3] = Field(1, description="1 or 3.")
    weight_kg: float | None = Field(None, ge=0, le=MAX_WEIGHT_KG, description="Weight, kg.")
    source: str = Field("", max_length=2000, description="Where the facts come from.")


class DocCatalog(Schema):
    server_models: list[DocServerModel] = Field(default_factory=list, description="Server models used.")
    switch_models: list[DocSwitchModel] = Field(default_factory=list, description="Switch models used.")
    rack_types: list[DocRackType] = Field(default_factory=list, description="Rack types used.")
    pdu_models: list[DocPduModel] = Field(default_factory=list, description="PDU models the racks' feeds name.")


class DocLogicalRack(Schema):
    servers: int = Field(ge=0, le=200, description="`r`: servers.")
    server_model: str = Field(description="Server model name.")
    ports_used: int = Field(ge=1, le=64, description="`p`: ports cabled per server.")
    tor_model: str = Field(description="ToR switch model name.")
    tor_position: TorPosition = Field(description="top, middle or bottom.")
    base_u: int = Field(ge=1, le=100, description="Lowest U.")


class DocFabricSwitch(Schema):
    name: str = Field(min_length=1, max_length=100, description="Switch name.")
    role: FabricRole = Field(description="agg, spine or core.")
    switch_model: str = Field(description="Switch model name.")
    u: int = Field(ge=1, le=100, description="Lowest U.")
    cluster: int | None = Field(None, description="Cluster served.")
    network: Literal["compute", "front_end"] = Field(
        "compute", description="The network it switches (left out: compute)."
    )


class DocFeed(FeedIn):
    pdu_model_id: None = Field(None, description="Not in a document: `pdu_model` names the PDU.")
    pdu_model: str | None = Field(None, description="PDU model name (in `catalog.pdu_models`).")


class DocRackFacility(RackFacilityUpdate):
    feeds: list[DocFeed] | None = Field(  # type: ignore[assignment]
        None, min_length=1, max_length=2, description="One or two feeds named A and B; null: the default feeds."
    )

    def stored(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in facility.RACK_SETTINGS}
        if self.feeds:
            out["feeds"] = tuple((f.name, f.voltage_v, f.phases, f.breaker_a, f.pdu_model) for f in self.feeds)
        return out


class DocTrayRun(TrayRunPut):
    name: str = Field(pattern=TRAY_RUN_NAME, description="Run name.")


class DocRack(Schema):
    name: str = Field(min_length=1, max_length=100, description="Rack name.")
    rack_type: str = Field(description="Rack type name.")
    position_m: float = Field(ge=0, le=1000, description="Offset along the row, metres.")
    role: RackRole = Field(description="compute or network.")
    port_face: Face = Field(description="Face the ports are on.")
    logical_racks: list[DocLogicalRack] = Field(default_factory=list, description="Bottom up.")
    fabric_switches: list[DocFabricSwitch] = Field(default_factory=list, description="Bottom up.")
    facility: DocRackFacility | None = Field(None, description="Facility settings set (the rest are defaults).")


class DocRow(Schema):
    name: str = Field(min_length=1, max_length=100, description="Row name.")
    x_m: float = Field(ge=0, le=1000, description="Origin x, metres.")
    y_m: float = Field(ge=0, le=1000, description="Origin y, metres.")
    direction: Direction = Field(description="Degrees.")
    front: Side = Field(description="left or right.")
    racks: list[DocRack] = Field(default_factory=list, description="Along the row.")
    facility: RowFacilityUpdate | None = Field(None, description="The row's own cooling, when set.")

    def to_import(self) -> ex.DocRow:
        return ex.DocRow(
            self.name,
            Point(mm(self.x_m), mm(self.y_m)),
            self.direction,
            self.front,
            tuple(
                ex.DocRack(
                    r.name,
                    r.rack_type,
                    mm(r.position_m),
                    r.role,
                    r.port_face,
                    tuple(
                        ex.DocLogicalRack(
                            lr.servers, lr.server_model, lr.ports_used, lr.tor_model, lr.tor_position, lr.base_u
                        )
                        for lr in r.logical_racks
                    ),
                    tuple(
                        ex.DocSwitch(s.name, s.role.value, s.switch_model, s.u, s.cluster, s.network)
                        for s in r.fabric_switches
                    ),
                    None if r.facility is None else r.facility.stored(),
                )
                for r in self.racks
            ),
            None if self.facility is None else self.facility.cooling_kw,
        )


class DocHall(Schema):
    name: str = Field(min_length=1, max_length=100, description="Hall name.")
    site: str = Field(min_length=1, max_length=100, description="Site code.")
    width_m: float = Field(gt=0, le=1000, description="Floor width, metres.")
    depth_m: float = Field(gt=0, le=1000, description="Floor depth, metres.")
    raised_floor: bool = Field(description="Raised floor present.")
    raised_floor_height_m: float = Field(ge=0, le=3, description="Raised floor void height, metres.")
    tray_height_m: float = Field(ge=0, le=5, description="Tray height above the racks, metres.")
    tile_m: float = Field(ge=0.3, le=1.5, description="Tile size, metres.")
    min_cold_aisle_m: float = Field(ge=0, le=10, description="Minimum cold aisle, metres.")
    min_hot_aisle_m: float = Field(ge=0, le=10, description="Minimum hot aisle, metres.")
    facility: HallFacilityUpdate | None = Field(None, description="Facility settings set (the rest are defaults).")
    tray_runs: list[DocTrayRun] = Field(default_factory=list, description="Tray runs with their own tray.")
    rows: list[DocRow] = Field(default_factory=list, description="Rows by name.")

    def to_import(self) -> ex.DocHall:
        columns = hall_columns(self.model_dump(exclude={"rows", "facility", "tray_runs"}))
        return ex.DocHall(
            {**columns, **(self.facility.columns() if self.facility else {})},
            tuple(row.to_import() for row in self.rows),
            tuple((t.name, t.width_mm, t.usable_depth_mm, t.load_kg_per_m) for t in self.tray_runs),
        )


class DocProject(Schema):
    name: str = Field(min_length=1, max_length=200, description="Project name.")
    description: str = Field("", max_length=2000, description="Free text.")


class ProjectDocument(Schema):
    format: Literal["loopline.project"] = Field("loopline.project", description="Always `loopline.project`.")
    schema_version: Literal[1] = Field(1, description="Version of this document's shape.")
    project: DocProject = Field(description="Project name and description.")
    fabric: FabricSettingsIn = Field(description="Fabric settings.")
    catalog: DocCatalog = Field(description="Every catalog entry the halls reference, by name.")
    halls: list[DocHall] = Field(default_factory=list, description="Halls by name.")
    price_book: PriceBookPut | None = Field(
        None, description="The project's price book: currency and own entries; null: the installation's defaults."
    )

    def to_import(self) -> ex.Document:
        """The document in stored units (millimetres), catalog references still by name."""
        return ex.Document(
            name=self.project.name,
            description=self.project.description,
            fabric=self.fabric.to_domain(),
            # (a document written before GPU servers existed names none of their fields: they are not
            # compared with the catalog's entry, whose own values stand)
            server_models=[
                e.model_dump(exclude=set(ex.SERVER_GPU_KEYS) - e.model_fields_set) for e in self.catalog.server_models
            ],
            switch_models=[
                e.model_dump(exclude=set(ex.SWITCH_OPTIONAL_KEYS) - e.model_fields_set)
                for e in self.catalog.switch_models
            ],
            rack_types=[
                {
                    "name": t.name,
                    "width_mm": mm(t.width_m),
                    "depth_mm": mm(t.depth_m),
                    "height_u": t.height_u,
                    "weight_kg": t.weight_kg,
                    "static_load_kg": t.static_load_kg,
                    "source": t.source,
                }
                for t in self.catalog.rack_types
            ],  # fmt: skip
            pdu_models=[e.model_dump() for e in self.catalog.pdu_models],
            halls=[h.to_import() for h in self.halls],
            price_book=None
            if self.price_book is None
            else (self.price_book.currency, tuple(e.to_domain() for e in self.price_book.entries)),
        )


class ImportResult(BaseModel):
    project_id: int = Field(description="The new project's id.")
    halls: int = Field(description="Halls imported.")
    racks: int = Field(description="Racks imported.")
