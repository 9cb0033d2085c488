"""export cache: a plan's rendered wiring sheet kept with the fingerprint of what it was rendered from

Revision ID: d1f7a9c4e2b6
Revises: c9e5a1d3f7b2
Create Date: 2026-11-26 08:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d1f7a9c4e2b6"
down_revision: str | None = "c9e5a1d3f7b2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "export_cache",
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("export", sa.String(length=64), nullable=False),
        sa.Column("options", sa.String(length=600), nullable=False),
        sa.Column("inputs", sa.String(length=100), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["plan_id"], ["wiring_plans.id"], name=op.f("fk_export_cache_plan_id_wiring_plans"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("plan_id", "export", "options", name=op.f("pk_export_cache")),
    )


def downgrade() -> None:
    op.drop_table("export_cache")
