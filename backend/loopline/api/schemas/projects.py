"""Projects, members, fabric settings, the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from loopline.api.schemas.common import ReadSchema, Schema
from loopline.db.models import Role
from loopline.domain.layout import FabricSettings, FabricType, NetworkRackPlacement


class FabricSettingsIn(Schema):
    fabric_type: FabricType = Field(
        FabricType.LEAF_SPINE, description="3-tier FatTree/Clos (`fat_tree`), `leaf_spine` or `vl2`."
    )
    tor_uplinks: int = Field(4, ge=0, le=256, description="Uplinks per ToR.", examples=[4])
    tor_uplink_gbps: float = Field(100, gt=0, le=3200, description="Speed of each ToR uplink, Gb/s.", examples=[100])
    aggs_per_cluster: int = Field(4, ge=0, le=1024, description="Aggregation switches per cluster (fat_tree, vl2).")
    agg_uplinks: int = Field(16, ge=0, le=1024, description="Uplinks per aggregation switch to the core.")
    agg_uplink_gbps: float = Field(100, gt=0, le=3200, description="Speed of each aggregation uplink, Gb/s.")
    spines: int = Field(4, ge=0, le=4096, description="Spine switches (leaf_spine).", examples=[4])
    cores: int = Field(4, ge=0, le=4096, description="Core (fat_tree) or intermediate (vl2) switches.")
    rows_per_cluster: int = Field(2, ge=1, le=100, description="Compute rows per cluster (by row name order).")
    network_rack_placement: NetworkRackPlacement = Field(
        NetworkRackPlacement.END_OF_ROW, description="Where the fabric switches' network racks stand."
    )

    def to_domain(self) -> FabricSettings:
        return FabricSettings(**self.model_dump())


class FabricSettingsUpdate(Schema):
    fabric_type: FabricType | None = Field(None, description="`fat_tree`, `leaf_spine` or `vl2`.")
    tor_uplinks: int | None = Field(None, ge=0, le=256, description="Uplinks per ToR.")
    tor_uplink_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each ToR uplink, Gb/s.")
    aggs_per_cluster: int | None = Field(None, ge=0, le=1024, description="Aggregation switches per cluster.")
    agg_uplinks: int | None = Field(None, ge=0, le=1024, description="Uplinks per aggregation switch.")
    agg_uplink_gbps: float | None = Field(None, gt=0, le=3200, description="Speed of each aggregation uplink, Gb/s.")
    spines: int | None = Field(None, ge=0, le=4096, description="Spine switches.")
    cores: int | None = Field(None, ge=0, le=4096, description="Core or intermediate switches.")
    rows_per_cluster: int | None = Field(None, ge=1, le=100, description="Compute rows per cluster.")
    network_rack_placement: NetworkRackPlacement | None = Field(None, description="Where the network racks stand.")


class LayerLoadRead(ReadSchema):
    layer: str = Field(description="`tor`, `agg`, `spine` or `core`.", examples=["tor"])
    switches: int = Field(description="Switches in this layer.", examples=[96])
    downlink_gbps: float = Field(description="Total capacity arriving from below, Gb/s.", examples=[72000])
    uplink_gbps: float = Field(description="Total capacity leaving upwards, Gb/s (0 for the top layer).")
    ratio: float | None = Field(
        description="Oversubscription: downlink / uplink (null for the top layer).", examples=[1.875]
    )
    worst_ratio: float | None = Field(description="The highest ratio of one switch (ToR) or one cluster (agg).")


class HallOversubscription(ReadSchema):
    hall_id: int = Field(description="Hall id.")
    hall_name: str = Field(description="Hall name.")
    layers: list[LayerLoadRead] = Field(description="One entry per layer, bottom up.")


class FabricSettingsRead(FabricSettingsIn):
    version: int = Field(description="Version for `If-Match`.", examples=[1])
    oversubscription: list[HallOversubscription] = Field(
        default_factory=list, description="Oversubscription at each layer, computed per hall from its contents."
    )

    @classmethod
    def of(cls, row: Any, oversubscription: Any) -> FabricSettingsRead:
        """The stored settings (a row with the fields and `version`) and the per-hall loads."""
        values = {name: getattr(row, name) for name in cls.model_fields if name != "oversubscription"}
        return cls.model_validate({**values, "oversubscription": oversubscription})


class ProjectCreate(Schema):
    name: str = Field(min_length=1, max_length=200, description="Project name.", examples=["Demo hall"])
    description: str = Field("", max_length=2000, description="Free text.", examples=["25G upgrade study"])
    fabric: FabricSettingsIn | None = Field(None, description="Fabric settings; defaults when omitted.")


class ProjectUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=200, description="Project name.")
    description: str | None = Field(None, max_length=2000, description="Free text.")


class ProjectRead(ReadSchema):
    id: int = Field(description="Project id.", examples=[1])
    name: str = Field(description="Project name.", examples=["Demo hall"])
    description: str = Field(description="Free text.")
    created_at: datetime = Field(description="When it was created.")
    version: int = Field(description="Version for `If-Match`.", examples=[1])
    role: Role | None = Field(None, description="Your role in this project.")


class MemberUpdate(Schema):
    role: Role = Field(description="The new role.")


class MemberRead(BaseModel):
    user_id: int = Field(description="User id.")
    email: str = Field(description="User email.")
    display_name: str = Field(description="User name.")
    role: Role = Field(description="Role in the project.")
    version: int = Field(description="Version for `If-Match`.")


class AuditRead(ReadSchema):
    id: int = Field(description="Entry id (increasing).")
    at: datetime = Field(description="When the change was committed.")
    actor: str = Field(description="Who: the user's email, plus the token name for programs.")
    actor_user_id: int | None = Field(description="The acting user's id.")
    actor_token_id: int | None = Field(description="The API token used, if any.")
    action: str = Field(description="create, update, delete, bulk_create, duplicate, import, ...", examples=["update"])
    resource_type: str = Field(description="hall, row, rack, project, member, fabric, ...", examples=["rack"])
    resource_id: int | None = Field(description="Id of the changed resource.")
    before: Any = Field(description="The resource before the change (null on create).")
    after: Any = Field(description="The resource after the change (null on delete).")


class InvitationCreate(Schema):
    email: str = Field(
        min_length=3,
        max_length=320,
        pattern=r"^[^@\s]+@[^@\s]+$",
        description="The address to invite, with or without an account here (the answer is the same).",
        examples=["bob@example.com"],
    )
    role: Role = Field(description="The role the invitee gets on accepting.")


class InvitationRead(ReadSchema):
    id: int = Field(description="Invitation id.")
    email: str = Field(description="The invited address (lower case).")
    role: Role = Field(description="The role the invitee gets on accepting.")
    status: str = Field(description="`pending`, `expired`, `accepted` or `revoked`.", examples=["pending"])
    created_at: datetime = Field(description="When it was sent.")
    expires_at: datetime = Field(description="After this the link no longer works.")
    version: int = Field(description="Version for `If-Match` (revoking).")


class InvitationCreated(InvitationRead):
    token: str = Field(description="The link's secret, shown this once (only its hash is stored).")
    accept_path: str = Field(
        description="The link to hand to the invitee: this path on the editor's address. The secret is in the "
        "fragment, which browsers never send to a server.",
        examples=["/invite#lli_..."],
    )


class InvitationToken(Schema):
    token: str = Field(min_length=8, max_length=200, description="The secret from the invitation link.")


class InvitationPreviewRead(ReadSchema):
    project_name: str = Field(description="The project the link invites to.")
    email: str = Field(description="The invited address: log in or register with it to accept.")
    role: Role = Field(description="The role on accepting.")
    expires_at: datetime = Field(description="When the link stops working.")


class InvitationAccepted(ReadSchema):
    project_id: int = Field(description="The project you are now a member of.")
    project_name: str = Field(description="Its name.")
    role: Role = Field(description="Your role there.")
