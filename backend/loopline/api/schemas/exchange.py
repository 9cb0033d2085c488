"""The versioned project document: whole-project export and import (lossless round trip).

Catalog entries are referenced by name, so a document moves between installations.
The price book's current entries travel with it; members, tokens, the audit log and the price
book's earlier versions do not.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from loopline.api.schemas.common import Schema
from loopline.api.schemas.layout import Direction, FabricRole, hall_columns
from loopline.api.schemas.pricing import PriceBookPut
from loopline.api.schemas.projects import FabricSettingsIn
from loopline.domain.layout import Face, Point, RackRole, Side, TorPosition
from loopline.domain.units import mm
from loopline.services import exchange as ex

FORMAT = "loopline.project"
SCHEMA_VERSION = 1


class DocServerModel(Schema):
    name: str = Field(min_length=1, max_length=200, description="Catalog name (the reference key).")
    nic_ports: int = Field(ge=1, le=64, description="NIC ports per server.")
    port_gbps: float = Field(gt=0, le=3200, description="Speed per port, Gb/s.")
    height_u: int = Field(ge=1, le=10, description="Height in U.")


class DocSwitchModel(Schema):
    name: str = Field(min_length=1, max_length=200, description="Catalog name (the reference key).")
    server_ports: int = Field(ge=0, le=1024, description="Server-facing ports.")
    server_port_gbps: float = Field(gt=0, le=3200, description="Server-facing port speed, Gb/s.")
    uplink_ports: int = Field(ge=0, le=1024, description="Uplink ports.")
    uplink_gbps: float = Field(gt=0, le=3200, description="Uplink speed, Gb/s.")
    height_u: int = Field(ge=1, le=20, description="Height in U.")


class DocRackType(Schema):
    name: str = Field(min_length=1, max_length=200, description="Catalog name (the reference key).")
    width_m: float = Field(ge=0.3, le=1.5, description="Width, metres.")
    depth_m: float = Field(ge=0.4, le=2.0, description="Depth, metres.")
    height_u: int = Field(ge=1, le=60, description="Height in U.")


class DocCatalog(Schema):
    server_models: list[DocServerModel] = Field(default_factory=list, description="Server models used.")
    switch_models: list[DocSwitchModel] = Field(default_factory=list, description="Switch models used.")
    rack_types: list[DocRackType] = Field(default_factory=list, description="Rack types used.")


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


class DocRack(Schema):
    name: str = Field(min_length=1, max_length=100, description="Rack name.")
    rack_type: str = Field(description="Rack type name.")
    position_m: float = Field(ge=0, le=1000, description="Offset along the row, metres.")
    role: RackRole = Field(description="compute or network.")
    port_face: Face = Field(description="Face the ports are on.")
    logical_racks: list[DocLogicalRack] = Field(default_factory=list, description="Bottom up.")
    fabric_switches: list[DocFabricSwitch] = Field(default_factory=list, description="Bottom up.")


class DocRow(Schema):
    name: str = Field(min_length=1, max_length=100, description="Row name.")
    x_m: float = Field(ge=0, le=1000, description="Origin x, metres.")
    y_m: float = Field(ge=0, le=1000, description="Origin y, metres.")
    direction: Direction = Field(description="Degrees.")
    front: Side = Field(description="left or right.")
    racks: list[DocRack] = Field(default_factory=list, description="Along the row.")

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
                        ex.DocSwitch(s.name, s.role.value, s.switch_model, s.u, s.cluster) for s in r.fabric_switches
                    ),
                )
                for r in self.racks
            ),
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
    rows: list[DocRow] = Field(default_factory=list, description="Rows by name.")


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
            server_models=[e.model_dump() for e in self.catalog.server_models],
            switch_models=[e.model_dump() for e in self.catalog.switch_models],
            rack_types=[
                {"name": t.name, "width_mm": mm(t.width_m), "depth_mm": mm(t.depth_m), "height_u": t.height_u}
                for t in self.catalog.rack_types
            ],
            halls=[
                ex.DocHall(hall_columns(h.model_dump(exclude={"rows"})), tuple(row.to_import() for row in h.rows))
                for h in self.halls
            ],
            price_book=None
            if self.price_book is None
            else (self.price_book.currency, tuple(e.to_domain() for e in self.price_book.entries)),
        )


class ImportResult(BaseModel):
    project_id: int = Field(description="The new project's id.")
    halls: int = Field(description="Halls imported.")
    racks: int = Field(description="Racks imported.")
