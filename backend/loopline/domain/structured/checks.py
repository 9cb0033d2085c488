"""Checks over a built plant's links (issue 29 item 4): each logical link's chain traced for
polarity lane by lane (`polarity.trace_polarity`), its optical loss against the optics' channel
budget, its reach and the connectors it mates (`loss.link_loss`, the planner's per-pair losses
replacing the catalog's defaults), each finding naming the link and, where one is to blame, the
segment (the plant item of that step).

Bounded for halls of 100,000 servers: the first `FINDINGS_PER_KIND` findings of each kind are
listed and the rest counted in one more finding of that kind; a missing catalog figure is one
finding per distinct fact (the links it concerns counted), not one per link.

A link's polarity depends only on what its segments are (types, maps, ports), not on their labels
or lengths, so the verdict of a chain of the same make is reused: a hall of identical links is
traced a few times, not once per link.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace

from loopline.domain.structured.catalog import Connector, FibreKind, Optic, PolarityMethod, StructuredCatalog
from loopline.domain.structured.chain import LinkChain, Segment
from loopline.domain.structured.loss import LossFinding, LossFindingKind, LossReport, link_loss
from loopline.domain.structured.plant import FindingKind, PlantFinding, StructuredSettings
from loopline.domain.structured.polarity import trace_polarity

FINDINGS_PER_KIND = 50
"""Findings listed per kind; the rest are counted."""

_LOSS_KINDS: dict[LossFindingKind, FindingKind] = {
    LossFindingKind.OVER_BUDGET: FindingKind.LOSS,
    LossFindingKind.REACH_EXCEEDED: FindingKind.REACH,
    LossFindingKind.CONNECTOR_MISMATCH: FindingKind.CONNECTOR,
    LossFindingKind.FIBRE_MISMATCH: FindingKind.CONNECTOR,
    LossFindingKind.MISSING_FIGURE: FindingKind.FACT_MISSING,
}


@dataclass(frozen=True, slots=True)
class LinkUnderCheck:
    """One built link as the checks read it: its segments as templates (shared by every link of the
    same make, labelled by their kind, without a length) with the link's own labels and lengths
    beside them, so a hall of identical links is checked per make and only a link with a finding
    is put together as its own `LinkChain`."""

    cable_id: str
    """The logical link (`Cable.cable_id` of the direct plan)."""
    name: str
    """Its label, which findings start with."""
    optic_a: Optic
    optic_b: Optic
    method: PolarityMethod | None
    end_a: str
    end_b: str
    segments: tuple[Segment, ...]
    lengths: tuple[int, ...]
    labels: tuple[str, ...]
    item_ids: tuple[str, ...]
    """The plant item of each segment, in the chain's order."""

    def chain(self, *, labelled: bool = True, name: str | None = None) -> LinkChain:
        """The link's chain: each segment with its length, and its own label (`labelled`) or its
        template's."""
        segments = tuple(
            replace(s, length_mm=n, label=label if labelled else s.label) if (n or labelled) else s
            for s, n, label in zip(self.segments, self.lengths, self.labels, strict=True)
        )
        return LinkChain(
            name=self.name if name is None else name,
            optic_a=self.optic_a,
            optic_b=self.optic_b,
            segments=segments,
            method=self.method,
            end_a=self.end_a,
            end_b=self.end_b,
        )


def mated_pair_losses(settings: StructuredSettings) -> dict[Connector, float]:
    """The planner's per-pair losses, by connector (those left None keep the catalog's default)."""
    out: dict[Connector, float] = {}
    if settings.lc_pair_loss_db is not None:
        out[Connector.LC_DUPLEX] = settings.lc_pair_loss_db
    if settings.mpo_pair_loss_db is not None:
        for c in (Connector.MPO_12, Connector.MPO_16, Connector.MPO_24):
            out[c] = settings.mpo_pair_loss_db
    return out


@dataclass(slots=True)
class _Findings:
    """Findings of each kind, the first `per_kind` listed and the others counted (as links)."""

    per_kind: int
    listed: dict[FindingKind, list[PlantFinding]] = field(default_factory=dict)
    more: dict[FindingKind, int] = field(default_factory=dict)
    facts: dict[str, tuple[PlantFinding, int]] = field(default_factory=dict)

    def full(self, kind: FindingKind) -> bool:
        return len(self.listed.get(kind, ())) >= self.per_kind

    def add(self, kind: FindingKind, found: list[PlantFinding]) -> None:
        """One link's findings of `kind`: listed while there is room, else the link is counted."""
        if not found:
            return
        if self.full(kind):
            self.more[kind] = self.more.get(kind, 0) + 1
            return
        self.listed.setdefault(kind, []).extend(found)

    def fact(self, key: str, finding: PlantFinding) -> None:
        first, n = self.facts.get(key, (finding, 0))
        self.facts[key] = (first, n + 1)

    def all(self) -> list[PlantFinding]:
        out: list[PlantFinding] = []
        for kind in FindingKind:
            out.extend(self.listed.get(kind, ()))
            n = self.more.get(kind, 0)
            if n:
                out.append(
                    PlantFinding(
                        kind,
                        "error",
                        None,
                        None,
                        f"{n:,} more link{'s' if n != 1 else ''} with {kind} findings, not listed"
                        f" (the first {self.per_kind} are)",
                    )
                )
        for key, (first, n) in self.facts.items():
            also = f" ({n:,} links, e.g. {first.message.split(': ', 1)[0]})" if n > 1 else ""
            out.append(PlantFinding(first.kind, first.severity, first.cable_id, first.item_id, f"{key}{also}"))
        return out


def check_links(
    links: Iterable[LinkUnderCheck],
    settings: StructuredSettings,
    catalog: StructuredCatalog,
    *,
    per_kind: int = FINDINGS_PER_KIND,
) -> list[PlantFinding]:
    """Every link's polarity, loss, reach and connector findings, bounded (see the module)."""
    pairs = mated_pair_losses(settings)
    found = _Findings(per_kind)
    traced: dict[Hashable, str] = {}
    losses: dict[Hashable, LossReport] = {}
    pinned: list[tuple[Segment, ...]] = []
    for link in links:
        # Templates are shared objects: their identities are the link's make.
        make = (link.optic_a.part, link.optic_b.part, link.method, tuple(map(id, link.segments)))
        state = traced.get(make)
        if state is None:
            pinned.append(link.segments)  # the ids stand for these objects while the check runs
        if state == "bad" and found.full(FindingKind.POLARITY):
            found.add(FindingKind.POLARITY, [PlantFinding(FindingKind.POLARITY, "error", link.cable_id, None, "")])
        elif state != "ok":
            verdict = trace_polarity(link.chain())
            if verdict.unknown is not None:
                traced[make] = "unknown"
                found.fact(
                    f"polarity not traced: {verdict.unknown}",
                    PlantFinding(
                        FindingKind.FACT_MISSING, "warning", link.cable_id, None, f"{link.name}: {verdict.unknown}"
                    ),
                )
            else:
                traced[make] = "ok" if verdict.ok else "bad"
                found.add(
                    FindingKind.POLARITY,
                    [
                        PlantFinding(
                            FindingKind.POLARITY,
                            "error",
                            link.cable_id,
                            link.item_ids[f.segment_index],
                            f"{link.name}: {f.message}",
                        )
                        for f in verdict.findings
                    ],
                )
        # Loss depends on the make and, per fibre kind, the cables' total length.
        fibre: dict[FibreKind, int] = {}
        for s, n in zip(link.segments, link.lengths, strict=True):
            if s.fibre is not None:
                fibre[s.fibre] = fibre.get(s.fibre, 0) + n
        key = (make, tuple(sorted(fibre.items())))
        report = losses.get(key)
        if report is None:
            report = losses[key] = link_loss(link.chain(labelled=False, name=_LINK), catalog, mated_pair_db=pairs)
        by_kind: dict[FindingKind, list[PlantFinding]] = {}
        labelled: LossReport | None = None
        for f in report.findings:
            kind = _LOSS_KINDS[f.kind]
            if kind is FindingKind.FACT_MISSING:
                found.fact(f.message.replace(_LINK, "a link"), _finding(kind, "warning", link, f))
            elif f.segment is None or found.full(kind):
                by_kind.setdefault(kind, []).append(_finding(kind, "error", link, f))
            elif labelled is None:
                # A segment is named: say it by its own label and item.
                labelled = link_loss(link.chain(), catalog, mated_pair_db=pairs)
                for g in labelled.findings:
                    gk = _LOSS_KINDS[g.kind]
                    if gk is not FindingKind.FACT_MISSING and g.segment is not None:
                        by_kind.setdefault(gk, []).append(_finding(gk, "error", link, g))
        for kind, fs in by_kind.items():
            found.add(kind, fs)
    return found.all()


_LINK = "\x00link\x00"
"""The name a make's loss is worked out under, each link's own put in its place."""


def _finding(kind: FindingKind, severity: str, link: LinkUnderCheck, f: LossFinding) -> PlantFinding:
    message = f.message.replace(_LINK, link.name)
    if not message.startswith(f"{link.name}:"):
        message = f"{link.name}: {message}"
    item = None
    if f.segment is not None and f.segment in link.labels:
        item = link.item_ids[link.labels.index(f.segment)]
    return PlantFinding(kind, severity, link.cable_id, item, message)
