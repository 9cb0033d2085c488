"""GPU servers and breakouts in the catalog (issue 31): server models gain their GPUs, the GPU
interconnect's Gb/s per GPU and their front-end NIC ports; switch models the links one port breaks
out into

Revision ID: 3f9a6c2e8b71
Revises: d3c0a7e51f42
Create Date: 2026-11-26 17:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3f9a6c2e8b71"
down_revision: str | None = "d3c0a7e51f42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("server_models", sa.Column("gpus", sa.Integer(), server_default="0", nullable=False))
    op.add_column("server_models", sa.Column("gpu_interconnect_gbps", sa.Float(), nullable=True))
    op.add_column("server_models", sa.Column("frontend_nic_ports", sa.Integer(), server_default="0", nullable=False))
    op.add_column("server_models", sa.Column("frontend_port_gbps", sa.Float(), nullable=True))
    op.create_check_constraint(
        op.f("ck_server_models_gpu_counts_not_negative"), "server_models", "gpus >= 0 AND frontend_nic_ports >= 0"
    )
    op.create_check_constraint(
        op.f("ck_server_models_gpu_speeds_positive"),
        "server_models",
        "gpu_interconnect_gbps > 0 AND frontend_port_gbps > 0",
    )
    op.add_column("switch_models", sa.Column("breakout_links", sa.Integer(), nullable=True))
    op.create_check_constraint(op.f("ck_switch_models_breakout_links_positive"), "switch_models", "breakout_links >= 1")


def downgrade() -> None:
    op.drop_constraint(op.f("ck_switch_models_breakout_links_positive"), "switch_models", type_="check")
    op.drop_column("switch_models", "breakout_links")
    op.drop_constraint(op.f("ck_server_models_gpu_speeds_positive"), "server_models", type_="check")
    op.drop_constraint(op.f("ck_server_models_gpu_counts_not_negative"), "server_models", type_="check")
    op.drop_column("server_models", "frontend_port_gbps")
    op.drop_column("server_models", "frontend_nic_ports")
    op.drop_column("server_models", "gpu_interconnect_gbps")
    op.drop_column("server_models", "gpus")
