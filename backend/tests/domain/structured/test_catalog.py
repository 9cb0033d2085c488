"""The structured-cabling catalog: every figure has a source, fibre positions fit their connector,
breakouts add back up to their parent, spot checks against the figures the sources give, and bad
entries are refused naming the field."""

from __future__ import annotations

import math
from dataclasses import fields, replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopline.domain.errors import DomainError
from loopline.domain.facility.catalog_facts import CABLE_FACTS, OPTIC_FACTS
from loopline.domain.facility.model import CableFacts
from loopline.domain.media import default_catalog
from loopline.domain.structured import catalog as sc
from loopline.domain.structured.catalog import (
    Breakout,
    BreakoutCable,
    Connector,
    DuplexPolarity,
    FibreKind,
    Gender,
    Optic,
    PatchCord,
    PolarityMethod,
    PositionMap,
    Trunk,
    TrunkPolarity,
    builtin_catalog,
)

CAT = builtin_catalog()


def _numbers(entry: object) -> list[float]:
    """The figures of an entry: its int/float fields that are not None (names and enums excluded)."""
    out: list[float] = []
    for f in fields(entry):  # type: ignore[arg-type]
        v = getattr(entry, f.name)
        if isinstance(v, bool | str):
            continue
        if isinstance(v, int | float):
            out.append(float(v))
    return out


def _cable_figures(c: CableFacts) -> list[float]:
    return [x for x in (c.od_mm, c.kg_per_m, c.min_bend_radius_mm) if x is not None]


# --- every figure has a source --------------------------------------------------------------


@pytest.mark.parametrize("table", ["optics", "panels", "cassettes", "trunks", "cords", "breakout_cables", "fibres"])
def test_every_entry_names_its_source(table: str) -> None:
    entries = getattr(CAT, table)
    assert entries, f"the builtin catalog has no {table}"
    for e in entries:
        if table == "fibres":
            for a in e.attenuation:
                assert a.source.strip(), f"{e.kind} at {a.wavelength_nm} nm has no source"
            continue
        assert e.source.strip(), f"{table}: {e} has no source"


def test_physical_and_power_figures_carry_their_own_source() -> None:
    parts: tuple[Trunk | PatchCord | BreakoutCable, ...] = (*CAT.trunks, *CAT.cords, *CAT.breakout_cables)
    for part in parts:
        if _cable_figures(part.physical):
            assert part.physical.source.strip(), f"{part.name}: physical figures without a source"
    for o in CAT.optics:
        if o.power is not None and o.power.max_w is not None:
            assert o.power.source.strip(), f"{o.part}: watts without a source"


def test_connection_losses_are_sourced_defaults() -> None:
    assert set(CAT.mated_pair_loss) == set(Connector)
    for c, loss in CAT.mated_pair_loss.items():
        assert loss.db > 0 and loss.source.strip(), c
    assert CAT.splice_loss is not None and CAT.splice_loss.source.strip()


def test_all_figures_are_positive_and_finite() -> None:
    for e in (*CAT.optics, *CAT.panels, *CAT.cassettes, *CAT.trunks, *CAT.cords, *CAT.breakout_cables):
        for x in _numbers(e):
            assert math.isfinite(x) and x > 0, e
    for fibre in CAT.fibres:
        for a in fibre.attenuation:
            assert 0 < a.db_per_km < 10, (fibre.kind, a)


# --- fibre positions fit their connector -------------------------------------------------------


def test_optic_positions_are_within_the_connector_and_disjoint() -> None:
    for o in CAT.optics:
        n = o.connector.fibres
        assert all(1 <= p <= n for p in (*o.tx_positions, *o.rx_positions)), o.part
        assert not set(o.tx_positions) & set(o.rx_positions), o.part
        assert len(o.tx_positions) == len(o.rx_positions), o.part
        if o.positions_known and len(o.tx_positions) > 1:
            # parallel optics: one transmit fibre per lane on each port
            assert len(o.tx_positions) * o.ports == o.lanes, o.part


def test_cassette_maps_carry_every_front_fibre_once_within_both_connectors() -> None:
    for c in CAT.cassettes:
        fronts = {(m.front_port, m.front_position) for m in c.fibre_map}
        rears = {(m.rear_port, m.rear_position) for m in c.fibre_map}
        assert len(fronts) == len(rears) == len(c.fibre_map), c.name
        assert fronts == {
            (p, pos) for p in range(1, c.front_ports + 1) for pos in range(1, c.front_connector.fibres + 1)
        }, c.name
        assert all(1 <= p <= c.rear_ports and 1 <= pos <= c.rear_connector.fibres for p, pos in rears), c.name


def test_breakout_cable_maps_fit_their_connectors() -> None:
    for b in CAT.breakout_cables:
        if isinstance(b.end, Connector) and isinstance(b.leg_end, Connector):
            for m in b.fibre_map:
                assert 1 <= m.front_port <= b.legs and 1 <= m.front_position <= b.leg_end.fibres, b.name
                assert m.rear_port == 1 and 1 <= m.rear_position <= b.end.fibres, b.name
        else:
            assert b.fibre_map == () and b.fibre is None, b.name


def test_connector_fibre_counts() -> None:
    assert [c.fibres for c in Connector] == [2, 12, 16, 24]


# --- breakouts add back up ---------------------------------------------------------------------


def test_breakout_lanes_and_speeds_multiply_back_to_the_parent() -> None:
    seen = 0
    for o in CAT.optics:
        for b in o.breakouts:
            child = CAT.optic(b.into)
            assert child.speed_gbps * b.count == o.speed_gbps, (o.part, b)
            assert child.lanes * b.count == o.lanes, (o.part, b)
            assert child.lane_gbps == o.lane_gbps, (o.part, b)
            seen += 1
    assert seen == 3


def test_breakout_spot_checks() -> None:
    assert CAT.optic("400G-DR4").breakouts == (Breakout("100G-DR", 4),)
    assert CAT.optic("800G-2xDR4").breakouts == (Breakout("400G-DR4", 2), Breakout("100G-DR", 8))
    mcp = CAT.breakout_cable("NVIDIA MCP7Y00-N (1-3 m)")
    # 800G twin-port OSFP into 2 x 400G: 2 legs x 4 lanes x 100G = 800G
    assert (mcp.legs, mcp.lanes_per_leg, mcp.lane_gbps) == (2, 4, 100.0)
    assert mcp.legs * mcp.lanes_per_leg * mcp.lane_gbps == 800.0
    assert mcp.lengths_mm == (1000, 1500, 2000, 2500, 3000)


# --- spot checks against the cited figures -----------------------------------------------------


def test_ieee_channel_spot_checks() -> None:
    expected = {
        # part: (reach m, channel insertion loss dB, wavelength nm, fibre, connector)
        "400G-DR4": (500, 3.0, 1310, FibreKind.OS2, Connector.MPO_12),
        "800G-DR8": (500, 3.0, 1310, FibreKind.OS2, Connector.MPO_16),
        "400G-SR8": (100, 1.9, 850, FibreKind.OM4, Connector.MPO_16),
        "100G-FR": (2000, 4.0, 1310, FibreKind.OS2, Connector.LC_DUPLEX),
        "800G-2xDR4": (500, 3.0, 1310, FibreKind.OS2, Connector.MPO_12),
    }
    for part, (reach_m, loss, nm, fibre, conn) in expected.items():
        o = CAT.optic(part)
        assert (o.reach_mm, o.channel_loss_db, o.wavelength_nm, o.fibre, o.connector) == (
            reach_m * 1000,
            loss,
            nm,
            fibre,
            conn,
        ), part
    assert "Clause 124" in CAT.optic("400G-DR4").standard
    assert "clause 138" in CAT.optic("400G-SR8").source
    assert "802.3df" in CAT.optic("800G-DR8").standard


def test_losses_no_source_confirmed_stay_none() -> None:
    for part in ("100G-SR4", "100G-DR", "100G-LR4", "400G-FR4"):
        o = CAT.optic(part)
        assert o.channel_loss_db is None, part
        assert "not confirmed" in o.source, part


def test_lane_counts_and_positions() -> None:
    dr4 = CAT.optic("400G-DR4")
    assert (dr4.lanes, dr4.lane_gbps, dr4.tx_positions, dr4.rx_positions) == (
        4,
        100.0,
        (1, 2, 3, 4),
        (12, 11, 10, 9),
    )
    assert CAT.optic("100G-SR4").tx_positions == (1, 2, 3, 4)
    twin = CAT.optic("800G-2xDR4")
    assert (twin.ports, twin.lanes, twin.speed_gbps) == (2, 8, 800.0)
    for part in ("100G-DR", "100G-FR", "100G-LR4", "400G-FR4"):
        o = CAT.optic(part)
        assert (o.tx_positions, o.rx_positions) == ((1,), (2,)), part
    for part in ("400G-SR8", "800G-DR8"):
        assert not CAT.optic(part).positions_known, part
    assert CAT.optic("100G-LR4").lanes == 4  # four LAN-WDM lanes on one fibre pair


def test_optic_watts_are_issue_28s_entries_not_copies() -> None:
    for part, media_part, watts in (
        ("400G-DR4", "XCVR-400G-DR", 9.0),
        ("800G-2xDR4", "XCVR-800G-DR", 17.0),
        ("100G-DR", "XCVR-100G-DR", 3.5),
        ("100G-SR4", "XCVR-100G-SR", 3.5),
        ("100G-LR4", "XCVR-100G-LR", 4.0),
    ):
        o = CAT.optic(part)
        assert o.power is OPTIC_FACTS[media_part], part
        assert o.media_part == media_part
        assert o.power is not None and o.power.max_w == watts
    fr4 = CAT.optic("400G-FR4")
    assert fr4.power is not None and fr4.power.max_w == 12.0 and "WST-QD4-FR4-C" in fr4.power.source
    for part in ("100G-FR", "400G-SR8", "800G-DR8"):
        assert CAT.optic(part).power is None, part


def test_fibre_attenuation_spot_checks() -> None:
    assert CAT.fibre(FibreKind.OS2).db_per_km(1310) == 0.4
    assert CAT.fibre(FibreKind.OS2).db_per_km(850) is None
    for kind in (FibreKind.OM3, FibreKind.OM4, FibreKind.OM5):
        f = CAT.fibre(kind)
        assert (f.db_per_km(850), f.db_per_km(1300), f.db_per_km(1310)) == (3.5, 1.5, None), kind
    assert "OPTOKON" in CAT.fibre(FibreKind.OM4).attenuation[0].source
    assert FibreKind.OS2.single_mode and not FibreKind.OM4.single_mode


def test_every_optic_has_an_attenuation_at_its_wavelength() -> None:
    for o in CAT.optics:
        assert CAT.fibre(o.fibre).db_per_km(o.wavelength_nm) is not None, o.part


def test_connection_loss_defaults() -> None:
    # FOA typical loss values: 0.5 dB single-fibre connection, 0.75 dB array (12/24), 0.3 dB MM splice
    assert CAT.mated_pair_loss[Connector.LC_DUPLEX].db == 0.5
    assert {CAT.mated_pair_loss[c].db for c in (Connector.MPO_12, Connector.MPO_16, Connector.MPO_24)} == {0.75}
    assert CAT.splice_loss is not None and CAT.splice_loss.db == 0.3


def test_panel_spot_checks() -> None:
    fhd1 = CAT.panel("FS FHD-1UFCE")
    assert (fhd1.height_u, fhd1.cassette_slots, fhd1.ports, fhd1.ports_per_u) == (1, 4, 72, 72.0)
    fhd2 = CAT.panel("FS FHD-2UFCE")
    assert (fhd2.height_u, fhd2.cassette_slots, fhd2.ports, fhd2.ports_per_u) == (2, 8, 144, 72.0)
    edge = CAT.panel("Corning EDGE-01U")
    assert (edge.cassette_slots, edge.ports) == (8, 8 * CAT.cassette("Corning ECM-UM-12-05-93Q").front_ports)
    fhu = CAT.panel("FS FHU-FPP48FLCSMF")
    assert (fhu.ports, fhu.rear_connector, fhu.cassette_slots) == (24, Connector.LC_DUPLEX, None)


def test_cassette_maps_as_their_sources_draw_them() -> None:
    type_a = CAT.cassette("FS FHD-1MTP6LCDOS2A")
    assert {(m.front_port, m.front_position): m.rear_position for m in type_a.fibre_map} == {
        (1, 1): 1, (1, 2): 2, (2, 1): 3, (2, 2): 4, (3, 1): 5, (3, 2): 6,
        (4, 1): 7, (4, 2): 8, (5, 1): 9, (5, 2): 10, (6, 1): 11, (6, 2): 12,
    }  # fmt: skip
    dr4_breakout = CAT.cassette("Corning ECM-UM08-04-E8GF-ULL")
    pairs: dict[int, list[int]] = {}
    for m in dr4_breakout.fibre_map:
        pairs.setdefault(m.front_port, []).append(m.rear_position)
    assert pairs == {1: [1, 12], 2: [2, 11], 3: [3, 10], 4: [4, 9]}
    assert CAT.cassette("FS FHD-1MTP6LCDOM4U").method is PolarityMethod.B
    mpo24 = CAT.cassette("FS FHD-1MTP12LCDOS2A")
    assert (mpo24.rear_connector, len(mpo24.fibre_map), max(m.rear_position for m in mpo24.fibre_map)) == (
        Connector.MPO_24,
        24,
        24,
    )
    adapter = CAT.cassette("FS FHD-FAP12MTPHA")
    assert adapter.fibre is None and all(
        (m.front_port, m.front_position) == (m.rear_port, m.rear_position) for m in adapter.fibre_map
    )
    # no cassette datasheet loss was found: every one says so rather than guessing
    assert all(c.insertion_loss_db is None for c in CAT.cassettes)


def test_trunks_and_cords() -> None:
    t = CAT.trunk("TRUNK-MPO-12-24F-B-UU-OS2")
    assert (t.fibres, t.connectors_per_end, t.polarity, t.gender_a, t.gender_b) == (
        24,
        2,
        TrunkPolarity.B,
        Gender.UNPINNED,
        Gender.UNPINNED,
    )
    assert t.lengths_mm == () and t.physical == CableFacts()
    assert {x.fibres % x.connector.fibres for x in CAT.trunks} == {0}
    cord = CAT.cord("CORD-LC-LC-AB-OS2")
    assert cord.polarity is DuplexPolarity.A_TO_B
    assert cord.physical is CABLE_FACTS["FIB-OS2"]
    media = next(o for o in default_catalog().options if o.part_number == "FIB-OS2")
    assert cord.lengths_mm == media.lengths_mm
    mpo = CAT.cord("CORD-MPO12-MPO12-B-PU-OS2")
    assert (mpo.gender_a, mpo.gender_b, mpo.polarity) == (Gender.PINNED, Gender.UNPINNED, TrunkPolarity.B)


def test_twelve_fibre_trunks_carry_nvidias_mpo_cable_od_and_the_inside_plant_bend_radius() -> None:
    # NVIDIA's MPO patch/trunk cable (8 or 12 fibres per strand): a 2.0-3.0 mm jacket, the larger taken;
    # TIA-568-B.3's inside plant cable of more than 4 fibres under tensile load: 15 x 3.0 mm = 45 mm.
    for name in ("TRUNK-MPO-12-12F-B-UU-OS2", "TRUNK-MPO-12-12F-B-UU-OM4"):
        p = CAT.trunk(name).physical
        assert (p.od_mm, p.min_bend_radius_mm, p.kg_per_m) == (3.0, 45.0, None), name
        assert p.signal_only, name
        for cited in ("intrcnctcabreqndr400eth/mpo/lc+cable+requirements", "Jacket", "568-B.3", "page 85"):
            assert cited in p.source, (name, cited)
    # No source covers 24 fibres in one cable: every fact None, so the checks name them missing.
    for name in ("TRUNK-MPO-12-24F-B-UU-OS2", "TRUNK-MPO-12-24F-B-UU-OM4", "TRUNK-MPO-24-24F-B-UU-OS2"):
        assert CAT.trunk(name).physical == CableFacts(), name


def test_mpo_cords_carry_the_mpo_cable_od_and_the_fibre_cord_bend_radius() -> None:
    # The same 3.0 mm MPO patch cable; bent as a fibre cord: the duplex cords' 25 mm (TIA-568.0-D), one owner.
    duplex = CABLE_FACTS["FIB-OS2"]
    for name in ("CORD-MPO12-MPO12-B-UU-OS2", "CORD-MPO12-MPO12-B-PU-OS2", "CORD-MPO12-MPO12-A-UU-OS2"):
        p = CAT.cord(name).physical
        assert (p.od_mm, p.min_bend_radius_mm, p.kg_per_m) == (3.0, 25.0, None), name
        assert p.min_bend_radius_mm == duplex.min_bend_radius_mm
        assert "intrcnctcabreqndr400eth" in p.source and "TIA-568.0-D" in p.source, name


def test_names_are_unique_and_lookups_refuse_unknown_names() -> None:
    for table, key in (
        ("optics", "part"),
        ("panels", "name"),
        ("cassettes", "name"),
        ("trunks", "name"),
        ("cords", "name"),
        ("breakout_cables", "name"),
    ):
        names = [getattr(e, key) for e in getattr(CAT, table)]
        assert len(names) == len(set(names)), table
    with pytest.raises(DomainError) as e:
        CAT.optic("400G-XR9")
    assert e.value.field == "optics" and "'400G-XR9'" in e.value.reason


# --- bad entries are refused naming the field ---------------------------------------------------


def _dr4(**changes: Any) -> Optic:
    return replace(CAT.optic("400G-DR4"), **changes)


@pytest.mark.parametrize(
    ("changes", "field", "reason"),
    [
        ({"tx_positions": (1, 2, 3, 13)}, "optics.400G-DR4.tx_positions", "outside MPO-12's 1..12"),
        ({"rx_positions": (4, 10, 11, 12)}, "optics.400G-DR4.rx_positions", "also transmit"),
        ({"rx_positions": (9, 10, 11)}, "optics.400G-DR4.rx_positions", "as many receive fibres"),
        ({"tx_positions": (1, 1, 2, 3)}, "optics.400G-DR4.tx_positions", "listed twice"),
        ({"lane_gbps": 50.0}, "optics.400G-DR4.lanes", "lanes x lane_gbps"),
        ({"tx_positions": (1, 2, 3), "rx_positions": (9, 10, 11)}, "optics.400G-DR4.lanes", "multiple"),
    ],
)
def test_bad_optics_are_refused_naming_the_field(changes: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(DomainError) as e:
        _dr4(**changes)
    assert e.value.field == field and reason in e.value.reason


def test_bad_cassettes_trunks_cords_and_panels_are_refused() -> None:
    cassette = CAT.cassette("FS FHD-1MTP6LCDOS2A")
    with pytest.raises(DomainError) as e:
        replace(cassette, fibre_map=(*cassette.fibre_map[:-1], PositionMap(6, 2, 1, 13)))
    assert e.value.field == "cassettes.FS FHD-1MTP6LCDOS2A.fibre_map[11]" and "rear 1/13" in e.value.reason
    with pytest.raises(DomainError) as e:
        replace(cassette, fibre_map=(*cassette.fibre_map[:-1], PositionMap(6, 2, 1, 1)))
    assert e.value.field == "cassettes.FS FHD-1MTP6LCDOS2A.fibre_map" and "twice" in e.value.reason
    with pytest.raises(DomainError) as e:
        replace(CAT.trunks[0], fibres=18)
    assert e.value.field == f"trunks.{CAT.trunks[0].name}.fibres"
    with pytest.raises(DomainError) as e:
        replace(CAT.cords[0], lengths_mm=(2000, 1000))
    assert e.value.field == f"cords.{CAT.cords[0].name}.lengths_mm"
    with pytest.raises(DomainError) as e:
        replace(CAT.panels[0], height_u=0)
    assert e.value.field == "panels.FS FHD-1UFCE.height_u"


@given(
    tx=st.lists(st.integers(-3, 30), min_size=1, max_size=8, unique=True),
    rx=st.lists(st.integers(-3, 30), min_size=1, max_size=8, unique=True),
    connector=st.sampled_from([Connector.MPO_12, Connector.MPO_16, Connector.MPO_24]),
)
def test_positions_are_accepted_exactly_when_they_fit(tx: list[int], rx: list[int], connector: Connector) -> None:
    fits = all(1 <= p <= connector.fibres for p in tx + rx) and not set(tx) & set(rx) and len(tx) == len(rx)
    lanes = len(tx)
    try:
        o = _dr4(
            connector=connector,
            tx_positions=tuple(tx),
            rx_positions=tuple(rx),
            lanes=lanes,
            lane_gbps=100.0,
            speed_gbps=100.0 * lanes,
            breakouts=(),
        )
    except DomainError as e:
        assert not fits, e
        assert e.field.startswith("optics.400G-DR4.")
    else:
        assert fits
        assert set(o.tx_positions) | set(o.rx_positions) <= set(range(1, connector.fibres + 1))


def test_module_tables_are_the_catalogs() -> None:
    assert CAT.optics is sc.OPTICS and CAT.cassettes is sc.CASSETTES and CAT.mated_pair_loss is sc.MATED_PAIR_LOSS
