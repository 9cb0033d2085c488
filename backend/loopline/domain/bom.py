"""Bill of materials of a wiring plan (DESIGN §3.5): per part number, quantity, unit price, total.

Two steps, so a plan's quantities are counted once (at generation) and priced whenever asked:
- `materials(cables, devices, server_port_gbps)` -> `Materials`: what the plan needs, no prices:
  cables per (part number, ordered length), transceivers (two per optical `Medium.FIBRE` cable),
  switches per model (ToRs, aggregation, spine, core) and NICs: a server port at a speed its
  model does not have (a parallel-port upgrade at a new speed) needs an added NIC, one
  `NIC-<k>x<speed>G` per server with k such ports. The hall's rack PDUs (`pdu_materials`, one per
  feed naming a PDU model) are counted from its facility when the BOM is read, not with the plan.
- `price(materials, book)` -> `Bom`: each line priced from the book (cables: base + per metre at
  the ordered length), with where the price came from (default book or project book version).
  A line the book does not price stays in the BOM with no price; it is listed in `unpriced`,
  named in `warnings`, and `complete` is False: a total is never silently short.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from loopline.domain.facility.model import Feed
from loopline.domain.media import (
    COPPER,
    MediaCatalog,
    Medium,
    PriceBook,
    default_catalog,
    default_price_book,
    nic_part,
)
from loopline.domain.structured.chain import CABLE_KINDS

if TYPE_CHECKING:  # the wiring package imports this module (its summary counts materials)
    from loopline.domain.structured.catalog import StructuredCatalog
    from loopline.domain.structured.plant import StructuredPlant
    from loopline.domain.wiring.model import WiringPlan

SERVER = "server"
"""`Role.SERVER`'s value."""

_FIBRE_DESCRIPTIONS = {
    "FIB-OM4": "OM4 multimode fibre patch cord / trunk",
    "FIB-OS2": "OS2 single-mode fibre patch cord / trunk",
}


class Category(StrEnum):
    CABLE = "cable"
    TRANSCEIVER = "transceiver"
    SWITCH = "switch"
    NIC = "nic"
    PDU = "pdu"
    """Rack PDUs: one per rack feed that names a PDU model (the hall's facility, not the wiring)."""
    PANEL = "panel"
    """A structured plan's patch panels, per model (trunks, cords and breakout cables are cables)."""
    CASSETTE = "cassette"
    """The cassettes fitted in a structured plan's panels, per model."""


BASE_CATEGORIES = (Category.CABLE, Category.TRANSCEIVER, Category.SWITCH, Category.NIC, Category.PDU)
"""Categories every bill shows a subtotal for; a structured plan's bill adds panels and cassettes."""


class MediaClass(StrEnum):
    """Copper or optical, for the BOM's media subtotals (transceivers are optical)."""

    COPPER = "copper"
    OPTICAL = "optical"


class BomCable(Protocol):
    """What counting materials reads of a cable (a domain `Cable` or a stored row)."""

    @property
    def a_device(self) -> str: ...
    @property
    def b_device(self) -> str: ...
    @property
    def gbps(self) -> float: ...
    @property
    def ordered_mm(self) -> int: ...
    @property
    def medium(self) -> str: ...
    @property
    def part_number(self) -> str: ...
    @property
    def transceiver(self) -> str | None: ...


class BomDevice(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def model(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Material:
    """One line of what a plan needs, before prices."""

    category: Category
    part_number: str
    length_mm: int | None
    """Ordered length of a cable line; None for other parts."""
    media_class: MediaClass | None
    quantity: int


@dataclass(frozen=True, slots=True)
class Materials:
    lines: tuple[Material, ...] = ()

    def count(self, category: Category) -> int:
        return sum(x.quantity for x in self.lines if x.category is category)

    def to_json(self) -> list[list[object]]:
        """Compact JSON, stored with the plan summary (a few dozen lines even for 200,000 cables)."""
        return [
            [
                x.category.value,
                x.part_number,
                x.length_mm,
                None if x.media_class is None else x.media_class.value,
                x.quantity,
            ]
            for x in self.lines
        ]

    @classmethod
    def from_json(cls, rows: Iterable[list[object]]) -> Materials:
        out = []
        for cat, pn, length, media, qty in rows:
            out.append(
                Material(
                    Category(str(cat)),
                    str(pn),
                    None if length is None else int(str(length)),
                    None if media is None else MediaClass(str(media)),
                    int(str(qty)),
                )
            )
        return cls(tuple(out))


def _key(x: Material) -> tuple[Category, str, int | None, MediaClass | None]:
    return (x.category, x.part_number, x.length_mm, x.media_class)


def _merge(*parts: Materials) -> Counter[tuple[Category, str, int | None, MediaClass | None]]:
    counts: Counter[tuple[Category, str, int | None, MediaClass | None]] = Counter()
    for m in parts:
        for x in m.lines:
            counts[_key(x)] += x.quantity
    return counts


def _collect(counts: Mapping[tuple[Category, str, int | None, MediaClass | None], int]) -> Materials:
    lines = [Material(c, pn, length, media, qty) for (c, pn, length, media), qty in counts.items() if qty]
    lines.sort(key=lambda x: (_ORDER[x.category], x.part_number, x.length_mm or 0))
    return Materials(tuple(lines))


_ORDER = {c: i for i, c in enumerate(Category)}


def media_class(medium: str) -> MediaClass:
    return MediaClass.COPPER if Medium(medium) in COPPER else MediaClass.OPTICAL


def cable_materials(cables: Iterable[BomCable]) -> Materials:
    counts: Counter[tuple[Category, str, int | None, MediaClass | None]] = Counter()
    for c in cables:
        counts[(Category.CABLE, c.part_number, c.ordered_mm, media_class(c.medium))] += 1
        if c.transceiver is not None:
            counts[(Category.TRANSCEIVER, c.transceiver, None, MediaClass.OPTICAL)] += 2
    return _collect(counts)


def switch_materials(devices: Iterable[BomDevice]) -> Materials:
    counts: Counter[tuple[Category, str, int | None, MediaClass | None]] = Counter()
    for d in devices:
        if d.role != SERVER:
            counts[(Category.SWITCH, d.model, None, None)] += 1
    return _collect(counts)


def server_nics(
    cables: Iterable[BomCable], devices: Iterable[BomDevice], server_port_gbps: Mapping[str, float]
) -> dict[str, tuple[str, ...]]:
    """Server name -> the NIC parts it needs beyond its model's own ports (usually none).

    A server port cabled at a speed its model's ports do not run (`server_port_gbps`: server model
    name -> port speed) is on an added NIC; the k such ports at one speed share one `NIC-kxG`.
    Servers of a model not in the mapping are taken as needing nothing."""
    natives = set(server_port_gbps.values())
    if not natives:
        return {}
    if len(natives) == 1:  # one port speed in the hall: only cables at another speed can need a NIC
        cables = [c for c in cables if c.gbps not in natives]
        if not cables:
            return {}
    model_of = {d.name: d.model for d in devices if d.role == SERVER}
    extra: dict[str, Counter[float]] = {}
    for c in cables:
        for end in (c.a_device, c.b_device):
            model = model_of.get(end)
            if model is None:
                continue
            native = server_port_gbps.get(model)
            if native is not None and c.gbps != native:
                extra.setdefault(end, Counter())[c.gbps] += 1
    return {name: tuple(nic_part(k, g) for g, k in sorted(speeds.items())) for name, speeds in extra.items()}


def nic_materials(nics: Mapping[str, tuple[str, ...]]) -> Materials:
    counts: Counter[tuple[Category, str, int | None, MediaClass | None]] = Counter()
    for parts in nics.values():
        for pn in parts:
            counts[(Category.NIC, pn, None, None)] += 1
    return _collect(counts)


def pdu_materials(feeds: Iterable[Feed]) -> Materials:
    """A line per PDU model: one PDU per rack feed that names one (a feed without adds none)."""
    counts: Counter[tuple[Category, str, int | None, MediaClass | None]] = Counter()
    for feed in feeds:
        if feed.pdu is not None:
            counts[(Category.PDU, feed.pdu, None, None)] += 1
    return _collect(counts)


def plant_materials(plant: StructuredPlant, catalog: StructuredCatalog) -> Materials:
    """What a structured plan's passive plant needs: panels and their cassettes per model, every
    trunk, cord and breakout cable once (items are shared by the links through them) per part and
    ordered length, and the optics per device port (`plant.optics`: a broken-out port's once). An
    optic is billed as the media catalog's part when it is one (`Optic.media_part`, so the price
    book prices it), else under its own name (unpriced until someone prices it)."""
    counts: Counter[tuple[Category, str, int | None, MediaClass | None]] = Counter()
    for p in plant.panels:
        counts[(Category.PANEL, p.model, None, None)] += 1
        if p.cassette is not None and p.cassettes:
            counts[(Category.CASSETTE, p.cassette, None, MediaClass.OPTICAL)] += p.cassettes
    breakouts = {b.name: b for b in catalog.breakout_cables}
    for item in plant.items:
        if item.kind in CABLE_KINDS:
            # A copper breakout (DAC) names no fibre; every cord and trunk is fibre.
            cable = breakouts.get(item.part)
            media = None if cable is not None and cable.fibre is None else MediaClass.OPTICAL
            counts[(Category.CABLE, item.part, item.ordered_mm, media)] += 1
    optics = {o.part: o for o in catalog.optics}
    for fitted in plant.optics:
        optic = optics.get(fitted.part)
        part = optic.media_part if optic is not None and optic.media_part else fitted.part
        counts[(Category.TRANSCEIVER, part, None, MediaClass.OPTICAL)] += 1
    return _collect(counts)


def combine(*parts: Materials) -> Materials:
    return _collect(_merge(*parts))


def materials(
    cables: Iterable[BomCable],
    devices: Iterable[BomDevice],
    server_port_gbps: Mapping[str, float] | None = None,
) -> Materials:
    cables = list(cables)
    devices = list(devices)
    nics = server_nics(cables, devices, server_port_gbps or {})
    return combine(cable_materials(cables), switch_materials(devices), nic_materials(nics))


# ---------------------------------------------------------------- pricing


@dataclass(frozen=True, slots=True)
class BomLine:
    category: Category
    part_number: str
    description: str
    quantity: int
    unit_price: float | None
    price_source: str | None
    """``default`` or ``project`` (None: unpriced)."""
    length_mm: int | None = None
    media_class: MediaClass | None = None

    @property
    def total(self) -> float | None:
        return None if self.unit_price is None else round(self.unit_price * self.quantity, 2)


@dataclass(slots=True)
class Bom:
    lines: list[BomLine] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    currency: str = ""
    price_book_version: int | None = None
    """The project book version that priced it; None: the default book alone."""

    @property
    def total(self) -> float:
        return round(sum(line.total or 0.0 for line in self.lines), 2)

    @property
    def unpriced(self) -> list[BomLine]:
        return [x for x in self.lines if x.unit_price is None]

    @property
    def complete(self) -> bool:
        """Every line priced: the total is the whole cost."""
        return not self.unpriced

    def subtotal(self, category: Category) -> float:
        return round(sum(x.total or 0.0 for x in self.lines if x.category is category), 2)

    def media_subtotal(self, media: MediaClass) -> float:
        return round(sum(x.total or 0.0 for x in self.lines if x.media_class is media), 2)

    def cost_summary(self) -> dict[str, object]:
        """The subtotals a plan summary shows (the API's `PlanCostRead`)."""
        return {
            "currency": self.currency,
            "price_book_version": self.price_book_version,
            "cables": self.subtotal(Category.CABLE),
            "transceivers": self.subtotal(Category.TRANSCEIVER),
            "switches": self.subtotal(Category.SWITCH),
            "nics": self.subtotal(Category.NIC),
            "pdus": self.subtotal(Category.PDU),
            "copper": self.media_subtotal(MediaClass.COPPER),
            "optical": self.media_subtotal(MediaClass.OPTICAL),
            "total": self.total,
            "complete": self.complete,
            "unpriced": [{"category": x.category.value, "part_number": x.part_number} for x in self.unpriced],
        }

    def to_json(self) -> dict[str, object]:
        return {
            "lines": [
                {
                    "category": x.category.value,
                    "part_number": x.part_number,
                    "description": x.description,
                    "length_m": None if x.length_mm is None else x.length_mm / 1000,
                    "media_class": x.media_class,
                    "quantity": x.quantity,
                    "unit_price": x.unit_price,
                    "total": x.total,
                    "price_source": x.price_source,
                }
                for x in self.lines
            ],
            "currency": self.currency,
            "price_book_version": self.price_book_version,
            "subtotals": {
                c.value: self.subtotal(c)
                for c in Category
                if c in BASE_CATEGORIES or any(x.category is c for x in self.lines)
            },
            "media_subtotals": {m.value: self.media_subtotal(m) for m in MediaClass},
            "total": self.total,
            "complete": self.complete,
            "unpriced": [{"category": x.category.value, "part_number": x.part_number} for x in self.unpriced],
            "warnings": self.warnings,
        }


def describe(catalog: MediaCatalog | None = None) -> dict[str, str]:
    """Part number -> description, for the catalog's cables and fibres."""
    out: dict[str, str] = dict(_FIBRE_DESCRIPTIONS)
    for o in (catalog or default_catalog()).options:
        out.setdefault(o.part_number, o.description)
    return out


def _description(x: Material, names: Mapping[str, str]) -> str:
    if x.category is Category.CABLE:
        length = "" if x.length_mm is None else f", {x.length_mm / 1000:g} m"
        return f"{names.get(x.part_number, x.part_number)}{length}"
    if x.category is Category.TRANSCEIVER:
        return f"optical transceiver {x.part_number}"
    if x.category is Category.NIC:
        ports, _, speed = x.part_number.removeprefix("NIC-").partition("x")
        return f"server NIC, {ports} x {speed} port(s)"
    if x.category is Category.PDU:
        return f"rack PDU {x.part_number}"
    if x.category is Category.PANEL:
        return f"patch panel {x.part_number}"
    if x.category is Category.CASSETTE:
        return f"panel cassette {x.part_number}"
    return x.part_number


def price(needed: Materials, book: PriceBook | None = None, catalog: MediaCatalog | None = None) -> Bom:
    book = book or default_price_book()
    names = describe(catalog)
    bom = Bom(currency=book.currency, price_book_version=book.version)
    for x in needed.lines:
        p = book.prices.get(x.part_number)
        unit = None if p is None else round(p.at(x.length_mm or 0), 2)
        bom.lines.append(
            BomLine(
                x.category,
                x.part_number,
                _description(x, names),
                x.quantity,
                unit,
                None if p is None else str(p.source),
                x.length_mm,
                x.media_class,
            )
        )
        if p is None:
            bom.warnings.append(f"no price for {x.category.value} {x.part_number!r}: add it to the price book")
    return bom


def bill_of_materials(
    plan: WiringPlan,
    prices: PriceBook | None = None,
    catalog: MediaCatalog | None = None,
    server_port_gbps: Mapping[str, float] | None = None,
) -> Bom:
    return price(materials(plan.cables, plan.devices, server_port_gbps), prices, catalog)


BOM_CSV_COLUMNS = (
    "category", "part_number", "description", "length_m", "media_class", "quantity", "unit_price", "total",
    "currency", "price_source",
)  # fmt: skip


def bom_csv(b: Bom) -> str:
    """One line per BOM line; an unpriced line has empty prices and `price_source` ``unpriced``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(BOM_CSV_COLUMNS)
    for x in b.lines:
        priced = x.unit_price is not None
        w.writerow(
            [
                x.category.value,
                _spreadsheet_safe(x.part_number),
                _spreadsheet_safe(x.description),
                "" if x.length_mm is None else f"{x.length_mm / 1000:g}",
                "" if x.media_class is None else x.media_class.value,
                x.quantity,
                f"{x.unit_price:.2f}" if priced else "",
                f"{x.total:.2f}" if priced else "",
                b.currency,
                x.price_source if priced else "unpriced",
            ]
        )
    return out.getvalue()


def _spreadsheet_safe(value: str) -> str:
    # A switch model is any text a user typed: a spreadsheet must not run it as a formula.
    return "'" + value if value.startswith(("=", "+", "-", "@", "\t", "\r")) else value
