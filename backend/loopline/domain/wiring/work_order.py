"""The re-cabling work order of an upgrade: each cable to plug, re-cable or unplug, in an order a crew
can follow one step at a time without taking a server off the network that need not go off.

The order (README "Wiring plans"):
1. **Plug** every added cable (new ports, new ToRs): a server only gains links.
2. **Re-cable** every moved cable (unplug it from its old ends, plug it into its new ones) and
   **replace** every kept cable whose part or ordered length changed (same ends, new cable). During
   such a step the server has every other link it has by then, the added ones included; one step
   at a time, a server with two or more links is never left without one.
3. **Unplug** every removed cable last, once every server already has its new links.

Within a phase the steps are grouped by rack (the rack of the cable's server end, else its A end:
where the technician stands), racks in row and name order, and by label within a rack.

A server whose only link is re-cabled cannot stay connected whatever the order (its one port moves):
the step names it in `offline`, as does an unplug that leaves a server with no link in the new plan.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Protocol

from loopline.domain.wiring.diff import PlanDiff


class Phase(IntEnum):
    PLUG = 1
    RECABLE = 2
    UNPLUG = 3


class Action(StrEnum):
    PLUG = "plug"
    RECABLE = "re-cable"
    REPLACE = "replace"
    UNPLUG = "unplug"


PHASE_TITLES = {
    Phase.PLUG: "1. Plug the new cables",
    Phase.RECABLE: "2. Re-cable moved cables, replace changed ones",
    Phase.UNPLUG: "3. Unplug the removed cables",
}


class WorkCable(Protocol):
    """What the work order reads of a cable (a stored row or an export's `SheetCable`)."""

    @property
    def cable_id(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def a_device(self) -> str: ...
    @property
    def a_port(self) -> str: ...
    @property
    def a_row(self) -> str: ...
    @property
    def a_rack(self) -> str: ...
    @property
    def b_device(self) -> str: ...
    @property
    def b_port(self) -> str: ...
    @property
    def b_row(self) -> str: ...
    @property
    def b_rack(self) -> str: ...
    @property
    def part_number(self) -> str: ...
    @property
    def ordered_mm(self) -> int: ...


@dataclass(frozen=True, slots=True)
class End:
    device: str
    port: str
    row: str
    rack: str

    def text(self) -> str:
        return f"{self.device}:{self.port}"


def _ends(c: WorkCable) -> tuple[End, End]:
    return End(c.a_device, c.a_port, c.a_row, c.a_rack), End(c.b_device, c.b_port, c.b_row, c.b_rack)


@dataclass(frozen=True, slots=True)
class WorkStep:
    step: int
    """1, 2, ... in the order to do them."""
    phase: Phase
    action: Action
    row: str
    rack: str
    """Where the step is done: the rack of the cable's server end, else of its A end."""
    label: str
    """The label of the cable to put in (plug, re-cable, replace) or to take out (unplug)."""
    cable_id: str
    unplug: tuple[End, End] | None
    """The old cable's ends (re-cable, replace, unplug)."""
    plug: tuple[End, End] | None
    """The new cable's ends (plug, re-cable, replace)."""
    old_label: str | None
    part_number: str
    ordered_mm: int
    """The new cable's part and ordered length; the removed one's for an unplug."""
    offline: tuple[str, ...]
    """Servers left with no link while this step is done (or after it, for an unplug)."""


def work_order(
    diff: PlanDiff,
    old: Mapping[str, WorkCable],
    new: Mapping[str, WorkCable],
    server_links: Mapping[str, int],
) -> list[WorkStep]:
    """The steps of the upgrade `diff` (old plan -> new plan). `old` / `new`: the cables the diff
    names, by cable ID (at least the removed, moved and changed old ones; the added, moved and
    changed new ones). `server_links`: every server's links in the old plan (its name -> cables);
    a device not in it is not a server."""
    servers: Collection[str] = server_links.keys()

    def place(c: WorkCable) -> tuple[str, str]:
        a_server = c.a_device in servers
        b_server = c.b_device in servers
        return (c.b_row, c.b_rack) if b_server and not a_server else (c.a_row, c.a_rack)

    planned: list[tuple[Phase, str, str, str, Action, WorkCable | None, WorkCable | None]] = []
    for cid in diff.added:
        c = new[cid]
        planned.append((Phase.PLUG, *place(c), c.label, Action.PLUG, None, c))
    for old_id, new_id in diff.moved:
        c = new[new_id]
        planned.append((Phase.RECABLE, *place(c), c.label, Action.RECABLE, old[old_id], c))
    for cid in diff.changed:
        c = new[cid]
        planned.append((Phase.RECABLE, *place(c), c.label, Action.REPLACE, old[cid], c))
    for cid in diff.removed:
        c = old[cid]
        planned.append((Phase.UNPLUG, *place(c), c.label, Action.UNPLUG, c, None))
    planned.sort(key=lambda t: (t[0], t[1], t[2], t[3], (t[6] or t[5]).cable_id))  # type: ignore[union-attr]

    links = dict(server_links)
    steps: list[WorkStep] = []
    for n, (phase, row, rack, label, action, out, into) in enumerate(planned, 1):
        touched = sorted({d for c in (out, into) if c is not None for d in (c.a_device, c.b_device) if d in links})
        for c in (out,) if out is not None else ():
            for d in (c.a_device, c.b_device):
                if d in links:
                    links[d] -= 1
        offline = tuple(d for d in touched if links[d] <= 0)
        for c in (into,) if into is not None else ():
            for d in (c.a_device, c.b_device):
                if d in links:
                    links[d] += 1
        shown = into if into is not None else out
        assert shown is not None
        steps.append(
            WorkStep(
                n, phase, action, row, rack, label, shown.cable_id,
                None if out is None else _ends(out), None if into is None else _ends(into),
                None if out is None or into is None else out.label, shown.part_number, shown.ordered_mm, offline,
            )
        )  # fmt: skip
    return steps


WORK_ORDER_COLUMNS: tuple[str, ...] = (
    "step", "phase", "action", "row", "rack", "label", "cable_id", "unplug_a", "unplug_b", "plug_a", "plug_b",
    "old_label", "part_number", "ordered_length_m", "servers_offline", "done",
)  # fmt: skip


def work_order_rows(steps: list[WorkStep]) -> list[tuple[object, ...]]:
    """One row per step in `WORK_ORDER_COLUMNS` (an empty `done` box to tick)."""
    return [
        (
            s.step,
            PHASE_TITLES[s.phase],
            s.action.value,
            s.row,
            s.rack,
            s.label,
            s.cable_id,
            *(("", "") if s.unplug is None else (s.unplug[0].text(), s.unplug[1].text())),
            *(("", "") if s.plug is None else (s.plug[0].text(), s.plug[1].text())),
            s.old_label or "",
            s.part_number,
            s.ordered_mm / 1000,
            " ".join(s.offline),
            "",
        )  # fmt: skip
        for s in steps
    ]
