"""job heartbeats: when a worker last said it is still running a simulation, sweep point or import

A job whose row says running but whose heartbeat is older than the stale limit has lost its worker;
the reconciler hands it to another.

Revision ID: e4a7c2b9d1f3
Revises: d8b2e4f1a9c6
Create Date: 2026-11-26 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e4a7c2b9d1f3"
down_revision: str | None = "d8b2e4f1a9c6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("simulation_jobs", "sweep_points", "import_jobs")


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        op.drop_column(table, "heartbeat_at")
