#!/usr/bin/env python3
"""Where the run-time estimate's constants come from (backend/loopline/domain/sim_estimate.py).

Runs the engine on a few scenarios in flow and in packet mode and prints, per run, the estimate
beside what the engine measured: events, wall time, peak memory, and the events/s and flows/s the
constants should be. Not a pass/fail test (timings): `make bench` runs it.

    .venv/bin/python scripts/calibrate_sim_estimate.py [--engine PATH] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))

from loopline.domain.sim_estimate import estimate  # noqa: E402
from loopline.services.sim_preflight import validate  # noqa: E402

LATENCY_NS = 500
"""Plans give every cable a latency (forwarding + propagation); the generators give none."""


def scenarios(engine: str) -> list[tuple[str, dict[str, Any]]]:
    def gen(*args: str) -> dict[str, Any]:
        out = subprocess.run([engine, "gen", *args], check=True, capture_output=True, text=True)
        scenario: dict[str, Any] = json.loads(out.stdout)
        for link in scenario["network"]["links"]:
            link["latency_ns"] = LATENCY_NS
        return scenario

    return [
        ("fattree k=4, 2,000 web-search flows", gen("fattree", "--k", "4", "--flows", "2000")),
        ("fattree k=8, 5,000 web-search flows", gen("fattree", "--k", "8", "--flows", "5000")),
        ("fattree k=8, permutation 2 MB", _permutation(gen("fattree", "--k", "8", "--flows", "1"), 2_000_000)),
    ]


def _permutation(scenario: dict[str, Any], nbytes: int) -> dict[str, Any]:
    scenario["workload"] = {"type": "permutation", "bytes": nbytes}
    return scenario


def run(engine: str, scenario: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.json"
        path.write_text(json.dumps(scenario))
        out = subprocess.run([engine, "run", str(path)], check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default=str(ROOT / "sim-engine" / "target" / "release" / "loopline-sim"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"{'scenario':42} {'mode':6} {'events est/meas':>22} {'wall s est/med':>16} {'MB est/peak':>14} rate")
    for label, scenario in scenarios(args.engine):
        est = estimate(validate(scenario, binary=Path(args.engine)))
        for mode in ("flow", "packet"):
            scenario["engine"] = {**scenario.get("engine", {}), "mode": mode, "link_series": False}
            results = [run(args.engine, scenario) for _ in range(args.runs)]
            wall = statistics.median(r["run_info"]["wall_time_s"] for r in results)
            peak = max(r["run_info"]["peak_memory_bytes"] for r in results) / 1e6
            events = results[0]["events_processed"]
            e = est.flow if mode == "flow" else est.packet
            if mode == "packet":
                rate = f"{events / wall:,.0f} events/s, {events / est.workload.packet_hops:.2f} events/packet-hop"
            else:
                rate = f"{est.workload.flows / wall:,.0f} flows/s"
            print(
                f"{label:42} {mode:6} {e.events:>10,.0f}/{events:<11,} {e.wall_s:>7.2f}/{wall:<8.2f} "
                f"{e.memory_mb:>6.1f}/{peak:<7.1f} {rate}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
