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
from loopline.domain.facility.catalog_facts import (
    CABLE_FACTS,
    FIBRE_CORD_BEND_SOURCE,
    FIBRE_CORD_MIN_BEND_RADIUS_MM,
    OPTIC_FACTS,
)
from loopline.domain.facility.model import CableFacts, OpticFacts
from loopline.domain.media import default_catalog

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
    """Fibre positions that transmit, on each of its `ports` connectors, lane 1 first; empty (with
    `rx_positions`) where no source gives them (`positions_known`)."""
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

    @property
    def positions_known(self) -> bool:
        """False where no source gives the optic's Tx/Rx fibre positions (both tuples empty): its
        lanes cannot be traced fibre by fibre."""
        return bool(self.tx_positions)

    def __post_init__(self) -> None:
        where = f"optics.{self.part}"
        _positions(where, self.connector, self.tx_positions, self.rx_positions)
        if self.lanes * self.lane_gbps != self.speed_gbps:
            raise DomainError(f"{where}.lanes", "lanes x lane_gbps must equal speed_gbps")
        if len(self.tx_positions) != len(self.rx_positions):
            raise DomainError(f"{where}.rx_positions", "as many receive fibres as transmit fibres")
        # Parallel optics carry one lane per fibre pair; WDM ones several lanes on one pair.
        if self.tx_positions and self.lanes % (len(self.tx_positions) * self.ports):
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
    """The TIA-568.3-D method its maker says it is built for; None where the source names none."""
    fibre: FibreKind | None
    """None: an adapter panel, which holds no fibre of its own (any kind passes)."""
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

    @property
    def ports_per_u(self) -> float:
        return self.ports / self.height_u

    def __post_init__(self) -> None:
        where = f"panels.{self.name}"
        if self.height_u <= 0:
            raise DomainError(f"{where}.height_u", "must be at least 1")
        if self.ports <= 0:
            raise DomainError(f"{where}.ports", "must be at least 1")
        if self.cassette_slots is not None and self.cassette_slots <= 0:
            raise DomainError(f"{where}.cassette_slots", "must be at least 1, or None for a panel without cassettes")


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
    if not tx and not rx:
        return  # not known from a source
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


# --- Builtin entries -------------------------------------------------------------------------
# Every figure below is read from the source its entry names; a figure none of them gives is None
# (or, for Tx/Rx positions, empty). Where a source was read through a third party, `source` says so.

_FOTC = "TIA Fiber Optics Technology Consortium, IEEE 802.3 Ethernet standards update"
_FOTC_FR1 = (
    f"{_FOTC}, '100GBASE-FR1 Application Overview',"
    " https://www.tiafotc.org/ieee-802-3-ethernet-standards-update/singlemode-standards-update/100gbase-fr1/"
)
_FOTC_DR8 = (
    f"{_FOTC}, '800GBASE-DR8 Application Overview',"
    " https://www.tiafotc.org/ieee-802-3-ethernet-standards-update/singlemode-standards-update/800gbase-dr8/"
)
_FOTC_SR8 = (
    f"{_FOTC}, '400GBASE-SR8 Application Overview',"
    " https://www.tiafotc.org/ieee-802-3-ethernet-standards-update/multimode-standards-update/400gbase-sr8/"
)
_FOA_MM = (
    "The Fiber Optic Association, 'Fiber Optic Cable Plant Nomenclature: Multimode Premises Cable Plants',"
    " http://thefoa.org/tech/OM.html: attenuation of 50/125 OM2/OM3/OM4/OM5 at 850/1300 nm, TIA's worst-case"
    " specification 3.5/1.5 dB/km (typical 3/1)"
)
_FOA_BUDGET = (
    "The Fiber Optic Association, 'Loss Budget Calculator', typical loss values,"
    " https://www.thefoa.org/tech/ref/Loss_Budget/Loss_Budget.htm"
)
_FLEXOPTIX_400G = "Flexoptix, 'The 400G overview' (IEEE P802.3bs acronyms), https://www.flexoptix.net/en/blog/2018/06/the-400g-overview/"
_LANSHACK_MPO12 = (
    "LANshack, 'MTP12 Cheat Sheet for QSFP 40G SR4 Optical Cabling (and 100GBASE SR4)',"
    " https://lanshack.com/MTP12-Cheat-Sheet-QSFP: facing the module key up it 'receive[s] on the left side"
    " (or your right when facing them) and send[s] on the right side (or your left when facing them)', four"
    " fibres each, the middle four unused; read here as Tx on positions 1-4 and Rx on 9-12 of the receptacle"
    " (positions counted left to right looking into it, key up). Lane order: receive lane 1 on position 12,"
    " lane 4 on 9 (mirrored, so that a Type-B trunk brings Tx lane n at position n to its Rx lane n at 13 - n),"
    " as the builtin Corning DR4 module's pairs (1, 12), (2, 11), (3, 10), (4, 9) require of a lane's fibre pair"
)
_PARALLEL_RX = (12, 11, 10, 9)
"""Receive lanes 1-4 of an MPO-12 parallel optic (see `_LANSHACK_MPO12`)."""
_MPO12_8F = (
    "AICPLight, 'MPO-12 vs MPO-16', https://www.aicplight.com/blog-news/"
    "mpo-12-vs-mpo-16-which-connector-is-better-for-400g-and-800g-parallel-optics-197: MPO-12 for SR4 and"
    " DR4 modules, 8 active fibres (4 transmit + 4 receive), the 4 centre fibres unused"
)
_DR4_LOSS = (
    "IEEE Std 802.3 Clause 124 (400GBASE-DR4, IEEE 802.3bs-2017), fibre optic cabling (channel)"
    " characteristics, Table 124-11: channel insertion loss 3 dB maximum over 500 m of SMF, as cited with"
    " that table number by the IEEE 802.3df public contribution"
    " https://www.ieee802.org/3/df/public/22_12/brown_3df_03c_2212.pdf and transcribed"
    " (channel_insertion_loss_max_db = 3.0) by a public DR4 test procedure on GitHub; not read in the standard"
    f" itself. Consistent with 800GBASE-DR8 (IEEE 802.3df, the same 100G-per-lane 500 m PMD): {_FOTC_DR8},"
    " insertion loss 3.0 dB"
)
_NVIDIA_DGX_XCVR = (
    "NVIDIA DGX SuperPOD data-centre cabling design guide, 'Transceivers',"
    " https://docs.nvidia.com/dgx-superpod/design-guide-cabling-data-centers/latest/transceivers.html"
)

_MM_ATTENUATION = (Attenuation(850, 3.5, _FOA_MM), Attenuation(1300, 1.5, _FOA_MM))

FIBRES: tuple[Fibre, ...] = (
    Fibre(FibreKind.OM3, _MM_ATTENUATION),
    Fibre(
        FibreKind.OM4,
        (
            Attenuation(
                850,
                3.5,
                f"{_FOA_MM}. The same maximum in a cable maker's OM4 datasheet: OPTOKON 'Multimode Fiber OM4'"
                " (Rev. 006-21/41), https://www.optokon.com/tr/product/252-multimode-fiber-om4: loose tube and"
                " tight buffered cables, 3.5 dB/km maximum at 850 nm, 1.5 dB/km at 1300 nm",
            ),
            Attenuation(1300, 1.5, _FOA_MM),
        ),
    ),
    Fibre(FibreKind.OM5, _MM_ATTENUATION),
    Fibre(
        FibreKind.OS2,
        (
            Attenuation(
                1310,
                0.4,
                f"IEEE 802.3's cabled fibre attenuation (max) for OS2 at 1310 nm, 0.4 dB/km (OS1a 1.0,"
                f" indoor/outdoor 0.5), as tabled by {_FOTC_FR1} and {_FOTC_DR8}",
            ),
        ),
    ),
)
"""Cabled fibre, worst-case attenuation at the wavelengths the optics below use. 1550 nm: no optic
here uses it, so no figure is kept."""

MATED_PAIR_LOSS: dict[Connector, ConnectionLoss] = {
    Connector.LC_DUPLEX: ConnectionLoss(
        0.5,
        f"{_FOA_BUDGET}: connection loss 0.5 dB for a single-fibre connection (multimode and single-mode"
        " alike); a duplex LC pair is two such connections in parallel, one per direction, so a lane meets one.",
    ),
    **{
        c: ConnectionLoss(
            0.75,
            f"{_FOA_BUDGET}: connection loss 0.75 dB for a multimode array connector (12/24 fibres); taken for"
            f" every MPO pair here ({c}, single-mode included, which the FOA table does not list separately)"
            " as issue 29's stated default of 0.75 dB per MPO pair, editable.",
        )
        for c in (Connector.MPO_12, Connector.MPO_16, Connector.MPO_24)
    },
}
"""The loss check's default loss per mated connector pair (editable per project)."""

SPLICE_LOSS = ConnectionLoss(
    0.3,
    f"{_FOA_BUDGET}: splice loss 0.3 dB multimode (0.15 dB single-mode); the larger is the default.",
)


def _optic_power(part: str) -> OpticFacts:
    """Issue 28's figures for the same part, read from their one owner."""
    return OPTIC_FACTS[part]


_400G_DR4_REACH_MM = 500_000
_400G_DR4_LOSS_DB = 3.0

OPTICS: tuple[Optic, ...] = (
    Optic(
        part="100G-SR4",
        standard="100GBASE-SR4 (IEEE 802.3bm, Clause 95)",
        speed_gbps=100.0,
        lanes=4,
        lane_gbps=25.0,
        wavelength_nm=850,
        form_factor=FormFactor.QSFP28,
        connector=Connector.MPO_12,
        fibre=FibreKind.OM4,
        tx_positions=(1, 2, 3, 4),
        rx_positions=_PARALLEL_RX,
        reach_mm=100_000,
        channel_loss_db=None,
        power=_optic_power("XCVR-100G-SR"),
        media_part="XCVR-100G-SR",
        source=(
            "Clause 95 and 4 x 25 Gb/s lanes over 8 fibres: Belden, '100GBASE-SR4 Well Underway',"
            " https://www.belden.com/blog/data-centers/100gbase-sr4-well-underway. Reach: "
            f"{_NVIDIA_DGX_XCVR} ('SR4 ... MPO-12 receptacle ... typical reach ... 100m for 100 GbE'; OM4)."
            f" Fibre positions: {_LANSHACK_MPO12}. Channel insertion loss: not confirmed from a source here"
            " (None). Watts: issue 28's XCVR-100G-SR (a 100GBASE-SR4 QSFP28)."
        ),
    ),
    Optic(
        part="100G-DR",
        standard="100GBASE-DR (IEEE 802.3cd, Clause 140)",
        speed_gbps=100.0,
        lanes=1,
        lane_gbps=100.0,
        wavelength_nm=1310,
        form_factor=FormFactor.QSFP28,
        connector=Connector.LC_DUPLEX,
        fibre=FibreKind.OS2,
        tx_positions=(1,),
        rx_positions=(2,),
        reach_mm=500_000,
        channel_loss_db=None,
        power=_optic_power("XCVR-100G-DR"),
        media_part="XCVR-100G-DR",
        source=(
            "Clause 140: SFF-8636 extended compliance code 25h, '100GBASE-DR (clause 140), CAUI-4 (no FEC)', as"
            f" ethtool's SFF-8636 decoder prints it. One 100G PAM4 lane at 1310 nm over 500 m: {_FLEXOPTIX_400G}"
            f" ('DR 1 100G (PAM4) 500m 1310nm used for 100G QSFP28 with single lambda'). Duplex LC receptacle:"
            f" as the same clause's 100GBASE-FR1 ({_FOTC_FR1}: connector type LC, module QSFP28). Duplex"
            " positions: the catalog's convention, Tx on position 1 (A), Rx on 2 (B), the same at every duplex"
            " optic (no source fixes which is which; polarity only needs it consistent). Channel insertion"
            " loss: not confirmed from a source here (None). Watts: issue 28's XCVR-100G-DR (a QSFP-100G-DR)."
        ),
    ),
    Optic(
        part="100G-FR",
        standard="100GBASE-FR1 (IEEE 802.3cu, Clause 140)",
        speed_gbps=100.0,
        lanes=1,
        lane_gbps=100.0,
        wavelength_nm=1310,
        form_factor=FormFactor.QSFP28,
        connector=Connector.LC_DUPLEX,
        fibre=FibreKind.OS2,
        tx_positions=(1,),
        rx_positions=(2,),
        reach_mm=2_000_000,
        channel_loss_db=4.0,
        source=(
            f"{_FOTC_FR1}: clause 140, IEEE 802.3cu (2021), 1310 nm, connector LC, module QSFP28; OS2 operating"
            " range 2 m to 2 km; insertion loss 4.0 dB max (with a 3.0 dB connection and splice allocation)."
            " Duplex positions: the catalog's convention (see 100G-DR). Watts: no issue 28 entry (None)."
        ),
    ),
    Optic(
        part="100G-LR4",
        standard="100GBASE-LR4 (IEEE 802.3ba, Clause 88)",
        speed_gbps=100.0,
        lanes=4,
        lane_gbps=25.0,
        wavelength_nm=1310,
        form_factor=FormFactor.QSFP28,
        connector=Connector.LC_DUPLEX,
        fibre=FibreKind.OS2,
        tx_positions=(1,),
        rx_positions=(2,),
        reach_mm=10_000_000,
        channel_loss_db=None,
        power=_optic_power("XCVR-100G-LR"),
        media_part="XCVR-100G-LR",
        source=(
            "Clause 88: Belden, https://www.belden.com/blog/data-centers/100gbase-sr4-well-underway ('Clause 88"
            f" for 100GBASE-LR4/ER4'). 10 km over a pair of single-mode fibres, duplex LC: {_NVIDIA_DGX_XCVR},"
            " Table 5. Four 25G LAN-WDM lanes, 1295.56-1309.14 nm: Arista QSFP28 LR4 datasheet as listed by"
            " https://machineu.com/qsfptransceivermodule/pz69a763e-arista-networks-qsfp28-module-lr4-10km-smf-dom-"
            "digital-diagnostic-monitoring.html; attenuation read at 1310 nm, the"
            " specification wavelength IEEE gives its LAN-WDM channels (as the FOTC's 400GBASE-LR8 page,"
            " https://www.tiafotc.org/ieee-802-3-ethernet-standards-update/singlemode-standards-update/"
            "400gbase-lr8/, states for that PMD). Channel insertion loss: not confirmed from a source here"
            " (None). Watts: issue 28's"
            " XCVR-100G-LR (a 100GBASE-LR4 QSFP28)."
        ),
    ),
    Optic(
        part="400G-DR4",
        standard="400GBASE-DR4 (IEEE 802.3bs, Clause 124)",
        speed_gbps=400.0,
        lanes=4,
        lane_gbps=100.0,
        wavelength_nm=1310,
        form_factor=FormFactor.OSFP,
        connector=Connector.MPO_12,
        fibre=FibreKind.OS2,
        tx_positions=(1, 2, 3, 4),
        rx_positions=_PARALLEL_RX,
        reach_mm=_400G_DR4_REACH_MM,
        channel_loss_db=_400G_DR4_LOSS_DB,
        breakouts=(Breakout("100G-DR", 4),),
        power=_optic_power("XCVR-400G-DR"),
        media_part="XCVR-400G-DR",
        source=(
            f"Reach and loss: {_DR4_LOSS}. Lanes, 1310 nm, 500 m, breakout into 100G-DR: {_FLEXOPTIX_400G}"
            f" ('DR4 4 100G (PAM4) 500m 1310nm PSM, breakout with DR possible'). Connector: {_MPO12_8F}."
            f" Fibre positions: the SR4 receptacle's layout ({_LANSHACK_MPO12}), the same 4 + 4 outer fibres."
            " Module and watts: issue 28's XCVR-400G-DR, NVIDIA MMS4X00-NS400 (400G DR4, single-port OSFP,"
            " https://docs.nvidia.com/networking/display/mms4x00ns400/overview), which NVIDIA itself pairs with"
            " fibre cables of up to 100 m: the 500 m here is the IEEE PMD's range, not that product's rating."
        ),
    ),
    Optic(
        part="400G-FR4",
        standard="400G-FR4 (100G Lambda MSA; IEEE 400GBASE-FR4, 802.3cu)",
        speed_gbps=400.0,
        lanes=4,
        lane_gbps=100.0,
        wavelength_nm=1310,
        form_factor=FormFactor.QSFP_DD,
        connector=Connector.LC_DUPLEX,
        fibre=FibreKind.OS2,
        tx_positions=(1,),
        rx_positions=(2,),
        reach_mm=2_000_000,
        channel_loss_db=None,
        power=OpticFacts(
            max_w=12.0,
            source=(
                "Wavesplitter WST-QD4-FR4-C (400G QSFP-DD FR4) datasheet,"
                " https://wavesplitter.com/product/400g-qsfp-dd-fr4-transceiver/: low power consumption 12 W max."
            ),
        ),
        source=(
            "Wavesplitter WST-QD4-FR4-C datasheet, https://wavesplitter.com/product/400g-qsfp-dd-fr4-transceiver/:"
            " 53.125 GBd PAM4 x 4 wavelengths (400G-FR4 of the 100G Lambda MSA), up to 2 km over duplex SMF,"
            " QSFP-DD, 400GAUI-8 host. Duplex LC and the CWDM grid 1271/1291/1311/1331 nm: Ascent Optics,"
            " https://ascentoptics.com/blog/why-choose-400g-qsfp-dd-fr4; attenuation read at 1310 nm (the only"
            " single-mode figure kept; the grid spans 1271-1331 nm). Channel insertion loss: not confirmed from"
            " a source here (None). Duplex positions: the catalog's convention (see 100G-DR)."
        ),
    ),
    Optic(
        part="400G-SR8",
        standard="400GBASE-SR8 (IEEE 802.3cm, Clause 138)",
        speed_gbps=400.0,
        lanes=8,
        lane_gbps=50.0,
        wavelength_nm=850,
        form_factor=FormFactor.QSFP_DD,
        connector=Connector.MPO_16,
        fibre=FibreKind.OM4,
        tx_positions=(),
        rx_positions=(),
        reach_mm=100_000,
        channel_loss_db=1.9,
        source=(
            f"{_FOTC_SR8}: clause 138, IEEE 802.3cm (2020), 850 nm, eight lanes over 16 fibres, MPO, QSFP-DD or"
            " OSFP; OM4 0.5 to 100 m, insertion loss 1.9 dB max (OM3: 70 m, 1.8 dB). The MPO-16 receptacle:"
            " Flexoptix, 'The 400G overview' ('SR8 ... MPO16 required'). Which 8 of the 16 positions transmit:"
            " no source found (empty; the lanes cannot be traced fibre by fibre). Watts: no issue 28 entry."
        ),
    ),
    Optic(
        part="800G-DR8",
        standard="800GBASE-DR8 (IEEE 802.3df-2024)",
        speed_gbps=800.0,
        lanes=8,
        lane_gbps=100.0,
        wavelength_nm=1310,
        form_factor=FormFactor.OSFP,
        connector=Connector.MPO_16,
        fibre=FibreKind.OS2,
        tx_positions=(),
        rx_positions=(),
        reach_mm=500_000,
        channel_loss_db=3.0,
        source=(
            f"{_FOTC_DR8}: IEEE Std 802.3df (2024), 1310 nm, eight lanes over 16 fibres, MPO, QSFP-DD or OSFP;"
            " OS2 2 m to 500 m, insertion loss 3.0 dB max (with a 2.75 dB connection and splice allocation)."
            " MPO-16: 16 fibres in one MPO, as the FOTC page gives. Which positions transmit: no source found"
            " (empty). Breakouts: none sourced. Watts: no issue 28 entry."
        ),
    ),
    Optic(
        part="800G-2xDR4",
        standard="2 x 400GBASE-DR4 (IEEE 802.3bs, Clause 124) in one twin-port OSFP",
        speed_gbps=800.0,
        lanes=8,
        lane_gbps=100.0,
        wavelength_nm=1310,
        form_factor=FormFactor.OSFP,
        connector=Connector.MPO_12,
        fibre=FibreKind.OS2,
        tx_positions=(1, 2, 3, 4),
        rx_positions=_PARALLEL_RX,
        reach_mm=_400G_DR4_REACH_MM,
        channel_loss_db=_400G_DR4_LOSS_DB,
        ports=2,
        breakouts=(Breakout("400G-DR4", 2), Breakout("100G-DR", 8)),
        power=_optic_power("XCVR-800G-DR"),
        media_part="XCVR-800G-DR",
        source=(
            "NVIDIA MMS4X00-NS-T 800Gb/s twin-port OSFP, 2x400Gb/s single mode,"
            " https://docs.nvidia.com/networking/display/800gmms4x00nst/overview: two 4-channel MPO-12/APC"
            " connectors, 100G-PAM4 lanes, each port linked by its own fibre cable to a single-port 400G"
            " transceiver (so 2 x 400G-DR4). Each port is a 400GBASE-DR4: reach and loss as 400G-DR4"
            f" ({_DR4_LOSS}); NVIDIA rates its own part for 100 m cables. 8 x 100G-DR: each DR4 port breaks out"
            f" into 4 x DR ({_FLEXOPTIX_400G}). Watts: issue 28's XCVR-800G-DR (this part)."
        ),
    ),
)
"""Optic part -> its IEEE or MSA PMD in one form factor."""


def _netbox(path: str) -> str:
    return f"netbox-community/devicetype-library {path}"


def _duplex_pairs(ports: int, rear_port: int = 1) -> tuple[PositionMap, ...]:
    """LC duplex front port k carries rear MPO fibres 2k-1 (position 1) and 2k (position 2)."""
    return tuple(PositionMap(k, pos, rear_port, 2 * k - 2 + pos) for k in range(1, ports + 1) for pos in (1, 2))


CASSETTES: tuple[Cassette, ...] = (
    Cassette(
        name="FS FHD-1MTP6LCDOS2A",
        front_connector=Connector.LC_DUPLEX,
        front_ports=6,
        rear_connector=Connector.MPO_12,
        rear_ports=1,
        fibre_map=_duplex_pairs(6),
        method=None,
        fibre=FibreKind.OS2,
        insertion_loss_db=None,
        source=(
            "FS FHD MTP-LC cassette, OS2, 'Type A', 12 fibres, 1x MTP-12 (male) to 6x LC duplex (FS #57016), as"
            f" transcribed in {_netbox('module-types/FS/FHD-1MTP6LCDOS2A.yaml')}: front ports '1-2' .. '11-12'"
            " to rear positions 1..6 of the one MPO; within a port, the lower fibre is taken as position 1 (the"
            " port's name order). FS names no TIA method for its 'Type A' (None). Insertion loss: no datasheet"
            " figure found (None)."
        ),
    ),
    Cassette(
        name="FS FHD-1MTP12LCDOS2A",
        front_connector=Connector.LC_DUPLEX,
        front_ports=12,
        rear_connector=Connector.MPO_24,
        rear_ports=1,
        fibre_map=_duplex_pairs(12),
        method=None,
        fibre=FibreKind.OS2,
        insertion_loss_db=None,
        source=(
            "FS FHD MTP-LC cassette, OS2, 'Type A', 24 fibres, 1x MTP-24 (male) to 12x LC duplex (FS #57023), as"
            f" transcribed in {_netbox('module-types/FS/FHD-1MTP12LCDOS2A.yaml')}: front ports '1-2' .. '23-24'"
            " to the MPO-24's pairs in order. Method and insertion loss: not in that source (None)."
        ),
    ),
    Cassette(
        name="FS FHD-1MTP6LCDOM4U",
        front_connector=Connector.LC_DUPLEX,
        front_ports=6,
        rear_connector=Connector.MPO_12,
        rear_ports=1,
        fibre_map=_duplex_pairs(6),
        method=PolarityMethod.B,
        fibre=FibreKind.OM4,
        insertion_loss_db=None,
        source=(
            "FS FHD MTP-LC cassette, OM4, universal polarity, 12 fibres, 1x MTP-12 (male) to 6x LC duplex"
            f" (FS #182642), as transcribed in {_netbox('module-types/FS/FHD-1MTP6LCDOM4U.yaml')} (port"
            " mappings '1-2' .. '11-12' to rear positions 1..6). Method B: FS, 'How to Use Universal Polarity"
            " MTP Fiber Cassette', https://community.fs.com/article/how-to-use-universal-polarity-mtp-fiber-"
            "cassette.html ('universal polarity fiber cassettes to be used at both ends of a Method B MTP/MPO"
            " trunk'). Insertion loss: no datasheet figure found (None)."
        ),
    ),
    Cassette(
        name="Corning ECM-UM-12-05-93Q",
        front_connector=Connector.LC_DUPLEX,
        front_ports=6,
        rear_connector=Connector.MPO_12,
        rear_ports=1,
        fibre_map=_duplex_pairs(6),
        method=None,
        fibre=FibreKind.OM4,
        insertion_loss_db=None,
        source=(
            "Corning EDGE low-loss module ECM-UM-12-05-93Q: universal polarity, 12 strands, shuttered LC duplex"
            " multimode front, MTP 12F (pinned) rear, OM4, as transcribed in"
            f" {_netbox('module-types/Corning/ECM-UM-12-05-93Q.yaml')}: front port k 'Strands 2k-1 to 2k'."
            " Corning names no TIA method for 'universal' there (None). Insertion loss: no datasheet figure"
            " found (None)."
        ),
    ),
    Cassette(
        name="Corning ECM-UM08-04-E8GF-ULL",
        front_connector=Connector.LC_DUPLEX,
        front_ports=4,
        rear_connector=Connector.MPO_12,
        rear_ports=1,
        fibre_map=tuple(PositionMap(k, pos, 1, k if pos == 1 else 13 - k) for k in range(1, 5) for pos in (1, 2)),
        method=None,
        fibre=FibreKind.OS2,
        insertion_loss_db=None,
        source=(
            "Corning EDGE ultra-low-loss module ECM-UM08-04-E8GF-ULL: universal polarity, 8 strands, shuttered"
            " LC duplex UPC front, OS2, one MPO rear (strands 1-12), as transcribed in"
            f" {_netbox('module-types/Corning/ECM-UM08-04-E8GF-ULL.yaml')}: front ports 1..4 carry strands"
            " (1, 12), (2, 11), (3, 10), (4, 9), the first of each pair taken as position 1: the map that"
            " turns one DR4 port's four lanes into four duplex LC ports. Method and insertion loss: not in"
            " that source (None)."
        ),
    ),
    Cassette(
        name="FS FHD-FAP12MTPHA",
        front_connector=Connector.MPO_12,
        front_ports=12,
        rear_connector=Connector.MPO_12,
        rear_ports=12,
        fibre_map=tuple(PositionMap(k, p, k, p) for k in range(1, 13) for p in range(1, 13)),
        method=None,
        fibre=None,
        insertion_loss_db=None,
        source=(
            "FS FHD fibre adapter panel, OS2/OM3/OM4, 12 x MTP-8/12/24 key up to key down (FS #35510), as"
            f" transcribed in {_netbox('module-types/FS/FHD-FAP12MTPHA.yaml')}: front port k to rear port k."
            " An adapter holds no fibre: position p of the plug in front meets position p of the plug behind"
            " (key up to key down). Loss: that of the mated MPO pair it makes (MATED_PAIR_LOSS)."
        ),
    ),
)
"""Cassettes, and MPO adapter panels for a cassette slot, by name."""

PANELS: tuple[PatchPanel, ...] = (
    PatchPanel(
        name="FS FHD-1UFCE",
        height_u=1,
        ports=72,
        front_connector=Connector.LC_DUPLEX,
        rear_connector=None,
        cassette_slots=4,
        source=(
            "FS FHD high-density 1U rack-mount enclosure (#70361): 'holds up to 4 x FHD cassettes or panels, 144"
            f" fibers (LC)', as transcribed in {_netbox('device-types/FS/FHD-1UFCE.yaml')}; 144 fibres = 72 LC"
            " duplex ports."
        ),
    ),
    PatchPanel(
        name="FS FHD-2UFCE",
        height_u=2,
        ports=144,
        front_connector=Connector.LC_DUPLEX,
        rear_connector=None,
        cassette_slots=8,
        source=(
            "FS FHD high-density 2U rack-mount enclosure (#73205): 'holds up to 8 x FHD cassettes or panels, 288"
            f" fibers (LC)', as transcribed in {_netbox('device-types/FS/FHD-2UFCE.yaml')}; 288 fibres = 144 LC"
            " duplex ports."
        ),
    ),
    PatchPanel(
        name="Corning EDGE-01U",
        height_u=1,
        ports=48,
        front_connector=Connector.LC_DUPLEX,
        rear_connector=None,
        cassette_slots=8,
        source=(
            "Corning EDGE 1-RU fibre-optic housing 'with (8) module bays for Corning EDGE modules', as transcribed"
            f" in {_netbox('device-types/Corning/EDGE-01U.yaml')}; 48 ports = 8 bays x the 6 LC duplex ports of"
            " a 12-strand EDGE module (Corning ECM-UM-12-05-93Q)."
        ),
    ),
    PatchPanel(
        name="FS FHU-FPP48FLCSMF",
        height_u=1,
        ports=24,
        front_connector=Connector.LC_DUPLEX,
        rear_connector=Connector.LC_DUPLEX,
        cassette_slots=None,
        source=(
            "FS FHU 1U 19-inch fibre adapter panel (#35530), 48 fibres OS2, 24 x LC UPC duplex adapters, as"
            f" transcribed in {_netbox('device-types/FS/FHU-FPP48FLCSMF.yaml')}."
        ),
    ),
)
"""Patch panels by name."""

_MPO_GENDER = (
    "Genders: a mated MPO pair needs one pinned and one unpinned plug (https://fiberpatch-cords.com/cases/"
    "how-to-choose-mpo-mtp-patch-cords-3347.html: 'connections can only be made between male and female'; 'the"
    " ports on MPO equipment are usually male, so when connecting to an optical transceiver the MPO trunk cable"
    " needs to be female')"
)
_MPO_CABLE_OD_MM = 3.0
"""The larger end of NVIDIA's 2.0-3.0 mm jacket for an MPO cable of 8 or 12 fibres (`_MPO_CABLE_SOURCE`):
the tray check is not to understate a cable's cross-section."""
_MPO_CABLE_SOURCE = (
    "OD: NVIDIA Interconnect Structured Cabling Requirements for InfiniBand NDR/XDR and 400/800G ETH Solutions,"
    " 'MPO/LC Cable Requirements' table (page of 2025-09-10),"
    " https://docs.nvidia.com/networking/display/intrcnctcabreqndr400eth/mpo/lc+cable+requirements: columns"
    " 'MPO MM Patch/Trunk' (OM3/OM4, aqua) and 'MPO SM Patch/Trunk' (OS2, yellow), row 'Fiber count per strand':"
    " 8 (12 is allowed), row 'Jacket': 3.0 mm-2.0 mm diameter, polarity Type-B per TIA-568. The larger figure,"
    f" {_MPO_CABLE_OD_MM:g} mm, is taken. Weight per metre: not in that source (None)."
)
_INSIDE_PLANT_LOADED_BEND_PER_OD = 15
"""ANSI/TIA/EIA-568-B.3's minimum bend radius of inside plant fibre cable of more than four fibres under
tensile load, in cable ODs (`_INSIDE_PLANT_BEND_SOURCE`; 10 x OD under no pull load)."""
_INSIDE_PLANT_BEND_SOURCE = (
    "Minimum bend radius: ANSI/TIA/EIA-568-B.3 for inside plant cable other than two- and four-fibre, 10 x the"
    " cable's OD under no pull load and 15 x OD when subject to tensile load, as quoted by Cisco's ASR 5500"
    " Installation Guide, 'Fiber Optic Bend Radius Guidelines', page 85,"
    " https://manualsbrain.com/pt/manuals/1659272/?page=85 (which introduces them for 50/125 and 62.5/125 um"
    " cables), and without naming a fibre type by https://www.fiberise.com/wiki/bend-radius-and-tensile-loading;"
    " taken for the OS2 trunks too. The loaded figure is taken (CableFacts"
    f" holds the larger): {_INSIDE_PLANT_LOADED_BEND_PER_OD} x {_MPO_CABLE_OD_MM:g} ="
    f" {_INSIDE_PLANT_LOADED_BEND_PER_OD * _MPO_CABLE_OD_MM:g} mm."
)
_TRUNK_12F_FACTS = CableFacts(
    od_mm=_MPO_CABLE_OD_MM,
    min_bend_radius_mm=_INSIDE_PLANT_LOADED_BEND_PER_OD * _MPO_CABLE_OD_MM,
    source=f"A 12-fibre MPO trunk. {_MPO_CABLE_SOURCE} {_INSIDE_PLANT_BEND_SOURCE}",
)
"""A 12-fibre trunk's cable: the MPO patch/trunk cable NVIDIA specifies, bent as inside plant cable."""
_TRUNK_NOTE = (
    "A made-to-order assembly (no sold lengths: empty). Polarity type B (TIA-568.3-D), the trunk of Method B"
    " that the catalog's universal cassette is built for. Both ends unpinned, to mate with the pinned rears of"
    " the catalog's cassettes (FS 'MTP (Male)', Corning 'MTP 12F (pinned)'). " + _MPO_GENDER + ". OD, kg/m and"
    " bend radius: its `physical` facts, with their source; a 24-fibre trunk has none (NVIDIA's MPO cable"
    " requirements cover 8 or 12 fibres per strand, and no 24-fibre trunk datasheet was found: None)."
)

TRUNKS: tuple[Trunk, ...] = tuple(
    Trunk(
        name=f"TRUNK-{conn}-{fibres}F-B-UU-{kind}",
        fibres=fibres,
        connector=conn,
        polarity=TrunkPolarity.B,
        gender_a=Gender.UNPINNED,
        gender_b=Gender.UNPINNED,
        fibre=kind,
        lengths_mm=(),
        physical=_TRUNK_12F_FACTS if fibres == 12 else CableFacts(),
        source=_TRUNK_NOTE,
    )
    for conn, fibres in ((Connector.MPO_12, 12), (Connector.MPO_12, 24), (Connector.MPO_24, 24))
    for kind in (FibreKind.OS2, FibreKind.OM4)
)
"""MPO trunks by name: their shape, the polarity and genders the catalog's cassettes need."""


def _cord_lengths(part: str) -> tuple[int, ...]:
    """A fibre cord's sold lengths: the media catalog's own part (one owner)."""
    return next(o.lengths_mm for o in default_catalog().options if o.part_number == part)


_MPO_CORD_FACTS = CableFacts(
    od_mm=_MPO_CABLE_OD_MM,
    min_bend_radius_mm=FIBRE_CORD_MIN_BEND_RADIUS_MM,
    source=f"An MPO-12 patch cord. {_MPO_CABLE_SOURCE} {FIBRE_CORD_BEND_SOURCE}",
)
"""An MPO-12 cord's cable: NVIDIA's MPO patch cable, bent as a fibre cord (the duplex cords' figure)."""

CORDS: tuple[PatchCord, ...] = (
    *(
        PatchCord(
            name=f"CORD-LC-LC-AB-{kind}",
            connector_a=Connector.LC_DUPLEX,
            connector_b=Connector.LC_DUPLEX,
            polarity=DuplexPolarity.A_TO_B,
            fibre=kind,
            lengths_mm=_cord_lengths(part),
            physical=CABLE_FACTS[part],
            source=(
                f"The media catalog's {part} fibre cord (loopline.domain.media: its sold lengths) and issue 28's"
                f" facts of it (facility.catalog_facts.CABLE_FACTS['{part}']: OD and bend radius, with their"
                " sources); A-to-B duplex, the crossing cord."
            ),
        )
        for kind, part in ((FibreKind.OS2, "FIB-OS2"), (FibreKind.OM4, "FIB-OM4"))
    ),
    *(
        PatchCord(
            name=f"CORD-MPO12-MPO12-B-{g_a.value[0].upper()}{g_b.value[0].upper()}-OS2",
            connector_a=Connector.MPO_12,
            connector_b=Connector.MPO_12,
            polarity=TrunkPolarity.B,
            fibre=FibreKind.OS2,
            lengths_mm=(),
            physical=_MPO_CORD_FACTS,
            source=(
                "An MPO-12 cord for DR4 optics, Type B (TIA-568.3-D), made to order (no sold lengths: empty):"
                " unpinned-unpinned between two pinned module receptacles, pinned-unpinned between an adapter"
                f" panel (an unpinned trunk behind it) and a module. {_MPO_GENDER}. OD and bend radius: its"
                " `physical` facts, with their source; kg/m: none found (None)."
            ),
            gender_a=g_a,
            gender_b=g_b,
        )
        for g_a, g_b in ((Gender.UNPINNED, Gender.UNPINNED), (Gender.PINNED, Gender.UNPINNED))
    ),
    PatchCord(
        name="CORD-MPO12-MPO12-A-UU-OS2",
        connector_a=Connector.MPO_12,
        connector_b=Connector.MPO_12,
        polarity=TrunkPolarity.A,
        fibre=FibreKind.OS2,
        lengths_mm=(),
        physical=_MPO_CORD_FACTS,
        source=(
            "An MPO-12 cord, Type A (TIA-568.3-D: straight, position n to n), made to order (no sold lengths:"
            " empty), unpinned-unpinned between a pinned DR4 module receptacle and the pinned rear of a DR4"
            " breakout module (Corning ECM-UM08-04-E8GF-ULL): with that module's pairs (k, 13 - k) the straight"
            " cord brings the DR4's Tx lane k to the module's front port k and its Rx lane k back (the polarity"
            f" tests trace it lane by lane). {_MPO_GENDER}. OD and bend radius: its `physical` facts, with their"
            " source; kg/m: none found (None)."
        ),
        gender_a=Gender.UNPINNED,
        gender_b=Gender.UNPINNED,
    ),
)
"""Patch cords by name."""

BREAKOUT_CABLES: tuple[BreakoutCable, ...] = (
    BreakoutCable(
        name="NVIDIA MCP7Y00-N (1-3 m)",
        end=FormFactor.OSFP,
        legs=2,
        leg_end=FormFactor.OSFP,
        lanes_per_leg=4,
        lane_gbps=100.0,
        fibre=None,
        fibre_map=(),
        lengths_mm=(1000, 1500, 2000, 2500, 3000),
        physical=CableFacts(),
        source=(
            "NVIDIA MCP7Y00-N<length code> 800Gb/s twin-port OSFP to 2x400G OSFP passive DAC splitter,"
            " https://docs.nvidia.com/networking/display/MCP7Y00NXXX800pub: 'the two 400G ends support"
            " 4-channels of 100G-PAM4'; ordering information"
            " https://docs.nvidia.com/networking/display/mcp7y00nxxx800pub/ordering+information: 1, 1.5, 2, 2.5"
            " and 3 m. Gauge only (30 AWG up to 1.5 m, 26 AWG from 2 m): OD, kg/m and bend radius not given"
            " (None)."
        ),
    ),
)
"""Breakout cables by name (copper: no fibre map)."""


def builtin_catalog() -> StructuredCatalog:
    return _BUILTIN


_BUILTIN = StructuredCatalog(
    fibres=FIBRES,
    optics=OPTICS,
    panels=PANELS,
    cassettes=CASSETTES,
    trunks=TRUNKS,
    cords=CORDS,
    breakout_cables=BREAKOUT_CABLES,
    mated_pair_loss=MATED_PAIR_LOSS,
    splice_loss=SPLICE_LOSS,
)
