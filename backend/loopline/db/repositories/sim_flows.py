"""Per-flow records of simulation results (`simulation_flows`): bulk writes by COPY, pages, sorted values."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import Row, delete, func, select
from sqlalchemy.orm import Session

from loopline.db.models import SimulationFlow, SimulationFlowValues
from loopline.domain.sim_results import sorted_float64

_COPY = 'COPY simulation_flows (job_id, "index", src, dst, bytes, start_s, fct_s, slowdown) FROM STDIN'
_COLUMNS = (
    SimulationFlow.index, SimulationFlow.src, SimulationFlow.dst, SimulationFlow.bytes, SimulationFlow.start_s,
    SimulationFlow.fct_s, SimulationFlow.slowdown,
)  # fmt: skip


def replace_flows(session: Session, job_id: int, chunks: Iterable[Sequence[dict[str, Any]]]) -> int:
    """Store the job's records (those of an earlier attempt go first), by COPY, and the finished flows'
    sorted completion times and slowdowns; returns how many records."""
    session.execute(delete(SimulationFlow).where(SimulationFlow.job_id == job_id))
    session.execute(delete(SimulationFlowValues).where(SimulationFlowValues.job_id == job_id))
    connection = session.connection().connection.driver_connection
    assert connection is not None
    stored = 0
    fct: list[float] = []
    slowdown: list[float] = []
    with connection.cursor() as cursor, cursor.copy(_COPY) as copy:
        for chunk in chunks:
            for r in chunk:
                copy.write_row(
                    (job_id, r["index"], r["src"], r["dst"], r["bytes"], r["start_s"], r["fct_s"], r["slowdown"])
                )
                if r["fct_s"] is not None:
                    fct.append(r["fct_s"])
                    slowdown.append(r["slowdown"])
            stored += len(chunk)
    session.add(SimulationFlowValues(job_id=job_id, fct_s=sorted_float64(fct), slowdown=sorted_float64(slowdown)))
    session.flush()
    return stored


def _where(job_id: int, status: str) -> list[Any]:
    where = [SimulationFlow.job_id == job_id]
    if status == "finished":
        where.append(SimulationFlow.fct_s.is_not(None))
    elif status == "unfinished":
        where.append(SimulationFlow.fct_s.is_(None))
    return where


def count_flows(session: Session, job_id: int, status: str) -> int:
    return int(session.execute(select(func.count()).where(*_where(job_id, status))).scalar_one())


def flow_rows(
    session: Session, job_id: int, *, sort: str, descending: bool, status: str, offset: int, limit: int
) -> list[Row[Any]]:
    """A page of records (columns in `FLOW_COLUMNS` order); ties by index. PostgreSQL sorts nulls (an
    unfinished flow) last ascending and first descending: an unfinished flow counts as the longest."""
    key = getattr(SimulationFlow, sort)
    order = [key.desc(), SimulationFlow.index.desc()] if descending else [key, SimulationFlow.index]
    stmt = select(*_COLUMNS).where(*_where(job_id, status)).order_by(*order).offset(offset).limit(limit)
    return list(session.execute(stmt).all())


def iter_flow_rows(session: Session, job_id: int, batch: int = 5000) -> Iterator[Row[Any]]:
    """Every record in index order, fetched `batch` rows at a time (keyset: no long cursor)."""
    after = -1
    while True:
        stmt = (
            select(*_COLUMNS)
            .where(SimulationFlow.job_id == job_id, SimulationFlow.index > after)
            .order_by(SimulationFlow.index)
            .limit(batch)
        )
        rows = session.execute(stmt).all()
        yield from rows
        if len(rows) < batch:
            return
        after = rows[-1][0]


def sorted_values(session: Session, job_id: int, column: str) -> bytes | None:
    """The finished flows' `column` values, ascending, as little-endian float64 (None: not stored)."""
    key = getattr(SimulationFlowValues, column)
    return session.execute(select(key).where(SimulationFlowValues.job_id == job_id)).scalar()
