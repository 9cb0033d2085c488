"""simulation jobs: the engine's progress (simulated time, flows, events, its line) and the outcome
of a run whose flows did not all finish

Revision ID: a8e1c0d4f7b2
Revises: 7c41e0b9d2a5
Create Date: 2026-11-23 19:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "a8e1c0d4f7b2"
down_revision: str | None = "7c41e0b9d2a5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (
    ("sim_time_s", sa.Float()),
    ("flows_done", sa.Integer()),
    ("flows_total", sa.Integer()),
    ("events", sa.BigInteger()),
    ("progress_text", sa.String(length=500)),
    ("outcome", sa.String(length=20)),
    ("stalled_flows", sa.Integer()),
    ("unfinished_flows", sa.Integer()),
    ("incomplete_reason", postgresql.JSONB(astext_type=sa.Text())),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("simulation_jobs", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    for name, _ in reversed(COLUMNS):
        op.drop_column("simulation_jobs", name)
