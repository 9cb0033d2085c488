"""Decomposed mode in the simulation API: the request's settings (refusals name the field), the job
reading as decomposed with its links done, and (with the engine's `decompose plan`) the estimate's
link counts and the refusals the engine names."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from loopline.api.schemas.sim_estimates import DECOMPOSED_NOTE
from loopline.db.models import JobStatus, SimulationJob

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _scenarios import shuffle
from test_sim_estimates import named, plan  # noqa: F401 (plan: the fixture)


def test_decomposed_settings_need_decomposed_mode_and_packet_settings_a_packet_level_mode(
    owner: TestClient,
    plan: dict[str, Any],  # noqa: F811
) -> None:
    for change, field in (
        ({"mode": "flow", "decomposed": {"cluster_threshold": 0.1}}, "decomposed"),
        ({"mode": "packet", "decomposed": {"cluster_threshold": 0.1}}, "decomposed"),
        ({"mode": "flow", "packet": {"transport": "dctcp"}}, "packet"),
        ({"mode": "decomposed", "decomposed": {"cluster_threshold": 1.5}}, "decomposed.cluster_threshold"),
        ({"mode": "decomposed", "decomposed": {"cluster_threshold": -0.1}}, "decomposed.cluster_threshold"),
        ({"mode": "fluid"}, "mode"),
    ):
        for url in ("simulations/estimate", "simulations"):
            r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/{url}", json={"name": "bad", **change})
            assert r.status_code == 422, (change, r.text)
            assert named(r.json()["detail"][0]) == field, (change, r.text)


def test_a_decomposed_job_reads_as_decomposed_with_its_links(
    owner: TestClient, project: int, db_session: Session
) -> None:
    job = SimulationJob(
        project_id=project, name="d", status=JobStatus.RUNNING, scenario=shuffle("decomposed"), progress=0.25,
        links_done=3, links_total=12, batches=6,
    )  # fmt: skip
    db_session.add(job)
    db_session.commit()
    read = owner.get(f"/api/v1/simulations/{job.id}").json()
    assert (read["model"], read["note"]) == ("decomposed", DECOMPOSED_NOTE)
    assert (read["links_done"], read["links_total"], read["batches"], read["progress"]) == (3, 12, 6, 0.25)
    listed = owner.get(f"/api/v1/projects/{project}/simulations").json()["items"]
    assert [(j["model"], j["links_done"], j["links_total"]) for j in listed] == [("decomposed", 3, 12)]
