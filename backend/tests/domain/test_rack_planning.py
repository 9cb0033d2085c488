"""Rack planning: specs plus the catalog give the racks to write, named, placed and stacked."""

from __future__ import annotations

import pytest

from loopline.domain import layout as dl
from loopline.domain import rack_planning as rp
from loopline.domain.errors import DomainError

SERVER = dl.ServerModel(name="2x25G", nic_ports=2, port_gbps=25.0, height_u=1)
GPU = dl.ServerModel(name="GPU", nic_ports=2, port_gbps=100.0, height_u=2)
TOR = dl.SwitchModel(name="ToR", server_ports=48, server_port_gbps=25.0, uplink_ports=8, uplink_gbps=100.0, height_u=1)
CAT = rp.Catalog(
    servers={1: SERVER, 2: GPU},
    switches={10: TOR},
    rack_types={
        5: dl.RackType(name="48U 600x1200", width_mm=600, depth_mm=1200, height_u=48),
        7: dl.RackType(name=rp.DEFAULT_RACK_TYPE, width_mm=600, depth_mm=1200, height_u=42),
        9: dl.RackType(name="42U 800x1200", width_mm=800, depth_mm=1200, height_u=42),
    },
)
LR = rp.LogicalRackSpec(servers=15, server_model_id=1, tor_model_id=10, ports_used=2)


def test_logical_racks_stack_from_u1_unless_placed() -> None:
    specs = [LR, rp.LogicalRackSpec(servers=4, server_model_id=2, tor_model_id=10), LR, replace_base(LR, 40)]
    planned = rp.plan_logical_racks(CAT, specs, "")
    assert [(p.ordinal, p.base_u) for p in planned] == [(0, 1), (1, 17), (2, 26), (3, 40)]
    assert planned[0] == rp.PlannedLogicalRack(0, 15, 1, 2, 10, dl.TorPosition.TOP, 1)


def replace_base(spec: rp.LogicalRackSpec, base_u: int) -> rp.LogicalRackSpec:
    return rp.LogicalRackSpec(spec.servers, spec.server_model_id, spec.tor_model_id, spec.ports_used, base_u=base_u)


def test_unknown_catalog_entries_name_the_field() -> None:
    with pytest.raises(DomainError) as err:
        rp.plan_logical_racks(CAT, [LR, rp.LogicalRackSpec(1, server_model_id=3, tor_model_id=10)], "racks[2].")
    assert (err.value.field, err.value.reason) == (
        "racks[2].logical_racks[1].server_model_id",
        "unknown server model 3",
    )
    with pytest.raises(DomainError) as err:
        rp.plan_switches(CAT, [rp.FabricSwitchSpec("SP1", "spine", 11, 20)], "")
    assert (err.value.field, err.value.reason) == ("fabric_switches[0].switch_model_id", "unknown switch model 11")
    with pytest.raises(DomainError) as err:
        rp.plan_rack(CAT, rp.RackSpec(rack_type_id=4), "K1", 0, "rack_template.")
    assert (err.value.field, err.value.reason) == ("rack_template.rack_type_id", "unknown rack type 4")


def test_the_default_rack_type_is_42u_600x1200_else_the_lowest_id() -> None:
    assert CAT.default_rack_type_id() == 7
    assert rp.Catalog(rack_types={9: CAT.rack_types[9], 5: CAT.rack_types[5]}).default_rack_type_id() == 5
    with pytest.raises(DomainError, match="the catalog has no rack types"):
        rp.Catalog().default_rack_type_id()


def test_a_row_gets_its_explicit_racks_then_the_template_copies_touching() -> None:
    template = rp.RackSpec(name="ignored", rack_type_id=9, logical_racks=(LR,))
    row = rp.RowSpec(
        name="R01",
        origin=dl.Point(0, 0),
        racks=(rp.RackSpec(name="NET", position_mm=100), rp.RackSpec()),
        rack_count=3,
        rack_template=template,
    )
    plans = rp.plan_row_racks(CAT, row, "")
    assert [(p.name, p.rack_type_id, p.position_mm) for p in plans] == [
        ("NET", 7, 100),
        ("R01-02", 7, 700),
        ("R01-03", 9, 1300),
        ("R01-04", 9, 2100),
        ("R01-05", 9, 2900),
    ]
    # The template is planned once: every copy shares its contents.
    assert plans[2].logical_racks is plans[4].logical_racks
    assert plans[2].logical_racks[0].base_u == 1


def test_numbering_and_the_first_position_can_continue_an_existing_row() -> None:
    row = rp.RowSpec(name="R02", origin=dl.Point(0, 0), racks=(rp.RackSpec(),), rack_name_pattern="{row}/{index}")
    (plan,) = rp.plan_row_racks(CAT, row, "", start_index=13, start_mm=7200)
    assert (plan.name, plan.position_mm) == ("R02/13", 7200)


def test_a_bad_name_pattern_is_refused_with_its_path() -> None:
    row = rp.RowSpec(name="R01", origin=dl.Point(0, 0), racks=(rp.RackSpec(),), rack_name_pattern="{rack}")
    with pytest.raises(DomainError) as err:
        rp.plan_row_racks(CAT, row, "rows[3].")
    assert err.value.field == "rows[3].rack_name_pattern"
    assert err.value.reason == "cannot format '{rack}': 'rack'"


def test_a_row_pair_faces_across_the_cold_aisle() -> None:
    pair = rp.RowPairSpec(
        name_a="R01", name_b="R02", origin=dl.Point(2000, 2000), rack_count=4, rack_template=rp.RackSpec(),
        cold_aisle_mm=1200,
    )  # fmt: skip
    a, b = rp.row_pair(CAT, pair)
    assert (a.name, a.origin, a.front) == ("R01", dl.Point(2000, 2000), dl.Side.LEFT)
    # Rack depth 1200 + aisle 1200 along the row's normal (+y for a row running along +x).
    assert (b.name, b.origin, b.front) == ("R02", dl.Point(2000, 4400), dl.Side.RIGHT)
    assert a.rack_template is b.rack_template is pair.rack_template and a.rack_count == b.rack_count == 4


def test_a_row_pair_may_not_start_outside_the_hall() -> None:
    pair = rp.RowPairSpec(
        name_a="R01", name_b="R02", origin=dl.Point(0, 0), direction=180, rack_count=1, rack_template=rp.RackSpec()
    )
    with pytest.raises(DomainError) as err:
        rp.row_pair(CAT, pair)
    assert (err.value.field, err.value.reason) == ("y_m", "row 'R02' would start outside the hall (0, -2.4)")


def test_planned_rows_are_domain_rows_sharing_identical_logical_racks() -> None:
    row = rp.RowSpec(
        name="R01", origin=dl.Point(1000, 2000), rack_count=2, rack_template=rp.RackSpec(logical_racks=(LR,))
    )
    plans = rp.plan_row_racks(CAT, row, "")
    (built,) = rp.planned_rows(CAT, [row], [plans])
    assert (built.name, built.origin, built.direction, built.front) == ("R01", dl.Point(1000, 2000), 0, dl.Side.LEFT)
    first, second = built.racks
    assert first.logical_racks[0] is second.logical_racks[0]
    lr = first.logical_racks[0]
    assert (lr.base_u, lr.top_u, lr.tor_u()) == (1, 16, 16)
    assert (second.name, second.position_mm, second.rack_type) == ("R01-02", 600, CAT.rack_types[7])


def test_facility_settings_go_with_every_copy_of_the_template_and_both_rows_of_a_pair() -> None:
    feeds = (rp.FeedSetting("A", 230, 3, 16), rp.FeedSetting("B", 230, 3, 16))
    setting = rp.RackFacilitySetting(power_budget_kw=12.0, feeds=feeds)
    template = rp.RackSpec(logical_racks=(LR,), facility=setting)
    own = rp.RackSpec(name="X1", facility=rp.RackFacilitySetting(static_load_kg=900.0))
    row = rp.RowSpec(name="R01", origin=dl.Point(0, 0), racks=(own, rp.RackSpec(name="X2")),
                     rack_count=3, rack_template=template, cooling_kw=40.0)  # fmt: skip
    plans = rp.plan_row_racks(CAT, row, "")
    assert [(p.name, p.facility) for p in plans] == [
        ("X1", own.facility), ("X2", None), ("R01-03", setting), ("R01-04", setting), ("R01-05", setting),
    ]  # fmt: skip
    pair = rp.RowPairSpec("A1", "B1", dl.Point(0, 0), rack_count=2, rack_template=template, cooling_kw=25.0)
    a, b = rp.row_pair(CAT, pair)
    assert (a.cooling_kw, b.cooling_kw) == (25.0, 25.0) and a.rack_template is b.rack_template is template
