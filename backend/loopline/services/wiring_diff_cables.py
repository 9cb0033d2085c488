"""The cables of a diff with their ends: the comparison's pages (added, moved, removed, kept) and
the re-cabling work order of an upgrade (`domain.wiring.work_order`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from loopline.db.models.wiring import PlanCableRow, PlanDeviceRow, WiringPlanRow
from loopline.db.repositories import Page
from loopline.domain.wiring import DiffStatus, PlanDiff, Role
from loopline.domain.wiring.work_order import WorkStep, work_order
from loopline.services.wiring_cables import cable_json
from loopline.services.wiring_compare import check_pair, computed_diff


def _statuses(d: PlanDiff, status: DiffStatus | None) -> list[tuple[DiffStatus, str]]:
    order = (
        [status] if status is not None else [DiffStatus.ADDED, DiffStatus.MOVED, DiffStatus.REMOVED, DiffStatus.KEPT]
    )
    return [(st, cable_id) for st in order for cable_id in d.new_ids(st)]


def diff_cable_page(
    session: Session, old: WiringPlanRow, new: WiringPlanRow, status: DiffStatus | None, *, page: int, limit: int
) -> Page[dict[str, Any]]:
    """The diff's cables with both ends, labels and lengths, `status` first (added, moved, removed,
    kept when None). Kept, added and moved cables are read from the new plan (a moved one with the
    old cable it replaces as `moved_from`), removed ones from the old plan."""
    check_pair(old, new)
    d, _ = computed_diff(session, old, new)
    listing = _statuses(d, status)
    chunk = listing[(page - 1) * limit : page * limit]
    moved_from = {n: o for o, n in d.moved}
    changed = set(d.changed)
    in_new = _cables_by_id(session, new.id, [i for st, i in chunk if st is not DiffStatus.REMOVED])
    old_ids = [i if st is DiffStatus.REMOVED else moved_from[i] for st, i in chunk if st in _FROM_OLD]
    in_old = _cables_by_id(session, old.id, old_ids)
    items = []
    for st, cable_id in chunk:
        row = in_old[cable_id] if st is DiffStatus.REMOVED else in_new[cable_id]
        items.append(
            {
                "status": st.value,
                "changed": cable_id in changed,
                "cable": cable_json(new, row, None),
                "moved_from": cable_json(old, in_old[moved_from[cable_id]], None) if st is DiffStatus.MOVED else None,
            }
        )
    return Page(items=items, total=len(listing), page=page, limit=limit)


_FROM_OLD = (DiffStatus.REMOVED, DiffStatus.MOVED)


_WORK_COLUMNS = (
    PlanCableRow.cable_id, PlanCableRow.label, PlanCableRow.a_device, PlanCableRow.a_port, PlanCableRow.a_row,
    PlanCableRow.a_rack, PlanCableRow.b_device, PlanCableRow.b_port, PlanCableRow.b_row, PlanCableRow.b_rack,
    PlanCableRow.part_number, PlanCableRow.ordered_mm,
)  # fmt: skip


def _work_cables(session: Session, plan_id: int, ids: list[str]) -> dict[str, Any]:
    # Plain Core rows of the columns a work order reads, in batches (an IN list of 100,000 is slow).
    out: dict[str, Any] = {}
    for i in range(0, len(ids), 5000):
        stmt = select(*_WORK_COLUMNS).where(
            PlanCableRow.plan_id == plan_id, PlanCableRow.cable_id.in_(ids[i : i + 5000])
        )
        out.update((r.cable_id, r) for r in session.connection().execute(stmt))
    return out


def work_order_steps(session: Session, old: WiringPlanRow, new: WiringPlanRow) -> list[WorkStep]:
    """The re-cabling work order of `old` -> `new` (`domain.wiring.work_order`): the diff's cables
    with their ends, and every server's links in the old plan."""
    check_pair(old, new)
    d, _ = computed_diff(session, old, new)
    old_cables = _work_cables(session, old.id, [*d.removed, *(o for o, _ in d.moved), *d.changed])
    new_cables = _work_cables(session, new.id, [*d.added, *(n for _, n in d.moved), *d.changed])
    servers = (
        select(PlanDeviceRow.name).where(PlanDeviceRow.plan_id == old.id, PlanDeviceRow.role == Role.SERVER.value)
    ).subquery()
    links: dict[str, int] = {name: 0 for (name,) in session.execute(select(servers.c.name))}
    for end in (PlanCableRow.a_device, PlanCableRow.b_device):
        stmt = (
            select(end, func.count())
            .where(PlanCableRow.plan_id == old.id, end.in_(select(servers.c.name)))
            .group_by(end)
        )
        for name, n in session.execute(stmt):
            links[name] += int(n)
    return work_order(d, old_cables, new_cables, links)


def _cables_by_id(session: Session, plan_id: int, ids: Iterable[str]) -> dict[str, PlanCableRow]:
    wanted = list(ids)
    if not wanted:
        return {}
    stmt = select(PlanCableRow).where(PlanCableRow.plan_id == plan_id, PlanCableRow.cable_id.in_(wanted))
    return {c.cable_id: c for c in session.execute(stmt).scalars()}
