"""GPU halls planned from numbers (issue 31, `domain/gpu_hall.py`): whatever the cluster, the rows
pass the layout rules with no error and no aisle warning, hold exactly its servers, one network rack
per SU, and the rail wiring places every SU's leaves in its own row."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain import layout as dl
from loopline.domain import rack_planning as rp
from loopline.domain.errors import DomainError
from loopline.domain.gpu_hall import GpuClusterSpec, plan_gpu_hall
from loopline.domain.layout_rules import Severity, validate_hall
from loopline.domain.wiring import Pattern, RailSpec, WiringSpec, generate_plan

SERVER = dl.ServerModel("GPU", nic_ports=4, port_gbps=400.0, height_u=4, gpus=4, gpu_interconnect_gbps=3600.0,
                        frontend_nic_ports=2, frontend_port_gbps=100.0)  # fmt: skip
LEAF = dl.SwitchModel("leaf", server_ports=32, server_port_gbps=400.0, uplink_ports=32, uplink_gbps=400.0)
CAT = rp.Catalog(servers={1: SERVER}, switches={2: LEAF}, rack_types={3: dl.RackType()})


@settings(max_examples=40, deadline=None)
@given(
    sus=st.integers(1, 6),
    per_su=st.integers(1, 32),
    per_rack=st.integers(1, 10),
    cold=st.sampled_from([600, 900, 1200, 1800]),
    hot=st.sampled_from([300, 900, 1200]),
)
def test_any_gpu_cluster_is_a_valid_hall(sus: int, per_su: int, per_rack: int, cold: int, hot: int) -> None:
    spec = GpuClusterSpec(sus, per_su, 1, per_rack, 2)
    plan = plan_gpu_hall(CAT, spec, width_mm=100_000, depth_mm=100_000, cold_aisle_mm=cold, hot_aisle_mm=hot)
    rows = rp.planned_rows(CAT, plan.rows, [rp.plan_row_racks(CAT, r, "") for r in plan.rows])
    hall = dl.Hall("H1", plan.width_mm, plan.depth_mm, rows=tuple(rows))  # exactly the floor it asked for
    issues = validate_hall(hall, min_cold_mm=cold, min_hot_mm=hot)
    assert [i for i in issues if i.severity is Severity.ERROR] == []
    assert [i for i in issues if i.code.startswith("aisle")] == []
    assert sum(lr.servers for row in rows for rk in row.racks for lr in rk.logical_racks) == sus * per_su
    assert [sum(rk.role is dl.RackRole.NETWORK for rk in row.racks) for row in rows] == [1] * sus
    wired = generate_plan(hall, WiringSpec(pattern=Pattern.RAIL_ONLY, rail=RailSpec(LEAF, su_size=per_su)))
    leaves = [d for d in wired.devices if d.role.value == "tor"]
    assert len(leaves) == sus * SERVER.nic_ports
    assert all(d.rack == f"H1.SU{d.cluster + 1:02d}.SU{d.cluster + 1:02d}-N" for d in leaves)


def test_no_cold_aisle_is_refused() -> None:
    try:
        plan_gpu_hall(CAT, GpuClusterSpec(2, 8, 1, 4, 2), width_mm=9_000, depth_mm=9_000, cold_aisle_mm=0,
                      hot_aisle_mm=900)  # fmt: skip
    except DomainError as e:
        assert e.field == "min_cold_aisle_m"
    else:
        raise AssertionError("rows with touching fronts were taken")


def test_a_floor_one_millimetre_short_is_refused() -> None:
    spec = GpuClusterSpec(2, 8, 1, 4, 2)
    plan = plan_gpu_hall(CAT, spec, width_mm=100_000, depth_mm=100_000, cold_aisle_mm=1200, hot_aisle_mm=900)
    # 3 racks of 600 mm and 1.2 m either side; 2 rows of 1.2 m across the 1.2 m cold aisle, 1.2 m walls
    assert (plan.width_mm, plan.depth_mm) == (4200, 6000)
    try:
        plan_gpu_hall(CAT, spec, width_mm=4200, depth_mm=5999, cold_aisle_mm=1200, hot_aisle_mm=900)
    except DomainError as e:
        assert e.field == "depth_m"
    else:
        raise AssertionError("a floor too small was taken")
