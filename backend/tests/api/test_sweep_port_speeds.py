"""Sweeps over port speeds: each point's plan really has the speed (its cables' Gb/s, the media
chosen at that speed, the BOM), the compiled engine sees those link rates, and a speed the hall's
devices cannot run is a 422 naming the field and the device. Service level on the real database:
`sweeps.point_plan` / `point_scenario` are what the worker runs for a point (the worker's own path:
worker/tests/test_sweeps.py and the browser test)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from loopline.db.models import Sweep
from loopline.domain import bom
from loopline.domain.sim_outcome import classify
from loopline.domain.wiring import LinkClass
from loopline.services import pricing, sweeps
from loopline.settings import get_settings


@pytest.fixture
def fast_hall(owner: TestClient, hall: dict[str, Any], h: Any) -> dict[str, Any]:
    """Two racks of 4 servers with 100G ports under a 48x100G+8x400G ToR each (p = 1, single-homed),
    and a network rack of two 64x100G spines: server links can run 10..100G, fabric links 10..100G."""
    r = owner.post(
        "/api/v1/catalog/switch-models",
        json={"name": "48x100G+8x400G ToR", "server_ports": 48, "server_port_gbps": 100, "uplink_ports": 8,
              "uplink_gbps": 400, "height_u": 1},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    tor = r.json()["id"]
    gpu = owner.get("/api/v1/catalog/server-models", params={"limit": 100}).json()["items"]
    server = next(m["id"] for m in gpu if m["name"] == "2x100G GPU server")
    lr = {"servers": 4, "server_model_id": server, "ports_used": 1, "tor_model_id": tor}
    row = h.row(owner, hall["id"], n=2, rack_template={"rack_type_id": h.cat.rack, "logical_racks": [lr]})
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)]
    r = owner.post(
        f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": spines}
    )
    assert r.status_code == 201, r.text
    return hall


def create(owner: TestClient, hall: dict[str, Any], grid: dict[str, list[Any]], **base: Any) -> Any:
    return owner.post(f"/api/v1/halls/{hall['id']}/sweeps", json={"name": "speeds", "base": base, "grid": grid})


def run_engine(scenario: dict[str, Any], tmp: Path) -> dict[str, Any]:
    (tmp / "s.json").write_text(json.dumps(scenario))
    subprocess.run(
        [str(get_settings().engine_binary), "run", str(tmp / "s.json"), "-o", str(tmp / "r.json"), "--no-run-info"],
        check=True, capture_output=True,
    )  # fmt: skip
    return dict(json.loads((tmp / "r.json").read_text()))


def test_each_point_plan_has_its_server_speed_its_media_and_price(
    owner: TestClient, fast_hall: dict[str, Any], db_session: Session
) -> None:
    r = create(owner, fast_hall, {"server_gbps": [25, 50]})
    assert r.status_code == 202, r.text
    created = r.json()
    assert [p["params"]["server_gbps"] for p in created["points"]] == [25.0, 50.0]
    sweep = db_session.get(Sweep, created["id"])
    assert sweep is not None
    (p25, s25), (p50, s50) = (sweeps.point_plan(db_session, sweep, p["params"]) for p in created["points"])
    b25, b50 = (bom.price(s.materials, pricing.price_book(db_session, sweep.project_id)) for s in (s25, s50))
    server = {25.0: [c for c in p25.cables if c.link_class is LinkClass.SERVER_TOR],
              50.0: [c for c in p50.cables if c.link_class is LinkClass.SERVER_TOR]}  # fmt: skip
    assert len(server[25.0]) == len(server[50.0]) == 8  # 8 servers, p = 1
    for gbps, cables in server.items():
        assert {c.gbps for c in cables} == {gbps}
        assert {c.part_number for c in cables} == {f"DAC-{gbps:g}G"}  # in the rack: passive copper at that speed
    assert [c.ordered_mm for c in server[25.0]] == [c.ordered_mm for c in server[50.0]]
    # the fabric did not move: same cables, same speed (min of the ToR's 400G uplinks and the 100G spines)
    fabric25 = [(c.cable_id, c.gbps, c.part_number) for c in p25.cables if c.link_class is LinkClass.TOR_FABRIC]
    assert fabric25 == [(c.cable_id, c.gbps, c.part_number) for c in p50.cables if c.link_class is LinkClass.TOR_FABRIC]
    assert {g for _, g, _ in fabric25} == {100.0}
    # The default book prices DAC-<G> at 15 f + 3 f per metre (f = 1.5 at 25G, 2.5 at 50G): a 50G
    # cable costs 15 + 3 per metre more. The 100G servers run either speed on their own ports: no NIC.
    extra = sum(15 + 3 * c.ordered_mm / 1000 for c in server[25.0])
    assert round(b50.total - b25.total, 2) == round(extra, 2) and extra > 0
    assert not [x for x in b25.lines + b50.lines if x.category.value == "nic"]
    # the point's design figures keep that BOM's materials (priced when read)
    _, design = sweeps.point_scenario(db_session, sweep, created["points"][1]["params"])
    assert (design["materials"], design["cables"]) == (s50.materials.to_json(), s50.cables)


def test_the_engine_sees_the_speed_a_shuffle_bound_by_the_nic_takes_half_as_long_at_twice_it(
    owner: TestClient, fast_hall: dict[str, Any], db_session: Session, tmp_path: Path
) -> None:
    created = create(owner, fast_hall, {"server_gbps": [25, 50]}, workload="shuffle", job_racks=2, bytes=1_000_000)
    assert created.status_code == 202, created.text
    sweep = db_session.get(Sweep, created.json()["id"])
    assert sweep is not None
    times = []
    for p in created.json()["points"]:
        scenario, _ = sweeps.point_scenario(db_session, sweep, p["params"])
        gbps = p["params"]["server_gbps"]
        servers = {n["id"] for n in scenario["network"]["nodes"] if n["role"] == "server"}
        assert {x["gbps"] for x in scenario["network"]["links"] if {x["a"], x["b"]} & servers} == {gbps}
        result = run_engine(scenario, tmp_path)
        perf = sweeps.performance(result, classify(result))
        assert perf["outcome"] == "complete" and perf["flows_total"] == 8 * 7
        # Each server sends 7 MB through its own link and receives 7 MB through it (the ToRs' 4 x 100G
        # uplinks carry at most 4 x 50G): every flow gets G / 7, all end at 7 x 8e6 bits / G.
        times.append(perf["job_completion_s"])
        assert perf["job_completion_s"] == pytest.approx(7 * 8e6 / (gbps * 1e9), rel=1e-12)
    assert times[0] == pytest.approx(2 * times[1], rel=1e-12)


def test_a_speed_the_hall_cannot_build_is_a_422_naming_the_field_and_the_device(
    owner: TestClient, fast_hall: dict[str, Any]
) -> None:
    r = owner.get(f"/api/v1/halls/{fast_hall['id']}/sweeps/port-speeds")
    assert r.status_code == 200, r.text
    assert r.json() == {"server_gbps": [10, 25, 40, 50, 100], "fabric_gbps": [10, 25, 40, 50, 100]}
    for grid, base, field, words in (
        (
            {"server_gbps": [25, 400]},
            {},
            "grid.server_gbps[1]",
            [
                "400 Gb/s server links",
                "NIC ports of server model '2x100G GPU server' (rack R01-01) run at most 100 Gb/s",
            ],
        ),
        ({"server_gbps": [30]}, {}, "grid.server_gbps[0]", ["no cable or optic", "10, 25, 40, 50, 100, 200"]),
        (
            {"seed": [1]},
            {"fabric_gbps": 200},
            "base.fabric_gbps",
            ["downlink ports of spine SP1 ('64x100G spine') run at most 100"],
        ),
        ({"fabric_gbps": ["fast"]}, {}, "grid.fabric_gbps[0]", ["must be a number"]),
    ):
        r = create(owner, fast_hall, grid, **base)
        assert r.status_code == 422, (grid, r.text)
        assert field in r.text and all(w in r.text for w in words), r.text
    # both at once, each within what the devices run
    r = create(owner, fast_hall, {"fabric_gbps": [100]}, server_gbps=100)
    assert r.status_code == 202, r.text
