"""Run-time estimates before submitting a simulation, and the engine section of a plan request."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from loopline.api.deps import DbSession, PlanId, require_project_role
from loopline.api.schemas.common import ERROR_RESPONSES
from loopline.api.schemas.sim_estimates import DecomposedEstimateRead, SimulationEstimate
from loopline.api.schemas.simulations import PlanSimulationCreate, ScenarioSimulationCreate
from loopline.db.models import Role
from loopline.domain.errors import DomainError
from loopline.domain.sim_estimate import DEFAULT_BUFFER_BYTES, ModeEstimate
from loopline.services import sim_estimates, wiring_plans
from loopline.services.access import ProjectAccess, Scope
from loopline.services.sim_estimates import Estimates

SimReader = Annotated[ProjectAccess, Depends(require_project_role(Role.VIEWER, Scope.SIM_READ))]

router = APIRouter(
    prefix="/api/v1", tags=["simulations"], responses={k: ERROR_RESPONSES[k] for k in (401, 403, 404, 422)}
)


def engine_section(data: PlanSimulationCreate) -> dict[str, object]:
    """The scenario's `engine` section of a plan request (mode, seed, failures, stop time, packet
    settings given); packet settings with flow mode, or an ECN threshold the run cannot use, are refused."""
    engine: dict[str, object] = {"mode": data.mode, "seed": data.engine.seed, "failures": data.engine.failures}
    if data.engine.stop_time_s is not None:
        engine["stop_time_s"] = data.engine.stop_time_s
    if data.decomposed is not None:
        if data.mode != "decomposed":
            raise DomainError("decomposed", 'decomposed settings need mode "decomposed"')
        if settings := data.decomposed.model_dump(exclude_none=True):  # (none given: the engine's defaults)
            engine["decomposed"] = settings
    if data.packet is None:
        return engine
    if data.mode == "flow":
        raise DomainError("packet", 'packet settings need mode "packet" or "decomposed"')
    p = data.packet
    if p.ecn_threshold_bytes is not None:
        if p.transport != "dctcp":
            reason = f"only DCTCP reacts to ECN marks (transport is {p.transport})"
            raise DomainError("packet.ecn_threshold_bytes", reason)
        buffer = p.buffer_bytes or DEFAULT_BUFFER_BYTES
        if p.ecn_threshold_bytes >= buffer:
            raise DomainError(
                "packet.ecn_threshold_bytes", f"must be below the buffer ({buffer:,} bytes): a full queue drops first"
            )
    engine["packet"] = p.model_dump(exclude_none=True)
    return engine


def _read(estimates: Estimates) -> SimulationEstimate:
    found, lim = estimates.modes, sim_estimates.limits()

    def mode(e: ModeEstimate) -> dict[str, object]:
        reason = sim_estimates.why_not(e, lim)
        return {"mode": e.mode, "wall_s": e.wall_s, "memory_mb": e.memory_mb, "events": e.events,
                "fits": reason is None, "reason": reason}  # fmt: skip

    decomposed = None
    if (d := estimates.decomposed) is not None:
        reason = sim_estimates.why_not_decomposed(d, lim)
        decomposed = {
            **{name: getattr(d.plan, name) for name in DecomposedEstimateRead.model_fields if hasattr(d.plan, name)},
            "workers": d.workers, "planning_s": d.planning_s, "wall_s": d.wall_s, "fits": reason is None,
            "reason": reason, "basis": sim_estimates.decomposed_basis(d),
        }  # fmt: skip
    return SimulationEstimate.model_validate(
        {
            "workload": found.workload, "flow": mode(found.flow), "packet": mode(found.packet),
            "limit_wall_s": lim.wall_s, "limit_memory_mb": lim.memory_mb, "basis": sim_estimates.BASIS,
            "decomposed": decomposed, "decomposed_refused": estimates.decomposed_refused,
        }
    )  # fmt: skip


@router.post(
    "/wiring-plans/{plan_id}/simulations/estimate",
    response_model=SimulationEstimate,
    summary="Estimate a plan simulation's run time, in flow, packet and decomposed mode",
    description="The same request as submitting (`POST /wiring-plans/{plan_id}/simulations`); nothing is queued. "
    "Wall time and memory for flow and packet mode, and whether each fits the worker's limits: a packet-mode "
    "submission that does not is refused (422 naming `mode`). Decomposed mode: the links to simulate, "
    "clustered and idle (the engine's plan), and the expected time per worker over the workers alive now; a "
    "decomposed submission whose time per worker exceeds the worker's time limit is refused too.",
)
def estimate_plan(plan_id: PlanId, data: PlanSimulationCreate, session: DbSession, access: SimReader) -> object:
    engine = engine_section(data)
    plan = wiring_plans.get_plan(session, plan_id)
    found = sim_estimates.of_plan(session, plan, routing=data.routing, workload=data.workload_request(), engine=engine)
    return _read(found)


@router.post(
    "/projects/{project_id}/simulations/estimate",
    response_model=SimulationEstimate,
    summary="Estimate a complete scenario's run time, in flow, packet and decomposed mode",
    description="The same body as `POST /projects/{project_id}/simulations`; nothing is queued.",
)
def estimate_scenario(project_id: int, data: ScenarioSimulationCreate, access: SimReader) -> object:
    return _read(sim_estimates.every_mode(data.scenario))
