"""simulation estimated work: each job's estimated engine seconds, summed for the queued-work quota

Revision ID: f1c8d3a5b7e2
Revises: e4a7c2b9d1f3
Create Date: 2026-11-26 03:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f1c8d3a5b7e2"
down_revision: str | None = "e4a7c2b9d1f3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("simulation_jobs", sa.Column("estimated_s", sa.Float(), nullable=True))


def downgrade() -> None:
    op.drop_column("simulation_jobs", "estimated_s")
