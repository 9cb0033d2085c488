"""What the user chooses: the wiring pattern, its parameters and the fabric above the ToRs."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from loopline.domain.layout import SwitchModel
from loopline.domain.structured.plant import Cabling, StructuredSettings


class Pattern(StrEnum):
    SINGLE_HOMED = "single-homed"
    """Type 0: every port of a server to its own ToR (a LAG)."""
    MC_LAG = "mc-lag"
    """Each server's p ports to p ToRs of its physical rack (Type 1 with l = p in one rack)."""
    SIDE_TO_SIDE = "side-to-side"
    """Subways loop in one row, closed by a back edge."""
    PAIRED_ROW = "paired-row"
    """Subways loop in two facing rows, crossing the cold aisle at both ends."""
    INTER_CHASSIS = "inter-chassis"
    """Subways loop in one row, meandering so no cable reaches more than a few racks."""
    GRIN = "grin"
    """Single-homed uplinks plus server-to-server links of degree n."""
    RAIL_OPTIMIZED = "rail-optimized"
    """GPU clusters: servers in scalable units (SUs); NIC i of every server of an SU to rail leaf i
    of that SU; the leaves up to the spines at a chosen oversubscription (`RailSpec`)."""
    RAIL_ONLY = "rail-only"
    """As rail-optimized without the spine: traffic between rails crosses the servers' own GPU
    interconnect, and the SUs share no switch."""


MAX_PAIR_LOSS_DB = 5.0
"""The most loss per mated connector pair a planner may set (`StructuredSettings`): a good pair loses
0.1 to 0.75 dB (the catalog's defaults); several dB is a damaged connector, not a planning figure."""

SUBWAYS_PATTERNS = frozenset({Pattern.SIDE_TO_SIDE, Pattern.PAIRED_ROW, Pattern.INTER_CHASSIS})
RAIL_PATTERNS = frozenset({Pattern.RAIL_OPTIMIZED, Pattern.RAIL_ONLY})


@dataclass(frozen=True, slots=True)
class RailSpec:
    """The compute fabric of a GPU cluster (patterns rail-optimized and rail-only).

    Servers are taken in hall order (rows, racks along the row, bottom to top) and grouped into
    scalable units of `su_size`; an SU has one rail leaf per compute NIC port of its servers (the
    rails: the spec's `ports`, else every NIC port of the server model), mounted in the network
    racks of the rows its servers stand in. Leaf server-facing port j+1 of every rail takes the
    SU's j-th server, so the same server sits on the same port of each of its SU's leaves."""

    leaf_model: SwitchModel
    su_size: int = 32
    """Servers per scalable unit (DGX SuperPOD's SU is 32 DGX H100)."""
    oversubscription: float | None = None
    """Rail-optimized: a leaf's server-facing capacity over its spine-facing capacity (1.0: as many
    Gb/s up as down); the leaf's uplinks U follow from it and must be a whole number. None: 1.0.
    Rail-only has no spine and takes none."""
    spine_planes: int = 1
    """Rail-optimized: the spines (in name order) split into this many equal planes, and rail i's
    leaves go up to plane i mod `spine_planes` alone (1: every leaf to every spine). With a plane per
    rail, cross-rail bytes never cross a spine: they take the servers' interconnect to the right rail."""


class GrinScope(StrEnum):
    RACK = "rack"
    """GRIN links between servers of one physical rack."""
    NEXT_RACK = "next-rack"
    """GRIN links between the servers of neighbouring physical racks (racks paired 1-2, 3-4, ...)."""


class FabricKind(StrEnum):
    NONE = "none"
    THREE_TIER = "three-tier"
    """ToR uplinks round-robin over the aggregation switches of their cluster; each agg to every core."""
    LEAF_SPINE = "leaf-spine"
    """ToR uplinks round-robin over all spine switches (full bipartite when U = spines)."""
    VL2 = "vl2"
    """Two uplinks per ToR to two distinct aggs of its cluster; each agg to every intermediate (core)."""


@dataclass(frozen=True, slots=True)
class FabricSpec:
    kind: FabricKind = FabricKind.THREE_TIER
    uplinks_per_tor: int = 4
    """U; VL2 always uses 2."""
    optical: bool = True
    """Fabric links (ToR uplinks, agg-core) use AOC or optics + fibre, as they leave the row
    (DESIGN §3.2); False: the cheapest medium that reaches, like server links."""
    breakouts: bool = False
    """A fabric switch port faster than the ToR uplinks it serves breaks out into lanes (400G into
    4 x 100G) where its optic has a breakout into their speed: it serves ports x lanes links. Built
    in the structured plant, so it needs structured cabling (`WiringSpec.cabling`)."""


@dataclass(frozen=True, slots=True)
class ParallelPorts:
    """A heterogeneous upgrade: `ports` new NIC ports per server, at `gbps`, on a parallel set of
    ToRs (one per logical rack, `tor_server_ports` x `gbps`), wired as Subways loops of their own
    (physical `pattern` and `loop`, default the spec's), Type 2 round-robin over `clusters`.
    With one new port, each logical rack's servers alternate between its own new ToR and its
    counter-clockwise neighbour's (an overlapping pair). No existing cable moves. The parallel ToR
    of a logical rack is mounted beside its ToR and named ``<rack>.U<tor_u>B``."""

    ports: int = 1
    gbps: float = 25.0
    tor_server_ports: int = 48
    clusters: int = 1
    pattern: Pattern | None = None
    loop: int | None = None


class Network(StrEnum):
    """The network a plan wires (issue 31): a GPU cluster's compute fabric and its front-end fabric are
    separate networks over the same racks, each with its own plan."""

    COMPUTE = "compute"
    FRONT_END = "front_end"


@dataclass(frozen=True, slots=True)
class WiringSpec:
    pattern: Pattern = Pattern.SINGLE_HOMED
    ports: int | None = None
    """p; None: each logical rack's ``ports_used``."""
    subways_type: int = 1
    loop: int | None = None
    """l; None: the whole row (side-to-side, inter-chassis) or row pair (paired-row)."""
    clusters: int = 1
    """c (Subways Type 2): the ToR at loop position k joins cluster ``(h + k mod c) mod C``, where h
    is the cluster of the loop's first row and C the hall's cluster count (``k mod c`` for the
    loops of the first cluster), so every cluster gets an even share of ToRs."""
    grin_degree: int = 0
    grin_scope: GrinScope = GrinScope.RACK
    rows_per_cluster: int = 2
    """Rows per aggregation cluster: consecutive rows holding compute racks, in hall order
    (rows of network racks only are not counted)."""
    fabric: FabricSpec = field(default_factory=FabricSpec)
    parallel: ParallelPorts | None = None
    hop_latency_ns: int = 500
    """Forwarding latency added to every link; propagation is 5 ns per metre of raw length."""
    cabling: Cabling = Cabling.DIRECT
    """Direct: every link one cable. Structured: ToR uplinks also get a passive plant (panels,
    trunks, cords); the logical links, and so the engine's network, are the same either way."""
    structured: StructuredSettings | None = None
    """The structured plant's settings; None with direct cabling."""
    rail: RailSpec | None = None
    """The rail patterns' SU size, leaf model and oversubscription; None with any other pattern."""
    network: Network = Network.COMPUTE
    """Which of a server's NICs the plan cables: the compute NICs, or a GPU server's front-end NICs
    (storage, in-band management: `wiring.frontend`), a network of its own over the same racks."""
