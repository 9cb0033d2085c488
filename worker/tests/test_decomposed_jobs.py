"""Decomposed runs split over two real worker processes (PostgreSQL, Redis, Celery, the compiled
engine): the job's result is the engine's own `run` of its scenario (run_info aside), a worker
killed outright mid-run loses no link, cancel ends every batch, and the API's refusals and estimate
come from the engine.

Small fat-trees (`loopline-sim gen fattree --k 4`) keep the runs short; the scenarios are sent as
complete scenarios (`POST /projects/{id}/simulations`).
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from loopline.api.app import create_app
from loopline.db.models import JobStatus, SimulationFlow, SimulationJob, SimulationPart
from loopline.db.session import session_scope
from loopline.domain.sim_results import FLOW_COLUMNS
from loopline.queue import PING_TASK, SIMULATE_TASK, get_celery, live_workers
from loopline.settings import get_settings
from loopline_worker.decomposed import BATCHES_PER_WORKER, batch_count

sys.path.insert(0, str(Path(__file__).parent))
from test_simulation_jobs import delete_project, small_hall, wait_for
from test_sweeps import VISIBILITY_S, start_worker, stop


@given(links=st.integers(0, 10_000), workers=st.integers(-1, 100))
def test_batches_are_a_few_per_worker_at_least_one_and_at_most_one_per_link(links: int, workers: int) -> None:
    n = batch_count(links, workers)
    assert 1 <= n <= max(1, links)
    assert n <= BATCHES_PER_WORKER * max(1, workers)
    if links >= BATCHES_PER_WORKER * max(1, workers):
        assert n == BATCHES_PER_WORKER * max(1, workers)


def engine(*args: str) -> bytes:
    return subprocess.run([str(get_settings().engine_binary), *args], check=True, capture_output=True).stdout


def fattree(flows: int, load: float = 0.5, **engine_section: Any) -> dict[str, Any]:
    """A k=4 fat-tree (16 servers) with web-search Poisson flows, in decomposed mode."""
    scenario = json.loads(engine("gen", "fattree", "--k", "4", "--flows", str(flows), "--load", str(load)))
    scenario["engine"] = {**scenario.get("engine", {}), "mode": "decomposed", **engine_section}
    return dict(scenario)


def local_run(scenario: dict[str, Any], tmp: Path) -> dict[str, Any]:
    """`loopline-sim run` of the scenario as the worker runs it (per-flow records kept)."""
    path, out = tmp / "scenario.json", tmp / "result.json"
    path.write_text(json.dumps({**scenario, "engine": {**scenario["engine"], "flow_records": True}}))
    engine("run", str(path), "-o", str(out))
    return dict(json.loads(out.read_bytes()))


def same_result(job: dict[str, Any], local: dict[str, Any]) -> None:
    """The job's stored result and per-flow records are the local run's, run_info aside."""
    records = local.pop("flow_records")
    for result in (job["result"], local):
        result.pop("run_info", None)
    assert job["result"] == local
    with session_scope() as session:
        rows = session.execute(
            select(*(getattr(SimulationFlow, c) for c in FLOW_COLUMNS))
            .where(SimulationFlow.job_id == job["id"])
            .order_by(SimulationFlow.index)
        ).all()
    assert [dict(zip(FLOW_COLUMNS, r, strict=True)) for r in rows] == records
    assert job["flow_records"] == len(records)


def parts(job_id: int) -> list[SimulationPart]:
    with session_scope() as session:
        found = list(
            session.execute(
                select(SimulationPart).where(SimulationPart.job_id == job_id).order_by(SimulationPart.batch)
            ).scalars()
        )
        session.expunge_all()
        return found


def answering(*wanted: str) -> None:
    """Wait until these workers answer a ping (a run is split only over the workers that answer)."""
    deadline = time.monotonic() + 60
    while True:
        answered = get_celery().control.ping(timeout=2)
        names = {k.split("@")[0] for reply in answered for k in reply}
        if set(wanted) <= names:
            return
        assert time.monotonic() < deadline, f"workers did not start: {names}"


def test_the_only_worker_runs_it_in_one_process_on_every_core(
    celery_worker_process: subprocess.Popen[bytes], tmp_path: Path
) -> None:
    """(Runs before this module's two workers start: the session's worker is alone on the broker.)"""
    if live_workers() != 1:
        pytest.skip("another worker answers on this broker (another test session's)")
    client = TestClient(create_app())
    project, _ = small_hall(client, "decomposed-alone@example.com", "Decomposed alone")
    try:
        scenario = fattree(flows=3000, load=0.6)
        r = client.post(f"/api/v1/projects/{project}/simulations", json={"name": "alone", "scenario": scenario})
        assert r.status_code == 202, r.text
        seen: list[tuple[int | None, int | None]] = []
        deadline = time.monotonic() + 240
        while (job := client.get(f"/api/v1/simulations/{r.json()['id']}").json())["status"] in ("queued", "running"):
            seen.append((job["links_done"], job["links_total"]))
            assert time.monotonic() < deadline, job
            time.sleep(0.1)
        assert job["status"] == "succeeded", job["error"]
        links = json.loads(engine("decompose", "plan", str(_write(tmp_path, scenario))))["links_simulated"]
        assert job["batches"] is None and parts(job["id"]) == []  # not split: no chord, no parts
        assert (job["links_done"], job["links_total"]) == (links, links)
        # the engine's own progress lines count the links while it runs (`run` prints one a second)
        assert any(t == links and d is not None and d < links for d, t in seen), seen
        same_result(job, local_run(scenario, tmp_path))
    finally:
        delete_project(client, project)


@pytest.fixture(scope="module")
def workers(migrated_database: str) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    procs = {name: start_worker(name) for name in ("w1", "w2")}
    try:
        answering("w1", "w2")
        get_celery().send_task(PING_TASK).get(timeout=10)
        yield procs
    finally:
        for p in procs.values():
            stop(p)


@pytest.fixture(scope="module")
def setup(workers: dict[str, subprocess.Popen[bytes]]) -> Iterator[dict[str, Any]]:
    client = TestClient(create_app())
    project, _ = small_hall(client, "decomposed@example.com", "Decomposed")
    yield {"client": client, "project": project, "workers": workers}
    delete_project(client, project)


def submit(setup: dict[str, Any], scenario: dict[str, Any], name: str = "decomposed") -> dict[str, Any]:
    r = setup["client"].post(
        f"/api/v1/projects/{setup['project']}/simulations", json={"name": name, "scenario": scenario}
    )
    assert r.status_code == 202, r.text
    return dict(r.json())


def test_a_decomposed_job_over_two_workers_is_the_engines_own_run(setup: dict[str, Any], tmp_path: Path) -> None:
    client = setup["client"]
    scenario = fattree(flows=400)
    alive = live_workers()  # w1, w2 (and the session's worker when an earlier module started it)
    created = submit(setup, scenario)
    assert (created["model"], created["links_done"]) == ("decomposed", None)
    progress: list[tuple[int | None, int | None, float]] = []
    deadline = time.monotonic() + 240
    while (job := client.get(f"/api/v1/simulations/{created['id']}").json())["status"] in ("queued", "running"):
        progress.append((job["links_done"], job["links_total"], job["progress"]))
        assert time.monotonic() < deadline, job
        time.sleep(0.1)
    assert job["status"] == "succeeded", job["error"]
    plan = json.loads(engine("decompose", "plan", str(_write(tmp_path, scenario))))
    links = plan["links_simulated"]
    assert job["batches"] == batch_count(links, alive), (job["batches"], links, alive)
    assert (job["links_done"], job["links_total"], job["outcome"]) == (links, links, "complete")
    # progress counted links while the batches ran, never past the total
    running = [(d, t, p) for d, t, p in progress if t is not None]
    assert running and all(0 <= d <= t == links and p == pytest.approx(d / t, abs=1e-4) for d, t, p in running)
    stored = parts(job["id"])
    assert [p.batch for p in stored] == list(range(1, job["batches"] + 1))
    assert all((p.status.value, p.stores, p.data) == ("succeeded", 1, None) for p in stored)
    # a batch counts its links as its engine reports them (none within its first second)
    counted = [p for p in stored if p.links_total is not None]
    assert all(p.links_done == p.links_total for p in counted)
    assert sum(p.links_done for p in counted) <= links
    if len(counted) == len(stored):
        assert sum(p.links_done for p in stored) == links
    assert {p.worker.split("@")[0] for p in stored if p.worker} >= {"w1", "w2"}, [p.worker for p in stored]
    same_result(client.get(f"/api/v1/simulations/{job['id']}").json(), local_run(scenario, tmp_path))


def _write(tmp: Path, scenario: dict[str, Any]) -> Path:
    path = tmp / "plan-scenario.json"
    path.write_text(json.dumps({**scenario, "engine": {**scenario["engine"], "flow_records": True}}))
    return path


def test_a_split_job_sent_again_runs_only_the_batches_without_a_part(setup: dict[str, Any], tmp_path: Path) -> None:
    """What the reconciler does for a split job whose heart stopped: its task, sent again, sends the
    batches that have no part (here batch 1 of 3 is stored already) and the parts are combined."""
    scenario = fattree(flows=400)
    with session_scope() as session:
        job = SimulationJob(
            project_id=setup["project"], name="resumed", status=JobStatus.RUNNING, scenario=scenario, batches=3,
            links_total=1, attempts=1, started_at=datetime.now(UTC) - timedelta(hours=1),
            heartbeat_at=datetime.now(UTC) - timedelta(hours=1), claimed_by="elsewhere:1",
        )  # fmt: skip
        session.add(job)
        session.flush()
        job_id, stored = job.id, dict(job.scenario)
    with session_scope() as session:  # the scenario as the worker reads it back
        stored = session.execute(select(SimulationJob.scenario).where(SimulationJob.id == job_id)).scalar_one()
    path, part = tmp_path / "scenario.json", tmp_path / "part-1.json"
    path.write_text(json.dumps({**stored, "engine": {**stored["engine"], "flow_records": True}}))
    engine("decompose", "links", str(path), "--batch", "1/3", "-o", str(part))
    with session_scope() as session:
        session.add(
            SimulationPart(job_id=job_id, batch=1, batches=3, status=JobStatus.SUCCEEDED, stores=1,
                           data=gzip.compress(part.read_bytes()))
        )  # fmt: skip
    get_celery().send_task(SIMULATE_TASK, args=[job_id])
    job_read = wait_for(setup["client"], job_id, until={"succeeded", "failed", "cancelled"}, timeout_s=240)
    assert job_read["status"] == "succeeded", job_read["error"]
    # (2, or more when the reconciler also found the job silent while its batches waited for a worker)
    assert job_read["attempts"] >= 2
    assert [(p.batch, p.attempts, p.stores, p.status.value) for p in parts(job_id)] == [
        (1, 0, 1, "succeeded"), (2, 1, 1, "succeeded"), (3, 1, 1, "succeeded"),
    ]  # fmt: skip
    same_result(setup["client"].get(f"/api/v1/simulations/{job_id}").json(), local_run(scenario, tmp_path))


def test_a_worker_killed_mid_run_loses_no_link(setup: dict[str, Any], tmp_path: Path) -> None:
    client, workers = setup["client"], setup["workers"]
    scenario = fattree(flows=3000, load=0.6)
    created = submit(setup, scenario, "killed")
    w1 = workers["w1"].pid
    deadline = time.monotonic() + 120
    while True:  # w1 is in the middle of a batch: frozen there (it can store nothing), then killed
        assert time.monotonic() < deadline, "w1 never ran a batch"
        if not any(p.status.value == "running" and (p.worker or "").startswith("w1@") for p in parts(created["id"])):
            time.sleep(0.05)
            continue
        os.killpg(w1, signal.SIGSTOP)
        victim = [p for p in parts(created["id"]) if p.status.value == "running" and (p.worker or "").startswith("w1@")]
        if victim:
            break
        os.killpg(w1, signal.SIGCONT)  # it had just stored that part: wait for its next batch
    # main process and pool, no goodbye to the broker (the engine dies with its pool process)
    os.killpg(w1, signal.SIGKILL)
    workers["w1"].wait()
    job = wait_for(client, created["id"], until={"succeeded", "failed", "cancelled"}, timeout_s=VISIBILITY_S + 240)
    assert job["status"] == "succeeded", job["error"]
    stored = parts(job["id"])
    assert [p.batch for p in stored] == list(range(1, job["batches"] + 1))
    assert all((p.status.value, p.stores) == ("succeeded", 1) for p in stored), [(p.status, p.stores) for p in stored]
    lost = next(p for p in stored if p.batch == victim[0].batch)
    assert lost.attempts == 2 and lost.worker and not lost.worker.startswith("w1@"), (lost.attempts, lost.worker)
    same_result(client.get(f"/api/v1/simulations/{job['id']}").json(), local_run(scenario, tmp_path))
    setup["workers"]["w1"] = start_worker("w1")  # for the tests after this one
    answering("w1", "w2")


def engines_under(pids: list[int]) -> list[str]:
    """The engine processes (`loopline-sim decompose ...`) descending from these processes."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            todo.append(child)
            try:
                cmd = (Path("/proc") / str(child) / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if len(cmd) > 1 and cmd[1] == b"decompose":
                found.append(b" ".join(cmd).decode())
    return found


def test_cancel_ends_every_batch(setup: dict[str, Any]) -> None:
    client = setup["client"]
    created = submit(setup, fattree(flows=20_000, load=0.7), "cancelled")
    deadline = time.monotonic() + 120
    while len([p for p in parts(created["id"]) if p.status.value == "running"]) < 2:  # both workers on it
        assert time.monotonic() < deadline, [(p.batch, p.status) for p in parts(created["id"])]
        time.sleep(0.05)
    r = client.post(f"/api/v1/simulations/{created['id']}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled", r.text
    deadline = time.monotonic() + 60
    while True:
        now = parts(created["id"])
        if not any(p.status.value == "running" for p in now):
            break
        assert time.monotonic() < deadline, [(p.batch, p.status) for p in now]
        time.sleep(0.2)
    assert {p.status.value for p in now} <= {"succeeded", "cancelled"} and any(
        p.status.value == "cancelled" for p in now
    )
    assert all(p.data is None for p in now)  # no part left behind
    pids = [p.pid for p in setup["workers"].values()]
    assert engines_under(pids) == []
    job = client.get(f"/api/v1/simulations/{created['id']}").json()
    assert job["status"] == "cancelled" and job["finished_at"] is not None and job["result"] is None
    # the batches still queued when it was cancelled start nothing: every batch has a row or none
    assert len(now) <= job["batches"]


def test_the_api_refuses_a_decomposed_scenario_with_failures_naming_the_field(setup: dict[str, Any]) -> None:
    client = setup["client"]
    scenario = fattree(flows=100)
    switch = next(n["id"] for n in scenario["network"]["nodes"] if n["role"] != "server")
    scenario["engine"]["failures"] = [{"at_s": 0.001, "node": switch}]
    r = client.post(f"/api/v1/projects/{setup['project']}/simulations", json={"name": "bad", "scenario": scenario})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"] == "scenario.engine.failures", r.text
    r = client.post(
        f"/api/v1/projects/{setup['project']}/simulations/estimate", json={"name": "e", "scenario": scenario}
    )
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "scenario.engine.failures", r.text
    # the same scenario in flow mode: its estimate says why it cannot run decomposed, beside the other modes
    scenario["engine"]["mode"] = "flow"
    r = client.post(
        f"/api/v1/projects/{setup['project']}/simulations/estimate", json={"name": "e", "scenario": scenario}
    )
    assert r.status_code == 200, r.text
    assert r.json()["decomposed"] is None and r.json()["decomposed_refused"].startswith("scenario.engine.failures: ")
    assert r.json()["flow"]["fits"]
