"""plan_chain_steps without the (plan, item) index: a panel's port map scans the plan's steps through
the primary key's plan_id prefix in ~0.1 s on a 100,000-server hall, while the index cost ~1.5 s of
the plant's COPY (issue 29's 15 s budget for generating and storing such a plan)

Revision ID: 7a41c0e9d2b8
Revises: 5e2b8c1d9f30
Create Date: 2026-11-26 14:25:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "7a41c0e9d2b8"
down_revision: str | None = "5e2b8c1d9f30"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_plan_chain_steps_plan_item", table_name="plan_chain_steps")


def downgrade() -> None:
    op.create_index("ix_plan_chain_steps_plan_item", "plan_chain_steps", ["plan_id", "item_id"])
