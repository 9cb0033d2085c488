"""Scenario export (docs/scenario-contract.md): the engine's `network` from a wiring plan, plus a
default scenario, so the topology the simulator sees is the one the cabling team pulls.

Every cable becomes one link (parallel links, e.g. a LAG, stay separate) with its cable ID, its
Gb/s and its latency (hop forwarding + 5 ns/m propagation + any forced RS-FEC).
"""

from __future__ import annotations

from typing import Any

from loopline.domain.errors import DomainError
from loopline.domain.wiring.model import LAYER, Role, WiringPlan

SCHEMA_VERSION = 1
DEFAULT_BYTES_PER_PAIR = 15_000_000


def network_from_plan(plan: WiringPlan) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = []
    node_of: dict[str, str] = {}
    for d in plan.devices:
        node_of[d.name] = d.node_id
        node: dict[str, Any] = {
            "id": d.node_id,
            "role": d.role.value,
            "layer": LAYER[d.role],
            "cluster": d.cluster,
            "rack": d.rack,
        }
        if d.role is Role.TOR:
            node["loop"] = d.loop
            node["loop_position"] = d.loop_position
        if d.logical_rack is not None:
            node["logical_rack"] = d.logical_rack
        nodes.append(node)
    links = [
        {
            "id": c.cable_id,
            "a": node_of[c.a_device],
            "b": node_of[c.b_device],
            "gbps": c.gbps,
            "latency_ns": c.latency_ns,
        }
        for c in plan.cables
    ]
    return {"nodes": nodes, "links": links}


def default_workload(plan: WiringPlan, bytes_per_pair: int = DEFAULT_BYTES_PER_PAIR) -> dict[str, Any]:
    """Shuffle among the servers of the plan's first two logical racks (in layout order)."""
    first: list[str] = []
    servers: list[str] = []
    for d in plan.devices:
        if d.role is not Role.SERVER or d.logical_rack is None:
            continue
        if d.logical_rack not in first:
            if len(first) == 2:
                break
            first.append(d.logical_rack)
        servers.append(d.node_id)
    if len(servers) < 2:
        raise DomainError("workload.servers", "a shuffle needs at least two servers")
    return {"type": "shuffle", "servers": servers, "bytes_per_pair": bytes_per_pair}


def build_scenario(
    plan: WiringPlan,
    *,
    name: str | None = None,
    routing: dict[str, Any] | None = None,
    workload: dict[str, Any] | None = None,
    engine: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A complete scenario: the plan's network + routing (default ecmp), workload (default
    shuffle of the first two logical racks, 15 MB per pair) and engine (flow mode, seed 1)."""
    scenario: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    if name is not None:
        scenario["name"] = name
    scenario["network"] = network_from_plan(plan)
    scenario["routing"] = routing or {"type": "ecmp"}
    scenario["workload"] = workload or default_workload(plan)
    scenario["engine"] = engine or {"mode": "flow", "seed": 1, "failures": []}
    return scenario
