"""Sweeps with two real worker processes: the points fan out over both, arrive one by one, survive
one worker killed outright mid-sweep (every point finished exactly once), and can be cancelled."""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.api.app import create_app
from loopline.queue import PING_TASK, get_celery

sys.path.insert(0, str(Path(__file__).parent))
from test_simulation_jobs import delete_project, small_hall

ROOT = Path(__file__).resolve().parents[2]
ENGINE_LIMIT_S = 10
VISIBILITY_S = 30
"""The workers' broker visibility timeout (longer than their engine limit, so no live worker's point
is handed out twice): how soon the point of a worker killed outright goes back to the queue."""
POISSON = {"workload": "poisson", "flows": 20_000, "load": 0.5}


def start_worker(name: str, **settings: str) -> subprocess.Popen[bytes]:
    """A worker process `name`; `settings` override its LOOPLINE_* environment (lower-case names)."""
    log = ROOT / ".run" / "logs" / f"test-sweep-{name}-{os.getpid()}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "LOOPLINE_ENGINE_TIME_LIMIT_S": str(ENGINE_LIMIT_S),
        "LOOPLINE_BROKER_VISIBILITY_TIMEOUT_S": str(VISIBILITY_S),
        # silent for 5 s, a point's worker is dead: the point handed out again after the visibility
        # timeout is run, not skipped as a duplicate of a live run
        "LOOPLINE_JOB_HEARTBEAT_S": "1",
        "LOOPLINE_JOB_STALE_AFTER_S": "5",
        **{f"LOOPLINE_{k.upper()}": v for k, v in settings.items()},
    }
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "loopline_worker.app", "worker", "-n", f"{name}@%h",
         "--concurrency", "1", "--without-gossip", "--without-mingle", "--loglevel", "INFO", "--logfile", str(log)],
        cwd=ROOT / "worker", env=env, start_new_session=True,
    )  # fmt: skip


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def workers(migrated_database: str) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    procs = {name: start_worker(name) for name in ("w1", "w2")}
    try:
        deadline = time.monotonic() + 60
        while True:  # both answer
            answered = get_celery().control.ping(timeout=2)
            names = {k.split("@")[0] for reply in answered for k in reply}
            if {"w1", "w2"} <= names:
                break
            assert time.monotonic() < deadline, f"workers did not start: {names}"
        get_celery().send_task(PING_TASK).get(timeout=10)
        yield procs
    finally:
        for p in procs.values():
            stop(p)


@pytest.fixture(scope="module")
def setup(workers: dict[str, subprocess.Popen[bytes]]) -> Iterator[dict[str, Any]]:
    client = TestClient(create_app())
    project, hall = small_hall(client, "sweeps@example.com", "Sweeps")
    yield {"client": client, "project": project, "hall": hall, "workers": workers}
    delete_project(client, project)


def sweep(setup: dict[str, Any], grid: dict[str, list[Any]], base: dict[str, Any] | None = None) -> dict[str, Any]:
    r = setup["client"].post(
        f"/api/v1/halls/{setup['hall']}/sweeps", json={"name": "grid", "base": base or POISSON, "grid": grid}
    )
    assert r.status_code == 202, r.text
    return dict(r.json())


def wait(client: TestClient, sweep_id: int, until: set[str], timeout_s: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        s = client.get(f"/api/v1/sweeps/{sweep_id}").json()
        if s["status"] in until:
            return dict(s)
        assert time.monotonic() < deadline, f"sweep still {s['status']}: {s['points_by_status']}"
        time.sleep(0.2)


def test_a_sweep_fans_out_over_both_workers_and_points_arrive_one_by_one(setup: dict[str, Any]) -> None:
    client = setup["client"]
    created = sweep(setup, {"pattern": ["single-homed", "paired-row"], "seed": [1, 2, 3, 4]})
    assert created["points_total"] == 8 and [p["index"] for p in created["points"]] == list(range(8))
    # the last axis varies fastest
    assert [(p["params"]["pattern"], p["params"]["seed"]) for p in created["points"][:5]] == [
        ("single-homed", 1), ("single-homed", 2), ("single-homed", 3), ("single-homed", 4), ("paired-row", 1),
    ]  # fmt: skip
    finished_counts = []
    deadline = time.monotonic() + 180
    while (s := client.get(f"/api/v1/sweeps/{created['id']}").json())["status"] != "succeeded":
        finished_counts.append(s["points_by_status"]["succeeded"])
        assert time.monotonic() < deadline, s["points_by_status"]
        time.sleep(0.1)
    assert any(0 < n < 8 for n in finished_counts), "points did not arrive one by one"
    points = s["points"]
    assert all(p["status"] == "succeeded" for p in points), [p["error"] for p in points]
    assert [(p["attempts"], p["finishes"]) for p in points] == [(1, 1)] * 8
    ran = Counter(p["worker"].split("@")[0] for p in points)
    assert ran["w1"] > 0 and ran["w2"] > 0, ran
    # design figures depend on the pattern only; performance on the seed too
    for pattern in ("single-homed", "paired-row"):
        mine = [p["figures"] for p in points if p["params"]["pattern"] == pattern]
        assert len({(f["cost_total"], f["cables"], f["total_ordered_length_m"]) for f in mine}) == 1
        assert all(f["flows_total"] == 20_000 and f["outcome"] == "complete" for f in mine)
    # a point's design figures are those of the same plan generated and stored through the API
    for point in (points[0], points[4]):
        r = client.post(
            f"/api/v1/halls/{setup['hall']}/wiring-plans", json={"name": "same", "pattern": point["params"]["pattern"]}
        )
        assert r.status_code == 201, r.text
        summary, f = r.json()["summary"], point["figures"]
        assert (f["cables"], f["cost_total"], f["currency"]) == (
            summary["cables"], summary["cost"]["total"], summary["cost"]["currency"],
        )  # fmt: skip
        assert f["total_ordered_length_m"] == round(summary["total_ordered_length_m"], 1) and f["cost_total"] > 0
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/v1/sweeps/{created['id']}/points.csv").text)))
    assert [(r["index"], r["pattern"], r["seed"], r["status"]) for r in rows[:2]] == [
        ("0", "single-homed", "1", "succeeded"), ("1", "single-homed", "2", "succeeded"),
    ]  # fmt: skip
    assert float(rows[0]["fct_mean_s"]) == points[0]["figures"]["fct_mean_s"]


def test_bad_grids_are_refused_naming_the_field(setup: dict[str, Any]) -> None:
    client, url = setup["client"], f"/api/v1/halls/{setup['hall']}/sweeps"
    for grid, field in (
        ({"pattern": ["single-homed", "zigzag"]}, "grid.pattern[1]"),
        ({"colour": [1]}, "grid.colour"),
        ({"seed": []}, "grid.seed"),
        ({"seed": list(range(50)), "flows": list(range(1, 6))}, "grid"),
        ({"uplinks_per_tor": [0]}, "grid.uplinks_per_tor[0]"),
    ):
        r = client.post(url, json={"name": "bad", "grid": grid})
        assert r.status_code == 422, (grid, r.text)
        assert field in r.text, (field, r.text)


def test_cancel_stops_a_sweep(setup: dict[str, Any]) -> None:
    client = setup["client"]
    created = sweep(setup, {"seed": list(range(1, 21))})
    wait_point = time.monotonic() + 60
    while client.get(f"/api/v1/sweeps/{created['id']}").json()["points_by_status"]["succeeded"] == 0:
        assert time.monotonic() < wait_point
        time.sleep(0.1)
    r = client.post(f"/api/v1/sweeps/{created['id']}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert client.post(f"/api/v1/sweeps/{created['id']}/cancel").status_code == 409
    deadline = time.monotonic() + 60
    while (s := client.get(f"/api/v1/sweeps/{created['id']}").json())["points_by_status"]["running"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    by = s["points_by_status"]
    assert s["status"] == "cancelled" and by["queued"] == 0 and by["cancelled"] > 0 and by["succeeded"] >= 1
    assert by["succeeded"] + by["cancelled"] == 20


def test_a_worker_killed_mid_sweep_loses_no_point(setup: dict[str, Any]) -> None:
    client, workers = setup["client"], setup["workers"]
    created = sweep(setup, {"seed": list(range(1, 9))})
    deadline = time.monotonic() + 60
    while True:  # w1 is in the middle of a point
        s = client.get(f"/api/v1/sweeps/{created['id']}").json()
        victim = [p for p in s["points"] if p["status"] == "running" and p["worker"].startswith("w1@")]
        if victim:
            break
        assert time.monotonic() < deadline, "w1 never ran a point"
        time.sleep(0.05)
    os.killpg(workers["w1"].pid, signal.SIGKILL)  # main process and pool: no goodbye to the broker
    workers["w1"].wait()
    done = wait(client, created["id"], {"succeeded", "cancelled"}, timeout_s=VISIBILITY_S + 150)
    points = done["points"]
    assert done["status"] == "succeeded"
    assert all(p["status"] == "succeeded" for p in points), [p["error"] for p in points]
    assert all(p["finishes"] == 1 for p in points), [p["finishes"] for p in points]
    lost = points[victim[0]["index"]]
    # Run again by a live worker: w2, or the session's own worker when an earlier test started it.
    assert lost["attempts"] == 2 and lost["worker"] and not lost["worker"].startswith("w1@")
    # the rerun gives the figures the same parameters give: seeds differ, so compare with itself
    assert lost["figures"]["flows_total"] == 20_000 and lost["figures"]["outcome"] == "complete"
