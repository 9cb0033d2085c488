"""The structured-cabling catalog: fibre, optics, patch panels, cassettes, trunks, cords, breakout
cables and the loss of a mated connector pair, each figure with its `source` (DESIGN §6).

Every number of a builtin entry comes from a named datasheet or standard clause; a figure no source
gives stays None, and whoever needs it (the loss check, the tray check) says which is missing
instead of guessing. Physical cable facts (OD, kg/m, bend radius) are the facility checks' own type,
`facility.model.CableFacts`; an optic's watts are issue 28's `OPTIC_FACTS` entry for the same part.

Units: lengths in integer mm (a sold length, a reach), loss in dB, attenuation in dB/km, speeds in
Gb/s. Fibre positions on a connector count from 1, as TIA-568.3-D and IEEE 802.3 number them
(an MPO-12's positions 1..12 left to right, key up, looking into the receptacle); a duplex LC's
two positions are 1 and 2 (TIA's A and B).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from loopline.domain.errors import DomainError
from loopline.domain.facility.model import CableFacts, OpticFacts

_T = TypeVar("_T")


class Connector(StrEnum):
    """An optical connector (the plug a cord or trunk ends in, the receptacle of an optic or panel)."""

    LC_DUPLEX = "LC-duplex"
    MPO_12 = "MPO-12"
    MPO_16 = "MPO-16"
    MPO_24 = "MPO-24"

    @property
    def fibres(self) -> int:
        """Fibre positions the connector has."""
        return _CONNECTOR_FIBRES[self]


_CONNECTOR_FIBRES: dict[Connector, int] = {
    Connector.LC_DUPLEX: 2,
    Connector.MPO_12: 12,
    Connector.MPO_16: 16,
    Connector.MPO_24: 24,
}


class FormFactor(StrEnum):
    """The module end of an optic or a copper/AOC breakout cable (the switch port's cage)."""

    SFP28 = "SFP28"
    QSFP28 = "QSFP28"
    QSFP56 = "QSFP56"
    QSFP112 = "QSFP112"
    QSFP_DD = "QSFP-DD"
    OSFP = "OSFP"


class FibreKind(StrEnum):
    OM3 = "OM3"
    OM4 = "OM4"
    OM5 = "OM5"
    OS2 = "OS2"

    @property
    def single_mode(self) -> bool:
        return self is FibreKind.OS2


class TrunkPolarity(StrEnum):
    """An MPO cable's fibre map, TIA-568.3-D types A (straight), B (reversed), C (pairs flipped).
    The map each type implies is the polarity module's rule, not the catalog's."""

    A = "A"
    B = "B"
    C = "C"


class DuplexPolarity(StrEnum):
    """A duplex cord: A-to-B crosses (position A at one end is B at the other), A-to-A does not."""

    A_TO_B = "A-to-B"
    A_TO_A = "A-to-A"


class PolarityMethod(StrEnum):
    """TIA-568.3-D connectivity methods (a cassette is built for one)."""

    A = "A"
    B = "B"
    C = "C"


class Gender(StrEnum):
    """An MPO plug with alignment pins (male) or without (female); a mated pair needs one of each."""

    PINNED = "pinned"
    UNPINNED = "unpinned"


@dataclass(frozen=True, slots=True)
class Attenuation:
    """Cabled fibre's maximum attenuation at one wavelength."""

    wavelength_nm: int
    db_per_km: float
    source: str


@dataclass(frozen=True, slots=True)
class Fibre:
    kind: FibreKind
    attenuation: tuple[Attenuation, ...]

    def db_per_km(self, wavelength_nm: int) -> float | None:
        """The maximum at the given wavelength; None when no source gives one there."""
        return next((a.db_per_km for a in self.attenuation if a.wavelength_nm == wavelength_nm), None)


@dataclass(frozen=True, slots=True)
class ConnectionLoss:
    """A figure of loss per mated connector pair or splice, and where it comes from."""

    db: float
    source: str


@dataclass(frozen=True, slots=True)
class Breakout:
    """An optic split into `count` links, each run by the optic `into` at the far end."""

    into: str
    """The `Optic.part` of each of the far ends (e.g. "100G-DR")."""
    count: int


@dataclass(frozen=True, slots=True)
class Optic:
    """A transceiver type (an IEEE 802.3 PMD or MSA) in one form factor with one connector."""

    part: str
    """Catalog name, e.g. "400G-DR4"."""
    standard: str
    """The PMD it implements and where, e.g. "400GBASE-DR4 (IEEE 802.3bs, Clause 124)"."""
    speed_gbps: float
    lanes: int
    """Optical lanes (fibre pairs, or wavelengths on one pair)."""
    lane_gbps: float
    wavelength_nm: int
    """The wavelength whose fibre attenuation the loss check reads (the band's centre)."""
    form_factor: FormFactor
    connector: Connector
    fibre: FibreKind
    tx_positions: tuple[int, ...]
    """Fibre positions that transmit, on each of its `ports` connectors."""
    rx_positions: tuple[int, ...]
    reach_mm: int
    """The standard's operating range on `fibre`."""
    channel_loss_db: float | None
    """Maximum channel insertion loss (fibre + connections) the standard allows."""
    source: str
    ports: int = 1
    """Optical connectors on the module (2 for a twin-port 800G 2xDR4 OSFP)."""
    breakouts: tuple[Breakout, ...] = ()
    power: OpticFacts | None = None
    """Issue 28's figures of the same part (`facility.catalog_facts.OPTIC_FACTS`), None if it has none."""
    media_part: str | None = None
    """The media catalog's part number this optic is (`loopline.domain.media`), when there is one."""

    def __post_init__(self) -> None:
        _positions(f"optics.{self.part}", self.connector, self.tx_positions, self.rx_positions)
        where = f"optics.{self.part}"
        if self.lanes * self.lane_gbps != self.speed_gbps:
            raise DomainError(f"{where}.lanes", "lanes x lane_gbps must equal speed_gbps")
        if len(self.tx_positions) != len(self.rx_positions):
            raise DomainError(f"{where}.rx_positions", "as many receive fibres as transmit fibres")
        # Parallel optics carry one lane per fibre pair; WDM ones several lanes on one pair.
        if self.lanes % (len(self.tx_positions) * self.ports):
            raise DomainError(f"{where}.lanes", "must be a multiple of the fibre pairs it transmits on")


@dataclass(frozen=True, slots=True)
class PositionMap:
    """One fibre's path through a cassette or breakout: front port and position <-> rear port and
    position (NetBox's front port / rear port position model). A breakout cable's rear is its MPO
    end, its front the legs."""

    front_port: int
    front_position: int
    rear_port: int
    rear_position: int


@dataclass(frozen=True, slots=True)
class Cassette:
    name: str
    front_connector: Connector
    front_ports: int
    rear_connector: Connector
    rear_ports: int
    fibre_map: tuple[PositionMap, ...]
    """Every fibre the cassette carries, front to rear, as its datasheet draws it."""
    method: PolarityMethod | None
    fibre: FibreKind
    insertion_loss_db: float | None
    """Maximum loss through the cassette (its MPO and LC pairs included), from its datasheet."""
    source: str

    def __post_init__(self) -> None:
        _fibre_map(
            f"cassettes.{self.name}",
            self.front_connector,
            self.front_ports,
            self.rear_connector,
            self.rear_ports,
            self.fibre_map,
        )


@dataclass(frozen=True, slots=True)
class PatchPanel:
    name: str
    height_u: int
    ports: int
    """Front ports when full (adapters, or the cassettes' front ports)."""
    front_connector: Connector
    rear_connector: Connector | None
    """None: the rear is the cassettes' (or no fixed rear adapter)."""
    cassette_slots: int | None
    """Cassettes it holds; None: not cassette-based."""
    source: str


@dataclass(frozen=True, slots=True)
class Trunk:
    """An MPO trunk: `fibres` fibres ending in MPO connectors of `connector` at each end."""

    name: str
    fibres: int
    connector: Connector
    polarity: TrunkPolarity
    gender_a: Gender
    gender_b: Gender
    fibre: FibreKind
    lengths_mm: tuple[int, ...]
    """Sold lengths, ascending; empty: made to order at any length."""
    physical: CableFacts
    source: str

    @property
    def connectors_per_end(self) -> int:
        return self.fibres // self.connector.fibres

    def __post_init__(self) -> None:
        where = f"trunks.{self.name}"
        if self.fibres <= 0 or self.fibres % self.connector.fibres:
            raise DomainError(
                f"{where}.fibres", f"must be a positive multiple of {self.connector}'s {self.connector.fibres}"
            )
        _lengths(where, self.lengths_mm)


@dataclass(frozen=True, slots=True)
class PatchCord:
    name: str
    connector_a: Connector
    connector_b: Connector
    polarity: DuplexPolarity | TrunkPolarity
    """Duplex cords: A-to-B or A-to-A; MPO cords: the trunk types."""
    fibre: FibreKind
    lengths_mm: tuple[int, ...]
    physical: CableFacts
    source: str
    gender_a: Gender | None = None
    gender_b: Gender | None = None
    """MPO ends only."""

    def __post_init__(self) -> None:
        _lengths(f"cords.{self.name}", self.lengths_mm)


@dataclass(frozen=True, slots=True)
class BreakoutCable:
    """One end into several legs: fibre (an MPO to LC duplex legs: `fibre_map`) or copper/AOC
    (a module end to module ends: `fibre_map` empty)."""

    name: str
    end: Connector | FormFactor
    legs: int
    leg_end: Connector | FormFactor
    lanes_per_leg: int
    lane_gbps: float
    fibre: FibreKind | None
    """None: copper (DAC) or the fibre of an AOC sealed in its ends."""
    fibre_map: tuple[PositionMap, ...]
    lengths_mm: tuple[int, ...]
    physical: CableFacts
    source: str

    def __post_init__(self) -> None:
        where = f"breakout_cables.{self.name}"
        if isinstance(self.end, Connector) and isinstance(self.leg_end, Connector):
            _fibre_map(where, self.leg_end, self.legs, self.end, 1, self.fibre_map)
        _lengths(where, self.lengths_mm)


@dataclass(frozen=True, slots=True)
class StructuredCatalog:
    fibres: tuple[Fibre, ...]
    optics: tuple[Optic, ...]
    panels: tuple[PatchPanel, ...]
    cassettes: tuple[Cassette, ...]
    trunks: tuple[Trunk, ...]
    cords: tuple[PatchCord, ...]
    breakout_cables: tuple[BreakoutCable, ...]
    mated_pair_loss: dict[Connector, ConnectionLoss] = field(default_factory=dict)
    """Default loss per mated pair of each connector (the loss check's defaults, editable)."""
    splice_loss: ConnectionLoss | None = None

    def fibre(self, kind: FibreKind) -> Fibre:
        return _one("fibres", (f for f in self.fibres if f.kind == kind), kind)

    def optic(self, part: str) -> Optic:
        return _one("optics", (o for o in self.optics if o.part == part), part)

    def panel(self, name: str) -> PatchPanel:
        return _one("panels", (p for p in self.panels if p.name == name), name)

    def cassette(self, name: str) -> Cassette:
        return _one("cassettes", (c for c in self.cassettes if c.name == name), name)

    def trunk(self, name: str) -> Trunk:
        return _one("trunks", (t for t in self.trunks if t.name == name), name)

    def cord(self, name: str) -> PatchCord:
        return _one("cords", (c for c in self.cords if c.name == name), name)

    def breakout_cable(self, name: str) -> BreakoutCable:
        return _one("breakout_cables", (b for b in self.breakout_cables if b.name == name), name)


def _one(table: str, found: Iterable[_T], key: str) -> _T:
    hit = next(iter(found), None)
    if hit is None:
        raise DomainError(table, f"no entry {key!r} in the structured-cabling catalog")
    return hit


def _positions(where: str, connector: Connector, tx: tuple[int, ...], rx: tuple[int, ...]) -> None:
    for name, ps in (("tx_positions", tx), ("rx_positions", rx)):
        if not ps:
            raise DomainError(f"{where}.{name}", "must name at least one fibre position")
        bad = [p for p in ps if not 1 <= p <= connector.fibres]
        if bad:
            raise DomainError(f"{where}.{name}", f"positions {bad} are outside {connector}'s 1..{connector.fibres}")
        if len(set(ps)) != len(ps):
            raise DomainError(f"{where}.{name}", "a position is listed twice")
    if set(tx) & set(rx):
        raise DomainError(f"{where}.rx_positions", f"positions {sorted(set(tx) & set(rx))} also transmit")


def _fibre_map(
    where: str,
    front: Connector,
    front_ports: int,
    rear: Connector,
    rear_ports: int,
    fibre_map: tuple[PositionMap, ...],
) -> None:
    for i, m in enumerate(fibre_map):
        at = f"{where}.fibre_map[{i}]"
        if not (1 <= m.front_port <= front_ports and 1 <= m.front_position <= front.fibres):
            raise DomainError(at, f"front {m.front_port}/{m.front_position} is not a fibre of {front_ports} x {front}")
        if not (1 <= m.rear_port <= rear_ports and 1 <= m.rear_position <= rear.fibres):
            raise DomainError(at, f"rear {m.rear_port}/{m.rear_position} is not a fibre of {rear_ports} x {rear}")
    fronts = [(m.front_port, m.front_position) for m in fibre_map]
    rears = [(m.rear_port, m.rear_position) for m in fibre_map]
    if len(set(fronts)) != len(fronts) or len(set(rears)) != len(rears):
        raise DomainError(f"{where}.fibre_map", "a fibre position is mapped twice")


def _lengths(where: str, lengths_mm: tuple[int, ...]) -> None:
    if any(n <= 0 for n in lengths_mm) or list(lengths_mm) != sorted(set(lengths_mm)):
        raise DomainError(f"{where}.lengths_mm", "must be positive and strictly ascending")
