"""The job table is the truth: a job whose message was lost, or whose worker died, is sent again by
the reconciler and runs to its end once; a duplicate delivery of a live run does nothing; a
submission while the broker is down is refused with 503 and writes nothing.

One worker of this module reconciles fast (every second; a queued job is lost after 1 s without a
message, a running one after 3 s without a heartbeat)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from loopline import queue
from loopline.api.app import create_app
from loopline.db.models import JobStatus, SimulationJob
from loopline.db.session import session_scope
from loopline.queue import SIMULATE_TASK, get_celery

sys.path.insert(0, str(Path(__file__).parent))
from test_simulation_jobs import delete_project, paired_row_plan, small_hall, wait_for
from test_sweeps import start_worker, stop

FAST = {"job_heartbeat_s": "0.5", "job_stale_after_s": "3", "job_queued_grace_s": "1", "reconcile_every_s": "1"}


@pytest.fixture(scope="module")
def setup(migrated_database: str) -> Iterator[dict[str, Any]]:
    worker = start_worker("reconciler", **FAST)
    client = TestClient(create_app())
    try:
        project, hall = small_hall(client, "recovery@example.com", "Recovery")
        plan = paired_row_plan(client, hall)
        r = client.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json={"name": "shuffle"})
        assert r.status_code == 202, r.text
        done = wait_for(client, r.json()["id"], until={"succeeded", "failed"})
        assert done["status"] == "succeeded", done["error"]
        with session_scope() as s:
            scenario = s.execute(select(SimulationJob.scenario).where(SimulationJob.id == done["id"])).scalar_one()
        yield {"client": client, "project": project, "plan": plan, "scenario": scenario, "first": done}
        delete_project(client, project)
    finally:
        stop(worker)


def orphan(setup: dict[str, Any], status: JobStatus, silent_s: float) -> int:
    """A job row of the plan with no message in the broker, queued or claimed `silent_s` ago."""
    with session_scope() as s:
        then = s.execute(select(func.now())).scalar_one() - timedelta(seconds=silent_s)
        running = status is JobStatus.RUNNING
        job = SimulationJob(
            project_id=setup["project"], plan_id=setup["plan"]["id"], name="orphan", status=status,
            scenario=setup["scenario"], created_at=then, started_at=then if running else None,
            heartbeat_at=then if running else None, attempts=1 if running else 0,
        )  # fmt: skip
        s.add(job)
        s.flush()
        return job.id


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "run_info"}


def test_a_queued_job_whose_message_was_lost_is_sent_again_and_runs_once(setup: dict[str, Any]) -> None:
    job_id = orphan(setup, JobStatus.QUEUED, silent_s=3600)
    job = wait_for(setup["client"], job_id, until={"succeeded", "failed"}, timeout_s=60)
    assert (job["status"], job["attempts"]) == ("succeeded", 1)
    assert comparable(job["result"]) == comparable(setup["first"]["result"])  # the same scenario and seed


def test_a_running_job_whose_worker_died_is_run_again(setup: dict[str, Any]) -> None:
    job_id = orphan(setup, JobStatus.RUNNING, silent_s=3600)
    job = wait_for(setup["client"], job_id, until={"succeeded", "failed"}, timeout_s=60)
    assert (job["status"], job["attempts"]) == ("succeeded", 2)


def test_a_duplicate_delivery_of_a_live_run_does_nothing(setup: dict[str, Any]) -> None:
    job_id = orphan(setup, JobStatus.RUNNING, silent_s=0)
    alive = threading.Event()

    def beat() -> None:  # the live worker this row belongs to
        while not alive.wait(0.2):
            with session_scope() as s:
                s.execute(update(SimulationJob).where(SimulationJob.id == job_id).values(heartbeat_at=func.now()))

    beating = threading.Thread(target=beat)
    beating.start()
    try:
        assert get_celery().send_task(SIMULATE_TASK, args=[job_id]).get(timeout=30) == "running"
        time.sleep(4)  # longer than the reconciler's stale limit: a beating job is not lost
        job = setup["client"].get(f"/api/v1/simulations/{job_id}").json()
        assert (job["status"], job["attempts"]) == ("running", 1)
    finally:
        alive.set()
        beating.join()
        with session_scope() as s:
            s.execute(update(SimulationJob).where(SimulationJob.id == job_id).values(status=JobStatus.CANCELLED))


def test_a_submission_while_the_broker_is_down_is_refused_and_writes_nothing(
    setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, plan = setup["client"], setup["plan"]
    listing = f"/api/v1/projects/{setup['project']}/simulations"
    before = client.get(listing).json()["total"]
    closed = redis.Redis(port=1, socket_connect_timeout=1)  # nothing listens on port 1: a broker that is down
    monkeypatch.setattr(queue, "_broker_client", lambda: closed)
    r = client.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json={"name": "while down"})
    assert r.status_code == 503, r.text
    assert r.headers["Retry-After"] == "10"
    assert r.json()["detail"][0]["loc"][-1] == "broker"
    monkeypatch.undo()
    assert client.get(listing).json()["total"] == before
