"""The front-end fabric of a GPU cluster (issue 31): storage and in-band management, a network of its
own over the same racks as the compute fabric, with its own plan, cables and bill of materials.

A front-end plan (`WiringSpec.network` = front_end) wires the servers' front-end NICs
(`frontend_nic_ports` x `frontend_port_gbps` of the catalog's server model) with the existing
non-rail patterns (single-homed, MC-LAG, Subways, ...) to the ToR each logical rack calls its own.
The generator sees the hall through `frontend_hall`: every server model's NICs are its front-end
NICs, each logical rack cables all of them (p = the front-end ports) and no server is split into GPU
ranks (the front-end scenario's servers are whole). Its server ports are named ``f<n>``
(`frontend_ports`), apart from the compute NICs' ``p<n>``, so the two plans of a hall never share a
server port, and a cable's ID stays a function of its two ports.

Each fabric switch names its network (`FabricSwitch.network`): a front-end plan takes the hall's
`front_end` switches as its fabric (the project's fabric settings say how ToRs go up to them, as for
any plan) and a compute plan leaves them out (`generate._index_hall` takes the plan's network's
switches; a rail leaf still finds the Us a front-end switch takes). A hall with no front-end switch gets
a front-end plan of its servers and ToRs alone, and the plan says so in its warnings.
"""

from __future__ import annotations

from dataclasses import replace

from loopline.domain.errors import DomainError
from loopline.domain.labels import cable_id, cable_label
from loopline.domain.layout import Hall
from loopline.domain.wiring.model import Role, WiringPlan

FRONT_END_PORT = "f"
"""A server's front-end NIC port `n` is ``f<n>`` (its compute NIC's is ``p<n>``)."""
FRONT_END = "front_end"
UPLINKS_NOT_WIRED = (
    "front-end: the ToR uplinks are not wired: the hall has no fabric switch of the front-end network "
    "(network front_end), so this plan holds the servers' front-end NICs to their ToRs"
)


def frontend_hall(hall: Hall) -> Hall:
    """The hall as the front-end network sees it (see the module docstring)."""
    rows = []
    for row in hall.rows:
        racks = []
        for rack in row.racks:
            lrs = []
            for lr in rack.logical_racks:
                m = lr.server_model
                if m.frontend_nic_ports < 1 or m.frontend_port_gbps is None:
                    raise DomainError(
                        "fabric",
                        f"servers of {hall.name}.{row.name}.{rack.name} ({m.name}) have no front-end NIC ports "
                        "to wire (the catalog's frontend_nic_ports)",
                    )
                front = replace(m, nic_ports=m.frontend_nic_ports, port_gbps=m.frontend_port_gbps, gpus=0)
                lrs.append(replace(lr, server_model=front, ports_used=m.frontend_nic_ports))
            front_switches = tuple(fs for fs in rack.fabric_switches if fs.network == FRONT_END)
            racks.append(replace(rack, logical_racks=tuple(lrs), fabric_switches=front_switches))
        rows.append(replace(row, racks=tuple(racks)))
    return replace(hall, rows=tuple(rows))


def has_front_end_switches(hall: Hall) -> bool:
    return any(fs.network == FRONT_END for row in hall.rows for rk in row.racks for fs in rk.fabric_switches)


def frontend_ports(plan: WiringPlan) -> None:
    """Name the plan's server ports ``f<n>`` (front-end NICs), with the cable IDs and labels that follow."""
    servers = {d.name for d in plan.devices if d.role is Role.SERVER}
    for c in plan.cables:
        a, b = c.a_device in servers, c.b_device in servers
        if not (a or b):
            continue
        if a:
            c.a_port = FRONT_END_PORT + c.a_port[1:]
        if b:
            c.b_port = FRONT_END_PORT + c.b_port[1:]
        c.cable_id = cable_id(c.a_device, c.a_port, c.b_device, c.b_port)
        c.label = cable_label(c.a_device, c.a_port, c.b_device, c.b_port)
