"""How long and how much memory a simulation will take, in flow and in packet mode, before it runs.

The workload is read as the engine reads it (`sim-engine` `Scenario::workload_flows` for the flow
counts): its flows, their bytes and the links each crosses (`hops`: the shortest server-to-server
path in the scenario's network, which is the up-down path of a Clos; routings that take longer
paths, VLB or detours, cost more than this says). Random pairings (permutation, random, Poisson,
queries without named servers, memcache) use the mean over the pairs they draw from.

Packet mode: every flow is cut into `ceil(bytes / (mtu - header))` packets; each packet and its ACK
cost `EVENTS_PER_PACKET_HOP` events per link crossed, run at `PACKET_EVENTS_PER_S`. Flow mode: its
cost grows with flows (an arrival, a completion and the rate updates around them), at
`FLOW_FLOWS_PER_S`. The constants are measured (see each one), so the figures are estimates of
the median run on this kind of machine, not bounds; `scripts/calibrate_sim_estimate.py` prints the
measured figures beside the estimate.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal

Mode = Literal["flow", "packet"]

# Engine defaults (sim-engine/src/scenario/mod.rs `PacketSpec`).
DEFAULT_MTU_BYTES = 1500
DEFAULT_HEADER_BYTES = 0
DEFAULT_BUFFER_BYTES = 150_000

EVENTS_PER_PACKET_HOP = 4.0
"""A data packet's departure from a port and its arrival at the far end of the wire, and the same
for its ACK on the way back: 4 events per link crossed (sim-engine/src/packet/mod.rs, `EV_DEPART`,
`EV_WIRE`); retransmissions and timers add a few per cent (measured: see the calibration script)."""

PACKET_EVENTS_PER_S = 3_000_000.0
"""Packet-mode events per second of wall time on this 2-core machine shared with other work:
`scripts/calibrate_sim_estimate.py` measured 4.9 M and 5.4 M with light load, 1.5 M to 2.7 M with
heavy load (FatTree k=4 and k=8, web search and a permutation; 0.5 to 90 s runs); measured events
were 4.00 to 4.20 per packet-hop. 3 M sits between: a loaded machine takes up to twice as long."""

FLOW_FLOWS_PER_S = 90_000.0
"""Flow-mode flows per second of wall time: the engine's `run_info.flows_per_s` on FatTree k=16
with 300,000 web-search flows at 40% load (3.3 s, 97 MB peak). Small runs are all start-up."""

STARTUP_S = 0.05
"""Reading the scenario, building the network and routes, writing the result."""

BASE_MEMORY_MB = 6.0
"""The engine's resident memory with a small workload (5 to 6 MB measured)."""

BYTES_PER_FLOW = {"flow": 300.0, "packet": 400.0}
"""Memory per flow: its record, route and (packet mode) connection state."""

BYTES_PER_LINK = 2_000.0
"""Memory per directed link: the port, its queue histogram and series buckets."""

PACKET_POOL_BYTES = 64.0
"""Memory per pooled packet; the pool holds at most the packets every queue can buffer."""

CDF_MEAN_BYTES: Mapping[str, float] = {
    "websearch": 1_711_250.0,
    "datamining": 12_658_198.6,
    "hadoop": 120_420.75,
    "cachefollower": 609_882.957641079,
    "webserver": 91_342.97510122167,
}
"""Mean flow size of each bundled CDF (sim-engine/data/*.txt, linear interpolation in size between
points, as the engine samples; tests recompute them from the files)."""

MAX_SOURCE_GROUPS = 64
"""Mean hop counts are taken from at most this many evenly spaced source groups (servers on the
same switches): exact for any plan with up to 64 ToRs, a sample beyond."""


class Unestimable(Exception):
    """The scenario is not one the estimate can read (the engine's validation names why)."""


@dataclass(frozen=True, slots=True)
class ModeEstimate:
    mode: Mode
    wall_s: float
    memory_mb: float
    events: float
    """Engine events (packet mode: packet and ACK hops; flow mode: flows)."""


@dataclass(frozen=True, slots=True)
class WorkloadSize:
    flows: int
    bytes: float
    mean_hops: float
    """Links a flow crosses, on average over the workload's bytes."""
    packets: float
    """Packets in packet mode (the MTU and header of the scenario), before any stop time."""
    packet_hops: float
    """Packets times the links each crosses; capped by the stop time when one is set."""


@dataclass(frozen=True, slots=True)
class Estimate:
    workload: WorkloadSize
    flow: ModeEstimate
    packet: ModeEstimate

    def of(self, mode: Mode) -> ModeEstimate:
        return self.flow if mode == "flow" else self.packet


def estimate(scenario: Mapping[str, Any]) -> Estimate:
    """Wall time and peak memory of `scenario` in both modes. Raises `Unestimable` for a scenario
    it cannot read (validate it with the engine first)."""
    try:
        return _estimate(scenario)
    except OverflowError as e:  # numbers beyond floats: the engine refuses them too
        raise Unestimable("a number is out of range") from e


def _estimate(scenario: Mapping[str, Any]) -> Estimate:
    network = _dict(scenario.get("network"))
    engine = _dict(scenario.get("engine") or {})
    packet = _dict(engine.get("packet") or {})
    mtu = _positive_int(packet.get("mtu_bytes", DEFAULT_MTU_BYTES))
    header = _int(packet.get("header_bytes", DEFAULT_HEADER_BYTES))
    if header >= mtu:
        raise Unestimable("header_bytes must be below mtu_bytes")
    buffer = _positive_int(packet.get("buffer_bytes", DEFAULT_BUFFER_BYTES))
    graph = Graph.of(network)
    flows = list(_flows(_dict(scenario.get("workload")), graph))
    nflows = sum(f.count for f in flows)
    total_bytes = sum(f.count * f.bytes for f in flows)
    payload = mtu - header
    packets = sum(f.count * f.packets(payload) for f in flows)
    packet_hops = sum(f.count * f.packets(payload) * f.hops for f in flows)
    byte_hops = sum(f.count * f.bytes * f.hops for f in flows)
    mean_hops = byte_hops / total_bytes if total_bytes else 0.0
    stop = engine.get("stop_time_s")
    if isinstance(stop, int | float) and not isinstance(stop, bool) and 0 < stop < 1e15:
        # no more than the servers' links can send in that time
        most = stop * graph.server_link_bytes_per_s() / mtu
        if packets > most:
            packet_hops *= most / packets
    size = WorkloadSize(nflows, total_bytes, mean_hops, packets, packet_hops)
    ports = 2 * len(graph.links)
    pool = min(packets, ports * math.ceil(buffer / mtu))
    memory = {
        mode: BASE_MEMORY_MB + (BYTES_PER_FLOW[mode] * nflows + BYTES_PER_LINK * ports) / 1e6
        for mode in ("flow", "packet")
    }
    events = EVENTS_PER_PACKET_HOP * packet_hops
    return Estimate(
        size,
        ModeEstimate("flow", STARTUP_S + nflows / FLOW_FLOWS_PER_S, memory["flow"], float(nflows)),
        ModeEstimate(
            "packet",
            STARTUP_S + events / PACKET_EVENTS_PER_S,
            memory["packet"] + PACKET_POOL_BYTES * pool / 1e6,
            events,
        ),
    )


@dataclass(frozen=True, slots=True)
class Flows:
    """`count` flows of `bytes` each (a mean, for sizes drawn from a CDF) crossing `hops` links."""

    count: int
    bytes: float
    hops: float
    drawn: bool = False
    """Sizes drawn from a distribution: half a packet more per flow on average."""

    def packets(self, payload: int) -> float:
        if self.drawn:
            return self.bytes / payload + 0.5
        return float(math.ceil(self.bytes / payload))


class Graph:
    """The network as the estimate needs it: servers, the switches they hang from, and switch
    distances (servers are leaves: every path between two servers runs through switches)."""

    def __init__(
        self,
        servers: dict[str, tuple[str, ...]],
        racks: dict[str, str | None],
        switch_adj: dict[str, set[str]],
        links: list[tuple[str, str, float]],
    ) -> None:
        self.servers = servers
        self.racks = racks
        self.adj = switch_adj
        self.links = links
        self._from: dict[tuple[str, ...], dict[str, int]] = {}

    @classmethod
    def of(cls, network: Mapping[str, Any]) -> Graph:
        nodes = network.get("nodes")
        raw_links = network.get("links")
        if not isinstance(nodes, list) or not isinstance(raw_links, list):
            raise Unestimable("network.nodes and network.links must be lists")
        roles: dict[str, str] = {}
        racks: dict[str, str | None] = {}
        for n in nodes:
            node = _dict(n)
            nid, role = node.get("id"), node.get("role")
            if not isinstance(nid, str) or not isinstance(role, str):
                raise Unestimable("every node needs an id and a role")
            roles[nid] = role
            if role == "server":
                rack = node.get("logical_rack")
                racks[nid] = rack if isinstance(rack, str) else None
        attach: dict[str, set[str]] = {s: set() for s in racks}
        adj: dict[str, set[str]] = {n: set() for n, r in roles.items() if r != "server"}
        links: list[tuple[str, str, float]] = []
        for raw in raw_links:
            link = _dict(raw)
            a, b, gbps = link.get("a"), link.get("b"), link.get("gbps")
            if not (isinstance(a, str) and isinstance(b, str) and a in roles and b in roles):
                raise Unestimable("every link needs two known ends")
            if not isinstance(gbps, int | float) or isinstance(gbps, bool) or not 0 < gbps < 1e9:
                raise Unestimable("every link needs a rate")
            links.append((a, b, float(gbps)))
            if a in attach and b in adj:
                attach[a].add(b)
            elif b in attach and a in adj:
                attach[b].add(a)
            elif a in adj and b in adj:
                adj[a].add(b)
                adj[b].add(a)
        servers = {s: tuple(sorted(t)) for s, t in attach.items()}
        return cls(servers, racks, adj, links)

    def server_link_bytes_per_s(self) -> float:
        return sum(g for a, b, g in self.links if a in self.servers or b in self.servers) * 1e9 / 8

    def _distances(self, tors: tuple[str, ...]) -> dict[str, int]:
        """Switch distances from a server on `tors` (its ToRs at distance 1)."""
        if tors not in self._from:
            dist = dict.fromkeys(tors, 1)
            queue = deque(tors)
            while queue:
                u = queue.popleft()
                for v in self.adj[u]:
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        queue.append(v)
            self._from[tors] = dist
        return self._from[tors]

    def hops(self, src: str, dst: str) -> int:
        """Links on the shortest path from server `src` to server `dst` (another one)."""
        a, b = self.servers[src], self.servers[dst]
        if not a or not b:
            raise Unestimable(f"server {src if not a else dst} has no link")
        dist = self._distances(a)
        found = [dist[t] for t in b if t in dist]
        if not found:
            raise Unestimable(f"no path from {src} to {dst}")
        return min(found) + 1

    def mean_hops(self, srcs: Sequence[str], dsts: Sequence[str], *, inter_rack_only: bool = False) -> float:
        """Mean links crossed over the ordered pairs (s, d), s in `srcs`, d in `dsts`, s != d
        (and in different logical racks with `inter_rack_only`)."""
        for s in (*srcs, *dsts):
            if s not in self.servers:
                raise Unestimable(f"{s} is not a server")

        # servers on the same switches in the same rack are alike: count them, route one of each
        def groups(ids: Iterable[str]) -> dict[tuple[tuple[str, ...], str | None], list[str]]:
            out: dict[tuple[tuple[str, ...], str | None], list[str]] = {}
            for s in ids:
                out.setdefault((self.servers[s], self.racks[s]), []).append(s)
            return out

        src_groups, dst_groups = groups(srcs), groups(dsts)
        keys = list(src_groups)
        if len(keys) > MAX_SOURCE_GROUPS:
            keys = [keys[i * len(keys) // MAX_SOURCE_GROUPS] for i in range(MAX_SOURCE_GROUPS)]
        total = pairs = 0.0
        for key in keys:
            members = src_groups[key]
            for dkey, dmembers in dst_groups.items():
                if inter_rack_only and (key[1] is not None and key[1] == dkey[1]):
                    continue
                same = set(members) & set(dmembers)
                n = len(members) * len(dmembers) - len(same)
                if n <= 0:
                    continue
                rep_s = members[0]
                rep_d = next((d for d in dmembers if d != rep_s), None)
                if rep_d is None:
                    continue
                total += n * self.hops(rep_s, rep_d)
                pairs += n
        if pairs == 0:
            raise Unestimable("the workload has no pair of distinct servers")
        return total / pairs


def _flows(w: Mapping[str, Any], g: Graph) -> Iterable[Flows]:
    kind = w.get("type")
    all_servers = list(g.servers)

    def ids(key: str) -> list[str]:
        value = w.get(key)
        if value is None:
            return all_servers
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise Unestimable(f"workload.{key} must be a list of server ids")
        return value

    if kind in ("shuffle", "all_to_all"):
        servers = ids("servers")
        nbytes = _int(w.get("bytes_per_pair" if kind == "shuffle" else "bytes"))
        n = len(servers) * (len(servers) - 1)
        if n:
            yield Flows(n, nbytes, g.mean_hops(servers, servers))
    elif kind == "permutation":
        servers = ids("servers")
        if len(servers) > 1:
            yield Flows(len(servers), _int(w.get("bytes")), g.mean_hops(servers, servers))
    elif kind == "random":
        servers = ids("servers")
        yield Flows(_int(w.get("flows")), _int(w.get("bytes")), g.mean_hops(servers, servers))
    elif kind == "many_to_many":
        senders, receivers = ids("senders"), ids("receivers")
        receiving = set(receivers)
        both = sum(1 for s in senders if s in receiving)
        n = (len(senders) * len(receivers) - both) * _int(w.get("flows_per_pair", 1))
        if n:
            yield Flows(n, _int(w.get("bytes")), g.mean_hops(senders, receivers))
    elif kind in ("incast", "query"):
        queries = _int(w.get("queries", 1 if kind == "incast" else 100))
        named = w.get("senders") is not None
        receiver = w.get("receiver")
        per = len(ids("senders")) if named else _int(w.get("fan_in", 8))
        srcs = ids("senders") if named else all_servers
        dsts = [receiver] if isinstance(receiver, str) else all_servers
        yield Flows(queries * per, _int(w.get("response_bytes")), g.mean_hops(srcs, dsts))
    elif kind == "poisson":
        cdf = w.get("cdf")
        mean = _cdf_mean(cdf)
        servers = ids("servers")
        hops = g.mean_hops(servers, servers, inter_rack_only=w.get("inter_rack_only") is True)
        yield Flows(_int(w.get("flows")), mean, hops, drawn=True)
    elif kind == "memcache":
        racks = w.get("server_racks")
        if not isinstance(racks, list):
            raise Unestimable("workload.server_racks must be a list")
        caches = [s for s in all_servers if g.racks[s] in racks]
        clients = ids("clients") if w.get("clients") is not None else [s for s in all_servers if s not in set(caches)]
        requests = _int(w.get("requests", 1000))
        hops = g.mean_hops(clients, caches)
        yield Flows(requests, _int(w.get("request_bytes", 100)), hops)
        yield Flows(requests, _int(w.get("response_bytes", 100_000)), hops)
    else:
        raise Unestimable(f"unknown workload type {kind!r}")


def _cdf_mean(cdf: object) -> float:
    if isinstance(cdf, str) and cdf in CDF_MEAN_BYTES:
        return CDF_MEAN_BYTES[cdf]
    points = _dict(cdf).get("points") if isinstance(cdf, dict) else None
    if not isinstance(points, list) or len(points) < 2:
        raise Unestimable("workload.cdf is neither a bundled name nor points")
    if not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, int | float) and not isinstance(x, bool) for x in p)
        for p in points
    ):
        raise Unestimable("workload.cdf.points must be [bytes, percent] pairs")
    return cdf_mean([(float(p[0]), float(p[1])) for p in points])


def cdf_mean(points: Sequence[tuple[float, float]]) -> float:
    """Mean of a CDF given as `(bytes, cumulative percent)` points, sampled by linear interpolation
    in size between points (as the engine samples): each step's share times its midpoint."""
    return sum((p1 - p0) / 100 * (b0 + b1) / 2 for (b0, p0), (b1, p1) in pairwise(points))


def _dict(x: object) -> Mapping[str, Any]:
    if not isinstance(x, dict):
        raise Unestimable("expected an object")
    return x


def _int(x: object) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < 2**63:
        raise Unestimable("expected a whole number from 0 to 2^63 - 1")
    return x


def _positive_int(x: object) -> int:
    value = _int(x)
    if value == 0:
        raise Unestimable("expected a whole number of at least 1")
    return value
