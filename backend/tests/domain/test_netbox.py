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
