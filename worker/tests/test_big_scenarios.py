"""A large scenario is stored at once and validated by the engine in the worker (not in the request)."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.api.app import create_app
from loopline.services.simulations import VALIDATE_INLINE_BYTES, encode
from loopline.settings import get_settings


@pytest.fixture(scope="module")
def setup(celery_worker_process: subprocess.Popen[bytes]) -> Iterator[dict[str, Any]]:
    client = TestClient(create_app())
    account = {"email": "big-scenarios@example.com", "password": "simulate it all please"}
    assert client.post("/api/v1/auth/register", json=account).status_code == 202
    assert client.post("/api/v1/auth/login", json=account).status_code == 200
    project = client.post("/api/v1/projects", json={"name": "big scenarios"}).json()["id"]
    yield {"client": client, "project": project}
    version = client.get(f"/api/v1/projects/{project}").json()["version"]
    client.delete(f"/api/v1/projects/{project}", headers={"If-Match": f'"{version}"'}).raise_for_status()


def big_scenario() -> dict[str, Any]:
    """A FatTree k=36 (11,664 servers, 34,992 links): about 2.9 MB of JSON, above the inline limit."""
    out = subprocess.run(
        [str(get_settings().engine_binary), "gen", "fattree", "--k", "36", "--flows", "1000"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    scenario = dict(json.loads(out.stdout))
    assert len(encode(scenario)) > VALIDATE_INLINE_BYTES
    return scenario


def wait_for(client: TestClient, job_id: int, timeout_s: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job = client.get(f"/api/v1/simulations/{job_id}").json()
        if job["status"] in {"succeeded", "failed"} or time.monotonic() > deadline:
            return dict(job)
        time.sleep(0.2)


def test_a_big_invalid_scenario_fails_in_the_worker_naming_the_field(setup: dict[str, Any]) -> None:
    client, url = setup["client"], f"/api/v1/projects/{setup['project']}/simulations"
    scenario = big_scenario()
    scenario["network"]["links"][16000]["b"] = "NO-SUCH-NODE"
    r = client.post(url, json={"name": "big and bad", "scenario": scenario})
    assert r.status_code == 202, r.text  # only outlined in the request
    job = wait_for(client, r.json()["id"])
    assert job["status"] == "failed"
    assert job["error_field"] == "scenario.network.links[16000].b"
    assert job["error"].startswith("scenario.network.links[16000].b: ") and "NO-SUCH-NODE" in job["error"]
    assert job["result"] is None


def test_a_big_valid_scenario_runs(setup: dict[str, Any]) -> None:
    client, url = setup["client"], f"/api/v1/projects/{setup['project']}/simulations"
    r = client.post(url, json={"name": "big", "scenario": big_scenario()})
    assert r.status_code == 202, r.text
    job = wait_for(client, r.json()["id"])
    assert job["status"] == "succeeded", job["error"]
    assert job["error_field"] is None and job["result"]["flows"]["finished"] == 1000


def test_a_big_scenario_of_the_wrong_shape_is_refused_in_the_request(setup: dict[str, Any]) -> None:
    client, url = setup["client"], f"/api/v1/projects/{setup['project']}/simulations"
    before = client.get(url).json()["total"]
    scenario = big_scenario()
    scenario["network"]["links"] = {"all": scenario["network"]["links"]}
    r = client.post(url, json={"name": "shapeless", "scenario": scenario})
    assert r.status_code == 422
    assert r.json()["detail"][0] == {"loc": ["scenario", "network", "links"], "field": "scenario.network.links",
                                     "msg": "must be a list"}  # fmt: skip
    del scenario["workload"]
    r = client.post(url, json={"name": "shapeless", "scenario": scenario})
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "scenario.workload"
    assert client.get(url).json()["total"] == before
