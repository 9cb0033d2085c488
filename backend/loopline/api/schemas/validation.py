"""`GET /halls/{id}/validation`: the layout rules plus the fabric's port capacity per layer."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from loopline.api.schemas.common import ReadSchema
from loopline.api.schemas.layout import ValidationRead


class LayerPortsRead(ReadSchema):
    layer: Literal["tor", "agg", "spine", "core"] = Field(description="Switch layer.", examples=["spine"])
    direction: Literal["uplink", "downlink"] = Field(
        description="`uplink`: ToR ports towards the fabric; `downlink`: ports facing the layer below."
    )
    switches: int = Field(description="Switches of this layer in the hall.", examples=[8])
    ports_needed: int = Field(description="Ports the wiring generator would cable, in all.", examples=[544])
    ports_available: int = Field(description="Ports the layer's switches have, in all.", examples=[512])
    busiest: str | None = Field(description="The switch first to run out (most ports needed over its own).")
    busiest_needed: int = Field(description="Ports the busiest switch needs.", examples=[68])
    busiest_available: int = Field(description="Ports the busiest switch has.", examples=[64])
    short: bool = Field(description="True when the busiest switch needs more ports than it has: wiring fails.")


class HallValidationRead(ValidationRead):
    fabric_ports: list[LayerPortsRead] = Field(
        description="Per layer, bottom up: ports the fabric's links need against the ports there are "
        "(computed as the wiring generator cables them; a short layer is also a `fabric_ports_short` warning)."
    )
