#!/usr/bin/env python3
"""Benchmark: a plan's cable labels as one PDF (`labels.pdf?one_pdf=true`) against the ZIP of PDFs,
over HTTP from a real API process (a stack of its own, as scripts/bench_exports.py starts one).

Two plans: the demo hall's (single-homed, 3,264 cables) generated through the API, and a larger
generated hall stored as bench_exports stores its plan (`--rows` x `--racks` racks, 2 logical racks
of 20 servers each, side-to-side, p = 2; 10 x 20 by default: ~17,600 cables, 35,000 labels). For
each it downloads the one PDF and the ZIP `--runs` times and prints the median time to the first
byte, to the first page (the first `/Type /Page` object: the first sheet's labels have left), and
to the last byte, the size, the API process's peak RSS, and the page count read back with pypdf
(the one PDF's pages must equal the ZIP's PDFs' together). Target (issue 24 item 11): first byte
within 2 s.

    .venv/bin/python scripts/bench_labels.py [--runs 3] [--rows 10] [--racks 20]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
import zipfile
from typing import Any

import httpx
import stack
from bench_exports import _peak_rss_mb, _reset_peak, _rss_mb
from pypdf import PdfReader

REDIS_DB = 10  # (benchmarks run one at a time; the test suites use 2-9)
TTFB_TARGET_S = 2.0
PAGE_MARK = b"/Type /Page\n"


def download(client: httpx.Client, url: str, pid: int) -> tuple[dict[str, float], bytes]:
    _reset_peak(pid)
    start_rss = _rss_mb(pid)
    t0 = time.perf_counter()
    first = first_page = None
    body = bytearray()
    with client.stream("GET", url) as r:
        if r.status_code != 200:
            raise SystemExit(f"{url}: {r.status_code} {r.read()[:300]!r}")
        for chunk in r.iter_bytes():
            now = time.perf_counter() - t0
            if first is None and chunk:
                first = now
            body += chunk
            # (A ZIP's PDFs are compressed inside it: no first page to see.)
            if first_page is None and PAGE_MARK in body[-len(chunk) - len(PAGE_MARK) :]:
                first_page = now
    times = {
        "ttfb_s": first if first is not None else float("nan"),
        "page_s": first_page if first_page is not None else float("nan"),
        "total_s": time.perf_counter() - t0,
        "mb": len(body) / 1e6,
        "peak_rss_mb": _peak_rss_mb(pid),
        "start_rss_mb": start_rss,
    }
    return times, bytes(body)


def pages(body: bytes) -> int:
    if body[:2] == b"PK":
        archive = zipfile.ZipFile(io.BytesIO(body))
        return sum(len(PdfReader(io.BytesIO(archive.read(n))).pages) for n in archive.namelist())
    return len(PdfReader(io.BytesIO(body), strict=True).pages)


def measure(client: httpx.Client, what: str, plan: int, runs: int, pid: int) -> bool:
    met = True
    counted: dict[str, int] = {}
    for kind, query in (("one PDF", "?one_pdf=true"), ("ZIP", "")):
        results = []
        body = b""
        for _ in range(runs):
            got, body = download(client, f"/api/v1/wiring-plans/{plan}/exports/labels.pdf{query}", pid)
            results.append(got)
        counted[kind] = pages(body)
        med = {k: statistics.median(x[k] for x in results) for k in ("ttfb_s", "page_s", "total_s", "mb")}
        peak = max(x["peak_rss_mb"] for x in results)
        ok = med["ttfb_s"] < TTFB_TARGET_S
        met = met and (ok or kind == "ZIP")
        page = f"{med['page_s']:6.2f} s" if kind == "one PDF" else "     - "
        print(
            f"{what:24s} {kind:8s} first byte {med['ttfb_s']:6.2f} s, first page {page}, "
            f"all {med['total_s']:6.1f} s, {med['mb']:6.1f} MB, {counted[kind]:,} pages, API peak RSS {peak:4.0f} MB "
            f"(from {min(x['start_rss_mb'] for x in results):.0f}) (median of {len(results)}: all "
            f"{[round(x['total_s'], 1) for x in results]})"
            + (
                f" [target first byte < {TTFB_TARGET_S:g} s: {'met' if ok else 'NOT met'}]" if kind == "one PDF" else ""
            ),
            flush=True,
        )
    if counted["one PDF"] != counted["ZIP"]:
        print(f"  the one PDF has {counted['one PDF']} pages, the ZIP's PDFs {counted['ZIP']}: NOT the same sheets")
        met = False
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10)
    parser.add_argument("--racks", type=int, default=20)
    parser.add_argument("--store-plan", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.store_plan is not None:
        from bench_exports import store_plan

        print(json.dumps(store_plan(args.store_plan, args.rows, args.racks)))
        return 0

    name = f"loopline_bench_labels_{os.getpid()}"
    load = os.getloadavg()[0]
    with stack.app_stack(name, redis_db=REDIS_DB) as (base, api_pid):
        client = httpx.Client(base_url=base, timeout=3600)
        r = client.post("/api/v1/auth/login", json={"email": "demo@loopline.local", "password": "loopline-demo"})
        r.raise_for_status()
        project = client.get("/api/v1/projects").json()["items"][0]["id"]
        demo_hall = client.get(f"/api/v1/projects/{project}/halls").json()["items"][0]["id"]
        r = client.post(f"/api/v1/halls/{demo_hall}/wiring-plans", json={"name": "bench", "pattern": "single-homed"})
        r.raise_for_status()
        demo = r.json()
        r = client.post(f"/api/v1/projects/{project}/halls", json={"name": "Bench", "width_m": 200, "depth_m": 200})
        r.raise_for_status()
        env = stack.service_env(stack.services(), db=name, redis_db=REDIS_DB)
        out = subprocess.run(
            [sys.executable, __file__, "--store-plan", str(r.json()["id"]), "--rows", str(args.rows),
             "--racks", str(args.racks)],
            env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        big: dict[str, Any] = json.loads(out.stdout)
        client.get(f"/api/v1/wiring-plans/{demo['id']}/exports/pull-list.csv").raise_for_status()  # warm-up
        met = measure(client, f"demo hall ({demo['summary']['cables']:,} cables)", demo["id"], args.runs, api_pid)
        what = f"{args.rows}x{args.racks} racks ({big['cables']:,} c.)"
        met = measure(client, what, big["plan_id"], args.runs, api_pid) and met
        client.close()
    print(f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} CPUs")
    print("all targets met" if met else "some targets NOT met (see above)")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LOOPLINE_ENV", "local")
    sys.exit(main())
