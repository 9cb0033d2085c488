#!/usr/bin/env python3
"""Detours against least-work balancing alone on the issue-26 shuffles (the README's table).

  python3 sim-engine/compare/detour_shuffles.py [--racks 1 2 ... 12] [--seeds 1 2 3 4 5]

Each case is `loopline-sim gen subways --racks 12 --servers-per-rack 15 --ports 2 --gbps 10
--spines 6 --uplink-gbps 10 --job-racks N` (a 5:1 Type 1 loop, 15 MB per pair among the first N
racks) run with `least_work` and with `detour` routing. Prints, per job size, seed 1's job
completions, their means over the seeds, and the worst seed's detour / least-work - 1 (the
issue's targets: at least 5 % faster at 4 racks, never more than 2 % slower). LOOPLINE_SIM
overrides the engine binary. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

ENGINE = os.environ.get("LOOPLINE_SIM", str(Path(__file__).resolve().parents[1] / "target/release/loopline-sim"))
CLUSTER = ["--racks", "12", "--servers-per-rack", "15", "--ports", "2", "--gbps", "10"]
CLUSTER += ["--spines", "6", "--uplink-gbps", "10"]


def job_completion(job_racks: int, routing: str, seed: int) -> float:
    args = [ENGINE, "gen", "subways", *CLUSTER, "--job-racks", str(job_racks), "--routing", routing]
    scenario = subprocess.run([*args, "--seed", str(seed)], capture_output=True, text=True, check=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write(scenario)
        f.flush()
        out = subprocess.run([ENGINE, "run", f.name, "--no-run-info"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{job_racks} racks, {routing}, seed {seed}: {out.stderr.strip()}")
    return float(json.loads(out.stdout)["job_completion_s"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--racks", type=int, nargs="+", default=list(range(1, 13)))
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    args = ap.parse_args()
    print("| job racks | least_work s1 | detour s1 | s1 | least_work mean | detour mean | mean | worst seed |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.racks:
        alone = [job_completion(n, "least_work", s) for s in args.seeds]
        detour = [job_completion(n, "detour", s) for s in args.seeds]
        ratios = [d / a - 1 for d, a in zip(detour, alone, strict=True)]
        mean_a, mean_d = statistics.fmean(alone), statistics.fmean(detour)
        print(
            f"| {n} | {alone[0]:.4f} | {detour[0]:.4f} | {ratios[0]:+.1%} | {mean_a:.4f} | {mean_d:.4f} "
            f"| {mean_d / mean_a - 1:+.1%} | {max(ratios):+.1%} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
