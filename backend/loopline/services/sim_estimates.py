"""Run-time estimates of simulations, and the refusal of packet runs the worker could not finish.

A packet-mode run whose estimate exceeds the worker's time or memory limit is refused (422 naming
`mode`) rather than queued to be killed at the limit minutes later: the planner can pick flow
mode, a smaller workload or a stop time. Flow mode is never refused on its estimate (it is the
fast mode, and its cost depends on how many flows share links at once, which the estimate only
approximates); the worker's limits still end a run that overruns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from loopline.db.models.wiring import WiringPlanRow
from loopline.domain.errors import DomainError
from loopline.domain.scenario import PresetChoice, build_scenario, requested_workload
from loopline.domain.sim_estimate import Estimate, Mode, ModeEstimate, Unestimable, estimate
from loopline.services import sim_preflight
from loopline.services.wiring_storage import load_plan
from loopline.settings import get_settings

BASIS = (
    "packet mode: packets (bytes / (MTU - header), per flow) x links crossed x 4 events (data and ACK, departure "
    "and arrival) at 3 M events/s; flow mode: flows at 90,000/s; shortest paths; measured on the worker's machine "
    "(scripts/calibrate_sim_estimate.py)"
)


@dataclass(frozen=True, slots=True)
class Limits:
    wall_s: float
    memory_mb: int


def limits() -> Limits:
    settings = get_settings()
    return Limits(float(settings.engine_time_limit_s), settings.engine_memory_limit_mb)


def why_not(e: ModeEstimate, lim: Limits) -> str | None:
    """Why a run of this estimate would hit the worker's limits (None: it fits)."""
    if e.wall_s > lim.wall_s:
        took, most = duration(e.wall_s), duration(lim.wall_s)
        return f"{e.mode} mode would take about {took}, over the worker's limit of {most}"
    if e.memory_mb > lim.memory_mb:
        return f"{e.mode} mode would need about {e.memory_mb:,.0f} MB, over the worker's limit of {lim.memory_mb:,} MB"
    return None


def duration(s: float) -> str:
    if s < 120:
        return f"{s:,.1f} s"
    if s < 7200:
        return f"{s / 60:,.0f} min"
    return f"{s / 3600:,.1f} h"


def of_validation(validation: dict[str, Any], field: str = "scenario") -> Estimate:
    """The estimate from the engine's validation document (`sim_preflight.validate`)."""
    try:
        return estimate(validation)
    except Unestimable as e:
        raise DomainError(field, f"cannot estimate the run: {e}") from e


def of_scenario(scenario: dict[str, Any], field: str = "scenario") -> Estimate:
    """The engine validates the scenario (a refusal names its field) and gives the estimate's inputs."""
    return of_validation(sim_preflight.validate(scenario), field)


def of_plan(
    session: Session, plan: WiringPlanRow, *, routing: dict[str, Any], workload: PresetChoice | dict[str, Any],
    engine: dict[str, Any],
) -> Estimate:  # fmt: skip
    """The estimate of the scenario `submit_for_plan` would build from the same request."""
    domain_plan = load_plan(session, plan)
    built = requested_workload(domain_plan, workload)
    scenario = build_scenario(domain_plan, routing=routing, workload=built, engine=engine)
    return of_scenario(scenario, "workload")


def check_limits(scenario: dict[str, Any], validation: dict[str, Any] | None, field: str) -> None:
    """Refuse a packet-mode scenario whose estimate exceeds the worker's limits (422 naming `field`).
    `validation` is the engine's document (None: not validated in the request, so not estimated)."""
    engine = scenario.get("engine")
    if not isinstance(engine, dict) or engine.get("mode") != "packet" or validation is None:
        return
    try:
        found = estimate(validation)
    except Unestimable:
        return  # the engine finds no path for some flow: the run reports them stalled
    reason = why_not(found.packet, limits())
    if reason is not None:
        raise DomainError(
            field,
            f"{reason} ({found.workload.packets:,.0f} packets over {found.workload.mean_hops:.1f} links on average): "
            "use flow mode, a smaller workload or a stop time",
        )


def engine_seconds(scenario: dict[str, Any], validation: dict[str, Any] | None) -> float:
    """The run's estimated wall time in its own mode; the worker's time limit when there is no
    estimate (`validation` None: the worker's engine validates the scenario, and stops it at that limit)."""
    engine = scenario.get("engine")
    mode: Mode = "packet" if isinstance(engine, dict) and engine.get("mode") == "packet" else "flow"
    if validation is None:
        return float(get_settings().engine_time_limit_s)
    try:
        return estimate(validation).of(mode).wall_s
    except Unestimable:
        return float(get_settings().engine_time_limit_s)
