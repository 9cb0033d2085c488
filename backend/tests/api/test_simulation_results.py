"""A simulation's result as data: paged tables, CSV and JSON downloads, by session or by an API token
with `sim:read` (and not without it). The result is the compiled engine's, stored on a job row."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from loopline.db.models import JobStatus, SimulationJob
from loopline.domain.sim_outcome import classify
from loopline.domain.sim_results import TABLES
from loopline.settings import get_settings


def scenario() -> dict[str, Any]:
    """3 ToRs of 2 servers (A, B, C) under one spine; a shuffle among all six."""
    servers = [f"{r}{i}" for r in "ABC" for i in (1, 2)]
    nodes = [{"id": s, "role": "server", "layer": 0} for s in servers]
    nodes += [{"id": f"T{r}", "role": "tor", "layer": 1} for r in "ABC"] + [{"id": "SP", "role": "spine", "layer": 2}]
    links = [{"id": f"L{s}", "a": s, "b": f"T{s[0]}", "gbps": 25} for s in servers]
    links += [{"id": f"U{r}", "a": f"T{r}", "b": "SP", "gbps": 100} for r in "ABC"]
    return {
        "schema_version": 1,
        "network": {"nodes": nodes, "links": links},
        "workload": {"type": "shuffle", "servers": servers, "bytes_per_pair": 1_000_000},
        "engine": {"mode": "flow", "seed": 1, "failures": []},
    }


@pytest.fixture(scope="module")
def engine_result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("result")
    (tmp / "s.json").write_text(json.dumps(scenario()))
    subprocess.run(
        [str(get_settings().engine_binary), "run", str(tmp / "s.json"), "-o", str(tmp / "r.json"), "--no-run-info"],
        check=True, capture_output=True,
    )  # fmt: skip
    return dict(json.loads(Path(tmp / "r.json").read_text()))


def stored(db_session: Session, project: int, result: dict[str, Any] | None, status: JobStatus) -> int:
    sc = scenario()
    job = SimulationJob(project_id=project, name="r", status=status, scenario=sc, result=result)
    if result is not None:
        o = classify(result)
        job.outcome, job.stalled_flows, job.unfinished_flows = o.outcome, o.stalled, o.unfinished
    db_session.add(job)
    db_session.commit()
    return int(job.id)


def test_tables_are_paged_in_the_engines_order(
    owner: TestClient, project: int, db_session: Session, engine_result: dict[str, Any]
) -> None:
    job = stored(db_session, project, engine_result, JobStatus.SUCCEEDED)
    url = f"/api/v1/simulations/{job}/results"
    first = owner.get(f"{url}/servers", params={"limit": 4}).json()
    second = owner.get(f"{url}/servers", params={"limit": 4, "page": 2}).json()
    assert (first["total"], first["page"], first["limit"]) == (6, 1, 4)
    assert [r["id"] for r in first["items"]] == ["A1", "A2", "B1", "B2"]
    assert [r["id"] for r in second["items"]] == ["C1", "C2"]
    # each server sends 1 MB to each of the 5 others and receives as much
    assert {(r["bytes_sent"], r["bytes_received"]) for r in first["items"] + second["items"]} == {(5e6, 5e6)}
    links = owner.get(f"{url}/links", params={"limit": 100}).json()
    assert links["total"] == 2 * 9  # both directions of each cable
    assert [(r["id"], r["from"], r["to"]) for r in links["items"][:2]] == [("LA1", "A1", "TA"), ("LA1", "TA", "A1")]
    assert set(links["items"][0]) == set(TABLES["links"])
    buckets = owner.get(f"{url}/size-buckets").json()
    assert sum(r["flows"] for r in buckets["items"]) == 30 == engine_result["flows"]["finished"]
    # a result stored without per-flow records (worker tests: worker/tests/test_simulation_flows.py)
    assert owner.get(f"{url}/flows").status_code == 409 and "kept no per-flow records" in owner.get(f"{url}/flows").text
    beyond = owner.get(f"{url}/servers", params={"limit": 4, "page": 3}).json()
    assert (beyond["items"], beyond["total"]) == ([], 6)


def test_csv_and_json_downloads(
    owner: TestClient, project: int, db_session: Session, engine_result: dict[str, Any]
) -> None:
    job = stored(db_session, project, engine_result, JobStatus.SUCCEEDED)
    r = owner.get(f"/api/v1/simulations/{job}/results/servers.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"] == f'attachment; filename="simulation-{job}-servers.csv"'
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == list(TABLES["servers"])
    assert [row[0] for row in rows[1:]] == ["A1", "A2", "B1", "B2", "C1", "C2"]
    assert rows[1][1:3] == ["5000000.0", "5000000.0"]
    links = list(csv.reader(io.StringIO(owner.get(f"/api/v1/simulations/{job}/results/links.csv").text)))
    assert len(links) == 1 + 18
    r = owner.get(f"/api/v1/simulations/{job}/result.json")
    assert r.status_code == 200 and r.headers["content-disposition"] == f'attachment; filename="simulation-{job}.json"'
    body = r.json()
    assert body["result"] == engine_result
    assert (body["simulation"], body["outcome"], body["stalled_flows"]) == (job, "complete", 0)


def test_a_job_without_a_result_is_a_conflict(owner: TestClient, project: int, db_session: Session) -> None:
    job = stored(db_session, project, None, JobStatus.RUNNING)
    for url in ("results/servers", "results/servers.csv", "result.json"):
        r = owner.get(f"/api/v1/simulations/{job}/{url}")
        assert r.status_code == 409, url
        assert "has no result (running)" in r.text


def test_a_token_reads_results_with_sim_read_only(
    owner: TestClient, project: int, db_session: Session, engine_result: dict[str, Any], app: Any
) -> None:
    job = stored(db_session, project, engine_result, JobStatus.SUCCEEDED)

    def token(*scopes: str) -> dict[str, str]:
        r = owner.post("/api/v1/tokens", json={"name": "t", "scopes": list(scopes)})
        assert r.status_code == 201, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    reader, other = token("sim:read"), token("wiring:read", "layout:read")
    anonymous = TestClient(app)
    for url in ("results/servers?page=2&limit=2", "results/links.csv", "result.json", ""):
        full = f"/api/v1/simulations/{job}/{url}".rstrip("/")
        assert anonymous.get(full, headers=reader).status_code == 200, url
        assert anonymous.get(full, headers=other).status_code == 403, url
        assert anonymous.get(full).status_code == 401, url
    page = anonymous.get(f"/api/v1/simulations/{job}/results/servers?page=2&limit=2", headers=reader).json()
    assert [r["id"] for r in page["items"]] == ["B1", "B2"]
