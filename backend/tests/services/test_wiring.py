"""The demo hall a new user opens can be wired with every pattern, spines evenly loaded."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import Hall, Project
from loopline.domain.wiring import LinkClass, generate_plan
from loopline.seed import DEMO_PROJECT, seed
from loopline.services.layout_snapshot import load_fabric, load_hall
from loopline.services.wiring_spec import PlanOptions, geometry_for, wiring_spec


@pytest.mark.parametrize(
    "request_body",
    [
        {"pattern": "single-homed"},
        {"pattern": "mc-lag", "ports": 2},
        {"pattern": "side-to-side", "ports": 2},
        {"pattern": "paired-row", "ports": 2},
        {"pattern": "inter-chassis", "ports": 2},
    ],
)
def test_every_pattern_wires_the_demo_hall(db_session: Session, request_body: dict[str, object]) -> None:
    seed(db_session)
    hall_row = db_session.execute(select(Hall).join(Project).where(Project.name == DEMO_PROJECT)).scalar_one()
    request = PlanOptions.from_json({"name": "demo", **request_body})
    hall = load_hall(db_session, hall_row.id)
    plan = generate_plan(hall, wiring_spec(request, load_fabric(db_session, hall_row.project_id)),
                         geometry=geometry_for(request))  # fmt: skip
    downlinks = Counter(c.b_device for c in plan.cables if c.link_class is LinkClass.TOR_FABRIC)
    # 96 ToRs x 4 uplinks = 384 over the 8 spines (two per row's network rack): 48 each.
    assert len(downlinks) == 8
    assert set(downlinks.values()) == {48}
