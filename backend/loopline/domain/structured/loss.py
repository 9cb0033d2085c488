"""Optical loss of a link's chain against its optics' channel budget, reach, and the connectors and
fibre its segments meet with (DESIGN §6).

Loss = each cable's fibre attenuation (dB/km at the optic's wavelength) x its length + one mated
pair's loss per pass-through panel port (one adapter, or an adapter panel in a cassette slot: a
catalog cassette without fibre of its own) + each cassette's own insertion loss (its
datasheet figure covers its front and rear pairs; without one it counts as those two pairs) + the
splices. The mated pairs at the two optics are not counted: IEEE 802.3 specifies the channel
between the two MDIs, whose own connections are part of the transmitter's and receiver's specs.
The per-pair and per-splice figures are the catalog's (`StructuredCatalog.mated_pair_loss`,
`splice_loss`, each with its source) unless the caller passes others.

Sums are exact decimals (the figures as written, e.g. 0.75 dB) and reported as floats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from itertools import pairwise

from loopline.domain.structured.catalog import Connector, Optic, StructuredCatalog
from loopline.domain.structured.chain import LinkChain, Segment, SegmentKind

_MM_PER_KM = Decimal(1_000_000)


class LossFindingKind(StrEnum):
    OVER_BUDGET = "over budget"
    REACH_EXCEEDED = "reach exceeded"
    CONNECTOR_MISMATCH = "connector mismatch"
    FIBRE_MISMATCH = "fibre mismatch"
    MISSING_FIGURE = "missing figure"


@dataclass(frozen=True, slots=True)
class LossLine:
    segment: str
    what: str
    db: float


@dataclass(frozen=True, slots=True)
class LossFinding:
    link: str
    kind: LossFindingKind
    segment: str | None
    """The segment's label; None for the link as a whole."""
    message: str


@dataclass(frozen=True, slots=True)
class LossReport:
    link: str
    length_mm: int
    loss_db: float
    """The sum of `lines`; a lower bound when a figure is missing (see `complete`)."""
    budget_db: float | None
    """The smaller channel insertion loss budget of the two optics; None if neither states one."""
    margin_db: float | None
    """budget - loss (negative: over budget); None without a budget or with a figure missing."""
    complete: bool
    lines: tuple[LossLine, ...]
    findings: tuple[LossFinding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings


def link_loss(
    chain: LinkChain,
    catalog: StructuredCatalog,
    *,
    mated_pair_db: Mapping[Connector, float] | None = None,
    splice_db: float | None = None,
) -> LossReport:
    """The chain's loss and its findings. `mated_pair_db` replaces the catalog's per-pair figure for
    the connectors it names; `splice_db` the catalog's per-splice figure."""
    pair_db: dict[Connector, Decimal] = {c: _dec(loss.db) for c, loss in catalog.mated_pair_loss.items()}
    pair_db.update({c: _dec(db) for c, db in (mated_pair_db or {}).items()})
    per_splice = _dec(splice_db) if splice_db is not None else None
    if per_splice is None and catalog.splice_loss is not None:
        per_splice = _dec(catalog.splice_loss.db)

    optic = chain.optic_a
    lines: list[tuple[str, str, Decimal]] = []
    findings: list[LossFinding] = []

    def missing(segment: Segment, message: str) -> None:
        findings.append(LossFinding(chain.name, LossFindingKind.MISSING_FIGURE, segment.label, message))

    def pair(segment: Segment, connector: Connector, what: str) -> None:
        db = pair_db.get(connector)
        if db is None:
            missing(segment, f"no loss figure for a mated {connector} pair ({segment.label}); not counted")
        else:
            lines.append((segment.label, what, db))

    for seg in chain.segments:
        if seg.is_cable:
            assert seg.fibre is not None  # Segment refuses a cable without its fibre
            per_km = catalog.fibre(seg.fibre).db_per_km(optic.wavelength_nm)
            if per_km is None:
                missing(seg, f"no attenuation of {seg.fibre} at {optic.wavelength_nm} nm; {seg.label} not counted")
            else:
                what = f"{seg.fibre} {_m(seg.length_mm)} x {per_km} dB/km at {optic.wavelength_nm} nm"
                lines.append((seg.label, what, _dec(per_km) * seg.length_mm / _MM_PER_KM))
        elif seg.cassette is not None and seg.cassette.fibre is None:
            # An adapter panel in a cassette slot: no fibre of its own, one mated pair.
            pair(seg, seg.connector_a, f"{seg.connector_a} mated pair")
        elif seg.cassette is not None:
            if seg.cassette.insertion_loss_db is not None:
                lines.append((seg.label, f"cassette {seg.cassette.name}", _dec(seg.cassette.insertion_loss_db)))
            else:
                # No datasheet figure: the cassette is what it is made of, a front and a rear pair.
                pair(seg, seg.connector_a, f"{seg.connector_a} mated pair (cassette without its own figure)")
                pair(seg, seg.connector_b, f"{seg.connector_b} mated pair (cassette without its own figure)")
        elif seg.kind is SegmentKind.PANEL_PORT:
            pair(seg, seg.connector_a, f"{seg.connector_a} mated pair")
        if seg.splices:
            if per_splice is None:
                missing(seg, f"no loss figure for a splice; {seg.label}'s {seg.splices} not counted")
            else:
                lines.append((seg.label, f"{seg.splices} splices", per_splice * seg.splices))

    findings.extend(connector_findings(chain))
    findings.extend(_fibre_findings(chain))

    total = sum((db for _, _, db in lines), Decimal(0))
    complete = not any(f.kind is LossFindingKind.MISSING_FIGURE for f in findings)
    budgets = [_dec(o.channel_loss_db) for o in (chain.optic_a, chain.optic_b) if o.channel_loss_db is not None]
    budget = min(budgets) if budgets else None
    margin = budget - total if budget is not None else None
    if budget is None:
        findings.append(
            LossFinding(chain.name, LossFindingKind.MISSING_FIGURE, None, f"{optic.part} states no channel loss budget")
        )
    elif total > budget:
        findings.append(
            LossFinding(
                chain.name,
                LossFindingKind.OVER_BUDGET,
                None,
                f"{chain.name}: {_db(total)} dB of loss against {_budget_owner(chain, budget)}'s channel budget"
                f" of {_db(budget)} dB: over by {_db(total - budget)} dB",
            )
        )

    length = chain.length_mm
    reach_optic = min((chain.optic_a, chain.optic_b), key=lambda o: o.reach_mm)
    if length > reach_optic.reach_mm:
        findings.append(
            LossFinding(
                chain.name,
                LossFindingKind.REACH_EXCEEDED,
                None,
                f"{chain.name}: {_m(length)} of fibre; {reach_optic.part} reaches {_m(reach_optic.reach_mm)}"
                f" on {reach_optic.fibre}",
            )
        )
    return LossReport(
        link=chain.name,
        length_mm=length,
        loss_db=float(total),
        budget_db=float(budget) if budget is not None else None,
        margin_db=float(margin) if margin is not None and complete else None,
        complete=complete,
        lines=tuple(LossLine(s, w, float(db)) for s, w, db in lines),
        findings=tuple(findings),
    )


def connector_findings(chain: LinkChain) -> list[LossFinding]:
    """Every junction where a plug and a receptacle are not the same connector (an MPO-16 optic on
    an MPO-12 cord, an LC cord in an MPO port with no cassette or breakout between)."""
    out: list[LossFinding] = []
    segs = chain.segments
    first, last = segs[0], segs[-1]
    ends: list[tuple[str, Connector, str, Connector, str]] = [
        (_optic_side(chain.optic_a, chain.end_a), chain.optic_a.connector, _side(first), first.connector_a, first.label)
    ]
    for left, right in pairwise(segs):
        ends.append((_side(left), left.connector_b, _side(right), right.connector_a, right.label))
    optic_b = _optic_side(chain.optic_b, chain.end_b)
    ends.append((_side(last), last.connector_b, optic_b, chain.optic_b.connector, last.label))
    for left_name, plug, right_name, socket, label in ends:
        if plug == socket:
            continue
        hint = ""
        if Connector.LC_DUPLEX in (plug, socket):
            hint = "; an LC plug reaches an MPO port only through a cassette or a breakout"
        out.append(
            LossFinding(
                chain.name,
                LossFindingKind.CONNECTOR_MISMATCH,
                label,
                f"{chain.name}: {left_name} ({plug}) meets {right_name} ({socket}){hint}",
            )
        )
    for left, mid, right in zip(segs, segs[1:], segs[2:], strict=False):
        # A pass-through adapter, or an adapter panel in a cassette slot (no fibre of its own).
        adapter = mid.adapter is not None or (mid.cassette is not None and mid.cassette.fibre is None)
        if not adapter or left.gender_b is None or left.gender_b is not right.gender_a:
            continue
        out.append(
            LossFinding(
                chain.name,
                LossFindingKind.CONNECTOR_MISMATCH,
                mid.label,
                f"{chain.name}: two {left.gender_b} plugs meet in {mid.label} ({left.label}, {right.label});"
                " a mated MPO pair needs one pinned and one unpinned",
            )
        )
    return out


def _fibre_findings(chain: LinkChain) -> list[LossFinding]:
    """A single-mode optic on multimode fibre or the reverse. (Multimode grades may mix: the reach is
    judged against the optic's stated fibre.)"""
    optic = chain.optic_a
    out: list[LossFinding] = []
    for seg in chain.segments:
        if seg.fibre is not None and seg.fibre.single_mode != optic.fibre.single_mode:
            out.append(
                LossFinding(
                    chain.name,
                    LossFindingKind.FIBRE_MISMATCH,
                    seg.label,
                    f"{chain.name}: {seg.label} is {seg.fibre}; {optic.part} runs on {optic.fibre}",
                )
            )
    return out


def _optic_side(optic: Optic, end: str) -> str:
    return f"the {optic.part} optic at {end}"


def _side(segment: Segment) -> str:
    return f"{segment.kind} {segment.label}"


def _budget_owner(chain: LinkChain, budget: Decimal) -> str:
    if chain.optic_a.channel_loss_db is not None and _dec(chain.optic_a.channel_loss_db) == budget:
        return chain.optic_a.part
    return chain.optic_b.part


def _dec(x: float) -> Decimal:
    # The figure as written (0.75, not the binary double nearest it).
    return Decimal(repr(x))


def _db(x: Decimal) -> str:
    return format(x.normalize(), "f")


def _m(length_mm: int) -> str:
    return f"{format((Decimal(length_mm) / 1000).normalize(), 'f')} m"
