"""The plant builder on small halls built like the generator's tests, every figure derived by hand.

The hall: rows R01, R02 (facing across a 1.2 m cold aisle), each three compute racks K01..K03 of one
logical rack (4 servers, ToR at U5) and a network rack N01 at the row's +x end; SPINE1 in R01.N01,
SPINE2 in R02.N01 (U1 each), leaf-spine with two 100G uplinks per ToR (e49 to SPINE1, e50 to
SPINE2). Positions (abstract_layout): racks 600 mm wide from x = 1200, so a rack's port face centre
is at x = 1500 + 600 k; R01's fronts face +y at y = 2400, R02's face -y at y = 3600. Heights: U5's
centre 200 mm, U41's 1800, U42's 1845, U1's 22; the tray at 42U (1867) + 300 = 2167 mm.
Lengths: raw + 2 x 150 mm, + 5 %, rounded up (routing.DEFAULT_GEOMETRY).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
from loopline.domain.layout import Hall
from loopline.domain.routing import DEFAULT_GEOMETRY
from loopline.domain.structured.catalog import StructuredCatalog, TrunkPolarity, builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.layout import ADAPTER_PLATE, BREAKOUT_MODULE, BREAKOUT_PANEL, structure_plan
from loopline.domain.structured.optics import lane_port, split_lane
from loopline.domain.structured.plant import (
    Cabling,
    FindingKind,
    PanelPlacement,
    PlantItem,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)
from loopline.domain.wiring import Pattern, WiringPlan, WiringSpec, generate_plan
from loopline.domain.wiring.model import LinkClass
from loopline.domain.wiring.spec import FabricKind, FabricSpec

CAT = builtin_catalog()
TRUNK_12F = "TRUNK-MPO-12-12F-B-UU-OS2"
ROW_END = StructuredSettings(panel_at=PanelPlacement.ROW_END)


def small_hall(**kw: object) -> Hall:
    args: dict[str, object] = {
        "rows": 2,
        "racks_per_row": 3,
        "logical_per_rack": 1,
        "servers_per_logical_rack": 4,
        "spine_switches": 2,
        "uplinks_per_tor": 2,
    }
    args.update(kw)
    return build_abstract_layout(AbstractLayoutSpec(**args))  # type: ignore[arg-type]


def with_fabric_ports(hall: Hall, gbps: float) -> Hall:
    """The hall with every aggregation and spine switch's downlink ports at `gbps`."""
    return replace(
        hall,
        rows=tuple(
            replace(
                row,
                racks=tuple(
                    replace(
                        rk,
                        fabric_switches=tuple(
                            replace(fs, model=replace(fs.model, server_port_gbps=gbps)) if fs.role != "core" else fs
                            for fs in rk.fabric_switches
                        ),
                    )
                    for rk in row.racks
                ),
            )
            for row in hall.rows
        ),
    )


def leaf_spine(hall: Hall, uplinks: int = 2) -> WiringPlan:
    spec = WiringSpec(pattern=Pattern.SINGLE_HOMED, ports=1, fabric=FabricSpec(FabricKind.LEAF_SPINE, uplinks))
    return generate_plan(hall, spec)


def build(
    hall: Hall, plan: WiringPlan, settings: StructuredSettings = ROW_END, catalog: StructuredCatalog = CAT
) -> StructuredPlant:
    return structure_plan(hall, plan, settings, DEFAULT_GEOMETRY, catalog)


def chain(plant: StructuredPlant, cable_id: str) -> list[tuple[PlantItem, str]]:
    items = {i.item_id: i for i in plant.items}
    steps = sorted((s for s in plant.steps if s.cable_id == cable_id), key=lambda s: s.position)
    assert [s.position for s in steps] == list(range(len(steps)))
    return [(items[s.item_id], s.detail) for s in steps]


def link(plan: WiringPlan, tor: str, port: str) -> str:
    return next(c.cable_id for c in plan.cables if (c.a_device, c.a_port) == (tor, port))


def test_row_end_panels_trunks_and_chains_of_a_small_hall() -> None:
    hall = small_hall()
    plan = leaf_spine(hall)
    plant = build(hall, plan)

    # Each row's end nearest its links' spines is N01 (K01's face is 1.8 m further from both), so
    # the row-end panels stand in the network racks, beside the network panels: U42 (row end),
    # U41 (network), each with two 6-port cassettes (one per trunk).
    def panel(rack: str, u: int, role: PlantRole) -> PlantPanel:
        return PlantPanel(f"{rack}.U{u}", rack, u, "FS FHD-1UFCE", "FS FHD-1MTP6LCDOS2A", 2, 12, 6, role)

    assert plant.panels == [
        panel("H1.R01.N01", 42, PlantRole.ROW_END),
        panel("H1.R01.N01", 41, PlantRole.NETWORK),
        panel("H1.R02.N01", 42, PlantRole.ROW_END),
        panel("H1.R02.N01", 41, PlantRole.NETWORK),
    ]
    # One trunk per (row-end rack, network rack): three duplex links = 6 fibres -> one 12F MPO-12
    # Type-B trunk, made to order (the catalog sells none by length). Lengths: inside N01 from
    # U42 to U41: 1845 - 1800 = 45 mm raw -> (45 + 300) x 1.05 = 363 mm; across the cold aisle:
    # (2167 - 1845) + 1200 + (2167 - 1800) = 1889 mm raw -> 2299 mm.
    trunks = [(i.label, i.part, i.fibres, i.a_end, i.a_port, i.b_end, i.b_port, i.length_mm, i.ordered_mm,
               i.made_to_order) for i in plant.items if i.kind is SegmentKind.TRUNK]  # fmt: skip
    t12 = "TRUNK-MPO-12-12F-B-UU-OS2"
    assert trunks == [
        ("T-H1.R01.N01-H1.R01.N01-1", t12, 12, "H1.R01.N01.U42", "R01", "H1.R01.N01.U41", "R01", 363, 363, True),
        ("T-H1.R01.N01-H1.R02.N01-1", t12, 12, "H1.R01.N01.U42", "R02", "H1.R02.N01.U41", "R01", 2299, 2299, True),
        ("T-H1.R02.N01-H1.R01.N01-1", t12, 12, "H1.R02.N01.U42", "R01", "H1.R01.N01.U41", "R02", 2299, 2299, True),
        ("T-H1.R02.N01-H1.R02.N01-1", t12, 12, "H1.R02.N01.U42", "R02", "H1.R02.N01.U41", "R02", 363, 363, True),
    ]

    # R01.K01's uplink to SPINE1 (its e1): cord K01 U5 -> N01 U42 front 1: (2167 - 200) + 1800 +
    # (2167 - 1845) = 4089 raw -> 4609 mm, sold as 5 m; cassette port 1 (fibres 1-2 of the MPO);
    # the Type-B leg turns cassette port k into port 7 - k: port 6 of the network cassette; the
    # cord U41 -> U1 in the same rack: 1800 - 22 = 1778 raw -> 2182 mm, sold as 3 m.
    got = [
        (i.kind, i.label, i.a_end, i.a_port, i.b_end, i.b_port, i.length_mm, i.ordered_mm, d)
        for i, d in chain(plant, link(plan, "H1.R01.K01.U05", "e49"))
    ]
    assert got == [
        (SegmentKind.CORD, "H1.R01.K01.U05:e49 / H1.R01.N01.U42:F01", "H1.R01.K01.U05", "e49", "H1.R01.N01.U42",
         "F01", 4609, 5000, ""),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U42:F01", "H1.R01.N01.U42", "F01", "H1.R01.N01.U42", "R01", 0, 0,
         "front F01 -> rear R01"),
        (SegmentKind.TRUNK, "T-H1.R01.N01-H1.R01.N01-1", "H1.R01.N01.U42", "R01", "H1.R01.N01.U41", "R01", 363, 363,
         "leg 1 (R01 -> R01), fibres 1-2"),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U41:F06", "H1.R01.N01.U41", "R01", "H1.R01.N01.U41", "F06", 0, 0,
         "rear R01 -> front F06"),
        (SegmentKind.CORD, "H1.R01.N01.U41:F06 / H1.R01.N01.U01:e1", "H1.R01.N01.U41", "F06", "H1.R01.N01.U01",
         "e1", 2182, 3000, ""),
    ]  # fmt: skip
    # R02.K03's uplink to SPINE1 (its e6) crosses the aisle: cord in R02 (K03 at x = 2700 to N01 at
    # 3300: 1967 + 600 + 322 = 2889 raw -> 3349 mm), its row end's second cassette (port 3 -> F09), the
    # trunk R02.N01 -> R01.N01 to the second cassette of R01.N01's network panel, port 7 - 3 = 4:
    # front 6 + 4 = F10.
    crossing = [(i.label, i.length_mm, d) for i, d in chain(plant, link(plan, "H1.R02.K03.U05", "e49"))]
    assert crossing == [
        ("H1.R02.K03.U05:e49 / H1.R02.N01.U42:F03", 3349, ""),
        ("H1.R02.N01.U42:F03", 0, "front F03 -> rear R01"),
        ("T-H1.R02.N01-H1.R01.N01-1", 2299, "leg 1 (R01 -> R02), fibres 5-6"),
        ("H1.R01.N01.U41:F10", 0, "rear R02 -> front F10"),
        ("H1.R01.N01.U41:F10 / H1.R01.N01.U01:e6", 2182, ""),
    ]
    # 12 links: a ToR cord, a panel port at each end and a network cord each (48 items), 4 trunks.
    kinds = [i.kind for i in plant.items]
    assert (kinds.count(SegmentKind.CORD), kinds.count(SegmentKind.PANEL_PORT), kinds.count(SegmentKind.TRUNK)) == (
        24,
        24,
        4,
    )
    assert len(plant.steps) == 12 * 5
    # One optic per device port: 12 ToR ports and 12 spine ports, all 100G-DR.
    assert len(plant.optics) == 24 and {o.part for o in plant.optics} == {"100G-DR"}
    # Every link traces (Method B, Tx onto Rx both ways); the one finding: 100G-DR has no sourced
    # channel budget (the catalog says so), once for the 12 links.
    assert [(f.kind, f.severity, f.message) for f in plant.findings] == [
        (
            FindingKind.FACT_MISSING,
            "warning",
            "100G-DR states no channel loss budget (12 links, e.g. H1.R01.K01.U05:e49 / H1.R01.N01.U01:e1)",
        )
    ]


def test_panels_in_the_tor_rack_take_its_top_free_u() -> None:
    # Compute racks hold U1-U5, so each rack's panel is at U42 with two cassettes (a trunk to each
    # network rack, one link each); the cord runs inside the rack: 1845 - 200 = 1645 raw -> 2043 mm.
    hall = small_hall()
    plan = leaf_spine(hall)
    plant = build(hall, plan, StructuredSettings(panel_at=PanelPlacement.RACK))
    rack_panels = [p for p in plant.panels if p.role is PlantRole.RACK]
    assert [(p.panel_id, p.cassettes, p.ports_used) for p in rack_panels] == [
        (f"H1.R0{r}.K0{k}.U42", 2, 2) for r in (1, 2) for k in (1, 2, 3)
    ]
    first = chain(plant, link(plan, "H1.R01.K01.U05", "e49"))
    assert (first[0][0].label, first[0][0].length_mm) == ("H1.R01.K01.U05:e49 / H1.R01.K01.U42:F01", 2043)
    # 12 trunks of one link each (6 racks x 2 network racks); network panels: 6 cassettes each, in
    # two panels (4 slots a panel).
    assert sum(1 for i in plant.items if i.kind is SegmentKind.TRUNK) == 12
    assert [(p.panel_id, p.cassettes) for p in plant.panels if p.role is PlantRole.NETWORK] == [
        ("H1.R01.N01.U42", 4),
        ("H1.R01.N01.U41", 2),
        ("H1.R02.N01.U42", 4),
        ("H1.R02.N01.U41", 2),
    ]


def test_a_flipped_trunk_is_found_lane_by_lane() -> None:
    # The same hall with Type-A trunks: the builder still lands port k on the port the trunk's map
    # gives (k -> k), and the trace finds each link's Tx on a Tx, from both ends, blaming the trunk
    # (Method B wants Type B).
    hall = small_hall()
    plan = leaf_spine(hall)
    type_a = replace(CAT, trunks=tuple(replace(t, polarity=TrunkPolarity.A) for t in CAT.trunks))
    plant = build(hall, plan, catalog=type_a)
    polarity = [f for f in plant.findings if f.kind is FindingKind.POLARITY]
    cid = link(plan, "H1.R01.K01.U05", "e49")
    trunk = next(i for i in plant.items if i.label == "T-H1.R01.N01-H1.R01.N01-1")
    mine = [(f.item_id, f.message) for f in polarity if f.cable_id == cid]
    name = "H1.R01.K01.U05:e49 / H1.R01.N01.U01:e1"
    why = "a Tx: Method B needs a Type-B trunk; this chain has Type A"
    tor, spine = "H1.R01.K01.U05:e49", "H1.R01.N01.U01:e1"
    assert mine == [
        (trunk.item_id, f"{name}: lane 1: Tx at {tor} pos 1 reaches pos 1 at {spine}, {why}"),
        (trunk.item_id, f"{name}: lane 1: Tx at {spine} pos 1 reaches pos 1 at {tor}, {why}"),
    ]
    assert len({f.cable_id for f in polarity}) == 12


def test_a_rack_without_room_for_its_panels_is_short_of_ports() -> None:
    # One logical rack of 40 servers + ToR: U1-U41, so one U (42) is free: one panel, four cassettes.
    # Five spines in five rows' network racks, five uplinks per ToR: five trunks from each rack,
    # one cassette each; the fifth (to SPINE5) finds no panel.
    hall = small_hall(rows=5, racks_per_row=1, servers_per_logical_rack=40, spine_switches=5, uplinks_per_tor=5)
    plan = leaf_spine(hall, uplinks=5)
    plant = build(hall, plan, StructuredSettings(panel_at=PanelPlacement.RACK))
    ports = [f for f in plant.findings if f.kind is FindingKind.PORTS]
    to_spine5 = [c for c in plan.cables if c.link_class is LinkClass.TOR_FABRIC and c.b_device.startswith("H1.R05.N01")]
    assert [f.message for f in ports] == [
        f"rack H1.R0{r}.K01: 1 x FS FHD-1UFCE with FS FHD-1MTP6LCDOS2A (rack panels; the rack had 1 U free) hold 24"
        f" front ports (24 each); its links need 30: 6 ports short ({c.label} has none)"
        for r, c in zip(range(1, 6), to_spine5, strict=True)
    ]
    built = {s.cable_id for s in plant.steps}
    assert built == {c.cable_id for c in plan.cables if c.link_class is LinkClass.TOR_FABRIC} - {
        c.cable_id for c in to_spine5
    }


def breakout_plan(hall: Hall) -> WiringPlan:
    """`hall` with 400G spine ports, each serving four of the 100G ToR uplinks (breakouts)."""
    spec = WiringSpec(
        pattern=Pattern.SINGLE_HOMED,
        ports=1,
        fabric=FabricSpec(FabricKind.LEAF_SPINE, 2, breakouts=True),
        cabling=Cabling.STRUCTURED,
    )
    return generate_plan(with_fabric_ports(hall, 400.0), spec)


def test_a_port_whose_lanes_share_a_row_breaks_out_at_the_row_end() -> None:
    # Four compute racks a row: each spine's e1 serves R01's four ToRs (SPINE1 their e49, SPINE2
    # their e50), its e2 R02's. Each row's end nearest the spines is N01 (as in the first test), so
    # every port's four lanes reach one row-end rack: its MPO travels whole to a module there.
    hall = with_fabric_ports(small_hall(racks_per_row=4), 400.0)
    plan = breakout_plan(hall)
    assert [(c.a_device, c.a_port) for c in plan.cables if c.b_device == "H1.R02.N01.U01"][:4] == [
        (f"H1.R01.K0{k}.U05", "e50") for k in (1, 2, 3, 4)
    ]
    plant = build(hall, plan)
    # R01.K02's e50 is SPINE2's e1/2. Lengths: the LC cord from R01.K02 (x 2100, U5 at 200 mm) to the
    # module panel at R01.N01's U42 (x 3900, 1845 mm): (2167 - 200) + 1800 + (2167 - 1845) = 4089 raw
    # -> (4089 + 300) x 1.05 = 4609; the trunk across the cold aisle to R02.N01's U41 (1800 mm):
    # 322 + 1200 + 367 = 1889 -> 2299; the MPO cord down R02.N01 from U41 to SPINE2 at U1 (22 mm):
    # 1778 -> 2182. The module's rear R02: SPINE1's e1 (the in-rack trunk) landed first.
    cid = link(plan, "H1.R01.K02.U05", "e50")
    got = [(i.kind, i.label, i.part, i.length_mm, d) for i, d in chain(plant, cid)]
    assert got == [
        (SegmentKind.CORD, "H1.R01.K02.U05:e50 / H1.R01.N01.U42:F06", "CORD-LC-LC-AB-OS2", 4609, ""),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U42:F06", BREAKOUT_MODULE, 0, "front F06 -> rear R02 (lane 2)"),
        (SegmentKind.TRUNK, "T-H1.R01.N01-H1.R02.N01-1", TRUNK_12F, 2299, "leg 1 (R02 -> R01), lane 2"),
        (SegmentKind.PANEL_PORT, "H1.R02.N01.U41:F01", ADAPTER_PLATE, 0, "rear R01 -> front F01"),
        (SegmentKind.CORD, "H1.R02.N01.U41:F01 / H1.R02.N01.U01:e1", "CORD-MPO12-MPO12-B-PU-OS2", 2182, "lane 2"),
    ]  # fmt: skip
    # Loss at the catalog's defaults: the module's front LC pair 0.5 + its rear MPO pair 0.75 + the
    # adapter's MPO pair 0.75 = 2.0 dB, + (4609 + 2299 + 2182) = 9090 mm of OS2 at 0.4 dB/km =
    # 0.003636 dB: 2.003636 dB, within the DR4's 3.0 dB by 0.996364 dB. No finding at all.
    assert plant.findings == []
    # At 1.25 dB an MPO pair, the same chain is 0.5 + 2 x 1.25 + 0.003636 = 3.003636 dB: one LC pair
    # and two MPO pairs, exactly.
    dear = build(hall, plan, StructuredSettings(mpo_pair_loss_db=1.25))
    assert [f.message for f in dear.findings if f.cable_id == cid] == [
        "H1.R01.K02.U05:e50 / H1.R02.N01.U01:e1/2: 3.003636 dB of loss against 400G-DR4's channel budget of 3 dB:"
        " over by 0.003636 dB"
    ]
    # Per rack: one EDGE-01U holding the two modules of the row's ports (8 front ports, a lane
    # each), one FHD panel with one adapter plate: the two spine ports' MPO cords.
    assert plant.panels == [
        panel
        for rack in ("H1.R01.N01", "H1.R02.N01")
        for panel in (
            PlantPanel(f"{rack}.U42", rack, 42, BREAKOUT_PANEL, BREAKOUT_MODULE, 2, 8, 8, PlantRole.ROW_END),
            PlantPanel(f"{rack}.U41", rack, 41, "FS FHD-1UFCE", ADAPTER_PLATE, 1, 12, 2, PlantRole.NETWORK),
        )
    ]
    # A port takes one whole leg (8 of its 12 fibres lit): four one-leg trunks; each port's MPO cord
    # carries its four lanes; no duplex cassette, no network-side module.
    trunks = [(i.label, i.part, i.length_mm) for i in plant.items if i.kind is SegmentKind.TRUNK]
    assert trunks == [
        ("T-H1.R01.N01-H1.R01.N01-1", "TRUNK-MPO-12-12F-B-UU-OS2", 363),
        ("T-H1.R01.N01-H1.R02.N01-1", "TRUNK-MPO-12-12F-B-UU-OS2", 2299),
        ("T-H1.R02.N01-H1.R01.N01-1", "TRUNK-MPO-12-12F-B-UU-OS2", 2299),
        ("T-H1.R02.N01-H1.R02.N01-1", "TRUNK-MPO-12-12F-B-UU-OS2", 363),
    ]
    mpo = [i for i in plant.items if i.part == "CORD-MPO12-MPO12-B-PU-OS2"]
    assert sorted(sum(1 for s in plant.steps if s.item_id == i.item_id) for i in mpo) == [4, 4, 4, 4]
    assert {i.part for i in plant.items} == {
        "CORD-LC-LC-AB-OS2",
        BREAKOUT_MODULE,
        "TRUNK-MPO-12-12F-B-UU-OS2",
        ADAPTER_PLATE,
        "CORD-MPO12-MPO12-B-PU-OS2",
    }
    assert len({s.cable_id for s in plant.steps}) == 16
    parts = [o.part for o in plant.optics]
    assert (parts.count("400G-DR4"), parts.count("100G-DR")) == (4, 16)


def test_a_twin_port_800g_broken_into_8_lanes_takes_a_leg_and_a_module_per_connector() -> None:
    # Eight compute racks a row and 800G spine ports (800G-2xDR4, two MPO-12): each spine's e1 serves
    # R01's eight ToRs, lanes 1-4 on connector 1 and 5-8 on connector 2, all at R01's row end (N01).
    # A port takes two whole legs: one 24-fibre trunk of two MPO-12 legs (16 fibres lit), whose legs
    # land side by side on two modules at the row end and two adapters beside the spine.
    hall = with_fabric_ports(small_hall(racks_per_row=8), 800.0)
    spec = WiringSpec(
        pattern=Pattern.SINGLE_HOMED,
        ports=1,
        fabric=FabricSpec(FabricKind.LEAF_SPINE, 2, breakouts=True),
        cabling=Cabling.STRUCTURED,
    )
    plan = generate_plan(hall, spec)
    plant = build(hall, plan)
    # R01.K06's e49 is SPINE1's e1/6: connector 2, its lane 2. Lengths as R01.K02's to a 4-rack row's
    # end (1.8 m along x): 4609; the trunk inside N01, U42 -> U41: 363; the MPO cord U41 -> U1: 2182.
    cid = link(plan, "H1.R01.K06.U05", "e49")
    trunk_24f = "TRUNK-MPO-12-24F-B-UU-OS2"
    got = [(i.kind, i.label, i.part, i.length_mm, d) for i, d in chain(plant, cid)]
    assert got == [
        (SegmentKind.CORD, "H1.R01.K06.U05:e49 / H1.R01.N01.U42:F06", "CORD-LC-LC-AB-OS2", 4609, ""),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U42:F06", BREAKOUT_MODULE, 0, "front F06 -> rear R02 (lane 6)"),
        (SegmentKind.TRUNK, "T-H1.R01.N01-H1.R01.N01-1", trunk_24f, 363, "leg 2 (R02 -> R02), lane 6"),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U41:F02", ADAPTER_PLATE, 0, "rear R02 -> front F02"),
        (SegmentKind.CORD, "H1.R01.N01.U41:F02 / H1.R01.N01.U01:e1", "CORD-MPO12-MPO12-B-PU-OS2", 2182,
         "lane 6 (connector 2)"),
    ]  # fmt: skip
    trunks = [(i.label, i.part, i.a_port, i.b_port) for i in plant.items if i.kind is SegmentKind.TRUNK]
    assert trunks[0] == ("T-H1.R01.N01-H1.R01.N01-1", trunk_24f, "R01-R02", "R01-R02")
    assert {t[1] for t in trunks} == {trunk_24f} and len(trunks) == 4
    # Per rack: 4 modules (two spine ports x two connectors; 16 lanes) and 4 adapters in use.
    assert [(p.panel_id, p.model, p.cassettes, p.front_ports, p.ports_used) for p in plant.panels] == [
        (f"{rack}.U{u}", model, n, ports, used)
        for rack in ("H1.R01.N01", "H1.R02.N01")
        for u, model, n, ports, used in ((42, BREAKOUT_PANEL, 4, 16, 16), (41, "FS FHD-1UFCE", 1, 12, 4))
    ]
    assert plant.findings == []
    parts = [o.part for o in plant.optics]
    assert (parts.count("800G-2xDR4"), parts.count("100G-DR")) == (4, 32)


def test_a_row_end_breakout_over_a_type_a_trunk_is_found_lane_by_lane() -> None:
    # The row-end breakout's MPO part is Type B (trunk) + Type B (cord): straight. Over a Type-A
    # trunk it reverses. R01.K02's e50 (SPINE2's e1/2, the module's front port 2): the ToR's Tx
    # (LC pos 1) crosses the A-to-B cord to pos 2, the module sends it to rear pos 13 - 2 = 11, the
    # Type-A trunk and the adapter keep 11, the Type-B cord brings it to 2 at the DR4: a Tx. Back,
    # the DR4's lane 2 Tx (pos 2) reaches rear pos 11 -> the module's front port 2, pos 2 -> the
    # cord's pos 1 at the ToR: its Tx; the DR4's other lanes leave by the module's other ports. The
    # chain names no TIA method (duplex at one end, parallel at the other), so each direction
    # blames the segment it arrives by: the MPO cord going, the LC cord coming back.
    hall = with_fabric_ports(small_hall(racks_per_row=4), 400.0)
    plan = breakout_plan(hall)
    type_a = replace(CAT, trunks=tuple(replace(t, polarity=TrunkPolarity.A) for t in CAT.trunks))
    plant = build(hall, plan, catalog=type_a)
    cid = link(plan, "H1.R01.K02.U05", "e50")
    steps = chain(plant, cid)
    name = "H1.R01.K02.U05:e50 / H1.R02.N01.U01:e1/2"
    tor, spine = "H1.R01.K02.U05:e50", "H1.R02.N01.U01:e1/2"
    assert [(f.item_id, f.message) for f in plant.findings if f.cable_id == cid] == [
        (steps[4][0].item_id, f"{name}: lane 1: Tx at {tor} pos 1 reaches pos 2 at {spine}, a Tx"),
        (steps[0][0].item_id, f"{name}: lane 2: Tx at {spine} pos 2 reaches pos 1 at {tor}, a Tx"),
    ]
    assert {f.kind for f in plant.findings} == {FindingKind.POLARITY}
    assert len({f.cable_id for f in plant.findings}) == 16


def test_a_port_whose_lanes_straddle_two_rows_splits_at_the_network_rack() -> None:
    # Three compute racks a row: each spine's n-th link takes lane (n-1) % 4 + 1 of port
    # (n-1) // 4 + 1: e1/1 .. e1/3 to R01's ToRs, e1/4 to R02.K01 (two rows: two row-end racks), e2/1
    # and e2/2 to R02.K02 and K03 (one row).
    hall = small_hall()
    plan = breakout_plan(hall)
    assert [(c.a_device, c.b_port) for c in plan.cables if c.b_device == "H1.R01.N01.U01"] == [
        ("H1.R01.K01.U05", "e1/1"),
        ("H1.R01.K02.U05", "e1/2"),
        ("H1.R01.K03.U05", "e1/3"),
        ("H1.R02.K01.U05", "e1/4"),
        ("H1.R02.K02.U05", "e2/1"),
        ("H1.R02.K03.U05", "e2/2"),
    ]
    plant = build(with_fabric_ports(hall, 400.0), plan)
    # e1 splits at SPINE1's rack: the lane rides a duplex cassette and trunk to the network panel,
    # an LC jumper to the module, the module's MPO cord (Type A) to the port.
    cid = link(plan, "H1.R01.K02.U05", "e49")
    got = [(i.kind, i.label, i.part, d) for i, d in chain(plant, cid)]
    assert got == [
        (SegmentKind.CORD, "H1.R01.K02.U05:e49 / H1.R01.N01.U42:F02", "CORD-LC-LC-AB-OS2", ""),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U42:F02", "FS FHD-1MTP6LCDOS2A", "front F02 -> rear R01"),
        (SegmentKind.TRUNK, "T-H1.R01.N01-H1.R01.N01-1", "TRUNK-MPO-12-12F-B-UU-OS2", "leg 1 (R01 -> R01), fibres 3-4"),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U41:F05", "FS FHD-1MTP6LCDOS2A", "rear R01 -> front F05"),
        (SegmentKind.CORD, "H1.R01.N01.U41:F05 / H1.R01.N01.U39:F02", "CORD-LC-LC-AB-OS2", ""),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U39:F02", BREAKOUT_MODULE, "front F02 -> rear R01 (lane 2)"),
        (SegmentKind.CORD, "H1.R01.N01.U39:R01 / H1.R01.N01.U01:e1", "CORD-MPO12-MPO12-A-UU-OS2", "lane 2"),
    ]  # fmt: skip
    # e2's two lanes (R02.K02, R02.K03) break out at R02's row end, N01, and its MPO crosses the aisle.
    # Lengths: the LC cord R02.K02 (x 2100) -> R02.N01 U41 (x 3300, 1800 mm): 1967 + 1200 + 367 =
    # 3534 -> 4026; the trunk to R01.N01's U40 (1756 mm): 367 + 1200 + 411 = 1978 -> 2392; the MPO
    # cord U40 -> U1: 1734 -> 2136. It is the second trunk from R02.N01 to R01.N01 (e1/4's first).
    got = [(i.kind, i.label, i.part, i.length_mm, d) for i, d in chain(plant, link(plan, "H1.R02.K02.U05", "e49"))]
    assert got == [
        (SegmentKind.CORD, "H1.R02.K02.U05:e49 / H1.R02.N01.U41:F01", "CORD-LC-LC-AB-OS2", 4026, ""),
        (SegmentKind.PANEL_PORT, "H1.R02.N01.U41:F01", BREAKOUT_MODULE, 0, "front F01 -> rear R01 (lane 1)"),
        (SegmentKind.TRUNK, "T-H1.R02.N01-H1.R01.N01-2", TRUNK_12F, 2392, "leg 1 (R01 -> R01), lane 1"),
        (SegmentKind.PANEL_PORT, "H1.R01.N01.U40:F01", ADAPTER_PLATE, 0, "rear R01 -> front F01"),
        (SegmentKind.CORD, "H1.R01.N01.U40:F01 / H1.R01.N01.U01:e2", "CORD-MPO12-MPO12-B-PU-OS2", 2136, "lane 1"),
    ]  # fmt: skip
    # Each spine's e1 serves four links through one Type-A MPO cord and a network-side module; e2
    # two through a Type-B MPO cord from an adapter plate.
    uses = {i.item_id: sum(1 for s in plant.steps if s.item_id == i.item_id) for i in plant.items}
    cords = [(i.label, i.part, uses[i.item_id]) for i in plant.items if i.part.startswith("CORD-MPO12")]
    assert sorted(cords) == [
        ("H1.R01.N01.U39:R01 / H1.R01.N01.U01:e1", "CORD-MPO12-MPO12-A-UU-OS2", 4),
        ("H1.R01.N01.U40:F01 / H1.R01.N01.U01:e2", "CORD-MPO12-MPO12-B-PU-OS2", 2),
        ("H1.R02.N01.U38:R01 / H1.R02.N01.U01:e1", "CORD-MPO12-MPO12-A-UU-OS2", 4),
        ("H1.R02.N01.U39:F01 / H1.R02.N01.U01:e2", "CORD-MPO12-MPO12-B-PU-OS2", 2),
    ]

    # Per rack, top down: the row-end cassettes (R01: 6 links on 2 trunks; R02: e1/4's two), R02's
    # module panel for the e2 ports (2 modules, 4 lanes), the network cassettes, the adapter plate
    # (one port's MPO), the network-side module of the e1 port. R01's network panels come first
    # (U41, U40), its module after (the trunks land before the modules are placed).
    def panel(
        rack: str, u: int, model: str, cassette: str, n: int, ports: int, used: int, role: PlantRole
    ) -> PlantPanel:
        return PlantPanel(f"H1.{rack}.U{u}", f"H1.{rack}", u, model, cassette, n, ports, used, role)

    duplex, fhd = "FS FHD-1MTP6LCDOS2A", "FS FHD-1UFCE"
    assert plant.panels == [
        panel("R01.N01", 42, fhd, duplex, 2, 12, 6, PlantRole.ROW_END),
        panel("R01.N01", 41, fhd, duplex, 2, 12, 4, PlantRole.NETWORK),
        panel("R01.N01", 40, fhd, ADAPTER_PLATE, 1, 12, 1, PlantRole.NETWORK),
        panel("R01.N01", 39, BREAKOUT_PANEL, BREAKOUT_MODULE, 1, 4, 4, PlantRole.NETWORK),
        panel("R02.N01", 42, fhd, duplex, 2, 12, 2, PlantRole.ROW_END),
        panel("R02.N01", 41, BREAKOUT_PANEL, BREAKOUT_MODULE, 2, 8, 4, PlantRole.ROW_END),
        panel("R02.N01", 40, fhd, duplex, 2, 12, 4, PlantRole.NETWORK),
        panel("R02.N01", 39, fhd, ADAPTER_PLATE, 1, 12, 1, PlantRole.NETWORK),
        panel("R02.N01", 38, BREAKOUT_PANEL, BREAKOUT_MODULE, 1, 4, 4, PlantRole.NETWORK),
    ]
    # One 400G-DR4 per spine port (2 per spine), one 100G-DR per ToR port (12).
    parts = [o.part for o in plant.optics]
    assert (parts.count("400G-DR4"), parts.count("100G-DR")) == (4, 12)
    assert {o.port for o in plant.optics if o.part == "400G-DR4"} == {"e1", "e2"}
    # Every lane traces (no polarity finding). Only the straddling ports' 8 lanes are over the DR4's
    # 3.0 dB: three cassettes without a datasheet loss count an LC and an MPO pair each, 3 x (0.5 +
    # 0.75) = 3.75 dB before the fibre. e1/1 (R01.K01): cord 4609 + trunk 363 + jumper U41 -> U39
    # (1800 - 1711 = 89 raw -> 409) + MPO cord U39 -> U1 (1711 - 22 = 1689 raw -> 2089) = 7470 mm of
    # OS2 at 0.4 dB/km = 0.002988 dB: 3.752988 dB, over by 0.752988 dB.
    assert {f.kind for f in plant.findings} == {FindingKind.LOSS}
    straddling = {c.cable_id for c in plan.cables if c.b_port.startswith("e1/")}
    assert {f.cable_id for f in plant.findings} == straddling and len(straddling) == 8
    assert [f.message for f in plant.findings if f.cable_id == link(plan, "H1.R01.K01.U05", "e49")] == [
        "H1.R01.K01.U05:e49 / H1.R01.N01.U01:e1/1: 3.752988 dB of loss against 400G-DR4's channel budget of 3 dB:"
        " over by 0.752988 dB"
    ]


def test_a_lane_port_name_reads_back_as_its_port_and_lane() -> None:
    assert lane_port("e12", 3) == "e12/3"
    assert split_lane("e12/3") == ("e12", 3) and split_lane("e12") == ("e12", None)


@given(st.integers(1, 4096), st.integers(1, 8))
def test_every_lane_port_the_generator_writes_the_builder_reads_back(port: int, lane: int) -> None:
    assert split_lane(lane_port(f"e{port}", lane)) == (f"e{port}", lane)
    assert split_lane(f"e{port}") == (f"e{port}", None)


def test_links_of_twin_port_optics_are_named_once_not_laid_out() -> None:
    # 800G uplinks take the 800G-2xDR4 (two MPO-12 per module): each link would need two trunk legs
    # and two panel ports a side; the builder says so once, counting the 12 links.
    hall = small_hall(uplink_gbps=800.0)
    plan = leaf_spine(hall)
    plant = build(hall, plan)
    first = next(c for c in plan.cables if c.link_class is LinkClass.TOR_FABRIC)
    assert (plant.items, plant.steps, plant.panels) == ([], [], [])
    assert [(f.kind, f.severity, f.cable_id, f.message) for f in plant.findings] == [
        (
            FindingKind.FACT_MISSING,
            "error",
            first.cable_id,
            f"a link of twin-port optics (800G-2xDR4) is not laid out: 12 links not laid out (e.g. {first.label})",
        )
    ]


def test_racks_short_of_ports_are_listed_up_to_the_bound() -> None:
    # 52 full compute racks (2 logical racks of 20 servers + ToR: 42U), panels in the rack: every
    # rack is short; the first 50 are named, the last 2 counted.
    hall = small_hall(racks_per_row=26, logical_per_rack=2, servers_per_logical_rack=20, uplinks_per_tor=1)
    plan = leaf_spine(hall, uplinks=1)
    plant = build(hall, plan, StructuredSettings(panel_at=PanelPlacement.RACK))
    ports = [f for f in plant.findings if f.kind is FindingKind.PORTS]
    assert len(ports) == 51
    assert ports[0].message.startswith("rack H1.R01.K01: 0 x FS FHD-1UFCE")
    assert ports[-1].message == "2 more racks short of ports, not listed"
    assert plant.steps == []
