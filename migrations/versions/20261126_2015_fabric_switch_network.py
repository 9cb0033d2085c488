"""Fabric switches name their network (issue 31): `compute` (every switch so far) or `front_end`, so a
GPU cluster's front-end plan wires its ToRs to the front-end spines and the compute plan never does

Revision ID: 8c41d2f0a9b3
Revises: 3f9a6c2e8b71
Create Date: 2026-11-26 20:15:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8c41d2f0a9b3"
down_revision: str | None = "3f9a6c2e8b71"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "fabric_switches", sa.Column("network", sa.String(length=16), server_default="compute", nullable=False)
    )
    op.create_check_constraint(
        op.f("ck_fabric_switches_network_known"), "fabric_switches", "network IN ('compute', 'front_end')"
    )


def downgrade() -> None:
    op.drop_constraint(op.f("ck_fabric_switches_network_known"), "fabric_switches", type_="check")
    op.drop_column("fabric_switches", "network")
