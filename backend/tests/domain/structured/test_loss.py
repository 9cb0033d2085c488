"""Optical loss of a chain against its optic's budget, reach, connectors and fibre, hand-derived.

The test catalog's figures (structured_links.CATALOG, not the builtin ones): OM4 3.5 dB/km at 850
nm, OS2 0.4 dB/km at 1310 nm, 0.5 dB per LC pair, 0.75 dB per MPO-12 pair, 0.3 dB per splice. The issue's
400G-DR4 example reads the builtin catalog's own figures.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from structured_links import (
    CATALOG,
    DUPLEX,
    MPO_PANEL,
    PARALLEL,
    cassette,
    duplex_chain,
    lc_cord,
    parallel_chain,
    trunk,
)

from loopline.domain.structured.catalog import (
    ConnectionLoss,
    Connector,
    DuplexPolarity,
    FibreKind,
    Gender,
    PolarityMethod,
    TrunkPolarity,
)
from loopline.domain.structured.chain import (
    Adapter,
    CordRun,
    LinkChain,
    PanelPortRun,
    TrunkRun,
    cassette_segment,
    structured_chain,
)
from loopline.domain.structured.loss import LossFindingKind, link_loss

AB, AA = DuplexPolarity.A_TO_B, DuplexPolarity.A_TO_A


def kinds(report: object) -> list[tuple[LossFindingKind, str | None]]:
    assert hasattr(report, "findings")
    return [(f.kind, f.segment) for f in report.findings]


def test_a_duplex_link_over_cassettes_sums_fibre_and_cassettes() -> None:
    # OM4 2 m + 50 m + 3 m = 0.055 km x 3.5 = 0.1925 dB; two cassettes at 0.35 dB = 0.7 dB.
    report = link_loss(duplex_chain(PolarityMethod.A, TrunkPolarity.A, AB, AA), CATALOG)
    assert report.ok
    assert report.length_mm == 55_000
    assert [(line.segment, line.db) for line in report.lines] == [
        ("cord-A", 0.007),
        ("pp-A", 0.35),
        ("trunk", 0.175),
        ("pp-B", 0.35),
        ("cord-B", 0.0105),
    ]
    assert report.loss_db == 0.8925
    assert report.budget_db == 2.9
    assert report.margin_db == 2.0075


def _figureless(chain: LinkChain) -> LinkChain:
    cas = cassette(PolarityMethod.A, loss_db=None)
    segs = list(chain.segments)
    segs[1] = cassette_segment(cas, "pp-A", front_port=1)
    segs[3] = cassette_segment(cas, "pp-B", front_port=1, from_front=False)
    return replace(chain, segments=tuple(segs))


def test_a_cassette_without_its_own_figure_counts_as_its_two_pairs_and_the_figures_are_editable() -> None:
    chain = _figureless(duplex_chain(PolarityMethod.A, TrunkPolarity.A, AB, AA))
    # Each cassette: an LC pair 0.5 + an MPO-12 pair 0.75 = 1.25; 2.5 + 0.1925 fibre = 2.6925.
    report = link_loss(chain, CATALOG)
    assert report.loss_db == 2.6925
    assert report.margin_db == 0.2075
    assert [line.what for line in report.lines if line.segment == "pp-A"] == [
        "LC-duplex mated pair (cassette without its own figure)",
        "MPO-12 mated pair (cassette without its own figure)",
    ]
    # Edited: 0.25 per LC pair, 0.35 per MPO pair: 2 x 0.6 + 0.1925 = 1.3925.
    edited = link_loss(chain, CATALOG, mated_pair_db={Connector.LC_DUPLEX: 0.25, Connector.MPO_12: 0.35})
    assert edited.loss_db == 1.3925


def test_over_budget_is_named_with_the_amount() -> None:
    # 2.6925 dB against a 2.5 dB budget: over by 0.1925 dB.
    chain = _figureless(duplex_chain(PolarityMethod.A, TrunkPolarity.A, AB, AA))
    tight = replace(DUPLEX, channel_loss_db=2.5)
    report = link_loss(replace(chain, optic_a=tight, optic_b=tight), CATALOG)
    assert report.margin_db == -0.1925
    assert kinds(report) == [(LossFindingKind.OVER_BUDGET, None)]
    assert report.findings[0].message == (
        "link-1: 2.6925 dB of loss against T-SR's channel budget of 2.5 dB: over by 0.1925 dB"
    )


def test_reach_exceeded_is_named() -> None:
    # 2 m + 400 m + 3 m = 405 m of OM4 against T-SR's 400 m; loss 0.405 x 3.5 + 0.7 = 2.1175 dB (in budget).
    chain = duplex_chain(PolarityMethod.A, TrunkPolarity.A, AB, AA)
    segs = list(chain.segments)
    segs[2] = replace(segs[2], length_mm=400_000)
    report = link_loss(replace(chain, segments=tuple(segs)), CATALOG)
    assert report.loss_db == 2.1175
    assert kinds(report) == [(LossFindingKind.REACH_EXCEEDED, None)]
    assert report.findings[0].message == "link-1: 405 m of fibre; T-SR reaches 400 m on OM4"


def test_splices_count_at_the_catalog_figure() -> None:
    # A trunk with 2 splices: + 0.6 dB on 0.8925.
    chain = duplex_chain(PolarityMethod.A, TrunkPolarity.A, AB, AA)
    segs = list(chain.segments)
    segs[2] = replace(segs[2], splices=2)
    report = link_loss(replace(chain, segments=tuple(segs)), CATALOG)
    assert report.loss_db == 1.4925
    assert link_loss(replace(chain, segments=tuple(segs)), CATALOG, splice_db=0.1).loss_db == 1.0925


def test_an_mpo16_optic_on_mpo12_cords_is_a_connector_mismatch_at_both_ends() -> None:
    sr8 = replace(PARALLEL, part="T-SR8", connector=Connector.MPO_16)
    chain = parallel_chain(PolarityMethod.B, TrunkPolarity.B, TrunkPolarity.B, TrunkPolarity.B, Adapter.KEY_UP_KEY_UP)
    report = link_loss(replace(chain, optic_a=sr8, optic_b=sr8), CATALOG)
    assert [(f.kind, f.segment, f.message) for f in report.findings] == [
        (
            LossFindingKind.CONNECTOR_MISMATCH,
            "cord-A",
            "link-1: the T-SR8 optic at A (MPO-16) meets cord cord-A (MPO-12)",
        ),
        (
            LossFindingKind.CONNECTOR_MISMATCH,
            "cord-B",
            "link-1: cord cord-B (MPO-12) meets the T-SR8 optic at B (MPO-16)",
        ),
    ]


def test_an_lc_cord_in_an_mpo_port_without_a_cassette_is_a_connector_mismatch() -> None:
    chain = structured_chain(
        "link-2",
        DUPLEX,
        DUPLEX,
        cord_a=CordRun(lc_cord(AB), "cord-A", 2_000),
        panel_a=PanelPortRun(MPO_PANEL, "pp-A", 1, adapter=Adapter.KEY_UP_KEY_DOWN),
        trunk=TrunkRun(trunk(TrunkPolarity.A), "trunk", 50_000),
        panel_b=PanelPortRun(MPO_PANEL, "pp-B", 1, adapter=Adapter.KEY_UP_KEY_DOWN),
        cord_b=CordRun(lc_cord(AA), "cord-B", 3_000),
    )
    report = link_loss(chain, CATALOG)
    assert [(f.kind, f.segment, f.message) for f in report.findings] == [
        (
            LossFindingKind.CONNECTOR_MISMATCH,
            "pp-A",
            "link-2: cord cord-A (LC-duplex) meets panel port pp-A (MPO-12); an LC plug reaches an MPO port only"
            " through a cassette or a breakout",
        ),
        (
            LossFindingKind.CONNECTOR_MISMATCH,
            "cord-B",
            "link-2: panel port pp-B (MPO-12) meets cord cord-B (LC-duplex); an LC plug reaches an MPO port only"
            " through a cassette or a breakout",
        ),
    ]


def test_two_pinned_plugs_in_one_adapter_are_named() -> None:
    chain = parallel_chain(PolarityMethod.B, TrunkPolarity.B, TrunkPolarity.B, TrunkPolarity.B, Adapter.KEY_UP_KEY_UP)
    segs = list(chain.segments)
    segs[0] = replace(segs[0], gender_b=Gender.PINNED)  # the trunk's ends are pinned too
    report = link_loss(replace(chain, segments=tuple(segs)), CATALOG)
    assert [(f.kind, f.segment, f.message) for f in report.findings] == [
        (
            LossFindingKind.CONNECTOR_MISMATCH,
            "pp-A",
            "link-1: two pinned plugs meet in pp-A (cord-A, trunk); a mated MPO pair needs one pinned and one unpinned",
        )
    ]


def test_a_single_mode_optic_on_multimode_fibre_is_a_fibre_mismatch() -> None:
    chain = parallel_chain(PolarityMethod.B, TrunkPolarity.B, TrunkPolarity.B, TrunkPolarity.B, Adapter.KEY_UP_KEY_UP)
    segs = list(chain.segments)
    segs[2] = replace(segs[2], fibre=FibreKind.OM4)
    report = link_loss(replace(chain, segments=tuple(segs)), CATALOG)
    assert [(f.kind, f.segment, f.message) for f in report.findings] == [
        (LossFindingKind.MISSING_FIGURE, "trunk", "no attenuation of OM4 at 1310 nm; trunk not counted"),
        (LossFindingKind.FIBRE_MISMATCH, "trunk", "link-1: trunk is OM4; T-DR4 runs on OS2"),
    ]
    assert not report.complete
    assert report.margin_db is None


@pytest.mark.parametrize("pairs", [0, 1])
def test_a_connector_without_a_figure_is_a_missing_figure_not_a_guess(pairs: int) -> None:
    catalog = replace(CATALOG, mated_pair_loss={Connector.LC_DUPLEX: ConnectionLoss(0.5, "test")})
    override = {Connector.MPO_12: 0.75} if pairs else {}
    chain = parallel_chain(PolarityMethod.B, TrunkPolarity.B, TrunkPolarity.B, TrunkPolarity.B, Adapter.KEY_UP_KEY_UP)
    report = link_loss(chain, catalog, mated_pair_db=override)
    # OS2 105 m x 0.4 = 0.042 dB, + 2 x 0.75 when the MPO figure is given.
    if pairs:
        assert (report.loss_db, report.complete, report.margin_db) == (1.542, True, 1.458)
    else:
        assert (report.loss_db, report.complete, report.margin_db) == (0.042, False, None)
        assert [f.kind for f in report.findings] == [LossFindingKind.MISSING_FIGURE] * 2
