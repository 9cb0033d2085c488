"""Links built from the builtin catalog's entries, checked with the catalog's own cited figures:
OS2 0.4 dB/km at 1310 nm, 0.75 dB per mated MPO pair, 400GBASE-DR4's 3.0 dB channel budget and
500 m reach (catalog.FIBRES, MATED_PAIR_LOSS, OPTICS)."""

from __future__ import annotations

from dataclasses import replace

from loopline.domain.structured.catalog import Gender, PolarityMethod, builtin_catalog
from loopline.domain.structured.chain import (
    CordRun,
    CrossConnect,
    LinkChain,
    PanelPortRun,
    TrunkRun,
    structured_chain,
)
from loopline.domain.structured.loss import LossFindingKind, link_loss
from loopline.domain.structured.polarity import trace_polarity

CAT = builtin_catalog()
DR4 = CAT.optic("400G-DR4")
TRUNK = CAT.trunk("TRUNK-MPO-12-12F-B-UU-OS2")
# Pinned end into the adapter (an unpinned trunk behind it), unpinned end into the pinned module.
CORD = CAT.cord("CORD-MPO12-MPO12-B-PU-OS2")
# A cross-connect between two adapter panels meets unpinned trunks at both: pinned both ends (made to
# order like the catalog's MPO cords; not a builtin entry).
X_CORD = replace(CORD, name="CORD-MPO12-MPO12-B-PP-OS2", gender_b=Gender.PINNED)
ADAPTERS = CAT.cassette("FS FHD-FAP12MTPHA")
PANEL = CAT.panel("FS FHD-1UFCE")


def _port(label: str, port: int) -> PanelPortRun:
    return PanelPortRun(PANEL, label, port, cassette=ADAPTERS, rear_port=port)


def dr4_link(lengths_mm: tuple[int, int, int, int, int]) -> LinkChain:
    """ToR - cord - pp1 - trunk - pp2 (MDA) - cross-connect - pp3 (MDA) - trunk - pp4 - cord - spine:
    four mated MPO pairs between the two modules."""
    cord_a, trunk_1, x, trunk_2, cord_b = lengths_mm
    return structured_chain(
        "tor1:et49-spine1:et1",
        DR4,
        DR4,
        cord_a=CordRun(CORD, "cord-A", cord_a, flipped=True),
        panel_a=_port("pp1", 3),
        cross_connects=(
            CrossConnect(
                TrunkRun(TRUNK, "trunk-1", trunk_1), _port("pp2", 3), CordRun(X_CORD, "x", x), _port("pp3", 7)
            ),
        ),
        trunk=TrunkRun(TRUNK, "trunk-2", trunk_2),
        panel_b=_port("pp4", 7),
        cord_b=CordRun(CORD, "cord-B", cord_b),
        end_a="tor1:et49",
        end_b="spine1:et1",
    )


def test_a_400g_dr4_link_of_120_m_through_four_mpo_pairs_is_over_its_budget() -> None:
    # 3 + 50 + 5 + 60 + 2 = 120 m of OS2: 0.12 km x 0.4 dB/km = 0.048 dB; 4 x 0.75 dB = 3.0 dB;
    # 3.048 dB against 400GBASE-DR4's 3.0 dB: over by 0.048 dB. Reach: 120 m of 500 m.
    report = link_loss(dr4_link((3_000, 50_000, 5_000, 60_000, 2_000)), CAT)
    assert report.length_mm == 120_000
    assert [(line.segment, line.db) for line in report.lines] == [
        ("cord-A", 0.0012),
        ("pp1", 0.75),
        ("trunk-1", 0.02),
        ("pp2", 0.75),
        ("x", 0.002),
        ("pp3", 0.75),
        ("trunk-2", 0.024),
        ("pp4", 0.75),
        ("cord-B", 0.0008),
    ]
    assert report.loss_db == 3.048
    assert report.budget_db == 3.0
    assert report.margin_db == -0.048
    assert [(f.kind, f.message) for f in report.findings] == [
        (
            LossFindingKind.OVER_BUDGET,
            "tor1:et49-spine1:et1: 3.048 dB of loss against 400G-DR4's channel budget of 3 dB: over by 0.048 dB",
        )
    ]


def test_the_same_link_with_two_mpo_pairs_is_within_budget() -> None:
    # Without the cross-connect: 3 + 110 + 2 = 115 m: 0.046 dB + 2 x 0.75 = 1.546 dB; margin 1.454 dB.
    link = structured_chain(
        "l",
        DR4,
        DR4,
        cord_a=CordRun(CORD, "cord-A", 3_000, flipped=True),
        panel_a=_port("pp1", 1),
        trunk=TrunkRun(TRUNK, "trunk", 110_000),
        panel_b=_port("pp4", 1),
        cord_b=CordRun(CORD, "cord-B", 2_000),
    )
    report = link_loss(link, CAT)
    assert (report.loss_db, report.margin_db, report.findings) == (1.546, 1.454, ())


def test_a_dr4_link_beyond_500_m_exceeds_its_reach() -> None:
    # 3 + 300 + 5 + 200 + 2 = 510 m > 500 m; loss 0.204 + 3.0 = 3.204 dB, over by 0.204 dB too.
    report = link_loss(dr4_link((3_000, 300_000, 5_000, 200_000, 2_000)), CAT)
    assert report.loss_db == 3.204
    assert [(f.kind, f.message) for f in report.findings] == [
        (
            LossFindingKind.OVER_BUDGET,
            "tor1:et49-spine1:et1: 3.204 dB of loss against 400G-DR4's channel budget of 3 dB: over by 0.204 dB",
        ),
        (LossFindingKind.REACH_EXCEEDED, "tor1:et49-spine1:et1: 510 m of fibre; 400G-DR4 reaches 500 m on OS2"),
    ]


def test_the_builtin_dr4_link_has_right_polarity_and_genders() -> None:
    # Three Type-B cords and two Type-B trunks through key-up/key-down adapters: five reversals,
    # Tx n (1-4) lands on 13-n (12-9), each an Rx; every mated MPO pair one pinned, one unpinned.
    link = dr4_link((3_000, 50_000, 5_000, 60_000, 2_000))
    verdict = trace_polarity(link)
    assert verdict.ok
    assert [(t.from_end, t.lane, t.reached_position) for t in verdict.lanes] == [
        ("tor1:et49", 1, 12),
        ("tor1:et49", 2, 11),
        ("tor1:et49", 3, 10),
        ("tor1:et49", 4, 9),
        ("spine1:et1", 1, 12),
        ("spine1:et1", 2, 11),
        ("spine1:et1", 3, 10),
        ("spine1:et1", 4, 9),
    ]
    assert not [f for f in link_loss(link, CAT).findings if f.kind is LossFindingKind.CONNECTOR_MISMATCH]


def test_the_builtin_method_b_cassette_over_a_type_b_trunk() -> None:
    # FS FHD-1MTP6LCDOM4U (Method B, front k <-> rear 2k-1, 2k), Type-B OM4 trunk, A-to-B LC cords:
    # Tx 1 -> 2 -> rear 2 -> 11 -> front 6/1 -> 2 (Rx): the far cord in port 6 for port 1.
    cas = CAT.cassette("FS FHD-1MTP6LCDOM4U")
    sr = replace(CAT.optic("100G-DR"), part="T-SR", fibre=cas.fibre)  # a duplex optic on the cassette's OM4
    cord = CAT.cord("CORD-LC-LC-AB-OM4")
    panel = CAT.panel("FS FHD-1UFCE")

    def link(far_port: int) -> LinkChain:
        return structured_chain(
            "l",
            sr,
            sr,
            cord_a=CordRun(cord, "cord-A", 2_000),
            panel_a=PanelPortRun(panel, "pp-A", 1, cassette=cas),
            trunk=TrunkRun(CAT.trunk("TRUNK-MPO-12-12F-B-UU-OM4"), "trunk", 30_000),
            panel_b=PanelPortRun(panel, "pp-B", far_port, cassette=cas),
            cord_b=CordRun(cord, "cord-B", 2_000),
        )

    assert link(6).method is PolarityMethod.B
    assert trace_polarity(link(6)).ok
    assert [f.message for f in trace_polarity(link(1)).findings] == [
        "lane 1: Tx at A pos 1 leaves pp-B by port 6 pos 1; the link is on port 1",
        "lane 1: Tx at B pos 1 leaves pp-A by port 6 pos 1; the link is on port 1",
    ]


def test_two_unpinned_plugs_in_an_adapter_panel_are_named() -> None:
    # The cross-connect cord as the catalog sells it (pinned-unpinned) instead of pinned both ends:
    # its unpinned end meets trunk-2's unpinned end in pp3.
    link = dr4_link((3_000, 50_000, 5_000, 60_000, 2_000))
    segs = list(link.segments)
    x = next(i for i, s in enumerate(segs) if s.label == "x")
    segs[x] = replace(segs[x], gender_b=Gender.UNPINNED)
    findings = link_loss(replace(link, segments=tuple(segs)), CAT).findings
    assert [(f.kind, f.segment, f.message) for f in findings if f.kind is LossFindingKind.CONNECTOR_MISMATCH] == [
        (
            LossFindingKind.CONNECTOR_MISMATCH,
            "pp3",
            "tor1:et49-spine1:et1: two unpinned plugs meet in pp3 (x, trunk-2); a mated MPO pair needs one pinned"
            " and one unpinned",
        )
    ]
