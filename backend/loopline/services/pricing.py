"""A project's price book: read, replace, edit, import CSV; every change a new audited version.

A project that never edited prices has no row: its book is the default one (version 0, currency
`DEFAULT_CURRENCY`, no entries of its own). The first write must say `If-Match: "0"` and creates
the row at version 1; each later write goes through `audited_update` (If-Match -> 409 when stale,
snapshot, change, version bump, flush, audit entry) and keeps the whole book as a new row of
`price_book_versions`, so a BOM can say which version priced it and the version can be read back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, union
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from loopline.db.models import FabricSwitch, Hall, LogicalRack, PduModel, RackFeed, SwitchModel
from loopline.db.models.pricing import PriceBookRow, PriceBookVersionRow
from loopline.db.models.wiring import WiringPlanRow
from loopline.db.repositories import Page, paginate
from loopline.domain import bom
from loopline.domain.errors import NotFound
from loopline.domain.media import DEFAULT_CURRENCY, PriceBook, PriceSource, default_price_book
from loopline.domain.price_book import (
    PartCategory,
    PriceEntry,
    check_currency,
    check_entries,
    effective_book,
    parse_csv,
    to_csv,
)
from loopline.services import audit
from loopline.services.access import Principal
from loopline.services.mutations import Target, audited_update
from loopline.services.versioning import StaleVersion

RESOURCE = "price_book"


@dataclass(frozen=True, slots=True)
class BookState:
    """A project's price book as stored (version 0: never edited, the defaults alone)."""

    project_id: int
    currency: str
    version: int
    entries: tuple[PriceEntry, ...]
    updated_at: datetime | None
    updated_by: str | None

    def prices(self) -> PriceBook:
        return effective_book(self.currency, self.entries, self.version or None)


def _book_row(session: Session, project_id: int) -> PriceBookRow | None:
    return session.execute(select(PriceBookRow).where(PriceBookRow.project_id == project_id)).scalar()


def _version_row(session: Session, book: PriceBookRow, version: int) -> PriceBookVersionRow:
    row = session.get(PriceBookVersionRow, (book.id, version))
    assert row is not None, "every version of a book is stored"
    return row


def get_book(session: Session, project_id: int) -> BookState:
    book = _book_row(session, project_id)
    if book is None:
        return BookState(project_id, DEFAULT_CURRENCY, 0, (), None, None)
    v = _version_row(session, book, book.version)
    entries = tuple(PriceEntry.from_json(e) for e in v.entries)
    return BookState(project_id, v.currency, v.version, entries, v.created_at, v.created_by_label)


def price_book(session: Session, project_id: int) -> PriceBook:
    """The prices a BOM of this project uses (its entries over the defaults)."""
    return get_book(session, project_id).prices()


def _snapshot(currency: str, entries: Iterable[PriceEntry]) -> dict[str, Any]:
    return {"currency": currency, "entries": {e.part_number: [e.base_price, e.per_metre] for e in entries}}


def replace_book(
    session: Session,
    principal: Principal,
    project_id: int,
    if_match: int,
    currency: str,
    entries: Iterable[PriceEntry],
) -> BookState:
    """The whole book at once (the API's PUT and the CSV import)."""
    currency = check_currency(currency)
    checked = check_entries(entries)
    book = _book_row(session, project_id)
    if book is None:
        _create(session, principal, project_id, if_match, currency, checked)
    else:
        old = get_book(session, project_id)
        # The entries live in the version rows: the audit entry keeps the book before and after.
        states = iter((_snapshot(old.currency, old.entries), _snapshot(currency, checked)))

        def change(row: PriceBookRow) -> None:
            row.currency = currency

        label = f"the price book of project {project_id}"
        audited_update(
            session, book, if_match, Target(principal, project_id, RESOURCE, book.id, label),
            snapshot=lambda _row: next(states), change=change,
        )  # fmt: skip
        _add_version(session, principal, book, currency, checked)
    return get_book(session, project_id)


def edit_book(
    session: Session,
    principal: Principal,
    project_id: int,
    if_match: int,
    *,
    currency: str | None = None,
    upsert: Sequence[PriceEntry] = (),
    remove: Sequence[str] = (),
) -> BookState:
    """Some entries set (added or replaced), some removed, the currency changed."""
    old = get_book(session, project_id)
    current = {e.part_number: e for e in old.entries}
    for i, pn in enumerate(remove):
        if current.pop(pn, None) is None:
            raise NotFound(f"remove.{i}", f"the price book has no entry for {pn!r}")
    check_entries(upsert, "upsert")
    for e in upsert:
        current[e.part_number] = e
    return replace_book(session, principal, project_id, if_match, currency or old.currency, current.values())


def import_csv(session: Session, principal: Principal, project_id: int, if_match: int, text: str) -> BookState:
    """Replace the book's entries with the file's (its currency too; a header alone empties the book)."""
    currency, entries = parse_csv(text)
    return replace_book(
        session, principal, project_id, if_match, currency or get_book(session, project_id).currency, entries
    )


def export_csv(book: BookState) -> str:
    return to_csv(book.currency, book.entries)


def _create(
    session: Session,
    principal: Principal,
    project_id: int,
    if_match: int,
    currency: str,
    entries: tuple[PriceEntry, ...],
) -> None:
    label = f"the price book of project {project_id}"
    if if_match != 0:
        raise StaleVersion(label, if_match, 0)
    # Two first writes at once: one inserts, the other finds the row taken and is stale.
    book_id = session.execute(
        insert(PriceBookRow)
        .values(project_id=project_id, currency=currency, version=1)
        .on_conflict_do_nothing(index_elements=["project_id"])
        .returning(PriceBookRow.id)
    ).scalar()
    if book_id is None:
        raise StaleVersion(label, if_match, 1)
    book = session.get(PriceBookRow, book_id)
    assert book is not None
    _add_version(session, principal, book, currency, entries)
    audit.record(
        session, principal, project_id=project_id, action="create", resource_type=RESOURCE, resource_id=book.id,
        before=_snapshot(DEFAULT_CURRENCY, ()), after=_snapshot(currency, entries),
    )  # fmt: skip


def _add_version(
    session: Session, principal: Principal, book: PriceBookRow, currency: str, entries: Iterable[PriceEntry]
) -> None:
    session.add(
        PriceBookVersionRow(
            book_id=book.id,
            version=book.version,
            currency=currency,
            entries=[e.to_json() for e in entries],
            created_by=principal.user.id,
            created_by_label=principal.label,
        )
    )
    session.flush()


def list_versions(session: Session, project_id: int, *, page: int, limit: int) -> Page[PriceBookVersionRow]:
    book = _book_row(session, project_id)
    book_id = book.id if book is not None else -1
    stmt = (
        select(PriceBookVersionRow)
        .where(PriceBookVersionRow.book_id == book_id)
        .order_by(PriceBookVersionRow.version.desc())
    )
    return paginate(session, stmt, page=page, limit=limit)


def get_version(session: Session, project_id: int, version: int) -> BookState:
    book = _book_row(session, project_id)
    row = None if book is None else session.get(PriceBookVersionRow, (book.id, version))
    if row is None:
        raise NotFound("version", f"the price book of project {project_id} has no version {version}")
    entries = tuple(PriceEntry.from_json(e) for e in row.entries)
    return BookState(project_id, row.currency, row.version, entries, row.created_at, row.created_by_label)


# ---------------------------------------------------------------- the table of every part


@dataclass(frozen=True, slots=True)
class PricedPart:
    """One line of the price table: a part, its price in the project (or none), and the default."""

    part_number: str
    category: PartCategory
    description: str
    base_price: float | None
    per_metre: float | None
    source: PriceSource | None
    """Where `base_price` comes from; None: unpriced (a BOM that needs it is incomplete)."""
    default_base_price: float | None
    default_per_metre: float | None
    used: bool
    """Some plan of the project needs it."""


def _default_category(pn: str) -> PartCategory:
    if pn.startswith("XCVR-"):
        return PartCategory.TRANSCEIVER
    if pn.startswith("NIC-"):
        return PartCategory.NIC
    return PartCategory.CABLE


def priced_parts(session: Session, project_id: int) -> list[PricedPart]:
    """Every part the project may need a price for: the default book's, the project's own, the
    switch models its halls hold (ToRs, fabric switches) and the parts its plans use (parallel
    ToRs, NICs): those with no price stay in the table, unpriced, for someone to price."""
    state = get_book(session, project_id)
    book = state.prices()
    defaults = default_price_book()
    names = bom.describe()
    used: dict[str, PartCategory] = {}
    summaries = session.execute(select(WiringPlanRow.summary).where(WiringPlanRow.project_id == project_id)).scalars()
    for summary in summaries:
        for line in bom.Materials.from_json(summary.get("materials", [])).lines:
            # A structured plan's panels and cassettes have no price-book category of their own.
            used[line.part_number] = (
                PartCategory(line.category.value)
                if line.category.value in PartCategory.__members__.values()
                else PartCategory.OTHER
            )
    placed = union(
        select(SwitchModel.name).join(LogicalRack, LogicalRack.tor_model_id == SwitchModel.id)
        .join(Hall, Hall.id == LogicalRack.hall_id).where(Hall.project_id == project_id),
        select(SwitchModel.name).join(FabricSwitch, FabricSwitch.switch_model_id == SwitchModel.id)
        .join(Hall, Hall.id == FabricSwitch.hall_id).where(Hall.project_id == project_id),
    )  # fmt: skip
    switches = set(session.execute(placed).scalars())
    # The rack PDUs the halls' feeds name are BOM lines too (`wiring_bom.hall_pdus`): priced as `other`.
    pdus = set(
        session.execute(
            select(PduModel.name).join(RackFeed, RackFeed.pdu_model_id == PduModel.id)
            .join(Hall, Hall.id == RackFeed.hall_id).where(Hall.project_id == project_id)
        ).scalars()
    )  # fmt: skip
    own = {e.part_number: e for e in state.entries}
    parts: list[PricedPart] = []
    default_currency = defaults.currency == state.currency
    for pn in sorted(defaults.prices.keys() | own.keys() | used.keys() | switches | pdus):
        p = book.prices.get(pn)
        d = defaults.prices.get(pn) if default_currency else None
        e = own.get(pn)
        category = (
            e.category
            if e
            else used.get(pn)
            or (PartCategory.SWITCH if pn in switches else PartCategory.OTHER if pn in pdus else _default_category(pn))
        )
        description = e.description if e and e.description else names.get(pn, "")
        parts.append(
            PricedPart(
                pn, category, description,
                None if p is None else p.base, None if p is None else p.per_m,
                None if p is None else PriceSource(p.source),
                None if d is None else d.base, None if d is None else d.per_m,
                pn in used,
            )
        )  # fmt: skip
    return parts
