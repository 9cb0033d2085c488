"""GPU ranks in the scenario (issue 31): a GPU server is its GPU ranks and one interconnect node;
its compute cables end at the GPU whose NIC they are (port p<i+1> -> GPU i, rail i)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain.layout import Hall, LogicalRack, Point, Rack, RackRole, Row, ServerModel, SwitchModel
from loopline.domain.scenario import logical_racks, network_from_plan, workload
from loopline.domain.wiring import Pattern, RailSpec, WiringPlan, WiringSpec, generate_plan
from loopline.domain.wiring.model import GpuServer

LEAF = SwitchModel("8x400G leaf", server_ports=8, server_port_gbps=400.0, uplink_ports=8, uplink_gbps=400.0)
TOR = SwitchModel("32x100G ToR", server_ports=32, server_port_gbps=100.0, uplink_ports=8)


def gpu_plan(servers: int = 2, gpus: int = 2, interconnect: float | None = 3600.0) -> WiringPlan:
    """One row R01: a compute rack K01 of `servers` GPU servers (`gpus` GPUs, one 400G NIC each) and a
    network rack N01; rail-only, one SU: one leaf per rail."""
    model = ServerModel("GPU box", nic_ports=gpus, port_gbps=400.0, height_u=4, gpus=gpus,
                        gpu_interconnect_gbps=interconnect)  # fmt: skip
    row = Row(
        "R01",
        Point(1000, 1000),
        racks=(
            Rack("K01", position_mm=0, logical_racks=(LogicalRack(servers, model, TOR, ports_used=1),)),
            Rack("N01", position_mm=600, role=RackRole.NETWORK),
        ),
    )
    hall = Hall("H1", 20_000, 20_000, rows=(row,))
    return generate_plan(hall, WiringSpec(pattern=Pattern.RAIL_ONLY, rail=RailSpec(LEAF, su_size=servers)))


def test_two_gpu_servers_exactly() -> None:
    plan = gpu_plan()
    assert plan.gpu_servers == {"GPU box": GpuServer(2, 3600.0)}
    net = network_from_plan(plan)
    s1, s2 = "H1.R01.K01.L1.S01", "H1.R01.K01.L1.S02"
    rack, lr = "H1.R01.K01", "H1.R01.K01.L1"

    def gpu(server: str, i: int) -> dict[str, object]:
        return {"id": f"{server}/gpu{i}", "role": "server", "layer": 0, "cluster": 0, "rack": rack,
                "logical_rack": lr, "host": f"{server}/interconnect", "rail": i}  # fmt: skip

    def host(server: str) -> dict[str, object]:
        return {"id": f"{server}/interconnect", "role": "interconnect", "layer": 1, "cluster": 0, "rack": rack}

    servers = [n for n in net["nodes"] if n["role"] in ("server", "interconnect")]
    assert servers == [host(s1), gpu(s1, 0), gpu(s1, 1), host(s2), gpu(s2, 0), gpu(s2, 1)]
    leaves = sorted(n["id"] for n in net["nodes"] if n["role"] == "tor")
    assert leaves == ["H1.SU1.RAIL1", "H1.SU1.RAIL2"]
    hop = plan.spec.hop_latency_ns
    inner = [link for link in net["links"] if link["b"].endswith("/interconnect")]
    assert inner == [
        {"id": f"{s}/gpu{i}/interconnect", "a": f"{s}/gpu{i}", "b": f"{s}/interconnect", "gbps": 3600.0,
         "latency_ns": hop}
        for s in (s1, s2) for i in (0, 1)
    ]  # fmt: skip
    # the 4 compute cables: NIC p<i+1> of the j-th server -> rail leaf i, port e<j+1>; each keeps its cable id
    cables = {c.cable_id: c for c in plan.cables}
    ends = sorted((link["a"], link["b"]) for link in net["links"] if link["id"] in cables)
    assert ends == [
        (f"{s1}/gpu0", "H1.SU1.RAIL1"), (f"{s1}/gpu1", "H1.SU1.RAIL2"),
        (f"{s2}/gpu0", "H1.SU1.RAIL1"), (f"{s2}/gpu1", "H1.SU1.RAIL2"),
    ]  # fmt: skip
    assert len(net["links"]) == 8
    for link in net["links"]:
        if link["id"] in cables:
            assert (link["gbps"], link["latency_ns"]) == (400.0, cables[link["id"]].latency_ns)
    # the presets' rack sets see ranks: a job of the one logical rack is the 4 GPUs
    assert logical_racks(plan) == [(lr, [f"{s1}/gpu0", f"{s1}/gpu1", f"{s2}/gpu0", f"{s2}/gpu1"])]
    assert workload(plan, "all-to-all", {"job_racks": 1})["servers"] == logical_racks(plan)[0][1]


def test_unknown_interconnect_keeps_servers_whole() -> None:
    """No interconnect figure in the catalog: no ranks (the scenario cannot model the GPUs' link)."""
    plan = gpu_plan(interconnect=None)
    assert plan.gpu_servers == {}
    roles = [n["role"] for n in network_from_plan(plan)["nodes"]]
    assert roles.count("server") == 2 and "interconnect" not in roles


@settings(max_examples=25, deadline=None)
@given(servers=st.integers(1, 8), gpus=st.integers(1, 8))
def test_every_gpu_has_its_rail_and_one_interconnect_link(servers: int, gpus: int) -> None:
    """Invariants: servers x gpus ranks; each rank one interconnect link to its own host and one
    cable to the leaf of its rail; every link's ends are nodes."""
    net = network_from_plan(gpu_plan(servers, gpus))
    ids = {n["id"] for n in net["nodes"]}
    ranks = [n for n in net["nodes"] if n["role"] == "server"]
    assert len(ranks) == servers * gpus
    for link in net["links"]:
        assert link["a"] in ids and link["b"] in ids
    for r in ranks:
        mine = [link for link in net["links"] if r["id"] in (link["a"], link["b"])]
        others = sorted(link["b"] if link["a"] == r["id"] else link["a"] for link in mine)
        assert others == sorted([r["host"], f"H1.SU1.RAIL{r['rail'] + 1}"])
