"""The plant builder (issue 29): a direct plan's ToR uplinks laid out as structured cabling.

`structure_plan(hall, plan, settings, geometry, catalog)` reads the direct plan's `TOR_FABRIC`
links (A = the ToR, B = the fabric switch; the plan stays the truth of the network) and builds the
passive plant each one runs through, ToR first. The other links stay direct: server links and
GRIN server pairs run inside a rack or between neighbours, and aggregation-to-core links join two
network racks' switches without a row to cross.

- **ToR end**: a cord from the ToR port to a panel front port: in the ToR's own rack
  (`PanelPlacement.RACK`), or in the rack at the end of the ToR's row nearest the fabric switches
  its links go to (`ROW_END`: the end rack with the least floor distance, summed over those links;
  the first by position on a tie). Panels take a rack's free U from the top down.
- **Network end**: panels in the fabric switch's rack, a cord from the panel to the switch port.
- **Trunks**: one trunk route per (ToR-side panel rack, network rack, termination, fibre, whole
  broken-out ports or not), sized by `sizing.size_trunks`, routed between the two panels like a
  cable (`routing.route_mm`, with the geometry's allowances and slack). Every leg of a trunk lands
  on one panel at each end (its legs' rear ports side by side), spare legs included.
- **Terminations**: a duplex optic (LC) meets the trunk through a cassette (a front LC port per
  link, the cassette's rear MPO one trunk leg): with a Type-B trunk and A-to-B cords this is
  TIA-568.3-D Method B, where front port k at one end arrives at the port the polarity rules say
  (k -> 7 - k on a 6-port cassette: derived from `polarity.segment_paths`, never assumed). A
  parallel optic (MPO, one connector) takes a whole trunk leg through MPO adapter plates.
- **Breakouts**: a logical link whose fabric port is ``e<port>/<lane>`` (`optics.lane_port`) shares
  the port's optic (e.g. 400G-DR4) with the port's other lanes, and is split where the lanes part.
  Where every lane of the port goes to ToRs of one ToR-side panel rack (the row end, or the rack
  with `PanelPlacement.RACK`), the port's MPO travels whole: a Type-B MPO cord to an adapter plate
  in the network rack, the trunk's MPO leg passed through (one leg per connector, 8 of its 12
  fibres lit), a DR4 breakout module at the ToR side (Corning ECM-UM08-04-E8GF-ULL in a Corning
  EDGE-01U: rear MPO, front LC port k = lane k's pair; Type-B trunk + Type-B cord are straight, as
  its pairs (k, 13 - k) need) and an LC cord to the ToR: one MPO pair at each panel and one LC pair,
  2.0 dB at the catalog's defaults against the DR4's 3.0. These ports' legs go on trunks of their
  own (a route per rack pair, "breakout"), not beside parallel links' legs or cassette links' fibres:
  their ToR-side ends are modules in another panel, and a trunk lands on one panel at each end.
  A port whose lanes straddle two panel racks (two rows) is split at the network rack instead: its
  MPO cord (Type A) goes to the rear of a module there, and an LC jumper patches the module's front
  port of the lane to the trunk cassette port of the link; ToR - cord - cassette - trunk - cassette -
  jumper - module - MPO cord - fabric port, three cassettes (3.75 dB at the defaults: over a DR4's
  budget, and said so per link). Either way the chain traces lane by lane. A twin-port optic
  (800G-2xDR4) has a module per connector; where each lane is a whole connector (2 x 400G-DR4) the
  lane passes through like a parallel link, its last cord in that connector.
- **Row end = network rack**: where a row's nearest end rack holds the fabric switches, its row-end
  and network panels stand in the same rack and the trunk between them runs inside it.

Items are kept once (a trunk, a module port, a port's MPO cord serve several links) and oriented
along the chains: end A is the side nearer the ToR. Each link's chain steps name them in order,
position 0 at the ToR. A cord's item id is `labels.cable_id` of its two ends (it is a cable); other
items' ids are derived from their names the same way (`plant_item_id`).

The checks (`checks.py`) run on each built link's chain: polarity lane by lane, loss against the
budget, reach, connectors. Links a rack has no panel ports for are left out of the plant, named in a
`ports` finding; links the builder cannot lay out (a twin-port optic at the ToR) in one finding per
reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from hashlib import blake2b

from loopline.domain.errors import DomainError
from loopline.domain.labels import cable_id, cable_label
from loopline.domain.layout import Hall, Rack, Row
from loopline.domain.routing import (
    GeometryPreset,
    PortPoint,
    Via,
    device_z_mm,
    ports_xy,
    route_mm,
    tray_z_mm,
)
from loopline.domain.structured.catalog import (
    Cassette,
    Connector,
    FibreKind,
    Optic,
    PatchCord,
    PatchPanel,
    PolarityMethod,
    StructuredCatalog,
    Trunk,
)
from loopline.domain.structured.chain import (
    Segment,
    SegmentKind,
    cassette_segment,
    cord_segment,
    trunk_segment,
)
from loopline.domain.structured.checks import FINDINGS_PER_KIND, LinkUnderCheck, check_links
from loopline.domain.structured.optics import breakout_lanes, port_optic, split_lane
from loopline.domain.structured.plant import (
    ChainStep,
    FindingKind,
    PanelPlacement,
    PlantFinding,
    PlantItem,
    PlantOptic,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)
from loopline.domain.structured.polarity import segment_paths
from loopline.domain.structured.sizing import (
    PatchedLink,
    TrunkSizing,
    TrunkTermination,
    size_trunks,
)
from loopline.domain.wiring.model import Cable, Device, LinkClass, WiringPlan

# --- The parts the builder fits (one place) ---------------------------------------------------

PANEL = "FS FHD-1UFCE"
"""1U, 4 cassette slots: holds the trunk cassettes and the MPO adapter plates."""
DUPLEX_CASSETTES: dict[FibreKind, str] = {
    FibreKind.OS2: "FS FHD-1MTP6LCDOS2A",
    FibreKind.OM4: "FS FHD-1MTP6LCDOM4U",
}
"""A duplex link's cassette by fibre: 6 LC duplex front ports, one MPO-12 rear (one trunk leg)."""
ADAPTER_PLATE = "FS FHD-FAP12MTPHA"
"""12 MPO adapters (key up to key down) in a cassette slot: a parallel link's pass-through."""
LC_CORDS: dict[FibreKind, str] = {FibreKind.OS2: "CORD-LC-LC-AB-OS2", FibreKind.OM4: "CORD-LC-LC-AB-OM4"}
"""A-to-B duplex cords: Method B wants them at both ends (and for the breakout jumper)."""
MPO_CORD = "CORD-MPO12-MPO12-B-PU-OS2"
"""A parallel link's cords, and a whole broken-out port's from its adapter plate: Type B, the pinned
end in the adapter (an unpinned trunk behind it)."""
BREAKOUT_PANEL = "Corning EDGE-01U"
BREAKOUT_MODULE = "Corning ECM-UM08-04-E8GF-ULL"
"""A DR4 breakout module: rear MPO-12 from the fast port, front LC port k = lane k's fibre pair."""
BREAKOUT_CORD = "CORD-MPO12-MPO12-A-UU-OS2"
"""Fast port to a network-side module's rear: Type A, as the module's pairs (k, 13 - k) need."""
TRUNK_METHOD = PolarityMethod.B
"""The catalog's trunks are Type B: with A-to-B cords and straight cassettes, Method B."""


def plant_item_id(prefix: str, name: str) -> str:
    """A plant item's id: `prefix` + 16 hex digits of BLAKE2b over its name (as `labels.cable_id`
    does for cables), so the same layout gives the same ids in every regeneration."""
    return prefix + blake2b(name.encode(), digest_size=8).hexdigest()


def front_port(n: int) -> str:
    return f"F{n:02d}"


def rear_port(n: int) -> str:
    return f"R{n:02d}"


def rear_ports(first: int, last: int) -> str:
    """A trunk end's rear ports: ``R02``, or ``R01-R02`` for the side by side legs of a trunk."""
    return rear_port(first) if first == last else f"{rear_port(first)}-{rear_port(last)}"


def panel_name(rack: str, u: int) -> str:
    """TIA-606 style, like a device: ``<rack>.U<nn>`` (the panel's lowest U)."""
    return f"{rack}.U{u:02d}"


# --- Racks and their free U -------------------------------------------------------------------


@dataclass(slots=True)
class _RackSpace:
    key: int
    name: str
    row: Row
    rack: Rack
    free: list[int]
    """Free U, highest first (panels take the top free U)."""
    had_free: int = 0
    """Free U before any panel."""

    def take(self, height_u: int) -> int | None:
        """The lowest U of the highest run of `height_u` free U, taken; None when none is left."""
        free = set(self.free)
        for top in self.free:
            low = top - height_u + 1
            if all(u in free for u in range(low, top + 1)):
                self.free = [u for u in self.free if not low <= u <= top]
                return low
        return None


def _rack_spaces(hall: Hall) -> dict[str, _RackSpace]:
    out: dict[str, _RackSpace] = {}
    for row in hall.rows:
        for rack in row.racks:
            taken: set[int] = set()
            for lr in rack.logical_racks:
                taken.update(range(lr.base_u, lr.top_u + 1))
            for fs in rack.fabric_switches:
                taken.update(range(fs.u, fs.u + fs.model.height_u))
            name = f"{hall.name}.{row.name}.{rack.name}"
            free = [u for u in range(rack.rack_type.height_u, 0, -1) if u not in taken]
            out[name] = _RackSpace(len(out) + 1, name, row, rack, free, len(free))
    return out


# --- Panels, banks of them, and the trunk legs they hold -------------------------------------


@dataclass(slots=True)
class _Panel:
    panel_id: str
    rack: str
    u: int
    model: PatchPanel
    cassette: Cassette
    role: PlantRole
    units: int
    """Rear ports when every slot holds the cassette."""
    per_unit: int
    """Front ports behind each rear port (6 on a duplex cassette, 1 on an adapter, 4 on a module)."""
    used: int = 0
    """Rear ports given out (spare legs' included)."""
    ports_used: int = 0
    """Front ports a built link uses."""


@dataclass(slots=True)
class _Bank:
    """The panels of one model and cassette that one role fills in one rack, in order."""

    space: _RackSpace
    role: PlantRole
    model: PatchPanel
    cassette: Cassette
    panels: list[_Panel] = field(default_factory=list)
    refused_units: int = 0
    refused_links: list[str] = field(default_factory=list)
    full: bool = False

    @property
    def per_unit(self) -> int:
        return self.cassette.front_ports // self.cassette.rear_ports

    @property
    def units_per_panel(self) -> int:
        slots = self.model.cassette_slots or 1
        return slots * self.cassette.rear_ports

    def place(self, units: int) -> tuple[_Panel, int] | None:
        """`units` side by side rear ports on one panel: (panel, first rear port, from 1); None (and
        every later request refused too, as `sizing.allocate_panel_ports` does) when the rack has no
        U left for another panel."""
        if self.full or units > self.units_per_panel:
            self.full = True
            return None
        panel = self.panels[-1] if self.panels else None
        if panel is None or panel.used + units > panel.units:
            u = self.space.take(self.model.height_u)
            if u is None:
                self.full = True
                return None
            panel = _Panel(
                panel_name(self.space.name, u),
                self.space.name,
                u,
                self.model,
                self.cassette,
                self.role,
                self.units_per_panel,
                self.per_unit,
            )
            self.panels.append(panel)
        first = panel.used + 1
        panel.used += units
        return panel, first

    def finding(self) -> PlantFinding | None:
        if not self.refused_links:
            return None
        per = self.per_unit
        held = sum(p.units for p in self.panels) * per
        used = sum(p.used for p in self.panels) * per
        short = self.refused_units * per
        n = len(self.refused_links)
        after = f" and the {n - 1} after it have" if n > 1 else " has"
        return PlantFinding(
            kind=FindingKind.PORTS,
            severity="error",
            cable_id=None,
            item_id=None,
            message=(
                f"rack {self.space.name}: {len(self.panels)} x {self.model.name} with {self.cassette.name}"
                f" ({self.role} panels; the rack had {self.space.had_free} U free) hold {held} front ports"
                f" ({self.units_per_panel * per}"
                f" each); its links need {used + short}: {short} ports short ({self.refused_links[0]}{after} none)"
            ),
        )


@dataclass(slots=True)
class _Leg:
    a_panel: _Panel
    a_rear: int
    b_panel: _Panel
    b_rear: int


@dataclass(slots=True)
class _Trunk:
    label: str
    item_id: str
    legs: list[_Leg]
    length_mm: int = 0


# --- Links ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Link:
    cable: Cable
    tor: Device
    fabric: Device
    fabric_port: str
    """The physical port (``e5`` of ``e5/2``)."""
    lane: int | None
    tor_optic: Optic
    fabric_optic: Optic
    lanes_per_connector: int = 1
    """A broken-out port's lanes on each connector of its optic (4 on a DR4; 4 on each of a twin-port
    2xDR4's two broken into 8; 1 where each lane is a whole connector)."""
    panel_rack: str = ""
    termination: TrunkTermination = TrunkTermination.CASSETTE
    tor_side_breakout: bool = False
    """A lane of a port whose lanes all reach one ToR-side panel rack: the port's MPO travels whole
    (a pass-through trunk leg per connector) to a breakout module there."""
    # Where it lands (set by the allocation):
    trunk: int = -1
    leg: int = -1
    port_in_cassette: int = 1
    """The front port of its ToR-side cassette (1 on an adapter plate)."""

    @property
    def connector(self) -> int:
        """The fast port's connector the lane is on (1 unless a twin-port optic's second)."""
        return 1 if self.lane is None else (self.lane - 1) // self.lanes_per_connector + 1

    @property
    def lane_in_connector(self) -> int:
        return 1 if self.lane is None else (self.lane - 1) % self.lanes_per_connector + 1


@dataclass(slots=True)
class _Route:
    name: str
    panel_rack: str
    net_rack: str
    termination: TrunkTermination
    fibre: FibreKind
    breakout: bool = False
    """Pass-through legs of whole broken-out ports, landing on breakout modules at the ToR side."""
    links: list[_Link] = field(default_factory=list)
    """Its links; after the panels are allocated, those that got panel ports at both ends."""
    sized: list[PatchedLink] = field(default_factory=list)
    """Every link the route's trunks were sized for (their part and count; links a panel refused
    included, so the final sizing, for the length, picks the same part)."""
    sizing: TrunkSizing | None = None
    trunks: list[_Trunk] = field(default_factory=list)


@dataclass(slots=True)
class _Module:
    """A broken-out fabric port's breakout module (and the MPO cord from the port to its rear)."""

    fabric: Device
    port: str
    optic: Optic
    panel: _Panel | None = None
    rear: int = 0


class _Builder:
    def __init__(
        self,
        hall: Hall,
        plan: WiringPlan,
        settings: StructuredSettings,
        geometry: GeometryPreset,
        catalog: StructuredCatalog,
    ) -> None:
        self.hall = hall
        self.plan = plan
        self.settings = settings
        self.geometry = geometry
        self.catalog = catalog
        self.spaces = _rack_spaces(hall)
        self.devices = {d.name: d for d in plan.devices}
        self.fabric_gbps = {
            f"{hall.name}.{fs.name}": fs.model.server_port_gbps
            for row in hall.rows
            for rack in row.racks
            for fs in rack.fabric_switches
        }
        self.tray_z = tray_z_mm(geometry, hall)
        self.findings: list[PlantFinding] = []
        self.unbuilt: dict[str, tuple[Cable, int]] = {}
        self.route_findings: list[PlantFinding] = []
        self.banks: dict[tuple[str, PlantRole, str, str], _Bank] = {}
        self.items: dict[str, PlantItem] = {}
        self.steps: list[ChainStep] = []
        self.optics: dict[tuple[str, str], PlantOptic] = {}
        self.checked: list[LinkUnderCheck] = []
        self._templates: dict[tuple[object, ...], Segment] = {}
        self._points: dict[str, PortPoint] = {}
        self._far_ports: dict[tuple[str, str], dict[int, int]] = {}
        self.trunk_counts: dict[tuple[str, str], int] = {}

    # -- pass 1: the links, their optics and panel racks ---------------------------------------

    def links(self) -> list[_Link]:
        out: list[_Link] = []
        lane_optics: dict[tuple[float, float], tuple[Optic, Optic, int]] = {}
        for c in self.plan.cables:
            if c.link_class is not LinkClass.TOR_FABRIC:
                continue
            tor, fabric = self.devices[c.a_device], self.devices[c.b_device]
            physical, lane = split_lane(c.b_port)
            if lane is None:
                tor_optic = fabric_optic = port_optic(c.gbps)
            else:
                port_gbps = self.fabric_gbps.get(fabric.node_id, c.gbps)
                key = (port_gbps, c.gbps)
                if key not in lane_optics:
                    lanes = breakout_lanes(fabric.name, 1, port_gbps, c.gbps)
                    if lanes is None:
                        raise DomainError(
                            "breakouts",
                            f"{c.label}: {fabric.name}'s {port_gbps:g}G ports do not break out into {c.gbps:g}G lanes",
                        )
                    lane_optics[key] = (
                        self.catalog.optic(lanes.lane_optic),
                        lanes.port_optic,
                        max(1, lanes.lanes_per_port // lanes.port_optic.ports),
                    )
                tor_optic, fabric_optic, per_connector = lane_optics[key]
                out.append(_Link(c, tor, fabric, physical, lane, tor_optic, fabric_optic, per_connector))
                continue
            out.append(_Link(c, tor, fabric, physical, lane, tor_optic, fabric_optic))
        return out

    def choose_panel_racks(self, links: list[_Link]) -> None:
        if self.settings.panel_at is PanelPlacement.RACK:
            for link in links:
                link.panel_rack = link.tor.rack
            return
        by_row: dict[int, list[_Link]] = {}
        for link in links:
            by_row.setdefault(id(self.spaces[link.tor.rack].row), []).append(link)
        for row_links in by_row.values():
            row = self.spaces[row_links[0].tor.rack].row
            ordered = sorted(row.racks, key=lambda r: r.position_mm)
            ends = [ordered[0], ordered[-1]] if len(ordered) > 1 else [ordered[0]]

            def distance(end: Rack, row: Row = row, row_links: list[_Link] = row_links) -> int:
                x, y = ports_xy(self.geometry, row, end)
                return sum(abs(x - lk.fabric.x_mm) + abs(y - lk.fabric.y_mm) for lk in row_links)

            best = min(ends, key=distance)  # min keeps the first of equals: the lower position
            name = f"{self.hall.name}.{row.name}.{best.name}"
            for link in row_links:
                link.panel_rack = name

    # -- pass 2: routes, trunks, panels ------------------------------------------------------

    def routes(self, links: list[_Link]) -> list[_Route]:
        routes: dict[tuple[str, str, TrunkTermination, FibreKind, bool], _Route] = {}
        pairs: set[tuple[str, str]] = set()
        laid: list[_Link] = []
        # Per broken-out fabric port: the one ToR-side panel rack all its lanes reach, or "" when
        # they reach several (the port's lanes straddle two rows).
        port_racks: dict[tuple[str, str], str] = {}
        for link in links:
            optic = link.tor_optic
            if optic.ports != 1 or (link.lane is None and link.fabric_optic.ports != 1):
                # Each link would take two trunk legs and two panel ports at each end.
                self.not_built(link, f"a link of twin-port optics ({optic.part}) is not laid out")
                continue
            if optic.connector is not Connector.LC_DUPLEX:
                if link.lane is not None and link.lanes_per_connector != 1:
                    self.not_built(link, f"a lane of {optic.part} ({optic.connector}) shares a connector")
                    continue
                # A parallel link (or a lane that is a whole connector of the fast port) takes a leg.
                link.termination = TrunkTermination.PASS_THROUGH
            elif link.lane is not None:
                port = (link.fabric.name, link.fabric_port)
                rack = port_racks.setdefault(port, link.panel_rack)
                if rack and rack != link.panel_rack:
                    port_racks[port] = ""
            laid.append(link)
        for link in laid:
            # Split where the lanes part: at the ToR-side panels when they all go there (one MPO
            # pair per panel and an LC pair: within a DR4's budget), else at the network rack.
            if (
                link.lane is not None
                and link.termination is TrunkTermination.CASSETTE
                and port_racks[(link.fabric.name, link.fabric_port)]
            ):
                link.termination = TrunkTermination.PASS_THROUGH
                link.tor_side_breakout = True
            key = (link.panel_rack, link.fabric.rack, link.termination, link.tor_optic.fibre, link.tor_side_breakout)
            route = routes.get(key)
            if route is None:
                name = f"{link.panel_rack} -> {link.fabric.rack}"
                if (key[0], key[1]) in pairs:  # a second route between the same racks says which
                    name = f"{name} ({'breakout' if key[4] else link.termination}, {key[3]})"
                pairs.add((key[0], key[1]))
                route = routes[key] = _Route(name, key[0], key[1], key[2], key[3], key[4])
            route.links.append(link)
        return list(routes.values())

    def cassette_for(self, route: _Route) -> Cassette | None:
        if route.termination is TrunkTermination.PASS_THROUGH:
            return self.catalog.cassette(ADAPTER_PLATE)
        name = DUPLEX_CASSETTES.get(route.fibre)
        return self.catalog.cassette(name) if name is not None else None

    def bank(self, rack: str, role: PlantRole, model: str, cassette: Cassette) -> _Bank:
        key = (rack, role, model, cassette.name)
        bank = self.banks.get(key)
        if bank is None:
            bank = self.banks[key] = _Bank(self.spaces[rack], role, self.catalog.panel(model), cassette)
        return bank

    def size(self, route: _Route, length_mm: int) -> TrunkSizing:
        cassette = self.cassette_for(route)
        assert cassette is not None
        if not route.sized and route.breakout:
            # A broken-out port's lanes share its MPO: the port takes whole legs, one per connector.
            ports = {(lk.fabric.name, lk.fabric_port): lk.fabric_optic for lk in route.links}
            route.sized = [PatchedLink(f"{f}:{p}", optic) for (f, p), optic in ports.items()]
        elif not route.sized:
            route.sized = [PatchedLink(link.cable.cable_id, link.tor_optic) for link in route.links]
        return size_trunks(
            route.name,
            route.sized,
            length_mm,
            self.catalog,
            termination=route.termination,
            connector=cassette.rear_connector if route.termination is TrunkTermination.CASSETTE else None,
        )

    def lay_trunks(self, routes: list[_Route]) -> list[_Route]:
        """Size each route's trunks (part and count: the length only picks the SKU, later) and land
        every leg on a panel at both ends; the routes whose links got panel ports."""
        side_role = PlantRole.RACK if self.settings.panel_at is PanelPlacement.RACK else PlantRole.ROW_END
        planned: list[tuple[_Route, Cassette, int]] = []
        for route in routes:
            cassette = self.cassette_for(route)
            if cassette is None:
                self.not_built_route(route, f"the catalog has no duplex cassette of {route.fibre}")
                continue
            try:
                sizing = self.size(route, 1)  # part and count; the length (SKU) once the panels stand
            except DomainError as e:
                self.not_built_route(route, f"{e.field}: {e.reason}")
                continue
            per = cassette.front_ports // cassette.rear_ports
            cpe = sizing.trunk.connectors_per_end
            if route.breakout:
                # A port's connectors take consecutive legs, in the order `size` counted the ports;
                # a lane lands on its module's front port of the lane.
                first_leg: dict[tuple[str, str], int] = {}
                next_leg = 0
                for link in route.links:
                    port = (link.fabric.name, link.fabric_port)
                    start = first_leg.get(port)
                    if start is None:
                        start = first_leg[port] = next_leg
                        next_leg += link.fabric_optic.ports
                    leg = start + link.connector - 1
                    link.trunk, link.leg = leg // cpe, leg % cpe
                    link.port_in_cassette = link.lane_in_connector
            else:
                for i, link in enumerate(route.links):
                    leg = i // per if route.termination is TrunkTermination.CASSETTE else i
                    link.trunk, link.leg = leg // cpe, leg % cpe
                    link.port_in_cassette = i % per + 1 if route.termination is TrunkTermination.CASSETTE else 1
            route.sizing = sizing
            planned.append((route, cassette, cpe))
        # The ToR side first (all racks), then the network side, so a trunk the ToR side could not
        # land takes no network ports.
        landed: dict[tuple[int, int], _Panel | None] = {}
        a_ends: dict[tuple[int, int], tuple[_Panel, int]] = {}
        module = self.catalog.cassette(BREAKOUT_MODULE)
        for r, (route, cassette, cpe) in enumerate(planned):
            if route.breakout:  # the ToR-side end of each leg is a breakout module's rear
                bank = self.bank(route.panel_rack, side_role, BREAKOUT_PANEL, module)
            else:
                bank = self.bank(route.panel_rack, side_role, PANEL, cassette)
            assert route.sizing is not None
            for t in range(route.sizing.count):
                got = bank.place(cpe)
                if got is None:
                    self.refuse(bank, route, t, cpe)
                    continue
                a_ends[(r, t)] = got
        for r, (route, cassette, cpe) in enumerate(planned):
            bank = self.bank(route.net_rack, PlantRole.NETWORK, PANEL, cassette)
            assert route.sizing is not None
            for t in range(route.sizing.count):
                a = a_ends.get((r, t))
                if a is None:
                    continue
                got = bank.place(cpe)
                if got is None:
                    self.refuse(bank, route, t, cpe)
                    landed[(r, t)] = None
                    continue
                (ap, a_first), (bp, b_first) = a, got
                legs = [_Leg(ap, a_first + j, bp, b_first + j) for j in range(cpe)]
                label = f"T-{route.panel_rack}-{route.net_rack}-{self.trunk_number(route)}"
                route.trunks.append(_Trunk(label, plant_item_id("T", label), legs))
                landed[(r, t)] = ap
        out: list[_Route] = []
        for r, (route, _, _) in enumerate(planned):
            if not route.trunks:
                continue
            # Renumber the landed trunks 0.. in order (route.trunks holds only those).
            count = route.sizing.count if route.sizing else 0
            index = {t: i for i, t in enumerate(t for t in range(count) if landed.get((r, t)) is not None)}
            kept = [link for link in route.links if link.trunk in index]
            for link in kept:
                link.trunk = index[link.trunk]
            route.links = kept
            out.append(route)
        return out

    def trunk_number(self, route: _Route) -> int:
        """Trunks between two racks are numbered 1.. across the pair's routes."""
        key = (route.panel_rack, route.net_rack)
        count = self.trunk_counts.get(key, 0) + 1
        self.trunk_counts[key] = count
        return count

    def refuse(self, bank: _Bank, route: _Route, trunk: int, units: int) -> None:
        bank.refused_units += units
        bank.refused_links.extend(link.cable.label for link in route.links if link.trunk == trunk)

    def not_built(self, link: _Link, why: str) -> None:
        """A link the builder cannot lay out: one finding per reason, counting the links."""
        first, n = self.unbuilt.get(why, (link.cable, 0))
        self.unbuilt[why] = (first, n + 1)

    def not_built_route(self, route: _Route, why: str) -> None:
        n = len(route.links)
        self.route_findings.append(
            PlantFinding(
                FindingKind.FACT_MISSING,
                "error",
                route.links[0].cable.cable_id,
                None,
                f"trunk route {route.name}: {why}; its {n} link{'s' if n != 1 else ''} not laid out",
            )
        )

    def unbuilt_findings(self) -> list[PlantFinding]:
        out = [
            PlantFinding(
                FindingKind.FACT_MISSING,
                "error",
                first.cable_id,
                None,
                f"{why}: {n:,} link{'s' if n != 1 else ''} not laid out (e.g. {first.label})",
            )
            for why, (first, n) in self.unbuilt.items()
        ]
        out.extend(_capped(self.route_findings, "trunk routes not laid out"))
        out.extend(_capped([f for b in self.banks.values() if (f := b.finding()) is not None], "racks short of ports"))
        return out

    def modules(self, routes: list[_Route]) -> dict[tuple[str, str, int], _Module]:
        """A breakout module per connector of a broken-out fabric port (a twin-port optic has two),
        in the fabric switch's rack."""
        out: dict[tuple[str, str, int], _Module] = {}
        module = self.catalog.cassette(BREAKOUT_MODULE)
        for route in routes:
            for link in route.links:
                if link.lane is None or route.termination is TrunkTermination.PASS_THROUGH:
                    continue
                key = (link.fabric.name, link.fabric_port, link.connector)
                if key not in out:
                    m = out[key] = _Module(link.fabric, link.fabric_port, link.fabric_optic)
                    bank = self.bank(link.fabric.rack, PlantRole.NETWORK, BREAKOUT_PANEL, module)
                    got = bank.place(1)
                    if got is None:
                        bank.refused_units += 1
                        bank.refused_links.append(f"{link.fabric.name}:{link.fabric_port}")
                    else:
                        m.panel, m.rear = got
        return out

    # -- lengths --------------------------------------------------------------------------------

    def point_of_panel(self, panel: _Panel) -> PortPoint:
        point = self._points.get(panel.panel_id)
        if point is None:
            point = self._points[panel.panel_id] = self._point_of_panel(panel)
        return point

    def _point_of_panel(self, panel: _Panel) -> PortPoint:
        space = self.spaces[panel.rack]
        x, y = ports_xy(self.geometry, space.row, space.rack)
        return PortPoint(x, y, device_z_mm(self.geometry, space.rack, panel.u, panel.model.height_u), space.key)

    def point_of_device(self, device: Device) -> PortPoint:
        return PortPoint(device.x_mm, device.y_mm, device.z_mm, self.spaces[device.rack].key)

    def length(self, a: PortPoint, b: PortPoint) -> int:
        """Routed like a cable (`routing.route_mm`), with the geometry's allowances and slack."""
        raw = route_mm(self.geometry, self.tray_z, a, b, self.hall.raised_floor_mm)
        return self.geometry.with_slack_mm(raw)

    def ordered(self, lengths: tuple[int, ...], length_mm: int) -> tuple[int, bool]:
        """(ordered length, made to order): the next sold length, or the length itself."""
        if not self.geometry.round_to_sold:
            return length_mm, False
        sold = next((n for n in lengths if n >= length_mm), None)
        return (sold, False) if sold is not None else (length_mm, True)

    def route_text(self, a: _Panel, b: _Panel) -> str:
        pa, pb = self.point_of_panel(a), self.point_of_panel(b)
        if pa.rack == pb.rack:
            return f"inside {a.rack}"
        along = f"{abs(pa.x_mm - pb.x_mm) / 1000:g} m along x, {abs(pa.y_mm - pb.y_mm) / 1000:g} m along y"
        via = {Via.TRAY: "the overhead tray", Via.FLOOR: "the raised floor", Via.FACES: "the rack faces"}
        return f"{a.rack} -> {via[self.geometry.via]}, {along} -> {b.rack}"

    # -- pass 3: items, steps, chains -------------------------------------------------------------

    def item(self, item: PlantItem) -> str:
        if item.item_id not in self.items:
            self.items[item.item_id] = item
        return item.item_id

    def optic(self, device: Device, port: str, optic: Optic) -> None:
        self.optics.setdefault((device.name, port), PlantOptic(device.name, port, optic.part))

    def cord_item(self, cord: PatchCord, a: tuple[str, str], b: tuple[str, str], length_mm: int) -> PlantItem:
        ordered, made = self.ordered(cord.lengths_mm, length_mm)
        return PlantItem(
            item_id=cable_id(a[0], a[1], b[0], b[1]),
            kind=SegmentKind.CORD,
            label=cable_label(a[0], a[1], b[0], b[1]),
            part=cord.name,
            a_end=a[0],
            a_port=a[1],
            b_end=b[0],
            b_port=b[1],
            length_mm=length_mm,
            ordered_mm=ordered,
            made_to_order=made,
            fibres=cord.connector_a.fibres,
        )

    def port_item(self, panel: _Panel, front: int, rear: int, *, from_front: bool) -> PlantItem:
        f, r = front_port(front), rear_port(rear)
        name = f"{panel.panel_id}:{f}"
        a, b = (f, r) if from_front else (r, f)
        return PlantItem(
            item_id=plant_item_id("P", name),
            kind=SegmentKind.PANEL_PORT,
            label=name,
            part=panel.cassette.name,
            a_end=panel.panel_id,
            a_port=a,
            b_end=panel.panel_id,
            b_port=b,
        )

    def far_port(self, cassette: Cassette, trunk: Trunk, k: int) -> int:
        """The front port of end B's cassette that front port k of end A's reaches through a trunk
        leg (the pair's fibres, by the polarity rules: k -> 7 - k over a Type-B leg between 6-port
        straight cassettes). Where no fibre gets there the port stays k, and the trace says why."""
        key = (cassette.name, trunk.name)
        table = self._far_ports.get(key)
        if table is None:
            leg = segment_paths(trunk_segment(trunk, "t", 1))
            rear_to_front = {(m.rear_port, m.rear_position): m.front_port for m in cassette.fibre_map}
            table = self._far_ports[key] = {}
            for m in cassette.fibre_map:
                if m.front_position != 1:
                    continue
                far = leg.get((1, m.rear_position))
                if far is not None and (m.rear_port, far[1]) in rear_to_front:
                    table[m.front_port] = rear_to_front[(m.rear_port, far[1])]
        return table.get(k, k)

    def build_link(self, route: _Route, link: _Link, modules: dict[tuple[str, str, int], _Module]) -> None:
        if route.breakout:
            self.build_tor_side_breakout(route, link)
            return
        cat = self.catalog
        pass_through = route.termination is TrunkTermination.PASS_THROUGH
        trunk_part = route.sizing.trunk if route.sizing else None
        assert trunk_part is not None
        trunk = route.trunks[link.trunk]
        leg = trunk.legs[link.leg]
        module = modules.get((link.fabric.name, link.fabric_port, link.connector))
        if link.lane is not None and not pass_through and (module is None or module.panel is None):
            return  # no module port: named in the breakout panels' ports finding
        tor, fab = link.tor, link.fabric
        tor_port = link.cable.a_port
        cassette = leg.a_panel.cassette
        if pass_through:
            # An adapter plate: front port k mates rear port k; the trunk's leg j lands on the
            # same leg at both ends.
            a_front, b_front = leg.a_rear, leg.b_rear
            k_a = ((leg.a_rear - 1) % cassette.rear_ports) + 1
            k_b = ((leg.b_rear - 1) % cassette.rear_ports) + 1
            cord = cat.cord(MPO_CORD)
        else:
            per = leg.a_panel.per_unit
            k_a = link.port_in_cassette
            k_b = self.far_port(cassette, trunk_part, k_a)
            a_front = (leg.a_rear - 1) * per + k_a
            b_front = (leg.b_rear - 1) * per + k_b
            cord = cat.cord(LC_CORDS[route.fibre])
        pa, pb = leg.a_panel, leg.b_panel
        pa.ports_used += 1
        pb.ports_used += 1
        # (item, detail, segment template): the item's length goes with the template
        steps: list[tuple[PlantItem, str, Segment]] = []

        # ToR cord: a pass-through link's cord has its unpinned end in the ToR's module, the pinned
        # one in the adapter (the cord's end B faces the ToR).
        cord_a = self.cord_item(
            cord,
            (tor.name, tor_port),
            (pa.panel_id, front_port(a_front)),
            self.length(self.point_of_device(tor), self.point_of_panel(pa)),
        )
        steps.append((cord_a, "", self.cord_template(cord, flipped=pass_through)))
        # ToR-side panel port
        port_a = self.port_item(pa, a_front, leg.a_rear, from_front=True)
        steps.append(
            (
                port_a,
                f"front {port_a.a_port} -> rear {port_a.b_port}",
                self.port_template(cassette, k_a, leg.a_rear, True),
            )
        )
        # trunk leg
        trunk_item = self.items.get(trunk.item_id) or self.trunk_item(route, trunk, trunk_part)
        legs = f"leg {link.leg + 1} ({rear_port(leg.a_rear)} -> {rear_port(leg.b_rear)})"
        detail = legs if pass_through else f"{legs}, fibres {2 * k_a - 1}-{2 * k_a}"
        steps.append((trunk_item, detail, self.trunk_template(trunk_part)))
        # network-side panel port
        port_b = self.port_item(pb, b_front, leg.b_rear, from_front=False)
        steps.append(
            (
                port_b,
                f"rear {port_b.a_port} -> front {port_b.b_port}",
                self.port_template(cassette, k_b, leg.b_rear, False),
            )
        )

        if module is None:
            cord_b = self.cord_item(
                cord,
                (pb.panel_id, front_port(b_front)),
                (fab.name, link.fabric_port),
                self.length(self.point_of_panel(pb), self.point_of_device(fab)),
            )
            # A lane that is a whole connector of a twin-port optic: which of its connectors.
            detail = "" if link.lane is None else f"connector {link.connector}"
            steps.append((cord_b, detail, self.cord_template(cord, flipped=False)))
        else:
            assert module.panel is not None and link.lane is not None
            mp = module.panel
            lane = link.lane_in_connector
            m_front = (module.rear - 1) * mp.per_unit + lane
            mp.ports_used += 1
            jumper = self.cord_item(
                cord,
                (pb.panel_id, front_port(b_front)),
                (mp.panel_id, front_port(m_front)),
                self.length(self.point_of_panel(pb), self.point_of_panel(mp)),
            )
            steps.append((jumper, "", self.cord_template(cord, flipped=False)))
            m_item = self.port_item(mp, m_front, module.rear, from_front=True)
            detail = f"front {m_item.a_port} -> rear {m_item.b_port} (lane {link.lane})"
            steps.append((m_item, detail, self.port_template(mp.cassette, lane, 1, True)))
            mpo = cat.cord(BREAKOUT_CORD)
            mpo_item = self.items.get(cable_id(mp.panel_id, rear_port(module.rear), fab.name, module.port))
            if mpo_item is None:
                mpo_item = self.cord_item(
                    mpo,
                    (mp.panel_id, rear_port(module.rear)),
                    (fab.name, module.port),
                    self.length(self.point_of_panel(mp), self.point_of_device(fab)),
                )
            which = (
                f"lane {link.lane}"
                if link.fabric_optic.ports == 1
                else f"lane {link.lane} (connector {link.connector})"
            )
            steps.append((mpo_item, which, self.cord_template(mpo, flipped=False)))
        self.finish(link, steps, None if pass_through else TRUNK_METHOD)

    def build_tor_side_breakout(self, route: _Route, link: _Link) -> None:
        """A lane of a port whose MPO travels whole: ToR - LC cord - breakout module at the ToR-side
        panels (the lane's front port to the rear MPO) - the trunk's leg, passed through (the port's
        8 fibres of 12 lit) - MPO adapter in the network rack - MPO cord - fabric port. The MPO part
        is Type B (trunk) + Type B (cord): straight, as the module's pairs (k, 13 - k) need; the
        chain mixes a duplex and a parallel end, so it names no TIA method (the trace judges it)."""
        cat = self.catalog
        assert route.sizing is not None
        trunk_part = route.sizing.trunk
        trunk = route.trunks[link.trunk]
        leg = trunk.legs[link.leg]
        mp, pb = leg.a_panel, leg.b_panel
        tor, fab = link.tor, link.fabric
        tor_port = link.cable.a_port
        lane = link.lane_in_connector
        m_front = (leg.a_rear - 1) * mp.per_unit + lane
        mp.ports_used += 1
        steps: list[tuple[PlantItem, str, Segment]] = []
        cord = cat.cord(LC_CORDS[route.fibre])
        cord_a = self.cord_item(
            cord,
            (tor.name, tor_port),
            (mp.panel_id, front_port(m_front)),
            self.length(self.point_of_device(tor), self.point_of_panel(mp)),
        )
        steps.append((cord_a, "", self.cord_template(cord, flipped=False)))
        m_item = self.port_item(mp, m_front, leg.a_rear, from_front=True)
        detail = f"front {m_item.a_port} -> rear {m_item.b_port} (lane {link.lane})"
        steps.append((m_item, detail, self.port_template(mp.cassette, lane, leg.a_rear, True)))
        trunk_item = self.items.get(trunk.item_id) or self.trunk_item(route, trunk, trunk_part)
        legs = f"leg {link.leg + 1} ({rear_port(leg.a_rear)} -> {rear_port(leg.b_rear)})"
        steps.append((trunk_item, f"{legs}, lane {link.lane}", self.trunk_template(trunk_part)))
        plate = pb.cassette
        port_b = self.port_item(pb, leg.b_rear, leg.b_rear, from_front=False)
        k_b = (leg.b_rear - 1) % plate.rear_ports + 1
        detail = f"rear {port_b.a_port} -> front {port_b.b_port}"
        steps.append((port_b, detail, self.port_template(plate, k_b, leg.b_rear, False)))
        mpo = cat.cord(MPO_CORD)
        plate_end = (pb.panel_id, front_port(leg.b_rear))
        mpo_item = self.items.get(cable_id(*plate_end, fab.name, link.fabric_port))
        if mpo_item is None:  # the port's first lane: its MPO cord and adapter port
            pb.ports_used += 1
            mpo_item = self.cord_item(
                mpo,
                plate_end,
                (fab.name, link.fabric_port),
                self.length(self.point_of_panel(pb), self.point_of_device(fab)),
            )
        which = (
            f"lane {link.lane}" if link.fabric_optic.ports == 1 else f"lane {link.lane} (connector {link.connector})"
        )
        steps.append((mpo_item, which, self.cord_template(mpo, flipped=False)))
        self.finish(link, steps, None)

    def finish(self, link: _Link, steps: list[tuple[PlantItem, str, Segment]], method: PolarityMethod | None) -> None:
        """The link's chain steps, its ends' optics and the link as the checks read it."""
        cid = link.cable.cable_id
        add = self.steps.append
        for position, (item, detail, _) in enumerate(steps):
            add(ChainStep(cid, position, self.item(item), detail))
        tor_port = link.cable.a_port
        self.optic(link.tor, tor_port, link.tor_optic)
        self.optic(link.fabric, link.fabric_port, link.fabric_optic)
        self.checked.append(
            LinkUnderCheck(
                cable_id=cid,
                name=link.cable.label,
                optic_a=link.tor_optic,
                optic_b=link.fabric_optic,
                method=method,
                end_a=f"{link.tor.name}:{tor_port}",
                end_b=f"{link.fabric.name}:{link.cable.b_port}",
                segments=tuple(seg for _, _, seg in steps),
                lengths=tuple(item.length_mm for item, _, _ in steps),
                labels=tuple(item.label for item, _, _ in steps),
                item_ids=tuple(item.item_id for item, _, _ in steps),
            )
        )

    # Segment templates: one per make (part, ports, direction), labelled by their kind and without a
    # length; `LinkUnderCheck` gives each link's its own label and length when a check needs them.

    def template(self, key: tuple[object, ...], make: Callable[[], Segment]) -> Segment:
        seg = self._templates.get(key)
        if seg is None:
            seg = self._templates[key] = make()
        return seg

    def cord_template(self, cord: PatchCord, *, flipped: bool) -> Segment:
        def make() -> Segment:
            seg = cord_segment(cord, "the cord", 0)
            return seg.reversed() if flipped else seg

        return self.template(("cord", cord.name, flipped), make)

    def trunk_template(self, trunk: Trunk) -> Segment:
        return self.template(("trunk", trunk.name), lambda: trunk_segment(trunk, "the trunk", 0))

    def port_template(self, cassette: Cassette, front: int, rear: int, from_front: bool) -> Segment:
        # Within the cassette: its own front port `front`, its rear port (1 unless an adapter plate).
        rear_in = ((rear - 1) % cassette.rear_ports) + 1
        return self.template(
            ("port", cassette.name, front, rear_in, from_front),
            lambda: cassette_segment(
                cassette, "the panel port", front_port=front, rear_port=rear_in, from_front=from_front
            ),
        )

    def trunk_item(self, route: _Route, trunk: _Trunk, part: Trunk) -> PlantItem:
        sizing = route.sizing
        assert sizing is not None
        first, last = trunk.legs[0], trunk.legs[-1]
        a_ports, b_ports = rear_ports(first.a_rear, last.a_rear), rear_ports(first.b_rear, last.b_rear)
        return PlantItem(
            item_id=trunk.item_id,
            kind=SegmentKind.TRUNK,
            label=trunk.label,
            part=part.name,
            a_end=first.a_panel.panel_id,
            a_port=a_ports,
            b_end=first.b_panel.panel_id,
            b_port=b_ports,
            length_mm=trunk.length_mm,
            ordered_mm=sizing.ordered_length_mm,
            made_to_order=sizing.made_to_order,
            fibres=part.fibres,
            route=self.route_text(first.a_panel, first.b_panel),
        )

    # -- all together ---------------------------------------------------------------------------

    def build(self) -> StructuredPlant:
        links = self.links()
        self.choose_panel_racks(links)
        routes = self.lay_trunks(self.routes(links))
        modules = self.modules(routes)
        for route in routes:
            # One length per route (its longest trunk): its trunks share one part and SKU.
            length = max(
                self.length(self.point_of_panel(t.legs[0].a_panel), self.point_of_panel(t.legs[0].b_panel))
                for t in route.trunks
            )
            route.sizing = self.size(route, length)
            for t in route.trunks:
                t.length_mm = length
        for route in routes:
            for link in route.links:
                self.build_link(route, link, modules)
        self.findings.extend(self.unbuilt_findings())
        self.findings.extend(check_links(self.checked, self.settings, self.catalog))
        panels = [
            PlantPanel(
                panel_id=p.panel_id,
                rack=p.rack,
                u=p.u,
                model=p.model.name,
                cassette=p.cassette.name,
                cassettes=-(-p.used // p.cassette.rear_ports),
                front_ports=-(-p.used // p.cassette.rear_ports) * p.cassette.front_ports,
                ports_used=p.ports_used,
                role=p.role,
            )
            for bank in self.banks.values()
            for p in bank.panels
        ]
        panels.sort(key=lambda p: (p.rack, -p.u))
        return StructuredPlant(
            settings=self.settings,
            panels=panels,
            items=list(self.items.values()),
            steps=self.steps,
            findings=self.findings,
            optics=list(self.optics.values()),
        )


def _capped(findings: list[PlantFinding], what: str) -> list[PlantFinding]:
    """The first `FINDINGS_PER_KIND` of `findings` and, for the rest, one finding counting them."""
    if len(findings) <= FINDINGS_PER_KIND:
        return findings
    rest = len(findings) - FINDINGS_PER_KIND
    first = findings[0]
    more = PlantFinding(first.kind, first.severity, None, None, f"{rest:,} more {what}, not listed")
    return [*findings[:FINDINGS_PER_KIND], more]


def structure_plan(
    hall: Hall,
    plan: WiringPlan,
    settings: StructuredSettings,
    geometry: GeometryPreset,
    catalog: StructuredCatalog,
) -> StructuredPlant:
    """The passive plant of `plan`'s ToR uplinks (see the module docstring). The plan itself is not
    changed: its logical links stay what the engine, the diffs and the link counts read."""
    return _Builder(hall, plan, settings, geometry, catalog).build()
