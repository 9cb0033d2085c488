"""The builtin catalog's facts: every builtin has an entry, every figure a source, spot checks
against the datasheet figures the sources name."""

from __future__ import annotations

import math

import pytest

from loopline.domain.facility import catalog_facts as cf
from loopline.domain.facility.model import Airflow, CableFacts, DeviceFacts
from loopline.domain.media import Medium, default_catalog
from loopline.services.catalog import BUILTIN_RACK_TYPES, BUILTIN_SERVER_MODELS, BUILTIN_SWITCH_MODELS


def _figures(f: DeviceFacts) -> list[float]:
    return [x for x in (f.typical_w, f.max_w, f.weight_kg) if x is not None]


def test_every_builtin_switch_and_server_has_facts() -> None:
    assert {m["name"] for m in BUILTIN_SWITCH_MODELS} <= set(cf.SWITCH_FACTS)
    assert {m["name"] for m in BUILTIN_SERVER_MODELS} <= set(cf.SERVER_FACTS)


def test_server_spot_checks_match_the_cited_figures() -> None:
    # Dell R640: 39.0 lb -> 17.69 kg, 750 W PSU; Gigabyte G292-Z46: 36.89 kg, 2200 W PSU.
    r640 = cf.SERVER_FACTS["2x10G server"]
    assert (r640.weight_kg, r640.max_w, r640.typical_w) == (17.69, 750.0, None)
    gpu = cf.SERVER_FACTS["2x100G GPU server"]
    assert (gpu.weight_kg, gpu.max_w, gpu.airflow) == (36.89, 2200.0, Airflow.FRONT_TO_REAR)
    assert "G292-Z46" in gpu.source and "rated output" in gpu.source


def test_every_builtin_rack_type_has_its_weight_and_load_rating() -> None:
    names = {r["name"] for r in BUILTIN_RACK_TYPES}
    assert names <= set(cf.RACK_TYPE_FACTS)
    assert names <= set(cf.RACK_TYPE_STATIC_LOAD_KG)
    # Conteg Ri7 data sheet: 116 / 128 / 143 kg, load rating 800 kg each.
    assert {n: cf.RACK_TYPE_FACTS[n].weight_kg for n in names} == {
        "42U 600x1200": 116.0,
        "48U 600x1200": 128.0,
        "42U 800x1200": 143.0,
    }
    assert set(cf.RACK_TYPE_STATIC_LOAD_KG.values()) == {800.0}


@pytest.mark.parametrize("table", ["SWITCH_FACTS", "SERVER_FACTS", "RACK_TYPE_FACTS"])
def test_device_figures_are_positive_and_sourced(table: str) -> None:
    facts: dict[str, DeviceFacts] = getattr(cf, table)
    for name, f in facts.items():
        figures = _figures(f)
        assert all(math.isfinite(x) and x > 0 for x in figures), name
        if figures or f.airflow is not None:
            assert f.source.strip(), f"{name} has figures but no source"
        if f.typical_w is not None and f.max_w is not None:
            assert f.typical_w <= f.max_w, name


def test_pounds_are_converted_exactly() -> None:
    assert cf.LB_KG == 0.45359237
    # Arista DCS-7050SX-72Q-F: 17.3 lb -> 7.847 kg; DCS-7260CX3-64-F: 34 lb -> 15.422 kg.
    assert cf.SWITCH_FACTS["48x10G+6x40G ToR"].weight_kg == 7.847
    assert cf.SWITCH_FACTS["64x100G spine"].weight_kg == 15.422


def test_switch_spot_checks_match_the_cited_figures() -> None:
    tor = cf.SWITCH_FACTS["48x25G+8x100G ToR"]
    assert (tor.typical_w, tor.max_w) == (310.0, 647.0)
    assert "S5248F-ON" in tor.source
    spine = cf.SWITCH_FACTS["64x100G spine"]
    assert (spine.typical_w, spine.max_w, spine.airflow) == (314.0, 616.0, Airflow.FRONT_TO_REAR)
    assert "DCS-7260CX3-64" in spine.source
    agg = cf.SWITCH_FACTS["32x100G+32x100G aggregation"]
    assert (agg.max_w, agg.weight_kg) == (965.0, 22.2)


def test_pdus_are_named_sourced_and_weighed() -> None:
    by_name = {p.name: p for p in cf.PDU_MODELS}
    assert len(by_name) == len(cf.PDU_MODELS) >= 2
    for p in cf.PDU_MODELS:
        assert p.outlets > 0 and p.source.strip(), p.name
        assert p.weight_kg is None or p.weight_kg > 0
    # AP8653: (21) C13 + (3) C19, 8.23 kg; AP8888: 30 C13 + 12 C19, 30.97 lb -> 14.048 kg.
    assert (by_name["APC AP8653"].outlets, by_name["APC AP8653"].weight_kg) == (24, 8.23)
    assert (by_name["APC AP8888"].outlets, by_name["APC AP8888"].weight_kg) == (42, 14.048)


def test_default_tray_and_floor_are_the_cited_figures() -> None:
    tray = cf.DEFAULT_TRAY
    assert tray is not None and cf.DEFAULT_TRAY_SOURCE.strip()
    # Cablofil 4 x 12 in tray, 44 lb/ft on 8 ft spans: 44 x 0.45359237 / 0.3048 = 65.479 kg/m.
    assert (tray.width_mm, tray.usable_depth_mm) == (305, 102)
    assert tray.load_kg_per_m == pytest.approx(44 * cf.LB_KG / 0.3048, abs=0.05)
    # TIA-942 Rated-3: 12 kPa / g = 1,223.66 kg/m2.
    floor = cf.DEFAULT_FLOOR_LOAD_KG_M2
    assert floor == pytest.approx(12_000 / 9.80665, abs=0.05)
    assert "TIA-942" in cf.DEFAULT_FLOOR_LOAD_SOURCE


def _media_parts() -> tuple[set[str], set[str]]:
    """(cable part numbers, parts that draw watts per end) as `loopline.domain.media` builds them."""
    cables: set[str] = set()
    optics: set[str] = set()
    for o in default_catalog().options:
        cables.add(o.part_number)
        if o.transceiver is not None:
            optics.add(o.transceiver)
        elif o.medium in (Medium.AOC, Medium.ACC, Medium.AEC):
            optics.add(o.part_number)
    return cables, optics


def test_every_media_part_has_cable_and_optic_entries() -> None:
    cables, optics = _media_parts()
    assert cables == set(cf.CABLE_FACTS)
    assert optics == set(cf.OPTIC_FACTS)
    assert all(c.signal_only for c in cf.CABLE_FACTS.values())


def test_cable_and_optic_figures_are_positive_and_sourced() -> None:
    for pn, c in cf.CABLE_FACTS.items():
        figures = [x for x in (c.od_mm, c.kg_per_m, c.min_bend_radius_mm) if x is not None]
        assert all(math.isfinite(x) and x > 0 for x in figures), pn
        assert bool(figures) == bool(c.source.strip()), pn
    for pn, o in cf.OPTIC_FACTS.items():
        assert (o.max_w is None) == (not o.source.strip()), pn
        assert o.max_w is None or 0 < o.max_w < 50, pn


def test_cable_and_optic_spot_checks_match_the_cited_figures() -> None:
    # Datasheet maxima: 25G SFP28 SR 1.0 W, 100G QSFP28 SR4 3.5 W, LR4 4.0 W, 400G SR4 9 W,
    # 800G twin-port DR 17 W; a 100G QSFP28 AOC 2.5 W per end.
    watts = {pn: o.max_w for pn, o in cf.OPTIC_FACTS.items()}
    assert (watts["XCVR-25G-SR"], watts["XCVR-100G-SR"], watts["XCVR-100G-LR"]) == (1.0, 3.5, 4.0)
    assert (watts["XCVR-400G-SR"], watts["XCVR-800G-DR"], watts["AOC-100G"]) == (9.0, 17.0, 2.5)
    assert (watts["XCVR-50G-LR"], watts["XCVR-400G-LR"]) == (2.0, 12.0)
    # Passive copper draws nothing from the optic budget: no DAC is keyed as an optic.
    assert not any(pn.startswith("DAC-") for pn in cf.OPTIC_FACTS)
    aoc = cf.CABLE_FACTS["AOC-100G"]
    assert (aoc.od_mm, aoc.min_bend_radius_mm, aoc.kg_per_m) == (3.0, 30.0, 0.009)
    assert cf.CABLE_FACTS["FIB-OM4"].min_bend_radius_mm == 25.0 == cf.CABLE_FACTS["FIB-OS2"].min_bend_radius_mm
    # Two 2.0 mm simplex cords side by side: 2 x pi x 1.0^2 = pi x OD^2 / 4 at OD = 2 sqrt(2) = 2.83 mm.
    assert cf.CABLE_FACTS["FIB-OM4"].od_mm == 2.83 == cf.CABLE_FACTS["FIB-OS2"].od_mm


def test_dac_figures_are_the_cited_gauge_figures() -> None:
    facts = cf.CABLE_FACTS
    # SFP+ 7 m: Juniper's sustained bend radius for 24 AWG, 38 mm (no diameter cited).
    assert (facts["DAC-10G"].od_mm, facts["DAC-10G"].min_bend_radius_mm) == (None, 38.0)
    assert "24 AWG" in facts["DAC-10G"].source
    # QSFP28 5 m: Sinovo 26 AWG PVC, 6.7 mm.
    assert facts["DAC-100G"].od_mm == 6.7
    # QSFP-DD 3 m: PHILISUN 28 AWG, 7.9 mm; bend radius 10 x OD (the larger of 5x single, 10x repeated).
    dac400 = facts["DAC-400G"]
    assert (dac400.od_mm, dac400.min_bend_radius_mm, dac400.kg_per_m) == (7.9, 79.0, None)
    assert dac400.min_bend_radius_mm == pytest.approx(10 * 7.9)
    # OSFP 800G: NVIDIA's copper planning figures, 9.43 mm and 0.03 lb/ft = 0.045 kg/m.
    dac800 = facts["DAC-800G"]
    assert (dac800.od_mm, dac800.kg_per_m, dac800.min_bend_radius_mm) == (9.43, 0.045, None)
    assert dac800.kg_per_m == pytest.approx(0.03 * cf.LB_KG / 0.3048, abs=0.001)
    # No source found for these gauges: every fact stays None.
    for pn in ("DAC-25G", "DAC-25G-RSFEC", "DAC-40G", "DAC-50G", "DAC-200G"):
        assert facts[pn] == CableFacts(), pn


def test_aoc_figures_are_nvidias_planning_figures_plus_the_parts_own() -> None:
    # NVIDIA SuperPOD Table 18: an AOC's fibre cable is 3.0 mm and 0.006 lb/ft = 0.009 kg/m, any speed.
    for g in ("10G", "25G", "40G", "50G", "100G", "200G", "400G", "800G"):
        aoc = cf.CABLE_FACTS[f"AOC-{g}"]
        assert (aoc.od_mm, aoc.kg_per_m) == (3.0, 0.009), g
        assert "Table 18" in aoc.source, g
    assert cf.CABLE_FACTS["AOC-800G"].kg_per_m == pytest.approx(0.006 * cf.LB_KG / 0.3048, abs=0.0005)
    # Bend radius only where a part's datasheet gives one: 40G 3 cm (Optone), 100G 30 mm (Skyward), 400G 60 mm
    # along the run (FluxLight; 105 mm applies only within 100 mm of a module).
    bends = {g: cf.CABLE_FACTS[f"AOC-{g}"].min_bend_radius_mm for g in ("10G", "25G", "40G", "100G", "400G", "800G")}
    assert bends == {"10G": None, "25G": None, "40G": 30.0, "100G": 30.0, "400G": 60.0, "800G": None}
    # Watts per end: 200G QSFP56 5 W (Alpha Bridge), 400G QSFP-DD < 10 W (FluxLight).
    watts = {g: cf.OPTIC_FACTS[f"AOC-{g}"].max_w for g in ("10G", "50G", "200G", "400G", "800G")}
    assert watts == {"10G": None, "50G": None, "200G": 5.0, "400G": 10.0, "800G": None}


def test_active_copper_figures_are_the_cited_ones() -> None:
    # Watts per end: HDR 200G QSFP56 ACC 3.5 W (NVIDIA MCA1J00-H), 800G OSFP LACC 1.5 W (NVIDIA LinkX).
    watts = {pn: cf.OPTIC_FACTS[pn].max_w for pn in ("ACC-10G", "ACC-100G", "AEC-200G", "AEC-400G", "AEC-800G")}
    assert watts == {"ACC-10G": None, "ACC-100G": None, "AEC-200G": 3.5, "AEC-400G": None, "AEC-800G": 1.5}
    # The 800G active copper cable is the copper cable of NVIDIA's planning table (9.43 mm, 0.045 kg/m).
    aec = cf.CABLE_FACTS["AEC-800G"]
    assert (aec.od_mm, aec.kg_per_m, aec.min_bend_radius_mm) == (9.43, 0.045, None)
    assert all(cf.CABLE_FACTS[f"ACC-{g}"] == CableFacts() for g in ("10G", "25G", "40G", "50G", "100G"))


def test_200g_transceiver_watts_and_the_optics_left_unknown() -> None:
    watts = {pn: o.max_w for pn, o in cf.OPTIC_FACTS.items()}
    # 200G QSFP56 SR4 < 5.5 W (TSCOM), DR4 < 5.5 W (Gigalight).
    assert (watts["XCVR-200G-SR"], watts["XCVR-200G-DR"]) == (5.5, 5.5)
    # No datasheet found: the checks name these parts as lacking their watts.
    unknown = {"XCVR-50G-SR", "XCVR-200G-LR", "XCVR-800G-LR", "AOC-10G", "AOC-50G", "AOC-800G", "AEC-400G"}
    unknown |= {f"ACC-{g}" for g in ("10G", "25G", "40G", "50G", "100G")}
    assert {pn for pn, w in watts.items() if w is None} == unknown


def test_gpu_cluster_builtins_are_the_cited_figures() -> None:
    """Issue 31: the DGX H100 class server (BasePOD core components: 8 GPUs, 8 x 400G compute NICs,
    2 dual-port 400G front-end NICs; NVLink 4 at 900 GB/s per GPU both ways = 3600 Gb/s each way;
    8U, 10.2 kW) and the QM9700 / SN5600 switches (64 x 400G split 32 + 32 as a SuperPOD leaf, all
    64 down as a spine, 2 links per port; 64 x 800G in 2U, up to 4 links per port)."""
    server = next(m for m in BUILTIN_SERVER_MODELS if m["name"] == "8x400G GPU server")
    assert server == {
        "name": "8x400G GPU server",
        "nic_ports": 8,
        "port_gbps": 400.0,
        "height_u": 8,
        "gpus": 8,
        "gpu_interconnect_gbps": 900 * 8 / 2,
        "frontend_nic_ports": 2 * 2,
        "frontend_port_gbps": 400.0,
    }
    dgx = cf.SERVER_FACTS["8x400G GPU server"]
    assert (dgx.typical_w, dgx.max_w, dgx.weight_kg, dgx.airflow) == (None, 10_200.0, None, None)
    assert "DGX H100" in dgx.source and "core-components" in dgx.source and "900 GB/s" in dgx.source
    switches = {m["name"]: m for m in BUILTIN_SWITCH_MODELS}
    shape = ("server_ports", "server_port_gbps", "uplink_ports", "uplink_gbps", "height_u", "breakout_links")
    assert tuple(switches["32x400G+32x400G leaf"][k] for k in shape) == (32, 400.0, 32, 400.0, 1, 2)
    assert tuple(switches["64x400G 1U spine"][k] for k in shape) == (64, 400.0, 0, 400.0, 1, 2)
    assert tuple(switches["64x800G switch"][k] for k in shape) == (64, 800.0, 0, 800.0, 2, 4)
    for name, product in (
        ("32x400G+32x400G leaf", "QM9700"),
        ("64x400G 1U spine", "QM9700"),
        ("64x800G switch", "SN5600"),
    ):
        facts = cf.SWITCH_FACTS[name]
        assert product in facts.source and _figures(facts) == [] and "(None)" in facts.source
