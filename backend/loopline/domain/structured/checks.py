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

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from loopline.domain.structured.catalog import Connector, StructuredCatalog
from loopline.domain.structured.chain import LinkChain
from loopline.domain.structured.loss import LossFinding, LossFindingKind, link_loss
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
    cable_id: str
    """The logical link (`Cable.cable_id` of the direct plan)."""
    chain: LinkChain
    item_ids: tuple[str, ...]
    """The plant item of each segment, in the chain's order."""


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


def _shape(chain: LinkChain) -> Hashable:
    """What a chain's polarity depends on: its optics, method and each segment's make and ports."""
    return (
        chain.optic_a.part,
        chain.optic_b.part,
        chain.method,
        tuple(
            (
                s.kind,
                s.connector_a,
                s.connector_b,
                s.polarity,
                s.adapter,
                s.runs,
                s.port_a,
                s.port_b,
                s.ports_a,
                s.ports_b,
                s.cassette.method if s.cassette is not None else None,
            )
            for s in chain.segments
        ),
    )


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
    for link in links:
        chain = link.chain
        shape = _shape(chain)
        state = traced.get(shape)
        if state == "bad" and found.full(FindingKind.POLARITY):
            found.add(FindingKind.POLARITY, [PlantFinding(FindingKind.POLARITY, "error", link.cable_id, None, "")])
        elif state != "ok":
            verdict = trace_polarity(chain)
            if verdict.unknown is not None:
                traced[shape] = "unknown"
                found.fact(
                    f"polarity not traced: {verdict.unknown}",
                    PlantFinding(
                        FindingKind.FACT_MISSING, "warning", link.cable_id, None, f"{chain.name}: {verdict.unknown}"
                    ),
                )
            else:
                traced[shape] = "ok" if verdict.ok else "bad"
                found.add(
                    FindingKind.POLARITY,
                    [
                        PlantFinding(
                            FindingKind.POLARITY,
                            "error",
                            link.cable_id,
                            link.item_ids[f.segment_index],
                            f"{chain.name}: {f.message}",
                        )
                        for f in verdict.findings
                    ],
                )
        report = link_loss(chain, catalog, mated_pair_db=pairs)
        by_kind: dict[FindingKind, list[PlantFinding]] = {}
        labels = {s.label: item for s, item in zip(chain.segments, link.item_ids, strict=True)}
        for f in report.findings:
            kind = _LOSS_KINDS[f.kind]
            if kind is FindingKind.FACT_MISSING:
                found.fact(_fact_key(f, chain), _finding(kind, "warning", link, f, labels))
                continue
            by_kind.setdefault(kind, []).append(_finding(kind, "error", link, f, labels))
        for kind, fs in by_kind.items():
            found.add(kind, fs)
    return found.all()


def _finding(
    kind: FindingKind, severity: str, link: LinkUnderCheck, f: LossFinding, labels: Mapping[str, str]
) -> PlantFinding:
    message = f.message if f.message.startswith(f"{link.chain.name}:") else f"{link.chain.name}: {f.message}"
    return PlantFinding(kind, severity, link.cable_id, labels.get(f.segment) if f.segment else None, message)


def _fact_key(f: LossFinding, chain: LinkChain) -> str:
    """The missing fact, the same for every link it concerns: the segment's label becomes its kind."""
    if f.segment is None:
        return f.message
    seg = next((s for s in chain.segments if s.label == f.segment), None)
    return f.message.replace(f.segment, f"the {seg.kind}" if seg is not None else "a segment")
