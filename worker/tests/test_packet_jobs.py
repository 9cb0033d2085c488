"""Packet mode end to end: API -> PostgreSQL -> Redis -> a real worker -> the compiled engine in
packet mode -> API. A plan's shuffle runs with DCTCP and its result is a packet-level one with queue and drop
statistics; a long packet simulation reports progress as it runs and is cancelled.

The plan is test_simulation_jobs's (two rows of racks, four servers per logical rack, two spines).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.api.app import create_app
from loopline.api.schemas.sim_estimates import PACKET_NOTE

sys.path[:0] = [str(Path(__file__).parent)]
from test_simulation_jobs import (  # noqa: E402
    DEFAULT_SHUFFLE_FLOWS,
    delete_project,
    paired_row_plan,
    small_hall,
    wait_for,
)

BUFFER = 100_000
ECN = 15_000


@pytest.fixture(scope="module")
def setup(celery_worker_process: subprocess.Popen[bytes]) -> Iterator[dict[str, Any]]:
    client = TestClient(create_app())
    project, hall = small_hall(client, "packets@example.com", "Packets")
    yield {"client": client, "project": project, "plan": paired_row_plan(client, hall)}
    delete_project(client, project)


def packet_request(name: str, workload: dict[str, Any], **packet: Any) -> dict[str, Any]:
    return {"name": name, "mode": "packet", "packet": packet, "workload": workload, "engine": {"seed": 1}}


def shuffle(servers: list[str] | None, bytes_per_pair: int) -> dict[str, Any]:
    return {"type": "shuffle", "bytes_per_pair": bytes_per_pair} | ({"servers": servers} if servers else {})


def first_servers(client: TestClient, plan_id: int) -> list[str]:
    """The servers of the plan's first two logical racks (its default workload's)."""
    scenario = client.get(f"/api/v1/wiring-plans/{plan_id}/scenario").json()
    return list(scenario["workload"]["servers"])


def test_a_packet_simulation_runs_through_the_worker(setup: dict[str, Any]) -> None:
    client, plan = setup["client"], setup["plan"]
    workload = shuffle(first_servers(client, plan["id"]), 40_000_000)
    body = packet_request("packets dctcp", workload, transport="dctcp", buffer_bytes=BUFFER, ecn_threshold_bytes=ECN)
    url = f"/api/v1/wiring-plans/{plan['id']}/simulations"
    estimate = client.post(f"{url}/estimate", json=body)
    assert estimate.status_code == 200, estimate.text
    est = estimate.json()
    assert est["packet"]["fits"] and est["workload"]["flows"] == DEFAULT_SHUFFLE_FLOWS
    r = client.post(url, json=body)
    assert r.status_code == 202, r.text
    assert (r.json()["model"], r.json()["note"]) == ("packet", PACKET_NOTE)
    job_id = r.json()["id"]

    job = wait_for(client, job_id, until={"succeeded", "failed"}, timeout_s=300)
    assert job["status"] == "succeeded", job["error"]

    result = job["result"]
    assert (job["model"], result["model"], job["note"], result["note"]) == (
        "packet",
        "packet",
        PACKET_NOTE,
        PACKET_NOTE,
    )
    assert job["outcome"] == "complete" and job["progress"] == 1.0
    assert result["flows"]["finished"] == DEFAULT_SHUFFLE_FLOWS and job["events"] == result["events_processed"]
    packet = result["packet"]
    assert (packet["transport"], packet["mtu_bytes"]) == ("dctcp", 1500)
    # eight servers each sending to seven at once: queues build at the receivers' ports, past the
    # marking threshold, and never beyond the buffer
    assert packet["ecn_marks"] > 0
    assert packet["queues"], "no queue ever held a packet waiting"
    assert all(0 < q["p99_bytes"] <= q["max_bytes"] + 1500 for q in packet["queues"])
    # the buffer is the switch ports' (a server's NIC queue never drops, as in htsim)
    scenario = client.get(f"/api/v1/wiring-plans/{plan['id']}/scenario").json()
    servers = {n["id"] for n in scenario["network"]["nodes"] if n["role"] == "server"}
    switch_queues = [q for q in packet["queues"] if q["from"] not in servers]
    assert switch_queues and all(q["max_bytes"] <= BUFFER for q in switch_queues)
    assert max(q["max_bytes"] for q in switch_queues) > ECN
    assert sum(q["drops"] for q in packet["queues"]) == packet["drops"]
    # per link, the queue series sits beside the utilisation series, bucket for bucket
    series = {(link["id"], link["from"]): link.get("queue_max_bytes") or [0] for link in result["links"]["links"]}
    assert all(max(s) <= BUFFER for (_, source), s in series.items() if source not in servers)
    assert all(max(series[q["link"], q["from"]]) == q["max_bytes"] for q in packet["queues"])
    # the estimate counted the engine's events: packets x links x 4, give or take retransmissions
    assert 0.8 < result["events_processed"] / est["packet"]["events"] < 1.5


def test_a_running_packet_simulation_is_cancelled(setup: dict[str, Any]) -> None:
    client, plan = setup["client"], setup["plan"]
    # a shuffle of 8 servers, 2 GB per pair: minutes of packets, within the worker's limit
    body = packet_request("packets, long", shuffle(first_servers(client, plan["id"]), 2_000_000_000))
    url = f"/api/v1/wiring-plans/{plan['id']}/simulations"
    est = client.post(f"{url}/estimate", json=body).json()
    assert est["packet"]["fits"] and est["packet"]["wall_s"] > 20, est["packet"]
    r = client.post(url, json=body)
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    # progress: the engine's reports arrive about once a second; simulated time and events advance
    # (watched on this long run: a short one may end before its second report on a fast machine)
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + 120
    while len(seen) < 3:
        job = client.get(f"/api/v1/simulations/{job_id}").json()
        assert job["status"] in ("queued", "running"), job["error"]
        if job["progress_text"] and (not seen or job["events"] != seen[-1]["events"]):
            seen.append(job)
        assert time.monotonic() < deadline, f"{len(seen)} progress reports in 120 s"
        time.sleep(0.1)
    assert all(j["progress_text"].startswith("progress: sim_time_s=") for j in seen)
    assert [j["sim_time_s"] for j in seen] == sorted(j["sim_time_s"] for j in seen)
    assert seen[0]["events"] < seen[-1]["events"] and seen[-1]["flows_total"] == DEFAULT_SHUFFLE_FLOWS
    cancelled = client.post(f"/api/v1/simulations/{job_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    deadline = time.monotonic() + 20
    while client.get(f"/api/v1/simulations/{job_id}").json()["finished_at"] is None:
        assert time.monotonic() < deadline, "the engine was not stopped"
        time.sleep(0.1)
    job = client.get(f"/api/v1/simulations/{job_id}").json()
    assert (job["status"], job["result"], job["model"]) == ("cancelled", None, "packet")
    assert job["flows_done"] < DEFAULT_SHUFFLE_FLOWS
    # the worker is free again: a small packet run after it completes
    small = client.post(url, json=packet_request("after", shuffle(None, 100_000)))
    assert small.status_code == 202, small.text
    assert wait_for(client, small.json()["id"], until={"succeeded", "failed"}, timeout_s=120)["status"] == "succeeded"
