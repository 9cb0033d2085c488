"""Helpers for the wiring tests: small halls built from numbers and cable look-ups."""

from __future__ import annotations

from loopline.domain.abstract_layout import AbstractLayoutSpec, build_abstract_layout
from loopline.domain.layout import Hall
from loopline.domain.routing import DEFAULT_GEOMETRY, PAPER_GEOMETRY
from loopline.domain.wiring import Cable, Pattern, WiringPlan, WiringSpec, generate_plan


def hall(geometry: str = "default", /, **kw: object) -> Hall:
    args: dict[str, object] = {"rows": 2, "racks_per_row": 4, "logical_per_rack": 2, "servers_per_logical_rack": 4}
    args.update(kw)
    return build_abstract_layout(AbstractLayoutSpec(geometry=geometry, **args))  # type: ignore[arg-type]


def plan(
    pattern: Pattern,
    geometry: str = "default",
    *,
    ports: int = 2,
    loop: int | None = None,
    spec_kw: dict[str, object] | None = None,
    **layout: object,
) -> WiringPlan:
    h = hall(geometry, ports=ports, **layout)
    spec = WiringSpec(pattern=pattern, ports=ports, loop=loop, **(spec_kw or {}))  # type: ignore[arg-type]
    return generate_plan(h, spec, geometry=PAPER_GEOMETRY if geometry == "paper" else DEFAULT_GEOMETRY)


def cable(p: WiringPlan, a_device: str, a_port: str) -> Cable:
    """The cable plugged into port `a_port` of device `a_device` (either end)."""
    for c in p.cables:
        if (c.a_device, c.a_port) == (a_device, a_port) or (c.b_device, c.b_port) == (a_device, a_port):
            return c
    raise AssertionError(f"no cable on {a_device}:{a_port}")
