"""Projects, who may do what in them, their fabric settings and the audit log of every change."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, String, UniqueConstraint, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import created_at_column, enum_column, version_column
from loopline.domain.layout import FabricType, NetworkRackPlacement


class Role(enum.StrEnum):
    VIEWER = "viewer"
    EDITOR = "editor"
    OWNER = "owner"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Role.VIEWER: 1, Role.EDITOR: 2, Role.OWNER: 3}


class Project(Base):
    __tablename__ = "projects"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(String(2000), default="")
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class Membership(Base):
    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("project_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[Role] = enum_column(Role, "role")
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class FabricSettingsRow(Base):
    """One per project: see `loopline.domain.layout.FabricSettings` for the meaning of each field."""

    __tablename__ = "fabric_settings"

    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    fabric_type: Mapped[FabricType] = enum_column(FabricType, "fabric_type")
    tor_uplinks: Mapped[int]
    tor_uplink_gbps: Mapped[float]
    aggs_per_cluster: Mapped[int]
    agg_uplinks: Mapped[int]
    agg_uplink_gbps: Mapped[float]
    spines: Mapped[int]
    cores: Mapped[int]
    rows_per_cluster: Mapped[int]
    network_rack_placement: Mapped[NetworkRackPlacement] = enum_column(NetworkRackPlacement, "network_rack_placement")
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class AuditEntry(Base):
    """Append-only. `project_id` is a plain number so entries outlive a deleted project."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_project_id_id", "project_id", "id"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    at: Mapped[datetime] = created_at_column()
    project_id: Mapped[int | None]
    actor_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    actor_token_id: Mapped[int | None]
    actor: Mapped[str] = mapped_column(String(400))
    """Who, readable even after the user is gone: the email, plus the token name for programs."""
    action: Mapped[str] = mapped_column(String(64))
    resource_type: Mapped[str] = mapped_column(String(64))
    resource_id: Mapped[int | None]
    before: Mapped[Any | None] = mapped_column(JSONB)
    after: Mapped[Any | None] = mapped_column(JSONB)


class Invitation(Base):
    """An owner's invitation of an address to a project, with a role. The link's secret is shown once
    to the owner; only its SHA-256 hash is kept. Pending until accepted, revoked or expired."""

    __tablename__ = "project_invitations"

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(320))
    """Stored lower-cased: only an account with this address may accept."""
    role: Mapped[Role] = enum_column(Role, "role")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    invited_by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    accepted_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = version_column()

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}
