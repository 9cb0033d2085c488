"""What a person watching a simulation sees, with a real worker and the engine: progress from the
engine (simulated time, flows, its line), a queue position while workers are busy, and an outcome
that never calls a run with stalled flows a plain success."""

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

# the split fabric of the outcome's domain test, and the job helpers of the simulation job tests
sys.path[:0] = [str(Path(__file__).resolve().parents[2] / "backend" / "tests" / "domain"), str(Path(__file__).parent)]
from test_sim_outcome import split_fabric  # noqa: E402
from test_simulation_jobs import fattree_scenario, wait_for  # noqa: E402


@pytest.fixture(scope="module")
def setup(celery_worker_process: subprocess.Popen[bytes]) -> Iterator[dict[str, Any]]:
    client = TestClient(create_app())
    account = {"email": "progress@example.com", "password": "watch it move"}
    assert client.post("/api/v1/auth/register", json={**account, "display_name": "P"}).status_code == 202
    assert client.post("/api/v1/auth/login", json=account).status_code == 200
    project = client.post("/api/v1/projects", json={"name": "Progress"}).json()["id"]
    yield {"client": client, "project": project}
    version = client.get(f"/api/v1/projects/{project}").json()["version"]
    client.delete(f"/api/v1/projects/{project}", headers={"If-Match": f'"{version}"'}).raise_for_status()


def submit(setup: dict[str, Any], name: str, scenario: dict[str, Any]) -> int:
    r = setup["client"].post(
        f"/api/v1/projects/{setup['project']}/simulations", json={"name": name, "scenario": scenario}
    )
    assert r.status_code == 202, r.text
    return int(r.json()["id"])


def test_a_run_with_stalled_flows_is_partial_and_says_why(setup: dict[str, Any]) -> None:
    job = wait_for(setup["client"], submit(setup, "split", split_fabric()), until={"succeeded", "failed"})
    assert job["status"] == "succeeded", job["error"]
    assert (job["outcome"], job["stalled_flows"], job["unfinished_flows"]) == ("partial", 8, 0)
    assert (job["flows_done"], job["flows_total"], job["progress"]) == (4, 12, round(4 / 12, 4))
    reason = job["incomplete_reason"]
    assert reason["unreachable_pairs"] == 8
    assert reason["summary"].startswith("8 of 12 flows stalled")
    [group] = reason["unreachable_groups"]
    assert (group["reaches_a"], group["reaches_b"]) == (["SP1"], ["SP2"])
    assert job["result"]["job_completion_s"] is None


def test_a_run_where_every_flow_finished_is_complete(setup: dict[str, Any]) -> None:
    job = wait_for(setup["client"], submit(setup, "joined", split_fabric(joined=True)), until={"succeeded", "failed"})
    assert (job["status"], job["outcome"], job["stalled_flows"], job["incomplete_reason"]) == (
        "succeeded", "complete", 0, None,
    )  # fmt: skip
    assert (job["flows_done"], job["flows_total"], job["progress"]) == (12, 12, 1.0)
    assert job["sim_time_s"] == job["result"]["simulated_time_s"]
    assert job["events"] == job["result"]["events_processed"]
    assert job["progress_text"].startswith("done: ") and "flows_done=12/12" in job["progress_text"]


def test_progress_moves_and_waiting_jobs_have_a_queue_position(setup: dict[str, Any]) -> None:
    client = setup["client"]
    big = fattree_scenario(flows=3_000_000)
    running = submit(setup, "long", big)
    waiting: list[int] = []
    try:
        assert wait_for(client, running, until={"running", "succeeded", "failed"})["status"] == "running"
        # the single worker is busy: the next two wait, first in line and second
        waiting = [submit(setup, "next", split_fabric()), submit(setup, "after", split_fabric())]
        jobs = [client.get(f"/api/v1/simulations/{i}").json() for i in waiting]
        assert [(j["status"], j["queue_position"]) for j in jobs] == [("queued", 1), ("queued", 2)]
        listed = client.get(f"/api/v1/projects/{setup['project']}/simulations").json()["items"]
        assert {j["id"]: j["queue_position"] for j in listed if j["id"] in waiting} == dict(
            zip(waiting, (1, 2), strict=False)
        )
        # the engine reports once a second: simulated time and flows advance between two reports
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + 60
        while len({j["sim_time_s"] for j in seen}) < 3 and time.monotonic() < deadline:
            job = client.get(f"/api/v1/simulations/{running}").json()
            if job["progress_text"] is not None and (not seen or job["sim_time_s"] != seen[-1]["sim_time_s"]):
                seen.append(job)
            time.sleep(0.2)
        assert len(seen) >= 2, "no progress from the engine"
        assert all(j["queue_position"] is None and j["flows_total"] == 3_000_000 for j in seen)
        assert all(j["progress_text"].startswith("progress: sim_time_s=") for j in seen)
        times = [j["sim_time_s"] for j in seen]
        assert times == sorted(times) and times[0] < times[-1]
        assert [j["flows_done"] for j in seen] == sorted(j["flows_done"] for j in seen)
        assert seen[-1]["events"] > seen[0]["events"]
    finally:
        for i in [running, *waiting]:
            client.post(f"/api/v1/simulations/{i}/cancel")
