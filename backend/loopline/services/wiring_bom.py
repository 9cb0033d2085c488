"""A plan's summary and bill of materials, priced whenever read.

Prices are never stored with a plan: its summary keeps the plan's materials (parts and quantities,
`domain.bom.Materials`), and every read prices them with the project's current price book, naming
the book version. A plan generated last year is compared with today's prices, like every other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models.catalog import PduModel
from loopline.db.models.layout import RackFeed
from loopline.db.models.wiring import WiringPlanRow
from loopline.db.repositories import Page, paginate
from loopline.domain import bom
from loopline.domain.facility.model import Feed
from loopline.domain.facility.plan_change import facility_change
from loopline.domain.media import PriceBook
from loopline.domain.wiring import summarize
from loopline.domain.wiring.summary import SUMMARY_FORMAT
from loopline.services import plan_facility, pricing, wiring_plant
from loopline.services.wiring_spec import hall_server_speeds
from loopline.services.wiring_storage import load_plan


@dataclass(frozen=True, slots=True)
class PlanView:
    """A stored plan as the API shows it: its summary priced with the project's current book."""

    id: int
    project_id: int
    hall_id: int
    name: str
    spec: dict[str, Any]
    base_plan_id: int | None
    summary: dict[str, Any]
    diff: dict[str, Any] | None
    loops: list[Any]
    created_at: datetime
    version: int


def current_summary(session: Session, row: WiringPlanRow) -> dict[str, Any]:
    """The stored summary; one of an older format (no materials) is recomputed once and stored."""
    if row.summary.get("format") != SUMMARY_FORMAT:
        plant = wiring_plant.load_plant(session, row)
        row.summary = summarize(load_plan(session, row), hall_server_speeds(session, row.hall_id), plant).to_json()
        session.flush()
    return row.summary


def plan_materials(session: Session, row: WiringPlanRow) -> bom.Materials:
    return bom.Materials.from_json(current_summary(session, row)["materials"])


def hall_pdus(session: Session, hall_id: int) -> bom.Materials:
    """The hall's rack PDUs: one per rack feed that names a PDU model. They belong to the hall's
    facility, not to a plan, so every plan of the hall counts them as they are now."""
    stmt = (
        select(PduModel.name)
        .join(RackFeed, RackFeed.pdu_model_id == PduModel.id)
        .where(RackFeed.hall_id == hall_id)
        .order_by(PduModel.name)
    )
    return bom.pdu_materials(Feed("A", pdu=name) for name in session.execute(stmt).scalars())


def facility_summary(session: Session, row: WiringPlanRow, fingerprint: str | None = None) -> dict[str, Any]:
    """The plan's facility totals and, for an upgrade, what it changes from its base plan."""
    fingerprint = fingerprint or plan_facility.hall_fingerprint(session, row.hall_id)
    totals = plan_facility.plan_totals(session, row, fingerprint)
    base = None if row.base_plan_id is None else session.get(WiringPlanRow, row.base_plan_id)
    change = None
    if base is not None and base.hall_id == row.hall_id:
        change = plan_facility.change_json(
            facility_change(plan_facility.plan_totals(session, base, fingerprint), totals)
        )
    return {**plan_facility.totals_json(totals), "change": change}


def plan_view(
    session: Session,
    row: WiringPlanRow,
    book: PriceBook | None = None,
    pdus: bom.Materials | None = None,
    fingerprint: str | None = None,
) -> PlanView:
    """`pdus`, `fingerprint`: the hall's PDUs and plant fingerprint, when a list has read them once."""
    book = book or pricing.price_book(session, row.project_id)
    summary = dict(current_summary(session, row))
    needed = bom.Materials.from_json(summary.pop("materials"))
    priced = bom.price(bom.combine(needed, pdus if pdus is not None else hall_pdus(session, row.hall_id)), book)
    summary["cost"] = priced.cost_summary()
    summary["facility"] = facility_summary(session, row, fingerprint)
    summary["warnings"] = [*summary.get("warnings", []), *priced.warnings]
    return PlanView(
        row.id, row.project_id, row.hall_id, row.name, row.spec, row.base_plan_id, summary, row.diff, row.loops,
        row.created_at, row.version,
    )  # fmt: skip


def list_plan_views(
    session: Session, project_id: int, *, page: int, limit: int, hall_id: int | None = None
) -> Page[PlanView]:
    stmt = select(WiringPlanRow).where(WiringPlanRow.project_id == project_id)
    if hall_id is not None:
        stmt = stmt.where(WiringPlanRow.hall_id == hall_id)
    found = paginate(session, stmt.order_by(WiringPlanRow.id.desc()), page=page, limit=limit)
    book = pricing.price_book(session, project_id)
    pdus: dict[int, bom.Materials] = {}
    fingerprints: dict[int, str] = {}
    for each in {r.hall_id for r in found.items}:
        pdus[each] = hall_pdus(session, each)
        fingerprints[each] = plan_facility.hall_fingerprint(session, each)
    views = [plan_view(session, r, book, pdus[r.hall_id], fingerprints[r.hall_id]) for r in found.items]
    return Page(views, found.total, found.page, found.limit)


def bill_of_materials(session: Session, plan: WiringPlanRow) -> bom.Bom:
    """Priced from the plan's stored materials and the hall's rack PDUs as they are now: no cable
    is read, whatever the plan's size."""
    needed = bom.combine(plan_materials(session, plan), hall_pdus(session, plan.hall_id))
    return bom.price(needed, pricing.price_book(session, plan.project_id))
