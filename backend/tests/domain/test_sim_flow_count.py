"""The worker asks the engine for per-flow records when the workload has at most FLOW_RECORDS_MAX flows,
counted as the engine counts them: checked against the engine's own `flows.total` on every bundled
example, and at the cap."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from loopline.domain.sim_results import FLOW_RECORDS_MAX, wants_flow_records, workload_flows
from loopline.settings import get_settings

EXAMPLES = sorted((Path(__file__).parents[3] / "sim-engine" / "examples").glob("*.json"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_the_count_is_the_engines(example: Path) -> None:
    scenario = json.loads(example.read_text())
    out = subprocess.run(
        [str(get_settings().engine_binary), "run", str(example), "--no-run-info"], check=True, capture_output=True
    )
    assert workload_flows(scenario) == json.loads(out.stdout)["flows"]["total"]


def test_records_up_to_the_cap() -> None:
    def poisson(flows: object) -> dict[str, object]:
        return {"workload": {"type": "poisson", "flows": flows}, "network": {"nodes": []}}

    assert wants_flow_records(poisson(FLOW_RECORDS_MAX))
    assert not wants_flow_records(poisson(FLOW_RECORDS_MAX + 1))
    assert not wants_flow_records(poisson("many")) and not wants_flow_records({"workload": {"type": "new"}})
    # shuffle among every server by default: n (n - 1)
    nodes = [{"id": f"S{i}", "role": "server"} for i in range(1001)] + [{"id": "T", "role": "tor"}]
    assert workload_flows({"workload": {"type": "shuffle"}, "network": {"nodes": nodes}}) == 1001 * 1000
    assert not wants_flow_records({"workload": {"type": "shuffle"}, "network": {"nodes": nodes}})


def test_sorted_values_are_little_endian_float64() -> None:
    import struct

    from loopline.domain.sim_results import sorted_float64

    packed = sorted_float64([0.005, 1e-9, 2.5, 0.005])
    assert struct.unpack("<4d", packed) == (1e-9, 0.005, 0.005, 2.5)
    assert sorted_float64([]) == b""
