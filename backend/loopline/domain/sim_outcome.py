"""What a simulation's result means: complete, or partial and why.

The engine reports how many flows stalled (no path at the end of the run) or did not finish, but
not which ones. Its routing schemes send flows over valley-free paths (up the layers, then down),
so the servers that cannot reach each other follow from the scenario: two servers have a path
when the nodes each reaches by going only up (over elements still up at the end) meet.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

COMPLETE = "complete"
PARTIAL = "partial"
MAX_GROUP_PAIRS = 20
"""Unreachable server groups listed; the count of server pairs is always exact."""
MAX_CLASSES = 3000
"""Beyond this many server groups (distinct sets of ToRs) the pairwise check is skipped."""
MAX_NAMES = 5


@dataclass(frozen=True, slots=True)
class Outcome:
    outcome: str
    stalled: int
    unfinished: int
    reason: dict[str, Any] | None


def classify(scenario: dict[str, Any], result: dict[str, Any]) -> Outcome:
    """`complete` when every flow of the workload finished; otherwise `partial`, with the reason."""
    flows = result.get("flows") or {}
    total = int(flows.get("total", 0))
    finished = int(flows.get("finished", 0))
    stalled = int(flows.get("stalled", 0))
    unfinished = int(flows.get("unfinished", 0)) + int(flows.get("not_started", 0))
    if finished >= total:
        return Outcome(COMPLETE, 0, 0, None)
    return Outcome(PARTIAL, stalled, unfinished, explain(scenario, result))


def _down(scenario: dict[str, Any], end_s: float) -> tuple[set[str], set[str]]:
    """Nodes and links failed at the end of the run (failed at or before it, not yet recovered)."""
    nodes: set[str] = set()
    links: set[str] = set()
    for f in (scenario.get("engine") or {}).get("failures") or []:
        at, back = float(f.get("at_s", 0.0)), f.get("recover_at_s")
        if at <= end_s and (back is None or float(back) > end_s):
            if f.get("node") is not None:
                nodes.add(str(f["node"]))
            if f.get("link") is not None:
                links.add(str(f["link"]))
    return nodes, links


def _link_id(link: dict[str, Any], i: int) -> str:
    """The engine's name of link `i` of the list: its id, else `a|b#i` (sim-engine validate.rs
    `default_link_name`), which failures use."""
    return str(link["id"]) if link.get("id") is not None else f"{link['a']}|{link['b']}#{i}"


def _workload_pairs(workload: dict[str, Any], servers: list[str]) -> tuple[list[str], list[str]]:
    """The senders and receivers whose pairs the workload draws its flows from."""
    kind = workload.get("type")
    if kind == "many_to_many":
        return list(workload.get("senders") or []), list(workload.get("receivers") or [])
    chosen = workload.get("servers")
    return (list(chosen), list(chosen)) if chosen else (servers, servers)


def explain(scenario: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    flows = result.get("flows") or {}
    total, finished = int(flows.get("total", 0)), int(flows.get("finished", 0))
    stalled = int(flows.get("stalled", 0))
    unfinished = int(flows.get("unfinished", 0))
    not_started = int(flows.get("not_started", 0))
    end_s = float(result.get("simulated_time_s") or 0.0)
    network = scenario.get("network") or {}
    layer = {str(n["id"]): int(n.get("layer", 0)) for n in network.get("nodes") or []}
    role = {str(n["id"]): str(n.get("role", "")) for n in network.get("nodes") or []}
    down_nodes, down_links = _down(scenario, end_s)
    up: dict[str, set[str]] = {n: set() for n in layer}
    for i, link in enumerate(network.get("links") or []):
        a, b = str(link["a"]), str(link["b"])
        if _link_id(link, i) in down_links or a in down_nodes or b in down_nodes:
            continue
        if a in layer and b in layer and layer[a] != layer[b]:
            lo, hi = (a, b) if layer[a] < layer[b] else (b, a)
            up[lo].add(hi)

    reach: dict[str, frozenset[str]] = {}

    def upward(n: str) -> frozenset[str]:
        # Layers strictly increase along `up`, so this terminates; iterative for deep graphs.
        if n in reach:
            return reach[n]
        stack, order = [n], []
        while stack:
            m = stack.pop()
            if m in reach or m in order:
                continue
            order.append(m)
            stack.extend(x for x in up[m] if x not in reach)
        for m in sorted(order, key=lambda x: -layer[x]):
            reach[m] = frozenset({m}).union(*(reach[x] for x in up[m]))
        return reach[n]

    servers = [n for n, r in role.items() if r == "server"]
    senders, receivers = _workload_pairs(scenario.get("workload") or {}, servers)
    # Servers under the same live ToRs reach the same nodes: check groups, not servers.
    groups: dict[frozenset[str], list[str]] = {}
    for s in dict.fromkeys([*senders, *receivers]):
        if s in up and s not in down_nodes:
            groups.setdefault(frozenset(up[s]), []).append(s)
    cut_off = [s for s in dict.fromkeys([*senders, *receivers]) if s in down_nodes or (s in up and not up[s])]
    out: dict[str, Any] = {
        "flows_total": total,
        "flows_finished": finished,
        "stalled": stalled,
        "unfinished": unfinished,
        "not_started": not_started,
        "down_nodes": sorted(down_nodes),
        "down_links": sorted(down_links),
        "servers_cut_off": cut_off[:50],
        "servers_cut_off_count": len(cut_off),
        "unreachable_pairs": None,
        "unreachable_groups": [],
    }
    if len(groups) <= MAX_CLASSES:
        pairs, listed = _unreachable(groups, set(senders), set(receivers), upward, layer)
        out["unreachable_pairs"] = pairs
        out["unreachable_groups"] = listed
    out["summary"] = _summary(out)
    return out


def _unreachable(
    groups: dict[frozenset[str], list[str]],
    senders: set[str],
    receivers: set[str],
    upward: Any,
    layer: dict[str, int],
) -> tuple[int, list[dict[str, Any]]]:
    tops = {g: frozenset().union(*(upward(t) for t in g)) if g else frozenset() for g in groups}
    pairs = 0
    listed: list[dict[str, Any]] = []
    keys = list(groups)
    for i, ga in enumerate(keys):
        for gb in keys[i:]:
            if tops[ga] & tops[gb]:
                continue
            a_send = [s for s in groups[ga] if s in senders]
            b_recv = [s for s in groups[gb] if s in receivers]
            n = len(a_send) * len(b_recv) - (len(set(a_send) & set(b_recv)) if ga == gb else 0)
            if ga != gb:
                n += len([s for s in groups[gb] if s in senders]) * len([s for s in groups[ga] if s in receivers])
            if n == 0:
                continue
            pairs += n
            if len(listed) < MAX_GROUP_PAIRS:
                listed.append(
                    {
                        "server_pairs": n,
                        "servers_a": groups[ga][:MAX_NAMES],
                        "servers_a_count": len(groups[ga]),
                        "via_a": sorted(ga),
                        "reaches_a": _highest(tops[ga], layer),
                        "servers_b": groups[gb][:MAX_NAMES],
                        "servers_b_count": len(groups[gb]),
                        "via_b": sorted(gb),
                        "reaches_b": _highest(tops[gb], layer),
                    }
                )
    return pairs, listed


def _highest(nodes: Iterable[str], layer: dict[str, int]) -> list[str]:
    """The top-layer nodes of a set: where a group's traffic can turn down."""
    nodes = list(nodes)
    if not nodes:
        return []
    top = max(layer[n] for n in nodes)
    return sorted(n for n in nodes if layer[n] == top)


def _summary(o: dict[str, Any]) -> str:
    parts = []
    if o["stalled"]:
        parts.append(f"{o['stalled']} of {o['flows_total']} flows stalled (no path at the end of the run)")
    if o["unfinished"] or o["not_started"]:
        parts.append(f"{o['unfinished'] + o['not_started']} of {o['flows_total']} flows not finished by the stop time")
    text = "; ".join(parts) or f"{o['flows_finished']} of {o['flows_total']} flows finished"
    if o["down_nodes"] or o["down_links"]:
        down = [*o["down_nodes"], *o["down_links"]]
        text += f". Down at the end: {', '.join(down[:MAX_NAMES])}{' ...' if len(down) > MAX_NAMES else ''}"
    if o["servers_cut_off_count"]:
        text += f". {o['servers_cut_off_count']} servers have no live link up"
    if o["unreachable_groups"]:
        g = o["unreachable_groups"][0]
        text += (
            f". {o['unreachable_pairs']} server pairs have no up-down path, e.g. {g['servers_a'][0]} "
            f"(up to {', '.join(g['reaches_a'][:MAX_NAMES]) or 'nothing'}) and {g['servers_b'][0]} "
            f"(up to {', '.join(g['reaches_b'][:MAX_NAMES]) or 'nothing'}) share no switch"
        )
    elif o["stalled"] and o["unreachable_pairs"] == 0:
        text += ". Every pair of the workload's servers has an up-down path: the routing scheme found none"
    return text
