#!/usr/bin/env python3
"""Run Loopline's engine and htsim on the same flows and print FCT, job completion, wall time,
peak memory and events/s side by side (issue 18's accuracy and speed targets).

  python3 sim-engine/compare/compare.py run [--case i|ii|all] [--repeat 3] [--flows 2000]
  python3 sim-engine/compare/compare.py run --scenario FILE        # any engine FatTree scenario
  python3 sim-engine/compare/compare.py export SCENARIO --out DIR  # connection matrix + args only
  HTSIM=/path/to/csg-htsim/sim python3 sim-engine/compare/compare.py build-htsim

HTSIM is htsim's built `sim` directory (libhtsim.a and datacenter/*.o); without it only the
engine runs. LOOPLINE_SIM overrides the engine binary. Python 3 standard library only.
See README.md beside this file.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENGINE_DIR = HERE.parent
DEFAULT_ENGINE = ENGINE_DIR / "target" / "release" / "loopline-sim"
DRIVER_SRC = HERE / "htsim_tcp_cm.cpp"
DRIVER_NAME = "htsim_tcp_cm"
# htsim's datacenter objects that htsim_tcp links (connection_matrix.o needs the other topologies).
HTSIM_OBJECTS = [
    "firstfit.o",
    "vl2_topology.o",
    "dragon_fly_topology.o",
    "fat_tree_topology.o",
    "fat_tree_switch.o",
    "bcube_topology.o",
    "connection_matrix.o",
    "oversubscribed_fat_tree_topology.o",
    "shortflows.o",
    "star_topology.o",
    "multihomed_fat_tree_topology.o",
]

# Packet-mode settings matched to htsim's TCP (see /README.md "Settings"): a data packet is 1500
# bytes on the wire and htsim counts no header, a TCP ACK is 40 bytes, 100-packet drop-tail ports,
# initial window 10 packets, htsim's hard-coded 250 ms minimum RTO.
PACKET_SETTINGS: dict[str, Any] = {
    "transport": "newreno",
    "mtu_bytes": 1500,
    "header_bytes": 0,
    "ack_bytes": 40,
    "buffer_bytes": 150_000,
    "switch_latency_ns": 0,
    # htsim's TcpSrc counts the SYN-ACK as a new ACK in slow start (inflate_window adds one MSS),
    # so its default `_cwnd` of 10 packets sends 11 in the first flight: the engine's window is
    # the first flight, and htsim gets `-cwnd` one less (htsim_args)
    "initial_window_packets": 11,
    "initial_ssthresh_packets": 100,  # TcpSrc default _ssthresh
    "rto_min_ms": 250.0,
    "rto_initial_ms": 3000.0,  # TcpSrc's _rto before the first sample: a lost SYN costs 3 s
    "rto_scan_ms": 10.0,  # TcpRtxTimerScanner period in the driver
    "tie_order": "scheduled",  # same-time events in scheduling order, as htsim's event list
    "host_queue": "fair",  # htsim's host queue: ACKs first, then flows in turn
    "whole_packets": True,  # htsim sends only full packets: a flow's last one is padded
}
HOP_LATENCY_NS = 1000  # htsim FatTree's default per-link Pipe latency
LINE_RATE_GBPS = 10.0
TARGET_MEAN = 0.10
TARGET_P99 = 0.20
TARGET_SPEEDUP = 2.0

MASK32 = (1 << 32) - 1
MASK64 = (1 << 64) - 1
PCG_MUL = 6364136223846793005


# ---------------------------------------------------------------------------------------------
# The engine's workload generator, in Python (sim-engine/src/rng.rs, src/workload/mod.rs,
# src/model/cdf.rs): the same seed gives the same flows. `check_flows` compares the result's
# per-server byte counts with this list, so a drift in the engine is caught, not silently compared.


def splitmix64(z: int) -> int:
    z = (z + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Rng:
    """PCG-XSH-RR 64/32, as sim-engine/src/rng.rs."""

    def __init__(self, seed: int, stream: int) -> None:
        self.state = 0
        self.inc = ((stream << 1) | 1) & MASK64
        self.next_u32()
        self.state = (self.state + splitmix64(seed)) & MASK64
        self.next_u32()

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * PCG_MUL + self.inc) & MASK64
        x = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((x >> rot) | (x << ((32 - rot) % 32))) & MASK32

    def next_u64(self) -> int:
        return (self.next_u32() << 32) | self.next_u32()

    def next_f64(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def below(self, n: int) -> int:
        return (self.next_u64() * n) >> 64

    def exp(self, mean: float) -> float:
        return -math.log(1.0 - self.next_f64()) * mean

    def shuffle(self, v: list[str]) -> None:
        for i in range(len(v) - 1, 0, -1):
            j = self.below(i + 1)
            v[i], v[j] = v[j], v[i]


def round_half_away(x: float) -> int:
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def secs_to_ps(s: float) -> int:
    return 0 if s <= 0 or math.isnan(s) else round_half_away(s * 1e12)


class Cdf:
    """Piecewise-linear flow-size CDF (points in bytes, cumulative percent)."""

    def __init__(self, points: list[tuple[float, float]]) -> None:
        self.points = [(b, p / 100.0) for b, p in points]

    @staticmethod
    def bundled(name: str) -> Cdf:
        pts: list[tuple[float, float]] = []
        for line in (ENGINE_DIR / "data" / f"{name}.txt").read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                b, p = line.split()[:2]
                pts.append((float(b), float(p)))
        return Cdf(pts)

    def mean(self) -> float:
        pts = self.points
        m = pts[0][0] * pts[0][1]
        for (b0, p0), (b1, p1) in itertools.pairwise(pts):
            m += (p1 - p0) * (b0 + b1) / 2.0
        return m

    def sample(self, rng: Rng) -> int:
        u = rng.next_f64()
        pts = self.points
        size = pts[-1][0]
        if u < pts[0][1]:
            size = pts[0][0]
        else:
            for (b0, p0), (b1, p1) in itertools.pairwise(pts):
                if u < p1:
                    size = b0 + (u - p0) / (p1 - p0) * (b1 - b0)
                    break
        return max(round_half_away(size), 1)


@dataclass(frozen=True)
class Flow:
    src: str
    dst: str
    bytes: int
    start_ps: int


def servers_of(scenario: dict[str, Any]) -> list[str]:
    return [str(n["id"]) for n in scenario["network"]["nodes"] if n.get("role") == "server"]


def _distinct_pair(rng: Rng, servers: list[str]) -> tuple[str, str]:
    n = len(servers)
    a = rng.below(n)
    b = rng.below(n - 1)
    if b >= a:
        b += 1
    return servers[a], servers[b]


def _server_nic_gbps(scenario: dict[str, Any], server: str, is_server: set[str]) -> float:
    total = 0.0
    for link in scenario["network"]["links"]:
        ends = (link["a"], link["b"])
        if server in ends and ends[1 - ends.index(server)] not in is_server:
            total += float(link["gbps"])
    return total


def generate_flows(scenario: dict[str, Any]) -> list[Flow]:
    """The flows `loopline-sim run` simulates for this scenario (workload types with a plain
    flow list: permutation, poisson, random, shuffle, all_to_all), in the engine's order."""
    w = scenario["workload"]
    seed = int(scenario.get("engine", {}).get("seed", 1))
    rng = Rng(seed, 0x574C)
    all_servers = servers_of(scenario)
    servers = [str(s) for s in w["servers"]] if w.get("servers") else all_servers
    kind = w["type"]
    flows: list[Flow] = []
    if kind == "permutation":
        order = list(servers)
        rng.shuffle(order)
        flows = [Flow(order[i], order[(i + 1) % len(order)], int(w["bytes"]), 0) for i in range(len(order))]
    elif kind == "poisson":
        if w.get("inter_rack_only"):
            raise SystemExit("compare: poisson with inter_rack_only is not supported by the exporter")
        cdf_spec = w["cdf"]
        cdf = Cdf.bundled(cdf_spec) if isinstance(cdf_spec, str) else Cdf([tuple(p) for p in cdf_spec["points"]])
        is_server = set(all_servers)
        cap_bits = 0.0
        for s in servers:
            cap_bits += _server_nic_gbps(scenario, s, is_server) * 1e9
        rate = float(w["load"]) * cap_bits / (cdf.mean() * 8.0)
        t = 0.0
        for _ in range(int(w["flows"])):
            t += rng.exp(1.0 / rate)
            a, b = _distinct_pair(rng, servers)
            flows.append(Flow(a, b, cdf.sample(rng), secs_to_ps(t)))
    elif kind == "random":
        t = 0.0
        rate = w.get("rate_per_s")
        for _ in range(int(w["flows"])):
            if rate is not None:
                t += rng.exp(1.0 / float(rate))
            a, b = _distinct_pair(rng, servers)
            flows.append(Flow(a, b, int(w["bytes"]), secs_to_ps(t)))
    elif kind in ("shuffle", "all_to_all"):
        size = int(w["bytes_per_pair"] if kind == "shuffle" else w["bytes"])
        start = secs_to_ps(float(w.get("start_s", 0.0))) if kind == "shuffle" else 0
        flows = [Flow(a, b, size, start) for a in servers for b in servers if a != b]
    elif kind == "many_to_many":
        per_pair = int(w.get("flows_per_pair", 1))
        flows = [
            Flow(str(a), str(b), int(w["bytes"]), 0)
            for a in w["senders"]
            for b in w["receivers"]
            if a != b
            for _ in range(per_pair)
        ]
    else:
        raise SystemExit(f"compare: workload type {kind!r} has no plain flow list to export")
    # The engine simulates roots in (arrival, index) order; keep the generation order here.
    return flows


def check_flows(flows: list[Flow], result: dict[str, Any]) -> list[str]:
    """Differences between the exported flows and the engine's own `flow_records` (src, dst,
    bytes, start to the picosecond), or, from an engine without them, its flow count."""
    records = result.get("flow_records")
    if records is None:
        total = int(result["flows"]["total"])
        return [] if total == len(flows) else [f"engine has {total} flows, exporter {len(flows)}"]
    if len(records) != len(flows):
        return [f"engine has {len(records)} flows, exporter {len(flows)}"]
    problems = []
    for rec, f in zip(records, flows, strict=True):
        if (rec["src"], rec["dst"], int(rec["bytes"])) != (f.src, f.dst, f.bytes) or abs(
            float(rec["start_s"]) * 1e12 - f.start_ps
        ) > 1.0:
            problems.append(f"flow {rec['index']}: engine {rec} exporter {f}")
    return problems


# ---------------------------------------------------------------------------------------------
# Export: htsim connection matrix and FatTree arguments.

FATTREE_SERVER = re.compile(r"^P(\d+)\.E(\d+)\.S(\d+)$")


@dataclass
class HtsimTopology:
    k: int
    nodes: int
    linkspeed_mbps: int
    hop_latency_ns: int
    host_index: dict[str, int] = field(default_factory=dict)


def fattree_topology(scenario: dict[str, Any]) -> HtsimTopology:
    """htsim's FatTree for an engine FatTree: host P{p}.E{e}.S{s} is htsim host
    p*(k/2)^2 + e*(k/2) + s (htsim hangs hosts tor*(k/2).. under ToR tor, ToR pod*(k/2)..)."""
    servers = servers_of(scenario)
    k = round((4 * len(servers)) ** (1 / 3))
    if k * k * k // 4 != len(servers) or k % 2:
        raise SystemExit(f"compare: {len(servers)} servers is not a k-ary FatTree (k^3/4 hosts)")
    half = k // 2
    index: dict[str, int] = {}
    for s in servers:
        m = FATTREE_SERVER.match(s)
        if not m:
            raise SystemExit(f"compare: server {s!r} is not named like `loopline-sim gen fattree` (P<p>.E<e>.S<s>)")
        p, e, srv = (int(x) for x in m.groups())
        if p >= k or e >= half or srv >= half:
            raise SystemExit(f"compare: server {s!r} is outside a k={k} FatTree")
        index[s] = p * half * half + e * half + srv
    links = scenario["network"]["links"]
    speeds = {float(link["gbps"]) for link in links}
    latencies = {int(link.get("latency_ns", 0)) for link in links}
    if len(speeds) != 1 or len(latencies) != 1:
        raise SystemExit("compare: htsim's FatTree needs one link speed and one latency for every link")
    return HtsimTopology(k, len(servers), round(speeds.pop() * 1000), latencies.pop(), index)


def flow_hash(seed: int, flow: int) -> int:
    """The engine's per-flow ECMP hash (sim-engine/src/routing/mod.rs `flow_hash`)."""
    rotated = ((seed << 17) | (seed >> 47)) & MASK64
    return splitmix64(rotated ^ ((flow * 0xD1B54A32D192ED03) & MASK64))


@dataclass
class EnginePaths:
    """Each flow's path as htsim's FatTree numbers it (index into `get_bidir_paths`), and the
    directed links it uses (to check against the engine's per-link bytes)."""

    index: list[int]
    links: list[list[tuple[str, str]]]


def engine_ecmp_paths(scenario: dict[str, Any], flows: list[Flow], topo: HtsimTopology) -> EnginePaths:
    """The path the engine's per-flow ECMP walk (src/routing/updown.rs) gives each flow on a
    `gen fattree` network: at hop h it takes equal-cost next hop splitmix64(hash ^ h*0x9e3779b9)
    mod count, next hops in link order. htsim lists a pod's paths agg by agg, and an agg's
    cores in order (agg a reaches cores a, a + k/2, ...: the engine's C{a*k/2 + j} is htsim's
    l = j), so the engine's (agg a, core j) is htsim path a*(k/2) + j; within a pod, path a."""
    role = {str(n["id"]): str(n.get("role")) for n in scenario["network"]["nodes"]}
    neighbours: dict[str, list[str]] = {}
    for link in scenario["network"]["links"]:
        neighbours.setdefault(link["a"], []).append(link["b"])
        neighbours.setdefault(link["b"], []).append(link["a"])
    seed = int(scenario.get("engine", {}).get("seed", 1))
    half = topo.k // 2
    out = EnginePaths([], [])

    def up(node: str, kind: str) -> list[str]:
        return [n for n in neighbours[node] if role[n] == kind]

    for i, f in enumerate(flows):
        h = flow_hash(seed, i)
        src_tor, dst_tor = up(f.src, "tor")[0], up(f.dst, "tor")[0]
        links = [(f.src, src_tor)]
        if src_tor == dst_tor:
            index = 0
        else:
            aggs = up(src_tor, "agg")
            agg = aggs[splitmix64(h ^ 0x9E3779B9) % len(aggs)]
            a = int(agg.rsplit(".A", 1)[1])
            links.append((src_tor, agg))
            if agg.split(".")[0] == dst_tor.split(".")[0]:
                index = a
                links.append((agg, dst_tor))
            else:
                cores = up(agg, "core")
                j = splitmix64(h ^ (2 * 0x9E3779B9)) % len(cores)
                index = a * half + j
                dst_agg = next(n for n in neighbours[cores[j]] if n.split(".")[0] == dst_tor.split(".")[0])
                links += [(agg, cores[j]), (cores[j], dst_agg), (dst_agg, dst_tor)]
        links.append((dst_tor, f.dst))
        out.index.append(index)
        out.links.append(links)
    return out


def check_paths(flows: list[Flow], paths: EnginePaths, result: dict[str, Any]) -> list[str]:
    """Directed links whose bytes in the engine's flow-mode result differ from the ported
    paths' (every flow finished: each link carries exactly its flows' bytes)."""
    expected: dict[tuple[str, str], float] = {}
    for f, links in zip(flows, paths.links, strict=True):
        for hop in links:
            expected[hop] = expected.get(hop, 0.0) + f.bytes
    links_obj = result.get("links", {})
    records = links_obj.get("links", []) if isinstance(links_obj, dict) else links_obj
    problems = []
    for rec in records:
        hop = (str(rec["from"]), str(rec["to"]))
        mine = expected.get(hop, 0.0)
        # the fluid result integrates rates: a few bytes of rounding, never a whole moved flow
        if abs(float(rec["bytes"]) - mine) > 64 + 1e-5 * mine:
            problems.append(f"{hop[0]}->{hop[1]}: engine {rec['bytes']} bytes, ported paths {mine}")
    return problems


def connection_matrix(flows: list[Flow], topo: HtsimTopology) -> str:
    """htsim's connection-matrix text: `src->dst id N start <picoseconds> size <bytes>`."""
    lines = [f"Nodes {topo.nodes}", f"Connections {len(flows)}"]
    for i, f in enumerate(flows):
        lines.append(f"{topo.host_index[f.src]}->{topo.host_index[f.dst]} id {i + 1} start {f.start_ps} size {f.bytes}")
    return "\n".join(lines) + "\n"


def htsim_args(topo: HtsimTopology, packet: dict[str, Any], seed: int) -> list[str]:
    mtu = int(packet["mtu_bytes"])
    payload = mtu - int(packet["header_bytes"])
    return [
        "-nodes", str(topo.nodes),
        "-linkspeed", str(topo.linkspeed_mbps),
        "-q", str(int(packet["buffer_bytes"]) // mtu),
        "-mtu", str(mtu),
        "-payload", str(payload),
        "-hop_latency_ns", str(topo.hop_latency_ns),
        "-cwnd", str(htsim_cwnd(packet)),
        *(["-ssthresh", str(int(packet["initial_ssthresh_packets"]))]
          if packet.get("initial_ssthresh_packets") else []),
        *(["-rto_scan_ms", str(float(packet["rto_scan_ms"]))] if packet.get("rto_scan_ms") else []),
        "-seed", str(seed),
    ]  # fmt: skip


def htsim_cwnd(packet: dict[str, Any]) -> int:
    """htsim's `-cwnd` for the engine's first flight: with the handshake, htsim's SYN-ACK adds
    one MSS in slow start (tcp.cpp inflate_window), so one less."""
    iw = int(packet["initial_window_packets"])
    return max(1, iw - 1) if packet.get("handshake", True) else iw


# ---------------------------------------------------------------------------------------------
# Scenarios (i) and (ii).


def engine_binary(mode: str = "packet") -> Path:
    """LOOPLINE_SIM (e.g. the packet branch's build), else this tree's release build; flow mode
    may use another build through LOOPLINE_SIM_FLOW."""
    chosen = os.environ.get("LOOPLINE_SIM_FLOW") if mode == "flow" else None
    return Path(chosen or os.environ.get("LOOPLINE_SIM") or DEFAULT_ENGINE)


def supports(binary: Path, scenario_field: str) -> bool:
    out = subprocess.run([str(binary), "schema", "scenario"], capture_output=True, text=True)
    return f'"{scenario_field}"' in out.stdout


def generate(args: list[str]) -> dict[str, Any]:
    out = subprocess.run([str(engine_binary()), "gen", *args], check=True, capture_output=True, text=True)
    scenario = json.loads(out.stdout)
    assert isinstance(scenario, dict)
    return scenario


def prepare(scenario: dict[str, Any], name: str) -> dict[str, Any]:
    """Matched settings: 1 us links (htsim's FatTree default), no link series, seed kept."""
    for link in scenario["network"]["links"]:
        link["latency_ns"] = HOP_LATENCY_NS
    scenario["name"] = name
    scenario.setdefault("engine", {})["link_series"] = False
    return scenario


def case_scenario(case: str, flows: int) -> dict[str, Any]:
    if case == "i":
        sc = generate(["fattree", "--k", "16", "--gbps", str(LINE_RATE_GBPS), "--flows", "1"])
        sc["workload"] = {"type": "permutation", "bytes": 2_000_000}
        return prepare(sc, "(i) FatTree k=16 10G permutation 2 MB, per-flow ECMP")
    sc = generate(["fattree", "--k", "8", "--gbps", str(LINE_RATE_GBPS), "--load", "0.4", "--flows", str(flows)])
    return prepare(sc, f"(ii) FatTree k=8 (128 hosts) 10G web search Poisson 40% load, {flows} flows")


def with_mode(scenario: dict[str, Any], mode: str, packet: dict[str, Any]) -> dict[str, Any]:
    sc: dict[str, Any] = json.loads(json.dumps(scenario))
    engine = sc.setdefault("engine", {})
    engine["mode"] = mode
    if mode == "packet":
        engine["packet"] = dict(packet)
    else:
        engine.pop("packet", None)
        if supports(engine_binary("flow"), "flow_records"):
            engine["flow_records"] = True  # to check the exported flows against the engine's
    return sc


# ---------------------------------------------------------------------------------------------
# Running and measuring.


@dataclass
class Measured:
    """One side's figures (FCT in seconds)."""

    label: str
    count: int = 0
    finished: int = 0
    mean: float | None = None
    p50: float | None = None
    p99: float | None = None
    max: float | None = None
    job_completion_s: float | None = None
    wall_s: list[float] = field(default_factory=list)
    peak_kb: list[int] = field(default_factory=list)
    events: int | None = None
    drops: int | None = None
    timeouts: int | None = None
    note: str = ""

    @property
    def wall(self) -> float | None:
        return statistics.median(self.wall_s) if self.wall_s else None

    @property
    def peak_mb(self) -> float | None:
        return statistics.median(self.peak_kb) / 1024 if self.peak_kb else None

    @property
    def events_per_s(self) -> float | None:
        return self.events / self.wall if self.events is not None and self.wall else None


def nearest_rank_stats(values: list[float]) -> tuple[float, float, float, float]:
    """mean, p50, p99, max with the engine's nearest ranks (ceil(n/2)-th, ceil(0.99 n)-th)."""
    v = sorted(values)
    n = len(v)
    return sum(v) / n, v[math.ceil(0.5 * n) - 1], v[math.ceil(0.99 * n) - 1], v[-1]


def timed(cmd: list[str], stdout_path: Path) -> tuple[int, float, int, str]:
    """Run cmd; (exit code, wall seconds, peak RSS in kB from wait4, stderr text)."""
    with stdout_path.open("w") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return proc.returncode, wall, int(usage.ru_maxrss), err.read()


def run_engine(scenario: dict[str, Any], label: str, work: Path, repeat: int) -> tuple[Measured, dict[str, Any]]:
    m = Measured(label)
    tag = label.split()[-1]
    binary = engine_binary(tag)
    path = work / f"{tag}.scenario.json"
    path.write_text(json.dumps(scenario))
    result: dict[str, Any] = {}
    for _ in range(repeat):
        out = work / f"{tag}.result.json"
        code, wall, rss, err = timed([str(binary), "run", str(path), "-o", str(out)], work / f"{tag}.stdout")
        if code != 0:
            m.note = f"engine exit {code}: {err.strip().splitlines()[-1] if err.strip() else ''}"
            return m, {}
        result = json.loads(out.read_text())
        m.wall_s.append(wall)
        # VmHWM as the engine reports it (wait4's maxrss keeps the forking Python's pages).
        peak = result.get("run_info", {}).get("peak_memory_bytes")
        m.peak_kb.append(int(peak) // 1024 if peak else rss)
    fct = result["flows"]["fct_s"]
    m.count = int(result["flows"]["total"])
    m.finished = int(result["flows"]["finished"])
    m.mean, m.p50, m.p99, m.max = fct["mean"], fct["p50"], fct["p99"], fct["max"]
    m.job_completion_s = result.get("job_completion_s")
    m.events = result.get("events_processed")
    packet_stats = result.get("packet") or {}
    m.drops, m.timeouts = packet_stats.get("drops"), packet_stats.get("timeouts")
    return m, result


def htsim_dir() -> Path | None:
    value = os.environ.get("HTSIM")
    return Path(value) if value else None


def build_htsim(sim: Path) -> Path:
    """Compile the driver against htsim's built library (outside this repository)."""
    dc = sim / "datacenter"
    if not (sim / "libhtsim.a").exists() or not all((dc / o).exists() for o in HTSIM_OBJECTS):
        raise SystemExit(f"compare: build htsim first: cd {sim} && make libhtsim.a && cd datacenter && make htsim_tcp")
    binary = dc / DRIVER_NAME
    if binary.exists() and binary.stat().st_mtime >= DRIVER_SRC.stat().st_mtime:
        return binary
    cmd = ["g++", "-O2", "-std=c++11", f"-I{sim}", f"-I{dc}", str(DRIVER_SRC)]
    cmd += [str(dc / o) for o in HTSIM_OBJECTS] + [f"-L{sim}", "-lhtsim", "-o", str(binary)]
    print("compare: building", binary, file=sys.stderr)
    subprocess.run(cmd, check=True)
    return binary


def run_htsim(
    binary: Path,
    flows: list[Flow],
    topo: HtsimTopology,
    packet: dict[str, Any],
    seed: int,
    work: Path,
    repeat: int,
    paths: list[int] | None,
) -> Measured:
    m = Measured("htsim")
    cm = work / "htsim.cm"
    cm.write_text(connection_matrix(flows, topo))
    fct_path = work / "htsim.fct"
    cmd = [str(binary), "-tm", str(cm), "-fct", str(fct_path), *htsim_args(topo, packet, seed)]
    if paths is not None:
        (work / "htsim.paths").write_text("".join(f"{p}\n" for p in paths))
        cmd += ["-paths", str(work / "htsim.paths")]
    (work / "htsim.cmd").write_text(" ".join(cmd) + "\n")
    summary: dict[str, str] = {}
    for _ in range(repeat):
        code, wall, rss, err = timed(cmd, work / "htsim.stdout")
        if code != 0:
            m.note = f"htsim exit {code}: {err.strip()[-300:]}"
            return m
        m.wall_s.append(wall)
        for line in (work / "htsim.stdout").read_text().splitlines():
            if line.startswith("LOOPLINE "):
                _, key, value = line.split()
                summary[key] = value
        m.peak_kb.append(int(summary.get("vmhwm_kb", rss)))  # the driver's own VmHWM
    m.events = int(summary["events"])
    m.drops = int(summary["switch_drops"]) if "switch_drops" in summary else None
    m.timeouts = int(summary["timeouts"]) if "timeouts" in summary else None
    m.count, m.finished, m.mean, m.p50, m.p99, m.max, m.job_completion_s = parse_fct(fct_path.read_text())
    return m


def parse_fct(text: str) -> tuple[int, int, float | None, float | None, float | None, float | None, float | None]:
    """count, finished, mean, p50, p99, max, job completion from the driver's -fct lines
    `id src dst bytes packets start_ps finish_ps` (finish -1: unfinished)."""
    fcts: list[float] = []
    last = 0
    count = 0
    unfinished = False
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 7:
            continue
        count += 1
        start, finish = int(parts[5]), int(parts[6])
        if finish < 0:
            unfinished = True
            continue
        fcts.append((finish - start) / 1e12)
        last = max(last, finish)
    if not fcts:
        return count, 0, None, None, None, None, None
    mean, p50, p99, mx = nearest_rank_stats(fcts)
    return count, len(fcts), mean, p50, p99, mx, None if unfinished else last / 1e12


# ---------------------------------------------------------------------------------------------
# Report.


def fmt(v: float | None, scale: float = 1.0, digits: int = 3) -> str:
    return "-" if v is None else f"{v * scale:.{digits}f}"


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def report(title: str, sides: list[Measured], check: list[str]) -> list[str]:
    lines = [f"== {title}"]
    head = f"{'':22}" + "".join(f"{s.label:>18}" for s in sides)
    rows: list[tuple[str, list[str]]] = [
        ("flows finished", [f"{s.finished}/{s.count}" for s in sides]),
        ("FCT mean (ms)", [fmt(s.mean, 1e3) for s in sides]),
        ("FCT p50 (ms)", [fmt(s.p50, 1e3) for s in sides]),
        ("FCT p99 (ms)", [fmt(s.p99, 1e3) for s in sides]),
        ("FCT max (ms)", [fmt(s.max, 1e3) for s in sides]),
        ("job completion (ms)", [fmt(s.job_completion_s, 1e3) for s in sides]),
        ("wall, median (s)", [fmt(s.wall, 1, 2) for s in sides]),
        ("peak VmHWM, median (MB)", [fmt(s.peak_mb, 1, 1) for s in sides]),
        ("events", [str(s.events) if s.events is not None else "-" for s in sides]),
        ("events/s (M)", [fmt(s.events_per_s, 1e-6, 2) for s in sides]),
        ("drops", [str(s.drops) if s.drops is not None else "-" for s in sides]),
        ("RTO timeouts", [str(s.timeouts) if s.timeouts is not None else "-" for s in sides]),
    ]
    lines.append(head)
    lines += [f"{name:22}" + "".join(f"{v:>18}" for v in vals) for name, vals in rows]
    for s in sides:
        if len(s.wall_s) > 1:
            runs = ", ".join(f"{w:.2f}" for w in s.wall_s)
            lines.append(f"  {s.label} runs: wall {runs} s; VmHWM {', '.join(str(k // 1024) for k in s.peak_kb)} MB")
        if s.note:
            lines.append(f"  {s.label}: {s.note}")
    lines += [f"  check: {c}" for c in check]
    by = {s.label: s for s in sides}
    ref = by.get("htsim")
    pkt = by.get("engine packet")
    if ref is None or ref.mean is None:
        lines.append("  targets: htsim not run (set HTSIM=/path/to/csg-htsim/sim; see sim-engine/compare/README.md)")
        return lines
    for s in sides:
        if s is ref or s.mean is None:
            continue
        lines.append(
            f"  {s.label} / htsim: mean {fmt(ratio(s.mean, ref.mean))} p50 {fmt(ratio(s.p50, ref.p50))}"
            f" p99 {fmt(ratio(s.p99, ref.p99))} job {fmt(ratio(s.job_completion_s, ref.job_completion_s))}"
            f" wall {fmt(ratio(s.wall, ref.wall))} memory {fmt(ratio(s.peak_mb, ref.peak_mb))}"
        )
    if pkt is None or pkt.mean is None:
        lines.append("  targets: engine packet mode did not run")
        return lines
    checks = [
        ("mean FCT within 10%", abs(pkt.mean / ref.mean - 1) <= TARGET_MEAN),
        ("p99 FCT within 20%", pkt.p99 is not None and ref.p99 and abs(pkt.p99 / ref.p99 - 1) <= TARGET_P99),
        ("2x htsim speed", pkt.wall is not None and ref.wall is not None and ref.wall / pkt.wall >= TARGET_SPEEDUP),
        ("peak memory <= htsim", pkt.peak_mb is not None and ref.peak_mb is not None and pkt.peak_mb <= ref.peak_mb),
    ]
    lines.append("  targets: " + ", ".join(f"{name}: {'MET' if ok else 'NOT MET'}" for name, ok in checks))
    return lines


def run_case(
    title: str, scenario: dict[str, Any], work: Path, repeat: int, packet: dict[str, Any], same_paths: bool = True
) -> list[str]:
    work.mkdir(parents=True, exist_ok=True)
    flows = generate_flows(scenario)
    seed = int(scenario.get("engine", {}).get("seed", 1))
    topo = fattree_topology(scenario)
    sides: list[Measured] = []
    check: list[str] = []
    flow_side, flow_result = run_engine(with_mode(scenario, "flow", packet), "engine flow", work, repeat)
    paths: list[int] | None = None
    if flow_result and scenario.get("routing", {}).get("type") == "ecmp" and same_paths:
        ported = engine_ecmp_paths(scenario, flows, topo)
        wrong = check_paths(flows, ported, flow_result)
        if wrong:
            check.append(f"engine ECMP paths NOT reproduced, htsim draws its own: {wrong[:2]}")
        else:
            paths = ported.index
            check.append("htsim takes the engine's ECMP path for every flow (checked against per-link bytes)")
    if flow_result:
        problems = check_flows(flows, flow_result)
        how = "flow_records" if "flow_records" in flow_result else "flow count only"
        check.append(f"same flows as the engine ({how})" if not problems else f"MISMATCH {problems[:2]}")
    packet_side, _ = run_engine(with_mode(scenario, "packet", packet), "engine packet", work, repeat)
    sides += [packet_side, flow_side]
    sim = htsim_dir()
    if sim is not None:
        sides.insert(0, run_htsim(build_htsim(sim), flows, topo, packet, seed, work, repeat, paths))
    else:
        print(
            "compare: HTSIM is not set, running the engine only. Build htsim outside the repository and set"
            " HTSIM=/path/to/csg-htsim/sim (see sim-engine/compare/README.md).",
            file=sys.stderr,
        )
    return report(title, sides, check)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the cases and print them side by side")
    run.add_argument("--case", choices=["i", "ii", "all"], default="all")
    run.add_argument("--scenario", type=Path, help="an engine FatTree scenario instead of the built-in cases")
    run.add_argument("--flows", type=int, default=2000, help="flows of case (ii) (default 2000)")
    run.add_argument("--repeat", type=int, default=1, help="runs per side; wall and memory are medians")
    run.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "loopline-compare")
    run.add_argument("--packet", type=json.loads, default={}, help="JSON merged into engine.packet")
    run.add_argument(
        "--htsim-ecmp", action="store_true", help="let htsim draw its own ECMP paths instead of the engine's"
    )
    exp = sub.add_parser("export", help="write the htsim connection matrix and arguments of a scenario")
    exp.add_argument("scenario", type=Path)
    exp.add_argument("--out", type=Path, required=True)
    sub.add_parser("build-htsim", help="compile the driver against $HTSIM")
    args = parser.parse_args(argv)

    if args.command == "build-htsim":
        sim = htsim_dir()
        if sim is None:
            raise SystemExit("compare: set HTSIM=/path/to/csg-htsim/sim")
        print(build_htsim(sim))
        return 0
    if args.command == "export":
        scenario = json.loads(args.scenario.read_text())
        topo = fattree_topology(scenario)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "htsim.cm").write_text(connection_matrix(generate_flows(scenario), topo))
        packet = {**PACKET_SETTINGS, **scenario.get("engine", {}).get("packet", {})}
        seed = int(scenario.get("engine", {}).get("seed", 1))
        (args.out / "htsim.args").write_text(" ".join(htsim_args(topo, packet, seed)) + "\n")
        print(args.out / "htsim.cm", args.out / "htsim.args")
        return 0
    packet = {**PACKET_SETTINGS, **args.packet}
    print(f"engine: {engine_binary()} (flow mode: {engine_binary('flow')})  packet settings: {json.dumps(packet)}")
    if args.scenario:
        scenario = json.loads(args.scenario.read_text())
        title = str(scenario.get("name", args.scenario))
        lines = run_case(title, scenario, args.work / "scenario", args.repeat, packet, not args.htsim_ecmp)
        print("\n".join(lines))
        return 0
    for case in ("i", "ii") if args.case == "all" else (args.case,):
        scenario = case_scenario(case, args.flows)
        work = args.work / f"case_{case}"
        print("\n".join(run_case(scenario["name"], scenario, work, args.repeat, packet, not args.htsim_ecmp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
