"""GPU halls (issue 31): `gpu_cluster` on hall creation lays out the SU rows, their network racks
and the spine racks in one transaction; the rail plans build on it; bad input names the field."""

from __future__ import annotations

import csv
import io
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def cluster(gpu: SimpleNamespace, **over: Any) -> dict[str, Any]:
    """4 SUs of 8 DGX-class servers, 4 to a rack, 32x400G leaves, 4 64x400G spines."""
    return {
        "scalable_units": 4, "servers_per_su": 8, "server_model_id": gpu.server, "servers_per_rack": 4,
        "rail_leaf_model_id": gpu.leaf, "spine_model_id": gpu.spine, "spines": 4, **over,
    }  # fmt: skip


def new_gpu_hall(client: TestClient, project: int, body: dict[str, Any], **hall: Any) -> Any:
    return client.post(
        f"/api/v1/projects/{project}/halls",
        json={"name": "G1", "width_m": 30, "depth_m": 20, "gpu_cluster": body, **hall},
    )


def test_gpu_hall_rows_and_racks(owner: TestClient, project: int, gpu: SimpleNamespace) -> None:
    """Each SU a row: 2 GPU racks of 4 servers (one logical rack, the leaf model as its ToR, p = the
    4 front-end ports) and an empty network rack; a spine row with the 4 spines at U1..U4. Rows in
    pairs across the 1.2 m cold aisle, pairs 0.9 m apart, 1.2 m from the walls."""
    r = new_gpu_hall(owner, project, cluster(gpu))
    assert r.status_code == 201, r.text
    hall = r.json()
    assert hall["kind"] == "gpu"
    layout = owner.get(f"/api/v1/halls/{hall['id']}/layout").json()
    rows = {row["name"]: row for row in layout["rows"]}
    assert sorted(rows) == ["SPINES", "SU01", "SU02", "SU03", "SU04"]
    # y: 1.2, +1.2 depth +1.2 cold, +1.2 +0.9 hot, ...
    assert [(rows[n]["x_m"], rows[n]["y_m"], rows[n]["front"]) for n in ("SU01", "SU02", "SU03", "SU04", "SPINES")] == [
        (1.2, 1.2, "left"), (1.2, 3.6, "right"), (1.2, 5.7, "left"), (1.2, 8.1, "right"), (1.2, 10.2, "left"),
    ]  # fmt: skip
    su1 = rows["SU01"]["racks"]
    assert [(k["name"], k["role"]) for k in su1] == [
        ("SU01-01", "compute"),
        ("SU01-02", "compute"),
        ("SU01-N", "network"),
    ]
    for rack in su1[:2]:
        (lr,) = rack["logical_racks"]
        assert (lr["servers"], lr["server_model_id"], lr["tor_model_id"], lr["ports_used"]) == (
            4,
            gpu.server,
            gpu.leaf,
            4,
        )
    assert su1[2]["logical_racks"] == [] and su1[2]["fabric_switches"] == []
    (spine_rack,) = rows["SPINES"]["racks"]
    assert [(s["name"], s["role"], s["u"]) for s in spine_rack["fabric_switches"]] == [
        (f"SPINE0{i}", "spine", i) for i in range(1, 5)
    ]
    assert layout["hall"]["kind"] == "gpu"
    assert [(a["kind"], a["width_m"]) for a in layout["aisles"]] == [
        ("cold", 1.2), ("hot", 0.9), ("cold", 1.2), ("hot", 0.9)
    ]  # fmt: skip
    listed = owner.get(f"/api/v1/projects/{project}/halls").json()["items"]
    assert [(x["name"], x["kind"]) for x in listed] == [("G1", "gpu")]


def test_plain_hall_is_general(owner: TestClient, hall: dict[str, Any]) -> None:
    assert hall["kind"] == "general"
    assert owner.get(f"/api/v1/halls/{hall['id']}").json()["kind"] == "general"


def test_rail_plans_on_a_gpu_hall(owner: TestClient, project: int, gpu: SimpleNamespace) -> None:
    """4 SUs x 8 rails = 32 leaves; 32 servers x 8 rails = 256 server cables. Rail-optimized 1:1:
    U = 8 servers x 400G / 400G = 8 uplinks per leaf, 32 x 8 = 256 leaf-spine cables, which fill the
    4 x 64 spine ports exactly. Rail-only: the same 256 server cables and no more."""
    hall = new_gpu_hall(owner, project, cluster(gpu)).json()
    url = f"/api/v1/halls/{hall['id']}/wiring-plans"
    rail = {"su_size": 8, "leaf_model_id": gpu.leaf, "oversubscription": 1}
    r = owner.post(url, json={"name": "ro", "pattern": "rail-optimized", "rail": rail})
    assert r.status_code == 201, r.text
    s = r.json()["summary"]
    assert (s["servers"], s["tors"]) == (32, 32)
    assert s["by_class"]["server_tor"]["count"] == 256
    assert s["by_class"]["tor_fabric"]["count"] == 256
    assert s["cables"] == 512
    scenario = owner.get(f"/api/v1/wiring-plans/{r.json()['id']}/scenario").json()
    leaves = [n for n in scenario["network"]["nodes"] if n["role"] == "tor"]
    # each SU's leaves in its own network rack
    assert {(n["cluster"], n["rack"]) for n in leaves} == {(k, f"G1.SU0{k + 1}.SU0{k + 1}-N") for k in range(4)}
    r = owner.post(url, json={"name": "rail-only", "pattern": "rail-only", "rail": {**rail, "oversubscription": None}})
    assert r.status_code == 201, r.text
    s = r.json()["summary"]
    assert (s["tors"], s["cables"], s["by_class"]["server_tor"]["count"]) == (32, 256, 256)


def test_rail_only_gpu_hall_has_no_spines(owner: TestClient, project: int, gpu: SimpleNamespace) -> None:
    r = new_gpu_hall(owner, project, cluster(gpu, spine_model_id=None, spines=0))
    assert r.status_code == 201, r.text
    layout = owner.get(f"/api/v1/halls/{r.json()['id']}/layout").json()
    assert [row["name"] for row in layout["rows"]] == ["SU01", "SU02", "SU03", "SU04"]


@pytest.mark.parametrize(
    ("over", "hall", "field"),
    [
        ({"server_model_id": "plain"}, {}, "gpu_cluster.server_model_id"),  # not a GPU server
        ({"server_model_id": 999_999}, {}, "gpu_cluster.server_model_id"),
        ({"servers_per_su": 33}, {}, "gpu_cluster.servers_per_su"),  # the leaf has 32 server ports
        ({"servers_per_rack": 6}, {}, "gpu_cluster.servers_per_rack"),  # 6 x 8U + 1U = 49U > 42U
        ({"spines": 0}, {}, "gpu_cluster.spines"),  # a spine model with no spines
        ({"spine_model_id": None, "spines": 2}, {}, "gpu_cluster.spines"),  # spines without a model
        ({"rail_leaf_model_id": 999_999}, {}, "gpu_cluster.rail_leaf_model_id"),
        ({}, {"depth_m": 12}, "depth_m"),  # the rows need 12.6 m
        ({"servers_per_su": 32}, {"width_m": 5}, "width_m"),  # 8 + 1 racks: 5.4 m + 2 x 1.2 m
        ({"scalable_units": 0}, {}, "gpu_cluster.scalable_units"),
    ],
)
def test_bad_gpu_cluster_names_the_field(
    owner: TestClient, project: int, gpu: SimpleNamespace, over: dict[str, Any], hall: dict[str, Any], field: str
) -> None:
    if over.get("server_model_id") == "plain":
        over = {"server_model_id": gpu.plain_server}
    r = new_gpu_hall(owner, project, cluster(gpu, **over), **hall)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert ".".join(str(x) for x in detail["loc"] if x != "body") == field, detail
    assert owner.get(f"/api/v1/projects/{project}/halls").json()["total"] == 0, "a refused hall was stored"


def test_front_end_plan_is_a_network_of_its_own(owner: TestClient, project: int, gpu: SimpleNamespace) -> None:
    """The same GPU hall wired twice: the compute fabric (rail-optimized, NICs p1..p8) and the front-end
    fabric (single-homed: each server's 4 front-end NICs f1..f4 to its rack's ToR). 32 servers x 4 =
    128 front-end cables on 8 ToRs (one per GPU rack); no server port is in both plans, each plan's BOM
    holds its own switches, and the front-end plan says its ToR uplinks are not wired."""
    hall = new_gpu_hall(owner, project, cluster(gpu)).json()
    url = f"/api/v1/halls/{hall['id']}/wiring-plans"
    rail = {"su_size": 8, "leaf_model_id": gpu.leaf, "oversubscription": 1}
    compute = owner.post(url, json={"name": "compute", "pattern": "rail-optimized", "rail": rail})
    front = owner.post(url, json={"name": "front", "pattern": "single-homed", "fabric": "front_end"})
    assert compute.status_code == 201 and front.status_code == 201, front.text
    assert (compute.json()["spec"]["fabric"], front.json()["spec"]["fabric"]) == ("compute", "front_end")
    s = front.json()["summary"]
    assert (s["servers"], s["tors"], s["cables"], s["by_class"]["server_tor"]["count"]) == (32, 8, 128, 128)
    assert any(w.startswith("front-end: the ToR uplinks are not wired") for w in s["warnings"])

    def server_ports(plan_id: int) -> set[tuple[str, str]]:
        sheet = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/wiring-sheet.csv").text
        rows = list(csv.DictReader(io.StringIO(sheet)))
        # a server's end: its NIC port (p<n> or f<n>); switch ports are e<n>
        return {(r["a_rack"], r["a_u"], r["a_port"]) for r in rows if not r["a_port"].startswith("e")}

    cp, fp = server_ports(compute.json()["id"]), server_ports(front.json()["id"])
    assert len(cp) == 256 and len(fp) == 128 and not cp & fp
    assert {p for *_, p in cp} == {f"p{i}" for i in range(1, 9)} and {p for *_, p in fp} == {"f1", "f2", "f3", "f4"}

    def switches(plan_id: int) -> dict[str, int]:
        bom = owner.get(f"/api/v1/wiring-plans/{plan_id}/bom").json()
        return {line["description"]: line["quantity"] for line in bom["lines"] if line["category"] == "switch"}

    # compute: 32 rail leaves (the spines are the layout's, in both plans' racks but wired by compute only)
    assert switches(compute.json()["id"]) == {"32x400G+32x400G leaf": 32, "64x400G 1U spine": 4}
    assert switches(front.json()["id"]) == {"32x400G+32x400G leaf": 8}
    listed = owner.get(f"/api/v1/projects/{project}/wiring-plans").json()
    assert sorted(p["spec"]["fabric"] for p in listed["items"]) == ["compute", "front_end"]


def test_front_end_takes_no_rail_pattern(owner: TestClient, project: int, gpu: SimpleNamespace) -> None:
    hall = new_gpu_hall(owner, project, cluster(gpu)).json()
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/wiring-plans",
        json={
            "name": "x",
            "pattern": "rail-only",
            "fabric": "front_end",
            "rail": {"su_size": 8, "leaf_model_id": gpu.leaf},
        },
    )
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "fabric", r.text


def test_front_end_spines_carry_the_front_end_uplinks(owner: TestClient, project: int, gpu: SimpleNamespace) -> None:
    """With 2 front-end spines (network front_end, stacked after the 4 compute spines at U5, U6): the
    front-end plan's 8 ToRs go up to them with the project's 4 uplinks each (leaf-spine): 32 uplinks, 16
    a spine; the compute plan's 32 leaves x 8 uplinks still fill the 4 compute spines' 256 ports, and
    neither plan holds the other's spines."""
    body = cluster(gpu, frontend_spine_model_id=gpu.spine, frontend_spines=2)
    hall = new_gpu_hall(owner, project, body).json()
    layout = owner.get(f"/api/v1/halls/{hall['id']}/layout").json()
    (spine_rack,) = next(r for r in layout["rows"] if r["name"] == "SPINES")["racks"]
    assert [(s["name"], s["u"], s["network"]) for s in spine_rack["fabric_switches"]] == [
        ("SPINE01", 1, "compute"), ("SPINE02", 2, "compute"), ("SPINE03", 3, "compute"), ("SPINE04", 4, "compute"),
        ("FESPINE01", 5, "front_end"), ("FESPINE02", 6, "front_end"),
    ]  # fmt: skip
    url = f"/api/v1/halls/{hall['id']}/wiring-plans"
    rail = {"su_size": 8, "leaf_model_id": gpu.leaf, "oversubscription": 1}
    compute = owner.post(url, json={"name": "compute", "pattern": "rail-optimized", "rail": rail})
    front = owner.post(url, json={"name": "front", "pattern": "single-homed", "fabric": "front_end"})
    assert compute.status_code == 201 and front.status_code == 201, front.text
    c, f = compute.json()["summary"], front.json()["summary"]
    assert (c["by_class"]["server_tor"]["count"], c["by_class"]["tor_fabric"]["count"]) == (256, 256)
    assert (f["by_class"]["server_tor"]["count"], f["by_class"]["tor_fabric"]["count"]) == (128, 32)
    assert not any(w.startswith("front-end:") for w in f["warnings"])
    sheet = owner.get(f"/api/v1/wiring-plans/{front.json()['id']}/exports/wiring-sheet.csv").text
    ups = [r for r in csv.DictReader(io.StringIO(sheet)) if r["b_rack"] == "SPINES-01"]
    assert sorted(Counter(r["b_u"] for r in ups).items()) == [("5", 16), ("6", 16)]
    sheet = owner.get(f"/api/v1/wiring-plans/{compute.json()['id']}/exports/wiring-sheet.csv").text
    ups = [r for r in csv.DictReader(io.StringIO(sheet)) if r["b_rack"] == "SPINES-01"]
    assert sorted(Counter(r["b_u"] for r in ups).items()) == [(str(u), 64) for u in (1, 2, 3, 4)]


def test_a_gpu_hall_exports_and_imports_with_its_networks(
    owner: TestClient, project: int, gpu: SimpleNamespace
) -> None:
    """Export -> import -> export is identical, each spine with its network (a document without the key,
    written before it existed, reads as compute)."""
    new_gpu_hall(owner, project, cluster(gpu, frontend_spine_model_id=gpu.spine, frontend_spines=1))
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    (spine_rack,) = next(r for r in doc["halls"][0]["rows"] if r["name"] == "SPINES")["racks"]
    assert [(s["name"], s.get("network")) for s in spine_rack["fabric_switches"]] == [
        ("SPINE01", "compute"), ("SPINE02", "compute"), ("SPINE03", "compute"), ("SPINE04", "compute"),
        ("FESPINE01", "front_end"),
    ]  # fmt: skip
    r = owner.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 201, r.text
    assert owner.get(f"/api/v1/projects/{r.json()['project_id']}/export").json() == doc
    halls = owner.get(f"/api/v1/projects/{r.json()['project_id']}/halls").json()["items"]
    assert [h["kind"] for h in halls] == ["gpu"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    sus=st.integers(-1, 40),
    per_su=st.integers(-1, 70),
    per_rack=st.integers(-1, 12),
    spines=st.integers(-1, 100),
    front_spines=st.integers(-1, 5),
    size=st.sampled_from([(2.0, 2.0), (30.0, 20.0), (60.0, 300.0)]),
    aisle=st.sampled_from([0.0, 0.3, 1.2]),
    models=st.sampled_from(["gpu", "plain", "none"]),
)
def test_any_gpu_cluster_is_made_or_refused_naming_a_field(
    owner: TestClient,
    project: int,
    gpu: SimpleNamespace,
    sus: int,
    per_su: int,
    per_rack: int,
    spines: int,
    front_spines: int,
    size: tuple[float, float],
    aisle: float,
    models: str,
) -> None:
    """Whatever the numbers, a GPU hall is made (201, every server placed) or refused with a 422 naming a
    field, and a refused one leaves no hall behind."""
    server = {"gpu": gpu.server, "plain": gpu.plain_server, "none": 999_999}[models]
    body = cluster(gpu, scalable_units=sus, servers_per_su=per_su, servers_per_rack=per_rack, server_model_id=server,
                   spines=spines, frontend_spine_model_id=gpu.spine if front_spines else None,
                   frontend_spines=front_spines)  # fmt: skip
    before = owner.get(f"/api/v1/projects/{project}/halls").json()["total"]
    r = new_gpu_hall(owner, project, body, name=f"G{before}", width_m=size[0], depth_m=size[1], min_cold_aisle_m=aisle)
    assert r.status_code in (201, 422), r.text
    after = owner.get(f"/api/v1/projects/{project}/halls").json()["total"]
    if r.status_code == 422:
        assert r.json()["detail"][0]["loc"], r.text
        assert after == before
        return
    layout = owner.get(f"/api/v1/halls/{r.json()['id']}/layout").json()
    placed = sum(lr["servers"] for row in layout["rows"] for rk in row["racks"] for lr in rk["logical_racks"])
    assert placed == sus * per_su and after == before + 1


def test_a_switchs_network_through_the_rack_api(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    """Written with a rack (create, and replaced by PATCH under its version), read back with it."""
    row = h.row(owner, hall["id"], n=1)
    spine = {"name": "FE1", "role": "spine", "switch_model_id": h.cat.spine, "u": 10}
    r = owner.post(
        f"/api/v1/rows/{row['id']}/racks",
        json={"name": "N01", "role": "network", "fabric_switches": [{**spine, "network": "front_end"}]},
    )
    assert r.status_code == 201, r.text
    assert [(s["name"], s["network"]) for s in r.json()["fabric_switches"]] == [("FE1", "front_end")]
    rack = r.json()
    r = owner.patch(
        f"/api/v1/racks/{rack['id']}",
        json={"fabric_switches": [spine]},  # network left out: compute
        headers={"If-Match": h.etag(r)},
    )
    assert r.status_code == 200, r.text
    got = owner.get(f"/api/v1/racks/{rack['id']}").json()
    assert [(s["name"], s["network"]) for s in got["fabric_switches"]] == [("FE1", "compute")]
    r = owner.post(
        f"/api/v1/rows/{row['id']}/racks",
        json={"name": "N02", "role": "network", "fabric_switches": [{**spine, "name": "X", "network": "storage"}]},
    )
    assert r.status_code == 422 and "network" in str(r.json()["detail"][0]["loc"]), r.text


def test_the_collective_sweep_is_13_sizes_and_needs_its_rail_options(
    owner: TestClient, project: int, gpu: SimpleNamespace
) -> None:
    """The sweep preset as the editor sends it: 13 points, 1 MiB to 4 GiB in order; a rail pattern without
    its SU size or leaf model is refused naming where it goes (before any point runs)."""
    hall = new_gpu_hall(owner, project, cluster(gpu)).json()
    (preset,) = owner.get("/api/v1/simulation-presets").json()["sweeps"]
    base = {**preset["base"], "pattern": "rail-optimized", "su_size": 8, "rail_leaf_model_id": gpu.leaf}
    url = f"/api/v1/halls/{hall['id']}/sweeps"
    r = owner.post(url, json={"name": "busbw", "base": base, "grid": preset["grid"]})
    assert r.status_code == 202, r.text
    assert [p["params"]["bytes"] for p in r.json()["points"]] == [1 << e for e in range(20, 33)]
    assert {p["params"]["workload"] for p in r.json()["points"]} == {"collective"}
    owner.post(f"/api/v1/sweeps/{r.json()['id']}/cancel")
    del base["su_size"]
    r = owner.post(url, json={"name": "busbw", "base": base, "grid": preset["grid"]})
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "base.su_size", r.text
    r = owner.post(url, json={"name": "su", "base": base, "grid": {"su_size": [8, None]}})
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "grid.su_size", r.text
