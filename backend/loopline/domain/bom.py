"""Bill of materials of a wiring plan (DESIGN §3.5): per part number, quantity, unit price, total.

- cables: one line per (part number, ordered length); unit price = the part's price at that
  length (base + per metre) from the price book;
- transceivers: two per optical (Medium.FIBRE) cable, one line per part number;
- switches: one line per model name (ToRs, aggregation, spine, core), priced when the price book
  holds the model name as a part number, else left unpriced with a warning.

Every priced line says where its price came from: "default" or "project".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from loopline.domain.media import MediaCatalog, PriceBook, default_catalog, default_price_book
from loopline.domain.wiring.model import Role, WiringPlan

_FIBRE_DESCRIPTIONS = {
    "FIB-OM4": "OM4 multimode fibre patch cord / trunk",
    "FIB-OS2": "OS2 single-mode fibre patch cord / trunk",
}


@dataclass(frozen=True, slots=True)
class BomLine:
    category: str
    """``cable`` | ``transceiver`` | ``switch``."""
    part_number: str
    description: str
    quantity: int
    unit_price: float | None
    price_source: str | None
    length_mm: int | None = None

    @property
    def total(self) -> float | None:
        return None if self.unit_price is None else round(self.unit_price * self.quantity, 2)


@dataclass(slots=True)
class Bom:
    lines: list[BomLine] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return round(sum(line.total or 0.0 for line in self.lines), 2)

    def to_json(self) -> dict[str, object]:
        return {
            "lines": [
                {
                    "category": x.category,
                    "part_number": x.part_number,
                    "description": x.description,
                    "length_m": None if x.length_mm is None else x.length_mm / 1000,
                    "quantity": x.quantity,
                    "unit_price": x.unit_price,
                    "total": x.total,
                    "price_source": x.price_source,
                }
                for x in self.lines
            ],
            "total": self.total,
            "warnings": self.warnings,
        }


def bill_of_materials(
    plan: WiringPlan,
    prices: PriceBook | None = None,
    catalog: MediaCatalog | None = None,
) -> Bom:
    book = prices or default_price_book()
    cat = catalog or default_catalog()
    describe: dict[str, str] = dict(_FIBRE_DESCRIPTIONS)
    for o in cat.options:
        describe.setdefault(o.part_number, o.description)
    cables: dict[tuple[str, int], int] = {}
    xcvrs: dict[str, int] = {}
    for c in plan.cables:
        key = (c.part_number, c.ordered_mm)
        cables[key] = cables.get(key, 0) + 1
        if c.transceiver is not None:
            xcvrs[c.transceiver] = xcvrs.get(c.transceiver, 0) + 2
    bom = Bom()
    for (pn, length), qty in sorted(cables.items()):
        price = book.prices.get(pn)
        bom.lines.append(
            BomLine(
                "cable",
                pn,
                f"{describe.get(pn, pn)}, {length / 1000:g} m",
                qty,
                None if price is None else round(price.at(length), 2),
                None if price is None else price.source,
                length,
            )
        )
    for pn, qty in sorted(xcvrs.items()):
        price = book.prices.get(pn)
        bom.lines.append(
            BomLine("transceiver", pn, f"optical transceiver {pn}", qty,
                    None if price is None else price.at(0), None if price is None else price.source)
        )  # fmt: skip
    switches: dict[str, int] = {}
    for d in plan.devices:
        if d.role is not Role.SERVER:
            switches[d.model] = switches.get(d.model, 0) + 1
    for model, qty in sorted(switches.items()):
        price = book.prices.get(model)
        if price is None:
            bom.warnings.append(f"no price for switch model {model!r} (add it to the price book)")
        bom.lines.append(
            BomLine("switch", model, model, qty,
                    None if price is None else price.at(0), None if price is None else price.source)
        )  # fmt: skip
    for line in bom.lines:
        if line.unit_price is None and line.category != "switch":
            bom.warnings.append(f"no price for part {line.part_number}")
    return bom
