"""Sizing the structured plant (DESIGN §6, issue 29): how many links a fabric switch's ports serve
when they break out into lanes and which (port, lane) each takes; how many trunks of which fibre
count and length SKU a trunk route needs; which panel front port each link lands on, and how many
ports a rack is short.

Pure arithmetic over the catalog's entries (`catalog.py`): an optic's breakouts, lanes and fibre
positions, a trunk's fibre count, connectors and sold lengths, a panel's front ports and height.
Nothing here invents a figure the catalog lacks: a trunk without a sold length that fits is made to
order, and said to be. Allocation is in the order the caller gives the links, so the same links in
the same order always get the same ports, lanes and trunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from loopline.domain.errors import DomainError
from loopline.domain.structured.catalog import (
    Breakout,
    Connector,
    Optic,
    PatchPanel,
    StructuredCatalog,
    Trunk,
)


def _gbps(speed: float) -> str:
    return f"{speed:g}G"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _m(length_mm: int) -> str:
    return f"{length_mm / 1000:g} m"


def _unique(where: str, names: Sequence[str]) -> None:
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise DomainError(f"{where}[{i}]", f"link {name!r} is listed twice")
        seen.add(name)


# --- Breakout lanes ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PortLanes:
    """How a switch's ports serve links of one speed: each port as `lanes_per_port` links (a
    breakout), or one link per port (`breakout` None)."""

    switch: str
    ports: int
    port_optic: Optic
    link_gbps: float
    lanes_per_port: int
    lane_optic: str
    """The optic part at the far end of each lane: the breakout's `into`, or the port's own."""
    breakout: Breakout | None

    @property
    def capacity(self) -> int:
        """Links the switch serves: ports x lanes, not ports."""
        return self.ports * self.lanes_per_port

    def describe(self) -> str:
        if self.breakout is None:
            return f"{self.ports} ports of {_gbps(self.link_gbps)} = {self.capacity} links"
        return f"{self.ports} ports x {self.lanes_per_port} lanes of {_gbps(self.link_gbps)} = {self.capacity} links"

    def lane_of(self, n: int) -> tuple[int, int]:
        """(port, lane), both from 1, of the switch's `n`-th link (from 1): a port's lanes are filled
        before the next port is used, so a breakout cable's legs stay together."""
        return (n - 1) // self.lanes_per_port + 1, (n - 1) % self.lanes_per_port + 1

    def refusal(self, n: int, link: str) -> str:
        """Why the switch's `n`-th link (`n` beyond its capacity), `link`, has no lane (or port)."""
        return (
            f"{self.switch}: {self.describe()}; the {_ordinal(n)} ({link}) has no"
            f" {'lane' if self.breakout is not None else 'port'}"
        )


def breakout_into(port_optic: Optic, link_gbps: float, catalog: StructuredCatalog) -> Breakout | None:
    """The first of `port_optic`'s breakouts into links of `link_gbps`, or None when it has none."""
    return next((b for b in port_optic.breakouts if catalog.optic(b.into).speed_gbps == link_gbps), None)


def port_lanes(
    switch: str,
    ports: int,
    port_optic: Optic,
    link_gbps: float,
    *,
    breakout: bool,
    catalog: StructuredCatalog,
) -> PortLanes:
    """How `ports` ports of `port_optic` on `switch` serve links of `link_gbps`.

    Same speed: one link per port, whether or not breakouts were asked for. A faster port serves
    slower links only through one of its optic's breakouts into that speed, and only when the
    planner asks for breakouts (`breakout`). A slower port cannot serve the links."""
    where = f"switches[{switch}]"
    if ports < 1:
        raise DomainError(f"{where}.ports", "must be at least 1")
    if link_gbps <= 0:
        raise DomainError(f"{where}.link_gbps", "must be positive")
    speed = port_optic.speed_gbps
    if speed == link_gbps:
        return PortLanes(switch, ports, port_optic, link_gbps, 1, port_optic.part, None)
    if speed < link_gbps:
        raise DomainError(
            f"{where}.port_optic",
            f"{switch}'s {port_optic.part} ports ({_gbps(speed)}) are slower than the {_gbps(link_gbps)} links"
            " it must serve",
        )
    chosen = breakout_into(port_optic, link_gbps, catalog)
    if chosen is None:
        offered = ", ".join(f"{b.count} x {b.into}" for b in port_optic.breakouts) or "none"
        raise DomainError(
            f"{where}.port_optic",
            f"{switch}'s {port_optic.part} ports ({_gbps(speed)}) have no breakout into {_gbps(link_gbps)} links"
            f" (its breakouts: {offered})",
        )
    if not breakout:
        raise DomainError(
            f"{where}.breakout",
            f"{switch}'s {port_optic.part} ports ({_gbps(speed)}) are faster than the {_gbps(link_gbps)} links it"
            f" must serve; each would serve them as {chosen.count} x {chosen.into} with breakouts, which the plan"
            " does not ask for",
        )
    return PortLanes(switch, ports, port_optic, link_gbps, chosen.count, chosen.into, chosen)


@dataclass(frozen=True, slots=True)
class LaneAssignment:
    link: str
    port: int
    """1-based switch port."""
    lane: int
    """1-based lane of the port (the breakout's leg); 1 without a breakout."""


@dataclass(frozen=True, slots=True)
class LinkRefusal:
    link: str
    reason: str


@dataclass(frozen=True, slots=True)
class LaneAllocation:
    lanes: PortLanes
    assigned: tuple[LaneAssignment, ...]
    """In the links' order: port 1's lanes first, then port 2's."""
    refused: tuple[LinkRefusal, ...]
    """The links beyond capacity, in order, each with its reason."""

    @property
    def full(self) -> bool:
        return len(self.assigned) == self.lanes.capacity


def allocate_lanes(lanes: PortLanes, links: Sequence[str]) -> LaneAllocation:
    """Give each link, in order, the next free (port, lane): a port's lanes are filled before the
    next port is used, so a breakout cable's legs stay together and untouched ports stay whole.
    Links beyond the switch's capacity are refused, each naming the switch, its ports and lanes."""
    _unique(f"switches[{lanes.switch}].links", links)
    assigned = tuple(LaneAssignment(link, *lanes.lane_of(i + 1)) for i, link in enumerate(links[: lanes.capacity]))
    refused = tuple(
        LinkRefusal(link, lanes.refusal(lanes.capacity + k + 1, link)) for k, link in enumerate(links[lanes.capacity :])
    )
    return LaneAllocation(lanes, assigned, refused)


# --- Trunk sizing --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PatchedLink:
    """A link as the passive plant sees it: its name and the optic whose fibres it brings to a
    panel or trunk (at a breakout, the leg's optic on the leg's side)."""

    name: str
    optic: Optic


def link_fibres(optic: Optic) -> int:
    """Fibres a link of `optic` uses: its transmit and receive positions on each of its connectors
    (a duplex optic's two, a DR4's eight, a twin-port 2xDR4's sixteen). Where no source gives the
    positions, every fibre of its connectors: an upper bound, never too few (`fibres_unknown`)."""
    if not optic.positions_known:
        return optic.connector.fibres * optic.ports
    return (len(optic.tx_positions) + len(optic.rx_positions)) * optic.ports


class TrunkTermination(StrEnum):
    """How the links meet the trunk at its panels.

    CASSETTE: a cassette breaks the trunk's MPOs out into the links' ports, so the links' fibres
    pack the trunk's side by side (sized in fibres). PASS_THROUGH: each link's MPO plug mates one
    trunk leg (an MPO at each end) in an adapter, so a link takes whole legs, one per connector of
    its optic, of the optic's connector; the leg's fibres the optic does not use stay dark."""

    CASSETTE = "cassette"
    PASS_THROUGH = "pass-through"  # noqa: S105 (a panel kind, not a password)


@dataclass(frozen=True, slots=True)
class TrunkSizing:
    route: str
    trunk: Trunk
    count: int
    """Trunks of `trunk` on the route; 0 for a route that carries no link."""
    length_mm: int
    """The route's length as given (routed, slack included)."""
    ordered_length_mm: int
    """The next sold length at or above `length_mm`, or `length_mm` itself when made to order."""
    made_to_order: bool
    fibres_needed: int
    """The links' fibres (`link_fibres`)."""
    dark_fibres: int
    """Pass-through: fibres of the legs the links take that their optics do not use; 0 with cassettes."""
    legs_needed: int
    """Pass-through: trunk legs the links take; with cassettes, the legs their fibres fill."""
    notes: tuple[str, ...]
    """What the sizing assumed: a length made to order and why, fibres counted as an upper bound."""

    @property
    def fibres(self) -> int:
        return self.count * self.trunk.fibres

    @property
    def spare_fibres(self) -> int:
        """Fibres no link occupies (with pass-through: the fibres of the legs no link takes)."""
        return self.fibres - self.fibres_needed - self.dark_fibres

    def describe(self) -> str:
        length = f"{_m(self.ordered_length_mm)}{' (made to order)' if self.made_to_order else ''}"
        return (
            f"{self.route}: {self.count} x {self.trunk.name} ({self.trunk.fibres} fibres) at {length}:"
            f" {self.fibres} fibres for {self.fibres_needed}, {self.spare_fibres} spare"
            f"{f', {self.dark_fibres} dark in the legs the links take' if self.dark_fibres else ''}"
        )


def size_trunks(
    route: str,
    links: Sequence[PatchedLink],
    length_mm: int,
    catalog: StructuredCatalog,
    *,
    termination: TrunkTermination,
    connector: Connector | None = None,
) -> TrunkSizing:
    """The trunks a route between two panels needs for `links`, over `length_mm`.

    Candidates: the catalog's trunks of the links' fibre kind (all links of a route share one), of
    `connector` when given (the cassettes' rear MPO), and with pass-through of the optics' own
    connector. One trunk of the smallest fibre count that holds the links, or, when none does, as
    many of the largest as hold them (one part per route). Of two candidates with the same count
    the catalog's first is taken. The length is the first sold length at or above the route's; a
    trunk with no sold length that long is made to order at the route's length."""
    where = f"trunk_routes[{route}]"
    if length_mm <= 0:
        raise DomainError(f"{where}.length_mm", "must be positive")
    _unique(f"{where}.links", [link.name for link in links])
    notes: list[str] = []
    unknown = [link.optic.part for link in links if not link.optic.positions_known]
    if unknown:
        parts = ", ".join(sorted(set(unknown)))
        notes.append(f"fibres of {parts} counted as every fibre of its connectors: no source gives its positions")
    fibre = links[0].optic.fibre if links else None
    for i, link in enumerate(links):
        if link.optic.fibre != fibre:
            raise DomainError(
                f"{where}.links[{i}]",
                f"{link.name}'s {link.optic.part} runs on {link.optic.fibre}, the route's first link on {fibre}:"
                " one trunk carries one fibre kind",
            )
    needed = sum(link_fibres(link.optic) for link in links)
    if termination is TrunkTermination.PASS_THROUGH:
        mpo = {link.optic.connector for link in links}
        if Connector.LC_DUPLEX in mpo:
            i = next(i for i, link in enumerate(links) if link.optic.connector is Connector.LC_DUPLEX)
            raise DomainError(
                f"{where}.links[{i}]",
                f"{links[i].name}'s {links[i].optic.part} has a duplex LC: it meets a trunk through a cassette,"
                " not an MPO pass-through",
            )
        if len(mpo) > 1:
            raise DomainError(
                f"{where}.links", f"pass-through links of several connectors ({', '.join(sorted(mpo))}) on one trunk"
            )
        if connector is not None and mpo and connector not in mpo:
            raise DomainError(f"{where}.connector", f"{connector} does not mate the links' {mpo.pop()} plugs")
        if mpo:
            connector = next(iter(mpo))
    candidates = [
        t
        for t in catalog.trunks
        if (fibre is None or t.fibre == fibre) and (connector is None or t.connector == connector)
    ]
    if not candidates:
        raise DomainError(
            f"{where}.trunk",
            f"the catalog has no trunk of {fibre or 'any fibre'}{f' with {connector}' if connector else ''}",
        )
    pass_through = termination is TrunkTermination.PASS_THROUGH
    legs = sum(link.optic.ports for link in links) if pass_through else 0

    def capacity(t: Trunk) -> int:
        """What one trunk holds, in the unit the links need: legs with pass-through, else fibres."""
        return t.connectors_per_end if pass_through else t.fibres

    demand = legs if pass_through else needed
    by_size = sorted(candidates, key=capacity)  # stable: the catalog's first of equal counts
    holding = next((t for t in by_size if capacity(t) >= demand), None)
    if holding is not None:
        trunk, count = holding, (1 if demand else 0)
    else:
        largest = max(capacity(t) for t in by_size)
        trunk = next(t for t in by_size if capacity(t) == largest)
        count = -(-demand // largest)
    dark = legs * trunk.connector.fibres - needed if pass_through else 0
    if not pass_through:
        legs = -(-needed // trunk.connector.fibres)

    sold = next((n for n in trunk.lengths_mm if n >= length_mm), None)
    if sold is None:
        if trunk.lengths_mm:
            why = f"longer than its longest sold length, {_m(trunk.lengths_mm[-1])}"
        else:
            why = "the catalog gives it no sold length"
        notes.append(f"{trunk.name} made to order at {_m(length_mm)}: {why}")
    return TrunkSizing(
        route=route,
        trunk=trunk,
        count=count,
        length_mm=length_mm,
        ordered_length_mm=sold if sold is not None else length_mm,
        made_to_order=sold is None,
        fibres_needed=needed,
        dark_fibres=dark,
        legs_needed=legs,
        notes=tuple(notes),
    )


# --- Panel ports ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PanelPortAssignment:
    link: str
    panel: int
    """1-based panel of the rack's panels of this model."""
    port: int
    """The first front port the link takes on it."""
    ports: int
    """Consecutive front ports it takes (one per connector of its optic)."""


@dataclass(frozen=True, slots=True)
class PortExhaustion:
    """The rack's panels hold fewer front ports than its links need."""

    rack: str
    panel: str
    panels: int
    ports: int
    """Front ports of all `panels`."""
    ports_needed: int
    short: int
    """Front ports the refused links need."""
    links: tuple[str, ...]
    """The refused links, in order."""
    message: str


@dataclass(frozen=True, slots=True)
class PanelAllocation:
    rack: str
    panel: PatchPanel
    panels: int
    """Panels the rack may hold (the stated count, or what its free U take)."""
    assigned: tuple[PanelPortAssignment, ...]
    exhaustion: PortExhaustion | None

    @property
    def panels_used(self) -> int:
        return max((a.panel for a in self.assigned), default=0)


def panel_ports_needed(panel: PatchPanel, link: PatchedLink) -> int:
    """Front ports a link takes on `panel`: one per connector of its optic, which must be the
    panel's front connector (a duplex link on an LC panel, an MPO link on an MPO adapter panel)."""
    if link.optic.connector != panel.front_connector:
        raise DomainError(
            f"links[{link.name}].optic",
            f"{link.optic.part}'s {link.optic.connector} does not fit {panel.name}'s {panel.front_connector}"
            " front ports",
        )
    return link.optic.ports


def allocate_panel_ports(
    rack: str,
    panel: PatchPanel,
    links: Sequence[PatchedLink],
    *,
    max_panels: int | None = None,
    free_u: int | None = None,
) -> PanelAllocation:
    """Land each link, in order, on the next free front ports of the rack's `panel`s: panel 1's
    ports first. The rack holds at most `max_panels` of them and at most what `free_u` rack units
    take (whichever is fewer; at least one must be given). A link's ports stay on one panel. Links
    past the last port are refused, in one exhaustion finding naming the rack, the panel and the
    count of ports short."""
    where = f"racks[{rack}]"
    if max_panels is None and free_u is None:
        raise DomainError(f"{where}.panels", "give the panels the rack may hold or its free U")
    if max_panels is not None and max_panels < 0:
        raise DomainError(f"{where}.max_panels", "must not be negative")
    if free_u is not None and free_u < 0:
        raise DomainError(f"{where}.free_u", "must not be negative")
    _unique(f"{where}.links", [link.name for link in links])
    limits = [n for n in (max_panels, None if free_u is None else free_u // panel.height_u) if n is not None]
    panels = min(limits)
    needs = [panel_ports_needed(panel, link) for link in links]

    assigned: list[PanelPortAssignment] = []
    at_panel, next_port = 1, 1
    refused_from = len(links)
    for i, (link, need) in enumerate(zip(links, needs, strict=True)):
        if next_port + need - 1 > panel.ports:
            at_panel, next_port = at_panel + 1, 1
        if at_panel > panels or need > panel.ports:
            refused_from = i  # allocation is in order: once one link has no ports, none after it does
            break
        assigned.append(PanelPortAssignment(link.name, at_panel, next_port, need))
        next_port += need

    refused = tuple(link.name for link in links[refused_from:])
    exhaustion = None
    if refused:
        held = panels * panel.ports
        needed = sum(needs)
        short = sum(needs[refused_from:])
        room = []
        if max_panels is not None:
            room.append(f"at most {max_panels}")
        if free_u is not None:
            room.append(f"{free_u} free U for {panel.height_u}U panels")
        after = f" and the {len(refused) - 1} after it have" if len(refused) > 1 else " has"
        exhaustion = PortExhaustion(
            rack=rack,
            panel=panel.name,
            panels=panels,
            ports=held,
            ports_needed=needed,
            short=short,
            links=refused,
            message=(
                f"rack {rack}: {panels} x {panel.name} ({' and '.join(room)}) hold {held} front ports"
                f" ({panel.ports} each); its {len(links)} links need {needed}: {short} ports short"
                f" ({refused[0]}{after} none)"
            ),
        )
    return PanelAllocation(rack, panel, panels, tuple(assigned), exhaustion)
