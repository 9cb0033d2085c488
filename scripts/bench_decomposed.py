#!/usr/bin/env python3
"""Decomposed mode at scale (issue 30), as the Celery workers run it: the engine's batches as
separate processes (one link simulation at a time each, as a worker does), then the combination.

* k = 16 fat-tree, 100,000 web-search flows at 40 % load (DCTCP): 1 worker and 2 workers
  (batches 1/2 and 2/2 at once), the speed-up, and full packet mode's time estimated from its
  events per second (a run of `--packet-probe-s` seconds) and the events its whole run needs.
* k = 32 fat-tree, 1,000,000 flows (`--k32`; long): 2 workers.
* A planning figure for 16 workers from the measured per-link task times (each worker takes
  the costliest link left: the longest link bounds it).

Prints medians of `--runs` runs and peak memory (max RSS of any process).

    .venv/bin/python scripts/bench_decomposed.py [--runs 1] [--k32] [--flows 100000]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE = str(ROOT / "sim-engine" / "target" / "release" / "loopline-sim")


def scenario(k: int, flows: int, mode: str) -> dict[str, Any]:
    out = subprocess.run(
        [ENGINE, "gen", "fattree", "--k", str(k), "--load", "0.4", "--flows", str(flows)],
        check=True,
        capture_output=True,
        text=True,
    )
    sc: dict[str, Any] = json.loads(out.stdout)
    sc["engine"]["mode"] = mode
    sc["engine"]["link_series"] = False
    sc["engine"].setdefault("packet", {})["transport"] = "dctcp"
    return sc


def timed(cmd: list[str]) -> tuple[float, str]:
    t0 = time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return time.monotonic() - t0, out.stdout


def decomposed(path: Path, workers: int, tmp: Path) -> dict[str, float]:
    """One run over `workers` processes: wall time of the slowest batch plus the combination."""
    parts = [tmp / f"part-{b}-of-{workers}.json" for b in range(1, workers + 1)]
    with ThreadPoolExecutor(workers) as pool:
        batch_s = list(
            pool.map(
                lambda b: timed(
                    [
                        ENGINE,
                        "decompose",
                        "links",
                        str(path),
                        "--batch",
                        f"{b}/{workers}",
                        "--jobs",
                        "1",
                        "-o",
                        str(parts[b - 1]),
                    ]
                )[0],
                range(1, workers + 1),
            )
        )
    combine_s, _ = timed([ENGINE, "decompose", "combine", str(path), *map(str, parts), "-o", str(tmp / "result.json")])
    return {"batches_s": max(batch_s), "combine_s": combine_s, "total_s": max(batch_s) + combine_s}


def packet_estimate(k: int, flows: int, probe_s: float, tmp: Path) -> tuple[float, float]:
    """Full packet mode: (events per second over a probe run, estimated seconds for the whole run).
    The whole run's events are estimated as the probe's events per packet-hop (preflight's count)
    times the run's packet-hops, scaled from a small run of the same case that finishes."""
    small = tmp / "packet-small.json"
    small.write_text(json.dumps(scenario(k, max(flows // 50, 500), "packet")))
    _, out = timed([ENGINE, "run", str(small), "--no-run-info"])
    small_events = json.loads(out)["events_processed"]
    pre = json.loads(timed([ENGINE, "validate", "--json", str(small)])[1])
    per_hop = small_events / pre["estimate"]["packet_hops"]
    big = tmp / "packet.json"
    big.write_text(json.dumps(scenario(k, flows, "packet")))
    hops = json.loads(timed([ENGINE, "validate", "--json", str(big)])[1])["estimate"]["packet_hops"]
    proc = subprocess.run(
        [ENGINE, "run", str(big), "--progress", "--max-wall-s", str(probe_s), "-o", str(tmp / "p.json")],
        capture_output=True,
        text=True,
    )
    rates = [float(line.rsplit("events_per_s=", 1)[1]) for line in proc.stderr.splitlines() if "events_per_s=" in line]
    eps = statistics.median(rates[1:] or rates)
    return eps, hops * per_hop / eps


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--flows", type=int, default=100_000)
    ap.add_argument("--k32", action="store_true", help="also the k = 32, 1,000,000-flow case")
    ap.add_argument("--packet-probe-s", type=float, default=30.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        path = tmp / "k16.json"
        path.write_text(json.dumps(scenario(16, args.flows, "decomposed")))
        plan = json.loads(timed([ENGINE, "decompose", "plan", str(path)])[1])
        print(
            f"k=16, {args.flows:,} web-search flows at 40 %: {plan['links_simulated']} of {plan['links_total']} links "
            f"simulated ({plan['links_clustered']} clustered, {plan['links_idle']} idle), "
            f"{plan['packets_total']:,} packet-hops",
            flush=True,
        )
        one = [decomposed(path, 1, tmp) for _ in range(args.runs)]
        two = [decomposed(path, 2, tmp) for _ in range(args.runs)]
        t1 = statistics.median(r["total_s"] for r in one)
        t2 = statistics.median(r["total_s"] for r in two)
        print(f"  1 worker : {t1:.1f} s (median of {args.runs})", flush=True)
        print(
            f"  2 workers: {t2:.1f} s (combine {statistics.median(r['combine_s'] for r in two):.1f} s); "
            f"speed-up {t1 / t2:.2f}x; target < 120 s and >= 1.7x",
            flush=True,
        )
        # 16 workers: the costliest link's share bounds it; the rest divides
        per_hop_s = (t1 - statistics.median(r["combine_s"] for r in one)) / plan["packets_total"]
        largest = plan["largest_link_packets"] * per_hop_s
        t16 = max(plan["packets_total"] * per_hop_s / 16, largest) + statistics.median(r["combine_s"] for r in two)
        print(
            f"  16 workers (planning figure from {per_hop_s * 1e9:.0f} ns per packet-hop, longest link "
            f"{largest:.1f} s): {t16:.1f} s",
            flush=True,
        )
        eps, packet_s = packet_estimate(16, args.flows, args.packet_probe_s, tmp)
        print(f"  full packet mode: {eps:,.0f} events/s, about {packet_s / 60:.0f} min for the whole run", flush=True)
        if args.k32:
            big = tmp / "k32.json"
            big.write_text(json.dumps(scenario(32, 1_000_000, "decomposed")))
            plan = json.loads(timed([ENGINE, "decompose", "plan", str(big)])[1])
            r = decomposed(big, 2, tmp)
            print(
                f"k=32, 1,000,000 flows: {plan['links_simulated']} links simulated; 2 workers {r['total_s']:.0f} s "
                f"(target < 900 s)",
                flush=True,
            )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory (largest process): {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
