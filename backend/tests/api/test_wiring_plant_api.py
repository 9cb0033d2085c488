"""A structured plan's plant through the API: the plant, a link's chain, a panel's port map, the bill.

The plant here is built by hand over a stored direct plan's ToR uplinks (one panel per ToR rack, one
24-fibre trunk from each to the network rack, a 72-port panel there), stored as the creation path
stores a builder's plant, so every figure below is derived from the hall, not from the builder.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, WiringPlanRow
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import (
    ChainStep,
    PanelPlacement,
    PlantItem,
    PlantOptic,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)
from loopline.domain.wiring import summarize
from loopline.services.wiring_plant import load_plant, store_plant
from loopline.services.wiring_spec import hall_server_speeds
from loopline.services.wiring_storage import load_plan

SERVER_LINKS = 2 * 4 * 2 * 15 * 2  # 2 rows x 4 racks x 2 logical racks x 15 servers x p = 2 ports
UPLINKS = 2 * 4 * 2 * 4  # 2 rows x 4 racks x 2 ToRs x 4 uplinks (leaf-spine default)
TOR_RACKS = 8
CASSETTE = "FS FHD-1MTP12LCDOS2A"
TRUNK_PART = "TRUNK-MPO-12-24F-B-UU-OS2"
CORD = "CORD-LC-LC-AB-OS2"


@pytest.fixture
def paired_hall(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """R01/R02 facing, 4 racks each (b=2, r=15, 2x25G), 4 spines in N01 at the end of R01."""
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "cold_aisle_m": 1.2, "rack_count": 4,
              "rack_template": h.template()},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in range(1, 5)
    ]}  # fmt: skip
    r = owner.post(f"/api/v1/rows/{r.json()['rows'][0]['id']}/racks", json=net)
    assert r.status_code == 201, r.text
    return hall


def hand_plant(uplinks: list[PlanCableRow]) -> StructuredPlant:
    """Each ToR rack: a 12-port panel at U42 (one cassette), a 2 m cord per uplink, a 24-fibre trunk
    (27.4 m, bought at 30 m) to the network rack's 72-port panel (six cassettes) at U40, a 3 m cord
    to the spine; a 100G-DR optic at each end."""
    net_rack = uplinks[0].b_rack
    b_panel = f"{net_rack}.U40"
    panels: list[PlantPanel] = []
    items: list[PlantItem] = []
    steps: list[ChainStep] = []
    optics: list[PlantOptic] = []
    by_rack: dict[str, list[PlanCableRow]] = {}
    for c in uplinks:
        by_rack.setdefault(c.a_rack, []).append(c)
    m = 0
    for rack, links in by_rack.items():
        a_panel = f"{rack}.U42"
        panels.append(PlantPanel(a_panel, rack, 42, "FS FHD-1UFCE", CASSETTE, 1, 12, len(links), PlantRole.RACK))
        name = f"T-{rack}-{net_rack}-1"
        route = f"{rack} > tray > {net_rack}"
        trunk = PlantItem(name, SegmentKind.TRUNK, name, TRUNK_PART, a_panel, "R01", b_panel, "R01",
                          27_400, 30_000, False, 24, route)  # fmt: skip
        items.append(trunk)
        for n, c in enumerate(links, start=1):
            m += 1
            fa, fb, rb = f"F{n:02d}", f"F{m:02d}", f"R{(m - 1) // 12 + 1:02d}"
            chain = [
                PlantItem(f"{c.cable_id}-A", SegmentKind.CORD, f"{c.a_device}:{c.a_port} / {a_panel}:{fa}", CORD,
                          c.a_device, c.a_port, a_panel, fa, 2_000, 2_000, False, 2),
                PlantItem(f"{a_panel}:{fa}", SegmentKind.PANEL_PORT, f"{a_panel}:{fa}", CASSETTE,
                          a_panel, fa, a_panel, "R01"),
                trunk,
                PlantItem(f"{b_panel}:{fb}", SegmentKind.PANEL_PORT, f"{b_panel}:{fb}", CASSETTE,
                          b_panel, rb, b_panel, fb),
                PlantItem(f"{c.cable_id}-B", SegmentKind.CORD, f"{b_panel}:{fb} / {c.b_device}:{c.b_port}", CORD,
                          b_panel, fb, c.b_device, c.b_port, 3_000, 3_000, False, 2),
            ]  # fmt: skip
            for position, item in enumerate(chain):
                steps.append(ChainStep(c.cable_id, position, item.item_id, f"fibres {2 * n - 1}-{2 * n}"))
                if item is not trunk:
                    items.append(item)
            optics += [PlantOptic(c.a_device, c.a_port, "100G-DR"), PlantOptic(c.b_device, c.b_port, "100G-DR")]
    panels.append(PlantPanel(b_panel, net_rack, 40, "FS FHD-1UFCE", CASSETTE, 6, 72, m, PlantRole.NETWORK))
    return StructuredPlant(StructuredSettings(PanelPlacement.RACK), panels, items, steps, [], optics)


def structure(session: Session, plan_id: int) -> StructuredPlant:
    """Give a stored direct plan the hand-built plant, summarised and stored as at creation."""
    row = session.get(WiringPlanRow, plan_id)
    assert row is not None
    uplinks = list(
        session.execute(
            select(PlanCableRow)
            .where(PlanCableRow.plan_id == plan_id, PlanCableRow.link_class == "tor_fabric")
            .order_by(PlanCableRow.seq)
        ).scalars()
    )
    assert len(uplinks) == UPLINKS
    plant = hand_plant(uplinks)
    row.summary = summarize(load_plan(session, row), hall_server_speeds(session, row.hall_id), plant).to_json()
    store_plant(session, plan_id, plant)
    session.commit()
    return plant


def new_plan(client: TestClient, hall_id: int) -> dict[str, Any]:
    r = client.post(f"/api/v1/halls/{hall_id}/wiring-plans", json={"name": "plan", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_the_plant_chain_and_panel_map(owner: TestClient, paired_hall: dict[str, Any], db_session: Session) -> None:
    plan = new_plan(owner, paired_hall["id"])
    plant = structure(db_session, plan["id"])
    row = db_session.get(WiringPlanRow, plan["id"])
    assert row is not None
    # Loaded back exactly: the hand-built steps run in the plan's cable order, as load_plant gives them.
    assert load_plant(db_session, row) == plant
    base = f"/api/v1/wiring-plans/{plan['id']}"

    r = owner.get(f"{base}/plant")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["settings"] == {"panel_at": "rack", "lc_pair_loss_db": None, "mpo_pair_loss_db": None}
    assert body["counts"] == {
        "links": UPLINKS, "panels": TOR_RACKS + 1, "cassettes": TOR_RACKS + 6, "panel_ports": 2 * UPLINKS,
        "trunks": TOR_RACKS, "cords": 2 * UPLINKS, "breakout_cables": 0, "fibres": 24 * TOR_RACKS,
        "optics": 2 * UPLINKS,
    }  # fmt: skip
    assert [p["role"] for p in body["panels"]] == ["rack"] * TOR_RACKS + ["network"]
    assert body["panels"][-1]["ports_used"] == UPLINKS
    assert len(body["trunks"]) == TOR_RACKS
    trunk = body["trunks"][0]
    assert (trunk["part"], trunk["fibres"], trunk["length_m"], trunk["ordered_length_m"]) == (
        TRUNK_PART,
        24,
        27.4,
        30.0,
    )
    assert (body["findings"], body["findings_total"]) == ([], 0)

    uplink = next(
        c for c in owner.get(f"{base}/cables", params={"link_class": "tor_fabric", "limit": 1}).json()["items"]
    )
    r = owner.get(f"{base}/cables/{uplink['cable_id']}/chain")
    assert r.status_code == 200, r.text
    chain = r.json()
    assert [s["position"] for s in chain["steps"]] == [0, 1, 2, 3, 4]
    assert [s["item"]["kind"] for s in chain["steps"]] == ["cord", "panel port", "trunk", "panel port", "cord"]
    first, last = chain["steps"][0]["item"], chain["steps"][-1]["item"]
    # The chain starts at the ToR port and ends at the spine port, exactly the logical link's ends.
    assert (first["a_end"], first["a_port"]) == (uplink["a"]["device"], uplink["a"]["port"])
    assert (last["b_end"], last["b_port"]) == (uplink["b"]["device"], uplink["b"]["port"])
    assert (chain["optic_a"], chain["optic_b"]) == ("100G-DR", "100G-DR")
    assert (first["length_m"], last["length_m"]) == (2.0, 3.0)

    server_link = owner.get(f"{base}/cables", params={"link_class": "server_tor", "limit": 1}).json()["items"][0]
    r = owner.get(f"{base}/cables/{server_link['cable_id']}/chain")
    assert r.status_code == 404
    assert "server links stay direct" in r.json()["detail"][0]["msg"]

    network_panel = body["panels"][-1]["panel_id"]
    r = owner.get(f"{base}/plant/panels/{network_panel}")
    assert r.status_code == 200, r.text
    ports = r.json()["ports"]
    assert len(ports) == 72
    # Front ports 1-64 carry one uplink each, in the plan's order; 13 is the second cassette's first.
    assert [len(p["cable_ids"]) for p in ports] == [1] * UPLINKS + [0] * 8
    assert (ports[12]["front_port"], ports[12]["rear_port"]) == ("F13", "R02")
    assert ports[0]["cable_ids"] == [uplink["cable_id"]]
    assert ports[0]["far_end"] == f"{uplink['b']['device']} {uplink['b']['port']}"
    assert ports[0]["cord_part"] == CORD
    assert ports[64] == {"front_port": "F65", "rear_port": "R06", "port_item_id": None, "cord_label": None,
                         "cord_part": None, "far_end": None, "cable_ids": []}  # fmt: skip
    assert owner.get(f"{base}/plant/panels/{network_panel}X").status_code == 404


def test_a_direct_plan_answers_404_with_the_reason(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    plan = new_plan(owner, paired_hall["id"])
    base = f"/api/v1/wiring-plans/{plan['id']}"
    cable = owner.get(f"{base}/cables", params={"limit": 1}).json()["items"][0]["cable_id"]
    for url in (f"{base}/plant", f"{base}/cables/{cable}/chain", f"{base}/plant/panels/H1.R01.N01.U40"):
        r = owner.get(url)
        assert r.status_code == 404, url
        assert r.json()["detail"][0]["msg"] == f"plan {plan['id']} is wired direct: it has no panels"


def test_the_bill_counts_the_plant_not_the_links_cables(
    owner: TestClient, paired_hall: dict[str, Any], db_session: Session
) -> None:
    plan = new_plan(owner, paired_hall["id"])
    base = f"/api/v1/wiring-plans/{plan['id']}"
    direct = owner.get(f"{base}/bom").json()
    uplinks = owner.get(f"{base}/cables", params={"link_class": "tor_fabric", "limit": 100}).json()["items"]
    assert len(uplinks) == UPLINKS
    structure(db_session, plan["id"])
    bill = owner.get(f"{base}/bom").json()

    def lines(b: dict[str, Any]) -> Counter[tuple[str, str, float | None]]:
        return Counter({(x["category"], x["part_number"], x["length_m"]): x["quantity"] for x in b["lines"]})

    # What no longer is bought: each uplink as a cable at its ordered length, and its two transceivers.
    gone: Counter[tuple[str, str, float | None]] = Counter()
    for c in uplinks:
        gone[("cable", c["part_number"], c["ordered_length_m"])] += 1
        if c["transceiver"] is not None:
            gone[("transceiver", c["transceiver"], None)] += 2
    assert sum(gone.values()) > 0
    # What is bought instead, by hand: 9 panels, 8 + 6 cassettes, 8 trunks at 30 m, 64 cords at 2 m and
    # 64 at 3 m, and a 100G-DR optic (the media catalog's XCVR-100G-DR) at each of the 128 ends.
    plant = Counter({
        ("panel", "FS FHD-1UFCE", None): 9,
        ("cassette", CASSETTE, None): 14,
        ("cable", TRUNK_PART, 30.0): 8,
        ("cable", CORD, 2.0): 64,
        ("cable", CORD, 3.0): 64,
        ("transceiver", "XCVR-100G-DR", None): 128,
    })  # fmt: skip
    expected = lines(direct)
    expected.subtract(gone)
    expected.update(plant)
    assert lines(bill) == +expected
    # No price is made up: the book prices the optic, and names what it has no price for.
    unpriced = {(x["category"], x["part_number"]) for x in bill["unpriced"]} - {
        (x["category"], x["part_number"]) for x in direct["unpriced"]
    }
    assert unpriced == {("panel", "FS FHD-1UFCE"), ("cassette", CASSETTE), ("cable", TRUNK_PART), ("cable", CORD)}
    assert "no price for panel 'FS FHD-1UFCE': add it to the price book" in bill["warnings"]
    assert bill["complete"] is False
    # The project's price table offers them for pricing: used, unpriced, panels and cassettes as `other`.
    parts = owner.get(f"/api/v1/projects/{paired_hall['project_id']}/price-book/parts").json()["items"]
    offered = {p["part_number"]: (p["category"], p["used"], p["base_price"]) for p in parts}
    assert offered["FS FHD-1UFCE"] == offered[CASSETTE] == ("other", True, None)
    assert offered[TRUNK_PART] == offered[CORD] == ("cable", True, None)

    summary = owner.get(base).json()["summary"]
    # Link counts stay the logical links'; the optics are the plant's.
    assert summary["by_class"]["tor_fabric"]["count"] == UPLINKS
    assert summary["transceivers"].get("XCVR-100G-DR") == 128 + direct_xcvr(direct, "XCVR-100G-DR", gone)


def direct_xcvr(direct: dict[str, Any], part: str, gone: Counter[tuple[str, str, float | None]]) -> int:
    """Transceivers of `part` the direct plan's other links (not uplinks) keep."""
    had = sum(x["quantity"] for x in direct["lines"] if x["category"] == "transceiver" and x["part_number"] == part)
    return had - gone[("transceiver", part, None)]


def test_permissions_are_those_of_the_plan(
    owner: TestClient, paired_hall: dict[str, Any], h: SimpleNamespace, db_session: Session
) -> None:
    plan = new_plan(owner, paired_hall["id"])
    structure(db_session, plan["id"])
    base = f"/api/v1/wiring-plans/{plan['id']}"
    cable = owner.get(f"{base}/cables", params={"link_class": "tor_fabric", "limit": 1}).json()["items"][0]
    panel = owner.get(f"{base}/plant").json()["panels"][0]["panel_id"]
    urls = [f"{base}/plant", f"{base}/cables/{cable['cable_id']}/chain", f"{base}/plant/panels/{panel}"]

    viewer = h.client("viewer@example.com")
    h.join(owner, viewer, paired_hall["project_id"], "viewer@example.com", "viewer")
    stranger = h.client("stranger@example.com")
    anonymous = TestClient(h.app)
    reader = owner.post("/api/v1/tokens", json={"name": "ro", "scopes": ["wiring:read"]}).json()["token"]
    bom_only = owner.post("/api/v1/tokens", json={"name": "bom", "scopes": ["bom:read"]}).json()["token"]
    for url in urls:
        assert viewer.get(url).status_code == 200, url
        # Not a member: the same 404 as the plan itself gives, which tells nothing of the plant.
        assert stranger.get(url).status_code == stranger.get(base).status_code == 404, url
        assert anonymous.get(url).status_code == 401, url
        assert TestClient(h.app, headers={"Authorization": f"Bearer {reader}"}).get(url).status_code == 200, url
        assert TestClient(h.app, headers={"Authorization": f"Bearer {bom_only}"}).get(url).status_code == 403, url


def test_a_structured_plan_is_generated_stored_and_served(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    body = {"name": "s", "pattern": "single-homed", "cabling": "structured", "structured": {"panel_at": "row-end"}}
    r = owner.post(f"/api/v1/halls/{paired_hall['id']}/wiring-plans", json=body)
    assert r.status_code == 201, r.text
    structured = r.json()
    direct = new_plan(owner, paired_hall["id"])
    base = f"/api/v1/wiring-plans/{structured['id']}"
    # The logical links are the direct plan's: same cables, same engine network.
    assert structured["summary"]["by_class"] == direct["summary"]["by_class"]
    assert (
        owner.get(f"{base}/scenario").json()["network"]
        == (owner.get(f"/api/v1/wiring-plans/{direct['id']}/scenario").json()["network"])
    )
    plant = owner.get(f"{base}/plant").json()
    assert plant["settings"]["panel_at"] == "row-end"
    assert plant["counts"]["links"] == UPLINKS
    assert {p["role"] for p in plant["panels"]} <= {"row-end", "network"}
    # Every uplink's chain runs from its ToR port (position 0) to its spine port (last).
    for cable in owner.get(f"{base}/cables", params={"link_class": "tor_fabric", "limit": 100}).json()["items"]:
        chain = owner.get(f"{base}/cables/{cable['cable_id']}/chain").json()
        steps = chain["steps"]
        assert [s["position"] for s in steps] == list(range(len(steps)))
        assert (steps[0]["item"]["a_end"], steps[0]["item"]["a_port"]) == (cable["a"]["device"], cable["a"]["port"])
        assert (steps[-1]["item"]["b_end"], steps[-1]["item"]["b_port"]) == (cable["b"]["device"], cable["b"]["port"])
    for panel in plant["panels"]:
        ports = owner.get(f"{base}/plant/panels/{panel['panel_id']}").json()["ports"]
        assert len(ports) == panel["front_ports"]
        assert sum(1 for p in ports if p["cable_ids"]) == panel["ports_used"]


def test_an_upgrade_says_what_changes_segment_by_segment(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    structured = {"name": "s", "pattern": "single-homed", "cabling": "structured"}
    url = f"/api/v1/halls/{paired_hall['id']}/wiring-plans"
    direct = new_plan(owner, paired_hall["id"])
    first = owner.post(url, json={**structured, "upgrade_from_plan_id": direct["id"]}).json()
    plant = owner.get(f"/api/v1/wiring-plans/{first['id']}/plant").json()
    counts = plant["counts"]
    # From direct: the whole plant is new, and not one logical link changes (the plan's diff as before).
    change = plant["change"]
    assert first["diff"] == {"kept": SERVER_LINKS + UPLINKS, "added": 0, "moved": 0, "removed": 0,
                             "changed": 0, "hardware_added": {}, "hardware_removed": {}}  # fmt: skip
    assert change["cords"]["added"] == counts["cords"] == 2 * UPLINKS
    assert change["trunks"]["added"] == counts["trunks"]
    assert change["panels"]["added"] == counts["panels"]
    assert change["words"] == (
        f"no trunk moves; {counts['trunks']} trunks added; {2 * UPLINKS} cords added; {counts['panels']} panels added"
    )
    # The same plan again: every item keeps its ID and place.
    again = owner.post(url, json={**structured, "name": "again", "upgrade_from_plan_id": first["id"]}).json()
    again_change = owner.get(f"/api/v1/wiring-plans/{again['id']}/plant").json()["change"]
    assert again_change["words"] == "no trunk moves; no cord changes"
    assert again_change["cords"]["kept"] == 2 * UPLINKS
    # The diff between any two plans of the hall says the same, stored or worked out.
    diff = owner.get(f"/api/v1/wiring-plans/{again['id']}/diff", params={"against": direct["id"]}).json()
    assert diff["plant"] == change
    # What to buy going from direct to structured: the plant, with an optic per port; what it frees:
    # each uplink's direct cable and its two transceivers. Nothing else changes.
    to_structured = owner.get(f"/api/v1/wiring-plans/{first['id']}/diff", params={"against": direct["id"]}).json()
    bill = owner.get(f"/api/v1/wiring-plans/{first['id']}/bom").json()
    plant_lines = Counter({(x["category"], x["part_number"], x["length_m"]): x["quantity"] for x in bill["lines"]
                           if x["category"] in ("panel", "cassette", "transceiver") or x["part_number"].startswith(
                               ("CORD-", "TRUNK-"))})  # fmt: skip
    buy = Counter({(x["category"], x["part_number"], x["length_m"]): x["quantity"]
                   for x in to_structured["bom"]["buy"]["lines"]})  # fmt: skip
    # The server links stay direct and kept: the structured bill's transceivers are all the plant's.
    assert buy == plant_lines
    assert sum(q for (cat, _, _), q in buy.items() if cat == "transceiver") == 2 * UPLINKS
    uplink_page = {"link_class": "tor_fabric", "limit": 100}
    uplinks = owner.get(f"/api/v1/wiring-plans/{direct['id']}/cables", params=uplink_page).json()["items"]
    freed: Counter[tuple[str, str, float | None]] = Counter()
    for c in uplinks:
        freed[("cable", c["part_number"], c["ordered_length_m"])] += 1
        if c["transceiver"] is not None:
            freed[("transceiver", c["transceiver"], None)] += 2
    assert Counter({(x["category"], x["part_number"], x["length_m"]): x["quantity"]
                    for x in to_structured["bom"]["freed"]["lines"]}) == freed  # fmt: skip
    same = owner.get(f"/api/v1/wiring-plans/{again['id']}/diff", params={"against": first["id"]}).json()
    assert (same["bom"]["buy"]["lines"], same["bom"]["freed"]["lines"]) == ([], [])
    between_direct = owner.get(f"/api/v1/wiring-plans/{direct['id']}/diff", params={"against": direct["id"]}).json()
    assert between_direct["plant"] is None
    assert owner.get(f"/api/v1/wiring-plans/{direct['id']}/plant").status_code == 404


def test_a_breakout_plans_bill_counts_a_fast_ports_optic_once(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    """4 ToRs x 4 x 100G uplinks to a 64 x 400G spine with breakouts: 16 links on lanes 1-4 of
    ports e1..e4, so 4 spine optics (400G-DR4, the media catalog's XCVR-400G-DR) and 16 ToR optics
    (100G-DR: XCVR-100G-DR), where a direct bill would count two transceivers per link (32)."""
    spine = owner.post("/api/v1/catalog/switch-models", json={
        "name": "64x400G spine", "server_ports": 64, "server_port_gbps": 400, "uplink_ports": 0, "uplink_gbps": 400,
        "height_u": 2}).json()["id"]  # fmt: skip
    lr = h.lr(servers=2, ports=1)
    row = h.row(owner, hall["id"], n=2, rack_template={"rack_type_id": h.cat.rack, "logical_racks": [lr, lr]})
    net = {"name": "N01", "role": "network", "fabric_switches": [
        {"name": "SP1", "role": "spine", "switch_model_id": spine, "u": 20}]}  # fmt: skip
    assert owner.post(f"/api/v1/rows/{row['id']}/racks", json=net).status_code == 201
    plan = h.plan(owner, hall["id"], pattern="single-homed", cabling="structured", breakouts=True)
    base = f"/api/v1/wiring-plans/{plan['id']}"
    optics = {x["part_number"]: x["quantity"] for x in owner.get(f"{base}/bom").json()["lines"]
              if x["category"] == "transceiver"}  # fmt: skip
    assert optics == {"XCVR-400G-DR": 4, "XCVR-100G-DR": 16}
    assert owner.get(f"{base}/plant").json()["counts"]["optics"] == 20
    # Each lane's chain ends at the spine's broken-out port, and names the port's one optic.
    lanes = owner.get(f"{base}/cables", params={"link_class": "tor_fabric", "limit": 100}).json()["items"]
    assert len(lanes) == 16
    for cable in lanes:
        chain = owner.get(f"{base}/cables/{cable['cable_id']}/chain").json()
        assert (chain["optic_a"], chain["optic_b"]) == ("100G-DR", "400G-DR4")
        assert chain["steps"][-1]["item"]["b_end"] == cable["b"]["device"]
        assert chain["steps"][-1]["item"]["b_port"] == cable["b"]["port"].split("/")[0]


def test_hostile_ids_are_refused_naming_the_field(owner: TestClient, paired_hall: dict[str, Any]) -> None:
    base = f"/api/v1/wiring-plans/{new_plan(owner, paired_hall['id'])['id']}"
    for url, field in ((f"{base}/plant/panels/a%00b", "panel_id"), (f"{base}/cables/C%00x/chain", "cable_id"),
                       (f"{base}/cables/{'C' * 201}/chain", "cable_id")):  # fmt: skip
        r = owner.get(url)
        assert r.status_code == 422, url
        assert r.json()["detail"][0]["loc"] == ["path", field]
