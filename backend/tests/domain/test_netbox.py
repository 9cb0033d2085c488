"""NetBox files, pure: device types whose interface templates hold every port the wiring cables
(property over patterns and sizes), the changes of an upgrade on devices whose model changes,
and cable colours by type with their override."""

from __future__ import annotations

import pytest
from _wiring_helpers import hall, plan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopline.domain import netbox
from loopline.domain.device_names import LOCATION_NAMES
from loopline.domain.errors import DomainError
from loopline.domain.layout import Hall, ServerModel, SwitchModel
from loopline.domain.wiring import Pattern


def types_of(h: Hall) -> dict[str, netbox.NetboxDeviceType]:
    types: dict[str, netbox.NetboxDeviceType] = {}
    for row in h.rows:
        for rack in row.racks:
            for lr in rack.logical_racks:
                types[lr.server_model.name] = netbox.server_type(lr.server_model)
                types[lr.tor_model.name] = netbox.switch_type(lr.tor_model)
            for fs in rack.fabric_switches:
                types[fs.model.name] = netbox.switch_type(fs.model)
    return types


def test_templates_are_the_models_ports_by_name_and_speed() -> None:
    server = netbox.server_type(ServerModel("2x25G server", nic_ports=2, port_gbps=25, height_u=1))
    assert server.interfaces == (("p1", 25), ("p2", 25))
    tor = netbox.switch_type(SwitchModel("t", server_ports=3, server_port_gbps=10, uplink_ports=2, uplink_gbps=40))
    assert tor.interfaces == (("e1", 10), ("e2", 10), ("e3", 10), ("e4", 40), ("e5", 40))
    text = "".join(netbox.device_types_yaml([tor], {"t": "t"}))
    assert text == (
        '---\nmanufacturer: "Generic"\nmodel: "t"\nslug: "t"\nu_height: 1\nis_full_depth: true\ninterfaces:\n'
        + "".join(f'  - name: "e{n}"\n    type: 10gbase-x-sfpp\n' for n in (1, 2, 3))
        + "".join(f'  - name: "e{n}"\n    type: 40gbase-x-qsfpp\n' for n in (4, 5))
    )
    made = netbox.cabled_type("8x100G ToR", 1, [("e10", 100), ("e2", 100), ("e1", 25), ("e1", 100)])
    assert made.interfaces == (("e1", 100), ("e2", 100), ("e10", 100)), "port order, the fastest speed seen"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pattern=st.sampled_from([Pattern.SINGLE_HOMED, Pattern.MC_LAG, Pattern.SIDE_TO_SIDE, Pattern.INTER_CHASSIS]),
    ports=st.integers(1, 2),
    servers=st.integers(2, 6),
    racks=st.integers(2, 4),
)
def test_every_cabled_port_is_a_template_of_its_devices_model(
    pattern: Pattern, ports: int, servers: int, racks: int
) -> None:
    """NetBox creates a device's interfaces from its type; a cable to a port the type lacks would be refused."""
    layout = {"rows": 1, "racks_per_row": racks, "logical_per_rack": 2, "servers_per_logical_rack": servers}
    p = plan(pattern, ports=ports, **layout)
    types = types_of(hall(ports=ports, **layout))
    model = {d.name: d.model for d in p.devices}
    for c in p.cables:
        for device, port in ((c.a_device, c.a_port), (c.b_device, c.b_port)):
            assert port in dict(types[model[device]].interfaces), (device, port)


def test_an_upgrade_that_changes_a_servers_model_adds_its_new_ports() -> None:
    two = netbox.server_type(ServerModel("2x25G server", nic_ports=2, port_gbps=25))
    four = netbox.server_type(ServerModel("4x25G server", nic_ports=4, port_gbps=25))
    one = netbox.server_type(ServerModel("1x100G server", nic_ports=1, port_gbps=100))
    tor = netbox.switch_type(SwitchModel("t", server_ports=2, server_port_gbps=25, uplink_ports=1, uplink_gbps=100))
    old = {
        "K1.U1": netbox.PlanDevice("K1.U1", "server", "K1", 1, "2x25G server"),
        "K1.U2": netbox.PlanDevice("K1.U2", "server", "K1", 2, "2x25G server"),
        "K1.U3": netbox.PlanDevice("K1.U3", "server", "K1", 3, "2x25G server"),
        "K1.U9": netbox.PlanDevice("K1.U9", "tor", "K1", 9, "t"),
    }
    new = {
        "K1.U1": netbox.PlanDevice("K1.U1", "server", "K1", 1, "4x25G server"),  # 2 ports more
        "K1.U2": netbox.PlanDevice("K1.U2", "server", "K1", 2, "1x100G server"),  # p2 goes
        "K1.U9": netbox.PlanDevice("K1.U9", "tor", "K1", 9, "t"),
        "K1.U9B": netbox.PlanDevice("K1.U9B", "agg", "K1", 9, "t"),  # at a U NetBox holds
    }
    types = {"2x25G server": two, "4x25G server": four, "1x100G server": one, "t": tor}
    change = netbox.upgrade_changes(["K1.U9B"], ["K1.U3"], old, new, types, types, {"K1": "rear"}, LOCATION_NAMES)
    assert change.interfaces == [("K1.U1", "p3", 25), ("K1.U1", "p4", 25)]
    assert change.delete_interfaces == [("K1.U2", "p2")]
    assert change.delete_devices == ["K1.U3"]
    assert change.retyped == [("K1.U1", "2x25G server", "4x25G server"), ("K1.U2", "2x25G server", "1x100G server")]
    assert [t.model for t in change.device_types] == ["1x100G server", "4x25G server"]
    assert change.roles == ["agg"]
    assert change.devices == [netbox.NetboxDevice("K1.U9B", "agg", "K1", 9, "t", "rear", "")]
    (row,) = netbox.device_rows("S1", change.devices, {"K1": "H1.R01"}, change.taken)
    assert row[5:10] == ("S1", "H1.R01", "K1", "", ""), "U9 is held by the kept ToR: no position"


def test_cable_colours_default_and_override() -> None:
    assert netbox.cable_colours(None) == netbox.CABLE_COLOURS
    assert netbox.cable_colours("")["smf-os2"] == "ffeb3b"
    got = netbox.cable_colours(" smf-os2:#FFFF00 ,aoc:00ff00")
    assert (got["smf-os2"], got["aoc"], got["dac-passive"]) == ("ffff00", "00ff00", "000000")
    for bad, reason in (("om4:000000", "a type among"), ("aoc:fff", "six hex digits"), ("aoc=000000", "type:rrggbb")):
        with pytest.raises(DomainError) as refused:
            netbox.cable_colours(bad)
        assert refused.value.field == "cable_colours" and reason in refused.value.reason


# --- power ----------------------------------------------------------------------------------------

A2 = netbox.NetboxFeed("H1.R01.K01", "R01", "A", 230, 1, 32, "PDU-4")
B2 = netbox.NetboxFeed("H1.R01.K01", "R01", "B", 230, 1, 32, "PDU-4")
ONE = netbox.NetboxFeed("H1.R02.K01", "R02", "A", 230, 3, 16, "PDU-4")


def test_feeds_in_netboxs_words_three_phase_voltage_line_to_line() -> None:
    rows = list(netbox.power_feed_rows("S1", "H1", [A2, B2, ONE], 0.8))
    assert rows == [
        ("S1", "H1.R01.PP", "H1.R01", "H1.R01.K01", "H1.R01.K01-A", "planned", "primary", "ac", "single-phase", 230,
         32, 80, "230 V single-phase, 32 A breaker"),
        ("S1", "H1.R01.PP", "H1.R01", "H1.R01.K01", "H1.R01.K01-B", "planned", "redundant", "ac", "single-phase", 230,
         32, 80, "230 V single-phase, 32 A breaker"),
        # 230 V line-to-neutral x sqrt(3) = 398.37 V line-to-line: NetBox's 398 x 16 x 1.732 x 0.8 = 8,824 W
        # available against the domain's 230 x 16 x 3 x 0.8 = 8,832 W.
        ("S1", "H1.R02.PP", "H1.R02", "H1.R02.K01", "H1.R02.K01-A", "planned", "primary", "ac", "three-phase", 398,
         16, 80, "230 V three-phase, 16 A breaker"),
    ]  # fmt: skip
    assert list(netbox.power_panel_rows("S1", "H1", ["R01", "R02"])) == [
        ("S1", "H1.R01", "H1.R01.PP", "Loopline: the feeds of row R01 of hall H1"),
        ("S1", "H1.R02", "H1.R02.PP", "Loopline: the feeds of row R02 of hall H1"),
    ]
    with pytest.raises(DomainError) as e:
        list(netbox.power_feed_rows("S1", "H1", [netbox.NetboxFeed("H1.R01.K01", "R01", "A", 230, 1, 16.5, None)], 0.8))
    assert e.value.field == "racks.H1.R01.K01.feeds.A.breaker_a" and "16.5" in e.value.reason


def test_supplies_draw_the_whole_device_at_most_and_half_its_typical_draw() -> None:
    # A 700 W max / 451 W typical server: each supply 700 W max, ceil(451 / 2) = 226 W allocated.
    assert netbox.psu_templates(700, 451) == (
        netbox.PowerPortTemplate("PSU1", 700, 226),
        netbox.PowerPortTemplate("PSU2", 700, 226),
    )
    assert netbox.psu_templates(None, None) == (netbox.PowerPortTemplate("PSU1"), netbox.PowerPortTemplate("PSU2"))
    # 1.2 W max -> 2 W; 3 W typical -> ceil(1.5) = 2 W a supply: never above the maximum (NetBox refuses that).
    assert netbox.psu_templates(1.2, 3) == (
        netbox.PowerPortTemplate("PSU1", 2, 2),
        netbox.PowerPortTemplate("PSU2", 2, 2),
    )


def test_a_pdu_type_is_zero_u_with_an_input_feeding_every_outlet() -> None:
    t = netbox.pdu_type("PDU-4", 4)
    yaml_text = "".join(netbox.device_types_yaml([t], {"PDU-4": "pdu-4"}))
    assert yaml_text == (
        '---\nmanufacturer: "Generic"\nmodel: "PDU-4"\nslug: "pdu-4"\nu_height: 0\nis_full_depth: false\n'
        'power-ports:\n  - name: "input"\npower-outlets:\n'
        + "".join(f'  - name: "outlet{n}"\n    power_port: "input"\n' for n in range(1, 5))
    )


def test_ab_racks_plug_psu1_into_pdu_a_and_psu2_into_pdu_b_in_u_order_while_outlets_last() -> None:
    devices = ["srv1", "srv2", "srv3", "srv4", "srv5"]  # 5 devices on 4-outlet PDUs: the fifth is left out
    got = netbox.plugging([B2, A2], devices, {"PDU-4": 4})
    assert [(p.device, p.supply, p.pdu, p.outlet) for p in got] == [
        *((d, "PSU1", "H1.R01.K01-PDU-A", k) for k, d in enumerate(devices[:4], 1)),
        *((d, "PSU2", "H1.R01.K01-PDU-B", k) for k, d in enumerate(devices[:4], 1)),
    ]
    # One feed: both supplies into its PDU, outlets 2k-1 and 2k.
    got = netbox.plugging([ONE], ["sw1", "sw2", "sw3"], {"PDU-4": 4})
    assert [(p.device, p.supply, p.outlet) for p in got] == [
        ("sw1", "PSU1", 1), ("sw1", "PSU2", 2), ("sw2", "PSU1", 3), ("sw2", "PSU2", 4),
    ]  # fmt: skip
    assert netbox.plugging(
        [netbox.NetboxFeed("H1.R01.K01", "R01", "A", 230, 1, 32, None), B2], ["s"], {"PDU-4": 4}
    ) == [netbox.Plugged("s", "PSU2", "H1.R01.K01-PDU-B", 1)], "a feed without a PDU plugs nothing"
    # unplugged: rack 1 has 5 devices (10 supplies, 8 plugged), rack 2 has 3 (6 supplies, 4 plugged),
    # and a rack without feeds of its own listed has 1 device (2 supplies, none plugged).
    assert netbox.unplugged([A2, B2, ONE], {"H1.R01.K01": 5, "H1.R02.K01": 3, "H1.R03.K01": 1}, {"PDU-4": 4}) == 6


def test_power_cables_join_feeds_to_pdus_and_supplies_to_outlets() -> None:
    rows = list(netbox.power_cable_rows("S1", "H1", [A2, B2], [("H1.R01.K01", ["srv1"])], {"PDU-4": 4}))
    assert [dict(zip(netbox.POWER_CABLE_COLUMNS, r, strict=True)) for r in rows] == [
        {"side_a_site": "S1", "side_a_device": "", "side_a_power_panel": "H1.R01.PP", "side_a_type": "dcim.powerfeed",
         "side_a_name": "H1.R01.K01-A", "side_b_site": "S1", "side_b_device": "H1.R01.K01-PDU-A",
         "side_b_type": "dcim.powerport", "side_b_name": "input", "type": "power", "status": "planned",
         "label": "H1.R01.K01-A"},
        {"side_a_site": "S1", "side_a_device": "", "side_a_power_panel": "H1.R01.PP", "side_a_type": "dcim.powerfeed",
         "side_a_name": "H1.R01.K01-B", "side_b_site": "S1", "side_b_device": "H1.R01.K01-PDU-B",
         "side_b_type": "dcim.powerport", "side_b_name": "input", "type": "power", "status": "planned",
         "label": "H1.R01.K01-B"},
        {"side_a_site": "S1", "side_a_device": "H1.R01.K01-PDU-A", "side_a_power_panel": "",
         "side_a_type": "dcim.poweroutlet", "side_a_name": "outlet1", "side_b_site": "S1", "side_b_device": "srv1",
         "side_b_type": "dcim.powerport", "side_b_name": "PSU1", "type": "power", "status": "planned",
         "label": "H1.R01.K01-PDU-A:outlet1"},
        {"side_a_site": "S1", "side_a_device": "H1.R01.K01-PDU-B", "side_a_power_panel": "",
         "side_a_type": "dcim.poweroutlet", "side_a_name": "outlet1", "side_b_site": "S1", "side_b_device": "srv1",
         "side_b_type": "dcim.powerport", "side_b_name": "PSU2", "type": "power", "status": "planned",
         "label": "H1.R01.K01-PDU-B:outlet1"},
    ]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    devices=st.integers(0, 60),
    outlets=st.integers(0, 50),
    feeds=st.sampled_from(["A", "B", "AB"]),
    with_pdu=st.sampled_from([(True, True), (True, False), (False, True)]),
)
def test_plugging_uses_each_outlet_and_supply_once_within_the_pdus(
    devices: int, outlets: int, feeds: str, with_pdu: tuple[bool, bool]
) -> None:
    rack_feeds = [
        netbox.NetboxFeed("H1.R01.K01", "R01", f, 230, 1, 32, "PDU" if has else None)
        for f, has in zip(feeds, with_pdu, strict=False)
    ]
    names = [f"d{i}" for i in range(devices)]
    got = netbox.plugging(rack_feeds, names, {"PDU": outlets})
    assert len({(p.pdu, p.outlet) for p in got}) == len(got), "an outlet takes one plug"
    assert len({(p.device, p.supply) for p in got}) == len(got), "a supply goes into one outlet"
    assert all(1 <= p.outlet <= outlets for p in got)
    assert {p.pdu for p in got} <= {netbox.pdu_name(f) for f in rack_feeds if f.pdu}
    # Every supply is plugged or counted unplugged, never both.
    left = netbox.unplugged(rack_feeds, {"H1.R01.K01": devices}, {"PDU": outlets})
    assert len(got) + left == 2 * devices
    # Outlets are filled from the first, devices taken bottom up: a plugged device has every lower one plugged too.
    for pdu in {p.pdu for p in got}:
        used = sorted(p.outlet for p in got if p.pdu == pdu)
        assert used == list(range(1, len(used) + 1))


def test_devices_sharing_a_u_take_the_outlets_after_the_rest() -> None:
    # An upgrade's second ToR at its twin's U16 comes after every device first at its U: the plugs of
    # the plan before (U1, U2, U16, U17 in order) keep their outlets.
    order = netbox.power_order([("s1", 1), ("s2", 2), ("tor", 16), ("torB", 16), ("s17", 17)])
    assert order == ["s1", "s2", "tor", "s17", "torB"]
    assert netbox.power_order([("s1", 1), ("s2", 2), ("tor", 16), ("s17", 17)]) == order[:4]
