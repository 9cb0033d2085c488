"""The project price book: its entries, versions, the table of every part, and edits to it."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from loopline.api.schemas.common import ReadSchema, Schema
from loopline.domain.media import PriceSource
from loopline.domain.price_book import (
    MAX_DESCRIPTION,
    MAX_ENTRIES,
    MAX_PART_NUMBER,
    MAX_PRICE,
    PartCategory,
    PriceEntry,
)

_CURRENCY = Field(
    pattern=r"^[A-Z]{3}$", description="ISO 4217 code; one currency per book.", examples=["EUR"], min_length=3
)


class PriceEntryIn(Schema):
    part_number: str = Field(
        min_length=1, max_length=MAX_PART_NUMBER, description="Part number (switches and servers: the model name).",
        examples=["DAC-25G"],
    )  # fmt: skip
    category: PartCategory = Field(description="What kind of part.")
    description: str = Field("", max_length=MAX_DESCRIPTION, description="Free text shown in the BOM table.")
    base_price: float = Field(ge=0, le=MAX_PRICE, description="Price of one (cables: the fixed part).", examples=[18.5])
    per_metre: float = Field(0.0, ge=0, le=MAX_PRICE, description="Cables: price per metre of ordered length.")

    def to_domain(self) -> PriceEntry:
        return PriceEntry(self.part_number, self.category, self.base_price, self.per_metre, self.description)


class PriceEntryRead(ReadSchema):
    part_number: str = Field(description="Part number (switches and servers: the model name).")
    category: PartCategory = Field(description="What kind of part.")
    description: str = Field(description="Free text.")
    base_price: float = Field(description="Price of one (cables: the fixed part).")
    per_metre: float = Field(description="Cables: price per metre of ordered length.")


class PriceBookPut(Schema):
    currency: str = _CURRENCY
    entries: list[PriceEntryIn] = Field(max_length=MAX_ENTRIES, description="Every entry of the book.")


class PriceBookPatch(Schema):
    currency: str | None = Field(
        None, pattern=r"^[A-Z]{3}$", description="New currency (ISO 4217); prices are not converted.", examples=["EUR"]
    )
    upsert: list[PriceEntryIn] = Field(
        [], max_length=MAX_ENTRIES, description="Entries to add, or to replace (same part number)."
    )
    remove: list[str] = Field([], max_length=MAX_ENTRIES, description="Part numbers whose entry goes.")


class PriceBookCsvIn(Schema):
    csv: str = Field(
        max_length=4_000_000,
        description="The CSV text: `part_number,category,description,base_price,per_metre,currency` "
        "(the export's columns). It replaces every entry of the book.",
        examples=["part_number,category,description,base_price,per_metre,currency\nDAC-25G,cable,,20,4,EUR\n"],
    )


class PriceBookRead(ReadSchema):
    project_id: int = Field(description="The project.")
    currency: str = Field(description="ISO 4217 currency of every price.", examples=["USD"])
    version: int = Field(description="Version, for If-Match; 0: never edited (the default book alone).")
    entries: list[PriceEntryRead] = Field(description="The project's own prices, by part number.")
    updated_at: datetime | None = Field(description="When this version was written.")
    updated_by: str | None = Field(description="Who wrote it.")


class PriceBookVersionRead(ReadSchema):
    version: int = Field(description="Version number.")
    currency: str = Field(description="Currency of that version.")
    entries: int = Field(description="Entries in that version.")
    created_at: datetime = Field(description="When it was written.")
    created_by: str = Field(description="Who wrote it.")


class PricedPartRead(ReadSchema):
    """One row of the price table: a part's price in this project, and the default's."""

    part_number: str = Field(description="Part number (switches: the model name).")
    category: PartCategory = Field(description="What kind of part.")
    description: str = Field(description="What it is.")
    base_price: float | None = Field(description="The price a BOM uses; null: unpriced.")
    per_metre: float | None = Field(description="Per metre of ordered length (cables).")
    source: PriceSource | None = Field(description="`project` (this book), `default`, or null: unpriced.")
    default_base_price: float | None = Field(description="The default book's price (null: none, or another currency).")
    default_per_metre: float | None = Field(description="The default book's per-metre price.")
    used: bool = Field(description="A plan of the project needs this part.")


class PricedPartsRead(BaseModel):
    currency: str = Field(description="Currency of every price.")
    version: int = Field(description="The price book version (0: defaults alone).")
    items: list[PricedPartRead] = Field(description="Every part by part number.")
