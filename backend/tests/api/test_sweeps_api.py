"""Sweeps over HTTP without a worker: the grid's points (order, parameters), downloads, cancel and
permissions. (Running them over two real workers: worker/tests/test_sweeps.py.)"""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi.testclient import TestClient


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
