"""Decomposed mode in the simulation API: the request's settings (refusals name the field), the job
reading as decomposed with its links done, and (with the engine's `decompose plan`) the estimate's
link counts and the refusals the engine names."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from loopline.api.schemas.sim_estimates import DECOMPOSED_NOTE
from loopline.db.models import JobStatus, SimulationJob
from loopline.domain import sim_estimate as se
from loopline.domain.sim_estimate import DecompositionPlan, decomposed
from loopline.services import sim_preflight

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


def decomposed_shuffle(workload: dict[str, Any], threshold: float) -> dict[str, Any]:
    s = shuffle("decomposed")
    s["workload"] = workload
    s["engine"]["decomposed"] = {"cluster_threshold": threshold}
    return s


def test_the_estimate_of_a_small_decomposed_run_counts_the_plans_links(owner: TestClient, project: int) -> None:
    # two_racks: 6 cables, 12 directed links. Rack A's 2 servers to rack B's 2: 4 flows over A0/A1 -> TA,
    # TA -> SP, SP -> TB, TB -> B0/B1: 6 links with flows, the 6 reverse ones idle; threshold 0: each simulated
    one_way = {"type": "many_to_many", "senders": ["A0", "A1"], "receivers": ["B0", "B1"], "bytes": 15_000}
    # the 4-server shuffle: every directed link carries flows; at threshold 0.5 the engine may cluster
    # them (which ones is its rule): simulated and clustered add up to the links with flows
    everywhere = {"type": "shuffle", "bytes_per_pair": 15_000}
    keys = ("links_total", "links_with_flows", "links_simulated", "links_clustered", "links_idle")
    for workload, threshold, counts in (
        (one_way, 0.0, (12, 6, 6, 0, 6)),
        (everywhere, 0.0, (12, 12, 12, 0, 0)),
        (everywhere, 0.5, None),
    ):
        scenario = decomposed_shuffle(workload, threshold)
        r = owner.post(f"/api/v1/projects/{project}/simulations/estimate", json={"name": "e", "scenario": scenario})
        assert r.status_code == 200, r.text
        d = r.json()["decomposed"]
        engine_plan = DecompositionPlan.of(sim_preflight.decompose_plan(scenario))
        # the plan's link counts exactly (derived by hand where the engine's clustering rule plays no part)
        assert tuple(d[k] for k in keys) == tuple(getattr(engine_plan, k) for k in keys), d
        if counts is not None:
            assert tuple(d[k] for k in keys) == counts, d
        else:
            assert (d["links_total"], d["links_with_flows"], d["links_idle"]) == (12, 12, 0), d
        assert d["links_simulated"] + d["links_clustered"] == d["links_with_flows"] and d["links_simulated"] >= 1
        assert d["cluster_threshold"] == threshold and r.json()["decomposed_refused"] is None
        # the cost figures are the engine's plan's, times the constants, over the workers counted
        assert (d["packets_total"], d["largest_link_packets"]) == (
            engine_plan.packets_total,
            engine_plan.largest_link_packets,
        )
        expected = decomposed(engine_plan, d["workers"])
        assert d["workers"] >= 1 and d["wall_s"] == pytest.approx(expected.wall_s)
        assert d["planning_s"] == pytest.approx(expected.planning_s) and d["fits"] and d["reason"] is None


def test_a_decomposed_run_over_the_workers_limit_is_refused_naming_mode(
    owner: TestClient,
    project: int,
    plan: dict[str, Any],  # noqa: F811
) -> None:
    # 10 GB per pair: its costliest link alone is past the limit, however many workers share the rest
    body = {"name": "huge", "mode": "decomposed", "workload": {"type": "shuffle", "bytes_per_pair": 10_000_000_000}}
    est = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=body).json()
    assert not est["decomposed"]["fits"] and "over the worker's limit" in est["decomposed"]["reason"], est["decomposed"]
    limit = est["limit_wall_s"] * se.LINK_PACKET_HOPS_PER_S
    assert est["decomposed"]["largest_link_packets"] > limit
    r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json=body)
    assert r.status_code == 422, r.text
    [item] = r.json()["detail"]
    assert item["field"] == "mode" and "decomposed mode would take" in item["msg"], item
    raw = decomposed_shuffle({"type": "shuffle", "bytes_per_pair": 10**12}, 0.05)
    r = owner.post(f"/api/v1/projects/{project}/simulations", json={"name": "huge", "scenario": raw})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"] == "scenario.engine.mode"
    assert owner.get(f"/api/v1/projects/{project}/simulations").json()["total"] == 0


def test_a_plan_request_in_decomposed_mode_carries_its_settings_to_the_engine(
    owner: TestClient,
    plan: dict[str, Any],  # noqa: F811
) -> None:
    scenario = owner.get(f"/api/v1/wiring-plans/{plan['id']}/scenario").json()
    body = {"name": "d", "mode": "decomposed", "decomposed": {"cluster_threshold": 0}, "packet": {"transport": "dctcp"}}
    r = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=body)
    assert r.status_code == 200, r.text
    d = r.json()["decomposed"]
    assert d["links_total"] == 2 * len(scenario["network"]["links"]) and d["cluster_threshold"] == 0
    assert d["links_with_flows"] == d["links_simulated"] > 0 and d["links_clustered"] == 0
    job = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations", json=body)
    assert job.status_code == 202, job.text
    assert job.json()["model"] == "decomposed"


def test_decomposed_settings_left_out_are_the_engines_defaults(
    owner: TestClient,
    plan: dict[str, Any],  # noqa: F811
) -> None:
    bare = {"name": "d", "mode": "decomposed"}
    default = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=bare).json()["decomposed"]
    empty = {**bare, "decomposed": {}}
    same = owner.post(f"/api/v1/wiring-plans/{plan['id']}/simulations/estimate", json=empty).json()["decomposed"]
    assert same["cluster_threshold"] == default["cluster_threshold"]
