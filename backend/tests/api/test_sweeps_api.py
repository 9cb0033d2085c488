"""Sweeps over HTTP without a worker: the grid's points (order, parameters), downloads, cancel and
permissions. (Running them over two real workers: worker/tests/test_sweeps.py.)"""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from loopline.db.models import JobStatus, SweepPoint


def test_a_sweep_lists_its_points_downloads_and_cancels(owner: TestClient, hall: dict[str, Any]) -> None:
    body = {"name": "g", "base": {"workload": "poisson", "flows": 500}, "grid": {"ports": [1, 2], "seed": [7, 8, 9]}}
    r = owner.post(f"/api/v1/halls/{hall['id']}/sweeps", json=body)
    assert r.status_code == 202, r.text
    sweep = r.json()
    assert (sweep["status"], sweep["points_total"], sweep["points_by_status"]["queued"]) == ("queued", 6, 6)
    assert [(p["params"]["ports"], p["params"]["seed"]) for p in sweep["points"]] == [
        (1, 7), (1, 8), (1, 9), (2, 7), (2, 8), (2, 9),
    ]  # fmt: skip
    first = sweep["points"][0]["params"]
    assert (first["workload"], first["flows"], first["pattern"], first["routing"]) == (
        "poisson",
        500,
        "single-homed",
        "ecmp",
    )
    listed = owner.get(f"/api/v1/projects/{hall['project_id']}/sweeps").json()
    assert [s["id"] for s in listed["items"]] == [sweep["id"]] and "points" not in listed["items"][0]
    rows = list(csv.reader(io.StringIO(owner.get(f"/api/v1/sweeps/{sweep['id']}/points.csv").text)))
    assert rows[0][:3] == ["index", "status", "pattern"] and len(rows) == 7
    assert [r[0] for r in rows[1:]] == ["0", "1", "2", "3", "4", "5"]
    j = owner.get(f"/api/v1/sweeps/{sweep['id']}.json")
    assert (
        j.status_code == 200 and j.headers["content-disposition"] == f'attachment; filename="sweep-{sweep["id"]}.json"'
    )
    assert len(j.json()["points"]) == 6
    r = owner.post(f"/api/v1/sweeps/{sweep['id']}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert r.json()["points_by_status"]["cancelled"] == 6
    assert owner.post(f"/api/v1/sweeps/{sweep['id']}/cancel").status_code == 409


def test_sweeps_need_sim_scopes_and_membership(owner: TestClient, hall: dict[str, Any], app: Any) -> None:
    sweep = owner.post(f"/api/v1/halls/{hall['id']}/sweeps", json={"name": "g", "grid": {"seed": [1]}}).json()

    def token(*scopes: str) -> dict[str, str]:
        r = owner.post("/api/v1/tokens", json={"name": "t", "scopes": list(scopes)})
        return {"Authorization": f"Bearer {r.json()['token']}"}

    anon = TestClient(app)
    reader, writer = token("sim:read"), token("sim:read", "sim:write")
    url = f"/api/v1/sweeps/{sweep['id']}"
    assert anon.get(url, headers=reader).status_code == 200
    assert anon.get(f"{url}/points.csv", headers=reader).status_code == 200
    assert anon.get(url, headers=token("wiring:read")).status_code == 403
    assert anon.get(url).status_code == 401
    create = f"/api/v1/halls/{hall['id']}/sweeps"
    assert anon.post(create, json={"name": "g", "grid": {"seed": [1]}}, headers=reader).status_code == 403
    assert anon.post(f"{url}/cancel", headers=reader).status_code == 403
    assert anon.post(create, json={"name": "g", "grid": {"seed": [1]}}, headers=writer).status_code == 202
    stranger = TestClient(app)
    stranger.post(
        "/api/v1/auth/register", json={"email": "x@example.com", "password": "a long password", "display_name": "x"}
    )
    stranger.post("/api/v1/auth/login", json={"email": "x@example.com", "password": "a long password"})
    assert stranger.get(url).status_code == 404


def test_a_points_cost_follows_the_price_book_the_moment_it_is_saved(
    owner: TestClient, hall: dict[str, Any], db_session: Session
) -> None:
    """A finished point keeps its materials, not prices: reading it prices them with the book as it is.
    The point needs 10 DAC-25G cables of 2 m and 3 ToRs. Default book: a DAC-25G is 15 x 1.5 + 3 x 1.5
    per metre = 22.5 + 9 = 31.5 (x 10 = 315), the ToR has no price. The project's book then sets the
    ToR at 9,000 and the DAC-25G at 10 + 2 per metre (= 14): 3 x 9,000 + 10 x 14 = 27,140, complete."""
    r = owner.post(f"/api/v1/halls/{hall['id']}/sweeps", json={"name": "g", "grid": {"seed": [1]}})
    assert r.status_code == 202, r.text
    sweep = r.json()
    point = db_session.query(SweepPoint).filter_by(sweep_id=sweep["id"]).one()
    materials = [["cable", "DAC-25G", 2000, "copper", 10], ["switch", "48x25G+8x100G ToR", None, None, 3]]
    point.status = JobStatus.SUCCEEDED
    point.figures = {"materials": materials, "cables": 10, "job_completion_s": 0.5, "outcome": "complete"}
    db_session.flush()

    def cost() -> tuple[Any, ...]:
        f = owner.get(f"/api/v1/sweeps/{sweep['id']}").json()["points"][0]["figures"]
        rows = list(csv.DictReader(io.StringIO(owner.get(f"/api/v1/sweeps/{sweep['id']}/points.csv").text)))
        assert "materials" not in f and rows[0]["cost_total"] == str(f["cost_total"])
        return f["cost_total"], f["currency"], f["cost_complete"], f["cost_unpriced"], f["price_book_version"]

    assert cost() == (315.0, "USD", False, ["48x25G+8x100G ToR"], None)
    upsert = [
        {"part_number": "48x25G+8x100G ToR", "category": "switch", "base_price": 9000},
        {"part_number": "DAC-25G", "category": "cable", "base_price": 10, "per_metre": 2},
    ]
    r = owner.patch(
        f"/api/v1/projects/{hall['project_id']}/price-book", json={"upsert": upsert}, headers={"If-Match": '"0"'}
    )
    assert r.status_code == 200, r.text
    assert cost() == (27_140.0, "USD", True, [], 1)
