"""Scenario export (docs/scenario-contract.md): the engine's `network` from a wiring plan, plus a
default scenario, so the topology the simulator sees is the one the cabling team pulls.

Every cable becomes one link (parallel links, e.g. a LAG, stay separate) with its cable ID, its
Gb/s and its latency (hop forwarding + 5 ns/m propagation + any forced RS-FEC).

The workload comes from a preset (`PRESETS`): a traffic pattern in the planner's words, its
parameters and the rack sets it may be given by name. This module is the only builder of a
workload from a preset (single runs, sweeps and the CLI call `workload`), and the preset table is
served to the editor, which draws its form from it. A default that the engine applies itself (incast
`fan_in`, memcache rates and sizes, ...) is the engine's: the table reads it from the engine's
scenario schema (`preset_table`), and a workload built without that parameter leaves the field out,
so the engine applies it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from loopline.domain.errors import DomainError
from loopline.domain.wiring.model import LAYER, Device, Role, WiringPlan

SCHEMA_VERSION = 1
DEFAULT_BYTES_PER_PAIR = 15_000_000


def rank_id(server: str, gpu: int) -> str:
    """Node id of GPU `gpu` (0-based) of the server whose node id is `server`."""
    return f"{server}/gpu{gpu}"


def server_ranks(plan: WiringPlan, server: Device) -> list[str]:
    """The rank ids a server stands for in the scenario: a GPU server's GPUs, GPU 0 first; any other
    server itself."""
    gpu = plan.gpu_servers.get(server.model)
    return [rank_id(server.node_id, i) for i in range(gpu.gpus)] if gpu is not None else [server.node_id]


def interconnect_id(server: str) -> str:
    """Node id of a GPU server's internal GPU interconnect (NVSwitch / NVLink)."""
    return f"{server}/interconnect"


def _server_port(port: str) -> int | None:
    """The NIC port number of a server port named `p<n>` (`wiring.generate.server_port`)."""
    return int(port[1:]) if port[:1] == "p" and port[1:].isdigit() else None


def network_from_plan(plan: WiringPlan) -> dict[str, Any]:
    """The plan's network. A server of a GPU model (`plan.gpu_servers`) is its GPU ranks (role
    `server`, `host` its interconnect node, `rail` i) and one `interconnect` node, each GPU linked to it
    at the catalog's interconnect Gb/s with the plan's hop latency (the catalog gives no figure for the
    interconnect's own); the server's cable on NIC port i+1 ends at GPU i (its compute NIC)."""
    nodes: list[dict[str, Any]] = []
    node_of: dict[str, str] = {}
    gpus_of: dict[str, tuple[str, int]] = {}
    """GPU server device name -> (its node id, its GPUs)."""
    inner: list[dict[str, Any]] = []
    hop = plan.spec.hop_latency_ns
    for d in plan.devices:
        gpu = plan.gpu_servers.get(d.model) if d.role is Role.SERVER else None
        if gpu is not None:
            host = interconnect_id(d.node_id)
            gpus_of[d.name] = (d.node_id, gpu.gpus)
            nodes.append({"id": host, "role": "interconnect", "layer": 1, "cluster": d.cluster, "rack": d.rack})
            for i in range(gpu.gpus):
                rank = rank_id(d.node_id, i)
                gpu_node: dict[str, Any] = {
                    "id": rank,
                    "role": "server",
                    "layer": 0,
                    "cluster": d.cluster,
                    "rack": d.rack,
                }
                if d.logical_rack is not None:
                    gpu_node["logical_rack"] = d.logical_rack
                gpu_node["host"] = host
                gpu_node["rail"] = i
                nodes.append(gpu_node)
                inner.append(
                    {
                        "id": f"{rank}/interconnect",
                        "a": rank,
                        "b": host,
                        "gbps": gpu.interconnect_gbps,
                        "latency_ns": hop,
                    }
                )
            continue
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

    def end(device: str, port: str) -> str:
        ranked = gpus_of.get(device)
        if ranked is None:
            return node_of[device]
        server, gpus = ranked
        n = _server_port(port)
        if n is None or not 1 <= n <= gpus:
            raise DomainError(
                "network",
                f"GPU server {server}: its cable on port {port} has no GPU (NIC ports p1..p{gpus}, GPU i on p<i+1>)",
            )
        return rank_id(server, n - 1)

    links = [
        {
            "id": c.cable_id,
            "a": end(c.a_device, c.a_port),
            "b": end(c.b_device, c.b_port),
            "gbps": c.gbps,
            "latency_ns": c.latency_ns,
        }
        for c in plan.cables
    ]
    return {"nodes": nodes, "links": links + inner}


def logical_racks(plan: WiringPlan) -> list[tuple[str, list[str]]]:
    """The plan's logical racks in layout order, each with its servers' node ids (a GPU server's: its
    GPU ranks, GPU 0 first)."""
    racks: dict[str, list[str]] = {}
    for d in plan.devices:
        if d.role is Role.SERVER and d.logical_rack is not None:
            racks.setdefault(d.logical_rack, []).extend(server_ranks(plan, d))
    return list(racks.items())


# --- presets: the one table of workloads a planner picks, and the one builder of their workloads ----

ParamKind = Literal["integer", "number", "boolean", "choice", "node"]
"""`node`: a node id of the plan's network (a switch to fail, say), chosen from the plan."""
Value = int | float | str | bool
RackSetName = Literal["job", "senders", "receivers", "cache"]


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class EngineDefault:
    """A default the engine applies itself: the `default` of `field` of the workload of type `variant`
    in the engine's scenario schema (`WorkloadSpec`)."""

    variant: str
    field: str


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a preset. Values are in the API's units (`unit`); the form shows them divided
    by `display_scale`, in `display_unit` (bytes as MB, say)."""

    name: str
    label: str
    kind: ParamKind
    help: str
    default: Value | EngineDefault | None = None
    unit: str | None = None
    minimum: float | None = None
    exclusive_minimum: bool = False
    maximum: float | None = None
    choices: tuple[Choice, ...] = ()
    display_unit: str | None = None
    display_scale: float = 1
    step: float = 1
    engine_field: str | None = None
    """Where an engine-owned default was read (`workload.query.fan_in`); None: the preset's own."""
    new_in_engine: bool = False
    """An engine-owned field the engine may not have yet: the served table leaves the parameter out
    until the engine's schema has it (`preset_table`)."""


@dataclass(frozen=True, slots=True)
class RackSet:
    """Racks a preset may be given by name; when given, they replace the counts in `replaces`."""

    name: RackSetName
    label: str
    replaces: tuple[str, ...]
    otherwise: str


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    label: str
    explain: str
    params: tuple[Param, ...]
    rack_sets: tuple[RackSet, ...] = ()
    requires: str | None = None
    """The engine workload type it builds when the engine may not know it yet: the served table
    (`preset_table`) offers the preset only once the engine's schema has that type."""

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


_PLACEMENTS = (Choice("contiguous", "side by side"), Choice("spread", "spread over the hall"))
CDFS = (
    Choice("websearch", "web search"),
    Choice("datamining", "data mining"),
    Choice("hadoop", "hadoop"),
    Choice("cachefollower", "cache"),
    Choice("webserver", "web server"),
)


def _job_racks(minimum: int, default: int, label: str, help: str) -> Param:
    return Param("job_racks", label, "integer", help, default, unit="logical racks", minimum=minimum)


def _bytes(label: str, default: int, display_unit: str, scale: float, step: float, help: str) -> Param:
    return Param(
        "bytes", label, "integer", help, default, unit="bytes", minimum=1, display_unit=display_unit,
        display_scale=scale, step=step,
    )  # fmt: skip


_JOB = _job_racks(
    1, 2, "Logical racks in the job", "The job's logical racks: the first N in layout order, or N spread."
)
_PLACEMENT = Param(
    "placement", "Racks placed", "choice", "The first N racks side by side, or N spread evenly over the hall.",
    "contiguous", choices=_PLACEMENTS,
)  # fmt: skip
_MB = _bytes("MB per flow (per pair)", DEFAULT_BYTES_PER_PAIR, "MB", 1e6, 0.1, "Bytes each flow carries.")
_JOB_SET = RackSet("job", "Racks of the job", ("job_racks", "placement"), "the racks counted above")
_RATE = "rate_per_s"

# GPU jobs (issue 31): ranks are GPUs (a GPU server's ranks, `network_from_plan`), placed by whole servers
_GPUS = Param(
    "gpus", "GPUs in the job (0 = every GPU)", "integer",
    "The job's GPUs, whole servers: packed into the SUs in order, or spread round-robin over the SUs.", 0,
    unit="GPUs", minimum=0,
)  # fmt: skip
_GPU_PLACEMENT = Param(
    "placement", "GPUs placed", "choice",
    "Packed: the job's servers fill one SU after another. Spread: one server from each SU in turn.", "packed",
    choices=(Choice("packed", "packed into SUs"), Choice("spread", "spread over the SUs")),
)  # fmt: skip
_ALGORITHMS = (
    Choice("ring", "ring"),
    Choice("hierarchical", "hierarchical (in the server, per rail across servers, in the server)"),
)
_MODELS = (
    Choice("steps", "steps (a flow per ring step)"),
    Choice("pipelined", "pipelined (a flow per ring edge and phase, as NCCL pipelines; for thousands of GPUs)"),
)


def _model(variant: str) -> Param:
    return Param("model", "Model", "choice", "How the collective's flows are drawn.", EngineDefault(variant, "model"),
                 choices=_MODELS, new_in_engine=True)  # fmt: skip


_FAILED = Param(
    "failed", "Failed switch", "node",
    "A rail leaf or spine of the plan (its node id), down from the start; none: nothing fails.", None,
)  # fmt: skip
GIB = 2**30


PRESETS: tuple[Preset, ...] = (
    Preset(
        "shuffle", "MapReduce shuffle",
        "Every server of a job of N racks sends to every other one at once (mapper to reducer).",
        (_JOB, _PLACEMENT, _MB), (_JOB_SET,),
    ),
    Preset(
        "permutation", "Permutation",
        "Each server of N racks sends one flow to another, chosen at random (no two to the same one).",
        (_JOB, _PLACEMENT, _MB), (_JOB_SET,),
    ),
    Preset(
        "all-to-all", "All-to-all",
        "Every server of N racks sends to every other one, the same amount each way.",
        (_JOB, _PLACEMENT, _MB), (_JOB_SET,),
    ),
    Preset(
        "many-to-many", "Rack to rack",
        "The servers of the first sender racks send to every server of the receiver racks next to them.",
        (
            Param("sender_racks", "Sender logical racks", "integer", "Racks whose servers send.", 1,
                  unit="logical racks", minimum=1),
            Param("receiver_racks", "Receiver logical racks", "integer", "Racks whose servers receive.", 1,
                  unit="logical racks", minimum=1),
            _MB,
        ),
        (
            RackSet("senders", "Sender racks", ("sender_racks",), "the first racks that are not receivers"),
            RackSet("receivers", "Receiver racks", ("receiver_racks",), "the racks after the senders"),
        ),
    ),
    Preset(
        "poisson", "Background traffic",
        "Flow sizes drawn from a measured distribution, arriving at random at a share of the server links.",
        (
            Param("cdf", "Flow sizes from", "choice", "A measured flow-size distribution.", "websearch",
                  choices=CDFS),
            Param("load", "Load (share of server links)", "number", "Offered load, a share of the server links.",
                  0.4, unit="share", minimum=0, exclusive_minimum=True, maximum=1, step=0.05),
            Param("flows", "Flows", "integer", "Flows drawn.", 2000, unit="flows", minimum=1),
            _job_racks(0, 0, "Logical racks (0 = whole hall)", "The first N logical racks; 0: every server."),
            Param("inter_rack_only", "Only between racks", "boolean",
                  "Only flows between servers of different logical racks.",
                  EngineDefault("poisson", "inter_rack_only")),
        ),
        (_JOB_SET,),
    ),
    Preset(
        "incast", "Incast / query",
        "Queries fan in: several servers answer one at once, repeatedly at a rate.",
        (
            Param("fan_in", "Fan-in (servers answering)", "integer", "Servers answering each query.",
                  EngineDefault("query", "fan_in"), unit="servers", minimum=1),
            _bytes("Response KB", 64_000, "KB", 1e3, 1, "Bytes of each answer."),
            Param("queries", "Queries", "integer", "Queries simulated.", EngineDefault("query", "queries"),
                  unit="queries", minimum=1),
            Param(_RATE, "Rate per second", "number", "Queries per second, arriving at random.",
                  EngineDefault("query", _RATE), unit="1/s", minimum=0, exclusive_minimum=True),
        ),
    ),
    Preset(
        "memcache", "Memcache",
        "Clients in the other racks ask cache racks; finds the highest request rate within a latency bound.",
        (
            Param("cache_racks", "Cache logical racks", "integer", "The first N logical racks hold the caches.", 1,
                  unit="logical racks", minimum=1),
            Param("request_bytes", "Request bytes", "integer", "Bytes of each request.",
                  EngineDefault("memcache", "request_bytes"), unit="bytes", minimum=1),
            Param("response_bytes", "Response KB", "integer", "Bytes of each response.",
                  EngineDefault("memcache", "response_bytes"), unit="bytes", minimum=1, display_unit="KB",
                  display_scale=1e3),
            Param(_RATE, "Rate per second", "number", "Requests per second over all clients.",
                  EngineDefault("memcache", _RATE), unit="1/s", minimum=0, exclusive_minimum=True),
            Param("latency_bound_us", "Latency bound (µs)", "number", "Mean latency the highest rate must keep.",
                  EngineDefault("memcache", "latency_bound_us"), unit="µs", minimum=0, exclusive_minimum=True),
        ),
        (RackSet("cache", "Cache racks", ("cache_racks",), "the first racks of the plan"),),
    ),
    Preset(
        "collective", "Collective",
        "A collective among the job's GPUs as NCCL runs it (all-reduce, all-gather, reduce-scatter, all-to-all): "
        "its time and nccl-tests' algorithm and bus bandwidth.",
        (
            Param("op", "Operation", "choice", "The collective, as NCCL names it.", "all_reduce", choices=(
                Choice("all_reduce", "all-reduce"), Choice("all_gather", "all-gather"),
                Choice("reduce_scatter", "reduce-scatter"), Choice("all_to_all", "all-to-all"))),
            Param("algorithm", "Algorithm", "choice",
                  "Ring (all-reduce, all-gather, reduce-scatter), hierarchical (all-reduce) or direct (all-to-all); "
                  "none: the engine's for the operation.", EngineDefault("collective", "algorithm"),
                  choices=(*_ALGORITHMS, Choice("direct", "direct (all-to-all)"))),
            _bytes("Message size (per rank)", GIB, "MiB", 2**20, 1, "nccl-tests' size: bytes per rank."),
            Param("iterations", "Iterations", "integer", "Times the collective runs, back to back.",
                  EngineDefault("collective", "iterations"), unit="iterations", minimum=1),
            _model("collective"),
            Param("skew", "Skew (all-to-all)", "number",
                  "Mixture-of-experts imbalance: the Zipf exponent of the destinations' popularity (0: uniform).",
                  EngineDefault("collective", "skew"), minimum=0, step=0.1, new_in_engine=True),
            _GPUS, _GPU_PLACEMENT,
        ),
    ),
    Preset(
        "training-step", "Training step",
        "Data-parallel training: forward, then backward producing gradient buckets whose all-reduces overlap the "
        "rest of backward (PyTorch DDP); the step time and how much communication is left exposed.",
        (
            _bytes("Gradient size (per GPU)", GIB, "MB", 1e6, 1, "Gradient bytes each GPU all-reduces per step."),
            Param("bucket_bytes", "Bucket size", "integer",
                  "Gradient bytes per bucket (DDP's bucket_cap_mb); each bucket's all-reduce starts when it is ready.",
                  EngineDefault("training_step", "bucket_bytes"), unit="bytes", minimum=1, display_unit="MB",
                  display_scale=1e6),
            Param("forward_s", "Forward time", "number", "Forward pass compute time per step.", 0.05, unit="s",
                  minimum=0, step=0.01),
            Param("backward_s", "Backward time", "number",
                  "Backward pass compute time per step (about twice the forward: it computes the gradients of both "
                  "activations and weights).", 0.1, unit="s", minimum=0, step=0.01),
            Param("iterations", "Iterations", "integer", "Training steps simulated.",
                  EngineDefault("training_step", "iterations"), unit="iterations", minimum=1),
            Param("algorithm", "All-reduce algorithm", "choice", "How each bucket is all-reduced.",
                  EngineDefault("training_step", "algorithm"), choices=_ALGORITHMS),
            _model("training_step"),
            _GPUS, _GPU_PLACEMENT, _FAILED,
        ),
        requires="training_step",
    ),
)  # fmt: skip
WORKLOADS = tuple(p.name for p in PRESETS)
_BY_NAME = {p.name: p for p in PRESETS}


def preset_of(name: str, field: str = "preset") -> Preset:
    found = _BY_NAME.get(name)
    if found is None:
        raise DomainError(field, f"unknown workload {name!r} (one of {', '.join(WORKLOADS)})")
    return found


def engine_defaults(schema: Mapping[str, Any]) -> dict[tuple[str, str], Value | None]:
    """Every workload field's `default` in the engine's scenario schema, by (type, field); None where
    the schema gives none (the engine then says its default only in words)."""
    out: dict[tuple[str, str], Value | None] = {}
    for variant in schema["definitions"]["WorkloadSpec"]["oneOf"]:
        props = variant["properties"]
        kind = props["type"]["enum"][0]
        for name, spec in props.items():
            if name != "type":
                out[kind, name] = spec.get("default")
    return out


def preset_table(schema: Mapping[str, Any]) -> tuple[Preset, ...]:
    """The presets with every engine-owned default read from the engine's scenario schema."""
    found = engine_defaults(schema)
    known = {kind for kind, _ in found}

    def resolve(p: Param) -> Param:
        if not isinstance(p.default, EngineDefault):
            return p
        key = (p.default.variant, p.default.field)
        if key not in found:
            raise DomainError("engine", f"the engine's schema has no workload field {key[0]}.{key[1]}")
        return replace(p, default=found[key], engine_field=f"workload.{key[0]}.{key[1]}")

    def offered(p: Param) -> bool:
        d = p.default
        return not (p.new_in_engine and isinstance(d, EngineDefault) and (d.variant, d.field) not in found)

    return tuple(
        replace(pr, params=tuple(resolve(p) for p in pr.params if offered(p)))
        for pr in PRESETS
        if pr.requires is None or pr.requires in known
    )


def _dotted(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _checked(p: Param, value: Any, field: str) -> Value:
    if p.kind == "node":
        if not isinstance(value, str) or not value:
            raise DomainError(field, "must be a node id of the plan")
        return value
    if p.kind == "boolean":
        if not isinstance(value, bool):
            raise DomainError(field, "must be true or false")
        return value
    if p.kind == "choice":
        options = [c.value for c in p.choices]
        if value not in options:
            raise DomainError(field, f"must be one of {', '.join(options)}, got {value!r}")
        return str(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DomainError(field, "must be a whole number" if p.kind == "integer" else "must be a number")
    if p.kind == "integer" and not (isinstance(value, int) or value.is_integer()):
        raise DomainError(field, f"must be a whole number, got {value}")
    number: int | float = int(value) if p.kind == "integer" else float(value)
    if p.minimum is not None and (number <= p.minimum if p.exclusive_minimum else number < p.minimum):
        raise DomainError(field, f"must be {'more than' if p.exclusive_minimum else 'at least'} {p.minimum:g}")
    if p.maximum is not None and number > p.maximum:
        raise DomainError(field, f"must be at most {p.maximum:g}")
    return number


def preset_params(preset: Preset, given: Mapping[str, Any] | None, where: str = "params") -> dict[str, Value | None]:
    """Every parameter of the preset: the value given (checked: kind, bounds), else the preset's
    default; None for an engine-owned one not given (the workload then leaves it to the engine).
    A name the preset does not take is refused."""
    given = given or {}
    for name in given:
        if preset.param(name) is None:
            names = ", ".join(p.name for p in preset.params)
            raise DomainError(_dotted(where, name), f"not a parameter of {preset.name} (it takes {names})")
    out: dict[str, Value | None] = {}
    for p in preset.params:
        value = given.get(p.name)
        if value is not None:
            out[p.name] = _checked(p, value, _dotted(where, p.name))
        else:
            out[p.name] = None if isinstance(p.default, EngineDefault) else p.default
    return out


Rack = tuple[str, list[str]]


def _counted(racks: list[Rack], n: int, placement: Any, field: str) -> list[Rack]:
    """`n` of the plan's racks: the first n, or n spread evenly (first and last included when n > 1)."""
    if n < 1 or n > len(racks):
        raise DomainError(field, f"needs 1..{len(racks)} logical racks (the layout has {len(racks)}), got {n}")
    if placement != "spread" or n == 1:
        return racks[:n]
    step = (len(racks) - 1) / (n - 1)
    return [racks[math.floor(i * step + 0.5)] for i in range(n)]


def _named(racks: list[Rack], names: Sequence[str], field: str) -> list[Rack]:
    by_name = dict(racks)
    out: list[Rack] = []
    for i, name in enumerate(names):
        if name not in by_name:
            raise DomainError(f"{field}[{i}]", f"rack {name} is not in this plan")
        if name in names[:i]:
            raise DomainError(f"{field}[{i}]", f"rack {name} is chosen twice")
        out.append((name, by_name[name]))
    return out


def _servers(racks: list[Rack]) -> list[str]:
    return [s for _, ss in racks for s in ss]


def _given(out: dict[str, Any], **fields: Value | None) -> dict[str, Any]:
    """The workload with the fields given; one left None is the engine's default, so it is left out."""
    out.update({k: v for k, v in fields.items() if v is not None})
    return out


def workload(
    plan: WiringPlan,
    kind: str,
    params: Mapping[str, Any] | None = None,
    racks: Mapping[str, Sequence[str]] | None = None,
    *,
    where: str = "params",
) -> dict[str, Any]:
    """The engine workload of preset `kind` over the plan's logical racks (in layout order): its
    `params` (checked, defaults filled: `preset_params`) and, for the rack sets it takes, racks chosen
    by name (`racks`: set -> logical rack names; an empty or missing set falls back to the counts).
    Errors name `<where>.<param>` or `racks.<set>[i]`."""
    preset = preset_of(kind)
    p = preset_params(preset, params, where)
    chosen: dict[str, list[Rack]] = {}
    all_racks = logical_racks(plan)
    taken = {s.name for s in preset.rack_sets}
    for name, names in (racks or {}).items():
        if name not in taken:
            sets = ", ".join(sorted(taken)) or "none"
            raise DomainError(f"racks.{name}", f"{kind} takes no such rack set (it takes: {sets})")
        if names:
            chosen[name] = _named(all_racks, names, f"racks.{name}")

    def job() -> list[Rack]:
        if "job" in chosen:
            return chosen["job"]
        return _counted(all_racks, int(p["job_racks"] or 0), p.get("placement"), _dotted(where, "job_racks"))

    if kind in ("shuffle", "permutation", "all-to-all"):
        servers = _servers(job())
        if kind == "shuffle":
            if len(servers) < 2:
                raise DomainError("workload.servers", "a shuffle needs at least two servers")
            return {"type": "shuffle", "servers": servers, "bytes_per_pair": p["bytes"]}
        return {"type": kind.replace("-", "_"), "servers": servers, "bytes": p["bytes"]}
    if kind == "many-to-many":
        return _many_to_many(all_racks, chosen, p, where)
    if kind == "poisson":
        out: dict[str, Any] = {"type": "poisson", "cdf": p["cdf"], "load": p["load"], "flows": p["flows"]}
        if "job" in chosen or p["job_racks"]:
            out["servers"] = _servers(job())
        if p["inter_rack_only"]:
            out["inter_rack_only"] = True
        return out
    if kind == "incast":
        # repeated fan-ins at a rate: the engine's `query` (its `incast` is the same with one query)
        return _given({"type": "query"}, fan_in=p["fan_in"], response_bytes=p["bytes"], queries=p["queries"],
                      rate_per_s=p[_RATE])  # fmt: skip
    if kind in ("collective", "training-step"):
        ranks = gpu_job(plan, int(p["gpus"] or 0), str(p["placement"]), _dotted(where, "gpus"))
        if kind == "collective":
            # a form sends every field: a uniform skew (0) on an op without one is left out, a real one the
            # engine refuses, naming it
            skew = p["skew"] if p["op"] == "all_to_all" or p["skew"] else None
            return _given({"type": "collective", "op": p["op"], "servers": ranks, "bytes": p["bytes"]},
                          algorithm=p["algorithm"], iterations=p["iterations"], model=p["model"],
                          skew=skew)  # fmt: skip
        return _given(
            {"type": "training_step", "servers": ranks, "gradient_bytes": p["bytes"], "forward_s": p["forward_s"],
             "backward_s": p["backward_s"]},
            bucket_bytes=p["bucket_bytes"], iterations=p["iterations"], algorithm=p["algorithm"], model=p["model"],
        )  # fmt: skip
    assert kind == "memcache"
    cache = chosen.get("cache")
    n = len(cache) if cache else int(p["cache_racks"] or 0)
    if n >= len(all_racks):
        field = "racks.cache" if cache else _dotted(where, "cache_racks")
        raise DomainError(field, f"at most {len(all_racks) - 1}: clients need a rack of their own")
    return _given(
        {"type": "memcache", "server_racks": [name for name, _ in (cache or all_racks[:n])]},
        request_bytes=p["request_bytes"], response_bytes=p["response_bytes"], rate_per_s=p[_RATE],
        latency_bound_us=p["latency_bound_us"],
    )  # fmt: skip


def _many_to_many(
    all_racks: list[Rack], chosen: dict[str, list[Rack]], p: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """Senders and receivers chosen by name; a set not chosen is the first racks in layout order that
    are not in the other set."""
    chosen_a, chosen_b = chosen.get("senders"), chosen.get("receivers")
    a = len(chosen_a) if chosen_a else int(p["sender_racks"])
    b = len(chosen_b) if chosen_b else int(p["receiver_racks"])
    if a + b > len(all_racks):
        raise DomainError(
            _dotted(where, "receiver_racks"), f"sender and receiver racks together exceed the plan's {len(all_racks)}"
        )
    senders = chosen_a or [r for r in all_racks if r not in (chosen_b or [])][:a]
    receivers = chosen_b or [r for r in all_racks if r not in senders][:b]
    if any(r in receivers for r in senders):
        raise DomainError("racks.receivers", "a rack cannot both send and receive")
    # one flow per pair: the engine's default `flows_per_pair`
    return {"type": "many_to_many", "senders": _servers(senders), "receivers": _servers(receivers), "bytes": p["bytes"]}


def scalable_units(plan: WiringPlan) -> list[list[list[str]]]:
    """The plan's servers by scalable unit (a rail plan's SU is its servers' cluster; otherwise the
    cluster of their ToR), each server as its ranks (a GPU server's GPUs, GPU 0 first), in plan order."""
    units: dict[int, list[list[str]]] = {}
    for d in plan.devices:
        if d.role is Role.SERVER:
            units.setdefault(d.cluster if d.cluster is not None else 0, []).append(server_ranks(plan, d))
    return [units[k] for k in sorted(units)]


def gpu_job(plan: WiringPlan, gpus: int, placement: str, field: str) -> list[str]:
    """The ranks of a job of `gpus` GPUs (0: every one) in ring order, whole servers: `packed` takes the
    servers of SU 1 in order, then SU 2's, ...; `spread` takes server 1 of each SU in turn, then server 2 of
    each, ... (an SU out of servers is passed over)."""
    units = scalable_units(plan)
    if placement == "spread":
        depth = max((len(u) for u in units), default=0)
        order = [u[j] for j in range(depth) for u in units if j < len(u)]
    else:
        order = [server for u in units for server in u]
    total = sum(len(ranks) for ranks in order)
    if gpus == 0:
        gpus = total
    if gpus > total:
        raise DomainError(field, f"the plan has {total} GPUs, the job asks for {gpus}")
    out: list[str] = []
    for ranks in order:
        if len(out) >= gpus:
            break
        out.extend(ranks)
    if len(out) != gpus:
        per = len(order[0]) if order else 0
        raise DomainError(field, f"a job takes whole servers of {per} GPUs: {gpus} is not a multiple of {per}")
    return out


FAILABLE = (Role.TOR, Role.SPINE)
"""What a preset's `failed` may name: a rail leaf (the rail plans' leaves are ToR-layer switches) or a spine."""


def preset_failures(
    plan: WiringPlan, request: PresetChoice | dict[str, Any], where: str = "params"
) -> list[dict[str, Any]]:
    """The engine failures a preset request asks for: its `failed` switch down from time 0."""
    if not isinstance(request, PresetChoice):
        return []
    failed = preset_params(preset_of(request.preset), request.params, where).get("failed")
    if failed is None:
        return []
    device = next((d for d in plan.devices if d.node_id == failed), None)
    if device is None or device.role not in FAILABLE:
        raise DomainError(_dotted(where, "failed"), f"{failed!r} is not a rail leaf, ToR or spine of this plan")
    return [{"node": failed, "at_s": 0.0}]


@dataclass(frozen=True, slots=True)
class PresetChoice:
    """A workload asked for by preset: its name, parameters and racks chosen by name (`workload`)."""

    preset: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    racks: Mapping[str, Sequence[str]] = dataclasses.field(default_factory=dict)


def requested_workload(plan: WiringPlan, request: PresetChoice | dict[str, Any]) -> dict[str, Any]:
    """The workload section of a request: built from its preset, or the raw section as given."""
    if isinstance(request, PresetChoice):
        return workload(plan, request.preset, request.params, request.racks)
    return request


_preset_workload = workload  # `build_scenario` takes a `workload` argument


def build_scenario(
    plan: WiringPlan,
    *,
    name: str | None = None,
    routing: dict[str, Any] | None = None,
    workload: dict[str, Any] | None = None,
    engine: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A complete scenario: the plan's network + routing (default ecmp), workload (default: the
    `shuffle` preset's, the first two logical racks, 15 MB per pair) and engine (flow mode, seed 1)."""
    scenario: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    if name is not None:
        scenario["name"] = name
    scenario["network"] = network_from_plan(plan)
    scenario["routing"] = routing or {"type": "ecmp"}
    scenario["workload"] = workload or _preset_workload(plan, "shuffle")
    scenario["engine"] = engine or {"mode": "flow", "seed": 1, "failures": []}
    return scenario


def requested_scenario(
    plan: WiringPlan,
    request: PresetChoice | dict[str, Any],
    *,
    name: str | None = None,
    routing: dict[str, Any],
    engine: dict[str, Any],
) -> dict[str, Any]:
    """The scenario of a plan request (submitting and estimating build it alike): its workload
    (`requested_workload`) and the engine section as given plus the failures the preset asks for."""
    failures = preset_failures(plan, request)
    if failures:
        engine = {**engine, "failures": [*(engine.get("failures") or []), *failures]}
    return build_scenario(plan, name=name, routing=routing, workload=requested_workload(plan, request), engine=engine)
