"""structured plant: a structured plan's panels, items (cords, panel ports, trunks, breakout cables),
per-link chain steps and optics, keyed by plan like plan_cables (issue 29)

Revision ID: 5e2b8c1d9f30
Revises: ad9cfce7880a
Create Date: 2026-11-26 14:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5e2b8c1d9f30"
down_revision: str | None = "ad9cfce7880a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _plan_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["plan_id"], ["wiring_plans.id"], name=op.f(f"fk_{table}_plan_id_wiring_plans"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "plan_panels",
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("panel_id", sa.String(length=140), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("rack", sa.String(length=120), nullable=False),
        sa.Column("u", sa.Integer(), nullable=False),
        sa.Column("model", sa.String(length=120), nullable=False),
        sa.Column("cassette", sa.String(length=120), nullable=True),
        sa.Column("cassettes", sa.Integer(), nullable=False),
        sa.Column("front_ports", sa.Integer(), nullable=False),
        sa.Column("ports_used", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        _plan_fk("plan_panels"),
        sa.PrimaryKeyConstraint("plan_id", "panel_id", name=op.f("pk_plan_panels")),
    )
    op.create_table(
        "plan_items",
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=300), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=300), nullable=False),
        sa.Column("part", sa.String(length=120), nullable=False),
        sa.Column("a_end", sa.String(length=140), nullable=False),
        sa.Column("a_port", sa.String(length=32), nullable=False),
        sa.Column("b_end", sa.String(length=140), nullable=False),
        sa.Column("b_port", sa.String(length=32), nullable=False),
        sa.Column("length_mm", sa.Integer(), nullable=False),
        sa.Column("ordered_mm", sa.Integer(), nullable=False),
        sa.Column("made_to_order", sa.Boolean(), nullable=False),
        sa.Column("fibres", sa.Integer(), nullable=False),
        sa.Column("route", sa.Text(), nullable=False),
        sa.CheckConstraint(
            "length_mm >= 0 AND ordered_mm >= 0 AND fibres >= 0", name=op.f("ck_plan_items_sizes_not_negative")
        ),
        _plan_fk("plan_items"),
        sa.PrimaryKeyConstraint("plan_id", "item_id", name=op.f("pk_plan_items")),
    )
    op.create_table(
        "plan_chain_steps",
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("cable_id", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=300), nullable=False),
        sa.Column("detail", sa.String(length=200), nullable=False),
        _plan_fk("plan_chain_steps"),
        sa.PrimaryKeyConstraint("plan_id", "cable_id", "position", name=op.f("pk_plan_chain_steps")),
    )
    op.create_index("ix_plan_chain_steps_plan_item", "plan_chain_steps", ["plan_id", "item_id"])
    op.create_table(
        "plan_optics",
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(length=120), nullable=False),
        sa.Column("port", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("part", sa.String(length=80), nullable=False),
        _plan_fk("plan_optics"),
        sa.PrimaryKeyConstraint("plan_id", "device", "port", name=op.f("pk_plan_optics")),
    )


def downgrade() -> None:
    op.drop_table("plan_optics")
    op.drop_index("ix_plan_chain_steps_plan_item", table_name="plan_chain_steps")
    op.drop_table("plan_chain_steps")
    op.drop_table("plan_items")
    op.drop_table("plan_panels")
