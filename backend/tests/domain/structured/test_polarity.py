"""Polarity traced lane by lane through each TIA-568.3-D method, hand-derived.

Duplex chains: LC cord - cassette (front port k <-> rear 2k-1, 2k) - MPO-12 trunk - cassette - LC
cord, optics Tx at LC position 1, Rx at 2. Parallel chains: MPO cord - adapter - trunk - adapter -
MPO cord, optics Tx 1-4, Rx lanes 1-4 at 12-9. Maps: Type A n->n, B n->13-n, C pairs flipped,
A-to-B 1<->2, A-to-A none, key-up/key-down n->n, key-up/key-up n->13-n.
"""

from __future__ import annotations

from structured_links import (
    DUPLEX,
    LANE,
    PARALLEL,
    breakout,
    duplex_chain,
    lc_cord,
    mpo_cord,
    parallel_chain,
)

from loopline.domain.structured.catalog import DuplexPolarity, PolarityMethod, TrunkPolarity, builtin_catalog
from loopline.domain.structured.chain import (
    Adapter,
    CordRun,
    LinkChain,
    breakout_segment,
    cassette_segment,
    cord_segment,
    direct_chain,
)
from loopline.domain.structured.polarity import LaneTrace, trace_polarity

AB, AA = DuplexPolarity.A_TO_B, DuplexPolarity.A_TO_A
M_A, M_B, M_C = PolarityMethod.A, PolarityMethod.B, PolarityMethod.C
T_A, T_B, T_C = TrunkPolarity.A, TrunkPolarity.B, TrunkPolarity.C
UP_DOWN, UP_UP = Adapter.KEY_UP_KEY_DOWN, Adapter.KEY_UP_KEY_UP


def lanes(v: object) -> list[tuple[str, int, int, int | None, int | None]]:
    assert hasattr(v, "lanes")
    return [(t.from_end, t.lane, t.tx_position, t.reached_position, t.rx_lane) for t in v.lanes]


# Duplex over cassettes.


def test_method_a_duplex_passes_lane_by_lane() -> None:
    # A: 1 -A-to-B-> 2 -> rear 2 -Type A-> 2 -> front 1/2 -A-to-A-> 2 (Rx).
    # B: 1 -A-to-A-> 1 -> rear 1 -> 1 -> front 1/1 -A-to-B-> 2 (Rx).
    v = trace_polarity(duplex_chain(M_A, T_A, AB, AA))
    assert v.ok
    assert lanes(v) == [("A", 1, 1, 2, 1), ("B", 1, 1, 2, 1)]


def test_method_b_duplex_passes_and_lands_on_the_mirrored_port() -> None:
    # A: 1 -> 2 -> rear 2 -Type B-> 11 -> front 6/1 -A-to-B-> 2. The far cord must be in port 6.
    v = trace_polarity(duplex_chain(M_B, T_B, AB, AB, port_b=6))
    assert v.ok
    assert lanes(v) == [("A", 1, 1, 2, 1), ("B", 1, 1, 2, 1)]


def test_method_b_duplex_with_the_far_cord_in_port_1_is_named_at_the_far_cassette() -> None:
    v = trace_polarity(duplex_chain(M_B, T_B, AB, AB, port_b=1))
    assert not v.ok
    assert [(f.from_end, f.lane, f.segment, f.segment_index, f.message) for f in v.findings] == [
        ("A", 1, "pp-B", 3, "lane 1: Tx at A pos 1 leaves pp-B by port 6 pos 1; the link is on port 1"),
        # From B: 1 -> 2 -> front 1/2 = rear 2 -Type B-> 11, which is front 6/1 of pp-A, not port 1.
        ("B", 1, "pp-A", 1, "lane 1: Tx at B pos 1 leaves pp-A by port 6 pos 1; the link is on port 1"),
    ]


def test_method_c_duplex_passes() -> None:
    # A: 1 -> 2 -> rear 2 -Type C-> 1 -> front 1/1 -A-to-B-> 2.
    v = trace_polarity(duplex_chain(M_C, T_C, AB, AB))
    assert v.ok
    assert lanes(v) == [("A", 1, 1, 2, 1), ("B", 1, 1, 2, 1)]


def test_a_type_a_trunk_in_a_method_b_chain_is_a_flip_named_at_the_trunk() -> None:
    # A: 1 -> 2 -> rear 2 -Type A-> 2 -> front 1/2 -A-to-B-> 1, a Tx.
    v = trace_polarity(duplex_chain(M_B, T_A, AB, AB))
    assert lanes(v) == [("A", 1, 1, 1, None), ("B", 1, 1, 1, None)]
    assert [(f.from_end, f.segment, f.segment_index, f.message) for f in v.findings] == [
        (
            "A",
            "trunk",
            2,
            "lane 1: Tx at A pos 1 reaches pos 1 at B, a Tx: Method B needs a Type-B trunk; this chain has Type A",
        ),
        (
            "B",
            "trunk",
            2,
            "lane 1: Tx at B pos 1 reaches pos 1 at A, a Tx: Method B needs a Type-B trunk; this chain has Type A",
        ),
    ]


def test_a_type_b_trunk_in_a_method_c_chain_lands_on_the_wrong_port() -> None:
    # A: 1 -> 2 -> rear 2 -Type B-> 11 = front 6/1: the cord is in port 1.
    v = trace_polarity(duplex_chain(M_C, T_B, AB, AB))
    assert [(f.lane, f.segment, f.message) for f in v.findings] == [
        (
            1,
            "trunk",
            "lane 1: Tx at A pos 1 leaves pp-B by port 6 pos 1; the link is on port 1: Method C needs a"
            " Type-C trunk; this chain has Type B",
        ),
        (
            1,
            "trunk",
            "lane 1: Tx at B pos 1 leaves pp-A by port 6 pos 1; the link is on port 1: Method C needs a"
            " Type-C trunk; this chain has Type B",
        ),
    ]


def test_an_a_to_a_cord_where_method_c_needs_a_to_b_is_named() -> None:
    # A: 1 -A-to-B-> 2 -> rear 2 -Type C-> 1 -> front 1/1 -A-to-A-> 1, a Tx.
    v = trace_polarity(duplex_chain(M_C, T_C, AB, AA))
    assert [(f.from_end, f.lane, f.segment, f.segment_index, f.message) for f in v.findings] == [
        (
            "A",
            1,
            "cord-B",
            4,
            "lane 1: Tx at A pos 1 reaches pos 1 at B, a Tx: Method C needs A-to-B cords at both"
            " ends; cord-B is A-to-A",
        ),
        (
            "B",
            1,
            "cord-B",
            4,
            "lane 1: Tx at B pos 1 reaches pos 1 at A, a Tx: Method C needs A-to-B cords at both"
            " ends; cord-B is A-to-A",
        ),
    ]


def test_method_a_with_two_a_to_b_cords_is_named_at_the_b_end_cord() -> None:
    # A: 1 -> 2 -> rear 2 -Type A-> 2 -> front 1/2 -A-to-B-> 1, a Tx.
    v = trace_polarity(duplex_chain(M_A, T_A, AB, AB))
    assert {(f.segment, f.message.split(": ", 1)[1]) for f in v.findings} == {
        ("cord-B", "Tx at A pos 1 reaches pos 1 at B, a Tx: Method A needs an A-to-A cord at one end; both are A-to-B"),
        ("cord-B", "Tx at B pos 1 reaches pos 1 at A, a Tx: Method A needs an A-to-A cord at one end; both are A-to-B"),
    }


def test_without_a_method_the_flip_is_named_where_it_lands() -> None:
    chain = duplex_chain(M_A, T_A, AB, AB)
    plain = LinkChain(chain.name, chain.optic_a, chain.optic_b, chain.segments)
    v = trace_polarity(plain)
    assert [(f.segment, f.message) for f in v.findings] == [
        ("cord-B", "lane 1: Tx at A pos 1 reaches pos 1 at B, a Tx"),
        ("cord-A", "lane 1: Tx at B pos 1 reaches pos 1 at A, a Tx"),
    ]


# Direct duplex.


def test_a_direct_a_to_b_cord_passes_and_an_a_to_a_cord_is_a_flip() -> None:
    good = direct_chain("d", DUPLEX, DUPLEX, CordRun(lc_cord(AB), "cord", 3_000))
    assert trace_polarity(good).ok
    bad = trace_polarity(direct_chain("d", DUPLEX, DUPLEX, CordRun(lc_cord(AA), "cord", 3_000)))
    assert [(f.segment, f.message) for f in bad.findings] == [
        ("cord", "lane 1: Tx at A pos 1 reaches pos 1 at B, a Tx"),
        ("cord", "lane 1: Tx at B pos 1 reaches pos 1 at A, a Tx"),
    ]


# Parallel optics over MPO pass-through panels.

# Tx n lands on 13-n: Rx lane n (Rx lanes 1-4 at 12, 11, 10, 9).
REVERSED = [("A", n, n, 13 - n, n) for n in range(1, 5)] + [("B", n, n, 13 - n, n) for n in range(1, 5)]


def test_method_b_parallel_passes_every_lane() -> None:
    # Type-B cord, key-up/key-up, Type-B trunk, key-up/key-up, Type-B cord: five reversals.
    v = trace_polarity(parallel_chain(M_B, T_B, T_B, T_B, UP_UP))
    assert v.ok
    assert lanes(v) == REVERSED


def test_method_a_parallel_passes_every_lane() -> None:
    # Type-A cord, key-up/key-down, Type-A trunk, key-up/key-down, Type-B cord: one reversal.
    v = trace_polarity(parallel_chain(M_A, T_A, T_A, T_B, UP_DOWN))
    assert v.ok
    assert lanes(v) == REVERSED


def test_a_type_a_trunk_in_a_method_b_parallel_chain_fails_every_lane_at_the_trunk() -> None:
    # Four reversals: Tx n lands on n, a Tx.
    v = trace_polarity(parallel_chain(M_B, T_A, T_B, T_B, UP_UP))
    assert lanes(v) == [("A", n, n, n, None) for n in range(1, 5)] + [("B", n, n, n, None) for n in range(1, 5)]
    assert len(v.findings) == 8
    assert {f.segment for f in v.findings} == {"trunk"}
    assert v.findings[2].message == (
        "lane 3: Tx at A pos 3 reaches pos 3 at B, a Tx: Method B needs a Type-B trunk; this chain has Type A"
    )


def test_method_a_parallel_with_two_type_a_cords_is_named_at_the_b_end_cord() -> None:
    v = trace_polarity(parallel_chain(M_A, T_A, T_A, T_A, UP_DOWN))
    assert {f.segment for f in v.findings} == {"cord-B"}
    assert v.findings[0].message == (
        "lane 1: Tx at A pos 1 reaches pos 1 at B, a Tx: Method A needs a Type-B cord at one end; both are Type-A"
    )


def test_key_up_to_key_down_adapters_in_a_method_b_chain_are_named() -> None:
    # Type-B cords and trunk through key-up/key-down adapters: three reversals, which works; the
    # chain still departs from Method B (no finding, the physics decides), and a fourth reversal
    # (a Type-A cord at B) fails at the first departure, the adapter pp-A.
    assert trace_polarity(parallel_chain(M_B, T_B, T_B, T_B, UP_DOWN)).ok
    v = trace_polarity(parallel_chain(M_B, T_B, T_B, T_A, UP_DOWN))
    assert v.findings[0].segment == "pp-A"
    assert v.findings[0].message == (
        "lane 1: Tx at A pos 1 reaches pos 1 at B, a Tx: Method B needs key-up to key-up adapters;"
        " pp-A is key-up to key-down"
    )


def test_a_type_c_trunk_on_a_parallel_optic() -> None:
    # Method A parts with a Type-C trunk: Tx 1 -> 2 -> 11, Tx 2 -> 1 -> 12, Tx 3 -> 4 -> 9,
    # Tx 4 -> 3 -> 10: every Tx pair (1,2), (3,4) swaps inside the Tx group, so each lands on an Rx
    # (lanes crossed, which a parallel optic's PCS reorders).
    v = trace_polarity(parallel_chain(M_A, T_C, T_A, T_B, UP_DOWN))
    assert v.ok
    assert lanes(v)[:4] == [("A", 1, 1, 11, 2), ("A", 2, 2, 12, 1), ("A", 3, 3, 9, 4), ("A", 4, 4, 10, 3)]
    # Method B parts with a Type-C trunk: four reversals cancel, leaving the pair flip: Tx 1 -> 2.
    bad = trace_polarity(parallel_chain(M_B, T_C, T_B, T_B, UP_UP))
    assert lanes(bad)[:4] == [("A", 1, 1, 2, None), ("A", 2, 2, 1, None), ("A", 3, 3, 4, None), ("A", 4, 4, 3, None)]
    assert bad.findings[0].message == (
        "lane 1: Tx at A pos 1 reaches pos 2 at B, a Tx: Method B needs a Type-B trunk; this chain has Type C"
    )


# Breakouts.

# Leg k: LC position 2 (the far optic's Rx) <- MPO k (a Tx), LC 1 (its Tx) -> MPO 13-k (Rx lane k).
STRAIGHT_LEGS = ((13 - 1, 1), (13 - 2, 2), (13 - 3, 3), (13 - 4, 4))


def _breakout_link(leg: int, legs: tuple[tuple[int, int], ...]) -> LinkChain:
    return LinkChain(
        "brk",
        PARALLEL,
        LANE,
        (breakout_segment(breakout(legs), "brk-cable", 3_000, leg=leg),),
    )


def test_a_breakout_leg_carries_one_lane_both_ways() -> None:
    v = trace_polarity(_breakout_link(2, STRAIGHT_LEGS))
    assert v.ok
    # From A only lane 2 reaches leg 2 (the others are the other legs' links); B's Tx comes back on
    # MPO 11, Rx lane 2.
    assert lanes(v) == [("A", 2, 2, 2, 1), ("B", 1, 1, 11, 2)]


def test_a_breakout_whose_leg_splits_two_lanes_is_named() -> None:
    # Leg 1 draws Tx from MPO 1 but returns on MPO 9 (Rx lane 4).
    legs = ((9, 1), (10, 2), (11, 3), (12, 4))
    v = trace_polarity(_breakout_link(1, legs))
    assert lanes(v) == [("A", 1, 1, 2, 1), ("B", 1, 1, 9, 4)]
    assert [(f.segment, f.message) for f in v.findings] == [
        (
            "brk-cable",
            "the Tx of A's lanes [1] reach B, whose Tx comes back on A's lanes [4]: a breakout leg must carry one"
            " lane's pair",
        )
    ]


def test_lane_trace_fields() -> None:
    # The record the validation report will print.
    t = LaneTrace("A", 3, 3, 10, 3)
    assert (t.from_end, t.lane, t.tx_position, t.reached_position, t.rx_lane) == ("A", 3, 3, 10, 3)


def test_a_dr4_broken_out_by_the_corning_dr4_module() -> None:
    # Corning ECM-UM08-04-E8GF-ULL (builtin): front port k's LC 1 <-> MPO k, LC 2 <-> MPO 13-k.
    # A: Tx k -Type-A cord-> k -> front k/1 -A-to-B-> 2, the 100G-DR's Rx; the other lanes leave by
    # the other ports (their own links). B: Tx 1 -> 2 -> front k/2 -> 13-k -> 13-k, Rx lane k.
    corning = builtin_catalog().cassette("Corning ECM-UM08-04-E8GF-ULL")

    def link(leg: int, mpo: TrunkPolarity) -> LinkChain:
        return LinkChain(
            f"brk-{leg}",
            PARALLEL,
            LANE,
            (
                cord_segment(mpo_cord(mpo), "mpo-cord", 2_000),
                cassette_segment(corning, "module", front_port=leg, from_front=False),
                cord_segment(lc_cord(AB), "lc-cord", 2_000),
            ),
        )

    for leg in range(1, 5):
        v = trace_polarity(link(leg, T_A))
        assert v.ok
        assert lanes(v) == [("A", leg, leg, 2, 1), ("B", 1, 1, 13 - leg, leg)]
    # A Type-B MPO cord: Tx 1 -> 12 = front 1/2 -A-to-B-> 1, a Tx.
    bad = trace_polarity(link(1, T_B))
    assert [(f.segment, f.message) for f in bad.findings] == [
        ("lc-cord", "lane 1: Tx at A pos 1 reaches pos 1 at B, a Tx"),
        ("mpo-cord", "lane 1: Tx at B pos 1 reaches pos 1 at A, a Tx"),
    ]


def test_the_builtin_dr4_breaks_out_through_the_builtin_corning_module() -> None:
    """The catalog's own parts agree: its 400G-DR4 receives lane k on position 13 - k, the pair the
    Corning module gives front port k (with lanes 9-12 in the other order, every leg split two lanes)."""
    cat = builtin_catalog()
    dr4, dr, corning = cat.optic("400G-DR4"), cat.optic("100G-DR"), cat.cassette("Corning ECM-UM08-04-E8GF-ULL")
    for leg in range(1, 5):
        chain = LinkChain(
            f"brk-{leg}",
            dr4,
            dr,
            (
                cord_segment(mpo_cord(T_A), "mpo-cord", 2_000),
                cassette_segment(corning, "module", front_port=leg, from_front=False),
                cord_segment(lc_cord(AB), "lc-cord", 2_000),
            ),
        )
        v = trace_polarity(chain)
        assert v.ok, v.findings
        assert lanes(v) == [("A", leg, leg, dr.rx_positions[0], 1), ("B", 1, dr.tx_positions[0], 13 - leg, leg)]


def test_an_optic_without_known_fibre_positions_is_not_passed() -> None:
    sr8 = builtin_catalog().optic("400G-SR8")
    v = trace_polarity(LinkChain("u", sr8, sr8, (cord_segment(mpo_cord(T_B), "cord", 1_000),)))
    assert not v.ok
    assert (v.lanes, v.findings, v.unknown) == ((), (), "no source gives the Tx/Rx fibre positions of 400G-SR8")
