"""The wiring generator (issue 4): logical wiring, physical patterns, ports, lengths, media, labels.

Entry points: `generate_plan(hall, spec)` -> `WiringPlan`; `summarize(plan)`; `diff_plans(old, new)`;
`upgrade_plan(old_plan, hall, spec)`.
"""

from loopline.domain.wiring.diff import (
    DiffStatus,
    PlanDiff,
    UpgradeMaterials,
    diff_cables,
    diff_plans,
    upgrade_materials,
    upgrade_plan,
)
from loopline.domain.wiring.generate import generate_plan
from loopline.domain.wiring.model import (
    CABLE_COLUMNS,
    DEVICE_COLUMNS,
    Cable,
    Device,
    LinkClass,
    Loop,
    Role,
    WiringPlan,
)
from loopline.domain.wiring.spec import (
    RAIL_PATTERNS,
    SUBWAYS_PATTERNS,
    FabricKind,
    FabricSpec,
    GrinScope,
    ParallelPorts,
    Pattern,
    RailSpec,
    WiringSpec,
)
from loopline.domain.wiring.summary import PlanSummary, summarize

__all__ = [
    "CABLE_COLUMNS",
    "DEVICE_COLUMNS",
    "RAIL_PATTERNS",
    "SUBWAYS_PATTERNS",
    "Cable",
    "Device",
    "DiffStatus",
    "FabricKind",
    "FabricSpec",
    "GrinScope",
    "LinkClass",
    "Loop",
    "ParallelPorts",
    "Pattern",
    "PlanDiff",
    "PlanSummary",
    "RailSpec",
    "Role",
    "UpgradeMaterials",
    "WiringPlan",
    "WiringSpec",
    "diff_cables",
    "diff_plans",
    "generate_plan",
    "summarize",
    "upgrade_materials",
    "upgrade_plan",
]
