"""Packet mode in the simulation API: the run-time estimate before submitting (figures derived by
hand), the packet settings a request may carry (refusals name the field), the refusal of a packet
run the worker could not finish, and a packet job reading as one."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from loopline.api.schemas.sim_estimates import PACKET_NOTE
from loopline.db.models import JobStatus, SimulationJob
from loopline.domain import sim_estimate as se
from loopline.settings import get_settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _scenarios import shuffle

R = 15  # servers per logical rack (conftest's `lr`)


def scenario(mode: str = "packet", bytes_per_pair: int = 15_000) -> dict[str, Any]:
    return shuffle(mode, bytes_per_pair)


@pytest.fixture
def plan(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """One row of 2 racks (b=2 logical racks of 15 servers, single-homed) and two spines."""
    row = h.row(owner, hall["id"], n=2)
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)
    ]}  # fmt: skip
    assert owner.post(f"/api/v1/rows/{row['id']}/racks", json=net).status_code == 201
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "p", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_the_estimate_of_a_scenario_derived_by_hand(owner: TestClient, project: int) -> None:
    # 4 servers: 12 flows, 4 within a rack (2 links), 8 across (4 links); 15,000 bytes = 10 packets
    # of 1,500 bytes of payload (no header by default): 120 packets, 400 packet-hops, 1,600 events
    r = owner.post(f"/api/v1/projects/{project}/simulations/estimate", json={"name": "e", "scenario": scenario()})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["workload"] == {"flows": 12, "bytes": 12 * 15_000, "mean_hops": pytest.approx(40 / 12), "packets": 120}
    assert body["packet"]["events"] == 1600
    assert body["packet"]["wall_s"] == pytest.approx(se.STARTUP_S + 1600 / se.PACKET_EVENTS_PER_S)
    assert body["flow"]["wall_s"] == pytest.approx(se.STARTUP_S + 12 / se.FLOW_FLOWS_PER_S)
    assert body["packet"]["fits"] and body["flow"]["fits"] and body["packet"]["reason"] is None
    settings = get_settings()
    assert (body["limit_wall_s"], body["limit_memory_mb"]) == (
        settings.engine_time_limit_s, settings.engine_memory_limit_mb,
    )  # fmt: skip


def test_the_estimate_of_a_plan_request_derived_by_hand(owner: TestClient, plan: dict[str, Any]) -> None:
    scenario = owner.get(f"/api/v1/wiring-plans/{plan['id']}/scenario").json()
    racks: dict[str, list[str]] = {}
    for n in scenario["network"]["nodes"]:
        if n["role"] == "server":
            racks.setdefault(n["logical_rack"], []).append(n["id"])
    first, second = list(racks.values())[:2]
    assert len(first) == len(second) == R
    # every server of the first logical rack to every one of the second: 225 flows of one packet,
    # each over 4 links (server, its ToR, a spine, the other ToR, server)
    body = {"name": "e", "mode": "packet", "packet": {"transport": "dctcp"},
            "workload": {"type": "many_to_many", "senders": first, "receivers": second, "bytes": 1436}}  # fmt: skip
    r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=body)
    assert r.status_code == 200, r.text
    est = r.json()
    assert est["workload"] == {"flows": R * R, "bytes": R * R * 1436, "mean_hops": 4, "packets": R * R}
    assert est["packet"]["events"] == 4 * 4 * R * R
    # and within the first logical rack: 15 x 14 flows over 2 links
    body["workload"] = {"type": "shuffle", "servers": first, "bytes_per_pair": 3001}  # 3 packets
    est = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=body).json()
    assert (est["workload"]["flows"], est["workload"]["packets"], est["workload"]["mean_hops"]) == (210, 630, 2)
    assert est["packet"]["events"] == 4 * 2 * 630


def named(item: dict[str, Any]) -> str:
    """The field an error names: ours say it; FastAPI's give its place in the body."""
    return str(item.get("field") or ".".join(str(x) for x in item["loc"][1:]))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"mode": "fluid"}, "mode"),
        ({"packet": {"transport": "dctcp"}}, "packet"),  # packet settings with flow mode
        ({"mode": "packet", "packet": {"transport": "cubic"}}, "packet.transport"),
        ({"mode": "packet", "packet": {"buffer_bytes": 1000}}, "packet.buffer_bytes"),
        ({"mode": "packet", "packet": {"ecn_threshold_bytes": 30000}}, "packet.ecn_threshold_bytes"),  # newreno
        (
            {"mode": "packet", "packet": {"transport": "dctcp", "buffer_bytes": 20000, "ecn_threshold_bytes": 30000}},
            "packet.ecn_threshold_bytes",
        ),  # fmt: skip
        ({"mode": "packet", "packet": {"mtu_bytes": 9000}}, "packet.mtu_bytes"),  # not a planner's setting
        # the engine names the workload's field, in the estimate as when submitting
        (
            {"mode": "packet", "workload": {"type": "shuffle", "servers": ["A", "B"], "bytes_per_pair": 1}},
            "scenario.workload.servers[0]",
        ),
    ],
)
def test_bad_packet_requests_are_refused_naming_the_field(
    owner: TestClient, plan: dict[str, Any], change: dict[str, Any], field: str
) -> None:
    for url in ("simulations/estimate", "simulations"):
        r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/{url}", json={"name": "bad", **change})
        assert r.status_code == 422, r.text
        assert named(r.json()["detail"][0]) == field, r.text


def test_a_packet_run_over_the_workers_limit_is_refused_naming_mode(
    owner: TestClient, project: int, plan: dict[str, Any]
) -> None:
    # a shuffle of all 60 servers, 1 GB per pair: 3,540 flows of 666,667 packets each
    body = {"name": "huge", "mode": "packet", "workload": {"type": "shuffle", "bytes_per_pair": 1_000_000_000}}
    est = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=body).json()
    assert est["workload"]["packets"] == 60 * 59 * 666_667
    assert not est["packet"]["fits"] and "over the worker's limit" in est["packet"]["reason"]
    r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json=body)
    assert r.status_code == 422, r.text
    [item] = r.json()["detail"]
    assert item["field"] == "mode"
    assert "packet mode would take about" in item["msg"] and "use flow mode" in item["msg"]
    raw = scenario(bytes_per_pair=10**12)
    r = owner.post(f"/api/v1/projects/{project}/simulations", json={"name": "huge", "scenario": raw})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"] == "scenario.engine.mode"
    listed = owner.get(f"/api/v1/projects/{project}/simulations").json()
    assert listed["total"] == 0


def test_a_packet_job_reads_as_packet_before_and_after_it_ran(
    owner: TestClient, project: int, db_session: Session
) -> None:
    rows = [
        SimulationJob(project_id=project, name=mode, status=JobStatus.QUEUED, scenario=scenario(mode))
        for mode in ("flow", "packet")
    ]
    db_session.add_all(rows)
    db_session.commit()
    flow, packet = (owner.get(f"/api/v1/simulations/{j.id}").json() for j in rows)
    assert (flow["model"], packet["model"]) == ("fluid", "packet")
    assert packet["note"] == PACKET_NOTE and "packet mode" in flow["note"]
    listed = owner.get(f"/api/v1/projects/{project}/simulations").json()["items"]
    assert {j["name"]: j["model"] for j in listed} == {"flow": "fluid", "packet": "packet"}


def test_only_members_estimate(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    stranger = h.client("stranger@example.com")
    r = stranger.post(f"/api/v1/projects/{project}/simulations/estimate", json={"name": "e", "scenario": scenario()})
    assert r.status_code in (403, 404), r.text
