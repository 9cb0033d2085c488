"""Per-flow records of a simulation's result, one row a flow, kept out of the job's JSON result.

A run of up to a million flows keeps its records here (a few hundred bytes a flow with the
indexes), so the job row and its `result.json` stay the summary the browser reads at once, while
pages, CSV and the exact completion-time CDF are cut from this table.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from loopline.db.base import Base


class SimulationFlow(Base):
    __tablename__ = "simulation_flows"
    __table_args__ = (
        # pages sorted by completion time or slowdown (ties by index), and the CDF's sorted values
        Index("ix_simulation_flows_fct", "job_id", "fct_s", "index"),
        Index("ix_simulation_flows_slowdown", "job_id", "slowdown", "index"),
    )

    job_id: Mapped[int] = mapped_column(ForeignKey("simulation_jobs.id", ondelete="CASCADE"), primary_key=True)
    index: Mapped[int] = mapped_column(primary_key=True)
    """The flow's index in the engine's workload order."""
    src: Mapped[str] = mapped_column(String(500))
    dst: Mapped[str] = mapped_column(String(500))
    bytes: Mapped[int] = mapped_column(BigInteger)
    start_s: Mapped[float] = mapped_column(Float)
    fct_s: Mapped[float | None] = mapped_column(Float)
    """Completion time, seconds; null: the flow did not finish."""
    slowdown: Mapped[float | None] = mapped_column(Float)


class SimulationFlowValues(Base):
    """The finished flows' completion times and slowdowns, each sorted ascending, as little-endian
    float64 (8 bytes a flow): the exact CDF the browser draws, read as one value instead of sorted
    from the rows on every request (100,000 rows took 0.3-3 s on a busy machine)."""

    __tablename__ = "simulation_flow_values"

    job_id: Mapped[int] = mapped_column(ForeignKey("simulation_jobs.id", ondelete="CASCADE"), primary_key=True)
    fct_s: Mapped[bytes] = mapped_column(LargeBinary)
    slowdown: Mapped[bytes] = mapped_column(LargeBinary)
