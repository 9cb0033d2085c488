"""Whole-project export and import as one versioned JSON document: the round trip is lossless."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from loopline.api.schemas.exchange import ProjectDocument


def _build(owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace) -> None:
    owner.patch(
        f"/api/v1/projects/{project}/fabric",
        json={"fabric_type": "fat_tree", "aggs_per_cluster": 2, "tor_uplinks": 6},
        headers={"If-Match": '"1"'},
    ).raise_for_status()
    owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 5, "rack_template": h.template()},
    ).raise_for_status()
    row = h.row(owner, hall["id"], "R03", x=2.35, y=7, n=2, direction=0, front="left")
    owner.post(
        f"/api/v1/rows/{row['id']}/racks",
        json={
            "name": "NET1",
            "role": "network",
            "rack_type_id": h.cat.rack48,
            "port_face": "rear",
            "logical_racks": [h.lr(servers=3, tor_position="bottom", base_u=30)],
            "fabric_switches": [{"name": "AG1", "role": "agg", "switch_model_id": h.cat.spine, "u": 3, "cluster": 1}],
        },
    ).raise_for_status()
    owner.post(
        f"/api/v1/projects/{project}/halls",
        json={"name": "H0", "width_m": 8.123, "depth_m": 9, "raised_floor": True, "raised_floor_height_m": 0.45},
    ).raise_for_status()


def test_export_import_round_trip_is_lossless(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    _build(owner, project, hall, h)
    r = owner.get(f"/api/v1/projects/{project}/export")
    assert r.status_code == 200
    doc = r.json()
    ProjectDocument.model_validate(doc)
    assert doc["format"] == "loopline.project" and doc["schema_version"] == 1
    assert [x["name"] for x in doc["halls"]] == ["H0", "H1"]
    assert doc["fabric"]["fabric_type"] == "fat_tree" and doc["fabric"]["tor_uplinks"] == 6
    net = doc["halls"][1]["rows"][2]["racks"][-1]
    assert net["rack_type"] == "48U 600x1200" and net["fabric_switches"][0]["name"] == "AG1"

    r = owner.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 201, r.text
    assert r.json()["halls"] == 2 and r.json()["racks"] == 13
    copy = owner.get(f"/api/v1/projects/{r.json()['project_id']}/export").json()
    assert copy == doc
    # The copy is a project of its own, owned by the importer.
    assert owner.get(f"/api/v1/projects/{r.json()['project_id']}").json()["role"] == "owner"


def test_import_validates_the_document(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    _build(owner, project, hall, h)
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    before = owner.get("/api/v1/projects").json()["total"]

    bad = {**doc, "schema_version": 2}
    assert owner.post("/api/v1/projects/import", json=bad).status_code == 422

    unknown = _copy(doc)
    unknown["halls"][1]["rows"][0]["racks"][0]["rack_type"] = "no such rack"
    r = owner.post("/api/v1/projects/import", json=unknown)
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "halls[1].rows[0].racks[0].rack_type"

    overlapping = _copy(doc)
    overlapping["halls"][1]["rows"][1]["y_m"] = 3.0
    r = owner.post("/api/v1/projects/import", json=overlapping)
    assert r.status_code == 422 and "overlaps" in r.text

    clash = _copy(doc)
    clash["catalog"]["server_models"][0]["nic_ports"] = 4
    r = owner.post("/api/v1/projects/import", json=clash)
    assert r.status_code == 409 and r.json()["detail"][0]["field"] == "catalog.server_models[0]"

    # Nothing half-written: no project appeared.
    assert owner.get("/api/v1/projects").json()["total"] == before


def test_the_price_book_travels_with_the_project(owner: TestClient, project: int) -> None:
    assert owner.get(f"/api/v1/projects/{project}/export").json()["price_book"] is None, "defaults alone"
    dac = {"part_number": "DAC-25G", "category": "cable", "description": "", "base_price": 20.0, "per_metre": 4.0}
    sw = {"part_number": "TOR-48", "category": "switch", "description": "ToR", "base_price": 9000.0, "per_metre": 0.0}
    owner.put(
        f"/api/v1/projects/{project}/price-book",
        json={"currency": "EUR", "entries": [sw, dac]},
        headers={"If-Match": '"0"'},
    ).raise_for_status()
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    assert doc["price_book"] == {"currency": "EUR", "entries": [dac, sw]}

    r = owner.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 201, r.text
    copy = r.json()["project_id"]
    book = owner.get(f"/api/v1/projects/{copy}/price-book").json()
    assert book["currency"] == "EUR" and book["version"] == 1 and book["entries"] == [dac, sw]
    assert owner.get(f"/api/v1/projects/{copy}/export").json() == doc

    before = owner.get("/api/v1/projects").json()["total"]
    twice = _copy(doc)
    twice["price_book"]["entries"].append(dac)
    r = owner.post("/api/v1/projects/import", json=twice)
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "price_book.entries.2.part_number"
    assert owner.get("/api/v1/projects").json()["total"] == before, "nothing half-written"


def _copy(doc: dict[str, Any]) -> dict[str, Any]:
    import json

    return dict(json.loads(json.dumps(doc)))


def test_a_gpu_server_and_a_breakout_switch_travel_to_another_user(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    """The catalog entries a document carries keep their GPU and breakout fields: the importer, who
    cannot see the owner's entries, gets copies that say the same."""
    gpu = {
        "name": "Own 8-GPU server", "nic_ports": 8, "port_gbps": 400, "height_u": 8, "gpus": 8,
        "gpu_interconnect_gbps": 3600, "frontend_nic_ports": 2, "frontend_port_gbps": 200,
    }  # fmt: skip
    leaf = {
        "name": "Own 64x400G leaf", "server_ports": 32, "server_port_gbps": 400, "uplink_ports": 32,
        "uplink_gbps": 400, "height_u": 2, "breakout_links": 2,
    }  # fmt: skip
    made = []
    for path, body in (("server-models", gpu), ("switch-models", leaf)):
        r = owner.post(f"/api/v1/catalog/{path}", json=body)
        assert r.status_code == 201, r.text
        made.append(r.json()["id"])
    racks = {"rack_type_id": h.cat.rack48, "logical_racks": [
        {"servers": 2, "server_model_id": made[0], "ports_used": 8, "tor_model_id": made[1]}
    ]}  # fmt: skip
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows", json={"name": "G1", "x_m": 2, "y_m": 2, "rack_count": 1,
                                                          "rack_template": racks})  # fmt: skip
    assert r.status_code == 201, r.text
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    assert {k: doc["catalog"]["server_models"][0][k] for k in gpu} == gpu
    assert {k: doc["catalog"]["switch_models"][0][k] for k in leaf} == leaf

    other = h.client("importer@example.com")
    r = other.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 201, r.text
    assert other.get(f"/api/v1/projects/{r.json()['project_id']}/export").json()["catalog"] == doc["catalog"]
    mine = {m["name"]: m for m in other.get("/api/v1/catalog/server-models", params={"limit": 500}).json()["items"]}
    assert {k: mine["Own 8-GPU server"][k] for k in gpu} == gpu

    # A document written before GPU fields were exported names none: it still imports, the entry's
    # fields staying as the catalog holds them.
    old = _copy(doc)
    for key in ("gpus", "gpu_interconnect_gbps", "frontend_nic_ports", "frontend_port_gbps"):
        del old["catalog"]["server_models"][0][key]
    del old["catalog"]["switch_models"][0]["breakout_links"]
    r = other.post("/api/v1/projects/import", json=old)
    assert r.status_code == 201, r.text
    assert other.get(f"/api/v1/projects/{r.json()['project_id']}/export").json()["catalog"] == doc["catalog"]
