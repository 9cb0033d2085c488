"""A stored plan as the engine's scenario (`domain.scenario.build_scenario`): one source of truth
for the topology."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from loopline.db.models.wiring import WiringPlanRow
from loopline.domain.scenario import build_scenario
from loopline.services.wiring_storage import load_plan


def scenario(session: Session, plan: WiringPlanRow) -> dict[str, Any]:
    return build_scenario(load_plan(session, plan), name=plan.name)
