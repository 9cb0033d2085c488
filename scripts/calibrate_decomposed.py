#!/usr/bin/env python3
"""Measure decomposed mode against full packet mode (issue 30): `make calibrate-decomposed`.

For each case (k = 8 and k = 16 fat-trees: permutation, web search at 40 % and 70 % load, an
incast-heavy mix; a Subways Type 1 cluster with ECMP and with adaptive routing) and each seed,
the same scenario runs in packet mode and in decomposed mode; per flow-size bucket, the median
over the seeds of the mean and the p99 slowdown of each, and the relative error of decomposed
mode. Writes sim-engine/data/decomposed_calibration.json (the engine compiles it in: every
decomposed result carries the largest error per bucket) and the table in sim-engine/README.md
(`render`; scripts/tests/test_calibration_table.py checks the README shows the data).

    .venv/bin/python scripts/calibrate_decomposed.py [--cases NAME,...] [--seeds 3] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "sim-engine" / "target" / "release" / "loopline-sim"
TABLE = ROOT / "sim-engine" / "data" / "decomposed_calibration.json"
README = ROOT / "sim-engine" / "README.md"
BEGIN, END = "<!-- calibration:begin -->", "<!-- calibration:end -->"
ABOUT = (
    "Decomposed mode against full packet mode: written by scripts/calibrate_decomposed.py "
    "(make calibrate-decomposed); the engine reports the largest errors per bucket, the README shows the table."
)


def _websearch(k: int, load: float, flows: int) -> list[str]:
    return ["fattree", "--k", str(k), "--load", str(load), "--flows", str(flows)]


# name -> (gen arguments, workload override or None, what it is)
CASES: dict[str, tuple[list[str], dict[str, Any] | None, str]] = {
    "k8-websearch-40": (_websearch(8, 0.4, 4000), None, "k=8 fat-tree, web search, 40 % load"),
    "k8-websearch-70": (_websearch(8, 0.7, 4000), None, "k=8 fat-tree, web search, 70 % load"),
    "k8-permutation": (
        ["fattree", "--k", "8"],
        {"type": "permutation", "bytes": 2_000_000},
        "k=8 fat-tree, permutation of 2 MB",
    ),
    "k8-incast": (
        ["fattree", "--k", "8"],
        {"type": "query", "fan_in": 16, "response_bytes": 20_000, "queries": 400, "rate_per_s": 20_000},
        "k=8 fat-tree, 400 fan-ins of 16 x 20 kB",
    ),
    "k16-websearch-40": (_websearch(16, 0.4, 2000), None, "k=16 fat-tree, web search, 40 % load"),
    "k16-websearch-70": (_websearch(16, 0.7, 2000), None, "k=16 fat-tree, web search, 70 % load"),
    "subways-ecmp": (
        ["subways", "--racks", "8", "--servers-per-rack", "8", "--routing", "ecmp"],
        {"type": "poisson", "cdf": "websearch", "load": 0.4, "flows": 3000},
        "Subways Type 1 loop (8 racks x 8 servers), web search 40 %, ECMP",
    ),
    "subways-adaptive": (
        ["subways", "--racks", "8", "--servers-per-rack", "8", "--routing", "adaptive"],
        {"type": "poisson", "cdf": "websearch", "load": 0.4, "flows": 3000},
        "Subways Type 1 loop (8 racks x 8 servers), web search 40 %, adaptive routing",
    ),
}


def scenario(case: str, seed: int, mode: str) -> dict[str, Any]:
    gen, workload, _ = CASES[case]
    out = subprocess.run([str(ENGINE), "gen", *gen, "--seed", str(seed)], check=True, capture_output=True, text=True)
    sc: dict[str, Any] = json.loads(out.stdout)
    if workload is not None:
        sc["workload"] = workload
    engine = sc.setdefault("engine", {})
    engine["mode"] = mode
    engine["link_series"] = False
    # DCTCP: decomposition's reference transport (with loss-based TCP every link's simulation
    # fills its buffer: the result says so)
    engine.setdefault("packet", {})["transport"] = "dctcp"
    return sc


def run(case: str, seed: int, mode: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.json"
        path.write_text(json.dumps(scenario(case, seed, mode)))
        out = subprocess.run([str(ENGINE), "run", str(path), "--jobs", "1"], check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def buckets(result: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {
        b["bucket"]: (b["slowdown"]["mean"], b["slowdown"]["p99"])
        for b in result["flows"]["by_size"]
        if b["slowdown"]["count"] > 0
    }


def measure(case: str, seeds: int, jobs: int) -> dict[str, Any]:
    runs = [(seed, mode) for seed in range(1, seeds + 1) for mode in ("packet", "decomposed")]
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda r: run(case, r[0], r[1]), runs))
    by_mode: dict[str, list[dict[str, tuple[float, float]]]] = {"packet": [], "decomposed": []}
    wall: dict[str, list[float]] = {"packet": [], "decomposed": []}
    for (_, mode), result in zip(runs, results, strict=True):
        by_mode[mode].append(buckets(result))
        wall[mode].append(result["run_info"]["wall_time_s"])
    rows = []
    names = [n for n in by_mode["packet"][0] if all(n in b for b in by_mode["packet"] + by_mode["decomposed"])]
    for name in names:
        med = {
            mode: (
                statistics.median(b[name][0] for b in by_mode[mode]),
                statistics.median(b[name][1] for b in by_mode[mode]),
            )
            for mode in by_mode
        }
        (pm, pp), (dm, dp) = med["packet"], med["decomposed"]
        rows.append(
            {
                "bucket": name,
                "packet_mean_slowdown": round(pm, 4),
                "decomposed_mean_slowdown": round(dm, 4),
                "mean_slowdown_error": round(dm / pm - 1, 4),
                "packet_p99_slowdown": round(pp, 4),
                "decomposed_p99_slowdown": round(dp, 4),
                "p99_slowdown_error": round(dp / pp - 1, 4),
            }
        )
    return {
        "name": case,
        "about": CASES[case][2],
        "seeds": seeds,
        "packet_wall_s": round(statistics.median(wall["packet"]), 2),
        "decomposed_wall_s": round(statistics.median(wall["decomposed"]), 2),
        "by_size": rows,
    }


def render(table: dict[str, Any]) -> str:
    """The README's calibration table (the JSON is the data; this is its only rendering)."""
    lines = [
        BEGIN,
        "| Case | Bucket | Mean slowdown packet / decomposed (error) | p99 slowdown packet / decomposed (error) |",
        "|---|---|---|---|",
    ]
    for case in table["cases"]:
        for i, b in enumerate(case["by_size"]):
            label = f"{case['about']} ({case['seeds']} seeds)" if i == 0 else ""
            lines.append(
                f"| {label} | {b['bucket']} | {b['packet_mean_slowdown']:.2f} / {b['decomposed_mean_slowdown']:.2f} "
                f"({b['mean_slowdown_error']:+.0%}) | {b['packet_p99_slowdown']:.2f} / "
                f"{b['decomposed_p99_slowdown']:.2f} ({b['p99_slowdown_error']:+.0%}) |"
            )
    lines.append(END)
    return "\n".join(lines)


def readme_section(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time")
    args = ap.parse_args()
    table: dict[str, Any] = json.loads(TABLE.read_text())
    kept = {c["name"]: c for c in table.get("cases", [])}
    for case in args.cases.split(","):
        if case not in CASES:
            print(f"unknown case {case!r}: {', '.join(CASES)}", file=sys.stderr)
            return 2
        print(f"{case}: {CASES[case][2]} ...", flush=True)
        kept[case] = measure(case, args.seeds, args.jobs)
        for b in kept[case]["by_size"]:
            print(
                f"  {b['bucket']:>11}  mean {b['packet_mean_slowdown']:.2f} / {b['decomposed_mean_slowdown']:.2f} "
                f"({b['mean_slowdown_error']:+.0%})  p99 {b['packet_p99_slowdown']:.2f} / "
                f"{b['decomposed_p99_slowdown']:.2f} ({b['p99_slowdown_error']:+.0%})",
                flush=True,
            )
        table = {"about": ABOUT, "cases": [kept[c] for c in CASES if c in kept]}
        TABLE.write_text(json.dumps(table, indent=1) + "\n")
        readme = README.read_text()
        README.write_text(readme.replace(readme_section(readme), render(table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
