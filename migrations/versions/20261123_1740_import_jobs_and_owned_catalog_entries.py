"""import jobs; catalog entries owned by their creator; the field a simulation failure names

User-created catalog entries get an owner (their creator); seeded builtin entries stay global
(no owner). Names become unique per owner and among the global entries.

Revision ID: 52163fa2adfa
Revises: 69f73021829f
Create Date: 2026-11-23 17:40:15.350026
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "52163fa2adfa"
down_revision: str | None = "69f73021829f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CATALOG = ("server_models", "switch_models", "rack_types")


def upgrade() -> None:
    op.create_table(
        "import_jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
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
        ),  # fmt: skip
        sa.Column("project_name", sa.String(length=200), nullable=False),
        sa.Column("halls_total", sa.Integer(), nullable=False),
        sa.Column("racks_total", sa.Integer(), nullable=False),
        sa.Column("halls_done", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=True),
        sa.Column("errors", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("document", sa.LargeBinary(), nullable=True),
        sa.Column("document_sha256", sa.String(length=64), nullable=False),
        sa.Column("idempotency_key", sa.String(length=200), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_import_jobs_created_by_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_import_jobs_project_id_projects"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_import_jobs")),
        sa.UniqueConstraint("created_by", "idempotency_key", name=op.f("uq_import_jobs_created_by")),
    )
    op.create_index(op.f("ix_import_jobs_created_by"), "import_jobs", ["created_by"], unique=False)
    op.add_column("simulation_jobs", sa.Column("error_field", sa.String(length=500), nullable=True))

    for table in CATALOG:
        op.add_column(table, sa.Column("owner_id", sa.Integer(), nullable=True))
        op.create_foreign_key(
            op.f(f"fk_{table}_owner_id_users"), table, "users", ["owner_id"], ["id"], ondelete="CASCADE"
        )
        op.create_index(op.f(f"ix_{table}_owner_id"), table, ["owner_id"], unique=False)
        # Entries users made become theirs; builtin ones (and any whose creator is gone) stay global.
        op.execute(f"UPDATE {table} SET owner_id = created_by WHERE NOT builtin AND created_by IS NOT NULL")
        op.drop_constraint(op.f(f"uq_{table}_name"), table, type_="unique")
        op.create_unique_constraint(op.f(f"uq_{table}_owner_id"), table, ["owner_id", "name"])
        op.create_index(
            f"uq_{table}_global_name", table, ["name"], unique=True, postgresql_where=sa.text("owner_id IS NULL")
        )


def downgrade() -> None:
    for table in CATALOG:
        op.drop_index(f"uq_{table}_global_name", table_name=table, postgresql_where=sa.text("owner_id IS NULL"))
        op.drop_constraint(op.f(f"uq_{table}_owner_id"), table, type_="unique")
        # Names were global before: this fails if two owners have used the same name.
        op.create_unique_constraint(op.f(f"uq_{table}_name"), table, ["name"])
        op.drop_index(op.f(f"ix_{table}_owner_id"), table_name=table)
        op.drop_constraint(op.f(f"fk_{table}_owner_id_users"), table, type_="foreignkey")
        op.drop_column(table, "owner_id")
    op.drop_column("simulation_jobs", "error_field")
    op.drop_index(op.f("ix_import_jobs_created_by"), table_name="import_jobs")
    op.drop_table("import_jobs")
