"""A hall's device names: template, overrides, the names in effect."""

from __future__ import annotations

from pydantic import BaseModel, Field

from loopline.api.schemas.common import Schema


class DeviceOverrideIn(Schema):
    device: str = Field(
        min_length=1, max_length=400, description="The device's location name.", examples=["H1.R01.R01-03.U17"]
    )
    host_name: str | None = Field(
        None, max_length=64, description="Its own host name; null or empty: the template's.", examples=["db-07"]
    )
    asset_tag: str | None = Field(None, max_length=50, description="Its asset tag; null or empty: none.")


class DeviceNamingUpdate(Schema):
    template: str | None = Field(
        None,
        max_length=200,
        description="The hall's naming template; null or empty: devices keep their location names. Fields: `{site}`, "
        "`{hall}`, `{row}`, `{rack_name}`, `{role}`, and the counters `{rack}` (the rack's number in its row), `{u}` "
        "(lowest U), `{n}` (the device's number in its rack from the bottom); `{u:02}` pads to two digits.",
        examples=["{hall}-{row}{rack:02}-s{u:02}"],
    )
    overrides: list[DeviceOverrideIn] = Field(
        default_factory=list, max_length=200_000, description="Per-device host names and asset tags to set."
    )


class DeviceNamesCsv(Schema):
    csv: str = Field(
        max_length=16_000_000,
        description="Columns `device,host_name[,asset_tag][,name]` (the download's); an empty cell clears that "
        "override, `name` is ignored. All or nothing: every bad cell is named by line and column.",
    )


class DeviceNameRead(BaseModel):
    device: str = Field(description="Location name (cable IDs are derived from it).", examples=["H1.R01.R01-03.U17"])
    row: str = Field(description="Row name.")
    rack: str = Field(description="Rack name.")
    u: int = Field(description="Lowest U.")
    role: str = Field(description="`server`, `tor`, `agg`, `spine` or `core`.")
    name: str = Field(description="The host name in effect, as every export prints it.", examples=["H1-R0103-s17"])
    source: str = Field(description="Where it comes from: `override`, `template` or `location`.")
    host_name: str | None = Field(description="The device's own host name, if it has one.")
    asset_tag: str | None = Field(description="Its asset tag, if any.")


class DeviceNamesRead(BaseModel):
    template: str | None = Field(description="The hall's naming template (null: location names).")
    version: int = Field(description="Version for `If-Match` (0 before the first change).")
    items: list[DeviceNameRead] = Field(description="This page of devices, in hall order.")
    total: int = Field(description="Devices in the hall.")
    page: int = Field(description="Page number, from 1.")
    limit: int = Field(description="Devices per page.")
