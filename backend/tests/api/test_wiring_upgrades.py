"""Upgrades through the API: p -> p+1 (Subways moves nothing), a parallel set of ports at a new
speed, a new loop length; the labelled, paged diff and the upgrade's own bill of materials."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

SERVERS = 8  # 2 racks x b = 2 logical racks x r = 2 servers
TORS = 4
UPLINKS = TORS * 4  # leaf-spine, 4 uplinks per ToR (project default)
# Default prices per part: (base, per metre) = speed factor x (15, 3) for a DAC, (40, 4) ACC, (60, 2) AOC.
FACTOR = {"25G": 1.5, "100G": 4.0}
FORMULA = {"DAC": (15, 3), "ACC": (40, 4), "AOC": (60, 2)}


def default_price(part: str, length_m: float) -> float:
    kind, speed = part.split("-")[:2]
    base, per_m = FORMULA[kind]
    return round(FACTOR[speed] * (base + per_m * length_m), 2)


def diff_cables(client: TestClient, new: int, old: int, **params: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    page = 1
    while True:
        r = client.get(
            f"/api/v1/wiring-plans/{new}/diff/cables", params={"against": old, "page": page, "limit": 5, **params}
        )
        assert r.status_code == 200, r.text
        items += r.json()["items"]
        if len(items) >= r.json()["total"]:
            return items
        page += 1


def test_p_to_p_plus_1_moves_nothing_and_buys_one_cable_per_server(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any]
) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    assert old["summary"]["cables"] == SERVERS + UPLINKS
    new = h.upgrade(owner, old["id"], ports=2)
    assert new["base_plan_id"] == old["id"] and new["spec"]["pattern"] == "side-to-side" and new["spec"]["ports"] == 2
    # p = 2: each server gains a cable to its counter-clockwise neighbour's ToR; every old cable stays
    assert new["diff"] == {
        "kept": SERVERS + UPLINKS, "added": SERVERS, "moved": 0, "removed": 0, "changed": 0,
        "hardware_added": {}, "hardware_removed": {},
    }  # fmt: skip

    d = owner.get(f"/api/v1/wiring-plans/{new['id']}/diff", params={"against": old["id"]}).json()
    assert d["counts"]["moved"] == 0 and len(d["added"]) == SERVERS and d["removed"] == d["moved"] == []

    added = diff_cables(owner, new["id"], old["id"], status="added")
    assert sorted(c["cable"]["cable_id"] for c in added) == sorted(d["added"])
    for item in added:
        c = item["cable"]
        assert item["status"] == "added" and item["moved_from"] is None
        assert c["a"]["port"] == "p2" and c["a"]["row"] == c["b"]["row"] == "R01"
        assert c["label"] == f"{c['a']['device']}:{c['a']['port']} / {c['b']['device']}:{c['b']['port']}"
        assert c["a"]["rack"].startswith("H1.R01.") and c["raw_length_m"] <= c["ordered_length_m"]
    everything = diff_cables(owner, new["id"], old["id"])
    assert [x["status"] for x in everything] == ["added"] * SERVERS + ["kept"] * (SERVERS + UPLINKS)

    # the upgrade's BOM: the 8 added cables at their default prices, nothing freed, no hardware
    buy, freed = d["bom"]["buy"], d["bom"]["freed"]
    assert {x["category"] for x in buy["lines"]} == {"cable"}
    assert sum(x["quantity"] for x in buy["lines"]) == SERVERS
    expected = sum(default_price(c["cable"]["part_number"], c["cable"]["ordered_length_m"]) for c in added)
    assert buy["total"] == pytest.approx(expected) and buy["complete"] is True
    assert (freed["lines"], freed["total"], d["bom"]["net_total"]) == ([], 0.0, buy["total"])


def test_parallel_ports_at_a_new_speed_buy_tors_nics_and_cables(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any]
) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    new = h.upgrade(owner, old["id"], parallel={"ports": 1, "gbps": 100, "tor_server_ports": 8})
    # a new 100G ToR per logical rack (4), each server's new port to it or its neighbour's (8),
    # the new ToRs' uplinks (4 x 4); nothing existing moves
    assert new["diff"]["kept"] == SERVERS + UPLINKS
    assert (new["diff"]["added"], new["diff"]["moved"], new["diff"]["removed"]) == (SERVERS + UPLINKS, 0, 0)
    assert new["diff"]["hardware_added"] == {"tor": TORS}
    # the servers' model has 25G ports: a 100G port needs an added NIC in each of the 8 servers
    assert new["summary"]["nics"] == SERVERS
    d = owner.get(f"/api/v1/wiring-plans/{new['id']}/diff", params={"against": old["id"]}).json()
    buy = {(x["category"], x["part_number"]): x for x in d["bom"]["buy"]["lines"]}
    assert buy["nic", "NIC-1x100G"]["quantity"] == SERVERS
    assert buy["nic", "NIC-1x100G"]["unit_price"] == 4.0 * (50 + 50)  # default: speed factor x (50 + 50 per port)
    assert buy["switch", "8x100G ToR"]["quantity"] == TORS and buy["switch", "8x100G ToR"]["unit_price"] is None
    assert d["bom"]["buy"]["complete"] is False
    assert d["bom"]["buy"]["unpriced"] == [{"category": "switch", "part_number": "8x100G ToR"}]
    assert sum(x["quantity"] for x in d["bom"]["buy"]["lines"] if x["category"] == "cable") == SERVERS + UPLINKS
    assert d["bom"]["freed"]["lines"] == []


def test_a_shorter_loop_moves_cables_and_frees_the_old_ones(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any]
) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=2)
    new = h.upgrade(owner, old["id"], loop=2)
    counts = new["diff"]
    assert counts["kept"] + counts["moved"] + counts["removed"] == old["summary"]["cables"]
    assert counts["kept"] + counts["moved"] + counts["added"] == new["summary"]["cables"]
    assert counts["moved"] > 0
    moved = diff_cables(owner, new["id"], old["id"], status="moved")
    assert len(moved) == counts["moved"]
    for item in moved:
        was, now = item["moved_from"], item["cable"]
        # a re-patch keeps one end on the same port
        assert _ends(was) & _ends(now) and was["cable_id"] != now["cable_id"]
    d = owner.get(f"/api/v1/wiring-plans/{new['id']}/diff", params={"against": old["id"]}).json()
    freed = sum(x["quantity"] for x in d["bom"]["freed"]["lines"] if x["category"] == "cable")
    bought = sum(x["quantity"] for x in d["bom"]["buy"]["lines"] if x["category"] == "cable")
    assert freed == counts["moved"] + counts["removed"] and bought == counts["moved"] + counts["added"]


def _ends(c: dict[str, Any]) -> set[tuple[str, str]]:
    return {(c[e]["device"], c[e]["port"]) for e in ("a", "b")}


def test_upgrade_and_diff_refusals(owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    r = owner.post(f"/api/v1/wiring-plans/{old['id']}/upgrades", json={"name": "x", "ports": 3})
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "ports"  # 2x25G servers: 2 NIC ports
    r = owner.post(f"/api/v1/wiring-plans/{old['id']}/upgrades", json={"name": "x", "speed": 3})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "speed"]
    parallel = {"gbps": 100, "pattern": "single-homed", "loop": 2}
    r = owner.post(f"/api/v1/wiring-plans/{old['id']}/upgrades", json={"name": "x", "parallel": parallel})
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "parallel.loop"
    r = owner.get(f"/api/v1/wiring-plans/{old['id']}/diff/cables", params={"against": old["id"], "status": "gone"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "status"]
    viewer = h.client("viewer@example.com")
    h.join(owner, viewer, row_hall["project_id"], "viewer@example.com", "viewer")
    assert viewer.post(f"/api/v1/wiring-plans/{old['id']}/upgrades", json={"name": "x", "ports": 2}).status_code == 403
    assert viewer.get(f"/api/v1/wiring-plans/{old['id']}/diff", params={"against": old["id"]}).status_code == 200


def test_the_work_order_of_an_upgrade_as_csv_xlsx_and_pdf(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any]
) -> None:
    """Single-homed p = 2 -> MC-LAG p = 2: every server's second port moves from its own ToR to the
    other ToR of its rack (8 re-cables), nothing is added or removed; each server keeps its first
    cable while the second moves, so no server goes off. Every step is the diff's moved cable: old
    ends unplugged, new ends plugged, grouped by rack."""
    import csv
    import io

    from openpyxl import load_workbook

    old = h.plan(owner, row_hall["id"], pattern="single-homed", ports=2)
    new = h.upgrade(owner, old["id"], pattern="mc-lag")
    # and the spine ports of the 16 uplinks are re-patched (the ToRs come in another order)
    assert (new["diff"]["moved"], new["diff"]["added"], new["diff"]["removed"]) == (SERVERS + UPLINKS, 0, 0)
    url = f"/api/v1/wiring-plans/{new['id']}/exports/work-order"
    r = owner.get(f"{url}.csv", params={"against": old["id"]})
    assert r.status_code == 200, r.text
    assert f"plan-{new['id']}-from-{old['id']}-work-order.csv" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    moved = {c["cable"]["label"]: c for c in diff_cables(owner, new["id"], old["id"], status="moved")}
    assert len(rows) == len(moved) == SERVERS + UPLINKS
    assert [int(x["step"]) for x in rows] == list(range(1, SERVERS + UPLINKS + 1))
    assert {x["action"] for x in rows} == {"re-cable"} and {x["servers_offline"] for x in rows} == {""}
    # grouped by the server's rack, by label within it
    assert [(x["rack"], x["label"]) for x in rows] == sorted((x["rack"], x["label"]) for x in rows)
    for x in rows:
        c = moved[x["label"]]
        was = c["moved_from"]
        assert (x["unplug_a"], x["unplug_b"]) == (
            f"{was['a']['device']}:{was['a']['port']}",
            f"{was['b']['device']}:{was['b']['port']}",
        )
        assert (x["plug_a"], x["plug_b"]) == (
            f"{c['cable']['a']['device']}:{c['cable']['a']['port']}",
            f"{c['cable']['b']['device']}:{c['cable']['b']['port']}",
        )
        assert x["rack"] == c["cable"]["a"]["rack"] and x["old_label"] == was["label"]
        assert x["ordered_length_m"] == f"{c['cable']['ordered_length_m']:.3f}"
    r = owner.get(f"{url}.xlsx", params={"against": old["id"]})
    assert r.status_code == 200, r.text
    book = load_workbook(io.BytesIO(r.content), read_only=True)
    assert book.sheetnames == ["1 plug", "2 re-cable", "3 unplug"]
    sheet = [list(v) for v in book["2 re-cable"].iter_rows(values_only=True)]
    assert [str(v[5]) for v in sheet[1:]] == [x["label"] for x in rows]
    r = owner.get(f"{url}.pdf", params={"against": old["id"]})
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    assert owner.get(f"{url}.csv", params={"against": 999_999}).status_code == 404


def test_the_upgrades_a_hall_can_build(owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace) -> None:
    """Side-to-side p = 2 on one row of 4 logical racks whose servers have 2 NIC ports (2x25G):
    p = 3, a parallel port and GRIN (p + n = 3) need a third NIC port, and would then build (l = 4 >= 3,
    ToRs of 48 ports >= r x p = 6): the catalog's 25G model with enough ports is the 4x25G server.
    Loops must divide the row's 4 logical racks (l = 2, 4); paired rows need a facing row."""
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=2)
    r = owner.get(f"/api/v1/wiring-plans/{old['id']}/upgrade-options")
    assert r.status_code == 200, r.text
    got = r.json()
    four = {"id": h.cat.server4, "name": "4x25G server", "nic_ports": 4, "port_gbps": 25.0}
    nic = {"nic_ports": 3, "logical_racks": 4, "server_models": [four]}
    short = "needs servers with more NIC ports: 4 logical rack(s) of 2x25G server (2 NIC ports): the wiring needs 3"
    assert [(o["label"], o["feasible"], o["field"], o["needs_hardware"]) for o in got["options"]] == [
        ("p=3", False, "ports", nic), ("+1x100G parallel", False, "ports", nic),
        ("l=2", True, None, None), ("l=3", False, "loop", None), ("l=4", True, None, None),
        ("l=6", False, "loop", None), ("l=8", False, "loop", None),
        ("pattern single-homed", True, None, None), ("pattern mc-lag", True, None, None),
        ("pattern paired-row", False, "pattern", None), ("pattern inter-chassis", True, None, None),
        ("pattern grin", False, "ports", nic),
        # the rail patterns need their SU size and leaf model, which an upgrade option does not choose
        ("pattern rail-optimized", False, "rail", None), ("pattern rail-only", False, "rail", None),
    ]  # fmt: skip
    assert got["options"][0]["reason"] == short and got["options"][0]["change"] == {"ports": 3}
    assert "4 is not a multiple of 3" in got["options"][3]["reason"]
    assert got["preselected"] == 2  # l=2, the first buildable
    # the refused upgrade says the same as the option
    r = owner.post(f"/api/v1/wiring-plans/{old['id']}/upgrades", json={"name": "p3", "ports": 3})
    assert r.status_code == 422 and "have 2 NIC ports; the wiring needs 3" in r.text
    # a buildable option generates as offered (GRIN's degree and the loop dropped for single-homed)
    assert (
        owner.post(
            f"/api/v1/wiring-plans/{old['id']}/upgrades", json={"name": "sh", **got["options"][7]["change"]}
        ).status_code
        == 201
    )

    # The fix the option offers: the logical racks' server model switched to the 4x25G server through the
    # layout API; then p = 3 and GRIN build, and p = 3 moves no cable.
    layout = owner.get(f"/api/v1/halls/{row_hall['id']}/layout").json()
    for row in layout["rows"]:
        for rack in row["racks"]:
            if not rack["logical_racks"]:
                continue
            lrs = [{k: lr[k] for k in ("servers", "ports_used", "tor_model_id", "tor_position", "base_u")}
                   | {"server_model_id": h.cat.server4} for lr in rack["logical_racks"]]  # fmt: skip
            r = owner.patch(
                f"/api/v1/racks/{rack['id']}", json={"logical_racks": lrs}, headers={"If-Match": f'"{rack["version"]}"'}
            )
            assert r.status_code == 200, r.text
    after = owner.get(f"/api/v1/wiring-plans/{old['id']}/upgrade-options").json()["options"]
    assert [(o["label"], o["feasible"]) for o in after if o["label"] in ("p=3", "pattern grin")] == [
        ("p=3", True), ("pattern grin", True),
    ]  # fmt: skip
    new = h.upgrade(owner, old["id"], **after[0]["change"])
    assert (new["diff"]["moved"], new["diff"]["added"]) == (0, SERVERS)


def test_the_patterns_a_new_hall_can_use(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    """A new hall of one row, servers with 2 NIC ports, both cabled (p = 2): GRIN (p + n = 3) needs a third
    port; the Subways patterns and MC-LAG build, paired rows need a facing row."""
    lr = h.lr(servers=2, ports=2)
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 2,
            "rack_template": {"rack_type_id": h.cat.rack, "logical_racks": [lr, lr]}}  # fmt: skip
    row = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body).json()
    spine = {"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20}
    owner.post(f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": [spine]})
    got = owner.get(f"/api/v1/halls/{hall['id']}/wiring-options").json()
    assert [(o["label"], o["feasible"], o["field"]) for o in got["options"]] == [
        ("single-homed", True, None), ("mc-lag", True, None), ("side-to-side", True, None),
        ("paired-row", False, "pattern"), ("inter-chassis", True, None), ("grin", False, "ports"),
        ("rail-optimized", False, "rail"), ("rail-only", False, "rail"),
    ]  # fmt: skip
    grin = got["options"][5]
    assert grin["change"] == {"pattern": "grin", "grin_degree": 1} and grin["needs_hardware"]["nic_ports"] == 3
    assert [m["name"] for m in grin["needs_hardware"]["server_models"]] == ["4x25G server"]
    assert got["preselected"] == 0
