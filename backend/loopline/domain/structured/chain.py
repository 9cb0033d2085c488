"""A logical link as a chain of segments, from the optic at device port A to the optic at B.

A segment is a length of cable (a cord, one leg of a trunk, a breakout cable) or a panel port (an
adapter, or a cassette: front port to rear MPO). Fibre positions follow the catalog's numbering:
each connector counts its positions from 1, as seen looking into the receptacle the plug sits in,
key up. Where a plug goes into a receptacle (an optic, a panel port) its positions are the
receptacle's, so the junction between two segments maps position n to n; what moves a fibre to
another position is a segment: a cable's polarity type, an adapter's key orientation, a cassette's
map. Those maps are the polarity module's rules (`polarity.segment_paths`); a segment stores what
it is (polarity type, adapter, explicit fibre runs for cassettes and breakouts), not a copy of them.

A chain is oriented: `reversed()` gives the same link traced from B to A.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from loopline.domain.errors import DomainError
from loopline.domain.structured.catalog import (
    BreakoutCable,
    Cassette,
    Connector,
    DuplexPolarity,
    FibreKind,
    Gender,
    Optic,
    PatchCord,
    PatchPanel,
    PolarityMethod,
    Trunk,
    TrunkPolarity,
)


class SegmentKind(StrEnum):
    CORD = "cord"
    PANEL_PORT = "panel port"
    TRUNK = "trunk"
    BREAKOUT = "breakout"


class Adapter(StrEnum):
    """How an adapter holds the two plugs it mates (TIA-568.3-D's adapter types).

    Key-up to key-down (TIA Type A) mates position n with n; key-up to key-up (TIA Type B) mates n
    with F+1-n, since each plug's positions run left to right seen from its own side. A duplex LC
    adapter holds both latches up, so it mates A with B (TIA's "B always meets A")."""

    KEY_UP_KEY_DOWN = "key-up to key-down"
    KEY_UP_KEY_UP = "key-up to key-up"


@dataclass(frozen=True, slots=True)
class FibreRun:
    """One fibre through a segment: (port, position) at its end A to (port, position) at its end B."""

    a_port: int
    a_position: int
    b_port: int
    b_position: int


CABLE_KINDS = frozenset({SegmentKind.CORD, SegmentKind.TRUNK, SegmentKind.BREAKOUT})


@dataclass(frozen=True, slots=True)
class Segment:
    """One piece of a link. `port_a`/`port_b`: which of the end's ports the link uses (a cassette's
    front port, a breakout's leg); 1 where an end has one connector."""

    kind: SegmentKind
    label: str
    part: str
    length_mm: int
    connector_a: Connector
    connector_b: Connector
    fibre: FibreKind | None = None
    """The cable's fibre; None for a panel port (its fibre is in the loss figure of its pairs)."""
    polarity: TrunkPolarity | DuplexPolarity | None = None
    """Cords and trunks: the map is the type's (polarity module)."""
    adapter: Adapter | None = None
    """A panel port without a cassette: one mated pair through this adapter."""
    runs: tuple[FibreRun, ...] = ()
    """Cassettes and breakouts: every fibre, end A to end B, from the catalog entry's map."""
    cassette: Cassette | None = None
    port_a: int = 1
    port_b: int = 1
    ports_a: int = 1
    ports_b: int = 1
    gender_a: Gender | None = None
    gender_b: Gender | None = None
    splices: int = 0

    def __post_init__(self) -> None:
        at = f"segments[{self.label}]"
        if self.length_mm < 0:
            raise DomainError(f"{at}.length_mm", "must not be negative")
        if self.splices < 0:
            raise DomainError(f"{at}.splices", "must not be negative")
        for name, port, ports in (("port_a", self.port_a, self.ports_a), ("port_b", self.port_b, self.ports_b)):
            if not 1 <= port <= ports:
                raise DomainError(f"{at}.{name}", f"must be one of the end's ports 1..{ports}")
        ways = [self.polarity is not None, self.adapter is not None, bool(self.runs)]
        if sum(ways) != 1:
            raise DomainError(f"{at}.polarity", "a segment's fibres follow exactly one of: polarity, adapter, runs")
        if (self.polarity is not None or self.adapter is not None) and self.connector_a != self.connector_b:
            raise DomainError(f"{at}.connector_b", "a typed cord, trunk or adapter has the same connector both ends")
        if self.kind in CABLE_KINDS and self.fibre is None:
            raise DomainError(f"{at}.fibre", f"a {self.kind} needs its fibre kind")
        if self.kind is SegmentKind.PANEL_PORT and self.length_mm:
            raise DomainError(f"{at}.length_mm", "a panel port has no length of its own")
        a_ends = {(r.a_port, r.a_position) for r in self.runs}
        b_ends = {(r.b_port, r.b_position) for r in self.runs}
        if len(a_ends) != len(self.runs) or len(b_ends) != len(self.runs):
            raise DomainError(f"{at}.runs", "a fibre position is mapped twice")
        for r in self.runs:
            if not (1 <= r.a_port <= self.ports_a and 1 <= r.a_position <= self.connector_a.fibres):
                raise DomainError(f"{at}.runs", f"end A {r.a_port}/{r.a_position} is not a fibre of the segment")
            if not (1 <= r.b_port <= self.ports_b and 1 <= r.b_position <= self.connector_b.fibres):
                raise DomainError(f"{at}.runs", f"end B {r.b_port}/{r.b_position} is not a fibre of the segment")

    @property
    def is_cable(self) -> bool:
        return self.kind in CABLE_KINDS

    def reversed(self) -> Segment:
        """The same segment entered from its end B. Polarity types and adapters map both ways alike
        (each of their maps is its own inverse); explicit runs swap ends."""
        return replace(
            self,
            connector_a=self.connector_b,
            connector_b=self.connector_a,
            runs=tuple(FibreRun(r.b_port, r.b_position, r.a_port, r.a_position) for r in self.runs),
            port_a=self.port_b,
            port_b=self.port_a,
            ports_a=self.ports_b,
            ports_b=self.ports_a,
            gender_a=self.gender_b,
            gender_b=self.gender_a,
        )


@dataclass(frozen=True, slots=True)
class LinkChain:
    """The ordered segments of one logical link from `optic_a` (device port A) to `optic_b`.

    `method`: the TIA-568.3-D connectivity method the chain is meant to follow (its cassettes', or
    the planner's for MPO pass-through); findings explain a failure against it. None: the polarity
    trace still judges Tx against Rx, without naming a method."""

    name: str
    optic_a: Optic
    optic_b: Optic
    segments: tuple[Segment, ...]
    method: PolarityMethod | None = None
    end_a: str = "A"
    end_b: str = "B"
    """What the ends are called in findings (the device ports, e.g. "R01-03 Eth1/49")."""

    def __post_init__(self) -> None:
        if not self.segments:
            raise DomainError(f"links[{self.name}].segments", "a link has at least one segment")

    @property
    def length_mm(self) -> int:
        """Fibre length end to end: the cables' lengths (panel ports have none)."""
        return sum(s.length_mm for s in self.segments)

    def reversed(self) -> LinkChain:
        return replace(
            self,
            optic_a=self.optic_b,
            optic_b=self.optic_a,
            segments=tuple(s.reversed() for s in reversed(self.segments)),
            end_a=self.end_b,
            end_b=self.end_a,
        )


# Building segments from catalog entries.


def cord_segment(cord: PatchCord, label: str, length_mm: int) -> Segment:
    if cord.connector_a != cord.connector_b:
        raise DomainError(f"cords.{cord.name}.connector_b", "a hybrid cord is not a polarity-typed cord")
    return Segment(
        kind=SegmentKind.CORD,
        label=label,
        part=cord.name,
        length_mm=length_mm,
        connector_a=cord.connector_a,
        connector_b=cord.connector_b,
        fibre=cord.fibre,
        polarity=cord.polarity,
        gender_a=cord.gender_a,
        gender_b=cord.gender_b,
    )


def trunk_segment(trunk: Trunk, label: str, length_mm: int, *, splices: int = 0) -> Segment:
    """One leg of a trunk (one MPO at each end): a trunk of several MPOs per end is that many legs,
    each of its polarity type."""
    return Segment(
        kind=SegmentKind.TRUNK,
        label=label,
        part=trunk.name,
        length_mm=length_mm,
        connector_a=trunk.connector,
        connector_b=trunk.connector,
        fibre=trunk.fibre,
        polarity=trunk.polarity,
        gender_a=trunk.gender_a,
        gender_b=trunk.gender_b,
        splices=splices,
    )


def adapter_segment(panel: PatchPanel, label: str, adapter: Adapter) -> Segment:
    """A pass-through panel port: the plug in front mates the plug at the rear in one adapter."""
    return Segment(
        kind=SegmentKind.PANEL_PORT,
        label=label,
        part=panel.name,
        length_mm=0,
        connector_a=panel.front_connector,
        connector_b=panel.front_connector,
        adapter=adapter,
    )


def cassette_segment(
    cassette: Cassette,
    label: str,
    *,
    front_port: int,
    rear_port: int = 1,
    from_front: bool = True,
) -> Segment:
    """A cassette's front port `front_port` to its rear port `rear_port`, entered from the front
    (the device end of the link is on the front side) or from the rear.

    The catalog's map is read as the path from the plug in a front port to the plug in the rear
    port: the cassette's own adapters are part of its map, as its datasheet draws it."""
    runs = tuple(FibreRun(m.front_port, m.front_position, m.rear_port, m.rear_position) for m in cassette.fibre_map)
    seg = Segment(
        kind=SegmentKind.PANEL_PORT,
        label=label,
        part=cassette.name,
        length_mm=0,
        connector_a=cassette.front_connector,
        connector_b=cassette.rear_connector,
        runs=runs,
        cassette=cassette,
        port_a=front_port,
        port_b=rear_port,
        ports_a=cassette.front_ports,
        ports_b=cassette.rear_ports,
    )
    return seg if from_front else seg.reversed()


def breakout_segment(cable: BreakoutCable, label: str, length_mm: int, *, leg: int) -> Segment:
    """A fibre breakout cable entered at its MPO end, leaving by leg `leg` (reverse it for the
    other way)."""
    if not isinstance(cable.end, Connector) or not isinstance(cable.leg_end, Connector) or cable.fibre is None:
        raise DomainError(f"breakout_cables.{cable.name}", "a copper or AOC breakout has no fibres to trace")
    return Segment(
        kind=SegmentKind.BREAKOUT,
        label=label,
        part=cable.name,
        length_mm=length_mm,
        connector_a=cable.end,
        connector_b=cable.leg_end,
        fibre=cable.fibre,
        runs=tuple(FibreRun(m.rear_port, m.rear_position, m.front_port, m.front_position) for m in cable.fibre_map),
        port_a=1,
        port_b=leg,
        ports_a=1,
        ports_b=cable.legs,
    )


# The common chains.


@dataclass(frozen=True, slots=True)
class CordRun:
    """A cord in a chain; `flipped`: its end B faces the chain's end A (which end a pinned-unpinned
    MPO cord plugs where)."""

    cord: PatchCord
    label: str
    length_mm: int
    flipped: bool = False

    def segment(self) -> Segment:
        seg = cord_segment(self.cord, self.label, self.length_mm)
        return seg.reversed() if self.flipped else seg


@dataclass(frozen=True, slots=True)
class PanelPortRun:
    """The panel port a link passes: through `cassette` (its `front_port` to its `rear_port`), or
    through one `adapter` (an MPO pass-through panel, `front_port` being the adapter)."""

    panel: PatchPanel
    label: str
    front_port: int
    cassette: Cassette | None = None
    rear_port: int = 1
    adapter: Adapter | None = None

    def segment(self, *, from_front: bool) -> Segment:
        if self.cassette is not None:
            return cassette_segment(
                self.cassette, self.label, front_port=self.front_port, rear_port=self.rear_port, from_front=from_front
            )
        if self.adapter is None:
            raise DomainError(f"panel_ports[{self.label}].adapter", "a panel port without a cassette needs an adapter")
        return adapter_segment(self.panel, self.label, self.adapter)


@dataclass(frozen=True, slots=True)
class TrunkRun:
    trunk: Trunk
    label: str
    length_mm: int
    splices: int = 0


@dataclass(frozen=True, slots=True)
class CrossConnect:
    """A trunk to an intermediate panel, a cross-connect cord, and the panel the link leaves by
    (e.g. through a main distribution area) before the chain's last trunk."""

    trunk: TrunkRun
    landing: PanelPortRun
    cord: CordRun
    leaving: PanelPortRun


def direct_chain(
    name: str, optic_a: Optic, optic_b: Optic, cord: CordRun, *, end_a: str = "A", end_b: str = "B"
) -> LinkChain:
    """Device - cord - device."""
    return LinkChain(
        name=name,
        optic_a=optic_a,
        optic_b=optic_b,
        segments=(cord.segment(),),
        end_a=end_a,
        end_b=end_b,
    )


def structured_chain(
    name: str,
    optic_a: Optic,
    optic_b: Optic,
    *,
    cord_a: CordRun,
    panel_a: PanelPortRun,
    cross_connects: Sequence[CrossConnect] = (),
    trunk: TrunkRun,
    panel_b: PanelPortRun,
    cord_b: CordRun,
    method: PolarityMethod | None = None,
    end_a: str = "A",
    end_b: str = "B",
) -> LinkChain:
    """Device - cord - panel - trunk - panel - cord - device; each panel a cassette or an MPO
    pass-through; `cross_connects` come between the first panel and the last trunk.

    `method` defaults to the cassettes' when they name one and agree."""
    segments: list[Segment] = [cord_a.segment()]
    segments.append(panel_a.segment(from_front=True))
    for x in cross_connects:
        segments.append(trunk_segment(x.trunk.trunk, x.trunk.label, x.trunk.length_mm, splices=x.trunk.splices))
        segments.append(x.landing.segment(from_front=False))
        segments.append(x.cord.segment())
        segments.append(x.leaving.segment(from_front=True))
    segments.append(trunk_segment(trunk.trunk, trunk.label, trunk.length_mm, splices=trunk.splices))
    segments.append(panel_b.segment(from_front=False))
    segments.append(cord_b.segment())
    if method is None:
        methods = {s.cassette.method for s in segments if s.cassette is not None and s.cassette.method is not None}
        method = methods.pop() if len(methods) == 1 else None
    return LinkChain(
        name=name,
        optic_a=optic_a,
        optic_b=optic_b,
        segments=tuple(segments),
        method=method,
        end_a=end_a,
        end_b=end_b,
    )
