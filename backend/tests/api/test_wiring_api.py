"""Wiring plans through the API on a stored hall: generate, store, filter cables, routes, diff, scenario."""

from __future__ import annotations

import json
import subprocess
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.domain.cable_routes import polyline_length_mm
from loopline.settings import get_settings

SERVERS = 2 * 4 * 2 * 15  # 2 rows x 4 racks x b=2 logical racks x r=15 servers = 240
TORS = 2 * 4 * 2  # one per logical rack = 16
UPLINKS = TORS * 4  # leaf-spine, 4 uplinks per ToR (project default) = 64


@pytest.fixture
def paired_hall(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """R01/R02 facing across a 1.2 m cold aisle, 4 racks each (b=2, r=15, 2x25G), spines at the end of R01."""
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "cold_aisle_m": 1.2, "rack_count": 4,
              "rack_template": h.template()},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    r01 = r.json()["rows"][0]
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in range(1, 5)
    ]}  # fmt: skip
    r = owner.post(f"/api/v1/rows/{r01['id']}/racks", json=net)
    assert r.status_code == 201, r.text
    return hall


def create_plan(client: TestClient, hall_id: int, **body: Any) -> Any:
    return client.post(f"/api/v1/halls/{hall_id}/wiring-plans", json={"name": "plan", **body})


def all_cables(client: TestClient, plan_id: int, **params: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    page = 1
    while True:
        r = client.get(f"/api/v1/wiring-plans/{plan_id}/cables", params={"page": page, "limit": 500, **params})
        assert r.status_code == 200, r.text
        body = r.json()
        items += body["items"]
        if len(items) >= body["total"]:
            return items
        page += 1


def test_paired_row_plan_is_generated_and_stored(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    r = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=2)
    assert r.status_code == 201, r.text
    plan = r.json()
    s = plan["summary"]
    assert (s["servers"], s["tors"]) == (SERVERS, TORS)
    # p = 2: two server-ToR cables per server, plus the ToR uplinks.
    assert s["by_class"]["server_tor"]["count"] == 2 * SERVERS
    assert s["by_class"]["tor_fabric"]["count"] == UPLINKS
    assert s["cables"] == 2 * SERVERS + UPLINKS
    # One loop over the row pair: all 16 logical racks.
    assert len(plan["loops"]) == 1 and len(plan["loops"][0]["logical_racks"]) == TORS
    assert r.headers["etag"] == '"1"'

    cables = all_cables(owner, plan["id"])
    assert len(cables) == s["cables"]
    assert len({c["cable_id"] for c in cables}) == len(cables)
    ports = [(c[end]["device"], c[end]["port"]) for c in cables for end in ("a", "b")]
    assert len(set(ports)) == len(ports), "a port is used twice"
    assert max(c["raw_length_m"] for c in cables) == s["max_raw_length_m"]
    for c in cables:
        assert c["raw_length_m"] <= c["length_with_slack_m"] <= c["ordered_length_m"]
        assert c["label"] == f"{c['a']['device']}:{c['a']['port']} / {c['b']['device']}:{c['b']['port']}"


def test_cable_filters_page_and_select(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    plan = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=2).json()
    everything = all_cables(owner, plan["id"])
    url = f"/api/v1/wiring-plans/{plan['id']}/cables"

    first = owner.get(url, params={"limit": 7, "page": 2}).json()
    assert (first["total"], first["page"], first["limit"]) == (len(everything), 2, 7)
    assert [c["cable_id"] for c in first["items"]] == [c["cable_id"] for c in everything[7:14]]

    assert owner.get(url, params={"link_class": "tor_fabric"}).json()["total"] == UPLINKS
    by_medium = {m: owner.get(url, params={"medium": m, "limit": 1}).json()["total"] for m in plan["summary"]["media"]}
    assert by_medium == plan["summary"]["media"]

    lo, hi = 1.0, 3.0
    expected = [c["cable_id"] for c in everything if lo <= c["raw_length_m"] <= hi]
    got = all_cables(owner, plan["id"], min_length_m=lo, max_length_m=hi)
    assert [c["cable_id"] for c in got] == expected and expected

    in_row = [c["cable_id"] for c in everything if "R02" in (c["a"]["row"], c["b"]["row"])]
    assert [c["cable_id"] for c in all_cables(owner, plan["id"], row="R02")] == in_row
    in_rack = [c["cable_id"] for c in everything if "H1.R01.K02" in (c["a"]["rack"], c["b"]["rack"])]
    assert [c["cable_id"] for c in all_cables(owner, plan["id"], rack="H1.R01.K02")] == in_rack

    r = owner.get(url, params={"medium": "copper-ish"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "medium"]


def test_routes_are_as_long_as_the_routed_length(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    plan = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=2).json()
    page = owner.get(f"/api/v1/wiring-plans/{plan['id']}/cables", params={"include_route": True, "limit": 200}).json()[
        "items"
    ]
    for c in page:
        mm = [(round(x * 1000), round(y * 1000), round(z * 1000)) for x, y, z in c["route"]]
        assert polyline_length_mm(mm) == round(c["raw_length_m"] * 1000), c["label"]

    response = owner.get(f"/api/v1/wiring-plans/{plan['id']}/render", headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    buffers = response.json()
    n = plan["summary"]["cables"]
    assert len(buffers["cable_ids"]) == n and len(buffers["offsets"]) == n + 1
    assert buffers["offsets"][-1] * 3 == len(buffers["points"])
    pts = buffers["points"]
    for i in range(n):
        start, end = buffers["offsets"][i], buffers["offsets"][i + 1]
        route = [tuple(pts[3 * k : 3 * k + 3]) for k in range(start, end)]
        assert polyline_length_mm(route) == buffers["raw_length_mm"][i]  # type: ignore[arg-type]


def test_subways_upgrade_from_one_to_two_ports_moves_no_cable(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    old = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=1).json()
    assert old["summary"]["cables"] == SERVERS + UPLINKS
    r = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=2, upgrade_from_plan_id=old["id"])
    assert r.status_code == 201, r.text
    new = r.json()
    # Every existing cable stays; each server gains one cable to a neighbour's ToR; no new hardware.
    assert new["diff"]["kept"] == SERVERS + UPLINKS
    assert new["diff"]["added"] == SERVERS
    assert (new["diff"]["moved"], new["diff"]["removed"]) == (0, 0)
    assert new["base_plan_id"] == old["id"]
    diff = owner.get(f"/api/v1/wiring-plans/{new['id']}/diff", params={"against": old["id"]}).json()
    assert diff["counts"]["moved"] == 0 and len(diff["added"]) == SERVERS


def test_a_plan_that_does_not_fit_is_refused_with_the_field(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    # 16 logical racks per row pair: loops of 5 do not divide them.
    r = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=2, loop=5)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"] == "loop"
    r = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=0)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "ports"]
    listed = owner.get(f"/api/v1/projects/{paired_hall['project_id']}/wiring-plans").json()
    assert listed["total"] == 0, "a refused plan left rows behind"


def test_scenario_export_is_accepted_by_the_engine(
    owner: TestClient, paired_hall: dict[str, Any], tmp_path: Any
) -> None:
    plan = create_plan(owner, paired_hall["id"], pattern="paired-row", ports=2).json()
    scenario = owner.get(f"/api/v1/wiring-plans/{plan['id']}/scenario").json()
    nodes = scenario["network"]["nodes"]
    assert sum(n["role"] == "server" for n in nodes) == SERVERS
    tors = [n for n in nodes if n["role"] == "tor"]
    assert sorted(t["loop_position"] for t in tors) == list(range(TORS))
    assert len(scenario["network"]["links"]) == plan["summary"]["cables"]
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    out = subprocess.run(
        [str(get_settings().engine_binary), "validate", str(path)], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"ok: {len(nodes)} nodes ({SERVERS} servers)")


def test_permissions_and_versions(owner: TestClient, paired_hall: dict[str, Any], h: SimpleNamespace) -> None:
    project = paired_hall["project_id"]
    viewer = h.client("viewer@example.com")
    h.join(owner, viewer, project, "viewer@example.com", "viewer")
    plan = create_plan(owner, paired_hall["id"], pattern="single-homed").json()

    assert viewer.get(f"/api/v1/wiring-plans/{plan['id']}").status_code == 200
    assert create_plan(viewer, paired_hall["id"], pattern="single-homed").status_code == 403
    assert TestClient(h.app).get(f"/api/v1/wiring-plans/{plan['id']}").status_code == 401
    stranger = h.client("stranger@example.com")
    assert stranger.get(f"/api/v1/wiring-plans/{plan['id']}").status_code == 404

    token = owner.post("/api/v1/tokens", json={"name": "ro", "scopes": ["wiring:read"]}).json()["token"]
    bearer = TestClient(h.app, headers={"Authorization": f"Bearer {token}"})
    assert bearer.get(f"/api/v1/wiring-plans/{plan['id']}/cables").status_code == 200
    assert create_plan(bearer, paired_hall["id"], pattern="single-homed").status_code == 403

    url = f"/api/v1/wiring-plans/{plan['id']}"
    assert owner.patch(url, json={"name": "renamed"}, headers={"If-Match": '"1"'}).json()["version"] == 2
    stale = owner.patch(url, json={"name": "again"}, headers={"If-Match": '"1"'})
    assert stale.status_code == 409
    assert owner.delete(url, headers={"If-Match": '"2"'}).status_code == 204
    assert owner.get(url).status_code == 404
    audit = owner.get(f"/api/v1/projects/{project}/audit").json()["items"]
    assert [(e["action"], e["resource_type"]) for e in audit[:3]] == [
        ("delete", "wiring_plan"),
        ("update", "wiring_plan"),
        ("create", "wiring_plan"),
    ]
