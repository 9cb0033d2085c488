"""Bulk writes of plan devices and cables through PostgreSQL's COPY (hundreds of thousands of rows)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy.orm import Session

DEVICE_COPY_COLUMNS = (
    "plan_id", "node_id", "name", "role", "rack", "u", "model", "logical_rack",
    "cluster", "loop", "loop_position", "x_mm", "y_mm", "z_mm",
)  # fmt: skip
CABLE_COPY_COLUMNS = (
    "plan_id", "cable_id", "seq", "label", "link_class",
    "a_device", "a_port", "a_rack", "a_row", "b_device", "b_port", "b_rack", "b_row",
    "gbps", "raw_mm", "slack_mm", "ordered_mm", "medium", "part_number", "transceiver",
    "latency_ns", "unit_price",
)  # fmt: skip
PANEL_COPY_COLUMNS = (
    "plan_id", "panel_id", "seq", "rack", "u", "model", "cassette", "cassettes", "front_ports", "ports_used", "role",
)  # fmt: skip
ITEM_COPY_COLUMNS = (
    "plan_id", "item_id", "seq", "kind", "label", "part", "a_end", "a_port", "b_end", "b_port",
    "length_mm", "ordered_mm", "made_to_order", "fibres", "route",
)  # fmt: skip
STEP_COPY_COLUMNS = ("plan_id", "cable_id", "position", "item_id", "detail")
OPTIC_COPY_COLUMNS = ("plan_id", "device", "port", "seq", "part")


def copy_rows(session: Session, table: str, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """COPY `rows` into `table` inside the session's current transaction."""
    driver = session.connection().connection.driver_connection
    assert driver is not None
    with driver.cursor() as cursor, cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
