"""Large project imports run as jobs: API -> PostgreSQL -> Redis -> a real worker -> one transaction.

These tests commit for real (the worker is another process); the projects they create are deleted.
"""

from __future__ import annotations

import copy
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.api.app import create_app
from loopline.db.session import session_scope
from loopline.services.catalog import ensure_builtin_catalog
from loopline.services.project_imports import INLINE_MAX_HALLS

HALLS = INLINE_MAX_HALLS + 5  # above the inline limit: a job
RACKS_PER_HALL = 3


def sign_up(email: str) -> TestClient:
    client = TestClient(create_app())
    account = {"email": email, "password": "import them all please"}
    assert client.post("/api/v1/auth/register", json=account).status_code == 202
    assert client.post("/api/v1/auth/login", json=account).status_code == 200
    return client


@pytest.fixture(scope="module")
def setup(celery_worker_process: subprocess.Popen[bytes]) -> Iterator[dict[str, Any]]:
    """A one-hall project (a row of 3 racks) exported, and its hall copied into a document of `HALLS` halls."""
    with session_scope() as s:
        ensure_builtin_catalog(s)
    client = sign_up("importer@example.com")
    project = client.post("/api/v1/projects", json={"name": "source"}).json()["id"]
    hall = client.post(f"/api/v1/projects/{project}/halls", json={"name": "H", "width_m": 10, "depth_m": 6}).json()
    servers = {m["name"]: m["id"] for m in client.get("/api/v1/catalog/server-models").json()["items"]}
    switches = {m["name"]: m["id"] for m in client.get("/api/v1/catalog/switch-models").json()["items"]}
    lr = {"servers": 4, "server_model_id": servers["2x25G server"], "ports_used": 2,
          "tor_model_id": switches["48x25G+8x100G ToR"]}  # fmt: skip
    row = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": RACKS_PER_HALL, "rack_template": {"logical_racks": [lr]}}
    r = client.post(f"/api/v1/halls/{hall['id']}/rows", json=row)
    assert r.status_code == 201, r.text
    one = client.get(f"/api/v1/projects/{project}/export").json()
    doc = copy.deepcopy(one)
    doc["project"]["name"] = "imported"
    doc["halls"] = [{**copy.deepcopy(one["halls"][0]), "name": f"H{i:03d}"} for i in range(HALLS)]
    created: list[int] = [project]
    yield {"client": client, "doc": doc, "created": created}
    for pid in created:
        got = client.get(f"/api/v1/projects/{pid}")
        if got.status_code == 200:
            client.delete(f"/api/v1/projects/{pid}", headers={"If-Match": got.headers["etag"]}).raise_for_status()


def wait_for(client: TestClient, url: str, timeout_s: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    seen: list[dict[str, Any]] = []
    while True:
        job = client.get(url).json()
        seen.append(job)
        if job["status"] in {"succeeded", "failed"} or time.monotonic() > deadline:
            job["seen"] = seen
            return dict(job)
        time.sleep(0.1)


def project_names(client: TestClient) -> list[str]:
    return [p["name"] for p in client.get("/api/v1/projects?limit=500").json()["items"]]


def test_a_large_import_is_a_job_that_reports_progress_and_creates_the_project(setup: dict[str, Any]) -> None:
    client, doc = setup["client"], setup["doc"]
    r = client.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 202, r.text
    job = r.json()
    assert r.headers["location"] == f"/api/v1/projects/imports/{job['id']}"
    assert (job["status"], job["halls_total"], job["racks_total"]) == ("queued", HALLS, HALLS * RACKS_PER_HALL)
    assert (job["halls_done"], job["project_id"], job["errors"]) == (0, None, None)

    done = wait_for(client, r.headers["location"])
    assert done["status"] == "succeeded", done["errors"]
    assert (done["halls_done"], done["progress"], done["attempts"]) == (HALLS, 1.0, 1)
    setup["created"].append(done["project_id"])
    # Progress only goes up, and never past the total.
    halls_seen = [j["halls_done"] for j in done["seen"]]
    assert halls_seen == sorted(halls_seen) and max(halls_seen) == HALLS
    copy_ = client.get(f"/api/v1/projects/{done['project_id']}/export").json()
    assert copy_["project"]["name"] == "imported" and copy_["halls"] == doc["halls"]
    assert client.get(f"/api/v1/projects/{done['project_id']}").json()["role"] == "owner"
    mine = client.get("/api/v1/projects/imports").json()
    assert mine["items"][0]["id"] == job["id"]


def test_a_failing_import_leaves_nothing_behind_and_names_the_field(setup: dict[str, Any]) -> None:
    client = setup["client"]
    before = project_names(client)
    servers_before = client.get("/api/v1/catalog/server-models").json()["total"]

    # Refused by the layout rules deep in the document (hall 22), after 22 halls were written in the
    # transaction; the document also brings a catalog entry of its own, which must not survive either.
    bad = copy.deepcopy(setup["doc"])
    bad["project"]["name"] = "never"
    bad["catalog"]["server_models"].append({"name": "only in this import", "nic_ports": 1, "port_gbps": 10.0,
                                            "height_u": 1})  # fmt: skip
    bad["halls"][22]["rows"][0]["racks"][1]["rack_type"] = "no such rack type"
    r = client.post("/api/v1/projects/import", json=bad)
    assert r.status_code == 202, r.text
    done = wait_for(client, r.headers["location"])
    assert done["status"] == "failed" and done["project_id"] is None
    assert done["errors"] == [
        {"field": "halls[22].rows[0].racks[1].rack_type", "msg": "'no such rack type' is not in the document's catalog"}
    ]
    assert project_names(client) == before
    assert client.get("/api/v1/catalog/server-models").json()["total"] == servers_before

    # Refused by the document's schema, which the worker checks (the request only outlined it).
    bad = copy.deepcopy(setup["doc"])
    bad["project"]["name"] = "never either"
    bad["halls"][23]["rows"][0]["x_m"] = -1
    r = client.post("/api/v1/projects/import", json=bad)
    done = wait_for(client, r.headers["location"])
    assert done["status"] == "failed"
    assert [e["field"] for e in done["errors"]] == ["halls[23].rows[0].x_m"]
    assert "greater than or equal to 0" in done["errors"][0]["msg"]
    assert project_names(client) == before


def test_an_import_job_is_seen_only_by_its_sender_and_keys_are_idempotent(setup: dict[str, Any]) -> None:
    client, doc = setup["client"], setup["doc"]
    small = {**doc, "halls": doc["halls"][:1]}
    # A small document becomes a job on request (e.g. to show progress) or with an Idempotency-Key.
    r = client.post("/api/v1/projects/import", json=small, headers={"Idempotency-Key": "imp-1"})
    assert r.status_code == 202, r.text
    again = client.post("/api/v1/projects/import", json=small, headers={"Idempotency-Key": "imp-1"})
    assert again.status_code == 202 and again.json()["id"] == r.json()["id"]
    other = client.post("/api/v1/projects/import", json=doc, headers={"Idempotency-Key": "imp-1"})
    assert other.status_code == 422 and other.json()["detail"][0]["field"] == "Idempotency-Key"

    stranger = sign_up("stranger@example.com")
    url = r.headers["location"]
    assert stranger.get(url).status_code == 404
    assert stranger.get("/api/v1/projects/imports").json()["total"] == 0
    done = wait_for(client, url)
    assert done["status"] == "succeeded", done["errors"]
    setup["created"].append(done["project_id"])
    assert stranger.get(url).status_code == 404
    assert stranger.get(f"/api/v1/projects/{done['project_id']}").status_code == 404

    r = client.post("/api/v1/projects/import", json=small, headers={"Prefer": "respond-async"})
    assert r.status_code == 202 and r.json()["halls_total"] == 1
    done = wait_for(client, r.headers["location"])
    assert done["status"] == "succeeded"
    setup["created"].append(done["project_id"])
