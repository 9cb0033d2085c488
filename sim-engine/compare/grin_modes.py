#!/usr/bin/env python3
"""GRIN's gain in packet mode (MPTCP, LIA) beside flow mode, on the same permutations.

  python3 sim-engine/compare/grin_modes.py [--active 0.1 0.4 0.7] [--seeds 1 2 3] [--degrees 1 2 3]

Each case is `loopline-sim gen grin` on 6 racks of 20 servers (1G, 4 spines of 10G), a
permutation of 15 MB flows among `--active` of the servers (drawn with the seed), run with GRIN
at each degree and, as the baseline, with ECMP and no GRIN cables. The gain is the baseline's
mean FCT (and job completion) over GRIN's, the median over the seeds; `ratio` is packet mode's
gain over flow mode's. LOOPLINE_SIM overrides the engine binary. Python 3 standard library only.
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
TOPOLOGY = ["--tors", "6", "--servers-per-tor", "20", "--host-gbps", "1", "--fabric-gbps", "10"]


def run(degree: int, active: float, mode: str, seed: int) -> tuple[float, float]:
    """(mean FCT, job completion) in seconds."""
    args = [ENGINE, "gen", "grin", *TOPOLOGY, "--degree", str(degree), "--active-fraction", str(active)]
    args += ["--seed", str(seed), *(["--routing", "ecmp"] if degree == 0 else [])]
    scenario = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    scenario["engine"]["mode"] = mode
    if mode == "packet":
        scenario["engine"]["packet"]["transport"] = "mptcp"
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(scenario, f)
        f.flush()
        out = subprocess.run([ENGINE, "run", f.name], capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    return result["flows"]["fct_s"]["mean"], result["job_completion_s"]


def gain(degree: int, active: float, mode: str, seeds: list[int]) -> tuple[float, float]:
    """Median over seeds of (mean FCT gain, job completion gain) against no GRIN."""
    pairs = [(run(0, active, mode, s), run(degree, active, mode, s)) for s in seeds]
    return (
        statistics.median(base[0] / grin[0] for base, grin in pairs),
        statistics.median(base[1] / grin[1] for base, grin in pairs),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--active", type=float, nargs="+", default=[0.1, 0.4, 0.7])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--degrees", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    print("| active | degree | flow: mean FCT / job gain | packet (MPTCP): mean FCT / job gain | packet / flow |")
    print("|---|---|---|---|---|")
    for active in args.active:
        for degree in args.degrees:
            flow = gain(degree, active, "flow", args.seeds)
            packet = gain(degree, active, "packet", args.seeds)
            print(
                f"| {active:.0%} | {degree} | {flow[0]:.2f}x / {flow[1]:.2f}x | {packet[0]:.2f}x / {packet[1]:.2f}x "
                f"| {packet[0] / flow[0]:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
