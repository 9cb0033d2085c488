"""Plan summary: the figures a planner compares plans by, none of them a price.

Counts (servers, ToRs, switches, cables, loops), cables per link class and medium with their
min/mean/max lengths, copper share, transceivers, warnings, and the plan's `Materials` (parts and
quantities of its bill of materials). Prices change with the project's price book, so they are
not stored: the summary keeps the materials, and the service prices them on read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from loopline.domain.bom import (
    Category,
    Materials,
    cable_materials,
    combine,
    materials,
    nic_materials,
    plant_materials,
    server_nics,
    switch_materials,
)
from loopline.domain.media import COPPER
from loopline.domain.structured.catalog import StructuredCatalog, builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import StructuredPlant
from loopline.domain.wiring.model import LinkClass, Role, WiringPlan

SUMMARY_FORMAT = 2
"""Stored summaries of an older format are recomputed from the stored plan when read."""

FINDINGS_PER_KIND = 50
"""A structured summary keeps the first findings of each kind (and counts them all): a 100,000-server
hall's plan must not carry a finding per link in every summary read."""


@dataclass(slots=True)
class ClassStats:
    count: int = 0
    min_raw_mm: int = 0
    max_raw_mm: int = 0
    total_raw_mm: int = 0
    max_ordered_mm: int = 0
    media: dict[str, int] = field(default_factory=dict)

    @property
    def mean_raw_mm(self) -> float:
        return self.total_raw_mm / self.count if self.count else 0.0


@dataclass(slots=True)
class PlanSummary:
    cables: int
    servers: int
    tors: int
    switches: dict[str, int]
    loops: int
    max_raw_mm: int
    total_raw_mm: int
    total_ordered_mm: int
    by_class: dict[str, ClassStats]
    media: dict[str, int]
    parts: dict[str, int]
    transceivers: dict[str, int]
    copper_share: float
    warnings: list[str]
    materials: Materials = field(default_factory=Materials)
    tor_oversubscription: tuple[float, float] | None = None
    """(min, max) over ToRs of server-facing Gb/s / uplink Gb/s; None without uplinks."""
    structured: dict[str, object] | None = None
    """A structured plan's plant in figures (`structured_summary`); None for a direct plan."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready, lengths in metres."""

        def m(mm: float) -> float:
            return round(mm / 1000, 3)

        return {
            "format": SUMMARY_FORMAT,
            "cables": self.cables,
            "servers": self.servers,
            "tors": self.tors,
            "switches": self.switches,
            "loops": self.loops,
            "max_raw_length_m": m(self.max_raw_mm),
            "total_raw_length_m": m(self.total_raw_mm),
            "total_ordered_length_m": m(self.total_ordered_mm),
            "by_class": {
                k: {
                    "count": s.count,
                    "min_raw_length_m": m(s.min_raw_mm),
                    "mean_raw_length_m": m(s.mean_raw_mm),
                    "max_raw_length_m": m(s.max_raw_mm),
                    "max_ordered_length_m": m(s.max_ordered_mm),
                    "media": s.media,
                }
                for k, s in self.by_class.items()
            },
            "media": self.media,
            "parts": self.parts,
            "transceivers": self.transceivers,
            "transceiver_count": sum(self.transceivers.values()),
            "copper_cables": sum(n for med, n in self.media.items() if med in COPPER),
            "optical_cables": sum(n for med, n in self.media.items() if med not in COPPER),
            "nics": self.materials.count(Category.NIC),
            "copper_share": round(self.copper_share, 4),
            "tor_oversubscription": (
                None
                if self.tor_oversubscription is None
                else {"min": round(self.tor_oversubscription[0], 3), "max": round(self.tor_oversubscription[1], 3)}
            ),
            "warnings": self.warnings,
            "materials": self.materials.to_json(),
            **({} if self.structured is None else {"structured": self.structured}),
        }


def structured_summary(plant: StructuredPlant) -> dict[str, object]:
    """The plant's settings as built, its counts, and its findings (the first `FINDINGS_PER_KIND` of
    each kind, with every kind's count), JSON-ready for the plan's stored summary."""
    kinds = {k: 0 for k in SegmentKind}
    fibres = 0
    for item in plant.items:
        kinds[item.kind] += 1
        if item.kind is SegmentKind.TRUNK:
            fibres += item.fibres
    finding_counts: dict[str, int] = {}
    kept = []
    for f in plant.findings:
        n = finding_counts.get(f.kind.value, 0)
        finding_counts[f.kind.value] = n + 1
        if n < FINDINGS_PER_KIND:
            kept.append(
                {"kind": f.kind.value, "severity": f.severity, "cable_id": f.cable_id, "item_id": f.item_id,
                 "message": f.message}
            )  # fmt: skip
    settings = plant.settings
    return {
        "settings": {
            "panel_at": settings.panel_at.value,
            "lc_pair_loss_db": settings.lc_pair_loss_db,
            "mpo_pair_loss_db": settings.mpo_pair_loss_db,
        },
        "counts": {
            "links": len({s.cable_id for s in plant.steps}),
            "panels": len(plant.panels),
            "cassettes": sum(p.cassettes for p in plant.panels),
            "panel_ports": kinds[SegmentKind.PANEL_PORT],
            "trunks": kinds[SegmentKind.TRUNK],
            "cords": kinds[SegmentKind.CORD],
            "breakout_cables": kinds[SegmentKind.BREAKOUT],
            "fibres": fibres,
            "optics": len(plant.optics),
        },
        "findings": kept,
        "finding_counts": finding_counts,
    }


def summarize(
    plan: WiringPlan,
    server_port_gbps: Mapping[str, float] | None = None,
    plant: StructuredPlant | None = None,
    catalog: StructuredCatalog | None = None,
) -> PlanSummary:
    """Counts and lengths of a plan; `by_class` lists every link class (zeros when absent).
    `server_port_gbps` (server model name -> port speed) tells which servers need an added NIC.

    With a structured `plant`, cable counts and lengths stay those of the logical links (the direct
    plan's truth), while what is bought changes: a link the plant carries is not a cable with two
    transceivers but its chain's items (counted once however many links share them) and the
    optics the plant fits per port; `transceivers` counts those, and `structured` the plant."""
    carried = frozenset(s.cable_id for s in plant.steps) if plant is not None else frozenset()
    by_class: dict[str, ClassStats] = {}
    media: dict[str, int] = {}
    parts: dict[str, int] = {}
    xcvr: dict[str, int] = {}
    copper = 0
    total_raw = total_ordered = 0
    down: dict[str, float] = {}
    up: dict[str, float] = {}
    for c in plan.cables:
        if c.link_class is LinkClass.SERVER_TOR:
            down[c.b_device] = down.get(c.b_device, 0.0) + c.gbps
        elif c.link_class is LinkClass.TOR_FABRIC:
            up[c.a_device] = up.get(c.a_device, 0.0) + c.gbps
        st = by_class.get(c.link_class)
        if st is None:
            st = by_class[c.link_class] = ClassStats(min_raw_mm=c.raw_mm)
        st.count += 1
        raw = c.raw_mm
        if raw < st.min_raw_mm:
            st.min_raw_mm = raw
        if raw > st.max_raw_mm:
            st.max_raw_mm = raw
        if c.ordered_mm > st.max_ordered_mm:
            st.max_ordered_mm = c.ordered_mm
        st.total_raw_mm += raw
        med = c.medium
        st.media[med] = st.media.get(med, 0) + 1
        media[med] = media.get(med, 0) + 1
        parts[c.part_number] = parts.get(c.part_number, 0) + 1
        if c.transceiver is not None and c.cable_id not in carried:
            xcvr[c.transceiver] = xcvr.get(c.transceiver, 0) + 2
        if med in COPPER:
            copper += 1
        total_raw += raw
        total_ordered += c.ordered_mm
    order = [k.value for k in LinkClass]
    switches: dict[str, int] = {}
    servers = tors = 0
    for d in plan.devices:
        if d.role is Role.SERVER:
            servers += 1
        elif d.role is Role.TOR:
            tors += 1
        else:
            switches[d.role] = switches.get(d.role, 0) + 1
    ratios = [down.get(t, 0.0) / g for t, g in up.items() if g > 0]
    if plant is None:
        bill = materials(plan.cables, plan.devices, server_port_gbps)
    else:
        passive = plant_materials(plant, catalog or builtin_catalog())
        bill = combine(
            cable_materials(c for c in plan.cables if c.cable_id not in carried),
            passive,
            switch_materials(plan.devices),
            nic_materials(server_nics(plan.cables, plan.devices, server_port_gbps or {})),
        )
        for fitted in passive.lines:
            if fitted.category is Category.TRANSCEIVER:
                xcvr[fitted.part_number] = xcvr.get(fitted.part_number, 0) + fitted.quantity
    return PlanSummary(
        cables=len(plan.cables),
        servers=servers,
        tors=tors,
        switches=switches,
        loops=len(plan.loops),
        max_raw_mm=max((s.max_raw_mm for s in by_class.values()), default=0),
        total_raw_mm=total_raw,
        total_ordered_mm=total_ordered,
        by_class={k: by_class.get(k, ClassStats()) for k in order},
        media=dict(sorted(media.items())),
        parts=dict(sorted(parts.items())),
        transceivers=dict(sorted(xcvr.items())),
        copper_share=copper / len(plan.cables) if plan.cables else 0.0,
        warnings=list(plan.warnings),
        materials=bill,
        tor_oversubscription=(min(ratios), max(ratios)) if ratios else None,
        structured=None if plant is None else structured_summary(plant),
    )
