"""The plant checks over built links: the issue's 400G-DR4 link of 120 m through four MPO pairs
against its budget (with the catalog's 0.75 dB per MPO pair, then the planner's own figure), the
findings naming link and segment, and the bound on how many are listed."""

from __future__ import annotations

from dataclasses import replace

from test_builtin_links import CAT, dr4_link

from loopline.domain.structured.catalog import Connector, Gender
from loopline.domain.structured.chain import LinkChain
from loopline.domain.structured.checks import LinkUnderCheck, check_links, mated_pair_losses
from loopline.domain.structured.plant import FindingKind, PlantFinding, StructuredSettings


def under_check(chain: LinkChain, cable_id: str = "C1") -> LinkUnderCheck:
    """A link whose segments are its own templates (as the builder's would be for a lone link)."""
    return LinkUnderCheck(
        cable_id=cable_id,
        name=chain.name,
        optic_a=chain.optic_a,
        optic_b=chain.optic_b,
        method=chain.method,
        end_a=chain.end_a,
        end_b=chain.end_b,
        segments=chain.segments,
        lengths=tuple(s.length_mm for s in chain.segments),
        labels=tuple(s.label for s in chain.segments),
        item_ids=tuple(f"I-{s.label}" for s in chain.segments),
    )


# cord-A 3 m, trunk-1 50 m, cross-connect 5 m, trunk-2 60 m, cord-B 2 m: 120 m of OS2.
LINK_120_M = dr4_link((3_000, 50_000, 5_000, 60_000, 2_000))


def test_a_400g_dr4_link_of_120_m_through_four_mpo_pairs_is_over_its_budget() -> None:
    # 0.12 km x 0.4 dB/km = 0.048 dB + 4 x 0.75 dB (the catalog's MPO pair) = 3.048 dB against
    # 400GBASE-DR4's 3.0 dB: over by 0.048 dB. Polarity, reach and genders are right.
    found = check_links([under_check(LINK_120_M)], StructuredSettings(), CAT)
    assert found == [
        PlantFinding(
            FindingKind.LOSS,
            "error",
            "C1",
            None,
            "tor1:et49-spine1:et1: 3.048 dB of loss against 400G-DR4's channel budget of 3 dB: over by 0.048 dB",
        )
    ]


def test_the_planners_mpo_pair_loss_brings_it_within_budget() -> None:
    # 0.5 dB per MPO pair: 0.048 + 4 x 0.5 = 2.048 dB, inside 3.0 dB; 0.74 dB: 3.008 dB, over by 0.008.
    assert check_links([under_check(LINK_120_M)], StructuredSettings(mpo_pair_loss_db=0.5), CAT) == []
    [finding] = check_links([under_check(LINK_120_M)], StructuredSettings(mpo_pair_loss_db=0.74), CAT)
    assert finding.message.endswith("3.008 dB of loss against 400G-DR4's channel budget of 3 dB: over by 0.008 dB")
    assert mated_pair_losses(StructuredSettings(lc_pair_loss_db=0.3, mpo_pair_loss_db=0.5)) == {
        Connector.LC_DUPLEX: 0.3,
        Connector.MPO_12: 0.5,
        Connector.MPO_16: 0.5,
        Connector.MPO_24: 0.5,
    }


def test_a_segment_finding_names_its_item() -> None:
    # The cross-connect cord as sold (pinned-unpinned): two unpinned plugs meet in pp3.
    segs = list(LINK_120_M.segments)
    x = next(i for i, s in enumerate(segs) if s.label == "x")
    segs[x] = replace(segs[x], gender_b=Gender.UNPINNED)
    link = under_check(replace(LINK_120_M, segments=tuple(segs)))
    connector = [f for f in check_links([link], StructuredSettings(mpo_pair_loss_db=0.5), CAT)]
    assert [(f.kind, f.item_id, f.message) for f in connector] == [
        (
            FindingKind.CONNECTOR,
            "I-pp3",
            "tor1:et49-spine1:et1: two unpinned plugs meet in pp3 (x, trunk-2); a mated MPO pair needs one pinned"
            " and one unpinned",
        )
    ]


def test_findings_are_bounded_per_kind_and_counted() -> None:
    links = [under_check(replace(LINK_120_M, name=f"link-{n}"), f"C{n}") for n in range(5)]
    found = check_links(links, StructuredSettings(), CAT, per_kind=2)
    assert [(f.kind, f.cable_id, f.message[:7]) for f in found] == [
        (FindingKind.LOSS, "C0", "link-0:"),
        (FindingKind.LOSS, "C1", "link-1:"),
        (FindingKind.LOSS, None, "3 more "),
    ]
    assert found[-1].message == "3 more links with loss findings, not listed (the first 2 are)"


def test_a_missing_budget_is_one_finding_for_every_link_it_concerns() -> None:
    # The catalog's 100G-DR states no channel budget: a DR4 link with its budget taken away says so
    # once, counting the links.
    no_budget = replace(LINK_120_M.optic_a, channel_loss_db=None)
    chain = replace(LINK_120_M, optic_a=no_budget, optic_b=no_budget)
    links = [under_check(replace(chain, name=f"link-{n}"), f"C{n}") for n in range(3)]
    assert [(f.kind, f.severity, f.cable_id, f.message) for f in check_links(links, StructuredSettings(), CAT)] == [
        (FindingKind.FACT_MISSING, "warning", "C0", "400G-DR4 states no channel loss budget (3 links, e.g. link-0)")
    ]


def test_a_link_beyond_its_optics_reach_is_named() -> None:
    # 3 + 300 + 5 + 200 + 2 = 510 m of OS2 > 400GBASE-DR4's 500 m; loss 0.204 + 3.0 = 3.204 dB.
    found = check_links([under_check(dr4_link((3_000, 300_000, 5_000, 200_000, 2_000)))], StructuredSettings(), CAT)
    assert [(f.kind, f.message) for f in found] == [
        (
            FindingKind.LOSS,
            "tor1:et49-spine1:et1: 3.204 dB of loss against 400G-DR4's channel budget of 3 dB: over by 0.204 dB",
        ),
        (FindingKind.REACH, "tor1:et49-spine1:et1: 510 m of fibre; 400G-DR4 reaches 500 m on OS2"),
    ]


def test_an_mpo_16_optic_on_mpo_12_cords_is_a_connector_mismatch_and_untraceable() -> None:
    # The builtin 800G-DR8 (MPO-16, OS2, 3.0 dB) in place of the DR4s: its plug meets the MPO-12
    # cords at both ends; no source gives its fibre positions, so polarity is not traced (said once).
    dr8 = CAT.optic("800G-DR8")
    chain = replace(LINK_120_M, optic_a=dr8, optic_b=dr8)
    found = check_links([under_check(chain)], StructuredSettings(mpo_pair_loss_db=0.5), CAT)
    assert [(f.kind, f.item_id, f.message) for f in found] == [
        (
            FindingKind.CONNECTOR,
            "I-cord-A",
            "tor1:et49-spine1:et1: the 800G-DR8 optic at tor1:et49 (MPO-16) meets cord cord-A (MPO-12)",
        ),
        (
            FindingKind.CONNECTOR,
            "I-cord-B",
            "tor1:et49-spine1:et1: cord cord-B (MPO-12) meets the 800G-DR8 optic at spine1:et1 (MPO-16)",
        ),
        (
            FindingKind.FACT_MISSING,
            None,
            "polarity not traced: no source gives the Tx/Rx fibre positions of 800G-DR8",
        ),
    ]
