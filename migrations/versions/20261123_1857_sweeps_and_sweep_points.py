"""sweeps and sweep points

Revision ID: 50ed660de86f
Revises: a8e1c0d4f7b2
Create Date: 2026-11-23 18:57:36.685882
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "50ed660de86f"
down_revision: str | None = "a8e1c0d4f7b2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sweeps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("hall_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "queued",
                "running",
                "succeeded",
                "failed",
                "cancelled",
                name="job_status",
                native_enum=False,
                create_constraint=True,
                length=32,
            ),
            nullable=False,
        ),
        sa.Column("base", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("grid", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_sweeps_created_by_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(["hall_id"], ["halls.id"], name=op.f("fk_sweeps_hall_id_halls"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_sweeps_project_id_projects"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sweeps")),
    )
    op.create_index(op.f("ix_sweeps_hall_id"), "sweeps", ["hall_id"], unique=False)
    op.create_index(op.f("ix_sweeps_project_id"), "sweeps", ["project_id"], unique=False)
    op.create_table(
        "sweep_points",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sweep_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("params", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "queued",
                "running",
                "succeeded",
                "failed",
                "cancelled",
                name="job_status",
                native_enum=False,
                create_constraint=True,
                length=32,
            ),
            nullable=False,
        ),
        sa.Column("figures", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("error_field", sa.String(length=500), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("finishes", sa.Integer(), nullable=False),
        sa.Column("worker", sa.String(length=200), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["sweep_id"], ["sweeps.id"], name=op.f("fk_sweep_points_sweep_id_sweeps"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sweep_points")),
        sa.UniqueConstraint("sweep_id", "index", name=op.f("uq_sweep_points_sweep_id")),
    )
    op.create_index(op.f("ix_sweep_points_sweep_id"), "sweep_points", ["sweep_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_sweep_points_sweep_id"), table_name="sweep_points")
    op.drop_table("sweep_points")
    op.drop_index(op.f("ix_sweeps_project_id"), table_name="sweeps")
    op.drop_index(op.f("ix_sweeps_hall_id"), table_name="sweeps")
    op.drop_table("sweeps")
