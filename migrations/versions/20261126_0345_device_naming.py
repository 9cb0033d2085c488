"""device naming: a hall's host-name template and per-device overrides (host name, asset tag)

Revision ID: b8d4f0a2c3e5
Revises: a7c3e9f1b2d4
Create Date: 2026-11-26 03:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b8d4f0a2c3e5"
down_revision: str | None = "a7c3e9f1b2d4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "device_naming",
        sa.Column("hall_id", sa.Integer(), nullable=False),
        sa.Column("template", sa.String(length=200), nullable=True),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.ForeignKeyConstraint(
            ["hall_id"], ["halls.id"], name=op.f("fk_device_naming_hall_id_halls"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("hall_id", name=op.f("pk_device_naming")),
    )
    op.create_table(
        "device_overrides",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hall_id", sa.Integer(), nullable=False),
        sa.Column("rack_id", sa.Integer(), nullable=False),
        sa.Column("u", sa.Integer(), nullable=False),
        sa.Column("host_name", sa.String(length=64), nullable=True),
        sa.Column("asset_tag", sa.String(length=50), nullable=True),
        sa.CheckConstraint(
            "host_name IS NOT NULL OR asset_tag IS NOT NULL", name=op.f("ck_device_overrides_says_something")
        ),
        sa.ForeignKeyConstraint(
            ["hall_id"], ["halls.id"], name=op.f("fk_device_overrides_hall_id_halls"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["rack_id"], ["racks.id"], name=op.f("fk_device_overrides_rack_id_racks"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_device_overrides")),
        sa.UniqueConstraint("rack_id", "u", name=op.f("uq_device_overrides_rack_id")),
    )
    op.create_index(op.f("ix_device_overrides_hall_id"), "device_overrides", ["hall_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_device_overrides_hall_id"), table_name="device_overrides")
    op.drop_table("device_overrides")
    op.drop_table("device_naming")
