"""A structured plan's exports from a hand-built plant (issue 29 item 6): the segment sheet, the trunk
pull list, the panel port map PDF, the plant's labels and its NetBox objects, every expectation
written out by hand from the plant below.

The plant: two ToR uplinks of rack H1.R01.K01 (ToR at U40, ports e49 and e50) to the spine in rack
H1.R02.K01 (U40, ports e1 and e2), each through a cord to a row-end panel (H1.R01.K01.U42, one
6-port LC cassette), one 12-fibre trunk between the two panels' rear ports R01, and a cord from the
network panel (H1.R02.K01.U42) to the spine. Items are shared and stored in one direction each; the
network-side panel ports and cords are stored from their far end, so the exports must turn them.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

import yaml
from pypdf import PdfReader

from loopline.domain import netbox
from loopline.domain.device_names import DeviceNames
from loopline.domain.exports import NETBOX_COLUMNS, csv_chunks
from loopline.domain.print_sheets import labels_pdf
from loopline.domain.structured import exports as sx
from loopline.domain.structured.catalog import builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import (
    ChainStep,
    PlantItem,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)

CATALOG = builtin_catalog()
TOR, SPINE = "H1.R01.K01.U40", "H1.R02.K01.U40"
P1, P2 = "H1.R01.K01.U42", "H1.R02.K01.U42"
CASSETTE = "FS FHD-1MTP6LCDOS2A"
PANEL = "FS FHD-1UFCE"
TRUNK = "T-H1.R01.K01-H1.R02.K01-1"


def _panel(panel_id: str, rack: str, role: PlantRole) -> PlantPanel:
    return PlantPanel(panel_id, rack, 42, PANEL, CASSETTE, 1, 6, 2, role)


def _item(item_id: str, kind: SegmentKind, label: str, part: str, a: str, ap: str, b: str, bp: str,
          length: int = 0, ordered: int = 0, fibres: int = 0, route: str = "",
          made: bool = False) -> PlantItem:  # fmt: skip
    return PlantItem(item_id, kind, label, part, a, ap, b, bp, length, ordered, made, fibres, route)


def plant() -> StructuredPlant:
    cord = "CORD-LC-LC-AB-OS2"
    items = [
        _item("I-c1", SegmentKind.CORD, f"{TOR}:e49 / {P1}:F01", cord, TOR, "e49", P1, "F01", 2300, 3000, 2),
        _item("I-c2", SegmentKind.CORD, f"{TOR}:e50 / {P1}:F02", cord, TOR, "e50", P1, "F02", 2300, 3000, 2),
        _item("I-p1", SegmentKind.PANEL_PORT, f"{P1}:F01", CASSETTE, P1, "F01", P1, "R01"),
        _item("I-p2", SegmentKind.PANEL_PORT, f"{P1}:F02", CASSETTE, P1, "F02", P1, "R01"),
        _item(
            "I-t",
            SegmentKind.TRUNK,
            TRUNK,
            "TRUNK-MPO-12-12F-B-UU-OS2",
            P1,
            "R01",
            P2,
            "R01",
            14_250,
            14_250,
            12,
            "H1.R01.K01 > tray > H1.R02.K01",
            True,
        ),  # fmt: skip
        # The network end, stored from the far side: rear first, spine first.
        _item("I-q1", SegmentKind.PANEL_PORT, f"{P2}:F01", CASSETTE, P2, "R01", P2, "F01"),
        _item("I-q2", SegmentKind.PANEL_PORT, f"{P2}:F02", CASSETTE, P2, "R01", P2, "F02"),
        _item("I-d1", SegmentKind.CORD, f"{SPINE}:e1 / {P2}:F01", cord, SPINE, "e1", P2, "F01", 900, 1000, 2),
        _item("I-d2", SegmentKind.CORD, f"{SPINE}:e2 / {P2}:F02", cord, SPINE, "e2", P2, "F02", 900, 1000, 2),
    ]
    steps = []
    for link, n in (("C1", "1"), ("C2", "2")):
        for pos, item in enumerate((f"I-c{n}", f"I-p{n}", "I-t", f"I-q{n}", f"I-d{n}")):
            detail = {2: f"fibres {2 * int(n) - 1}-{2 * int(n)}"}.get(pos, "")
            steps.append(ChainStep(link, pos, item, detail))
    return StructuredPlant(
        StructuredSettings(),
        [_panel(P1, "H1.R01.K01", PlantRole.ROW_END), _panel(P2, "H1.R02.K01", PlantRole.NETWORK)],
        items,
        steps,
    )


LINKS = [
    sx.PlantLink("C1", f"{TOR}:e49 / {SPINE}:e1", TOR, "e49", SPINE, "e1"),
    sx.PlantLink("C2", f"{TOR}:e50 / {SPINE}:e2", TOR, "e50", SPINE, "e2"),
]


def _csv(columns: tuple[str, ...], rows: Iterable[Sequence[object]]) -> list[str]:
    return "".join(csv_chunks(columns, rows)).splitlines()


def _by_link(p: StructuredPlant) -> list[tuple[sx.PlantLink, list[ChainStep]]]:
    return [(link, [s for s in p.steps if s.cable_id == link.cable_id]) for link in LINKS]


def test_the_segment_sheet_has_a_line_per_step_each_running_from_the_tor_to_the_spine() -> None:
    p = plant()
    items = {i.item_id: i for i in p.items}
    lines = _csv(sx.SEGMENT_COLUMNS, sx.segment_rows(_by_link(p), items, {x.panel_id: x for x in p.panels}))
    label = f"{TOR}:e49 / {SPINE}:e1"
    assert lines[:6] == [
        "cable_id,link_label,position,kind,item_id,item_label,part,length_m,ordered_length_m,from_end,from_port,"
        "to_end,to_port,detail",
        f"C1,{label},0,cord,I-c1,{TOR}:e49 / {P1}:F01,CORD-LC-LC-AB-OS2,2.300,3.000,{TOR},e49,{P1},F01,",
        f"C1,{label},1,panel port,I-p1,{P1}:F01,{CASSETTE},,,{P1},F01,{P1},R01,",
        f"C1,{label},2,trunk,I-t,{TRUNK},TRUNK-MPO-12-12F-B-UU-OS2,14.250,14.250,{P1},R01,{P2},R01,fibres 1-2",
        f"C1,{label},3,panel port,I-q1,{P2}:F01,{CASSETTE},,,{P2},R01,{P2},F01,",
        f"C1,{label},4,cord,I-d1,{SPINE}:e1 / {P2}:F01,CORD-LC-LC-AB-OS2,0.900,1.000,{P2},F01,{SPINE},e1,",
    ]
    assert len(lines) == 11
    assert lines[8].startswith("C2,") and lines[8].endswith(f"{P1},R01,{P2},R01,fibres 3-4")


def test_the_segment_sheet_prints_host_names_where_the_hall_names_devices() -> None:
    p = plant()
    names = DeviceNames({TOR: "tor-1", SPINE: "spine-1"}, {})
    rows = list(
        sx.segment_rows(_by_link(p)[:1], {i.item_id: i for i in p.items}, {x.panel_id: x for x in p.panels}, names)
    )
    assert rows[0][1] == "tor-1:e49 / spine-1:e1"
    assert rows[0][9:13] == ("tor-1", "e49", P1, "F01")
    assert rows[4][9:13] == (P2, "F01", "spine-1", "e1")


def test_the_trunk_pull_list_has_a_line_per_trunk_with_its_sku_ends_route_and_links() -> None:
    p = plant()
    assert _csv(sx.TRUNK_PULL_COLUMNS, sx.trunk_pull_rows(p.items, p.steps)) == [
        "trunk,part,fibres,length_m,ordered_length_m,made_to_order,from_panel,from_port,to_panel,to_port,links,"
        "route,item_id",
        f"{TRUNK},TRUNK-MPO-12-12F-B-UU-OS2,12,14.250,14.250,yes,{P1},R01,{P2},R01,2,"
        "H1.R01.K01 > tray > H1.R02.K01,I-t",
    ]


def test_a_cassette_panel_maps_each_front_port_to_its_cassettes_rear_port_position() -> None:
    two = PlantPanel(P1, "H1.R01.K01", 42, PANEL, CASSETTE, 2, 12, 0, PlantRole.RACK)
    ports = sx.panel_ports(two, CATALOG)
    assert [(f.name, f.rear, f.position) for f in ports.fronts] == [
        *((f"F{k:02d}", "R01", k) for k in range(1, 7)),
        *((f"F{k:02d}", "R02", k - 6) for k in range(7, 13)),
    ]
    assert [(r.name, r.positions, r.connector.value) for r in ports.rears] == [
        ("R01", 6, "MPO-12"),
        ("R02", 6, "MPO-12"),
    ]
    adapter = PlantPanel(P1, "H1.R01.K01", 42, "FS FHU-FPP48FLCSMF", None, 0, 24, 0, PlantRole.RACK)
    plain = sx.panel_ports(adapter, CATALOG)
    assert (plain.fronts[23].name, plain.fronts[23].rear, plain.fronts[23].position) == ("F24", "R24", 1)
    assert len(plain.rears) == 24


def _pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def test_the_panel_map_has_one_page_per_panel_naming_every_port_its_cord_and_far_end() -> None:
    p = plant()
    sheets = list(sx.panel_sheets(p.panels, p.items, p.steps, CATALOG))
    assert [(x.port, x.maps_to, x.cable, x.far_end) for x in sheets[0].fronts[:3]] == [
        ("F01", "R01/1", f"{TOR}:e49 / {P1}:F01", f"{TOR}:e49"),
        ("F02", "R01/2", f"{TOR}:e50 / {P1}:F02", f"{TOR}:e50"),
        ("F03", "R01/3", "", ""),
    ]
    assert [(x.port, x.cable, x.far_end) for x in sheets[1].rears] == [("R01", TRUNK, f"{P1}:R01")]
    pdf = b"".join(sx.panel_map_stream(iter(sheets), "Panel map: plan demo"))
    pages = _pages_text(pdf)
    assert len(pages) == 2
    for text, panel, far in ((pages[0], P1, TOR), (pages[1], P2, SPINE)):
        assert f"Panel {panel}" in text
        assert all(re.search(rf"F0{k}\s+R01/{k}", text) for k in range(1, 7)), text
        assert f"{far}:e" in text and "R01" in text and TRUNK in text


def test_a_144_port_panel_still_prints_on_one_page() -> None:
    big = PlantPanel(P1, "H1.R01.K01", 41, "FS FHD-2UFCE", "FS FHD-1MTP12LCDOS2A", 12, 144, 0, PlantRole.NETWORK)
    sheets = list(sx.panel_sheets([big, big], [], [], CATALOG))
    pages = _pages_text(b"".join(sx.panel_map_stream(iter(sheets), "big")))
    assert len(pages) == 2
    assert "F144" in pages[0] and "R12" in pages[0] and "F01" in pages[0]


def test_labels_two_per_cord_and_trunk_and_one_per_used_panel_port() -> None:
    p = plant()
    labels = list(sx.plant_labels(p.panels, p.items, p.steps))
    cords = [x for x in labels if x.payload.startswith("I-")]
    assert len(cords) == 8  # four cords, both ends
    assert [line[0] for line in cords[0].lines[:4]] == [
        "I-c1",  # the cord's label is its two ends: the first line names it by its id
        f"{TOR}:e49",
        f"{P1}:F01",
        "END A   3.00 m   cord",
    ]
    trunks = [x for x in labels if x.payload == TRUNK]
    assert [t.lines[1][0] for t in trunks] == [f"this end: {P1}:R01", f"this end: {P2}:R01"]
    assert [t.lines[3][0] for t in trunks] == ["END A   14.25 m   12 fibres", "END B   14.25 m   12 fibres"]
    ports = [x.payload for x in labels if ":" in x.payload]
    assert ports == [f"{P1}:F01", f"{P1}:F02", f"{P1}:R01", f"{P2}:F01", f"{P2}:F02", f"{P2}:R01"]
    out = io.BytesIO()
    assert labels_pdf(out, labels, "plant labels") == 16
    assert len(PdfReader(io.BytesIO(out.getvalue())).pages) == 1


def test_netbox_panel_types_have_rear_ports_with_positions_and_front_ports_mapped_to_them() -> None:
    p = plant()
    t = sx.panel_device_type(p.panels[0], CATALOG)
    docs = list(yaml.safe_load_all("".join(netbox.device_types_yaml([t], {t.model: "panel"}))))
    assert docs == [
        {
            "manufacturer": "Generic",
            "model": f"{PANEL} + 1 x {CASSETTE}",
            "slug": "panel",
            "u_height": 1,
            "is_full_depth": False,
            "rear-ports": [{"name": "R01", "type": "mpo", "positions": 6}],
            "front-ports": [
                {"name": f"F0{k}", "type": "lc", "rear_port": "R01", "rear_port_position": k} for k in range(1, 7)
            ],
        }
    ]
    rows = list(netbox.device_rows("S", sx.panel_devices(p.panels, {"H1.R02.K01": "rear"}), {}))
    assert rows[1] == (P2, "Patch panel", "Generic", f"{PANEL} + 1 x {CASSETTE}", "planned", "S", "", "H1.R02.K01",
                       42, "rear", "", "")  # fmt: skip


def test_netbox_cables_join_interfaces_front_ports_and_rear_ports() -> None:
    p = plant()
    rows = _csv(
        NETBOX_COLUMNS, sx.plant_cable_rows(p.items, p.steps, [P1, P2], "S", CATALOG, colours=netbox.CABLE_COLOURS)
    )
    assert rows[1:] == [
        f"S,{TOR},dcim.interface,e49,S,{P1},dcim.frontport,F01,smf-os2,planned,{TOR}:e49 / {P1}:F01,ffeb3b,3.00,m",
        f"S,{TOR},dcim.interface,e50,S,{P1},dcim.frontport,F02,smf-os2,planned,{TOR}:e50 / {P1}:F02,ffeb3b,3.00,m",
        f"S,{P1},dcim.rearport,R01,S,{P2},dcim.rearport,R01,smf-os2,planned,{TRUNK},ffeb3b,14.25,m",
        f"S,{SPINE},dcim.interface,e1,S,{P2},dcim.frontport,F01,smf-os2,planned,{SPINE}:e1 / {P2}:F01,ffeb3b,1.00,m",
        f"S,{SPINE},dcim.interface,e2,S,{P2},dcim.frontport,F02,smf-os2,planned,{SPINE}:e2 / {P2}:F02,ffeb3b,1.00,m",
    ]


def test_a_trunk_stored_with_a_set_of_legs_is_one_netbox_cable_per_leg_its_links_use() -> None:
    p = plant()
    legs = [i if i.item_id != "I-t" else _item("I-t", SegmentKind.TRUNK, TRUNK, i.part, P1, "R01-R02", P2,
                                                  "R01-R02", 10, 10, 24) for i in p.items]  # fmt: skip
    moved = [i if i.item_id not in ("I-p2", "I-q2") else _item(i.item_id, i.kind, i.label, i.part, i.a_end,
             i.a_port.replace("R01", "R02"), i.b_end, i.b_port.replace("R01", "R02")) for i in legs]  # fmt: skip
    rows = list(csv.reader(_csv(NETBOX_COLUMNS, sx.plant_cable_rows(moved, p.steps, [P1, P2], "S", CATALOG))))
    trunks = [(r[1], r[3], r[5], r[7], r[10]) for r in rows[1:] if r[2] == "dcim.rearport"]
    assert trunks == [(P1, "R01", P2, "R01", f"{TRUNK} leg 1"), (P1, "R02", P2, "R02", f"{TRUNK} leg 2")]


def test_a_far_panel_of_a_method_b_trunk_gets_a_type_whose_ports_sit_on_the_positions_they_are_reached_on() -> None:
    """Method B: the near cassette's ports 1 and 2 arrive at the far cassette's ports 6 and 5. NetBox's
    trunk joins position p to p, so the far panel's F06 must be on position 1 and F05 on 2; the ports
    no link uses follow the same order (F04 -> 3, ..., F01 -> 6)."""
    p = plant()

    def arriving(far: dict[str, str]) -> list[PlantItem]:
        return [
            i if i.b_end != P2 and i.a_end != SPINE
            else _item(i.item_id, i.kind, i.label, i.part, i.a_end, far.get(i.a_port, i.a_port), i.b_end,
                       far.get(i.b_port, i.b_port), i.length_mm, i.ordered_mm, i.fibres)
            for i in p.items
        ]  # fmt: skip

    items = arriving({"F01": "F06", "F02": "F05"})
    assert sx.far_end_positions(p.panels, items, p.steps, CATALOG) == {P2: {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1}}
    types, type_of = sx.netbox_panel_types(p.panels, items, p.steps, CATALOG)
    near_type, far_type = f"{PANEL} + 1 x {CASSETTE}", f"{PANEL} + 1 x {CASSETTE}, positions reversed"
    assert type_of == {P1: near_type, P2: far_type}
    assert [(f[0], f[3]) for f in types[far_type].front_ports] == [(f"F0{k}", 7 - k) for k in range(1, 7)]
    assert [(f[0], f[3]) for f in types[near_type].front_ports] == [(f"F0{k}", k) for k in range(1, 7)]
    # Another order: the used ports where they are reached, the unused ones on the positions left, in order.
    other = arriving({"F01": "F03", "F02": "F01"})
    assert sx.far_end_positions(p.panels, other, p.steps, CATALOG) == {P2: {1: 2, 2: 3, 3: 1, 4: 4, 5: 5, 6: 6}}
    assert sx.netbox_panel_types(p.panels, other, p.steps, CATALOG)[1][P2] == f"{near_type}, positions 2,3,1,4,5,6"
    # The direct arrangement (F01 reached on 1) needs no type of its own.
    assert sx.far_end_positions(p.panels, p.items, p.steps, CATALOG) == {}
