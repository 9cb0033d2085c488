"""The GPU presets (issue 31): collective and training step over a GPU hall's ranks, placed packed
or spread over the SUs, and a failed rail leaf or spine; the table offers training-step only once
the engine knows its workload."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopline.domain import layout as dl
from loopline.domain import rack_planning as rp
from loopline.domain.errors import DomainError
from loopline.domain.gpu_hall import GpuClusterSpec, plan_gpu_hall
from loopline.domain.scenario import (
    GIB,
    PresetChoice,
    gpu_job,
    preset_table,
    requested_scenario,
    scalable_units,
    workload,
)
from loopline.domain.wiring import Pattern, RailSpec, WiringPlan, WiringSpec, generate_plan

SCHEMA = json.loads((Path(__file__).parents[3] / "sim-engine" / "schema" / "scenario.schema.json").read_text())
SERVER = dl.ServerModel("2-GPU box", nic_ports=2, port_gbps=400.0, height_u=4, gpus=2, gpu_interconnect_gbps=3600.0)
LEAF = dl.SwitchModel("8x400G leaf", server_ports=8, server_port_gbps=400.0, uplink_ports=8, uplink_gbps=400.0)
CAT = rp.Catalog(servers={1: SERVER}, switches={2: LEAF}, rack_types={3: dl.RackType()})


def gpu_plan() -> WiringPlan:
    """A GPU hall of 4 SUs x 2 servers (one to a rack) of 2 GPUs, wired rail-only: 16 GPUs."""
    spec = GpuClusterSpec(scalable_units=4, servers_per_su=2, server_model_id=1, servers_per_rack=1,
                          rail_leaf_model_id=2)  # fmt: skip
    layout = plan_gpu_hall(CAT, spec, width_mm=10_000, depth_mm=20_000, cold_aisle_mm=1200, hot_aisle_mm=900)
    rows = rp.planned_rows(CAT, layout.rows, [rp.plan_row_racks(CAT, r, "") for r in layout.rows])
    hall = dl.Hall("H1", 10_000, 20_000, rows=tuple(rows))
    return generate_plan(hall, WiringSpec(pattern=Pattern.RAIL_ONLY, rail=RailSpec(LEAF, su_size=2)))


PLAN = gpu_plan()


def gpus(su: int, server: int) -> list[str]:
    base = f"H1.SU0{su}.SU0{su}-0{server}.L1.S01"
    return [f"{base}/gpu0", f"{base}/gpu1"]


def test_scalable_units_are_the_rail_sus() -> None:
    assert scalable_units(PLAN) == [[gpus(k, 1), gpus(k, 2)] for k in (1, 2, 3, 4)]


def test_packed_and_spread_rank_lists() -> None:
    """Packed: SU 1's servers, then SU 2's; spread: server 1 of each SU, then server 2 of each."""
    assert gpu_job(PLAN, 4, "packed", "g") == gpus(1, 1) + gpus(1, 2)
    assert gpu_job(PLAN, 4, "spread", "g") == gpus(1, 1) + gpus(2, 1)
    assert gpu_job(PLAN, 8, "spread", "g") == gpus(1, 1) + gpus(2, 1) + gpus(3, 1) + gpus(4, 1)
    assert gpu_job(PLAN, 10, "spread", "g") == gpus(1, 1) + gpus(2, 1) + gpus(3, 1) + gpus(4, 1) + gpus(1, 2)
    assert gpu_job(PLAN, 0, "packed", "g") == [r for k in (1, 2, 3, 4) for s in (1, 2) for r in gpus(k, s)]


@pytest.mark.parametrize(
    ("n", "reason"),
    [
        (3, "a job takes whole servers of 2 GPUs: 3 is not a multiple of 2"),
        (18, "the plan has 16 GPUs, the job asks for 18"),
    ],
)
def test_bad_job_sizes_name_the_field(n: int, reason: str) -> None:
    with pytest.raises(DomainError) as e:
        workload(PLAN, "collective", {"gpus": n})
    assert (e.value.field, e.value.reason) == ("params.gpus", reason)


@given(n=st.integers(1, 8), spread=st.booleans())
def test_a_job_is_whole_distinct_servers(n: int, spread: bool) -> None:
    ranks = gpu_job(PLAN, 2 * n, "spread" if spread else "packed", "g")
    assert len(ranks) == len(set(ranks)) == 2 * n
    hosts = [r.rsplit("/", 1)[0] for r in ranks]
    assert all(hosts[i] == hosts[i + 1] for i in range(0, len(hosts), 2))  # GPU 0 and 1 of each server, together
    # spread: the first min(n, 4) servers are in distinct SUs
    sus = [h.split(".")[1] for h in hosts[::2]]
    if spread:
        assert len(set(sus[:4])) == min(n, 4)


def test_collective_workload() -> None:
    """The preset's own defaults (all-reduce, 1 GiB, every GPU packed); engine-owned ones left out."""
    assert workload(PLAN, "collective") == {
        "type": "collective", "op": "all_reduce", "servers": gpu_job(PLAN, 0, "packed", "g"), "bytes": GIB,
    }  # fmt: skip
    params = {"op": "all_to_all", "algorithm": "direct", "bytes": 2**20, "iterations": 3, "gpus": 4,
              "placement": "spread", "model": "pipelined", "skew": 1.2}  # fmt: skip
    got = workload(PLAN, "collective", params)
    assert got == {"type": "collective", "op": "all_to_all", "servers": gpus(1, 1) + gpus(2, 1), "bytes": 2**20,
                   "algorithm": "direct", "iterations": 3, "model": "pipelined", "skew": 1.2}  # fmt: skip
    # the editor sends every field: an all-reduce with the table's uniform skew (0) carries none (the engine
    # refuses a skew outside all-to-all), one with a real skew keeps it for the engine to refuse by name
    assert "skew" not in workload(PLAN, "collective", {"op": "all_reduce", "skew": 0.0})
    assert workload(PLAN, "collective", {"op": "all_reduce", "skew": 0.5})["skew"] == 0.5
    assert workload(PLAN, "collective", {"op": "all_to_all", "skew": 0.0})["skew"] == 0.0


def test_training_step_workload_and_failed_leaf() -> None:
    choice = PresetChoice("training-step", {"bytes": 100_000_000, "forward_s": 0.02, "backward_s": 0.04, "gpus": 8,
                                            "failed": "H1.SU1.RAIL2"})  # fmt: skip
    scenario = requested_scenario(PLAN, choice, routing={"type": "ecmp"}, engine={"mode": "flow", "seed": 1})
    assert scenario["workload"] == {
        "type": "training_step", "servers": gpus(1, 1) + gpus(1, 2) + gpus(2, 1) + gpus(2, 2),
        "gradient_bytes": 100_000_000, "forward_s": 0.02, "backward_s": 0.04,
    }  # fmt: skip
    assert scenario["engine"] == {"mode": "flow", "seed": 1, "failures": [{"node": "H1.SU1.RAIL2", "at_s": 0.0}]}
    with pytest.raises(DomainError) as e:
        requested_scenario(PLAN, PresetChoice("training-step", {"failed": "H1.SU01.SU01-01.L1.S01"}),
                           routing={}, engine={})  # fmt: skip
    assert e.value.field == "params.failed"


def test_training_step_is_offered_once_the_engine_knows_it() -> None:
    schema = json.loads(json.dumps(SCHEMA))
    variants = schema["definitions"]["WorkloadSpec"]["oneOf"]
    variants[:] = [v for v in variants if v["properties"]["type"]["enum"] != ["training_step"]]
    assert "training-step" not in [p.name for p in preset_table(schema)]
    variants.append({"properties": {"type": {"enum": ["training_step"]}, "bucket_bytes": {"default": 25_000_000},
                                    "iterations": {"default": 1}, "algorithm": {"default": "ring"}}})  # fmt: skip
    (served,) = [p for p in preset_table(schema) if p.name == "training-step"]
    defaults = {p.name: p.default for p in served.params}
    assert (defaults["bucket_bytes"], defaults["iterations"], defaults["algorithm"]) == (25_000_000, 1, "ring")
