"""The device catalog: server models, switch models, rack types."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from loopline.api.schemas.common import FromMillimetres, ReadSchema, Schema
from loopline.domain.units import mm


def columns(data: BaseModel, *, partial: bool) -> dict[str, Any]:
    """A create (all fields) or update (the fields sent and not null) body as stored: `*_m` -> `*_mm`."""
    out: dict[str, Any] = {}
    for key, value in data.model_dump(exclude_unset=partial).items():
        if value is None and partial:
            continue
        if key.endswith("_m"):
            out[key[:-2] + "_mm"] = mm(value)
        else:
            out[key] = value
    return out


class ServerModelCreate(Schema):
    name: str = Field(
        min_length=1,
        max_length=200,
        description="Catalog name, unique among the global entries and yours.",
        examples=["2x25G server"],
    )
    nic_ports: int = Field(ge=1, le=64, description="NIC ports per server.", examples=[2])
    port_gbps: float = Field(gt=0, le=3200, description="Speed of each NIC port, Gb/s.", examples=[25])
    height_u: int = Field(1, ge=1, le=10, description="Height in rack units.", examples=[1])


class ServerModelUpdate(Schema):
    name: str | None = Field(
        None, min_length=1, max_length=200, description="Catalog name, unique among the global entries and yours."
    )
    nic_ports: int | None = Field(None, ge=1, le=64, description="NIC ports per server.")
    port_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each NIC port, Gb/s.")
    height_u: int | None = Field(None, ge=1, le=10, description="Height in rack units.")


class ServerModelRead(ReadSchema):
    id: int = Field(description="Catalog id.", examples=[1])
    name: str = Field(description="Catalog name, unique among the global entries and yours.", examples=["2x25G server"])
    nic_ports: int = Field(description="NIC ports per server.", examples=[2])
    port_gbps: float = Field(description="Speed of each NIC port, Gb/s.", examples=[25])
    height_u: int = Field(description="Height in rack units.", examples=[1])
    builtin: bool = Field(description="Seeded default; read-only.")
    owner_id: int | None = Field(
        description="The user this entry belongs to (only they see it in the catalog; members of their projects "
        "can use it there); null for a global entry."
    )
    version: int = Field(description="Version for `If-Match`.", examples=[1])


class SwitchModelCreate(Schema):
    name: str = Field(
        min_length=1,
        max_length=200,
        description="Catalog name, unique among the global entries and yours.",
        examples=["48x25G+8x100G ToR"],
    )
    server_ports: int = Field(ge=0, le=1024, description="Server-facing (downlink) ports.", examples=[48])
    server_port_gbps: float = Field(gt=0, le=3200, description="Speed of each server-facing port, Gb/s.", examples=[25])
    uplink_ports: int = Field(ge=0, le=1024, description="Uplink ports towards the fabric.", examples=[8])
    uplink_gbps: float = Field(gt=0, le=3200, description="Speed of each uplink port, Gb/s.", examples=[100])
    height_u: int = Field(1, ge=1, le=20, description="Height in rack units.", examples=[1])


class SwitchModelUpdate(Schema):
    name: str | None = Field(
        None, min_length=1, max_length=200, description="Catalog name, unique among the global entries and yours."
    )
    server_ports: int | None = Field(None, ge=0, le=1024, description="Server-facing (downlink) ports.")
    server_port_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each server-facing port, Gb/s.")
    uplink_ports: int | None = Field(None, ge=0, le=1024, description="Uplink ports towards the fabric.")
    uplink_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each uplink port, Gb/s.")
    height_u: int | None = Field(None, ge=1, le=20, description="Height in rack units.")


class SwitchModelRead(ReadSchema):
    id: int = Field(description="Catalog id.", examples=[2])
    name: str = Field(
        description="Catalog name, unique among the global entries and yours.", examples=["48x25G+8x100G ToR"]
    )
    server_ports: int = Field(description="Server-facing (downlink) ports.", examples=[48])
    server_port_gbps: float = Field(description="Speed of each server-facing port, Gb/s.", examples=[25])
    uplink_ports: int = Field(description="Uplink ports towards the fabric.", examples=[8])
    uplink_gbps: float = Field(description="Speed of each uplink port, Gb/s.", examples=[100])
    height_u: int = Field(description="Height in rack units.", examples=[1])
    builtin: bool = Field(description="Seeded default; read-only.")
    owner_id: int | None = Field(
        description="The user this entry belongs to (only they see it in the catalog; members of their projects "
        "can use it there); null for a global entry."
    )
    version: int = Field(description="Version for `If-Match`.", examples=[1])


class RackTypeCreate(Schema):
    name: str = Field(
        min_length=1,
        max_length=200,
        description="Catalog name, unique among the global entries and yours.",
        examples=["42U 600x1200"],
    )
    width_m: float = Field(0.6, ge=0.3, le=1.5, description="Width along the row, metres.", examples=[0.6])
    depth_m: float = Field(1.2, ge=0.4, le=2.0, description="Depth across the row, metres.", examples=[1.2])
    height_u: int = Field(42, ge=1, le=60, description="Usable height in rack units.", examples=[42])


class RackTypeUpdate(Schema):
    name: str | None = Field(
        None, min_length=1, max_length=200, description="Catalog name, unique among the global entries and yours."
    )
    width_m: float | None = Field(None, ge=0.3, le=1.5, description="Width along the row, metres.")
    depth_m: float | None = Field(None, ge=0.4, le=2.0, description="Depth across the row, metres.")
    height_u: int | None = Field(None, ge=1, le=60, description="Usable height in rack units.")


class RackTypeRead(ReadSchema):
    id: int = Field(description="Catalog id.", examples=[1])
    name: str = Field(description="Catalog name, unique among the global entries and yours.", examples=["42U 600x1200"])
    width_m: Annotated[float, FromMillimetres("width_mm")] = Field(
        description="Width along the row, metres.", examples=[0.6]
    )
    depth_m: Annotated[float, FromMillimetres("depth_mm")] = Field(
        description="Depth across the row, metres.", examples=[1.2]
    )
    height_u: int = Field(description="Usable height in rack units.", examples=[42])
    builtin: bool = Field(description="Seeded default; read-only.")
    owner_id: int | None = Field(
        description="The user this entry belongs to (only they see it in the catalog; members of their projects "
        "can use it there); null for a global entry."
    )
    version: int = Field(description="Version for `If-Match`.", examples=[1])
