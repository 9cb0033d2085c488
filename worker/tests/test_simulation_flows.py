"""Per-flow records end to end: API -> a real worker -> the engine with `engine.flow_records` ->
`simulation_flows` -> pages, CSV, the exact CDF; scopes and other users' jobs.

The scenario is small enough to derive by hand: S1, S2 and S3 each send 1.25 MB (1e7 bits) to S0
through one switch; S1's link is 10 Gb/s, S2's 2, S3's 1, S0's 10. Max-min: S3's flow is held to
1 Gb/s and S2's to 2 by their own links, S1's gets the rest of S0's link, 7 Gb/s, and finishes at
1e7 / 7e9 s (alone: 1 ms, slowdown 10/7). S2's keeps 2 Gb/s and finishes at 5 ms (its ideal:
slowdown 1); S3's would at 10 ms, but the run stops at 6 ms: unfinished.
"""

from __future__ import annotations

import csv
import io
import struct
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.api.app import create_app

FCT_1 = 1e7 / 7e9
FCT_2 = 0.005


def star_scenario() -> dict[str, Any]:
    speeds = {"S0": 10, "S1": 10, "S2": 2, "S3": 1}
    nodes = [{"id": s, "role": "server", "layer": 0} for s in speeds] + [{"id": "SW", "role": "tor", "layer": 1}]
    links = [{"id": f"L{s}", "a": s, "b": "SW", "gbps": g} for s, g in speeds.items()]
    return {
        "schema_version": 1,
        "network": {"nodes": nodes, "links": links},
        "workload": {"type": "many_to_many", "senders": ["S1", "S2", "S3"], "receivers": ["S0"], "bytes": 1_250_000},
        "engine": {"mode": "flow", "seed": 1, "stop_time_s": 0.006},
    }


def wait_for(client: TestClient, job_id: int, timeout_s: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job = client.get(f"/api/v1/simulations/{job_id}").json()
        if job["status"] in ("succeeded", "failed", "cancelled") or time.monotonic() > deadline:
            return dict(job)
        time.sleep(0.1)


def login(email: str) -> TestClient:
    client = TestClient(create_app())
    account = {"email": email, "password": "flows please"}
    assert client.post("/api/v1/auth/register", json={**account, "display_name": "F"}).status_code == 202
    assert client.post("/api/v1/auth/login", json=account).status_code == 200
    return client


@pytest.fixture(scope="module")
def run(celery_worker_process: subprocess.Popen[bytes]) -> Iterator[dict[str, Any]]:
    client = login("flows@example.com")
    project = client.post("/api/v1/projects", json={"name": "Flows"}).json()["id"]
    r = client.post(f"/api/v1/projects/{project}/simulations", json={"name": "star", "scenario": star_scenario()})
    assert r.status_code == 202, r.text
    job = wait_for(client, r.json()["id"])
    assert job["status"] == "succeeded", job["error"]
    yield {"client": client, "job": job, "url": f"/api/v1/simulations/{job['id']}"}
    version = client.get(f"/api/v1/projects/{project}").json()["version"]
    client.delete(f"/api/v1/projects/{project}", headers={"If-Match": f'"{version}"'}).raise_for_status()


def test_the_records_are_the_hand_derived_ones(run: dict[str, Any]) -> None:
    client, job, url = run["client"], run["job"], run["url"]
    assert job["flow_records"] == 3 and job["outcome"] == "partial"
    # the summary stays on the job and in result.json; the records are apart
    assert "flow_records" not in job["result"]
    assert "flow_records" not in client.get(f"{url}/result.json").json()["result"]
    page = client.get(f"{url}/results/flows").json()
    assert page["total"] == 3
    rows = page["items"]
    assert [(r["index"], r["src"], r["dst"], r["bytes"], r["start_s"]) for r in rows] == [
        (i, s, "S0", 1_250_000, 0.0) for i, s in enumerate(["S1", "S2", "S3"])
    ]
    assert rows[0]["fct_s"] == pytest.approx(FCT_1, rel=1e-9)
    assert rows[0]["slowdown"] == pytest.approx(10 / 7, rel=1e-9)
    assert rows[1]["fct_s"] == pytest.approx(FCT_2, rel=1e-9)
    assert rows[1]["slowdown"] == pytest.approx(1.0, rel=1e-9)
    assert (rows[2]["fct_s"], rows[2]["slowdown"]) == (None, None)


def test_pages_sort_and_filter(run: dict[str, Any]) -> None:
    client, url = run["client"], run["url"]

    def indices(**params: object) -> tuple[list[int], int]:
        r = client.get(f"{url}/results/flows", params=params)
        assert r.status_code == 200, r.text
        return [row["index"] for row in r.json()["items"]], r.json()["total"]

    assert indices(sort="fct_s", limit=2) == ([0, 1], 3)
    assert indices(sort="fct_s", limit=2, page=2) == ([2], 3)
    # descending: the unfinished flow counts as the longest
    assert indices(sort="fct_s", order="desc") == ([2, 1, 0], 3)
    assert indices(sort="slowdown", order="desc", flows="finished") == ([0, 1], 2)
    assert indices(flows="unfinished") == ([2], 1)
    assert indices(order="desc", limit=1, page=3) == ([0], 3)
    r = client.get(f"{url}/results/flows", params={"sort": "bytes"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "sort"]


def test_csv_and_the_exact_cdf(run: dict[str, Any]) -> None:
    client, job, url = run["client"], run["job"], run["url"]
    r = client.get(f"{url}/results/flows.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    name = f"simulation-{job['id']}-flows.csv"
    assert r.headers["content-disposition"] == f"attachment; filename=\"{name}\"; filename*=UTF-8''{name}"
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == ["index", "src", "dst", "bytes", "start_s", "fct_s", "slowdown"]
    assert [row[:4] for row in rows[1:]] == [[str(i), s, "S0", "1250000"] for i, s in enumerate(["S1", "S2", "S3"])]
    assert float(rows[1][5]) == pytest.approx(FCT_1, rel=1e-9) and rows[3][5:] == ["", ""]
    r = client.get(f"{url}/results/flows/cdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/octet-stream"
    assert r.headers["x-flows-total"] == "3"
    values = struct.unpack(f"<{len(r.content) // 8}d", r.content)
    assert values == pytest.approx([FCT_1, FCT_2], rel=1e-9)
    slow = struct.unpack("<2d", client.get(f"{url}/results/flows/cdf", params={"of": "slowdown"}).content)
    assert slow == pytest.approx([1.0, 10 / 7], rel=1e-9)


def test_scopes_and_other_users(run: dict[str, Any]) -> None:
    client, url = run["client"], run["url"]

    def token(*scopes: str) -> dict[str, str]:
        r = client.post("/api/v1/tokens", json={"name": "t", "scopes": list(scopes)})
        assert r.status_code == 201, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    reader, other = token("sim:read"), token("wiring:read", "layout:read")
    anonymous = TestClient(create_app())
    stranger = login("stranger-flows@example.com")
    for part in ("results/flows?limit=1", "results/flows.csv", "results/flows/cdf"):
        assert anonymous.get(f"{url}/{part}", headers=reader).status_code == 200, part
        assert anonymous.get(f"{url}/{part}", headers=other).status_code == 403, part
        assert anonymous.get(f"{url}/{part}").status_code == 401, part
        assert stranger.get(f"{url}/{part}").status_code == 404, part
