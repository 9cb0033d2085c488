"""The preset table over HTTP, and plan simulations asked for by preset: the server builds the
workload (the same one a raw request would send), refusals name the field."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from loopline.db.models import SimulationJob

SCHEMA = json.loads((Path(__file__).parents[3] / "sim-engine" / "schema" / "scenario.schema.json").read_text())


@pytest.fixture
def plan(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """One row of 2 racks (4 logical racks of 15 servers, single-homed) and two spines."""
    row = h.row(owner, hall["id"], n=2)
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)
    ]}  # fmt: skip
    assert owner.post(f"/api/v1/rows/{row['id']}/racks", json=net).status_code == 201
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "p", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return dict(r.json())


def racks_of(owner: TestClient, plan_id: int) -> dict[str, list[str]]:
    racks: dict[str, list[str]] = {}
    for n in owner.get(f"/api/v1/wiring-plans/{plan_id}/scenario").json()["network"]["nodes"]:
        if n["role"] == "server":
            racks.setdefault(n["logical_rack"], []).append(n["id"])
    return racks


def test_the_table_is_served_with_the_engines_defaults(owner: TestClient, h: SimpleNamespace) -> None:
    r = owner.get("/api/v1/simulation-presets")
    assert r.status_code == 200, r.text
    presets = {p["name"]: p for p in r.json()["presets"]}
    engine_types = {v["properties"]["type"]["enum"][0] for v in SCHEMA["definitions"]["WorkloadSpec"]["oneOf"]}
    # training-step is offered once the engine knows its workload (issue 31)
    assert list(presets) == [
        "shuffle", "permutation", "all-to-all", "many-to-many", "poisson", "incast", "memcache", "collective",
        *(["training-step"] if "training_step" in engine_types else []),
    ]  # fmt: skip
    collective = {p["name"]: p for p in presets["collective"]["params"]}
    collective_fields = next(
        v["properties"] for v in SCHEMA["definitions"]["WorkloadSpec"]["oneOf"]
        if v["properties"]["type"]["enum"] == ["collective"]
    )  # fmt: skip
    new = ["model", "skew"] if "model" in collective_fields else []  # offered once the engine has them
    assert list(collective) == ["op", "algorithm", "bytes", "iterations", *new, "gpus", "placement"]
    assert [c["value"] for c in collective["placement"]["choices"]] == ["packed", "spread"]
    assert r.json()["sweeps"] == [
        {"name": "collective-sweep", "label": "Collective sweep (1 MB to 4 GB)",
         "explain": r.json()["sweeps"][0]["explain"], "base": {"workload": "collective"},
         "grid": {"bytes": [1 << e for e in range(20, 33)]}},
    ]  # fmt: skip
    assert r.json()["sweeps"][0]["grid"]["bytes"][0] == 1_048_576 and len(r.json()["sweeps"][0]["grid"]["bytes"]) == 13
    incast = {p["name"]: p for p in presets["incast"]["params"]}
    fan_in = [v for v in SCHEMA["definitions"]["WorkloadSpec"]["oneOf"] if v["properties"]["type"]["enum"] == ["query"]]
    assert incast["fan_in"]["default"] == fan_in[0]["properties"]["fan_in"]["default"] == 8
    assert incast["fan_in"]["engine_field"] == "workload.query.fan_in"
    shuffle = presets["shuffle"]
    assert [p["name"] for p in shuffle["params"]] == ["job_racks", "placement", "bytes"]
    mb = shuffle["params"][2]
    assert (mb["default"], mb["unit"], mb["display_unit"], mb["display_scale"], mb["minimum"]) == (
        15_000_000, "bytes", "MB", 1_000_000, 1,
    )  # fmt: skip
    assert shuffle["rack_sets"] == [
        {"name": "job", "label": "Racks of the job", "replaces": ["job_racks", "placement"],
         "otherwise": "the racks counted above"},
    ]  # fmt: skip
    assert TestClient(owner.app).get("/api/v1/simulation-presets").status_code == 401


def test_a_preset_request_builds_the_workload_on_the_server(
    owner: TestClient, plan: dict[str, Any], db_session: Session
) -> None:
    racks = racks_of(owner, plan["id"])
    names = list(racks)
    assert len(names) == 4 and all(len(s) == 15 for s in racks.values())
    body = {"name": "r2r", "preset": "many-to-many", "params": {"bytes": 4_000_000}, "racks": {"receivers": [names[0]]}}
    r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json=body)
    assert r.status_code == 202, r.text
    job = db_session.get(SimulationJob, r.json()["id"])
    assert job is not None
    # receivers chosen: the one sender rack is the first that is not a receiver
    assert job.scenario["workload"] == {
        "type": "many_to_many", "senders": racks[names[1]], "receivers": racks[names[0]], "bytes": 4_000_000,
    }  # fmt: skip
    # the estimate of the preset request counts what the raw workload counts: 15 x 15 flows
    est = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=body).json()
    raw = {"name": "raw", "workload": job.scenario["workload"]}
    assert (
        est["workload"]
        == owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=raw).json()["workload"]
    )
    assert est["workload"]["flows"] == 225
    # no preset and no workload: the shuffle preset's defaults, the first two logical racks
    r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json={"name": "default"})
    job = db_session.get(SimulationJob, r.json()["id"])
    assert job is not None
    assert job.scenario["workload"] == {
        "type": "shuffle", "servers": racks[names[0]] + racks[names[1]], "bytes_per_pair": 15_000_000,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"preset": "query"}, "preset"),
        ({"preset": "shuffle", "params": {"mb": 4}}, "params.mb"),
        ({"preset": "shuffle", "params": {"bytes": 0}}, "params.bytes"),
        ({"preset": "shuffle", "params": {"job_racks": 5}}, "params.job_racks"),
        ({"preset": "poisson", "params": {"load": 2}}, "params.load"),
        ({"preset": "shuffle", "racks": {"job": ["nowhere"]}}, "racks.job[0]"),
        ({"preset": "shuffle", "workload": {"type": "shuffle", "bytes_per_pair": 1}}, "workload"),
    ],
)
def test_bad_preset_requests_name_the_field(
    owner: TestClient, plan: dict[str, Any], change: dict[str, Any], field: str
) -> None:
    for url in ("simulations/estimate", "simulations"):
        r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/{url}", json={"name": "bad", **change})
        assert r.status_code == 422, r.text
        assert r.json()["detail"][0]["field"] == field, r.text
