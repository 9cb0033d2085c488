"""The device catalog: server models, switch models, rack types, PDU models, and their facility
facts (power, weight, airflow, load ratings: each optional, a check that needs a missing one says so)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from loopline.api.schemas.common import FromMillimetres, ReadSchema, Schema
from loopline.domain.facility.model import Airflow
from loopline.domain.units import mm

FACTS = frozenset(
    {
        "typical_w",
        "max_w",
        "weight_kg",
        "airflow",
        "static_load_kg",
        "gpu_interconnect_gbps",
        "frontend_port_gbps",
        "breakout_links",
    }
)
"""Facts a user may clear: null in an update sets them to "not known" (other fields: null = unchanged)."""

MAX_DEVICE_W = 100_000.0
MAX_WEIGHT_KG = 10_000.0


def columns(data: BaseModel, *, partial: bool) -> dict[str, Any]:
    """A create (all fields) or update (the fields sent and not null; a fact sent as null clears
    it) body as stored: `*_m` -> `*_mm`."""
    out: dict[str, Any] = {}
    for key, value in data.model_dump(exclude_unset=partial).items():
        if value is None and partial and key not in FACTS:
            continue
        if key.endswith("_m"):
            out[key[:-2] + "_mm"] = mm(value)
        else:
            out[key] = value
    return out


class DeviceFactsCreate(Schema):
    """A server's or switch's facility facts, each optional (null: not known)."""

    typical_w: float | None = Field(
        None, ge=0, le=MAX_DEVICE_W, description="Typical power draw, W (null: not known).", examples=[350]
    )
    max_w: float | None = Field(
        None,
        ge=0,
        le=MAX_DEVICE_W,
        description="Maximum power draw, W; at least `typical_w` (null: not known).",
        examples=[700],
    )
    weight_kg: float | None = Field(
        None, ge=0, le=MAX_WEIGHT_KG, description="Weight, kg (null: not known).", examples=[18.5]
    )
    airflow: Airflow | None = Field(
        None, description="Which way air crosses it, from the rack's front (null: not known)."
    )
    source: str = Field("", max_length=2000, description="Datasheet or standard the facts come from (URL or name).")

    @field_validator("max_w")
    @classmethod
    def _max_at_least_typical(cls, max_w: float | None, info: ValidationInfo) -> float | None:
        _check_power(info.data.get("typical_w"), max_w)
        return max_w


class DeviceFactsUpdate(Schema):
    """A server's or switch's facility facts in an update: a fact sent as null clears it."""

    typical_w: float | None = Field(None, ge=0, le=MAX_DEVICE_W, description="Typical power draw, W; null clears it.")
    max_w: float | None = Field(
        None, ge=0, le=MAX_DEVICE_W, description="Maximum power draw, W (at least `typical_w`); null clears it."
    )
    weight_kg: float | None = Field(None, ge=0, le=MAX_WEIGHT_KG, description="Weight, kg; null clears it.")
    airflow: Airflow | None = Field(None, description="Airflow from the rack's front; null clears it.")
    source: str | None = Field(None, max_length=2000, description="Datasheet or standard the facts come from.")

    @field_validator("max_w")
    @classmethod
    def _max_at_least_typical(cls, max_w: float | None, info: ValidationInfo) -> float | None:
        _check_power(info.data.get("typical_w"), max_w)
        return max_w


class DeviceFactsRead(ReadSchema):
    typical_w: float | None = Field(description="Typical power draw, W (null: not known).", examples=[350])
    max_w: float | None = Field(description="Maximum power draw, W (null: not known).", examples=[700])
    weight_kg: float | None = Field(description="Weight, kg (null: not known).", examples=[18.5])
    airflow: Airflow | None = Field(description="Airflow from the rack's front (null: not known).")
    source: str = Field(description="Datasheet or standard the facts come from; empty when none is given.")


class ServerModelCreate(DeviceFactsCreate):
    name: str = Field(
        min_length=1,
        max_length=200,
        description="Catalog name, unique among the global entries and yours.",
        examples=["2x25G server"],
    )
    nic_ports: int = Field(
        ge=1, le=64, description="NIC ports per server (a GPU server's compute NICs, one per rail).", examples=[2]
    )
    port_gbps: float = Field(gt=0, le=3200, description="Speed of each NIC port, Gb/s.", examples=[25])
    height_u: int = Field(1, ge=1, le=10, description="Height in rack units.", examples=[1])
    gpus: int = Field(0, ge=0, le=256, description="GPUs per server (0: not a GPU server).", examples=[8])
    gpu_interconnect_gbps: float | None = Field(
        None,
        gt=0,
        le=100_000,
        description="The intra-server GPU interconnect (NVLink and the like): Gb/s per GPU, each direction "
        "(null: not known or no GPUs).",
        examples=[3600],
    )
    frontend_nic_ports: int = Field(
        0, ge=0, le=64, description="Front-end (storage, in-band management) NIC ports, apart from `nic_ports`."
    )
    frontend_port_gbps: float | None = Field(
        None, gt=0, le=3200, description="Speed of each front-end NIC port, Gb/s (null: none or not known)."
    )


class ServerModelUpdate(DeviceFactsUpdate):
    name: str | None = Field(
        None, min_length=1, max_length=200, description="Catalog name, unique among the global entries and yours."
    )
    nic_ports: int | None = Field(None, ge=1, le=64, description="NIC ports per server.")
    port_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each NIC port, Gb/s.")
    height_u: int | None = Field(None, ge=1, le=10, description="Height in rack units.")
    gpus: int | None = Field(None, ge=0, le=256, description="GPUs per server.")
    gpu_interconnect_gbps: float | None = Field(
        None, gt=0, le=100_000, description="GPU interconnect, Gb/s per GPU each direction; null clears it."
    )
    frontend_nic_ports: int | None = Field(None, ge=0, le=64, description="Front-end NIC ports.")
    frontend_port_gbps: float | None = Field(
        None, gt=0, le=3200, description="Speed of each front-end NIC port, Gb/s; null clears it."
    )


class ServerModelRead(DeviceFactsRead):
    id: int = Field(description="Catalog id.", examples=[1])
    name: str = Field(description="Catalog name, unique among the global entries and yours.", examples=["2x25G server"])
    nic_ports: int = Field(description="NIC ports per server (a GPU server's compute NICs).", examples=[2])
    port_gbps: float = Field(description="Speed of each NIC port, Gb/s.", examples=[25])
    height_u: int = Field(description="Height in rack units.", examples=[1])
    gpus: int = Field(description="GPUs per server (0: not a GPU server).", examples=[8])
    gpu_interconnect_gbps: float | None = Field(
        description="GPU interconnect, Gb/s per GPU each direction (null: not known or no GPUs).", examples=[3600]
    )
    frontend_nic_ports: int = Field(description="Front-end (storage, in-band management) NIC ports.", examples=[4])
    frontend_port_gbps: float | None = Field(description="Speed of each front-end NIC port, Gb/s.", examples=[400])
    builtin: bool = Field(description="Seeded default; read-only.")
    owner_id: int | None = Field(
        description="The user this entry belongs to (only they see it in the catalog; members of their projects "
        "can use it there); null for a global entry."
    )
    version: int = Field(description="Version for `If-Match`.", examples=[1])


class SwitchModelCreate(DeviceFactsCreate):
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
    breakout_links: int | None = Field(
        None,
        ge=1,
        le=16,
        description="The most links one port breaks out into, each at the port's speed over that count "
        "(2: a 400G port as 2 x 200G; 1: no breakout; null: not known).",
        examples=[2],
    )


class SwitchModelUpdate(DeviceFactsUpdate):
    name: str | None = Field(
        None, min_length=1, max_length=200, description="Catalog name, unique among the global entries and yours."
    )
    server_ports: int | None = Field(None, ge=0, le=1024, description="Server-facing (downlink) ports.")
    server_port_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each server-facing port, Gb/s.")
    uplink_ports: int | None = Field(None, ge=0, le=1024, description="Uplink ports towards the fabric.")
    uplink_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each uplink port, Gb/s.")
    height_u: int | None = Field(None, ge=1, le=20, description="Height in rack units.")
    breakout_links: int | None = Field(
        None, ge=1, le=16, description="The most links one port breaks out into; null clears it."
    )


class SwitchModelRead(DeviceFactsRead):
    id: int = Field(description="Catalog id.", examples=[2])
    name: str = Field(
        description="Catalog name, unique among the global entries and yours.", examples=["48x25G+8x100G ToR"]
    )
    server_ports: int = Field(description="Server-facing (downlink) ports.", examples=[48])
    server_port_gbps: float = Field(description="Speed of each server-facing port, Gb/s.", examples=[25])
    uplink_ports: int = Field(description="Uplink ports towards the fabric.", examples=[8])
    uplink_gbps: float = Field(description="Speed of each uplink port, Gb/s.", examples=[100])
    height_u: int = Field(description="Height in rack units.", examples=[1])
    breakout_links: int | None = Field(
        description="The most links one port breaks out into (null: not known).", examples=[2]
    )
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
    weight_kg: float | None = Field(
        None, ge=0, le=MAX_WEIGHT_KG, description="The empty rack's own weight, kg (null: not known).", examples=[130]
    )
    static_load_kg: float | None = Field(
        None, gt=0, le=MAX_WEIGHT_KG * 10, description="Static load rating, kg (null: not known).", examples=[1500]
    )
    source: str = Field("", max_length=2000, description="Datasheet or standard the facts come from (URL or name).")


class RackTypeUpdate(Schema):
    name: str | None = Field(
        None, min_length=1, max_length=200, description="Catalog name, unique among the global entries and yours."
    )
    width_m: float | None = Field(None, ge=0.3, le=1.5, description="Width along the row, metres.")
    depth_m: float | None = Field(None, ge=0.4, le=2.0, description="Depth across the row, metres.")
    height_u: int | None = Field(None, ge=1, le=60, description="Usable height in rack units.")
    weight_kg: float | None = Field(None, ge=0, le=MAX_WEIGHT_KG, description="Own weight, kg; null clears it.")
    static_load_kg: float | None = Field(
        None, gt=0, le=MAX_WEIGHT_KG * 10, description="Static load rating, kg; null clears it."
    )
    source: str | None = Field(None, max_length=2000, description="Datasheet or standard the facts come from.")


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
    weight_kg: float | None = Field(description="The empty rack's own weight, kg (null: not known).", examples=[130])
    static_load_kg: float | None = Field(description="Static load rating, kg (null: not known).", examples=[1500])
    source: str = Field(description="Datasheet or standard the facts come from; empty when none is given.")
    builtin: bool = Field(description="Seeded default; read-only.")
    owner_id: int | None = Field(
        description="The user this entry belongs to (only they see it in the catalog; members of their projects "
        "can use it there); null for a global entry."
    )
    version: int = Field(description="Version for `If-Match`.", examples=[1])


def _check_power(typical_w: float | None, max_w: float | None) -> None:
    if typical_w is not None and max_w is not None and max_w < typical_w:
        raise ValueError(f"must be at least typical_w ({typical_w:g} W), got {max_w:g} W")


class PduModelCreate(Schema):
    name: str = Field(
        min_length=1,
        max_length=200,
        description="Catalog name, unique among the global entries and yours.",
        examples=["Metered PDU 1ph 32A 24xC13"],
    )
    outlets: int = Field(ge=1, le=1000, description="Outlets.", examples=[24])
    phases: Literal[1, 3] = Field(1, description="Phases it takes: 1 or 3.", examples=[1])
    weight_kg: float | None = Field(
        None, ge=0, le=MAX_WEIGHT_KG, description="Weight, kg (null: not known).", examples=[5.2]
    )
    source: str = Field("", max_length=2000, description="Datasheet the facts come from (URL or name).")


class PduModelUpdate(Schema):
    name: str | None = Field(
        None, min_length=1, max_length=200, description="Catalog name, unique among the global entries and yours."
    )
    outlets: int | None = Field(None, ge=1, le=1000, description="Outlets.")
    phases: Literal[1, 3] | None = Field(None, description="Phases it takes: 1 or 3.")
    weight_kg: float | None = Field(None, ge=0, le=MAX_WEIGHT_KG, description="Weight, kg; null clears it.")
    source: str | None = Field(None, max_length=2000, description="Datasheet the facts come from.")


class PduModelRead(ReadSchema):
    id: int = Field(description="Catalog id.", examples=[1])
    name: str = Field(
        description="Catalog name, unique among the global entries and yours.", examples=["Metered PDU 1ph 32A 24xC13"]
    )
    outlets: int = Field(description="Outlets.", examples=[24])
    phases: int = Field(description="Phases it takes: 1 or 3.", examples=[1])
    weight_kg: float | None = Field(description="Weight, kg (null: not known).", examples=[5.2])
    source: str = Field(description="Datasheet the facts come from; empty when none is given.")
    builtin: bool = Field(description="Seeded default; read-only.")
    owner_id: int | None = Field(
        description="The user this entry belongs to (only they see it in the catalog; members of their projects "
        "can use it there); null for a global entry."
    )
    version: int = Field(description="Version for `If-Match`.", examples=[1])
