"""decomposed runs: links done / total and the batch count on the job, and the batches' parts

A decomposed run counts progress in links simulated (`links_done` / `links_total`); split over the
workers (`batches`), each batch stores its part (gzip of the engine's part file) in
`simulation_parts`, one row per (job, batch): a redelivered batch overwrites, never duplicates.

Revision ID: d3c0a7e51f42
Revises: 7a41c0e9d2b8
Create Date: 2026-11-26 17:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d3c0a7e51f42"
down_revision: str | None = "7a41c0e9d2b8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATUSES = ("queued", "running", "succeeded", "failed", "cancelled")


def upgrade() -> None:
    op.add_column("simulation_jobs", sa.Column("links_done", sa.Integer(), nullable=True))
    op.add_column("simulation_jobs", sa.Column("links_total", sa.Integer(), nullable=True))
    op.add_column("simulation_jobs", sa.Column("batches", sa.Integer(), nullable=True))
    op.create_table(
        "simulation_parts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("batch", sa.Integer(), nullable=False),
        sa.Column("batches", sa.Integer(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(*STATUSES, name="job_status", native_enum=False, create_constraint=True, length=32),
            nullable=False,
        ),
        sa.Column("links_done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("links_total", sa.Integer(), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("stores", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("worker", sa.String(length=200), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["job_id"],
            ["simulation_jobs.id"],
            name=op.f("fk_simulation_parts_job_id_simulation_jobs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_simulation_parts")),
        sa.UniqueConstraint("job_id", "batch", name=op.f("uq_simulation_parts_job_id")),
    )


def downgrade() -> None:
    op.drop_table("simulation_parts")
    op.drop_column("simulation_jobs", "batches")
    op.drop_column("simulation_jobs", "links_total")
    op.drop_column("simulation_jobs", "links_done")
