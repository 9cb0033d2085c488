"""Properties of the polarity trace and the loss (Hypothesis): a chain read from B to A gives the
same verdict, the same lanes and the same loss; two Type-C segments (matched pair flips) added to
any chain never change the verdict."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from structured_links import (
    CATALOG,
    DUPLEX,
    PARALLEL,
    cassette,
    lc_cord,
    mpo_cord,
    trunk,
)

from loopline.domain.structured.catalog import DuplexPolarity, FibreKind, PolarityMethod, TrunkPolarity
from loopline.domain.structured.chain import (
    Adapter,
    LinkChain,
    Segment,
    SegmentKind,
    cassette_segment,
    cord_segment,
    trunk_segment,
)
from loopline.domain.structured.loss import link_loss
from loopline.domain.structured.polarity import trace_polarity

_LENGTHS = st.integers(min_value=0, max_value=300_000)


def _adapter(label: str, adapter: Adapter) -> Segment:
    return Segment(
        kind=SegmentKind.PANEL_PORT,
        label=label,
        part="adapter",
        length_mm=0,
        connector_a=PARALLEL.connector,
        connector_b=PARALLEL.connector,
        adapter=adapter,
    )


@st.composite
def parallel_chains(draw: st.DrawFn) -> LinkChain:
    """MPO cords, trunks and adapters of any type in any order between two parallel optics."""
    pieces = draw(
        st.lists(
            st.one_of(
                st.tuples(st.just("cord"), st.sampled_from(TrunkPolarity), _LENGTHS),
                st.tuples(st.just("trunk"), st.sampled_from(TrunkPolarity), _LENGTHS),
                st.tuples(st.just("adapter"), st.sampled_from(Adapter), st.just(0)),
            ),
            min_size=1,
            max_size=8,
        )
    )
    segments: list[Segment] = []
    for i, (kind, what, length) in enumerate(pieces):
        label = f"s{i}"
        if kind == "cord":
            assert isinstance(what, TrunkPolarity)
            segments.append(cord_segment(mpo_cord(what), label, length))
        elif kind == "trunk":
            assert isinstance(what, TrunkPolarity)
            segments.append(trunk_segment(trunk(what, FibreKind.OS2), label, length))
        else:
            assert isinstance(what, Adapter)
            segments.append(_adapter(label, what))
    method = draw(st.one_of(st.none(), st.sampled_from(PolarityMethod)))
    return LinkChain("p", PARALLEL, PARALLEL, tuple(segments), method=method)


@st.composite
def duplex_chains(draw: st.DrawFn) -> LinkChain:
    """LC cords of either polarity around cassettes of any front ports over a trunk of any type."""
    method = draw(st.sampled_from(PolarityMethod))
    cas = cassette(method)
    cord = st.sampled_from(DuplexPolarity)
    return LinkChain(
        "d",
        DUPLEX,
        DUPLEX,
        (
            cord_segment(lc_cord(draw(cord)), "cord-A", draw(_LENGTHS)),
            cassette_segment(cas, "pp-A", front_port=draw(st.integers(1, 6))),
            trunk_segment(trunk(draw(st.sampled_from(TrunkPolarity))), "trunk", draw(_LENGTHS)),
            cassette_segment(cas, "pp-B", front_port=draw(st.integers(1, 6)), from_front=False),
            cord_segment(lc_cord(draw(cord)), "cord-B", draw(_LENGTHS)),
        ),
        method=method,
    )


chains = st.one_of(parallel_chains(), duplex_chains())


@settings(max_examples=300, deadline=None)
@given(chains)
def test_a_chain_read_from_b_to_a_gives_the_same_verdict_lanes_and_loss(chain: LinkChain) -> None:
    there, back = trace_polarity(chain), trace_polarity(chain.reversed())
    assert there.ok == back.ok
    assert set(there.lanes) == set(back.lanes)
    assert {(f.from_end, f.lane) for f in there.findings} == {(f.from_end, f.lane) for f in back.findings}
    loss, loss_back = link_loss(chain, CATALOG), link_loss(chain.reversed(), CATALOG)
    assert loss.loss_db == loss_back.loss_db
    assert loss.margin_db == loss_back.margin_db
    assert sorted(f.kind for f in loss.findings) == sorted(f.kind for f in loss_back.findings)


def _type_c(label: str, like: Segment) -> Segment:
    return replace(like, kind=SegmentKind.TRUNK, label=label, polarity=TrunkPolarity.C, adapter=None, runs=())


@settings(max_examples=300, deadline=None)
@given(parallel_chains(), st.data())
def test_two_type_c_segments_anywhere_in_a_parallel_chain_never_change_the_verdict(
    chain: LinkChain, data: st.DataObject
) -> None:
    # On an MPO, a pair flip commutes with the straight and reversed maps, so two cancel wherever.
    segs = list(chain.segments)
    like = trunk_segment(trunk(TrunkPolarity.C, FibreKind.OS2), "c", 1_000)
    for label in ("c1", "c2"):
        segs.insert(data.draw(st.integers(0, len(segs))), _type_c(label, like))
    flipped = replace(chain, segments=tuple(segs))
    before, after = trace_polarity(chain), trace_polarity(flipped)
    assert before.ok == after.ok
    assert {(t.from_end, t.lane, t.reached_position) for t in before.lanes} == {
        (t.from_end, t.lane, t.reached_position) for t in after.lanes
    }


@settings(max_examples=300, deadline=None)
@given(duplex_chains(), st.integers(0, 1))
def test_two_type_c_segments_side_by_side_in_a_duplex_chain_never_change_the_verdict(
    chain: LinkChain, where: int
) -> None:
    # Beside the trunk (between the cassettes, on the MPO side), before or after it.
    like = trunk_segment(trunk(TrunkPolarity.C), "c", 1_000)
    segs = list(chain.segments)
    at = 2 + where
    segs[at:at] = [_type_c("c1", like), _type_c("c2", like)]
    assert trace_polarity(chain).ok == trace_polarity(replace(chain, segments=tuple(segs))).ok
