"""`GET /halls/{id}/validation` reports fabric port exhaustion per layer (the demo hall + two rows).

The demo hall: 4 rows x 12 compute racks x 2 logical racks = 96 ToRs, 4 x 100G uplinks each, 8 spines
of 64 downlink ports (the seed's "64x100G spine"). Two more rows of 10 racks add 40 ToRs: 136 x 4 = 544
uplinks; ToR k cables spines 4k..4k+3 (mod 8), so every spine needs 544 / 8 = 68 of its 64 ports, and
the wiring generator refuses every pattern with "... has 64 downlink ports, too few".
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import Hall, Project
from loopline.domain.errors import DomainError
from loopline.domain.wiring import Pattern, generate_plan
from loopline.seed import DEMO_PROJECT, seed
from loopline.services.layout_snapshot import load_fabric, load_hall
from loopline.services.wiring_spec import PlanOptions, wiring_spec


def demo(app: Any, db_session: Session) -> tuple[TestClient, int]:
    seed(db_session)
    db_session.commit()
    hall_id = db_session.execute(select(Hall.id).join(Project).where(Project.name == DEMO_PROJECT)).scalar_one()
    client = TestClient(app)
    r = client.post("/api/v1/auth/login", json={"email": "demo@loopline.local", "password": "loopline-demo"})
    assert r.status_code == 200, r.text
    return client, hall_id


def add_row(client: TestClient, hall_id: int, h: SimpleNamespace, name: str, x: float, front: str) -> None:
    # Along +y at the free east side of the hall (x 10.4..14 m), racks extending to -x.
    racks = [{**h.template(), "name": f"{name}-{i + 1:02d}", "position_m": i * 0.6} for i in range(10)]
    body = {"name": name, "x_m": x, "y_m": 1.0, "direction": 90, "front": front, "racks": racks}
    r = client.post(f"/api/v1/halls/{hall_id}/rows", json=body)
    assert r.status_code == 201, r.text


def test_demo_hall_spines_have_room(app: Any, db_session: Session, h: SimpleNamespace) -> None:
    client, hall_id = demo(app, db_session)
    v = client.get(f"/api/v1/halls/{hall_id}/validation").json()
    tor, spine = v["fabric_ports"]
    assert (tor["layer"], tor["direction"], tor["switches"], tor["ports_needed"], tor["ports_available"]) == (
        "tor",
        "uplink",
        96,
        384,
        96 * 8,
    )
    assert (spine["layer"], spine["switches"], spine["ports_needed"], spine["ports_available"]) == (
        "spine",
        8,
        384,
        512,
    )
    assert (spine["busiest"], spine["busiest_needed"], spine["busiest_available"], spine["short"]) == (
        "SP1",
        48,
        64,
        False,
    )
    assert [w for w in v["warnings"] if w["code"] == "fabric_ports_short"] == []
    # Oversubscription per layer is in the same report: 30 servers x 2 x 25G over 4 x 100G per ToR.
    assert [(o["layer"], o["ratio"]) for o in v["oversubscription"]] == [("tor", 1.875), ("spine", None)]


def test_two_more_rows_exhaust_the_spines_before_generate(app: Any, db_session: Session, h: SimpleNamespace) -> None:
    client, hall_id = demo(app, db_session)
    add_row(client, hall_id, h, "R05", 11.6, "right")
    add_row(client, hall_id, h, "R06", 14.0, "left")
    v = client.get(f"/api/v1/halls/{hall_id}/validation").json()
    assert v["errors"] == []
    spine = v["fabric_ports"][1]
    assert (spine["ports_needed"], spine["ports_available"], spine["busiest_needed"], spine["busiest_available"]) == (
        544,
        512,
        68,
        64,
    )
    assert spine["short"] is True
    short = [w for w in v["warnings"] if w["code"] == "fabric_ports_short"]
    assert len(short) == 1
    assert short[0]["field"] == "fabric.spines"
    assert "136 ToRs x 4 uplinks need 544 spine ports, the 8 spines have 512" in short[0]["message"]
    assert "SP1 needs 68 of its 64" in short[0]["message"]
    # The generator agrees, whatever the pattern: it stops on a spine's downlink ports.
    hall = load_hall(db_session, hall_id)
    fabric = load_fabric(db_session, db_session.get(Hall, hall_id).project_id)  # type: ignore[union-attr]
    for pattern in (Pattern.SINGLE_HOMED, Pattern.MC_LAG, Pattern.SIDE_TO_SIDE):
        with pytest.raises(DomainError, match="has 64 downlink ports, too few"):
            generate_plan(hall, wiring_spec(PlanOptions(name="p", pattern=pattern), fabric))
