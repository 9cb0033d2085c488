"""What a simulation's result means: complete, or partial and why.

The engine reports how many flows stalled (no path at the end of the run) or did not finish, and
why (its `reachability`: sim-engine/src/reachability.rs): the failure timeline, the nodes and links
down at the end by the engine's names, and which of the workload's server groups had no up-down
path to each other. This module only puts the counts and that report together and says it in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

COMPLETE = "complete"
PARTIAL = "partial"
MAX_NAMES = 5
"""Names quoted in the summary."""


@dataclass(frozen=True, slots=True)
class Outcome:
    outcome: str
    stalled: int
    unfinished: int
    reason: dict[str, Any] | None


def classify(result: dict[str, Any]) -> Outcome:
    """`complete` when every flow of the workload finished; otherwise `partial`, with the reason."""
    flows = result.get("flows") or {}
    total = int(flows.get("total", 0))
    finished = int(flows.get("finished", 0))
    stalled = int(flows.get("stalled", 0))
    unfinished = int(flows.get("unfinished", 0)) + int(flows.get("not_started", 0))
    if finished >= total:
        return Outcome(COMPLETE, 0, 0, None)
    return Outcome(PARTIAL, stalled, unfinished, explain(result))


def explain(result: dict[str, Any]) -> dict[str, Any]:
    """The flow counts and the engine's `reachability` report, with a summary in words."""
    flows = result.get("flows") or {}
    reach = result.get("reachability") or {}
    out: dict[str, Any] = {
        "flows_total": int(flows.get("total", 0)),
        "flows_finished": int(flows.get("finished", 0)),
        "stalled": int(flows.get("stalled", 0)),
        "unfinished": int(flows.get("unfinished", 0)),
        "not_started": int(flows.get("not_started", 0)),
        "down_nodes": list(reach.get("down_nodes") or []),
        "down_links": list(reach.get("down_links") or []),
        "servers_cut_off": list(reach.get("servers_cut_off") or []),
        "servers_cut_off_count": int(reach.get("servers_cut_off_count") or 0),
        "unreachable_pairs": reach.get("unreachable_pairs"),
        "unreachable_groups": list(reach.get("unreachable_groups") or []),
    }
    out["summary"] = _summary(out)
    return out


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
