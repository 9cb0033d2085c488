"""Port speeds a hall's devices run (domain/port_speeds.py): the slowest port of a kind bounds the
speeds, the refusal names that device, and the hall at a speed has every port of the kind at it."""

from __future__ import annotations

import pytest

from loopline.domain.errors import DomainError
from loopline.domain.layout import FabricSwitch, Hall, LogicalRack, Point, Rack, Row, ServerModel, SwitchModel
from loopline.domain.port_speeds import at_speeds, buildable, check, media_speeds

FAST_SERVER = ServerModel("2x100G", 2, 100.0)
TOR = SwitchModel("48x25G+8x100G ToR", 48, 25.0, 8, 100.0)
SPINE = SwitchModel("64x400G spine", 64, 400.0, 0, 400.0)


def hall() -> Hall:
    lr = LogicalRack(4, FAST_SERVER, TOR)
    racks = (Rack("R1", logical_racks=(lr,)), Rack("N1", fabric_switches=(FabricSwitch("SP1", "spine", SPINE, 10),)))
    return Hall("H", 20_000, 10_000, (Row("R", Point(0, 0), racks=racks),))


def test_the_slowest_port_of_a_kind_bounds_what_the_hall_builds() -> None:
    assert media_speeds() == (10, 25, 40, 50, 100, 200, 400, 800)
    assert buildable(hall(), "server") == (10, 25)  # the ToR's 25G server ports, not the 100G NICs
    assert buildable(hall(), "fabric") == (10, 25, 40, 50, 100)  # the ToR's 100G uplinks, not the 400G spine


def test_a_faster_speed_names_the_device_that_lacks_it() -> None:
    check(hall(), "server", 25, "server_gbps")
    with pytest.raises(DomainError) as e:
        check(hall(), "server", 50, "grid.server_gbps[0]")
    assert e.value.field == "grid.server_gbps[0]"
    assert "the server ports of ToR model '48x25G+8x100G ToR' (rack R1) run at most 25 Gb/s" in e.value.reason
    with pytest.raises(DomainError, match="uplink ports of ToR model"):
        check(hall(), "fabric", 200, "fabric_gbps")
    with pytest.raises(DomainError, match="no cable or optic in the catalog runs 20 Gb/s"):
        check(hall(), "fabric", 20, "fabric_gbps")


def test_the_hall_at_a_speed_has_every_port_of_the_kind_at_it_and_the_rest_unchanged() -> None:
    h = at_speeds(hall(), 10.0, 40.0)
    lr = h.rows[0].racks[0].logical_racks[0]
    assert (lr.server_model.port_gbps, lr.tor_model.server_port_gbps, lr.tor_model.uplink_gbps) == (10, 10, 40)
    assert (lr.server_model.name, lr.tor_model.name, lr.servers) == ("2x100G", TOR.name, 4)
    assert h.rows[0].racks[1].fabric_switches[0].model.server_port_gbps == 40
    only_server = at_speeds(hall(), 10.0, None).rows[0].racks
    assert only_server[0].logical_racks[0].tor_model.uplink_gbps == 100
    assert only_server[1].fabric_switches[0].model == SPINE
    assert at_speeds(hall(), None, None) == hall()
