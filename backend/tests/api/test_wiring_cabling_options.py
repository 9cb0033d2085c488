"""A plan's cabling options through the API (issue 29): structured cabling, its settings and
breakouts are taken, stored with the plan, and refused with the field named when they do not go."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient


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
