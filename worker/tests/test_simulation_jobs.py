"""Simulation jobs end to end: API -> PostgreSQL -> Redis -> a real worker process -> the engine -> API.

These tests commit for real (the worker is another process and must see the rows); the project
they build is deleted at the end.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.api.app import create_app
from loopline.db.models import RackType, ServerModel, SwitchModel
from loopline.db.session import session_scope
from loopline.services.catalog import ensure_builtin_catalog
from loopline.settings import get_settings

R = 4  # servers per logical rack
DEFAULT_SHUFFLE_FLOWS = (2 * R) * (2 * R - 1)  # first two logical racks, all-to-all: 8 * 7 = 56


def catalog_ids() -> dict[str, int]:
    from sqlalchemy import select

    with session_scope() as s:
        ensure_builtin_catalog(s)
    with session_scope() as s:

        def one(model: Any, name: str) -> int:
            return int(s.execute(select(model.id).where(model.name == name)).scalar_one())

        return {
            "server": one(ServerModel, "2x25G server"),
            "tor": one(SwitchModel, "48x25G+8x100G ToR"),
            "spine": one(SwitchModel, "64x100G spine"),
            "rack": one(RackType, "42U 600x1200"),
        }


def small_hall(client: TestClient, email: str, project_name: str) -> tuple[int, int]:
    """A new account's project with one hall: a row pair of 2 racks x 2 logical racks of R servers
    (2 ports each) and a network rack of 2 spines. Returns (project id, hall id)."""
    account = {"email": email, "password": f"{project_name} for the worker tests"}
    assert client.post("/api/v1/auth/register", json={**account, "display_name": project_name}).status_code == 202
    r = client.post("/api/v1/auth/login", json=account)
    assert r.status_code == 200, r.text
    project = client.post("/api/v1/projects", json={"name": project_name}).json()["id"]
    hall = client.post(f"/api/v1/projects/{project}/halls", json={"name": "H1", "width_m": 20, "depth_m": 12}).json()
    ids = catalog_ids()
    lr = {"servers": R, "server_model_id": ids["server"], "ports_used": 2, "tor_model_id": ids["tor"]}
    r = client.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 2,
              "rack_template": {"rack_type_id": ids["rack"], "logical_racks": [lr, lr]}},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    row = r.json()["rows"][0]
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": ids["spine"], "u": 10 + 2 * i} for i in (1, 2)]
    r = client.post(
        f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": spines}
    )
    assert r.status_code == 201, r.text
    return project, int(hall["id"])


def paired_row_plan(client: TestClient, hall: int) -> dict[str, Any]:
    plan = client.post(f"/api/v1/halls/{hall}/wiring-plans", json={"name": "p2", "pattern": "paired-row", "ports": 2})
    assert plan.status_code == 201, plan.text
    return dict(plan.json())


def delete_project(client: TestClient, project: int) -> None:
    version = client.get(f"/api/v1/projects/{project}").json()["version"]
    client.delete(f"/api/v1/projects/{project}", headers={"If-Match": f'"{version}"'}).raise_for_status()


@pytest.fixture(scope="module")
def setup(celery_worker_process: subprocess.Popen[bytes]) -> Iterator[dict[str, Any]]:
    client = TestClient(create_app())
    project, hall = small_hall(client, "sim@example.com", "Simulations")
    yield {"client": client, "project": project, "plan": paired_row_plan(client, hall)}
    delete_project(client, project)


def fattree_scenario(flows: int) -> dict[str, Any]:
    """A FatTree k=16 scenario from the engine's generator: 3,000,000 flows keep a worker busy."""
    out = subprocess.run(
        [str(get_settings().engine_binary), "gen", "fattree", "--k", "16", "--flows", str(flows)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return dict(json.loads(out.stdout))


def wait_for(client: TestClient, job_id: int, *, until: set[str], timeout_s: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job = client.get(f"/api/v1/simulations/{job_id}").json()
        if job["status"] in until or time.monotonic() > deadline:
            return dict(job)
        time.sleep(0.1)


def test_a_plan_is_simulated_by_the_worker(setup: dict[str, Any]) -> None:
    client, plan = setup["client"], setup["plan"]
    r = client.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json={"name": "shuffle ecmp"})
    assert r.status_code == 202, r.text
    assert r.json()["status"] == "queued" and r.json()["model"] == "fluid"
    job = wait_for(client, r.json()["id"], until={"succeeded", "failed"})
    assert job["status"] == "succeeded", job["error"]
    assert job["progress"] == 1.0 and job["attempts"] == 1
    result = job["result"]
    assert result["flows"]["total"] == DEFAULT_SHUFFLE_FLOWS
    assert result["flows"]["finished"] == DEFAULT_SHUFFLE_FLOWS
    assert result["job_completion_s"] > 0
    assert "packet mode" in job["note"]


def test_same_seed_gives_the_same_result_and_keys_are_idempotent(setup: dict[str, Any]) -> None:
    client, plan = setup["client"], setup["plan"]
    url = f"/api/v1/wiring-plans/{plan['id']}/simulations"
    body = {"name": "adaptive", "routing": {"type": "adaptive"}, "engine": {"seed": 7}}
    first = client.post(url, json=body, headers={"Idempotency-Key": "k-1"}).json()
    again = client.post(url, json=body, headers={"Idempotency-Key": "k-1"}).json()
    assert again["id"] == first["id"]
    other = client.post(url, json=body, headers={"Idempotency-Key": "k-2"}).json()
    assert other["id"] != first["id"]
    a = wait_for(client, first["id"], until={"succeeded", "failed"})
    b = wait_for(client, other["id"], until={"succeeded", "failed"})
    assert (a["status"], b["status"]) == ("succeeded", "succeeded")
    a["result"].pop("run_info", None)
    b["result"].pop("run_info", None)
    assert json.dumps(a["result"], sort_keys=True) == json.dumps(b["result"], sort_keys=True)


def test_a_bad_scenario_is_refused_naming_the_field(setup: dict[str, Any]) -> None:
    client = setup["client"]
    scenario = client.get(f"/api/v1/wiring-plans/{setup['plan']['id']}/scenario").json()
    scenario["network"]["links"][0]["b"] = "NO-SUCH-NODE"
    r = client.post(f"/api/v1/projects/{setup['project']}/simulations", json={"name": "bad", "scenario": scenario})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"] == "scenario.network.links[0].b"
    assert "NO-SUCH-NODE" in r.json()["detail"][0]["msg"]
    listed = client.get(f"/api/v1/projects/{setup['project']}/simulations").json()
    assert all(j["name"] != "bad" for j in listed["items"])


def test_a_running_simulation_can_be_cancelled(setup: dict[str, Any]) -> None:
    client = setup["client"]
    big = fattree_scenario(flows=3_000_000)
    r = client.post(f"/api/v1/projects/{setup['project']}/simulations", json={"name": "long", "scenario": big})
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    assert wait_for(client, job_id, until={"running", "succeeded", "failed"})["status"] == "running"
    cancelled = client.post(f"/api/v1/simulations/{job_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    # The worker's watchdog kills the engine and records when it stopped.
    deadline = time.monotonic() + 20
    while client.get(f"/api/v1/simulations/{job_id}").json()["finished_at"] is None:
        assert time.monotonic() < deadline, "the engine was not stopped"
        time.sleep(0.1)
    job = client.get(f"/api/v1/simulations/{job_id}").json()
    assert job["status"] == "cancelled" and job["result"] is None
    assert client.post(f"/api/v1/simulations/{job_id}/cancel").status_code == 409


def test_a_job_survives_its_worker_process_dying(
    setup: dict[str, Any], celery_worker_process: subprocess.Popen[bytes]
) -> None:
    client = setup["client"]
    scenario = fattree_scenario(flows=100_000)
    r = client.post(f"/api/v1/projects/{setup['project']}/simulations", json={"name": "lost", "scenario": scenario})
    job_id = r.json()["id"]
    assert wait_for(client, job_id, until={"running", "succeeded", "failed"})["status"] == "running"
    # Kill the pool process running the task, as an OOM killer would.
    children = subprocess.run(
        ["pgrep", "-P", str(celery_worker_process.pid)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert children, "the worker has no pool process"
    for pid in children:
        subprocess.run(["kill", "-9", pid], check=True)
    job = wait_for(client, job_id, until={"succeeded", "failed"}, timeout_s=300)
    # Late acknowledgement: the message went back to the queue and a new pool process ran it.
    assert job["status"] == "succeeded", job["error"]
    assert job["attempts"] == 2
    assert job["result"]["flows"]["finished"] == job["result"]["flows"]["total"]


def test_a_busy_worker_is_busy_not_down(setup: dict[str, Any]) -> None:
    """Readiness asks the worker's main process, which answers while its only pool process runs a job."""
    from loopline.api.health import readiness

    client = setup["client"]
    big = fattree_scenario(flows=3_000_000)
    r = client.post(f"/api/v1/projects/{setup['project']}/simulations", json={"name": "busy", "scenario": big})
    job_id = r.json()["id"]
    try:
        assert wait_for(client, job_id, until={"running", "succeeded", "failed"})["status"] == "running"
        readiness.forget()
        t0 = time.monotonic()
        health = client.get("/api/health/ready")
        elapsed = time.monotonic() - t0
        assert health.status_code == 200, health.text
        assert health.json()["parts"]["worker"] == {"ok": True, "detail": "1 worker answered; busy with 1 job(s)"}
        assert elapsed < 5, "the answer does not wait for the job"
    finally:
        client.post(f"/api/v1/simulations/{job_id}/cancel")


def test_an_idempotency_key_reused_for_another_request_is_refused(setup: dict[str, Any]) -> None:
    client, plan = setup["client"], setup["plan"]
    url = f"/api/v1/wiring-plans/{plan['id']}/simulations"
    first = client.post(url, json={"name": "seed 3", "engine": {"seed": 3}}, headers={"Idempotency-Key": "k-reuse"})
    assert first.status_code == 202, first.text
    again = client.post(url, json={"name": "seed 3", "engine": {"seed": 3}}, headers={"Idempotency-Key": "k-reuse"})
    assert again.json()["id"] == first.json()["id"]
    other = client.post(url, json={"name": "seed 4", "engine": {"seed": 4}}, headers={"Idempotency-Key": "k-reuse"})
    assert other.status_code == 422, other.text
    detail = other.json()["detail"][0]
    assert detail["field"] == "Idempotency-Key"
    assert f"simulation {first.json()['id']}" in detail["msg"]
    names = [j["name"] for j in client.get(f"/api/v1/projects/{setup['project']}/simulations").json()["items"]]
    assert "seed 4" not in names
    wait_for(client, first.json()["id"], until={"succeeded", "failed"})
