"""A plan's cabling options through the API (issue 29): structured cabling, its settings and
breakouts are taken, stored with the plan, and refused with the field named when they do not go."""

from __future__ import annotations

import json
import subprocess
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from loopline.settings import get_settings


def create(client: TestClient, hall_id: int, **body: Any) -> Any:
    return client.post(
        f"/api/v1/halls/{hall_id}/wiring-plans", json={"name": "plan", "pattern": "single-homed", **body}
    )


def plans(client: TestClient, hall: dict[str, Any]) -> int:
    return int(client.get(f"/api/v1/projects/{hall['project_id']}/wiring-plans").json()["total"])


def test_breakouts_without_structured_cabling_are_refused_naming_breakouts(
    owner: TestClient, row_hall: dict[str, Any]
) -> None:
    for body in ({"breakouts": True}, {"breakouts": True, "cabling": "direct"}):
        r = create(owner, row_hall["id"], **body)
        assert r.status_code == 422, r.text
        (error,) = r.json()["detail"]
        assert error["field"] == "breakouts"
        assert "breakouts need structured cabling" in error["msg"]
    assert plans(owner, row_hall) == 0, "a refused plan left rows behind"


def test_structured_settings_need_structured_cabling(owner: TestClient, row_hall: dict[str, Any]) -> None:
    r = create(owner, row_hall["id"], structured={"panel_at": "rack"})
    assert r.status_code == 422, r.text
    assert [e["field"] for e in r.json()["detail"]] == ["structured"]


def test_bad_settings_name_their_field(owner: TestClient, row_hall: dict[str, Any]) -> None:
    cases: list[tuple[dict[str, Any], list[str]]] = [
        ({"cabling": "patched"}, ["body", "cabling"]),
        ({"cabling": "structured", "structured": {"panel_at": "ceiling"}}, ["body", "structured", "panel_at"]),
        ({"cabling": "structured", "structured": {"lc_pair_loss_db": -0.1}}, ["body", "structured", "lc_pair_loss_db"]),
        (
            {"cabling": "structured", "structured": {"mpo_pair_loss_db": 5.5}},
            ["body", "structured", "mpo_pair_loss_db"],
        ),
        ({"cabling": "structured", "structured": {"splices": 2}}, ["body", "structured", "splices"]),
        ({"cabling": "structured", "breakouts": "yes"}, ["body", "breakouts"]),
    ]
    for body, loc in cases:
        r = create(owner, row_hall["id"], **body)
        assert r.status_code == 422, (body, r.text)
        assert [e["loc"] for e in r.json()["detail"]] == [loc], (body, r.text)
    assert plans(owner, row_hall) == 0


def test_structured_options_are_stored_with_the_plan(
    owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace
) -> None:
    structured = {"panel_at": "rack", "lc_pair_loss_db": 0.3, "mpo_pair_loss_db": None}
    plan = h.plan(owner, row_hall["id"], pattern="single-homed", cabling="structured", structured=structured,
                  breakouts=True)  # fmt: skip
    read = owner.get(f"/api/v1/wiring-plans/{plan['id']}").json()
    assert (read["spec"]["cabling"], read["spec"]["structured"], read["spec"]["breakouts"]) == (
        "structured",
        structured,
        True,
    )
    # 4 ToRs x 4 uplinks at 100G on the 64x100G spine: same speed, so no port breaks out.
    direct = h.plan(owner, row_hall["id"], name="direct", pattern="single-homed")
    assert direct["spec"]["cabling"] == "direct" and direct["spec"]["breakouts"] is False
    assert plan["summary"]["cables"] == direct["summary"]["cables"]


def test_a_breakout_plan_gives_the_engine_one_100g_link_per_lane(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, tmp_path: Any
) -> None:
    """One row of 2 racks x 2 logical racks (4 ToRs, 4 x 100G uplinks each, the project's leaf-spine
    default) and a 64 x 400G spine: with breakouts its 16 links are lanes 1-4 of ports e1..e4."""
    spine = owner.post("/api/v1/catalog/switch-models", json={
        "name": "64x400G spine", "server_ports": 64, "server_port_gbps": 400, "uplink_ports": 0, "uplink_gbps": 400,
        "height_u": 2}).json()["id"]  # fmt: skip
    lr = h.lr(servers=2, ports=1)
    row = h.row(owner, hall["id"], n=2, rack_template={"rack_type_id": h.cat.rack, "logical_racks": [lr, lr]})
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": "SP1", "role": "spine", "switch_model_id": spine, "u": 20}]}  # fmt: skip
    assert owner.post(f"/api/v1/rows/{row['id']}/racks", json=net).status_code == 201

    plan = h.plan(owner, hall["id"], pattern="single-homed", cabling="structured", breakouts=True)
    cables = owner.get(f"/api/v1/wiring-plans/{plan['id']}/cables", params={"limit": 500}).json()["items"]
    uplinks = [c for c in cables if c["link_class"] == "tor_fabric"]
    assert sorted(c["b"]["port"] for c in uplinks) == sorted(
        f"e{p}/{lane}" for p in range(1, 5) for lane in range(1, 5)
    )
    assert {c["gbps"] for c in uplinks} == {100.0}

    scenario = owner.get(f"/api/v1/wiring-plans/{plan['id']}/scenario").json()
    to_spine = [link for link in scenario["network"]["links"] if "H1.SP1" in (link["a"], link["b"])]
    assert len(to_spine) == 16 and {link["gbps"] for link in to_spine} == {100.0}
    assert len(scenario["network"]["links"]) == plan["summary"]["cables"] == len(cables)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    out = subprocess.run(
        [str(get_settings().engine_binary), "validate", str(path)], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr

    # The same hall without breakouts: 16 links on 16 whole 400G ports, at the ToRs' 100G.
    direct = h.plan(owner, hall["id"], name="direct", pattern="single-homed")
    cables = owner.get(f"/api/v1/wiring-plans/{direct['id']}/cables", params={"limit": 500}).json()["items"]
    assert sorted(c["b"]["port"] for c in cables if c["link_class"] == "tor_fabric") == sorted(
        f"e{n}" for n in range(1, 17)
    )
