"""Trace a structured plan's links in a real NetBox (issue 29 item 6); not part of `make test`.

    NETBOX_URL=http://127.0.0.1:8011 NETBOX_TOKEN=... NETBOX_USERNAME=admin NETBOX_PASSWORD=... \
        .venv/bin/python scripts/netbox_trace_check.py [--sample N] [--panel-at row-end|rack] [--keep]

A Loopline stack of its own (a fresh database, as `netbox_check.py` starts it) draws a small hall
(rows R01/R02 of 3 racks, 2 logical racks of 4 servers each, a 48x25G+8x100G ToR per logical rack;
a network row N01 with two 64x100G spines, or with `--breakouts` two 32x400G spines whose ports break
out into 4 x 100G), generates a structured plan, and downloads its
netbox.zip and wiring-segments.csv. Every file of the zip is imported, in order, into an empty NetBox
through its own bulk-import pages, unedited. Then, for a sample of the plan's ToR uplinks (or all),
NetBox's cable trace (`/api/dcim/interfaces/{id}/trace/`) from the ToR interface must end at the
link's fabric switch interface, as the segment sheet's last step names it, and pass the front and
rear ports of every panel the segment sheet lists, in order. NetBox is emptied afterwards (unless
`--keep`).

Prints what it did; exits 0 when every traced link ends where the plan says, 1 otherwise, 2 when
NetBox is not configured or not empty.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import sys
import zipfile
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stack
from netbox_check import NEEDED, PASSWORD, CheckFailed, NetBox, kind_of

CLEAN_ORDER = ("cables", "power-feeds", "power-panels", "devices", "device-types", "device-roles", "racks",
               "locations", "sites", "manufacturers")  # fmt: skip


def structured_plan(base: str, panel_at: str, breakouts: bool) -> tuple[dict[str, Any], dict[str, str], str]:
    """(the plan, its netbox.zip's files, its wiring-segments.csv)."""
    c = httpx.Client(base_url=base, timeout=600)
    email = "netbox-trace@example.com"
    c.post("/api/v1/auth/register", json={"email": email, "password": PASSWORD, "display_name": "NetBox trace"})
    c.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD}).raise_for_status()
    project = c.post("/api/v1/projects", json={"name": "NetBox trace"}).json()["id"]
    hall = c.post(f"/api/v1/projects/{project}/halls", json={"name": "H1", "width_m": 16, "depth_m": 12}).json()["id"]

    def model(kind: str, name: str) -> int:
        items = c.get(f"/api/v1/catalog/{kind}", params={"limit": 100}).json()["items"]
        return int(next(x["id"] for x in items if x["name"] == name))

    rack = model("rack-types", "42U 600x1200")
    lr = {"servers": 4, "server_model_id": model("server-models", "4x25G server"), "ports_used": 1,
          "tor_model_id": model("switch-models", "48x25G+8x100G ToR"), "tor_position": "top"}  # fmt: skip
    c.post(f"/api/v1/halls/{hall}/row-pairs", json={
        "name_a": "R01", "name_b": "R02", "x_m": 1.2, "y_m": 1.2, "rack_count": 3,
        "rack_template": {"rack_type_id": rack, "logical_racks": [lr, lr]}}).raise_for_status()  # fmt: skip
    spine = model("switch-models", "64x100G spine")
    if breakouts:  # 400G spine ports, each broken out into 4 x 100G ToR uplinks
        r = c.post("/api/v1/catalog/switch-models", json={
            "name": "NetBox trace 32x400G spine", "server_ports": 32, "server_port_gbps": 400, "uplink_ports": 0,
            "uplink_gbps": 400, "height_u": 1})  # fmt: skip
        r.raise_for_status()
        spine = int(r.json()["id"])
    c.post(f"/api/v1/halls/{hall}/rows", json={"name": "N01", "x_m": 1.2, "y_m": 8.4, "racks": [
        {"name": "N01-01", "role": "network", "rack_type_id": rack, "fabric_switches": [
            {"name": f"SP{i + 1}", "role": "spine", "switch_model_id": spine, "u": u}
            for i, u in enumerate((20, 22))]}]}).raise_for_status()  # fmt: skip
    r = c.post(
        f"/api/v1/halls/{hall}/wiring-plans",
        json={"name": "structured", "pattern": "single-homed", "cabling": "structured",
              "structured": {"panel_at": panel_at}, "breakouts": breakouts},
    )  # fmt: skip
    if r.status_code != 201:
        raise CheckFailed(f"Loopline refused the structured plan: {r.text[:400]}")
    plan = r.json()
    plant = c.get(f"/api/v1/wiring-plans/{plan['id']}/plant")
    plant.raise_for_status()
    plan["plant_counts"] = plant.json()["counts"]
    z = c.get(f"/api/v1/wiring-plans/{plan['id']}/exports/netbox.zip")
    z.raise_for_status()
    with zipfile.ZipFile(io.BytesIO(z.content)) as archive:
        files = {n: archive.read(n).decode() for n in archive.namelist()}
    seg = c.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-segments.csv")
    seg.raise_for_status()
    return plan, files, seg.text


def chains(segments: str) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    for row in csv.DictReader(io.StringIO(segments)):
        out.setdefault(row["cable_id"], []).append(row)
    return out


def trace(nb: NetBox, device: str, port: str) -> list[tuple[str, str, str]]:
    """NetBox's trace from an interface: every termination it passes, (type, device, name), in order."""
    r = nb.api.get("dcim/interfaces/", params={"device": device, "name": port})
    r.raise_for_status()
    found = r.json()["results"]
    if len(found) != 1:
        raise CheckFailed(f"NetBox has no interface {device} {port}")
    t = nb.api.get(f"dcim/interfaces/{found[0]['id']}/trace/")
    t.raise_for_status()
    path: list[tuple[str, str, str]] = []
    for near, _cable, far in t.json():
        for ends in (near, far):
            for e in ends or []:
                kind = str(e.get("url", "")).split("/api/dcim/")[-1].split("/")[0]
                path.append((kind, e["device"]["name"], e["name"]))
    return path


def empty(nb: NetBox) -> None:
    """Delete what the import made, a few objects a request (a device takes its ports with it: slow)."""
    for kind in CLEAN_ORDER:
        ids = [x["id"] for x in nb.all(kind, brief=1)]
        step = 10 if kind == "devices" else 500
        for i in range(0, len(ids), step):
            nb.delete(kind, ids[i : i + step])


def run(nb: NetBox, base: str, sample: int, panel_at: str, breakouts: bool) -> list[str]:
    report = [f"NetBox {nb.version()} at {nb.url}"]
    plan, files, segments = structured_plan(base, panel_at, breakouts)
    report.append(
        f"plan #{plan['id']} ({panel_at} panels{', breakouts' if breakouts else ''}): {plan['summary']['cables']}"
        f" links, plant {plan['plant_counts']}"
    )
    for name in sorted(files):
        if name == "README.txt":
            continue
        ok, message = nb.bulk_import(kind_of(name), files[name])
        lines = max(0, files[name].count("\n") - (0 if name.endswith(".yaml") else 1))
        report.append(f"  {name:<22} {'imported' if ok else 'REFUSED'} ({lines} lines){'' if ok else ': ' + message}")
        if not ok:
            raise CheckFailed("\n".join(report))
    links = chains(segments)
    picked = (
        sorted(links)
        if sample <= 0 or sample >= len(links)
        else sorted(random.Random(29).sample(sorted(links), sample))
    )
    bad = 0
    for cable in picked:
        steps = links[cable]
        tor, tor_port = steps[0]["from_end"], steps[0]["from_port"]
        far, far_port = steps[-1]["to_end"], steps[-1]["to_port"]
        panels = [(r["to_end"], r["to_port"]) for r in steps if r["to_port"][:1] in "FR" and r["to_port"][1:].isdigit()]
        path = trace(nb, tor, tor_port)
        ends_at = path[-1] if path else ("", "", "")
        passed = [(d, n) for k, d, n in path if k in ("front-ports", "rear-ports")]
        ok = ends_at == ("interfaces", far, far_port) and all(p in passed for p in panels)
        bad += not ok
        if not ok or cable == picked[0]:
            report.append(f"  {cable} {tor}:{tor_port} -> {far}:{far_port}: {'ok' if ok else 'WRONG'}")
            report += [
                f"    {r['position']} {r['kind']:<10} {r['item_label']} ({r['from_end']}:{r['from_port']} ->"
                f" {r['to_end']}:{r['to_port']})"
                for r in steps
            ]
            report.append("    NetBox's trace: " + " > ".join(f"{d}:{n}" for _, d, n in path))
    report.append(f"traced {len(picked)} of {len(links)} structured links: {len(picked) - bad} end where the plan says")
    if bad:
        raise CheckFailed("\n".join(report))
    return report


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=0, help="links to trace (0: all)")
    parser.add_argument("--panel-at", default="row-end", choices=("row-end", "rack"))
    parser.add_argument("--keep", action="store_true", help="leave the import in NetBox")
    parser.add_argument("--breakouts", action="store_true", help="32x400G spines, each port into 4 x 100G")
    args = parser.parse_args()
    missing = [v for v in NEEDED if not os.environ.get(v)]
    if missing:
        print("netbox_trace_check needs a running, empty NetBox 4.x: set " + ", ".join(missing), file=sys.stderr)
        return 2
    nb = NetBox(*(os.environ[v] for v in NEEDED))
    if nb.count("devices") or nb.count("sites"):
        print("NetBox is not empty", file=sys.stderr)
        return 2
    try:
        with stack.app_stack(
            f"loopline_netbox_trace_{os.getpid()}", redis_db=12, env_extra={"LOOPLINE_ENV": "test"}
        ) as (base, _pid):
            report = run(nb, base, args.sample, args.panel_at, args.breakouts)
        print("\n".join(report), flush=True)
        return 0
    except CheckFailed as failed:
        print(failed, file=sys.stderr, flush=True)
        return 1
    finally:
        if not args.keep:
            empty(nb)


if __name__ == "__main__":
    sys.exit(main())
