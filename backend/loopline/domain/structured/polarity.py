"""Polarity traced lane by lane (DESIGN §6, TIA-568.3-D connectivity methods A, B and C).

Each transmit fibre of the optic at one end is followed through every segment of the chain to a
position at the other end's optic, in both directions; the link is right when every Tx lands on an
Rx. The maps (this module owns them; the catalog only names the types):

- MPO cable types: A straight (n -> n), B reversed (n -> F+1-n), C pairs flipped (1<->2, 3<->4, ...);
- duplex cords: A-to-B crosses the pair (1<->2), A-to-A does not;
- adapters: key-up to key-down mates n with n, key-up to key-up n with F+1-n (a duplex LC adapter,
  latches both up, mates A with B);
- cassettes and breakout cables: their catalog map, front port/position to rear port/position.

A failing lane's finding names the link, the lane, where its Tx lands, and the segment at fault:
the first one that departs from the chain's method (a Type-A trunk in a Method B chain, an A-to-A
cord where Method C wants A-to-B), else the segment the fibre leaves the link at, else the last.

Lane order is not judged: a parallel optic's PCS takes its lanes in any order (IEEE 802.3 PCS lane
reordering), so Tx lane 1 may land on Rx lane 4. A breakout's far ends are separate links, so there
each Tx must come back on the Rx of the same lane (the pair of one leg).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from loopline.domain.structured.catalog import (
    Connector,
    DuplexPolarity,
    Optic,
    PolarityMethod,
    TrunkPolarity,
)
from loopline.domain.structured.chain import Adapter, LinkChain, Segment, SegmentKind

PortPosition = tuple[int, int]


def polarity_map(polarity: TrunkPolarity | DuplexPolarity, fibres: int) -> Callable[[int], int]:
    """Where position n at one end of a cord or trunk of this type arrives at the other end."""
    if polarity in (TrunkPolarity.A, DuplexPolarity.A_TO_A):
        return lambda n: n
    if polarity is TrunkPolarity.B:
        return lambda n: fibres + 1 - n
    # Type C and A-to-B: each pair crossed (on a duplex cord, the pair is the cord).
    return lambda n: n + 1 if n % 2 else n - 1


def adapter_map(adapter: Adapter, fibres: int) -> Callable[[int], int]:
    if adapter is Adapter.KEY_UP_KEY_DOWN:
        return lambda n: n
    return lambda n: fibres + 1 - n


def segment_paths(segment: Segment) -> dict[PortPosition, PortPosition]:
    """Every fibre of the segment: (port, position) at its end A -> (port, position) at end B."""
    if segment.runs:
        return {(r.a_port, r.a_position): (r.b_port, r.b_position) for r in segment.runs}
    fibres = segment.connector_a.fibres
    if segment.polarity is not None:
        move = polarity_map(segment.polarity, fibres)
    else:
        assert segment.adapter is not None  # Segment refuses one without polarity, adapter or runs
        move = adapter_map(segment.adapter, fibres)
    return {(1, n): (1, move(n)) for n in range(1, fibres + 1)}


@dataclass(frozen=True, slots=True)
class LaneTrace:
    """One transmit fibre followed from `from_end` to the other end."""

    from_end: str
    lane: int
    """1-based, in the order of the sending optic's `tx_positions`."""
    tx_position: int
    reached_position: int | None
    """At the far optic; None where the fibre left the link before it."""
    rx_lane: int | None
    """The far optic's lane whose receive fibre it lands on; None if it is no receive fibre."""


@dataclass(frozen=True, slots=True)
class PolarityFinding:
    link: str
    segment: str
    """The label of the segment at fault."""
    segment_index: int
    """Its index in the chain as given (A to B)."""
    lane: int
    from_end: str
    message: str


@dataclass(frozen=True, slots=True)
class PolarityVerdict:
    link: str
    lanes: tuple[LaneTrace, ...]
    """Every lane traced, from A then from B (a breakout's other legs left out)."""
    findings: tuple[PolarityFinding, ...]
    unknown: str | None = None
    """Why the lanes could not be traced (an optic whose fibre positions no source gives); None when
    they were."""

    @property
    def ok(self) -> bool:
        """Every Tx lands on an Rx; False too when the trace could not be made."""
        return not self.findings and self.unknown is None


def trace_polarity(chain: LinkChain) -> PolarityVerdict:
    """Trace every transmit fibre of both optics to the far end (see the module's docstring)."""
    blind = [o.part for o in (chain.optic_a, chain.optic_b) if not o.positions_known]
    if blind:
        why = f"no source gives the Tx/Rx fibre positions of {' and '.join(sorted(set(blind)))}"
        return PolarityVerdict(link=chain.name, lanes=(), findings=(), unknown=why)
    n = len(chain.segments)
    lanes: list[LaneTrace] = []
    findings: list[PolarityFinding] = []
    back = chain.reversed()
    # Judged on the chain as given, so both directions blame the same segment.
    deviations = method_deviations(chain)
    for oriented, backwards in ((chain, False), (back, True)):
        oriented_deviations = [(n - 1 - i, why) for i, why in deviations] if backwards else deviations
        got_lanes, got = _trace_direction(oriented, oriented_deviations)
        lanes.extend(got_lanes)
        for lane, index, message in got:
            findings.append(
                PolarityFinding(
                    link=chain.name,
                    segment=oriented.segments[index].label,
                    segment_index=n - 1 - index if backwards else index,
                    lane=lane,
                    from_end=oriented.end_a,
                    message=message,
                )
            )
    split = _breakout_split(chain, lanes)
    if split is not None:
        findings.append(split)
    return PolarityVerdict(link=chain.name, lanes=tuple(lanes), findings=tuple(findings))


def _breakout_split(chain: LinkChain, lanes: list[LaneTrace]) -> PolarityFinding | None:
    """On a breakout link, the wide end's lanes whose Tx reach the leg must be the lanes the leg's Tx
    comes back on: one fibre pair per far end."""
    a_pairs, b_pairs = _pairs(chain.optic_a), _pairs(chain.optic_b)
    if a_pairs == b_pairs:
        return None
    wide, narrow = (chain.end_a, chain.end_b) if a_pairs > b_pairs else (chain.end_b, chain.end_a)
    sent = sorted(t.lane for t in lanes if t.from_end == wide and t.rx_lane is not None)
    back = sorted(t.rx_lane for t in lanes if t.from_end == narrow and t.rx_lane is not None)
    if sent == back:
        return None
    index = next((i for i, s in enumerate(chain.segments) if s.ports_a > 1 or s.ports_b > 1), len(chain.segments) - 1)
    return PolarityFinding(
        link=chain.name,
        segment=chain.segments[index].label,
        segment_index=index,
        lane=(sent or back or [0])[0],
        from_end=wide,
        message=f"the Tx of {wide}'s lanes {sent} reach {narrow}, whose Tx comes back on {wide}'s lanes {back}:"
        " a breakout leg must carry one lane's pair",
    )


def _pairs(optic: Optic) -> int:
    return len(optic.tx_positions)


def _trace_direction(
    chain: LinkChain, deviations: list[tuple[int, str]]
) -> tuple[list[LaneTrace], list[tuple[int, int, str]]]:
    """Lanes sent from `chain.optic_a`; findings as (lane, segment index in this orientation, text).
    `deviations`: the chain's departures from its method, indexed in this orientation."""
    sender, receiver = chain.optic_a, chain.optic_b
    # A breakout's wide end carries the other legs' lanes too: those leave by another port.
    breakout = _pairs(sender) > _pairs(receiver)
    paths = [segment_paths(s) for s in chain.segments]
    lanes: list[LaneTrace] = []
    findings: list[tuple[int, int, str]] = []
    a, b = chain.end_a, chain.end_b
    for lane, tx in enumerate(sender.tx_positions, start=1):
        head = f"lane {lane}: Tx at {a} pos {tx}"
        pos = tx
        lost: tuple[int, str] | None = None
        other_leg = False
        for i, (seg, path) in enumerate(zip(chain.segments, paths, strict=True)):
            if pos > seg.connector_a.fibres:
                lost = (i, f"{head} reaches pos {pos}, which {seg.label}'s {seg.connector_a} does not have")
                break
            nxt = path.get((seg.port_a, pos))
            if nxt is None:
                lost = (i, f"{head} reaches pos {pos} of {seg.label}, which carries no fibre there")
                break
            port, pos = nxt
            if port != seg.port_b:
                if breakout:
                    other_leg = True
                    break
                lost = (i, f"{head} leaves {seg.label} by port {port} pos {pos}; the link is on port {seg.port_b}")
                break
        if other_leg:
            continue
        if lost is not None:
            index, text = lost
            lanes.append(LaneTrace(a, lane, tx, None, None))
            findings.append((lane, _blame(deviations, index), _explain(text, deviations)))
            continue
        last = len(chain.segments) - 1
        if pos in receiver.rx_positions:
            rx_lane = receiver.rx_positions.index(pos) + 1
            lanes.append(LaneTrace(a, lane, tx, pos, rx_lane))
            continue
        lanes.append(LaneTrace(a, lane, tx, pos, None))
        what = "a Tx" if pos in receiver.tx_positions else "no receive fibre"
        text = f"{head} reaches pos {pos} at {b}, {what}"
        if pos > receiver.connector.fibres:
            text = f"{head} reaches pos {pos}, which {b}'s {receiver.connector} optic does not have"
        findings.append((lane, _blame(deviations, last), _explain(text, deviations)))
    return lanes, findings


def _blame(deviations: list[tuple[int, str]], fallback: int) -> int:
    return deviations[0][0] if deviations else fallback


def _explain(text: str, deviations: list[tuple[int, str]]) -> str:
    return f"{text}: {deviations[0][1]}" if deviations else text


def method_deviations(chain: LinkChain) -> list[tuple[int, str]]:
    """The segments that depart from the chain's TIA-568.3-D method, in chain order, each with why.

    Duplex (LC optics over MPO trunks with cassettes): Method A a Type-A trunk, an A-to-B cord at
    one end and an A-to-A at the other; Method B a Type-B trunk, Method C a Type-C trunk, each
    with A-to-B cords at both ends. Parallel (MPO optics, MPO pass-through panels): Method A a
    Type-A trunk, key-up to key-down adapters, a Type-A cord at one end and a Type-B at the other;
    Method B a Type-B trunk, key-up to key-up adapters and Type-B cords at both ends."""
    method = chain.method
    if method is None:
        return []
    out: list[tuple[int, str]] = []
    parallel = chain.optic_a.connector is not Connector.LC_DUPLEX
    segs = chain.segments
    for i, s in enumerate(segs):
        if s.kind is SegmentKind.TRUNK and s.polarity is not TrunkPolarity(method.value):
            have = s.polarity.value if s.polarity is not None else "no"
            out.append((i, f"Method {method} needs a Type-{method} trunk; this chain has Type {have}"))
        if s.cassette is not None and s.cassette.method not in (None, method):
            out.append((i, f"{s.label} is a Method {s.cassette.method} cassette in a Method {method} chain"))
        if parallel and s.adapter is not None and method in (PolarityMethod.A, PolarityMethod.B):
            want = Adapter.KEY_UP_KEY_DOWN if method is PolarityMethod.A else Adapter.KEY_UP_KEY_UP
            if s.adapter is not want:
                out.append((i, f"Method {method} needs {want} adapters; {s.label} is {s.adapter}"))
    ends = [i for i in (0, len(segs) - 1) if segs[i].kind is SegmentKind.CORD]
    if len(ends) == 2:
        out.extend(_cord_deviations(method, parallel, segs, ends))
    return sorted(out)


def _cord_deviations(
    method: PolarityMethod, parallel: bool, segs: tuple[Segment, ...], ends: list[int]
) -> list[tuple[int, str]]:
    crossing = TrunkPolarity.B if parallel else DuplexPolarity.A_TO_B
    straight = TrunkPolarity.A if parallel else DuplexPolarity.A_TO_A
    kinds = [segs[i].polarity for i in ends]
    if method is PolarityMethod.A:
        if sorted(map(str, kinds)) == sorted(map(str, (crossing, straight))):
            return []
        # Two of one kind: the cord at the B end is the one to change.
        want = straight if kinds[1] == crossing else crossing
        return [(ends[1], f"Method A needs {_a(want)} cord at one end; both are {_cord(kinds[1])}")]
    if method is PolarityMethod.C and parallel:
        return []
    return [
        (i, f"Method {method} needs {_cord(crossing)} cords at both ends; {segs[i].label} is {_cord(k)}")
        for i, k in zip(ends, kinds, strict=True)
        if k != crossing
    ]


def _a(polarity: TrunkPolarity | DuplexPolarity) -> str:
    return f"a {_cord(polarity)}" if isinstance(polarity, TrunkPolarity) else f"an {_cord(polarity)}"


def _cord(polarity: TrunkPolarity | DuplexPolarity | None) -> str:
    if isinstance(polarity, TrunkPolarity):
        return f"Type-{polarity}"
    return str(polarity)
