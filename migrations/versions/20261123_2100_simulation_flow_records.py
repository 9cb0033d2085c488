"""simulation flow records: one row a flow of a result (simulation_flows), and the job's count of them

Revision ID: c3f9a1e7d2b4
Revises: 50ed660de86f
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c3f9a1e7d2b4"
down_revision: str | None = "50ed660de86f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("simulation_jobs", sa.Column("flow_records", sa.Integer(), nullable=True))
    op.create_table(
        "simulation_flows",
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("src", sa.String(length=500), nullable=False),
        sa.Column("dst", sa.String(length=500), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False),
        sa.Column("start_s", sa.Float(), nullable=False),
        sa.Column("fct_s", sa.Float(), nullable=True),
        sa.Column("slowdown", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["job_id"], ["simulation_jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("job_id", "index"),
    )
    op.create_index("ix_simulation_flows_fct", "simulation_flows", ["job_id", "fct_s", "index"])
    op.create_index("ix_simulation_flows_slowdown", "simulation_flows", ["job_id", "slowdown", "index"])


def downgrade() -> None:
    op.drop_index("ix_simulation_flows_slowdown", table_name="simulation_flows")
    op.drop_index("ix_simulation_flows_fct", table_name="simulation_flows")
    op.drop_table("simulation_flows")
    op.drop_column("simulation_jobs", "flow_records")
