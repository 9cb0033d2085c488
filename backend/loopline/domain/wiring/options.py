"""Which wirings a hall's hardware can build, and what hardware would make the others buildable.

A form should offer only what can be generated: each candidate spec is generated (the generator owns
every rule: loops that fit, ToR ports, media reach), and a candidate whose servers lack NIC ports is
tried again with servers of enough ports, so the answer can say "needs servers with 3 NIC ports"
only when such servers would indeed make it buildable.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from loopline.domain.errors import DomainError
from loopline.domain.layout import Hall, RackRole
from loopline.domain.routing import DEFAULT_GEOMETRY, GeometryPreset
from loopline.domain.wiring.generate import generate_plan, server_ports_needed
from loopline.domain.wiring.spec import WiringSpec


@dataclass(frozen=True, slots=True)
class NicShortfall:
    """Logical racks whose server model has fewer NIC ports than the wiring needs."""

    server_model: str
    nic_ports: int
    needed: int
    logical_racks: int


@dataclass(frozen=True, slots=True)
class Feasibility:
    feasible: bool
    field: str | None = None
    reason: str | None = None
    shortfalls: tuple[NicShortfall, ...] = ()
    """Non-empty: the hall can build it once these servers have `needed` NIC ports (checked)."""

    @property
    def needs_hardware(self) -> bool:
        return bool(self.shortfalls)


def nic_shortfalls(hall: Hall, spec: WiringSpec) -> tuple[NicShortfall, ...]:
    """The server models of the hall's compute racks that lack the NIC ports `spec` needs."""
    short: Counter[tuple[str, int, int]] = Counter()
    for row in hall.rows:
        for rack in row.racks:
            if rack.role is not RackRole.COMPUTE:
                continue
            for lr in rack.logical_racks:
                need = server_ports_needed(spec, lr)
                if need > lr.server_model.nic_ports:
                    short[(lr.server_model.name, lr.server_model.nic_ports, need)] += 1
    return tuple(NicShortfall(m, have, need, n) for (m, have, need), n in sorted(short.items()))


def with_nic_ports(hall: Hall, ports: int) -> Hall:
    """The hall with every server that has fewer than `ports` NIC ports given `ports` (same speed)."""
    return replace(
        hall,
        rows=tuple(
            replace(
                row,
                racks=tuple(
                    replace(
                        rack,
                        logical_racks=tuple(
                            lr
                            if lr.server_model.nic_ports >= ports
                            else replace(lr, server_model=replace(lr.server_model, nic_ports=ports))
                            for lr in rack.logical_racks
                        ),
                    )
                    for rack in row.racks
                ),
            )
            for row in hall.rows
        ),
    )


def feasibility(hall: Hall, spec: WiringSpec, geometry: GeometryPreset = DEFAULT_GEOMETRY) -> Feasibility:
    """Whether `spec` can be generated on `hall`; if only its servers' NIC ports are short, whether
    servers with enough ports would make it buildable (then `shortfalls` names them)."""
    short = nic_shortfalls(hall, spec)
    if short:
        try:
            generate_plan(with_nic_ports(hall, max(s.needed for s in short)), spec, geometry=geometry)
        except DomainError as e:
            return Feasibility(False, e.field, e.reason)
        reason = "; ".join(
            f"{s.logical_racks} logical rack(s) of {s.server_model} ({s.nic_ports} NIC ports): the wiring needs "
            f"{s.needed}"
            for s in short
        )
        return Feasibility(False, "ports", f"needs servers with more NIC ports: {reason}", short)
    try:
        generate_plan(hall, spec, geometry=geometry)
    except DomainError as e:
        return Feasibility(False, e.field, e.reason)
    return Feasibility(True)
