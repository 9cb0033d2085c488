"""A project's price book: entries, their rules, and its CSV form (pure).

An entry prices one part number: a base price plus a price per metre of ordered length (cables;
0 for everything else), in the book's one currency. The CSV has one line per entry and repeats
the currency on each line, so a file exported from one book imports into another unchanged:

    part_number,category,description,base_price,per_metre,currency
    DAC-25G,cable,25G SFP28 passive DAC,20.00,4.00,EUR
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from loopline.domain.errors import DomainError
from loopline.domain.media import PriceBook, default_price_book
from loopline.domain.names import spoofing

MAX_ENTRIES = 10_000
MAX_PRICE = 1e9
MAX_PART_NUMBER = 80
MAX_DESCRIPTION = 200
CSV_COLUMNS = ("part_number", "category", "description", "base_price", "per_metre", "currency")
_CURRENCY = re.compile(r"[A-Z]{3}")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


class PartCategory(StrEnum):
    CABLE = "cable"
    TRANSCEIVER = "transceiver"
    SWITCH = "switch"
    NIC = "nic"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class PriceEntry:
    part_number: str
    category: PartCategory
    base_price: float
    per_metre: float = 0.0
    description: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "part_number": self.part_number,
            "category": self.category.value,
            "description": self.description,
            "base_price": self.base_price,
            "per_metre": self.per_metre,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> PriceEntry:
        return cls(
            str(data["part_number"]),
            PartCategory(str(data["category"])),
            float(str(data["base_price"])),
            float(str(data["per_metre"])),
            str(data.get("description", "")),
        )


def check_currency(currency: str, field: str = "currency") -> str:
    if not _CURRENCY.fullmatch(currency):
        raise DomainError(field, f"must be an ISO 4217 code of three capital letters (e.g. EUR), got {currency!r}")
    return currency


def check_entries(entries: Iterable[PriceEntry], field: str = "entries") -> tuple[PriceEntry, ...]:
    """The entries sorted by part number; refuses duplicates, negative or absurd prices, long or
    spoofing part numbers (`domain.names`)."""
    out: dict[str, PriceEntry] = {}
    for i, e in enumerate(entries):
        where = f"{field}.{i}"
        pn = e.part_number
        if not pn.strip() or pn != pn.strip():
            raise DomainError(f"{where}.part_number", "must be non-empty, without leading or trailing spaces")
        if len(pn) > MAX_PART_NUMBER:
            raise DomainError(f"{where}.part_number", f"at most {MAX_PART_NUMBER} characters")
        if reason := spoofing(pn):  # the name rule, for entries that come as CSV too
            raise DomainError(f"{where}.part_number", reason)
        if len(e.description) > MAX_DESCRIPTION:
            raise DomainError(f"{where}.description", f"at most {MAX_DESCRIPTION} characters")
        for name in ("base_price", "per_metre"):
            value = getattr(e, name)
            if not math.isfinite(value) or not 0 <= value <= MAX_PRICE:
                raise DomainError(f"{where}.{name}", f"must be a finite price from 0 to {MAX_PRICE:g}, got {value}")
        if pn in out:
            raise DomainError(f"{where}.part_number", f"{pn!r} is priced twice")
        out[pn] = e
    if len(out) > MAX_ENTRIES:
        raise DomainError(field, f"a price book holds at most {MAX_ENTRIES} entries, got {len(out)}")
    return tuple(out[k] for k in sorted(out))


def effective_book(currency: str, entries: Iterable[PriceEntry], version: int | None) -> PriceBook:
    """The prices a BOM uses: the project's entries over the default book (same currency only)."""
    own = {e.part_number: (e.base_price, e.per_metre) for e in entries}
    if version is None:
        return default_price_book()
    return default_price_book().for_project(own, currency, version)


def _safe(value: str) -> str:
    # A spreadsheet runs a cell starting with = + - @ as a formula: shown as text with a leading '.
    return "'" + value if value.startswith(_FORMULA) else value


def _unsafe(value: str) -> str:
    return value[1:] if value.startswith("'") and value[1:].startswith(_FORMULA) else value


def to_csv(currency: str, entries: Iterable[PriceEntry]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for e in entries:
        w.writerow(
            [_safe(e.part_number), e.category.value, _safe(e.description), f"{e.base_price:.2f}",
             f"{e.per_metre:.2f}", currency]
        )  # fmt: skip
    return out.getvalue()


def parse_csv(text: str, field: str = "csv") -> tuple[str | None, tuple[PriceEntry, ...]]:
    """(currency or None for a file with no lines, entries). Errors name the line and column."""
    try:
        return _parse_csv(text, field)
    except csv.Error as e:  # e.g. a field past the csv module's size limit, a stray quote
        raise DomainError(field, f"not a readable CSV file: {e}") from None


def _parse_csv(text: str, field: str) -> tuple[str | None, tuple[PriceEntry, ...]]:
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff")))
    header = next(reader, None)
    if header is None:
        raise DomainError(field, "empty file: the first line must name the columns " + ",".join(CSV_COLUMNS))
    cols = [h.strip().lower() for h in header]
    missing = [c for c in CSV_COLUMNS if c not in cols and c != "description"]
    if missing:
        raise DomainError(
            f"{field}.line 1", f"missing column(s) {', '.join(missing)}; expected {','.join(CSV_COLUMNS)}"
        )
    at = {c: i for i, c in enumerate(cols)}
    currency: str | None = None
    entries: list[PriceEntry] = []
    seen: dict[str, int] = {}
    for n, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(cols):
            raise DomainError(f"{field}.line {n}", f"has {len(row)} fields, the header {len(cols)}")

        def cell(name: str, row: list[str] = row) -> str:
            return row[at[name]].strip() if name in at else ""

        where = f"{field}.line {n}"
        cur = check_currency(cell("currency"), f"{where}.currency")
        if currency is not None and cur != currency:
            raise DomainError(f"{where}.currency", f"one currency per book: {cur} after {currency}")
        currency = cur
        try:
            category = PartCategory(cell("category"))
        except ValueError:
            choices = ", ".join(c.value for c in PartCategory)
            raise DomainError(f"{where}.category", f"must be one of {choices}, got {cell('category')!r}") from None
        prices: list[float] = []
        for name in ("base_price", "per_metre"):
            raw = cell(name) or ("0" if name == "per_metre" else "")
            try:
                prices.append(float(raw))
            except ValueError:
                raise DomainError(f"{where}.{name}", f"must be a number, got {raw!r}") from None
        entry = PriceEntry(_unsafe(cell("part_number")), category, prices[0], prices[1], _unsafe(cell("description")))
        try:
            check_entries([entry])
        except DomainError as e:  # entries.0.<column> -> line <n>.<column>
            raise DomainError(f"{where}.{e.field.rsplit('.', 1)[-1]}", e.reason) from None
        if entry.part_number in seen:
            raise DomainError(
                f"{where}.part_number", f"{entry.part_number!r} is priced on line {seen[entry.part_number]} too"
            )
        seen[entry.part_number] = n
        entries.append(entry)
    return currency, check_entries(entries, field)
