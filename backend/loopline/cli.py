"""Loopline command line: ``python -m loopline.cli`` (``./loopline``).

- ``wiring``: build an abstract hall from numbers, generate its wiring plan, print a summary
  (``--json`` for machines), optionally as an upgrade diff against ``--upgrade-from-ports``;
- ``scenario build``: the same layout and wiring, written as an engine scenario (``-o FILE``),
  with a workload, routing and failures from flags; ``--twins`` writes the layout wired Type 0
  (single-homed), Type 1 and Type 2 from one command line (``-o`` names them with ``{wiring}``).

Bad input prints ``error: <field>: <reason>`` on one line to stderr and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any, NoReturn

from loopline.domain import bom
from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
from loopline.domain.errors import DomainError
from loopline.domain.layout import Hall
from loopline.domain.routing import geometry_preset
from loopline.domain.scenario import CDFS, DEFAULT_BYTES_PER_PAIR, WORKLOADS, build_scenario, preset_of, workload
from loopline.domain.wiring import (
    SUBWAYS_PATTERNS,
    FabricKind,
    FabricSpec,
    GrinScope,
    ParallelPorts,
    Pattern,
    WiringPlan,
    WiringSpec,
    diff_plans,
    generate_plan,
    summarize,
)

EXIT_USAGE = 2
GOODPUT_MIN = 0.01
"""The smallest goodput factor the engine takes."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _int(minimum: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, got {value}")
        return value

    return parse


def _gbps(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of Gb/s, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def _layout_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("layout")
    g.add_argument("--rows", type=_int(1), required=True, help="rows (in facing pairs)")
    g.add_argument("--racks-per-row", type=_int(1), required=True, help="compute racks per row")
    g.add_argument("--logical-per-rack", type=_int(1), default=1, help="b")
    g.add_argument("--servers-per-logical-rack", type=_int(1), default=16, help="r")
    g.add_argument("--ports", type=_int(1), default=1, help="p: cabled NIC ports per server")
    g.add_argument("--port-gbps", type=_gbps, default=25.0, help="server port speed")
    g.add_argument("--tor-server-ports", type=_int(1), default=48, help="server-facing ports per ToR")
    g.add_argument("--rows-per-cluster", type=_int(1), default=2)
    g.add_argument("--network-rack", choices=["end", "middle"], default="end", help="where each row's network rack is")
    g.add_argument("--geometry", choices=["default", "paper"], default="default")
    g.add_argument("--service-allowance-mm", type=_int(0), default=None)
    g.add_argument("--slack-pct", type=float, default=None)
    w = p.add_argument_group("wiring")
    w.add_argument("--pattern", choices=[x.value for x in Pattern], required=True)
    w.add_argument("--subways-type", type=int, choices=[1, 2], default=1)
    w.add_argument("--loop", type=_int(1), default=None, help="l (default: the whole row / pair)")
    w.add_argument("--clusters", type=_int(1), default=1, help="c (Subways Type 2)")
    w.add_argument("--grin-degree", type=_int(1), default=None, help="n (grin pattern)")
    w.add_argument("--grin-scope", choices=[x.value for x in GrinScope], default="rack")
    w.add_argument(
        "--parallel-ports",
        type=_int(1),
        default=None,
        help="heterogeneous: new ports per server on a parallel set of ToRs",
    )
    w.add_argument("--parallel-gbps", type=_gbps, default=25.0)
    w.add_argument("--parallel-clusters", type=_int(1), default=1, help="c of the parallel loops (Type 2)")
    w.add_argument(
        "--parallel-pattern",
        choices=[x.value for x in Pattern if x in SUBWAYS_PATTERNS],
        default=None,
        help="physical pattern of the parallel loops (default: --pattern)",
    )
    w.add_argument("--parallel-loop", type=_int(1), default=None, help="l of the parallel loops (default: --loop)")
    f = p.add_argument_group("fabric")
    f.add_argument("--fabric", choices=[x.value for x in FabricKind], default="three-tier")
    f.add_argument("--uplinks-per-tor", type=_int(0), default=4, help="U")
    f.add_argument("--uplink-gbps", type=_gbps, default=100.0)
    f.add_argument("--aggs-per-cluster", type=_int(0), default=4, help="A")
    f.add_argument("--core-switches", type=_int(0), default=4, help="C (VL2: intermediates)")
    f.add_argument("--spine-switches", type=_int(1), default=4, help="leaf-spine spines")
    f.add_argument(
        "--fabric-media",
        choices=["optical", "cheapest"],
        default="optical",
        help="fabric links optical (default: they leave the row) or the cheapest medium that reaches",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="loopline", description="Loopline datacenter network planning")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    wiring = sub.add_parser("wiring", help="generate a wiring plan from numbers")
    _layout_args(wiring)
    wiring.add_argument(
        "--upgrade-from-ports",
        type=_int(1),
        default=None,
        metavar="P0",
        help="also report the diff from the same hall wired with P0 ports (and no parallel ports)",
    )
    wiring.add_argument("--json", action="store_true", help="print the summary as JSON")
    scenario = sub.add_parser("scenario", help="engine scenarios")
    ssub = scenario.add_subparsers(dest="scenario_command", required=True, parser_class=_Parser)
    build = ssub.add_parser("build", help="write a scenario for a hall built from numbers")
    _layout_args(build)
    build.add_argument(
        "-o", "--output", required=True, help="scenario JSON file ('-' = stdout; with --twins it must contain {wiring})"
    )
    build.add_argument(
        "--twins",
        action="store_true",
        help="write the layout wired Type 0 (single-homed), Type 1 and Type 2 (--pattern: the Subways "
        "pattern; Type 2 spreads each loop over --clusters, at least 2): {wiring} in -o becomes type0/type1/type2",
    )
    build.add_argument("--routing", choices=["ecmp", "adaptive", "least_work", "detour", "vlb", "grin"], default="ecmp")
    wl = build.add_argument_group("workload")
    wl.add_argument("--workload", choices=WORKLOADS, default="shuffle")
    wl.add_argument(
        "--bytes-per-pair",
        "--bytes",
        type=_int(1),
        default=DEFAULT_BYTES_PER_PAIR,
        help="bytes per pair, flow or response",
    )
    wl.add_argument(
        "--job-racks",
        type=_int(1),
        default=None,
        help="the first N logical racks (default 2; poisson: all)",
    )
    wl.add_argument("--senders", type=_int(1), default=1, help="many-to-many: the first N racks send")
    wl.add_argument("--receivers", type=_int(1), default=1, help="many-to-many: to the next N racks")
    wl.add_argument(
        "--cdf", choices=[c.value for c in CDFS], default=None, help="poisson: flow sizes (the preset's default)"
    )
    wl.add_argument(
        "--load", type=float, default=None, help="poisson: share of the server link capacity (the preset's default)"
    )
    wl.add_argument("--flows", type=_int(1), default=10_000, help="poisson: flows")
    wl.add_argument("--inter-rack-only", action="store_true", help="poisson: only pairs in different logical racks")
    wl.add_argument("--fan-in", type=_int(1), default=None, help="incast: responders per query (the engine's default)")
    wl.add_argument("--queries", type=_int(1), default=1, help="incast: fan-ins")
    wl.add_argument("--server-racks", type=_int(1), default=1, help="memcache: the first N racks hold the caches")
    build.add_argument(
        "--fail",
        action="append",
        default=[],
        metavar="NODE@AT_S[:RECOVER_S]",
        help="a node (switch) fails at AT_S seconds, optionally recovering (repeatable)",
    )
    build.add_argument("--seed", type=_int(0), default=1)
    build.add_argument(
        "--goodput-factor",
        type=float,
        default=None,
        help="payload share of every link, (0, 1] (protocol overhead; default 1)",
    )
    build.add_argument("--name", default=None)
    return parser


def _hall_and_spec(a: argparse.Namespace) -> tuple[Hall, WiringSpec]:
    pattern = Pattern(a.pattern)
    fabric = FabricKind(a.fabric)
    grin = a.grin_degree or 0
    if pattern is Pattern.GRIN and not grin:
        raise DomainError("grin_degree", "--pattern grin needs --grin-degree n")
    layout = AbstractLayoutSpec(
        rows=a.rows,
        racks_per_row=a.racks_per_row,
        logical_per_rack=a.logical_per_rack,
        servers_per_logical_rack=a.servers_per_logical_rack,
        ports=a.ports,
        port_gbps=a.port_gbps,
        geometry=a.geometry,
        grin_degree=grin,
        tor_server_ports=a.tor_server_ports,
        uplinks_per_tor=2 if fabric is FabricKind.VL2 else a.uplinks_per_tor,
        uplink_gbps=a.uplink_gbps,
        rows_per_cluster=a.rows_per_cluster,
        aggs_per_cluster=0 if fabric is FabricKind.LEAF_SPINE else a.aggs_per_cluster,
        core_switches=0 if fabric is FabricKind.LEAF_SPINE else a.core_switches,
        spine_switches=a.spine_switches if fabric is FabricKind.LEAF_SPINE else 0,
        network_rack=a.network_rack,
    )
    parallel = None
    if a.parallel_ports:
        parallel = ParallelPorts(
            ports=a.parallel_ports,
            gbps=a.parallel_gbps,
            tor_server_ports=a.tor_server_ports,
            clusters=a.parallel_clusters,
            pattern=Pattern(a.parallel_pattern) if a.parallel_pattern else None,
            loop=a.parallel_loop,
        )
        layout = replace(layout, spare_nic_ports=a.parallel_ports)
    spec = WiringSpec(
        pattern=pattern,
        ports=a.ports,
        subways_type=a.subways_type,
        loop=a.loop,
        clusters=a.clusters,
        grin_degree=grin,
        grin_scope=GrinScope(a.grin_scope),
        rows_per_cluster=a.rows_per_cluster,
        fabric=FabricSpec(kind=fabric, uplinks_per_tor=a.uplinks_per_tor, optical=a.fabric_media == "optical"),
        parallel=parallel,
    )
    return build_abstract_layout(layout), spec


def _generate(a: argparse.Namespace, hall: Hall, spec: WiringSpec, ports: int | None = None) -> WiringPlan:
    geometry = geometry_preset(a.geometry)
    if a.service_allowance_mm is not None or a.slack_pct is not None:
        geometry = geometry.with_lengths(service_allowance_mm=a.service_allowance_mm, slack_pct=a.slack_pct)
    if ports is not None:  # the existing plan of an upgrade: P0 ports, no parallel ports yet
        spec = replace(spec, ports=ports, parallel=None)
    return generate_plan(hall, spec, geometry=geometry)


def _wiring(a: argparse.Namespace) -> int:
    if a.upgrade_from_ports is not None and a.upgrade_from_ports > a.ports:
        raise DomainError("upgrade_from_ports", f"P0={a.upgrade_from_ports} exceeds --ports {a.ports}")
    hall, spec = _hall_and_spec(a)
    plan = _generate(a, hall, spec)
    out: dict[str, Any] = {
        "pattern": spec.pattern.value,
        "subways_type": spec.subways_type,
        "geometry": plan.geometry.name,
        "ports": a.ports,
    }
    out.update(summarize(plan).to_json())
    # The stored form of the materials is for the database; people and scripts want them priced.
    priced = bom.price(bom.Materials.from_json(out.pop("materials")))
    out["cost"] = priced.cost_summary()
    out["warnings"] = [*out["warnings"], *priced.warnings]
    if a.upgrade_from_ports is not None:
        old = _generate(a, hall, spec, ports=a.upgrade_from_ports)
        counts = diff_plans(old, plan).counts()
        out["diff"] = {"from_ports": a.upgrade_from_ports, **counts}
        for k in ("kept", "added", "moved", "removed"):
            out[k] = counts[k]
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        _print_text(out)
    return 0


def _print_text(out: dict[str, Any]) -> None:
    print(
        f"{out['pattern']} (geometry {out['geometry']}): {out['cables']} cables, "
        f"{out['servers']} servers, {out['tors']} ToRs, {out['loops']} loops"
    )
    print(f"max raw length {out['max_raw_length_m']} m, copper share {out['copper_share']:.1%}")
    cost = out["cost"]
    unpriced = "" if cost["complete"] else f" (incomplete: {len(cost['unpriced'])} parts unpriced)"
    print(f"cost {cost['total']:,.2f} {cost['currency']} with the default price book{unpriced}")
    for cls, st in out["by_class"].items():
        if not st["count"]:
            continue
        media = ", ".join(f"{k} {v}" for k, v in st["media"].items())
        print(
            f"  {cls:14s} {st['count']:8d}  raw min/mean/max {st['min_raw_length_m']}/"
            f"{st['mean_raw_length_m']}/{st['max_raw_length_m']} m  ({media})"
        )
    if "diff" in out:
        d = out["diff"]
        print(
            f"upgrade from p={d['from_ports']}: kept {d['kept']}, added {d['added']}, "
            f"moved {d['moved']}, removed {d['removed']}, hardware added {d['hardware_added']}"
        )
    for w in out["warnings"]:
        print(f"warning: {w}")


def _failures(specs: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for text in specs:
        node, _, times = text.partition("@")
        at, _, recover = times.partition(":")
        try:
            failure: dict[str, Any] = {"node": node, "at_s": float(at)}
            if recover:
                failure["recover_at_s"] = float(recover)
        except ValueError:
            raise DomainError("fail", f"expected NODE@AT_S[:RECOVER_S], got {text!r}") from None
        if not node:
            raise DomainError("fail", f"expected NODE@AT_S[:RECOVER_S], got {text!r}")
        out.append(failure)
    return out


def _engine(a: argparse.Namespace) -> dict[str, Any]:
    engine: dict[str, Any] = {"mode": "flow", "seed": a.seed, "failures": _failures(a.fail)}
    if a.goodput_factor is not None:
        # A copy of the engine's rule (scenario/validate.rs check_engine), so that a bad flag fails
        # before a file is written; test_cli proves the two agree.
        if not GOODPUT_MIN <= a.goodput_factor <= 1:
            raise DomainError("goodput_factor", f"must be from {GOODPUT_MIN} to 1, got {a.goodput_factor}")
        engine["goodput_factor"] = a.goodput_factor
    return engine


def _twins(a: argparse.Namespace) -> list[tuple[str, argparse.Namespace]]:
    """The namespaces of the three wirings of one layout: Type 0, Type 1, Type 2."""
    if Pattern(a.pattern) not in SUBWAYS_PATTERNS:
        raise DomainError("pattern", f"--twins needs a Subways pattern for Types 1 and 2, got {a.pattern}")
    if "{wiring}" not in a.output:
        raise DomainError("output", "with --twins the file name must contain {wiring}")
    type0 = argparse.Namespace(**{**vars(a), "pattern": Pattern.SINGLE_HOMED.value, "loop": None, "clusters": 1})
    type1 = argparse.Namespace(**{**vars(a), "subways_type": 1, "clusters": 1})
    type2 = argparse.Namespace(**{**vars(a), "subways_type": 2, "clusters": max(a.clusters, 2)})
    return [("type0", type0), ("type1", type1), ("type2", type2)]


def _scenario_build(a: argparse.Namespace) -> int:
    builds = _twins(a) if a.twins else [("", a)]
    plans = []
    for wiring, ns in builds:  # every wiring first: a twin that cannot be built writes no file at all
        hall, spec = _hall_and_spec(ns)
        try:
            plans.append((wiring, ns, _generate(ns, hall, spec)))
        except DomainError as e:
            if not wiring:
                raise
            raise DomainError(e.field, f"the {wiring} twin cannot be built, so no file was written: {e.reason}") from e
    scenarios = []
    for wiring, ns, plan in plans:
        given = {
            "bytes": ns.bytes_per_pair,
            "job_racks": ns.job_racks,
            "sender_racks": ns.senders,
            "receiver_racks": ns.receivers,
            "cdf": ns.cdf,
            "load": ns.load,
            "flows": ns.flows,
            "inter_rack_only": ns.inter_rack_only,
            "fan_in": ns.fan_in,
            "queries": ns.queries,
            "cache_racks": ns.server_racks,
        }
        # the options the preset takes; one not given is the preset's (or the engine's) default
        taken = {p.name for p in preset_of(ns.workload).params}
        params = {k: v for k, v in given.items() if k in taken and v is not None}
        name = ns.name if not wiring else f"{ns.name or 'scenario'} ({wiring})"
        scenario = build_scenario(
            plan,
            name=name,
            routing={"type": ns.routing},
            workload=workload(plan, ns.workload, params, where=""),
            engine=_engine(ns),
        )
        scenarios.append((scenario, ns.output.replace("{wiring}", wiring) if wiring else ns.output))
    for scenario, output in scenarios:
        _write(scenario, output)
    return 0


def _write(scenario: dict[str, Any], output: str) -> None:
    text = json.dumps(scenario, separators=(",", ":"))
    if output == "-":
        sys.stdout.write(text + "\n")
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    except OSError as e:
        raise DomainError("output", f"cannot write {output}: {e.strerror}") from None
    net = scenario["network"]
    print(f"wrote {output}: {len(net['nodes'])} nodes, {len(net['links'])} links", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "wiring":
            return _wiring(args)
        return _scenario_build(args)
    except DomainError as e:
        sys.stderr.write(f"error: {e.field}: {e.reason}\n")
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
