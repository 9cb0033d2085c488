"""Which optic a switch port of a given speed carries in a structured plant, and how its ports break
out into slower links. One owner for both: the wiring generator counts a fabric switch's lanes with
`breakout_lanes`, the plant builder (`structured.layout`) picks each end's optic with `port_optic`,
so the links the generator makes are the ones the plant can build. A broken-out port's lane is named
here too, both ways: the generator writes it (`lane_port`), the builder reads it (`split_lane`).

Structured links run over single-mode fibre (OS2 trunks and cassettes), so a port of each speed
carries the catalog's single-mode parallel or duplex optic that breaks out furthest: 100G-DR (duplex
LC), 400G-DR4 (MPO-12, 4 x 100G-DR) and 800G-2xDR4 (twin MPO-12, 2 x 400G-DR4 or 8 x 100G-DR).
"""

from __future__ import annotations

from loopline.domain.errors import DomainError
from loopline.domain.structured.catalog import Optic, builtin_catalog
from loopline.domain.structured.sizing import PortLanes, breakout_into, port_lanes

PORT_OPTIC_PARTS: dict[float, str] = {100.0: "100G-DR", 400.0: "400G-DR4", 800.0: "800G-2xDR4"}
"""Port speed (Gb/s) -> the `Optic.part` a structured plant fits in a port of that speed."""


def lane_port(port: str, lane: int) -> str:
    """Lane `lane` (from 1) of broken-out switch port `port`: ``e5``, 2 -> ``e5/2``."""
    return f"{port}/{lane}"


def split_lane(port: str) -> tuple[str, int | None]:
    """The physical port and lane of a port name `lane_port` wrote: ``e5/2`` -> (``e5``, 2);
    ``e5`` (not broken out) -> (``e5``, None)."""
    physical, sep, lane = port.partition("/")
    return (physical, int(lane)) if sep else (port, None)


def find_port_optic(speed_gbps: float) -> Optic | None:
    """The optic a port of `speed_gbps` carries, or None when the catalog has none at that speed."""
    part = PORT_OPTIC_PARTS.get(speed_gbps)
    return None if part is None else builtin_catalog().optic(part)


def port_optic(speed_gbps: float, field: str = "cabling") -> Optic:
    """The optic a port of `speed_gbps` carries; a DomainError on `field` naming the speeds there are."""
    optic = find_port_optic(speed_gbps)
    if optic is None:
        speeds = ", ".join(f"{s:g}G ({p})" for s, p in sorted(PORT_OPTIC_PARTS.items()))
        raise DomainError(
            field,
            f"structured cabling has no optic for {speed_gbps:g}G ports; the catalog's single-mode optics are {speeds}",
        )
    return optic


def breakout_lanes(switch: str, ports: int, port_gbps: float, link_gbps: float) -> PortLanes | None:
    """How `switch`'s `ports` ports of `port_gbps` serve links of `link_gbps` when breakouts are asked
    for: as ports x lanes (`sizing.port_lanes`) when the port's optic breaks out into that speed, or
    None when the port is not broken out (the same speed, a slower link its optic cannot break out
    into, a speed with no optic here, or no ports): then each link takes a port, as in a direct plan."""
    optic = find_port_optic(port_gbps)
    if optic is None or port_gbps <= link_gbps or ports < 1:
        return None
    catalog = builtin_catalog()
    if breakout_into(optic, link_gbps, catalog) is None:
        return None
    return port_lanes(switch, ports, optic, link_gbps, breakout=True, catalog=catalog)
