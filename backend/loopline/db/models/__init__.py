"""All ORM models, imported here so Alembic and the app see one metadata."""

from __future__ import annotations

from loopline.db.base import Base
from loopline.db.models.accounts import ApiToken, AuthSession, User
from loopline.db.models.catalog import PduModel, RackType, ServerModel, SwitchModel
from loopline.db.models.exports import ExportCacheRow
from loopline.db.models.imports import ImportJob
from loopline.db.models.layout import (
    DeviceNaming,
    DeviceOverride,
    FabricSwitch,
    Hall,
    LogicalRack,
    Rack,
    RackFeed,
    Row,
    TrayRun,
)
from loopline.db.models.pricing import PriceBookRow, PriceBookVersionRow
from loopline.db.models.projects import AuditEntry, FabricSettingsRow, Invitation, Membership, Project, Role
from loopline.db.models.sim_flows import SimulationFlow, SimulationFlowValues
from loopline.db.models.simulation import JobStatus, SimulationJob, SimulationPart, Sweep, SweepPoint
from loopline.db.models.wiring import PlanCableRow, PlanDeviceRow, WiringPlanRow

__all__ = [
    "ApiToken",
    "AuditEntry",
    "AuthSession",
    "Base",
    "DeviceNaming",
    "DeviceOverride",
    "ExportCacheRow",
    "FabricSettingsRow",
    "FabricSwitch",
    "Hall",
    "ImportJob",
    "Invitation",
    "JobStatus",
    "LogicalRack",
    "Membership",
    "PduModel",
    "PlanCableRow",
    "PlanDeviceRow",
    "PriceBookRow",
    "PriceBookVersionRow",
    "Project",
    "Rack",
    "RackFeed",
    "RackType",
    "Role",
    "Row",
    "ServerModel",
    "SimulationFlow",
    "SimulationFlowValues",
    "SimulationJob",
    "SimulationPart",
    "Sweep",
    "SweepPoint",
    "SwitchModel",
    "TrayRun",
    "User",
    "WiringPlanRow",
]
