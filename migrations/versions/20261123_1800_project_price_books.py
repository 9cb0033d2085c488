"""project price books and their versions

Revision ID: 7c41e0b9d2a5
Revises: 52163fa2adfa
Create Date: 2026-11-23 18:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "7c41e0b9d2a5"
down_revision: str | None = "52163fa2adfa"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "price_books",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.CheckConstraint("currency ~ '^[A-Z]{3}$'", name=op.f("ck_price_books_currency_iso")),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_price_books_project_id_projects"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_price_books")),
        sa.UniqueConstraint("project_id", name=op.f("uq_price_books_project_id")),
    )
    op.create_table(
        "price_book_versions",
        sa.Column("book_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("entries", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_by_label", sa.String(length=400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["book_id"], ["price_books.id"], name=op.f("fk_price_book_versions_book_id_price_books"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_price_book_versions_created_by_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("book_id", "version", name=op.f("pk_price_book_versions")),
    )


def downgrade() -> None:
    op.drop_table("price_book_versions")
    op.drop_table("price_books")
