"""Check Loopline's NetBox files against a real, empty NetBox (issue 24 item 12); not part of `make test`.

    NETBOX_URL=http://127.0.0.1:8011 NETBOX_TOKEN=... NETBOX_USERNAME=admin NETBOX_PASSWORD=... \
        make netbox-check

The imports go through NetBox's own bulk-import pages (the CSV/YAML forms a person pastes the files
into, logged in with NETBOX_USERNAME/NETBOX_PASSWORD); reads and deletes through its REST API
(NETBOX_TOKEN, write-enabled). The Loopline side is a stack of its own (a fresh database, the API
and a worker on free ports, as `make test`'s e2e suite starts), where the script draws a hall and
generates a plan and three upgrades of it, each an upgrade of the one before:

1. first import of the plan's netbox.zip into the empty NetBox: every file imported whole, and NetBox
   then holds exactly the plan (cables with both ends, type, colour, length, label; devices with type,
   rack, location, position; every device's interfaces from its type; the power model: panels, feeds
   with their rack, type, phase, voltage, amperage and limit, every device's power ports with their
   draws and every PDU's outlets from its type, and the power cables feed -> PDU -> supplies);
2. the same files imported again: each file refused, nothing added (object counts unchanged);
3. each upgrade's netbox-upgrade.zip applied in turn (its delete files through the REST API, by
   label or name as the files say, then its imports): NetBox then equals that upgrade's netbox.zip,
   power included (new devices plugged into the next free outlets, removed ones' plugs deleted by
   label); its files imported again are refused too.

Prints what it did with counts; exits 0 when every check holds, 1 when one fails, 2 when NetBox is not
configured or not empty.
"""

from __future__ import annotations

import csv
import html
import io
import os
import re
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stack

NEEDED = ("NETBOX_URL", "NETBOX_TOKEN", "NETBOX_USERNAME", "NETBOX_PASSWORD")
IMPORT_PATHS = {
    "sites": "dcim/sites",
    "locations": "dcim/locations",
    "racks": "dcim/racks",
    "manufacturers": "dcim/manufacturers",
    "device-types": "dcim/device-types",
    "device-roles": "dcim/device-roles",
    "devices": "dcim/devices",
    "interfaces": "dcim/interfaces",
    "cables": "dcim/cables",
    "power-panels": "dcim/power-panels",
    "power-feeds": "dcim/power-feeds",
    "power-cables": "dcim/cables",
    "power-ports": "dcim/power-ports",
    "power-outlets": "dcim/power-outlets",
}
"""File kind -> NetBox's path for its list, import page and REST endpoint (power cables are cables)."""
COUNTED = ("sites", "locations", "racks", "manufacturers", "device-types", "device-roles", "devices",
           "interfaces", "cables", "power-panels", "power-feeds", "power-ports", "power-outlets")  # fmt: skip
PASSWORD = "netbox-check-Loopline-2026"


class CheckFailed(Exception):
    pass


def kind_of(file_name: str) -> str:
    """`03-racks.csv` -> `racks`, `1-delete-cables.csv` -> `delete-cables`."""
    return file_name.split("-", 1)[1].rsplit(".", 1)[0]


# --- NetBox ---------------------------------------------------------------------------------------


class NetBox:
    def __init__(self, url: str, token: str, username: str, password: str) -> None:
        self.url = url.rstrip("/")
        self.api = httpx.Client(
            base_url=f"{self.url}/api/",
            headers={"Authorization": f"Token {token}", "Accept": "application/json"},
            timeout=300,
        )
        self.ui = httpx.Client(base_url=self.url, timeout=600, follow_redirects=False)
        page = self.ui.get("/login/")
        r = self.ui.post(
            "/login/",
            data={"username": username, "password": password, "csrfmiddlewaretoken": self._csrf(page.text)},
            headers={"Referer": f"{self.url}/login/"},
        )
        if r.status_code != 302:
            raise CheckFailed(f"NetBox refused the login of {username} (HTTP {r.status_code})")

    @staticmethod
    def _csrf(page: str) -> str:
        m = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if not m:
            raise CheckFailed("no CSRF token on NetBox's page")
        return m.group(1)

    def version(self) -> str:
        return str(self.api.get("status/").json()["netbox-version"])

    def count(self, kind: str) -> int:
        r = self.api.get(f"{IMPORT_PATHS[kind]}/", params={"limit": 1, "brief": 1})
        r.raise_for_status()
        return int(r.json()["count"])

    def counts(self) -> dict[str, int]:
        return {k: self.count(k) for k in COUNTED}

    def all(self, kind: str, **params: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        offset = 0
        while True:
            r = self.api.get(f"{IMPORT_PATHS[kind]}/", params={"limit": 1000, "offset": offset, **params})
            r.raise_for_status()
            body = r.json()
            out += body["results"]
            offset += len(body["results"])
            if offset >= body["count"] or not body["results"]:
                return out

    def bulk_import(self, kind: str, text: str) -> tuple[bool, str]:
        """Paste `text` into the import page of `kind`: (imported, NetBox's message or first error)."""
        path = f"/{IMPORT_PATHS[kind]}/import/"
        page = self.ui.get(path)
        page.raise_for_status()
        r = self.ui.post(
            path,
            data={
                "csrfmiddlewaretoken": self._csrf(page.text),
                "import_method": "direct",
                "data": text,
                "format": "yaml" if text.startswith("---") else "csv",
                "csv_delimiter": ",",
            },
            headers={"Referer": f"{self.url}{path}"},
        )
        if r.status_code == 302:
            return True, "imported"
        return False, first_error(r.text)

    def delete(self, kind: str, ids: list[int]) -> None:
        for i in range(0, len(ids), 500):
            r = self.api.request("DELETE", f"{IMPORT_PATHS[kind]}/", json=[{"id": x} for x in ids[i : i + 500]])
            if r.status_code != 204:
                raise CheckFailed(f"deleting {kind}: HTTP {r.status_code} {r.text[:300]}")


def first_error(page: str) -> str:
    """The first error NetBox shows on a refused import page, as text."""
    patterns = (
        r'<div class="toast-body">(.*?)</div>',
        r'<div class="alert[^"]*alert-danger[^"]*"[^>]*>(.*?)</div>',
        r'class="[^"]*text-danger[^"]*"[^>]*>(.*?)<',
        r'<li[^>]*class="[^"]*errorlist[^"]*"[^>]*>(.*?)</li>',
        r"errorlist[^>]*>(.*?)</ul>",
    )
    for pattern in patterns:
        m = re.search(pattern, page, re.S)
        if m:
            text = html.unescape(re.sub(r"<[^>]+>", " ", m.group(1)))
            text = " ".join(text.split())
            if text:
                return text[:300]
    return "refused (no error text found on the page)"


# --- what a plan's files say NetBox should hold ---------------------------------------------------


def read_zip(content: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(content)) as z:
        return {n: z.read(n).decode() for n in z.namelist()}


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@dataclass(frozen=True)
class Expected:
    cables: set[tuple[str, ...]]
    devices: set[tuple[str, ...]]
    interfaces: set[tuple[str, str]]
    power_panels: set[tuple[str, str]]
    power_feeds: set[tuple[str, ...]]
    power_ports: set[tuple[str, ...]]
    power_outlets: set[tuple[str, str]]
    power_cables: set[tuple[tuple[str, str], ...]]
    """Each power cable's two ends, sorted: (device, port), or ("", feed name) for a power feed."""


def _draw(value: object) -> str:
    return "" if value is None or value == "" else str(int(value))  # type: ignore[call-overload]


def cable_key(
    label: str, ends: list[tuple[str, str]], kind: str, colour: str, length: str, status: str
) -> tuple[str, ...]:
    (a, b) = sorted(ends)
    return (label, *a, *b, kind, colour, length, status)


def expected_of(files: dict[str, str]) -> Expected:
    docs = list(yaml.safe_load_all(files["05-device-types.yaml"]))
    types = {t["model"]: [x["name"] for x in t.get("interfaces", [])] for t in docs}
    supplies = {t["model"]: t.get("power-ports", []) for t in docs}
    sockets = {t["model"]: [x["name"] for x in t.get("power-outlets", [])] for t in docs}
    devices = rows(files["07-devices.csv"])

    def end(c: dict[str, str], side: str) -> tuple[str, str]:
        return (c[f"side_{side}_device"], c[f"side_{side}_name"])

    return Expected(
        cables={
            cable_key(
                c["label"],
                [(c["side_a_device"], c["side_a_name"]), (c["side_b_device"], c["side_b_name"])],
                c["type"],
                c["color"],
                f"{float(c['length']):.2f}",
                c["status"],
            )  # fmt: skip
            for c in rows(files["08-cables.csv"])
        },
        devices={(d["name"], d["device_type"], d["rack"], d["location"], d["position"]) for d in devices},
        interfaces={(d["name"], port) for d in devices for port in types[d["device_type"]]},
        power_panels={(x["name"], x["location"]) for x in rows(files.get("09-power-panels.csv", ""))},
        power_feeds={
            (
                x["name"],
                x["power_panel"],
                x["rack"],
                x["type"],
                x["phase"],
                x["voltage"],
                x["amperage"],
                x["max_utilization"],
            )
            for x in rows(files.get("10-power-feeds.csv", ""))
        },  # fmt: skip
        power_ports={
            (d["name"], p["name"], _draw(p.get("maximum_draw")), _draw(p.get("allocated_draw")))
            for d in devices
            for p in supplies[d["device_type"]]
        },
        power_outlets={(d["name"], o) for d in devices for o in sockets[d["device_type"]]},
        power_cables={
            tuple(
                sorted((end(c, "a") if c["side_a_type"] != "dcim.powerfeed" else ("", c["side_a_name"]), end(c, "b")))
            )
            for c in rows(files.get("11-power-cables.csv", ""))
        },
    )


def _power_end(t: dict[str, Any]) -> tuple[str, str]:
    if t["object_type"] == "dcim.powerfeed":
        return ("", t["object"]["name"])
    return (t["object"]["device"]["name"], t["object"]["name"])


def held_by(nb: NetBox) -> Expected:
    cables = set()
    power_cables: set[tuple[tuple[str, str], ...]] = set()
    for c in nb.all("cables"):
        if c["type"] == "power":
            power_cables.add(tuple(sorted(_power_end(t) for t in c["a_terminations"] + c["b_terminations"])))
            continue
        ends = [(t["object"]["device"]["name"], t["object"]["name"]) for t in c["a_terminations"] + c["b_terminations"]]
        if len(ends) != 2:
            raise CheckFailed(f"cable {c['label']} has {len(ends)} ends")
        length = f"{float(c['length']):.2f}" if c["length"] is not None else ""
        kind = c["type"] or ""
        cables.add(cable_key(c["label"], ends, kind, c["color"], length, c["status"]["value"]))
    devices: set[tuple[str, ...]] = {
        (d["name"], d["device_type"]["model"], d["rack"]["name"] if d["rack"] else "",
         d["location"]["name"] if d["location"] else "", str(int(d["position"])) if d["position"] else "")
        for d in nb.all("devices")
    }  # fmt: skip
    interfaces = {(i["device"]["name"], i["name"]) for i in nb.all("interfaces")}
    panels = {(x["name"], x["location"]["name"] if x["location"] else "") for x in nb.all("power-panels")}
    feeds: set[tuple[str, ...]] = {
        (x["name"], x["power_panel"]["name"], x["rack"]["name"] if x["rack"] else "", x["type"]["value"],
         x["phase"]["value"], str(x["voltage"]), str(x["amperage"]), str(x["max_utilization"]))
        for x in nb.all("power-feeds")
    }  # fmt: skip
    ports: set[tuple[str, ...]] = {
        (x["device"]["name"], x["name"], _draw(x["maximum_draw"]), _draw(x["allocated_draw"]))
        for x in nb.all("power-ports")
    }
    outlets = {(x["device"]["name"], x["name"]) for x in nb.all("power-outlets")}
    return Expected(cables, devices, interfaces, panels, feeds, ports, outlets, power_cables)


PARTS = ("cables", "devices", "interfaces", "power_panels", "power_feeds", "power_ports", "power_outlets",
         "power_cables")  # fmt: skip


def compare(what: str, want: Expected, got: Expected, parts: tuple[str, ...] = PARTS) -> list[str]:
    problems = []
    for part in parts:
        w, g = getattr(want, part), getattr(got, part)
        if w != g:
            missing, extra = sorted(w - g), sorted(g - w)
            problems.append(f"{what}: {part} differ: {len(missing)} missing (e.g. {missing[:2]}), "
                            f"{len(extra)} extra (e.g. {extra[:2]})")  # fmt: skip
    return problems


# --- applying the files ---------------------------------------------------------------------------


def import_all(nb: NetBox, files: dict[str, str], report: list[str]) -> None:
    for name, text in files.items():
        if name == "README.txt" or kind_of(name).startswith("delete-"):
            continue
        before = nb.count(kind_of(name)) if kind_of(name) in IMPORT_PATHS else 0
        ok, message = nb.bulk_import(kind_of(name), text)
        if not ok:
            raise CheckFailed(f"{name}: NetBox refused the import: {message}")
        records = len(list(yaml.safe_load_all(text))) if name.endswith(".yaml") else len(rows(text))
        added = nb.count(kind_of(name)) - before
        report.append(f"  {name:<26} {records:>6} records, {added:>6} {kind_of(name)} added")
        if added != records:
            raise CheckFailed(f"{name}: {records} records but NetBox added {added}")


def apply_deletes(nb: NetBox, files: dict[str, str], report: list[str]) -> None:
    if "1-delete-cables.csv" in files:
        ids = []
        for c in rows(files["1-delete-cables.csv"]):
            found = nb.all("cables", label=c["label"])
            if len(found) != 1:
                raise CheckFailed(f"cable {c['label']}: NetBox holds {len(found)} with that label")
            ends = sorted((t["object"]["device"]["name"], t["object"]["name"])
                          for t in found[0]["a_terminations"] + found[0]["b_terminations"])  # fmt: skip
            if ends != sorted([(c["side_a_device"], c["side_a_name"]), (c["side_b_device"], c["side_b_name"])]):
                raise CheckFailed(f"cable {c['label']}: NetBox's ends {ends} are not the file's")
            ids.append(int(found[0]["id"]))
        nb.delete("cables", ids)
        report.append(f"  1-delete-cables.csv        {len(ids):>6} cables deleted (found by label, ends checked)")
    if "2-delete-interfaces.csv" in files:
        ids = []
        for x in rows(files["2-delete-interfaces.csv"]):
            found = nb.all("interfaces", device=x["device"], name=x["name"])
            if len(found) != 1:
                raise CheckFailed(f"interface {x['device']} {x['name']}: NetBox holds {len(found)}")
            ids.append(int(found[0]["id"]))
        nb.delete("interfaces", ids)
        report.append(f"  2-delete-interfaces.csv    {len(ids):>6} interfaces deleted")
    if "3-delete-devices.csv" in files:
        ids = []
        for x in rows(files["3-delete-devices.csv"]):
            found = nb.all("devices", name=x["name"])
            if len(found) != 1:
                raise CheckFailed(f"device {x['name']}: NetBox holds {len(found)}")
            ids.append(int(found[0]["id"]))
        nb.delete("devices", ids)
        report.append(f"  3-delete-devices.csv       {len(ids):>6} devices deleted")


# --- Loopline: a hall, a plan and its upgrades ----------------------------------------------------


def loopline_plans(base: str) -> Iterator[tuple[str, dict[str, str], dict[str, str] | None]]:
    """(plan description, its netbox.zip, the netbox-upgrade.zip from the plan before) for a plan and
    three upgrades, each of the one before."""
    c = httpx.Client(base_url=base, timeout=600)
    email = "netbox-check@example.com"
    c.post("/api/v1/auth/register", json={"email": email, "password": PASSWORD, "display_name": "NetBox check"})
    c.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD}).raise_for_status()
    project = c.post("/api/v1/projects", json={"name": "NetBox check"}).json()["id"]
    hall = c.post(f"/api/v1/projects/{project}/halls", json={"name": "H1", "width_m": 16, "depth_m": 12}).json()["id"]

    def model(kind: str, name: str) -> int:
        items = c.get(f"/api/v1/catalog/{kind}", params={"limit": 100}).json()["items"]
        return int(next(x["id"] for x in items if x["name"] == name))

    rack = model("rack-types", "42U 600x1200")
    lr = {"servers": 4, "server_model_id": model("server-models", "4x25G server"), "ports_used": 1,
          "tor_model_id": model("switch-models", "48x25G+8x100G ToR"), "tor_position": "top"}  # fmt: skip
    r = c.post(f"/api/v1/halls/{hall}/row-pairs", json={
        "name_a": "R01", "name_b": "R02", "x_m": 1.2, "y_m": 1.2, "rack_count": 3,
        "rack_template": {"rack_type_id": rack, "logical_racks": [lr, lr]}})  # fmt: skip
    r.raise_for_status()
    spine = model("switch-models", "64x100G spine")
    r = c.post(f"/api/v1/halls/{hall}/rows", json={"name": "N01", "x_m": 1.2, "y_m": 8.4, "racks": [
        {"name": "N01-01", "role": "network", "rack_type_id": rack, "fabric_switches": [
            {"name": f"SP{i + 1}", "role": "spine", "switch_model_id": spine, "u": u}
            for i, u in enumerate((20, 22))]}]})  # fmt: skip
    r.raise_for_status()
    # Power: R01's racks on A and B feeds with a 24-outlet PDU each, R02-01 on one 230 V 16 A
    # three-phase feed with a 48-outlet PDU; the other racks on the default feeds (no PDU).
    pdus = {n: c.post("/api/v1/catalog/pdu-models", json={"name": f"NetBox check PDU {n}", "outlets": n,
                                                            "phases": 1 if n == 24 else 3}).json()["id"]
            for n in (24, 48)}  # fmt: skip
    for row in c.get(f"/api/v1/halls/{hall}/layout").json()["rows"]:
        for k in row["racks"]:
            if row["name"] == "R01":
                feeds = [{"name": f, "pdu_model_id": pdus[24]} for f in "AB"]
            elif k["name"] == "R02-01":
                feeds = [{"name": "A", "voltage_v": 230, "phases": 3, "breaker_a": 16, "pdu_model_id": pdus[48]}]
            else:
                continue
            r = c.patch(f"/api/v1/racks/{k['id']}", json={"facility": {"feeds": feeds}},
                        headers={"If-Match": f'"{k["version"]}"'})  # fmt: skip
            r.raise_for_status()

    def files(plan_id: int, upgrade_of: int | None) -> tuple[dict[str, str], dict[str, str] | None]:
        full = c.get(f"/api/v1/wiring-plans/{plan_id}/exports/netbox.zip")
        full.raise_for_status()
        if upgrade_of is None:
            return read_zip(full.content), None
        up = c.get(f"/api/v1/wiring-plans/{plan_id}/exports/netbox-upgrade.zip", params={"against": upgrade_of})
        up.raise_for_status()
        return read_zip(full.content), read_zip(up.content)

    r = c.post(f"/api/v1/halls/{hall}/wiring-plans", json={"name": "p1", "pattern": "side-to-side", "ports": 1})
    r.raise_for_status()
    plan = r.json()
    yield f"plan #{plan['id']} side-to-side p=1 ({plan['summary']['cables']} cables)", *files(plan["id"], None)
    steps = (
        ("p=2", {"ports": 2}),
        ("loop of 2", {"loop": 2}),
        ("parallel 100G ports", {"parallel": {"ports": 1, "gbps": 100, "tor_server_ports": 8}}),
    )
    for what, change in steps:
        r = c.post(f"/api/v1/wiring-plans/{plan['id']}/upgrades", json={"name": what, **change})
        if r.status_code != 201:
            raise CheckFailed(f"Loopline refused the upgrade {what}: {r.text[:300]}")
        new = r.json()
        described = f"upgrade #{new['id']} ({what}) of #{plan['id']}: diff {new['diff']}"
        yield described, *files(new["id"], plan["id"])
        plan = new


# --- the check ------------------------------------------------------------------------------------


def reimport(nb: NetBox, files: dict[str, str], report: list[str]) -> list[str]:
    """Import files NetBox already took again: each must be refused and nothing added. (An upgrade's
    devices all sit at their twin's U, without a position: only NetBox's (site, name) rule for
    devices without a tenant can refuse them.)"""
    problems = []
    report.append(" the same files again:")
    counts = nb.counts()
    for name, text in files.items():
        if name == "README.txt" or kind_of(name).startswith("delete-"):
            continue
        ok, message = nb.bulk_import(kind_of(name), text)
        report.append(f"  {name:<26} {'IMPORTED (duplicates!)' if ok else 'refused: ' + message}")
        if ok:
            problems.append(f"re-import: {name} was imported again")
    again = nb.counts()
    report.append(f"  NetBox holds the same counts: {'yes' if again == counts else 'NO'}")
    if again != counts:
        problems.append(f"re-import changed the counts: {counts} -> {again}")
    return problems


def check(nb: NetBox, base: str) -> list[str]:
    report = [f"NetBox {nb.version()} at {nb.url}"]
    try:
        return checked(nb, base, report)
    except CheckFailed as failed:
        raise CheckFailed("\n".join([*report, "", f"FAILED: {failed}"])) from None


def checked(nb: NetBox, base: str, report: list[str]) -> list[str]:
    counts = nb.counts()
    if any(counts.values()):
        raise SystemExit(f"NetBox is not empty ({counts}): the check needs an empty NetBox")
    problems: list[str] = []
    for n, (what, full, upgrade) in enumerate(loopline_plans(base)):
        report.append("")
        report.append(what)
        if upgrade is None:
            report.append(" first import of netbox.zip:")
            import_all(nb, full, report)
            counts = nb.counts()
            report.append(f"  NetBox holds {counts}")
            problems += compare("first import", expected_of(full), held_by(nb))
            problems += reimport(nb, full, report)
        else:
            report.append(" netbox-upgrade.zip applied:")
            apply_deletes(nb, upgrade, report)
            import_all(nb, upgrade, report)
            report.append(f"  NetBox holds {nb.counts()}")
            problems += compare(f"upgrade {n}", expected_of(full), held_by(nb))
            problems += reimport(nb, upgrade, report)
        report.append(f"  NetBox equals the plan's netbox.zip: {'yes' if not problems else 'NO'}")
        if problems:
            break
    if problems:
        raise CheckFailed("\n".join(problems))
    return [*report, "", "every check passed"]


def main() -> int:
    missing = [v for v in NEEDED if not os.environ.get(v)]
    if missing:
        print(
            "netbox-check needs a running, empty NetBox 4.x: set " + ", ".join(missing) + "\n"
            "  NETBOX_URL       e.g. http://127.0.0.1:8000\n"
            "  NETBOX_TOKEN     an API token with write access (reads and the upgrade's deletes)\n"
            "  NETBOX_USERNAME, NETBOX_PASSWORD  a user who may import (the bulk-import pages)",
            file=sys.stderr,
        )
        return 2
    nb = NetBox(*(os.environ[v] for v in NEEDED))
    try:
        with stack.app_stack(
            f"loopline_netbox_check_{os.getpid()}", redis_db=12, env_extra={"LOOPLINE_ENV": "test"}
        ) as (
            base,
            _pid,
        ):
            report = check(nb, base)
    except CheckFailed as failed:
        print(failed, file=sys.stderr)
        return 1
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
