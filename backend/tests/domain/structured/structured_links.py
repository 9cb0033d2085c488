"""Parts for the polarity and loss tests, built by hand so each expectation can be derived from
them: a duplex optic (Tx at LC position 1, Rx at 2), a DR4-like parallel optic (Tx 1-4, Rx lanes
1-4 at 12, 11, 10, 9 as IEEE 802.3 lays out an MPO-12 parallel MDI), a straight MPO-12 to 6 x LC
cassette (front port k's positions 1, 2 <-> rear 2k-1, 2k), MPO trunks of each type, cords."""

from __future__ import annotations

from loopline.domain.facility.model import CableFacts
from loopline.domain.structured.catalog import (
    Attenuation,
    BreakoutCable,
    Cassette,
    ConnectionLoss,
    Connector,
    DuplexPolarity,
    Fibre,
    FibreKind,
    FormFactor,
    Gender,
    Optic,
    PatchCord,
    PatchPanel,
    PolarityMethod,
    PositionMap,
    StructuredCatalog,
    Trunk,
    TrunkPolarity,
)
from loopline.domain.structured.chain import (
    Adapter,
    CordRun,
    LinkChain,
    PanelPortRun,
    TrunkRun,
    structured_chain,
)

CABLE = CableFacts()

DUPLEX = Optic(
    part="T-SR",
    standard="test",
    speed_gbps=10,
    lanes=1,
    lane_gbps=10,
    wavelength_nm=850,
    form_factor=FormFactor.SFP28,
    connector=Connector.LC_DUPLEX,
    fibre=FibreKind.OM4,
    tx_positions=(1,),
    rx_positions=(2,),
    reach_mm=400_000,
    channel_loss_db=2.9,
    source="test",
)

PARALLEL = Optic(
    part="T-DR4",
    standard="test",
    speed_gbps=400,
    lanes=4,
    lane_gbps=100,
    wavelength_nm=1310,
    form_factor=FormFactor.QSFP_DD,
    connector=Connector.MPO_12,
    fibre=FibreKind.OS2,
    tx_positions=(1, 2, 3, 4),
    rx_positions=(12, 11, 10, 9),
    reach_mm=500_000,
    channel_loss_db=3.0,
    source="test",
)

LANE = Optic(
    part="T-DR",
    standard="test",
    speed_gbps=100,
    lanes=1,
    lane_gbps=100,
    wavelength_nm=1310,
    form_factor=FormFactor.QSFP28,
    connector=Connector.LC_DUPLEX,
    fibre=FibreKind.OS2,
    tx_positions=(1,),
    rx_positions=(2,),
    reach_mm=500_000,
    channel_loss_db=3.0,
    source="test",
)


def cassette(method: PolarityMethod, loss_db: float | None = 0.35) -> Cassette:
    return Cassette(
        name=f"T-CAS-{method}",
        front_connector=Connector.LC_DUPLEX,
        front_ports=6,
        rear_connector=Connector.MPO_12,
        rear_ports=1,
        fibre_map=tuple(PositionMap(k, j, 1, 2 * k - 2 + j) for k in range(1, 7) for j in (1, 2)),
        method=method,
        fibre=FibreKind.OM4,
        insertion_loss_db=loss_db,
        source="test",
    )


CASSETTE_PANEL = PatchPanel(
    name="T-PANEL-CAS",
    height_u=1,
    ports=24,
    front_connector=Connector.LC_DUPLEX,
    rear_connector=None,
    cassette_slots=4,
    source="test",
)

MPO_PANEL = PatchPanel(
    name="T-PANEL-MPO",
    height_u=1,
    ports=24,
    front_connector=Connector.MPO_12,
    rear_connector=Connector.MPO_12,
    cassette_slots=None,
    source="test",
)


def trunk(polarity: TrunkPolarity, fibre: FibreKind = FibreKind.OM4) -> Trunk:
    return Trunk(
        name=f"T-TRUNK-{polarity}",
        fibres=12,
        connector=Connector.MPO_12,
        polarity=polarity,
        gender_a=Gender.PINNED,
        gender_b=Gender.PINNED,
        fibre=fibre,
        lengths_mm=(),
        physical=CABLE,
        source="test",
    )


def lc_cord(polarity: DuplexPolarity, fibre: FibreKind = FibreKind.OM4) -> PatchCord:
    return PatchCord(
        name=f"T-LC-{polarity}",
        connector_a=Connector.LC_DUPLEX,
        connector_b=Connector.LC_DUPLEX,
        polarity=polarity,
        fibre=fibre,
        lengths_mm=(),
        physical=CABLE,
        source="test",
    )


def mpo_cord(polarity: TrunkPolarity, connector: Connector = Connector.MPO_12) -> PatchCord:
    return PatchCord(
        name=f"T-MPO-{polarity}",
        connector_a=connector,
        connector_b=connector,
        polarity=polarity,
        fibre=FibreKind.OS2,
        lengths_mm=(),
        physical=CABLE,
        source="test",
        gender_a=Gender.UNPINNED,
        gender_b=Gender.UNPINNED,
    )


def breakout(pairs: tuple[tuple[int, int], ...]) -> BreakoutCable:
    """MPO-12 to 4 LC duplex legs; leg k's LC positions 1, 2 <-> the MPO positions `pairs[k-1]`."""
    return BreakoutCable(
        name="T-BRK",
        end=Connector.MPO_12,
        legs=4,
        leg_end=Connector.LC_DUPLEX,
        lanes_per_leg=1,
        lane_gbps=100,
        fibre=FibreKind.OS2,
        fibre_map=tuple(
            PositionMap(k, j, 1, pos) for k, pair in enumerate(pairs, start=1) for j, pos in enumerate(pair, start=1)
        ),
        lengths_mm=(),
        physical=CABLE,
        source="test",
    )


def duplex_chain(
    method: PolarityMethod,
    trunk_type: TrunkPolarity,
    cord_a: DuplexPolarity,
    cord_b: DuplexPolarity,
    *,
    port_a: int = 1,
    port_b: int = 1,
) -> LinkChain:
    """Device - LC cord "cord-A" - cassette "pp-A" - trunk "trunk" - cassette "pp-B" - LC cord "cord-B"."""
    cas = cassette(method)
    return structured_chain(
        "link-1",
        DUPLEX,
        DUPLEX,
        cord_a=CordRun(lc_cord(cord_a), "cord-A", 2_000),
        panel_a=PanelPortRun(CASSETTE_PANEL, "pp-A", port_a, cassette=cas),
        trunk=TrunkRun(trunk(trunk_type), "trunk", 50_000),
        panel_b=PanelPortRun(CASSETTE_PANEL, "pp-B", port_b, cassette=cas),
        cord_b=CordRun(lc_cord(cord_b), "cord-B", 3_000),
    )


def parallel_chain(
    method: PolarityMethod | None,
    trunk_type: TrunkPolarity,
    cord_a: TrunkPolarity,
    cord_b: TrunkPolarity,
    adapter: Adapter,
) -> LinkChain:
    """Device - MPO cord "cord-A" - adapter "pp-A" - trunk "trunk" - adapter "pp-B" - MPO cord "cord-B"."""
    return structured_chain(
        "link-1",
        PARALLEL,
        PARALLEL,
        cord_a=CordRun(mpo_cord(cord_a), "cord-A", 2_000),
        panel_a=PanelPortRun(MPO_PANEL, "pp-A", 1, adapter=adapter),
        trunk=TrunkRun(trunk(trunk_type, FibreKind.OS2), "trunk", 100_000),
        panel_b=PanelPortRun(MPO_PANEL, "pp-B", 1, adapter=adapter),
        cord_b=CordRun(mpo_cord(cord_b), "cord-B", 3_000),
        method=method,
    )


# Loss figures for the tests: OM4 3.5 dB/km at 850 nm, OS2 0.4 dB/km at 1310 nm, 0.5 dB per LC pair,
# 0.75 dB per MPO-12 pair, 0.3 dB per splice.
CATALOG = StructuredCatalog(
    fibres=(
        Fibre(FibreKind.OM4, (Attenuation(850, 3.5, "test"),)),
        Fibre(FibreKind.OS2, (Attenuation(1310, 0.4, "test"),)),
    ),
    optics=(),
    panels=(),
    cassettes=(),
    trunks=(),
    cords=(),
    breakout_cables=(),
    mated_pair_loss={
        Connector.LC_DUPLEX: ConnectionLoss(0.5, "test"),
        Connector.MPO_12: ConnectionLoss(0.75, "test"),
    },
    splice_loss=ConnectionLoss(0.3, "test"),
)
