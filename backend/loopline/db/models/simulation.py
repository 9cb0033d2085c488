"""Simulation jobs: a scenario handed to a worker, its progress and the engine's result."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base
from loopline.db.models._columns import created_at_column, enum_column, version_column


class JobStatus(enum.StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in (JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED)


class SimulationJob(Base):
    __tablename__ = "simulation_jobs"
    __table_args__ = (UniqueConstraint("project_id", "idempotency_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    plan_id: Mapped[int | None] = mapped_column(ForeignKey("wiring_plans.id", ondelete="SET NULL"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[JobStatus] = enum_column(JobStatus, "job_status")
    progress: Mapped[float] = mapped_column(default=0.0)
    """Fraction of the workload's flows finished, 0..1."""
    scenario: Mapped[dict[str, Any]] = mapped_column(JSONB)
    """The exact scenario sent to the engine (so a rerun gives the same result)."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    error: Mapped[str | None] = mapped_column(Text)
    error_field: Mapped[str | None] = mapped_column(String(500))
    """The scenario field a failure names (`scenario.network.links[0].b`), when it names one."""
    sim_time_s: Mapped[float | None] = mapped_column()
    """The engine's simulated time at its last progress report."""
    flows_done: Mapped[int | None] = mapped_column()
    flows_total: Mapped[int | None] = mapped_column()
    events: Mapped[int | None] = mapped_column(BigInteger)
    """Events the engine had processed at its last progress report."""
    progress_text: Mapped[str | None] = mapped_column(String(500))
    """The engine's last progress line, as it printed it."""
    outcome: Mapped[str | None] = mapped_column(String(20))
    """For a succeeded run: `complete` (every flow finished) or `partial`."""
    stalled_flows: Mapped[int | None] = mapped_column()
    unfinished_flows: Mapped[int | None] = mapped_column()
    """Started but not finished (stop time reached) plus not started (arrival after the stop time)."""
    incomplete_reason: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    """Why a partial run's flows did not finish (domain/sim_outcome.py `explain`)."""
    flow_records: Mapped[int | None] = mapped_column()
    """Per-flow records kept in `simulation_flows` (null: none kept: over the cap, or not a result)."""
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    attempts: Mapped[int] = mapped_column(default=0)
    estimated_s: Mapped[float | None] = mapped_column()
    """Engine seconds the run-time estimate gave at submit (the queued-work quota sums them)."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = created_at_column()
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When its worker last said it is still running it (every few seconds while running)."""
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    """The worker process running it (`host:pid`), set when claimed."""
    links_done: Mapped[int | None] = mapped_column()
    """Decomposed mode: links simulated so far (over every batch); null in the other modes."""
    links_total: Mapped[int | None] = mapped_column()
    """Decomposed mode: the links to simulate (the engine's `links_simulated`)."""
    batches: Mapped[int | None] = mapped_column()
    """Decomposed mode: the batches the run was split into over the workers (null: run in one process)."""
    version: Mapped[int] = version_column()


class SimulationPart(Base):
    """One batch of a decomposed run split over the workers: its progress and, once simulated, its
    part (the engine's part file, gzip) until the run's parts are combined. One row per (job,
    batch): a batch delivered again overwrites its row, never adds one."""

    __tablename__ = "simulation_parts"
    __table_args__ = (UniqueConstraint("job_id", "batch"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("simulation_jobs.id", ondelete="CASCADE"))
    batch: Mapped[int] = mapped_column()
    """1..batches, as the engine's `decompose links --batch I/N` numbers them."""
    batches: Mapped[int] = mapped_column()
    status: Mapped[JobStatus] = enum_column(JobStatus, "job_status")
    links_done: Mapped[int] = mapped_column(default=0, server_default="0")
    links_total: Mapped[int | None] = mapped_column()
    """The batch's links (known once its engine reports)."""
    data: Mapped[bytes | None] = mapped_column(LargeBinary)
    """The part file, gzip; emptied once the run's parts are combined (or the run ends otherwise)."""
    attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    stores: Mapped[int] = mapped_column(default=0, server_default="0")
    """How many times the part was stored: 1, even when a lost worker's batch ran again."""
    worker: Mapped[str | None] = mapped_column(String(200))
    """The worker that last started the batch (and, once stored, stored it)."""
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When its worker last said it is still running it."""
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    """The worker process running it (`host:pid`)."""


class Sweep(Base):
    """A grid of design and workload parameters over one hall; each point is a plan and a run."""

    __tablename__ = "sweeps"

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    hall_id: Mapped[int] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[JobStatus] = enum_column(JobStatus, "job_status")
    base: Mapped[dict[str, Any]] = mapped_column(JSONB)
    """The parameters every point shares (services/sweeps.py PARAMETERS)."""
    grid: Mapped[dict[str, Any]] = mapped_column(JSONB)
    """Parameter -> the values it takes; the points are their product."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = created_at_column()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = version_column()


class SweepPoint(Base):
    __tablename__ = "sweep_points"
    __table_args__ = (UniqueConstraint("sweep_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    sweep_id: Mapped[int] = mapped_column(ForeignKey("sweeps.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column()
    params: Mapped[dict[str, Any]] = mapped_column(JSONB)
    """The point's full parameters (base with its grid values)."""
    status: Mapped[JobStatus] = enum_column(JobStatus, "job_status")
    figures: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    """Design (cost, cables, length) and performance (completion times, outcome) of the point."""
    error: Mapped[str | None] = mapped_column(Text)
    error_field: Mapped[str | None] = mapped_column(String(500))
    attempts: Mapped[int] = mapped_column(default=0)
    finishes: Mapped[int] = mapped_column(default=0)
    """How many times the point was finished: 1, even when a lost worker's task ran it again."""
    worker: Mapped[str | None] = mapped_column(String(200))
    """The worker that last started it (and, once finished, finished it)."""
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When its worker last said it is still running it (every few seconds while running)."""
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    """The worker process running it (`host:pid`), set when claimed."""
