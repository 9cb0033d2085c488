"""simulation flow values: each result's sorted completion times and slowdowns as one float64 blob

Revision ID: d8b2e4f1a9c6
Revises: c3f9a1e7d2b4
Create Date: 2026-11-23 21:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d8b2e4f1a9c6"
down_revision: str | None = "c3f9a1e7d2b4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "simulation_flow_values",
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("fct_s", sa.LargeBinary(), nullable=False),
        sa.Column("slowdown", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["simulation_jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("job_id"),
    )


def downgrade() -> None:
    op.drop_table("simulation_flow_values")
