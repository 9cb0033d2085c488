"""A structured plan's exports through the API (issue 29 item 6): the segment sheet, the trunk pull
list, the panel port map, the label sheet's plant labels and the NetBox import's panels, cords and
trunks; a direct plan's answer to the structured-only exports (404 saying why).

The plant is built by hand over a stored direct plan's ToR uplinks (`row_hall`: 4 ToRs in racks
R01-01/R01-02 of row R01, 1 spine in N01): a panel at U42 of each ToR rack (one 6-port cassette per 6
uplinks), one 12-fibre trunk per ToR rack to the network rack's panel at U40, a 2 m cord at each
end; stored as the creation path stores a builder's plant. Every expectation is derived from that.
"""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from pypdf import PdfReader
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, WiringPlanRow
from loopline.domain.device_names import LOCATION_NAMES
from loopline.domain.structured import exports as sx
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import (
    ChainStep,
    PlantItem,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)
from loopline.domain.wiring import summarize
from loopline.services import exports, structured_exports
from loopline.services.wiring_plant import store_plant
from loopline.services.wiring_spec import hall_server_speeds
from loopline.services.wiring_storage import load_plan

CASSETTE = "FS FHD-1MTP6LCDOS2A"
PANEL = "FS FHD-1UFCE"
TRUNK = "TRUNK-MPO-12-12F-B-UU-OS2"
CORD = "CORD-LC-LC-AB-OS2"


def hand_plant(uplinks: list[PlanCableRow]) -> StructuredPlant:
    net_rack = uplinks[0].b_rack
    far = f"{net_rack}.U40"
    panels: list[PlantPanel] = []
    items: list[PlantItem] = []
    steps: list[ChainStep] = []
    by_rack: dict[str, list[PlanCableRow]] = {}
    for c in uplinks:
        by_rack.setdefault(c.a_rack, []).append(c)
    m = 0
    for k, (rack, links) in enumerate(by_rack.items(), start=1):
        near = f"{rack}.U42"
        cassettes = -(-len(links) // 6)
        panels.append(PlantPanel(near, rack, 42, PANEL, CASSETTE, cassettes, 6 * cassettes, len(links), PlantRole.RACK))
        trunk = PlantItem(f"T-{rack}-{net_rack}-1", SegmentKind.TRUNK, f"T-{rack}-{net_rack}-1", TRUNK,
                          near, f"R01-R{cassettes:02d}", far, "legs", 21_500, 21_500, True, 12 * cassettes,
                          f"{rack} > tray > {net_rack}")  # fmt: skip
        items.append(trunk)
        for n, c in enumerate(links, start=1):
            m += 1
            fa, fb = f"F{n:02d}", f"F{m:02d}"
            ra, rb = f"R{(n - 1) // 6 + 1:02d}", f"R{(m - 1) // 6 + 1:02d}"
            chain = [
                PlantItem(f"{c.cable_id}-A", SegmentKind.CORD, f"{c.a_device}:{c.a_port} / {near}:{fa}", CORD,
                          c.a_device, c.a_port, near, fa, 2_000, 2_000, False, 2),
                PlantItem(f"{near}:{fa}", SegmentKind.PANEL_PORT, f"{near}:{fa}", CASSETTE, near, fa, near, ra),
                trunk,
                PlantItem(f"{far}:{fb}", SegmentKind.PANEL_PORT, f"{far}:{fb}", CASSETTE, far, rb, far, fb),
                PlantItem(f"{c.cable_id}-B", SegmentKind.CORD, f"{far}:{fb} / {c.b_device}:{c.b_port}", CORD,
                          far, fb, c.b_device, c.b_port, 2_000, 2_000, False, 2),
            ]  # fmt: skip
            for position, item in enumerate(chain):
                steps.append(ChainStep(c.cable_id, position, item.item_id, "fibres 1-2" if position == 2 else ""))
                if item is not trunk:
                    items.append(item)
        del k
    panels.append(PlantPanel(far, net_rack, 40, PANEL, CASSETTE, -(-m // 6), 6 * -(-m // 6), m, PlantRole.NETWORK))
    return StructuredPlant(StructuredSettings(), panels, items, steps)


def uplinks_of(session: Session, plan_id: int) -> list[PlanCableRow]:
    return list(
        session.execute(
            select(PlanCableRow)
            .where(PlanCableRow.plan_id == plan_id, PlanCableRow.link_class == "tor_fabric")
            .order_by(PlanCableRow.seq)
        ).scalars()
    )


def structure(session: Session, plan_id: int) -> StructuredPlant:
    """Give a stored direct plan the hand-built plant, summarised and stored as at creation."""
    row = session.get(WiringPlanRow, plan_id)
    assert row is not None
    plant = hand_plant(uplinks_of(session, plan_id))
    row.summary = summarize(load_plan(session, row), hall_server_speeds(session, row.hall_id), plant).to_json()
    store_plant(session, plan_id, plant)
    session.commit()
    return plant


def plan_with_plant(owner: TestClient, hall: dict[str, Any], db_session: Session) -> tuple[int, StructuredPlant]:
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "plan", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    plan_id = int(r.json()["id"])
    return plan_id, structure(db_session, plan_id)


def test_the_segment_sheet_runs_each_uplink_from_its_tor_through_both_panels_to_the_spine(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session
) -> None:
    plan_id, plant = plan_with_plant(owner, row_hall, db_session)
    first = uplinks_of(db_session, plan_id)[0]
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/wiring-segments.csv")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/csv")
    lines = r.text.splitlines()
    tor, tp, spine, sp = first.a_device, first.a_port, first.b_device, first.b_port
    near, far = f"{first.a_rack}.U42", f"{first.b_rack}.U40"
    trunk = f"T-{first.a_rack}-{first.b_rack}-1"
    head = f"{first.cable_id},{tor}:{tp} / {spine}:{sp}"
    assert lines[1:6] == [
        f"{head},0,cord,{first.cable_id}-A,{tor}:{tp} / {near}:F01,{CORD},2.000,2.000,{tor},{tp},{near},F01,",
        f"{head},1,panel port,{near}:F01,{near}:F01,{CASSETTE},,,{near},F01,{near},R01,",
        f"{head},2,trunk,{trunk},{trunk},{TRUNK},21.500,21.500,{near},R01-R02,{far},legs,fibres 1-2",
        f"{head},3,panel port,{far}:F01,{far}:F01,{CASSETTE},,,{far},R01,{far},F01,",
        f"{head},4,cord,{first.cable_id}-B,{far}:F01 / {spine}:{sp},{CORD},2.000,2.000,{far},F01,{spine},{sp},",
    ]
    assert len(lines) == 1 + len(plant.steps)


def test_the_trunk_pull_list_and_the_panel_map(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session
) -> None:
    plan_id, plant = plan_with_plant(owner, row_hall, db_session)
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/trunk-pull-list.csv")
    assert r.status_code == 200, r.text
    rows = list(csv.reader(io.StringIO(r.text)))
    trunks = [i for i in plant.items if i.kind is SegmentKind.TRUNK]
    assert len(rows) == 1 + len(trunks) == 3
    t = trunks[0]
    links = sum(1 for s in plant.steps if s.item_id == t.item_id)
    assert rows[1] == [t.label, TRUNK, "24", "21.500", "21.500", "yes", t.a_end, "R01-R02", t.b_end, "legs",
                       str(links), t.route, t.item_id]  # fmt: skip

    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/panel-map.pdf")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf"
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(r.content)).pages]
    assert len(pages) == len(plant.panels) == 3
    for page, panel in zip(pages, plant.panels, strict=True):
        assert f"Panel {panel.panel_id}" in page
        assert all(f"F{n:02d}" in page for n in range(1, panel.front_ports + 1))


def test_the_label_zip_labels_the_cords_trunks_and_panel_ports_not_the_uplinks(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session
) -> None:
    plan_id, plant = plan_with_plant(owner, row_hall, db_session)
    direct = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/wiring-sheet.csv").text.count("\n") - 1
    uplinks = len({s.cable_id for s in plant.steps})
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/labels.pdf")
    assert r.status_code == 200, r.text
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        names = z.namelist()
        assert names[-1] == "labels-plant.pdf"
        cable_labels = sum(
            len(PdfReader(io.BytesIO(z.read(n))).pages[i].extract_text().split("END ")) - 1
            for n in names[:-1]
            for i in range(len(PdfReader(io.BytesIO(z.read(n))).pages))
        )
        assert cable_labels == 2 * (direct - uplinks)
        plant_pdf = PdfReader(io.BytesIO(z.read("labels-plant.pdf")))
        text = "".join(p.extract_text() for p in plant_pdf.pages)
    cords = sum(1 for i in plant.items if i.kind is SegmentKind.CORD)
    trunks = sum(1 for i in plant.items if i.kind is SegmentKind.TRUNK)
    # 16 uplinks, 8 per ToR rack: front ports F01-F08 of each near panel and F01-F16 of the far one;
    # rear ports the trunks' legs land on: R01 and R02 of each near panel (its ports 1-6 and 7-8), and
    # R01-R03 of the far one (its ports 1-6, 7-12, 13-16).
    assert (uplinks, cords, trunks) == (16, 32, 2)
    ports = 2 * 16 + 2 * 2 + 3
    assert text.count("END ") == 2 * cords + 2 * trunks
    assert len(plant_pdf.pages) == -(-(2 * cords + 2 * trunks + ports) // 21) == 6
    for rack in ("H1.R01.R01-01", "H1.R01.R01-02"):
        assert f"{rack}.U42:R02" in text and f"{rack}.U42:R03" not in text
    assert "H1.R01.N01.U40:R03" in text and "H1.R01.N01.U40:R04" not in text
    assert "this end: H1.R01.R01-02.U42:R01 R02" in text


def test_netbox_zip_holds_the_panels_their_ports_and_the_plant_cables_instead_of_the_uplinks(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session
) -> None:
    plan_id, plant = plan_with_plant(owner, row_hall, db_session)
    uplinks = {s.cable_id for s in plant.steps}
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/netbox.zip")
    assert r.status_code == 200, r.text
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        types = {d["model"]: d for d in yaml.safe_load_all(z.read("05-device-types.yaml").decode())}
        devices = list(csv.DictReader(io.StringIO(z.read("07-devices.csv").decode())))
        cables = list(csv.DictReader(io.StringIO(z.read("08-cables.csv").decode())))
        roles = z.read("06-device-roles.csv").decode()
        readme = z.read("README.txt").decode()
    two = types[f"{PANEL} + 2 x {CASSETTE}"]
    assert two["rear-ports"] == [{"name": f"R0{r}", "type": "mpo", "positions": 6} for r in (1, 2)]
    assert two["front-ports"][6] == {"name": "F07", "type": "lc", "rear_port": "R02", "rear_port_position": 1}
    assert len(two["front-ports"]) == 12 and two["is_full_depth"] is False
    panels = [d for d in devices if d["role"] == "Patch panel"]
    assert [(d["name"], d["rack"], d["position"]) for d in panels] == [
        (p.panel_id, p.rack, str(p.u)) for p in plant.panels
    ]
    assert "Patch panel,patch-panel," in roles
    labels = {c["label"] for c in cables}
    stored = {c.label for c in uplinks_of(db_session, plan_id)}
    assert not labels & stored  # no uplink as a direct cable
    cords = [c for c in cables if c["side_b_type"] == "dcim.frontport" or c["side_a_type"] == "dcim.frontport"]
    assert len(cords) == 2 * len(uplinks)
    legs = [c for c in cables if c["side_a_type"] == c["side_b_type"] == "dcim.rearport"]
    # Each ToR rack's trunk: the legs its links use (R01 and R02 near; far R01..R04 by the links' ports).
    assert sorted((c["label"], c["side_a_name"], c["side_b_name"]) for c in legs)[:2] == [
        (f"T-{plant.panels[0].rack}-{plant.panels[-1].rack}-1 leg 1", "R01", "R01"),
        (f"T-{plant.panels[0].rack}-{plant.panels[-1].rack}-1 leg 2", "R02", "R02"),
    ]
    assert "Structured cabling: 3 patch panels are devices" in readme


def test_a_direct_plan_has_no_structured_exports_and_its_netbox_zip_no_panels(
    owner: TestClient, row_hall: dict[str, Any]
) -> None:
    r = owner.post(f"/api/v1/halls/{row_hall['id']}/wiring-plans", json={"name": "d", "pattern": "single-homed"})
    plan_id = r.json()["id"]
    for export in ("wiring-segments.csv", "trunk-pull-list.csv", "panel-map.pdf"):
        r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/{export}")
        assert r.status_code == 404, export
        assert f"plan {plan_id} is wired direct: it has no panels" in r.text
    with zipfile.ZipFile(io.BytesIO(owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/netbox.zip").content)) as z:
        assert "Patch panel" not in z.read("06-device-roles.csv").decode()
        assert "Structured cabling" not in z.read("README.txt").decode()
        assert "rearport" not in z.read("08-cables.csv").decode()


def test_one_label_pdf_ends_with_the_plant_labels_and_netbox_cables_csv_holds_the_plant(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session
) -> None:
    plan_id, plant = plan_with_plant(owner, row_hall, db_session)
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/labels.pdf", params={"one_pdf": "true"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf"
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(r.content)).pages]
    # The plant's 107 labels (see the ZIP test) on its own last 6 sheets, after the cables'.
    tail = "".join(pages[-6:])
    assert tail.count("END ") == 2 * 32 + 2 * 2 and "H1.R01.N01.U40:R03" in tail
    assert "H1.R01.N01.U40:" not in "".join(pages[:-6])
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/netbox-cables.csv")
    assert r.status_code == 200, r.text
    rows = list(csv.DictReader(io.StringIO(r.text)))
    uplinks = {c.label for c in uplinks_of(db_session, plan_id)}
    assert not {x["label"] for x in rows} & uplinks
    assert sum(1 for x in rows if "dcim.frontport" in (x["side_a_type"], x["side_b_type"])) == 32
    # The trunks' ends name no leg range here ("R01-R02" near, "legs" far): the legs are the rear
    # ports the links pass, near -> far. R01-01's links 1-6 and 7-8 reach the far panel's ports 1-6 and
    # 7-8 (R01 -> R01, R02 -> R02); R01-02's links 1-6 reach far ports 9-14 (R01 -> R02 and R01 -> R03),
    # its links 7-8 far ports 15-16 (R02 -> R03).
    legs = sorted(
        (x["side_a_device"][:13], x["side_a_name"], x["side_b_name"])
        for x in rows
        if x["side_a_type"] == x["side_b_type"] == "dcim.rearport"
    )
    assert legs == [
        ("H1.R01.R01-01", "R01", "R01"), ("H1.R01.R01-01", "R02", "R02"),
        ("H1.R01.R01-02", "R01", "R02"), ("H1.R01.R01-02", "R01", "R03"), ("H1.R01.R01-02", "R02", "R03"),
    ]  # fmt: skip
    del plant


def test_the_segment_sheet_read_a_few_uplinks_at_a_time_is_the_same_sheet(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan_id, _ = plan_with_plant(owner, row_hall, db_session)
    url = f"/api/v1/wiring-plans/{plan_id}/exports/wiring-segments.csv"
    whole = owner.get(url).text
    monkeypatch.setattr(structured_exports, "YIELD_PER", 3)  # 16 uplinks: six batches, the last of one
    assert owner.get(url).text == whole
    assert whole.count("\n") == 1 + 16 * 5


def test_the_panel_map_read_a_panel_at_a_time_is_the_whole_plants_map(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan_id, plant = plan_with_plant(owner, row_hall, db_session)
    url = f"/api/v1/wiring-plans/{plan_id}/exports/panel-map.pdf"
    whole_pdf = [p.extract_text() for p in PdfReader(io.BytesIO(owner.get(url).content)).pages]
    plan = db_session.get(WiringPlanRow, plan_id)
    assert plan is not None
    stored = structured_exports.stored_plant(db_session, plan)
    whole = list(sx.panel_sheets(stored.panels, stored.items, stored.steps, structured_exports.catalog()))
    # A batch per panel: each far end on the network rack's panel (outside the batch) is still a panel,
    # and each rear port still finds its trunk through the links' chains.
    monkeypatch.setattr(structured_exports, "PANEL_BATCH", 1)
    assert list(structured_exports.panel_sheets(db_session, plan, LOCATION_NAMES)) == whole
    assert [p.extract_text() for p in PdfReader(io.BytesIO(owner.get(url).content)).pages] == whole_pdf
    far = whole[0].rears[0]
    assert (far.cable, far.far_end.split(":")[0]) == (plant.items[0].label, plant.panels[-1].panel_id)


def count_plant_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The plan ids `structured_exports.stored_plant` is asked for from now on, in order."""
    reads: list[int] = []
    whole_plant = structured_exports.stored_plant

    def counted(session: Session, row: WiringPlanRow) -> StructuredPlant:
        reads.append(row.id)
        return whole_plant(session, row)

    monkeypatch.setattr(structured_exports, "stored_plant", counted)
    return reads


def test_netbox_zip_sends_its_first_members_before_it_reads_the_plant_and_reads_it_once(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan_id, plant = plan_with_plant(owner, row_hall, db_session)
    plan = db_session.get(WiringPlanRow, plan_id)
    assert plan is not None
    reads = count_plant_reads(monkeypatch)
    body = exports.netbox_zip(db_session, plan)
    first = next(body)
    assert first.startswith(b"PK\x03\x04") and reads == []
    archive = first + b"".join(body)
    assert reads == [plan_id]
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        assert "Structured cabling: 3 patch panels are devices" in z.read("README.txt").decode()
        devices = list(csv.DictReader(io.StringIO(z.read("07-devices.csv").decode())))
    assert [d["name"] for d in devices if d["role"] == "Patch panel"] == [p.panel_id for p in plant.panels]


def test_a_panel_type_is_checked_against_the_device_models_from_the_panels_alone() -> None:
    panel = PlantPanel("H1.R01.R01-01.U42", "H1.R01.R01-01", 42, PANEL, CASSETTE, 1, 6, 4, PlantRole.RACK)
    fitted = f"{PANEL} + 1 x {CASSETTE}"
    models = {fitted, f"{fitted}, positions reversed", PANEL, f"{PANEL} + 2 x {CASSETTE}"}
    assert structured_exports.panel_type_clashes([panel], models) == {fitted, f"{fitted}, positions reversed"}


def test_the_label_sheet_sends_the_cables_labels_before_it_reads_the_plant_and_a_rows_never_reads_it(
    owner: TestClient, row_hall: dict[str, Any], db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan_id, _ = plan_with_plant(owner, row_hall, db_session)
    plan = db_session.get(WiringPlanRow, plan_id)
    assert plan is not None
    reads = count_plant_reads(monkeypatch)
    for one_pdf in (True, False):
        body = exports.label_sheet_pdf(db_session, plan, one_pdf=one_pdf).body
        first = next(body)
        assert first.startswith(b"%PDF" if one_pdf else b"PK\x03\x04") and reads == []
        b"".join(body)
        assert reads == [plan_id]
        reads.clear()
    b"".join(exports.label_sheet_pdf(db_session, plan, row="R01").body)
    assert reads == []
