"""Run-time estimates of simulations, and the refusal of packet runs the worker could not finish.

A packet-mode run whose estimate exceeds the worker's time or memory limit is refused (422 naming
`mode`) rather than queued to be killed at the limit minutes later: the planner can pick flow
mode, a smaller workload or a stop time. A decomposed run likewise, on its expected time per
worker (the engine's `decompose plan`, spread over the workers alive now). Flow mode is never
refused on its estimate (it is the fast mode, and its cost depends on how many flows share links
at once, which the estimate only approximates); the worker's limits still end a run that overruns.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from loopline.db.models.wiring import WiringPlanRow
from loopline.domain.errors import DomainError
from loopline.domain.scenario import PresetChoice, requested_scenario
from loopline.domain.sim_estimate import (
    COMBINE_FLOWS_PER_S,
    LINK_PACKET_HOPS_PER_S,
    PLAN_FLOWS_PER_S,
    DecomposedEstimate,
    DecompositionPlan,
    Estimate,
    Mode,
    ModeEstimate,
    Unestimable,
    decomposed,
    estimate,
)
from loopline.queue import live_workers
from loopline.services import sim_preflight
from loopline.services.wiring_storage import load_plan
from loopline.settings import get_settings

BASIS = (
    "packet mode: packets (bytes / (MTU - header), per flow) x links crossed x 4 events (data and ACK, departure "
    "and arrival) at 3 M events/s; flow mode: flows at 90,000/s; shortest paths; measured on the worker's machine "
    "(scripts/calibrate_sim_estimate.py)"
)
DECOMPOSED_BASIS = (
    "decomposed mode: the engine's decompose plan (links to simulate, their packet-hops); the link simulations' "
    "packet-hops at {rate:,.0f}/s spread over the {workers} worker(s) alive now (Celery workers answering a ping), "
    "never less than the costliest link's; plus planning ({plan:,.0f} flows/s) and combining the parts "
    "({combine:,.0f} flows/s); measured on the worker's machine (sim_estimate.py)"
)

WORKERS_CACHED_S = 5.0
"""The estimate counts the live workers at most this often per process (a ping waits a second)."""
_workers_lock = threading.Lock()
_workers_seen: list[tuple[float, int]] = []


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


def workers_alive() -> int:
    """The Celery workers answering a ping (queue.live_workers), counted at most every `WORKERS_CACHED_S`."""
    with _workers_lock:
        if _workers_seen and time.monotonic() - _workers_seen[0][0] < WORKERS_CACHED_S:
            return _workers_seen[0][1]
        count = live_workers()
        _workers_seen[:] = [(time.monotonic(), count)]
        return count


def is_decomposed(scenario: dict[str, Any]) -> bool:
    engine = scenario.get("engine")
    return isinstance(engine, dict) and engine.get("mode") == "decomposed"


def of_decomposed(scenario: dict[str, Any], encoded: bytes | None = None) -> DecomposedEstimate:
    """The expected time per worker of `scenario` run in decomposed mode (the engine plans it; a
    scenario it refuses in that mode is a `DomainError` naming the field)."""
    if not is_decomposed(scenario):
        scenario = {**scenario, "engine": {**(scenario.get("engine") or {}), "mode": "decomposed"}}
        encoded = None
    plan = DecompositionPlan.of(sim_preflight.decompose_plan(scenario, encoded))
    return decomposed(plan, workers_alive())


def why_not_decomposed(e: DecomposedEstimate, lim: Limits) -> str | None:
    """Why a decomposed run would hit the worker's time limit (None: it fits)."""
    if e.wall_s > lim.wall_s:
        each = "the one worker" if e.workers == 1 else f"each of the {e.workers} workers"
        return (
            f"decomposed mode would take {each} about {duration(e.wall_s)}, over the worker's limit of "
            f"{duration(lim.wall_s)}"
        )
    return None


def decomposed_basis(e: DecomposedEstimate) -> str:
    return DECOMPOSED_BASIS.format(
        rate=LINK_PACKET_HOPS_PER_S, workers=e.workers, plan=PLAN_FLOWS_PER_S, combine=COMBINE_FLOWS_PER_S
    )


def of_validation(validation: dict[str, Any], field: str = "scenario") -> Estimate:
    """The estimate from the engine's validation document (`sim_preflight.validate`)."""
    try:
        return estimate(validation)
    except Unestimable as e:
        raise DomainError(field, f"cannot estimate the run: {e}") from e


def of_scenario(scenario: dict[str, Any], field: str = "scenario") -> Estimate:
    """The engine validates the scenario (a refusal names its field) and gives the estimate's inputs."""
    return of_validation(sim_preflight.validate(scenario), field)


@dataclass(frozen=True, slots=True)
class Estimates:
    """Every mode's estimate of one scenario, as the estimate endpoints answer it."""

    modes: Estimate
    """Flow and packet mode."""
    decomposed: DecomposedEstimate | None
    """Decomposed mode; None when the engine refuses the scenario in that mode (`decomposed_refused`)."""
    decomposed_refused: str | None


def every_mode(scenario: dict[str, Any], field: str = "scenario") -> Estimates:
    """Flow and packet mode from the engine's validation (a refusal names its field), and decomposed
    mode from its plan (a scenario it cannot decompose says why instead)."""
    found = of_scenario(scenario, field)
    try:
        return Estimates(found, of_decomposed(scenario), None)
    except DomainError as refused:
        return Estimates(found, None, f"{refused.field}: {refused.reason}")


def of_plan(
    session: Session, plan: WiringPlanRow, *, routing: dict[str, Any], workload: PresetChoice | dict[str, Any],
    engine: dict[str, Any],
) -> Estimates:  # fmt: skip
    """The estimates of the scenario `submit_for_plan` would build from the same request."""
    scenario = requested_scenario(load_plan(session, plan), workload, routing=routing, engine=engine)
    return every_mode(scenario, "workload")


def decomposed_of(
    scenario: dict[str, Any], validation: dict[str, Any] | None, encoded: bytes | None = None
) -> DecomposedEstimate | None:
    """A decomposed scenario's estimate when it was validated in the request (None otherwise: not
    decomposed, or too large to read there, when the worker's engine plans it and its limits stop it)."""
    if validation is None or not is_decomposed(scenario):
        return None
    return of_decomposed(scenario, encoded)


def check_limits(
    scenario: dict[str, Any], validation: dict[str, Any] | None, field: str,
    planned: DecomposedEstimate | None = None,
) -> None:  # fmt: skip
    """Refuse a packet-mode scenario whose estimate exceeds the worker's limits (422 naming `field`),
    and a decomposed one whose time per worker does (`planned`: `decomposed_of`). `validation` is the
    engine's document (None: not validated in the request, so not estimated)."""
    if planned is not None:
        why = why_not_decomposed(planned, limits())
        if why is not None:
            plan = planned.plan
            raise DomainError(
                field,
                f"{why} ({plan.links_simulated:,} links to simulate, {plan.packets_total:,.0f} packet-hops): "
                "use flow mode, a smaller workload or a stop time",
            )
        return
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


def engine_seconds(
    scenario: dict[str, Any], validation: dict[str, Any] | None, planned: DecomposedEstimate | None = None
) -> float:
    """The run's estimated wall time in its own mode; the worker's time limit when there is no
    estimate (`validation` None: the worker's engine validates the scenario, and stops it at that limit).
    A decomposed run (`planned`) counts all its engine seconds: planning and every link simulation."""
    if planned is not None:
        return planned.planning_s + planned.links_s
    engine = scenario.get("engine")
    mode: Mode = "packet" if isinstance(engine, dict) and engine.get("mode") == "packet" else "flow"
    if validation is None:
        return float(get_settings().engine_time_limit_s)
    try:
        return estimate(validation).of(mode).wall_s
    except Unestimable:
        return float(get_settings().engine_time_limit_s)
