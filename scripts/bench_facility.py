#!/usr/bin/env python3
"""Benchmark: every facility check (`facility_report`) on the demo hall and on a 2,000-rack hall
with 100,000 routed cables (issue 28; not a timed test).

Both plants are synthetic but built as plans build them: rows in facing pairs across cold aisles,
racks of two logical racks (servers and a ToR), a network rack at the end of each row, and cables
routed with `cable_routes.route_points` between the ports' positions (`routing.face_xy`,
`device_z_mm`, `tray_z_mm`): every server to its own ToR (in the rack), some servers' second port
to the next rack's ToR (over the tray), ToR uplinks (fibre with an optic at each end) to the
network racks of its row and of the rows around it, and a ring between the network racks. The
catalog facts are plausible datasheet-like figures (not the builtin catalog's).

Each case runs in a child process: it builds the plant, times `facility_report` `--runs` times,
then runs it once more under tracemalloc for the report's own peak allocation; the child's peak
RSS (ru_maxrss) includes building the plant. Prints medians against the target (< 1 s each).

    .venv/bin/python scripts/bench_facility.py [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Any

TARGET_S = 1.0

CASES: dict[str, dict[str, int]] = {
    # The seeded demo hall: 4 rows of 12 racks + a network rack, 2 x 15 servers, p = 2.
    "demo hall": {"rows": 4, "compute": 12, "servers": 15, "neighbour": 30, "uplinks": 4, "target_cables": 0},
    # 40 rows of 49 compute racks + a network rack = 2,000 racks; 51 cables a compute rack, a ring of
    # 40 between the network racks: exactly 100,000 cables.
    "2,000-rack hall": {
        "rows": 40,
        "compute": 49,
        "servers": 16,
        "neighbour": 11,
        "uplinks": 4,
        "target_cables": 100_000,
    },
}


def build(rows: int, compute: int, servers: int, neighbour: int, uplinks: int, target_cables: int) -> Any:
    from loopline.domain.cable_routes import route_points
    from loopline.domain.facility.model import (
        Airflow,
        CableFacts,
        DeviceFacts,
        Feed,
        HallFacility,
        OpticFacts,
        PduModel,
        Plant,
        RackFacility,
        RoutedCable,
    )
    from loopline.domain.layout import (
        FabricSwitch,
        Hall,
        LogicalRack,
        Point,
        Rack,
        RackRole,
        RackType,
        Row,
        ServerModel,
        Side,
        SwitchModel,
    )
    from loopline.domain.routing import DEFAULT_GEOMETRY, Via, device_z_mm, face_xy, tray_z_mm

    server = ServerModel("2x25G server")
    tor = SwitchModel("48x25G+8x100G ToR")
    spine = SwitchModel("64x100G spine", server_ports=0, uplink_ports=64, uplink_gbps=100.0, height_u=2)
    rack_type = RackType()
    out_rows: list[Row] = []
    y = 2000
    for r in range(rows):
        front = Side.LEFT if r % 2 == 0 else Side.RIGHT
        lr1 = LogicalRack(servers, server, tor, base_u=1, ports_used=2)
        lr2 = LogicalRack(servers, server, tor, base_u=servers + 3, ports_used=2)
        racks = [Rack(f"R{r + 1:02d}-{k + 1:02d}", rack_type, 600 * k, (lr1, lr2)) for k in range(compute)]
        racks.append(
            Rack(
                f"R{r + 1:02d}-NET",
                rack_type,
                600 * compute,
                role=RackRole.NETWORK,
                fabric_switches=(
                    FabricSwitch(f"SP{2 * r + 1}", "spine", spine, 20),
                    FabricSwitch(f"SP{2 * r + 2}", "spine", spine, 23),
                ),
            )
        )
        out_rows.append(Row(f"R{r + 1:02d}", Point(2000, y), 0, front, tuple(racks)))
        # Pairs across 1.2 m cold aisles, a 0.9 m hot aisle between pairs; racks 1.2 m deep.
        y += 1200 + (1200 if r % 2 == 0 else 900)
    hall = Hall("H1", 2000 + 600 * (compute + 1) + 2000, y + 2000, tuple(out_rows), raised_floor_mm=600, tile_mm=600)
    tray = tray_z_mm(DEFAULT_GEOMETRY, hall)

    def port(row: Row, rack: Rack, u: int) -> tuple[int, int, int]:
        x, yy = face_xy(row, rack)
        return (x, yy, device_z_mm(DEFAULT_GEOMETRY, rack, u))

    cables: list[RoutedCable] = []

    def add(label: str, part: str, a: tuple[Row, Rack, int], b: tuple[Row, Rack, int], optic: str | None) -> None:
        same = a[1] is b[1]
        pts = route_points(Via.TRAY, tray, same, port(*a), port(*b))
        cables.append(RoutedCable(label, part, tuple(pts), a[1].name, b[1].name, optic))

    for ri, row in enumerate(out_rows):
        net = row.racks[-1]
        for k, rack in enumerate(row.racks[:-1]):
            nxt = row.racks[(k + 1) % compute]
            for lri, lr in enumerate(rack.logical_racks):
                tor_u = lr.tor_u()
                for s, u in enumerate(lr.server_us()):
                    add(f"{rack.name}.U{u}:p1", "DAC-25G-1M", (row, rack, u), (row, rack, tor_u), None)
                    if lri * servers + s < neighbour:
                        other_tor = nxt.logical_racks[lri].tor_u()
                        add(f"{rack.name}.U{u}:p2", "DAC-25G-3M", (row, rack, u), (row, nxt, other_tor), None)
                for up in range(uplinks):
                    to_row = out_rows[(ri + up) % rows]
                    to_net = to_row.racks[-1]
                    add(
                        f"{rack.name}.U{tor_u}:e{up + 1}",
                        "OM4-LC",
                        (row, rack, tor_u),
                        (to_row, to_net, 20),
                        "100G-SR4",
                    )
        if target_cables:
            to_row = out_rows[(ri + 1) % rows]
            add(f"{net.name}.U23:e64", "OM4-LC", (row, net, 23), (to_row, to_row.racks[-1], 23), "100G-SR4")
    if target_cables and len(cables) != target_cables:
        raise SystemExit(f"built {len(cables)} cables, expected {target_cables}")
    air = Airflow.FRONT_TO_REAR
    three_phase = (Feed("A", 230.0, 3, 32.0, "PDU-3P-32A"), Feed("B", 230.0, 3, 32.0, "PDU-3P-32A"))
    return Plant(
        hall=hall,
        facility=HallFacility(hall_cooling_kw=2.0 * len(out_rows) * (compute + 1) * 20),
        racks={rk.name: RackFacility(feeds=three_phase, power_budget_kw=20.0) for row in out_rows for rk in row.racks},
        servers={server.name: DeviceFacts(300.0, 450.0, 18.0, air)},
        switches={tor.name: DeviceFacts(250.0, 450.0, 9.5, air), spine.name: DeviceFacts(700.0, 1100.0, 14.0, air)},
        rack_types={rack_type.name: DeviceFacts(weight_kg=130.0)},
        rack_static_load_kg={rack_type.name: 1360.0},
        pdus={"PDU-3P-32A": PduModel("PDU-3P-32A", 36, 8.0)},
        cables={
            "DAC-25G-1M": CableFacts(4.5, 0.05, 30.0),
            "DAC-25G-3M": CableFacts(4.5, 0.05, 30.0),
            "OM4-LC": CableFacts(2.0, 0.008, 30.0),
        },
        optics={"100G-SR4": OpticFacts(3.5)},
        routed=tuple(cables),
    )


def once(case: str, runs: int) -> dict[str, Any]:
    from loopline.domain.facility.checks import facility_report

    plant = build(**CASES[case])
    times = []
    report = None
    for _ in range(runs):
        t0 = time.perf_counter()
        report = facility_report(plant)
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    facility_report(plant)
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert report is not None
    racks = sum(len(row.racks) for row in plant.hall.rows)
    errors = sum(1 for i in report.issues if i.severity == "error")
    return {
        "case": case,
        "racks": racks,
        "cables": len(plant.routed),
        "segments": len(report.trays),
        "issues": len(report.issues),
        "errors": errors,
        "fullest_tray": report.totals.fullest_tray,
        "fullest_tray_pct": round(report.totals.fullest_tray_pct, 1),
        "max_kw": round(report.totals.max_w / 1000, 1),
        "median_s": statistics.median(times),
        "all_s": [round(t, 3) for t in times],
        "report_peak_mb": traced / 1024**2,
        # ru_maxrss is in KiB on Linux
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("--once", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.once:
        print(json.dumps(once(a.once, a.runs)))
        return 0
    results = []
    for case in CASES:
        res = subprocess.run(
            [sys.executable, __file__, "--once", case, "--runs", str(a.runs)],
            capture_output=True,
            text=True,
            check=False,
        )
        if res.returncode != 0:
            sys.stderr.write(res.stderr)
            return 1
        results.append(json.loads(res.stdout))
    ok = all(r["median_s"] < TARGET_S for r in results)
    if a.json:
        print(json.dumps({"results": results, "within_target": ok}, indent=2))
    else:
        for r in results:
            print(
                f"{r['case']}: {r['racks']:,} racks, {r['cables']:,} cables, {r['segments']:,} tray segments, "
                f"{r['issues']:,} issues ({r['errors']:,} errors), {r['max_kw']:,} kW max, fullest tray "
                f"{r['fullest_tray']} at {r['fullest_tray_pct']} %: facility_report median {r['median_s']:.3f} s "
                f"over {a.runs} runs {r['all_s']}, report peak {r['report_peak_mb']:.1f} MB (tracemalloc), "
                f"process peak RSS {r['peak_rss_mb']:.0f} MB"
            )
        print(f"target: < {TARGET_S:g} s each: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
