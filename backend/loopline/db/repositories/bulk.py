"""Bulk writes for thousands of rows: ids taken from the table's sequence, rows sent with COPY.

COPY runs on the session's own connection, so it is part of the request's transaction.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session


def allocate_ids(session: Session, table: str, count: int) -> list[int]:
    """`count` fresh primary keys from the table's `id` sequence, in increasing order."""
    if count == 0:
        return []
    rows = session.execute(
        text("SELECT nextval(pg_get_serial_sequence(:table, 'id')) FROM generate_series(1, :n)"),
        {"table": table, "n": count},
    ).scalars()
    return sorted(rows)


def copy_rows(session: Session, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """COPY `rows` (tuples in `columns` order) into `table`; enums are written as their values."""
    session.flush()
    dbapi = session.connection().connection.driver_connection
    assert dbapi is not None
    cols = ", ".join(columns)
    with dbapi.cursor() as cur, cur.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([v.value if isinstance(v, enum.Enum) else v for v in row])
