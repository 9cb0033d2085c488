#!/usr/bin/env python3
"""Benchmark: loading a hall's physical plant from PostgreSQL (`services.facility_plant.load_plant`) for a
2,000-rack hall with a 100,000-cable plan, and the whole `GET /halls/{id}/facility?plan_id=`
(load + every check + JSON) through the app in-process (issue 28; not a timed test).

The hall is created through the API (`POST /rows/bulk`: 40 rows x 50 racks, 2 logical racks of 15
servers); the plan's devices and cables are written with COPY as a generated plan stores them (a
server cable to its own ToR inside the rack, and 20 servers a rack cabled to the next rack's ToR over
the tray: 50 cables a rack, 100,000 in all). Works on a scratch database of its own. Medians of `--runs`.

`--structured` (issue 29): instead, a 100,000-server hall wired with structured cabling, the hall of
scripts/bench_structured.py (50 rows x 50 racks x 2 logical racks of 20 servers, a network rack at
each row's end, three-tier fabric, side-to-side p = 2, row-end panels) stored as rows (the rows
service, as the seed writes them) and its plan generated, structured and stored as creation does;
then the same two timings: its report sees the plant's cords, trunks, panels and per-port optics
in place of the 20,000 ToR uplinks.

    .venv/bin/python scripts/bench_facility_load.py [--runs 5] [--structured]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
from pathlib import Path
from typing import Any

import bench_app  # (scripts/ is on the path: the script's own folder)

ROOT = Path(__file__).resolve().parents[1]
PORTS = json.loads((ROOT / ".run" / "ports.json").read_text())
ROWS, RACKS, SERVERS = 40, 50, 15


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--structured", action="store_true", help="a 100,000-server structured plan instead")
    args = parser.parse_args()
    with bench_app.scratch_database():
        return bench(args.runs, structured=args.structured)


def synthetic_plan(client: Any, project: int) -> tuple[int, int]:
    """The synthetic hall and plan (see the module docstring): (hall id, plan id)."""
    from loopline.db.models import Project, WiringPlanRow
    from loopline.db.repositories.wiring import CABLE_COPY_COLUMNS, DEVICE_COPY_COLUMNS, copy_rows
    from loopline.db.session import session_scope

    ids = {m["name"]: m["id"] for m in client.get("/api/v1/catalog/server-models").json()["items"]}
    ids |= {m["name"]: m["id"] for m in client.get("/api/v1/catalog/switch-models").json()["items"]}
    lr = {"servers": SERVERS, "server_model_id": ids["2x25G server"], "ports_used": 2,
          "tor_model_id": ids["48x25G+8x100G ToR"]}  # fmt: skip
    rows = [{"name": f"R{i:03d}", "x_m": 1, "y_m": 1 + 2.4 * i, "front": "left" if i % 2 == 0 else "right",
             "rack_count": RACKS, "rack_template": {"logical_racks": [lr, lr]}} for i in range(ROWS)]  # fmt: skip
    hall = client.post(
        f"/api/v1/projects/{project}/halls", json={"name": "H1", "width_m": RACKS * 0.6 + 2, "depth_m": ROWS * 2.4 + 2}
    ).json()["id"]
    assert client.post(f"/api/v1/halls/{hall}/rows/bulk", json={"rows": rows}).status_code == 201

    with session_scope() as session:
        assert session.get(Project, project) is not None
        plan = WiringPlanRow(project_id=project, hall_id=hall, name="synthetic", spec={}, summary={}, loops=[],
                             tray_z_mm=2300, via="tray")  # fmt: skip
        session.add(plan)
        session.flush()
        plan_id = plan.id
        devices, cables = [], []
        for i in range(ROWS):
            for k in range(RACKS):
                rack = f"H1.R{i:03d}.R{i:03d}-{k + 1:02d}"
                x, y = 1300 + 600 * k, 1000 + 2400 * i
                for b in range(2):
                    tor = f"{rack}.T{b}"
                    devices.append((plan_id, tor, tor, "tor", rack, 16 + 16 * b, "tor", None, None, None, None,
                                    x, y, 700 + 711 * b))  # fmt: skip
                    for s in range(SERVERS):
                        srv = f"{rack}.S{b}{s:02d}"
                        devices.append((plan_id, srv, srv, "server", rack, 1 + s + 16 * b, "srv", None, None,
                                        None, None, x, y, 20 + 44 * (s + 16 * b)))  # fmt: skip
        n = 0
        for i in range(ROWS):
            for k in range(RACKS):
                rack = f"H1.R{i:03d}.R{i:03d}-{k + 1:02d}"
                nxt = f"H1.R{i:03d}.R{i:03d}-{(k + 1) % RACKS + 1:02d}"
                for b in range(2):
                    for s in range(SERVERS):
                        srv = f"{rack}.S{b}{s:02d}"
                        ends = [(f"{rack}.T{b}", rack, "DAC-25G-RSFEC", "dac", None)]
                        if s < 10:
                            ends.append((f"{nxt}.T{b}", nxt, "AOC-25G", "aoc", None))
                        for tor, tor_rack, part, medium, xcvr in ends:
                            cables.append((plan_id, f"C{n}", n, f"L{n}", "server-tor", srv, "p1", rack, "",
                                           tor, f"e{n}", tor_rack, "", 25.0, 2000, 2200, 3000, medium, part,
                                           xcvr, 0, 0.0))  # fmt: skip
                            n += 1
        copy_rows(session, "plan_devices", DEVICE_COPY_COLUMNS, devices)
        copy_rows(session, "plan_cables", CABLE_COPY_COLUMNS, cables)
    assert n == 100_000, n
    return hall, plan_id


def structured_plan(project: int) -> tuple[int, int, str]:
    """The bench_structured hall stored under `project` and its structured plan: (hall id, plan id, what)."""
    from sqlalchemy import select

    from loopline.db.models import Hall, RackType, Role, ServerModel, SwitchModel, User, WiringPlanRow
    from loopline.db.session import session_scope
    from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
    from loopline.domain.layout import Point
    from loopline.domain.rack_planning import FabricSwitchSpec, LogicalRackSpec, RackSpec, RowSpec
    from loopline.domain.routing import DEFAULT_GEOMETRY
    from loopline.domain.structured.plant import Cabling, PanelPlacement, StructuredSettings
    from loopline.domain.wiring import Pattern, WiringSpec, generate_plan, summarize
    from loopline.services import rows as rows_service
    from loopline.services import wiring_plant
    from loopline.services.access import Principal, ProjectAccess
    from loopline.services.layout_snapshot import load_hall
    from loopline.services.wiring_spec import route_level_mm, server_port_speeds
    from loopline.services.wiring_storage import store_plan

    shape = build_abstract_layout(
        AbstractLayoutSpec(rows=50, racks_per_row=50, logical_per_rack=2, servers_per_logical_rack=20, ports=2)
    )
    with session_scope() as session:
        user = session.execute(select(User).where(User.email == "bench@loopline.local")).scalar_one()
        hall_row = Hall(project_id=project, name="H2", width_mm=shape.width_mm, depth_mm=shape.depth_mm)
        session.add(hall_row)
        session.flush()
        ids: dict[str, int] = {}
        for table in (ServerModel, SwitchModel, RackType):
            ids |= {m.name: m.id for m in session.execute(select(table).where(table.builtin)).scalars()}
        for fs in {f.model for row in shape.rows for rk in row.racks for f in rk.fabric_switches}:
            if fs.name not in ids:  # the abstract layout's chassis switches: custom entries of the same shape
                m = SwitchModel(name=fs.name, server_ports=fs.server_ports, server_port_gbps=fs.server_port_gbps,
                                uplink_ports=fs.uplink_ports, uplink_gbps=fs.uplink_gbps, height_u=fs.height_u,
                                owner_id=user.id, created_by=user.id)  # fmt: skip
                session.add(m)
                session.flush()
                ids[fs.name] = m.id
        specs = [
            RowSpec(
                name=row.name, origin=Point(row.origin.x_mm, row.origin.y_mm), direction=row.direction,
                front=row.front,
                racks=tuple(
                    RackSpec(
                        name=f"{row.name}-{rk.name}", rack_type_id=ids[rk.rack_type.name],
                        position_mm=rk.position_mm, role=rk.role,
                        logical_racks=tuple(
                            LogicalRackSpec(lr.servers, ids[lr.server_model.name], ids[lr.tor_model.name],
                                            lr.ports_used, lr.tor_position, lr.base_u)
                            for lr in rk.logical_racks
                        ),
                        fabric_switches=tuple(
                            FabricSwitchSpec(f.name, f.role, ids[f.model.name], f.u, f.cluster)
                            for f in rk.fabric_switches
                        ),
                    )
                    for rk in row.racks
                ),
            )
            for row in shape.rows
        ]  # fmt: skip
        access = ProjectAccess(project, Principal(user), Role.OWNER)
        rows_service.create_rows(session, access, hall_row.id, specs, action="bench")
        hall_id = hall_row.id
    with session_scope() as session:
        hall = load_hall(session, hall_id)
        spec = WiringSpec(
            pattern=Pattern.SIDE_TO_SIDE, ports=2, cabling=Cabling.STRUCTURED,
            structured=StructuredSettings(panel_at=PanelPlacement.ROW_END),
        )  # fmt: skip
        plan = generate_plan(hall, spec)
        plant = wiring_plant.build_plant(hall, plan, DEFAULT_GEOMETRY)
        assert plant is not None
        row = WiringPlanRow(
            project_id=project, hall_id=hall_id, name="bench structured",
            spec={"name": "bench structured", "pattern": "side-to-side", "ports": 2, "cabling": "structured",
                  "structured": {"panel_at": "row-end"}},
            summary=summarize(plan, server_port_speeds(hall), plant).to_json(), diff=None, loops=[],
            tray_z_mm=route_level_mm(DEFAULT_GEOMETRY, hall), via="tray",
        )  # fmt: skip
        session.add(row)
        session.flush()
        store_plan(session, row.id, hall, plan)
        wiring_plant.store_plant(session, row.id, plant)
        servers = sum(1 for d in plan.devices if d.role.value == "server")
        what = (
            f"{servers:,} servers, {len(plan.cables):,} logical links, a structured plant of {len(plant.panels):,} "
            f"panels and {len(plant.items):,} items ({len(plant.findings)} findings kept)"
        )
        return hall_id, row.id, what


def bench(runs: int, *, structured: bool = False) -> int:
    from loopline.db.session import session_scope
    from loopline.services import facility_plant

    client = bench_app.migrated_app()
    project = bench_app.signed_in(client)
    if structured:
        hall, plan_id, what = structured_plan(project)
    else:
        hall, plan_id = synthetic_plan(client, project)
        what = "100,000 cables"

    cpu: list[float] = []
    routed: list[int] = []

    def load() -> float:
        with session_scope() as session:
            t0, c0 = time.perf_counter(), time.process_time()
            plant = facility_plant.load_plant(session, hall, plan_id)
            elapsed = time.perf_counter() - t0
            cpu.append(time.process_time() - c0)
        assert structured or (len(plant.routed) == 100_000 and len(plant.racks) == ROWS * RACKS)
        routed.append(len(plant.routed))
        return elapsed

    def report() -> float:
        t0 = time.perf_counter()
        r = client.get(f"/api/v1/halls/{hall}/facility", params={"plan_id": plan_id})
        elapsed = time.perf_counter() - t0
        assert r.status_code == 200, r.text[:500]
        return elapsed

    load()
    report()  # warm-up
    cpu.clear()
    loads = [load() for _ in range(runs)]
    reports = [report() for _ in range(runs)]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"facility load bench: {what}, {routed[-1]:,} cables routed; median of {runs} runs; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
        f"  load_plant                         median {statistics.median(loads) * 1000:6.0f} ms "
        f"(min {min(loads) * 1000:.0f}, max {max(loads) * 1000:.0f}); "
        f"its own CPU time median {statistics.median(cpu) * 1000:.0f} ms (the rest: PostgreSQL, other processes)\n"
        f"  GET /halls/{{id}}/facility?plan_id= median {statistics.median(reports) * 1000:6.0f} ms "
        f"(min {min(reports) * 1000:.0f}, max {max(reports) * 1000:.0f})\n"
        f"  process peak RSS {rss:.0f} MiB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
