"""job claimants: which worker process claimed a running job (host:pid)

A job whose claimant's process has ended on the same host (a pool process killed mid-job) is taken
over at once by the redelivered task, without waiting for its heartbeat to go stale.

Revision ID: c9e5a1d3f7b2
Revises: b8d4f0a2c3e5
Create Date: 2026-11-26 04:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c9e5a1d3f7b2"
down_revision: str | None = "b8d4f0a2c3e5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("simulation_jobs", "sweep_points", "import_jobs")


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("claimed_by", sa.String(length=200), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        op.drop_column(table, "claimed_by")
