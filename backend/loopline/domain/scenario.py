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


def logical_racks(plan: WiringPlan) -> list[tuple[str, list[str]]]:
    """The plan's logical racks in layout order, each with its servers' node ids."""
    racks: dict[str, list[str]] = {}
    for d in plan.devices:
        if d.role is Role.SERVER and d.logical_rack is not None:
            racks.setdefault(d.logical_rack, []).append(d.node_id)
    return list(racks.items())


def _first_racks(plan: WiringPlan, n: int, field: str) -> list[tuple[str, list[str]]]:
    racks = logical_racks(plan)
    if n < 1 or n > len(racks):
        raise DomainError(field, f"needs 1..{len(racks)} logical racks (the layout has {len(racks)}), got {n}")
    return racks[:n]


def default_workload(
    plan: WiringPlan, bytes_per_pair: int = DEFAULT_BYTES_PER_PAIR, job_racks: int = 2
) -> dict[str, Any]:
    """Shuffle among the servers of the plan's first `job_racks` logical racks (in layout order)."""
    servers = [s for _, ss in _first_racks(plan, job_racks, "job_racks") for s in ss]
    if len(servers) < 2:
        raise DomainError("workload.servers", "a shuffle needs at least two servers")
    return {"type": "shuffle", "servers": servers, "bytes_per_pair": bytes_per_pair}


WORKLOADS = ("shuffle", "permutation", "many-to-many", "poisson", "incast", "memcache")


def workload(plan: WiringPlan, kind: str, **p: Any) -> dict[str, Any]:
    """An engine workload over the plan's logical racks (in layout order), by name:

    - ``shuffle``: all-to-all among the servers of the first ``job_racks`` racks (``bytes``);
    - ``permutation``: a random derangement among those servers (``bytes`` per flow);
    - ``many-to-many``: the servers of the first ``senders`` racks to those of the next
      ``receivers`` racks (``bytes`` per pair);
    - ``poisson``: flow sizes from the bundled CDF ``cdf`` at ``load`` of the server links, ``flows``
      flows, among the first ``job_racks`` racks (all racks when None), only between different
      racks with ``inter_rack_only``;
    - ``incast``: ``queries`` fan-ins of ``fan_in`` responses of ``bytes`` to random receivers;
    - ``memcache``: clients in every rack but the first ``server_racks``, which hold the caches.
    """
    nbytes = int(p.get("bytes", DEFAULT_BYTES_PER_PAIR))
    if kind == "shuffle":
        return default_workload(plan, nbytes, int(p.get("job_racks", 2)))
    if kind == "permutation":
        servers = [s for _, ss in _first_racks(plan, int(p.get("job_racks", 2)), "job_racks") for s in ss]
        return {"type": "permutation", "servers": servers, "bytes": nbytes}
    if kind == "many-to-many":
        a, b = int(p.get("senders", 1)), int(p.get("receivers", 1))
        racks = _first_racks(plan, a + b, "senders")
        return {
            "type": "many_to_many",
            "senders": [s for _, ss in racks[:a] for s in ss],
            "receivers": [s for _, ss in racks[a:] for s in ss],
            "flows_per_pair": 1,
            "bytes": nbytes,
        }
    if kind == "poisson":
        out: dict[str, Any] = {
            "type": "poisson",
            "cdf": p.get("cdf", "websearch"),
            "load": float(p.get("load", 0.4)),
            "flows": int(p.get("flows", 10_000)),
        }
        if p.get("inter_rack_only"):
            out["inter_rack_only"] = True
        if p.get("job_racks") is not None:
            out["servers"] = [s for _, ss in _first_racks(plan, int(p["job_racks"]), "job_racks") for s in ss]
        return out
    if kind == "incast":
        return {
            "type": "incast",
            "fan_in": int(p.get("fan_in", 8)),
            "response_bytes": nbytes,
            "queries": int(p.get("queries", 100)),
        }
    if kind == "memcache":
        n = int(p.get("server_racks", 1))
        racks = logical_racks(plan)
        if not 1 <= n < len(racks):
            raise DomainError("server_racks", f"needs 1..{len(racks) - 1} cache racks (clients in the rest), got {n}")
        return {"type": "memcache", "server_racks": [name for name, _ in racks[:n]]}
    raise DomainError("workload", f"unknown workload {kind!r} (one of {', '.join(WORKLOADS)})")


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
