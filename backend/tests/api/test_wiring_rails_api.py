"""GPU clusters through the API (issue 31): rail-optimized and rail-only plans of a stored hall of DGX
H100 class servers, with the builtin 400G leaf and spine models; bad rail options are a 422 naming
the field."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopline.settings import get_settings

SERVERS = 2 * 4 * 4  # 2 rows x 4 racks x 4 GPU servers (8U each) = 32
RAILS = 8


@pytest.fixture
def gpu_hall(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, gpu: SimpleNamespace) -> dict[str, Any]:
    """R01 and R02, 4 compute racks each of one logical rack of 4 GPU servers (the logical rack's own
    ToR stands for the front-end ToR), and a network rack (N01, N02) per row with two 64x400G spines
    at U41 and U42."""
    lr = {"servers": 4, "server_model_id": gpu.server, "ports_used": RAILS, "tor_model_id": h.cat.tor}
    spine = 0
    for i, y in ((1, 1), (2, 5)):
        body = {"name": f"R0{i}", "x_m": 1, "y_m": y, "rack_count": 4,
                "rack_template": {"rack_type_id": h.cat.rack, "logical_racks": [lr]}}  # fmt: skip
        r = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body)
        assert r.status_code == 201, r.text
        switches = []
        for u in (41, 42):
            spine += 1
            switches.append({"name": f"SP{spine}", "role": "spine", "switch_model_id": gpu.spine, "u": u})
        r = owner.post(
            f"/api/v1/rows/{r.json()['id']}/racks",
            json={"name": f"N0{i}", "role": "network", "fabric_switches": switches},
        )
        assert r.status_code == 201, r.text
    return hall


def plan(client: TestClient, hall_id: int, pattern: str, **rail: Any) -> Any:
    return client.post(
        f"/api/v1/halls/{hall_id}/wiring-plans", json={"name": pattern, "pattern": pattern, "rail": rail}
    )


def test_rail_optimized_plan(owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace, tmp_path: Path) -> None:
    """SU 8: 4 SUs x 8 rails = 32 leaves, 32 x 8 = 256 server cables; 1:1 at 400G: 8 uplinks per
    leaf, 256 leaf-spine cables, 64 on each of the 4 spines. The leaf model is stored with the plan,
    and the plan's scenario, its servers as GPU ranks, is accepted by the engine."""
    r = plan(owner, gpu_hall["id"], "rail-optimized", su_size=8, leaf_model_id=gpu.leaf, oversubscription=1)
    assert r.status_code == 201, r.text
    body = r.json()
    s = body["summary"]
    assert (s["servers"], s["tors"]) == (SERVERS, 32)
    assert s["by_class"]["server_tor"]["count"] == SERVERS * RAILS
    assert s["by_class"]["tor_fabric"]["count"] == 32 * 8
    rail = body["spec"]["rail"]
    assert (rail["su_size"], rail["oversubscription"], rail["leaf_model_id"]) == (8, 1, gpu.leaf)
    assert rail["leaf"] == {"name": "32x400G+32x400G leaf", "server_ports": 32, "server_port_gbps": 400.0,
                            "uplink_ports": 32, "uplink_gbps": 400.0, "height_u": 1}  # fmt: skip

    scenario = owner.get(f"/api/v1/wiring-plans/{body['id']}/scenario").json()
    nodes = scenario["network"]["nodes"]
    leaves = [n for n in nodes if n["role"] == "tor"]
    assert sorted(n["id"] for n in leaves if n["cluster"] == 0) == sorted(f"H1.SU1.RAIL{i}" for i in range(1, 9))
    assert {n["rack"] for n in leaves} == {"H1.R01.N01", "H1.R02.N02"}
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    out = subprocess.run(
        [str(get_settings().engine_binary), "validate", str(path)], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    # each GPU server is its 8 GPU ranks and an interconnect node: 32 x 9 + 32 leaves + 4 spines; links:
    # 256 NIC cables, 256 leaf-spine cables and 256 GPU-interconnect links
    assert len(nodes) == SERVERS * 9 + 32 + 4
    assert out.stdout.startswith(f"ok: {len(nodes)} nodes ({SERVERS * RAILS} servers), {3 * 256} links")


def test_rail_only_plan(owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace) -> None:
    r = plan(owner, gpu_hall["id"], "rail-only", su_size=16, leaf_model_id=gpu.leaf)
    assert r.status_code == 201, r.text
    s = r.json()["summary"]
    assert s["tors"] == 2 * RAILS and s["cables"] == SERVERS * RAILS
    assert s["by_class"]["server_tor"]["count"] == SERVERS * RAILS
    assert s["by_class"].get("tor_fabric", {"count": 0})["count"] == 0
    assert any("share no switch" in w for w in s["warnings"])


@pytest.mark.parametrize(
    ("pattern", "rail", "field"),
    [
        ("rail-optimized", {"su_size": 0}, "rail.su_size"),  # the request's own bounds
        ("rail-optimized", {"su_size": 33}, "rail.su_size"),  # more servers than the leaf's 32 down ports
        ("rail-optimized", {"su_size": 8, "oversubscription": 3}, "rail.oversubscription"),  # 2.67 uplinks
        ("rail-optimized", {"su_size": 8, "oversubscription": 0.2}, "rail.oversubscription"),  # 40 > 32 uplinks
        ("rail-only", {"su_size": 8, "oversubscription": 1}, "rail.oversubscription"),  # no spine
        ("rail-optimized", {"su_size": 8, "leaf_model_id": 999_999}, "rail.leaf_model_id"),
        ("rail-optimized", {"su_size": 8, "spine_planes": 3}, "rail.spine_planes"),  # 4 spines
        ("rail-optimized", {"su_size": 8, "spine_planes": 0}, "rail.spine_planes"),
        ("rail-only", {"su_size": 8, "spine_planes": 2}, "rail.spine_planes"),  # no spine
    ],
)
def test_bad_rail_options_name_the_field(
    owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace, pattern: str, rail: dict[str, Any], field: str
) -> None:
    r = plan(owner, gpu_hall["id"], pattern, **{"leaf_model_id": gpu.leaf, **rail})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert ".".join(str(x) for x in detail["loc"] if x != "body") == field, detail
    listed = owner.get(f"/api/v1/projects/{gpu_hall['project_id']}/wiring-plans").json()
    assert listed["total"] == 0, "a refused plan left rows behind"


def test_rail_pattern_without_rail_options(owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace) -> None:
    r = owner.post(f"/api/v1/halls/{gpu_hall['id']}/wiring-plans", json={"name": "x", "pattern": "rail-only"})
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "rail", r.text
    r = plan(owner, gpu_hall["id"], "single-homed", su_size=8, leaf_model_id=gpu.leaf)
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "rail", r.text


def test_another_users_switch_is_no_leaf(
    owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace, h: SimpleNamespace
) -> None:
    """A leaf model must be one the project may use: another user's own entry is unknown to it."""
    other = h.client("other@example.com")
    r = other.post(
        "/api/v1/catalog/switch-models",
        json={"name": "mine", "server_ports": 32, "server_port_gbps": 400, "uplink_ports": 32, "uplink_gbps": 400},
    )
    assert r.status_code == 201, r.text
    r = plan(owner, gpu_hall["id"], "rail-optimized", su_size=8, leaf_model_id=r.json()["id"])
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "rail.leaf_model_id", r.text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pattern=st.sampled_from(["rail-optimized", "rail-only"]),
    su_size=st.sampled_from([1, 2, 4, 8, 16, 32]) | st.integers(-2, 5000),
    ratio=st.none() | st.sampled_from([0.5, 1, 2, 4, 8]) | st.floats(allow_nan=True, allow_infinity=True),
    ports=st.none() | st.integers(0, 20),
)
def test_any_rail_request_is_built_or_refused_naming_a_field(
    owner: TestClient,
    gpu_hall: dict[str, Any],
    gpu: SimpleNamespace,
    pattern: str,
    su_size: int,
    ratio: float | None,
    ports: int | None,
) -> None:
    """Whatever SU size, ratio and rail count are sent, the answer is a plan or a 422 naming a field."""
    rail = {"su_size": su_size, "leaf_model_id": gpu.leaf, "oversubscription": ratio}
    body = json.dumps({"name": "f", "pattern": pattern, "ports": ports, "rail": rail}, allow_nan=True)
    r = owner.post(
        f"/api/v1/halls/{gpu_hall['id']}/wiring-plans", content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code in (201, 422), r.text
    if r.status_code == 422:
        assert r.json()["detail"][0]["loc"], r.text


def test_a_rail_plan_exports_and_reports_like_any_plan(
    owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace
) -> None:
    """The rail leaves are plan devices in the network racks: the wiring sheet names them at their
    rack and U, and the BOM, NetBox, facility and render answer for the plan."""
    body = plan(owner, gpu_hall["id"], "rail-optimized", su_size=8, leaf_model_id=gpu.leaf).json()
    pid = body["id"]
    sheet = owner.get(f"/api/v1/wiring-plans/{pid}/exports/wiring-sheet.csv")
    assert sheet.status_code == 200, sheet.text
    rows = list(csv.DictReader(io.StringIO(sheet.text)))
    assert len(rows) == body["summary"]["cables"]
    # SU 1's rail 1 leaf sits at U1 of R01's network rack N01: the 8 servers of SU 1 reach it on their p1.
    su1_rail1 = [r for r in rows if (r["b_row"], r["b_rack"], r["b_u"]) == ("R01", "N01", "1") and r["a_port"] == "p1"]
    assert sorted(r["b_port"] for r in su1_rail1) == sorted(f"e{j}" for j in range(1, 9))
    for path in ("bom", "render", "exports/netbox.zip", "exports/labels.pdf?row=R01", "exports/pull-list.csv"):
        r = owner.get(f"/api/v1/wiring-plans/{pid}/{path}")
        assert r.status_code == 200, (path, r.text[:300])
    r = owner.get(f"/api/v1/halls/{gpu_hall['id']}/facility", params={"plan_id": pid})
    assert r.status_code == 200, r.text


def test_a_rail_plans_leaves_draw_weigh_and_count_in_their_racks(
    owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace
) -> None:
    """The layout holds no rail leaf: the plan mounts them (SU 8: 4 SUs x 8 rails; R01's two SUs' 16
    leaves in N01). Their catalog facts count on N01, in the facility report and the plan's totals, and
    a change to those facts is seen at once (the cached totals' fingerprint holds the leaf model)."""
    facts = {"typical_w": 1000, "max_w": 1500, "weight_kg": 14.5, "source": "test figures"}
    leaf = {"name": "Own leaf", "server_ports": 32, "server_port_gbps": 400, "uplink_ports": 32, "uplink_gbps": 400}
    r = owner.post("/api/v1/catalog/switch-models", json={**leaf, **facts})
    assert r.status_code == 201, r.text
    leaf_id, leaf_etag = r.json()["id"], r.headers["ETag"]
    r = plan(owner, gpu_hall["id"], "rail-only", su_size=8, leaf_model_id=leaf_id)
    assert r.status_code == 201, r.text
    plan_id = r.json()["id"]

    def n01() -> dict[str, Any]:
        report = owner.get(f"/api/v1/halls/{gpu_hall['id']}/facility", params={"plan_id": plan_id}).json()
        return dict(next(x for x in report["racks"] if x["rack"] == "N01"))

    def totals() -> dict[str, Any]:
        return dict(owner.get(f"/api/v1/wiring-plans/{plan_id}").json()["summary"]["facility"])

    before, totals_before = n01(), totals()
    r = owner.patch(
        f"/api/v1/catalog/switch-models/{leaf_id}",
        json={"typical_w": 1200, "max_w": 2000, "weight_kg": 20},
        headers={"If-Match": leaf_etag},
    )
    assert r.status_code == 200, r.text
    after, totals_after = n01(), totals()
    assert after["typical_w"] - before["typical_w"] == pytest.approx(16 * 200)
    assert after["max_w"] - before["max_w"] == pytest.approx(16 * 500)
    assert after["weight_kg"] - before["weight_kg"] == pytest.approx(16 * 5.5)
    assert totals_after["max_w"] - totals_before["max_w"] == pytest.approx(32 * 500)
    assert totals_after["weight_kg"] - totals_before["weight_kg"] == pytest.approx(32 * 5.5)
    # without the plan, N01 holds its two spines alone
    bare = owner.get(f"/api/v1/halls/{gpu_hall['id']}/facility").json()
    assert next(x for x in bare["racks"] if x["rack"] == "N01")["max_w"] < before["max_w"] - 16 * 1500 + 1e-6


def test_two_spine_planes(owner: TestClient, gpu_hall: dict[str, Any], gpu: SimpleNamespace) -> None:
    """SP1, SP2 serve the odd rails (1, 3, 5, 7: plane 0), SP3, SP4 the even ones; the option is
    stored with the plan."""
    r = plan(owner, gpu_hall["id"], "rail-optimized", su_size=8, leaf_model_id=gpu.leaf, spine_planes=2)
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["spec"]["rail"]["spine_planes"] == 2
    network = owner.get(f"/api/v1/wiring-plans/{body['id']}/scenario").json()["network"]
    spines = {n["id"] for n in network["nodes"] if n["role"] == "spine"}
    rails_of: dict[str, set[int]] = {}
    for link in network["links"]:
        leaf, spine = (link["a"], link["b"]) if link["b"] in spines else (link["b"], link["a"])
        if spine in spines:
            rails_of.setdefault(spine, set()).add(int(leaf.rsplit("RAIL", 1)[1]))
    assert rails_of == {"H1.SP1": {1, 3, 5, 7}, "H1.SP2": {1, 3, 5, 7}, "H1.SP3": {2, 4, 6, 8}, "H1.SP4": {2, 4, 6, 8}}
