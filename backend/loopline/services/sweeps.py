"""Sweeps: a grid of design and workload parameters over one hall. Each point generates its plan
(wiring, lengths, bill of materials) and simulates it; the points fan out over every worker
as one Celery chord, and each is finished exactly once (a lost worker's point runs again, and the
conditional finish makes the second finish a no-op).

A point's plan is generated in the worker and not stored: its parameters are, so the same plan can
be generated as a stored plan (POST /halls/{id}/wiring-plans) when one point is worth keeping.
Like a stored plan, a point keeps its materials (parts and quantities), never its prices: every read
prices them with the project's current book (`priced_figures`), so cost axes follow a saved book.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from loopline.db.models import JobStatus, Sweep, SweepPoint
from loopline.db.repositories import Page, paginate
from loopline.domain import bom, port_speeds
from loopline.domain.errors import Conflict, DomainError, NotFound
from loopline.domain.exports import to_csv
from loopline.domain.media import PriceBook
from loopline.domain.scenario import WORKLOADS, build_scenario, preset_of, workload
from loopline.domain.sim_outcome import Outcome
from loopline.domain.wiring import Pattern, WiringPlan, generate_plan
from loopline.domain.wiring.spec import RAIL_PATTERNS
from loopline.domain.wiring.summary import PlanSummary, summarize
from loopline.queue import SWEEP_DONE_TASK, SWEEP_POINT_TASK, enqueue_chord_after_commit
from loopline.services import audit, pricing
from loopline.services.access import Principal
from loopline.services.job_recovery import Claimant, claim_or_skip
from loopline.services.layout_snapshot import get_hall_or_404, load_fabric, load_hall
from loopline.services.wiring_spec import (
    PlanOptions,
    RailOptions,
    geometry_for,
    resolve_rail,
    server_port_speeds,
    wiring_spec,
)

ROUTINGS = ("ecmp", "adaptive", "least_work", "detour", "vlb", "grin")
COLLECTIVE_OPS = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all")
COLLECTIVE_ALGORITHMS = ("ring", "hierarchical", "direct")
PLACEMENTS = ("contiguous", "spread", "packed")
WORKLOAD_PARAMETERS = ("job_racks", "bytes", "load", "flows", "op", "algorithm", "gpus", "placement")
"""The sweep parameters a point hands to its workload's preset (those the preset takes)."""
MAX_POINTS = 200
MAX_VALUES = 50


@dataclass(frozen=True, slots=True)
class Parameter:
    kind: type
    minimum: float | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    about: str = ""


PARAMETERS: dict[str, Parameter] = {
    "pattern": Parameter(str, choices=tuple(p.value for p in Pattern), about="wiring pattern"),
    "ports": Parameter(int, 1, nullable=True, about="p: server ports wired (null: the pattern's default)"),
    "loop": Parameter(int, 2, nullable=True, about="l: logical racks per loop (null: the row)"),
    "clusters": Parameter(int, 1, about="c: clusters"),
    "uplinks_per_tor": Parameter(int, 1, nullable=True, about="ToR uplinks (oversubscription); null: the hall's"),
    "server_gbps": Parameter(float, nullable=True, about="server link Gb/s (NIC, ToR downlink); null: the hall's"),
    "fabric_gbps": Parameter(
        float, nullable=True, about="fabric link Gb/s (ToR uplink, agg/spine/core); null: the hall's"
    ),
    "workload": Parameter(str, choices=WORKLOADS, about="workload kind"),
    "job_racks": Parameter(int, 1, nullable=True, about="job size in logical racks"),
    "bytes": Parameter(int, 1, about="bytes per pair or flow"),
    "load": Parameter(float, 0.0, about="offered load of the server links (poisson)"),
    "flows": Parameter(int, 1, about="flows drawn (poisson)"),
    "seed": Parameter(int, 0, about="engine seed"),
    "routing": Parameter(str, choices=ROUTINGS, about="routing scheme"),
    # GPU clusters (issue 31): the rail patterns' options and the GPU presets' parameters
    "su_size": Parameter(int, 1, nullable=True, about="rail patterns: servers per scalable unit"),
    "rail_leaf_model_id": Parameter(int, 1, nullable=True, about="rail patterns: the rail leaves' switch model"),
    "oversubscription": Parameter(float, 0.0, nullable=True, about="rail-optimized: leaf down:up (null: 1)"),
    "op": Parameter(str, choices=COLLECTIVE_OPS, nullable=True, about="collective operation"),
    "algorithm": Parameter(str, choices=COLLECTIVE_ALGORITHMS, nullable=True, about="collective algorithm"),
    "gpus": Parameter(int, 0, nullable=True, about="GPUs in the job (0: every GPU)"),
    "placement": Parameter(str, choices=PLACEMENTS, nullable=True, about="job placement"),
}
DEFAULTS: dict[str, Any] = {
    "pattern": "single-homed", "ports": None, "loop": None, "clusters": 1, "uplinks_per_tor": None,
    "server_gbps": None, "fabric_gbps": None, "workload": "shuffle", "job_racks": 2, "bytes": 15_000_000,
    "load": 0.4, "flows": 10_000, "seed": 1, "routing": "ecmp",
}  # fmt: skip


_KIND_NAMES = {str: "a string", int: "an integer", float: "a number"}


def _check(field: str, name: str, value: Any) -> Any:
    p = PARAMETERS[name]
    if value is None:
        if p.nullable:
            return None
        raise DomainError(field, "must not be null")
    if p.kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, p.kind) or isinstance(value, bool):
        raise DomainError(
            field, f"must be {'a string' if p.kind is str else 'an integer' if p.kind is int else 'a number'}"
        )
    if p.choices and value not in p.choices:
        raise DomainError(field, f"unknown {p.about} {value!r} (one of {', '.join(p.choices)})")
    if p.minimum is not None and isinstance(value, int | float) and value < p.minimum:
        raise DomainError(field, f"must be >= {p.minimum:g}, got {value}")
    return value


def points_of(base: dict[str, Any], grid: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every point's full parameters: the defaults, then `base`, then one value of each grid axis
    (the last axis varies fastest). Checked: names, kinds, ranges, at most MAX_POINTS points."""
    full = dict(DEFAULTS)
    for name, value in base.items():
        if name not in PARAMETERS:
            raise DomainError(f"base.{name}", f"unknown parameter (one of {', '.join(PARAMETERS)})")
        full[name] = _check(f"base.{name}", name, value)
    if not grid:
        raise DomainError("grid", "needs at least one parameter to vary")
    axes: list[list[tuple[str, Any]]] = []
    for name, values in grid.items():
        if name not in PARAMETERS:
            raise DomainError(f"grid.{name}", f"unknown parameter (one of {', '.join(PARAMETERS)})")
        if not isinstance(values, list) or not 1 <= len(values) <= MAX_VALUES:
            raise DomainError(f"grid.{name}", f"must be a list of 1..{MAX_VALUES} values")
        axes.append([(name, _check(f"grid.{name}[{i}]", name, v)) for i, v in enumerate(values)])
    count = 1
    for axis in axes:
        count *= len(axis)
    if count > MAX_POINTS:
        raise DomainError("grid", f"{count} points; a sweep has at most {MAX_POINTS}")
    return [{**full, **dict(combo)} for combo in itertools.product(*axes)]


SPEEDS = {"server_gbps": "server", "fabric_gbps": "fabric"}
RAIL_OPTIONS = ("su_size", "rail_leaf_model_id")


def check_rail_options(base: dict[str, Any], grid: dict[str, list[Any]], points: list[dict[str, Any]]) -> None:
    """A point of a rail pattern needs the SU size and the leaf model (DomainError naming where they go),
    so no point fails for them later."""
    for p in points:
        if Pattern(p["pattern"]) in RAIL_PATTERNS:
            for name in RAIL_OPTIONS:
                if p.get(name) is None:
                    where = f"grid.{name}" if name in grid else f"base.{name}"
                    raise DomainError(where, f"pattern {p['pattern']} needs {name}")


def check_port_speeds(session: Session, hall_id: int, base: dict[str, Any], grid: dict[str, list[Any]]) -> None:
    """Every port speed the sweep asks for is one the catalog has media for and the hall's devices run
    (DomainError naming the value's field and the device that lacks it), so no point fails for it later."""
    asked = [(f"base.{n}", n, base[n]) for n in SPEEDS if base.get(n) is not None and n not in grid]
    asked += [(f"grid.{n}[{i}]", n, v) for n in SPEEDS for i, v in enumerate(grid.get(n, ())) if v is not None]
    if not asked:
        return
    hall = load_hall(session, hall_id)
    for field, name, value in asked:
        port_speeds.check(hall, SPEEDS[name], float(value), field)


def port_speed_options(session: Session, hall_id: int) -> dict[str, tuple[float, ...]]:
    """Per speed parameter, the speeds this hall's devices can run (what a sweep over it may ask)."""
    get_hall_or_404(session, hall_id)
    hall = load_hall(session, hall_id)
    return {name: port_speeds.buildable(hall, kind) for name, kind in SPEEDS.items()}


def create(
    session: Session, principal: Principal, hall_id: int, name: str, base: dict[str, Any], grid: dict[str, list[Any]]
) -> Sweep:
    hall = get_hall_or_404(session, hall_id)
    points = points_of(base, grid)
    check_port_speeds(session, hall_id, base, grid)
    check_rail_options(base, grid, points)
    sweep = Sweep(
        project_id=hall.project_id, hall_id=hall_id, name=name, status=JobStatus.QUEUED, base=base, grid=grid,
        created_by=principal.user.id,
    )  # fmt: skip
    session.add(sweep)
    session.flush()
    rows = [SweepPoint(sweep_id=sweep.id, index=i, params=p, status=JobStatus.QUEUED) for i, p in enumerate(points)]
    session.add_all(rows)
    session.flush()
    audit.record(
        session, principal, project_id=hall.project_id, action="create", resource_type="sweep", resource_id=sweep.id,
        after={"name": name, "hall_id": hall_id, "points": len(points)},
    )  # fmt: skip
    enqueue_chord_after_commit(session, SWEEP_POINT_TASK, [(r.id,) for r in rows], SWEEP_DONE_TASK, (sweep.id,))
    return sweep


def get(session: Session, sweep_id: int) -> Sweep:
    sweep = session.get(Sweep, sweep_id)
    if sweep is None:
        raise NotFound("sweep_id", f"sweep {sweep_id} not found")
    return sweep


def points(session: Session, sweep_id: int) -> list[SweepPoint]:
    return list(
        session.execute(select(SweepPoint).where(SweepPoint.sweep_id == sweep_id).order_by(SweepPoint.index)).scalars()
    )


def counts(session: Session, sweep_ids: list[int]) -> dict[int, dict[str, int]]:
    """Points per status, per sweep."""
    out: dict[int, dict[str, int]] = {i: {s.value: 0 for s in JobStatus} for i in sweep_ids}
    rows = session.execute(
        select(SweepPoint.sweep_id, SweepPoint.status, func.count())
        .where(SweepPoint.sweep_id.in_(sweep_ids))
        .group_by(SweepPoint.sweep_id, SweepPoint.status)
    ).all()
    for sweep_id, status, n in rows:
        out[sweep_id][status.value] = int(n)
    return out


def list_sweeps(session: Session, project_id: int, *, page: int, limit: int) -> Page[Sweep]:
    stmt = select(Sweep).where(Sweep.project_id == project_id).order_by(Sweep.id.desc())
    return paginate(session, stmt, page=page, limit=limit)


def cancel(session: Session, principal: Principal, sweep: Sweep) -> Sweep:
    """Queued points never start; running ones have their engine killed by the worker's watchdog."""
    if sweep.status.finished:
        raise Conflict("status", f"sweep {sweep.id} already {sweep.status.value}")
    sweep.status = JobStatus.CANCELLED
    sweep.finished_at = _now()
    sweep.version += 1
    session.execute(
        update(SweepPoint)
        .where(SweepPoint.sweep_id == sweep.id, SweepPoint.status == JobStatus.QUEUED)
        .values(status=JobStatus.CANCELLED, finished_at=_now())
    )
    audit.record(
        session, principal, project_id=sweep.project_id, action="cancel", resource_type="sweep",
        resource_id=sweep.id, after={"status": "cancelled"},
    )  # fmt: skip
    session.flush()
    return sweep


@dataclass(frozen=True, slots=True)
class SweepPreset:
    """A sweep the planner picks by name: the parameters it sets (`base`) and the axis it varies (`grid`);
    the planner's own choices (pattern, rail options, job) go into `base` beside them."""

    name: str
    label: str
    explain: str
    base: dict[str, Any]
    grid: dict[str, list[Any]]


SWEEP_PRESETS = (
    SweepPreset(
        "collective-sweep", "Collective sweep (1 MB to 4 GB)",
        "A collective at every power-of-two message size from 1 MiB to 4 GiB, as nccl-tests runs it: each point's "
        "figures carry the engine's collective (algbw_gbps, busbw_gbps), drawn as bus bandwidth against size.",
        {"workload": "collective"}, {"bytes": [2**e for e in range(20, 33)]},
    ),
)  # fmt: skip


POINT_COLUMNS = (
    "index", "status", *PARAMETERS, "cost_total", "currency", "cost_complete", "cables", "total_ordered_length_m",
    "job_completion_s", "fct_mean_s", "fct_p99_s", "slowdown_mean", "slowdown_p99", "outcome", "stalled_flows",
    "flows_total", "algbw_gbps", "busbw_gbps", "error",
)  # fmt: skip
_COLLECTIVE_COLUMNS = ("algbw_gbps", "busbw_gbps")
"""Read from the point's `collective` figures (the engine's)."""


def priced_figures(figures: dict[str, Any] | None, book: PriceBook) -> dict[str, Any] | None:
    """A point's figures with its cost priced now from its stored materials (`cost_total`, `currency`,
    `cost_complete`, `cost_unpriced`, `price_book_version`); the materials themselves are not shown.
    A point finished before materials were kept has only the cost priced when it ran."""
    if figures is None or "materials" not in figures:
        return figures
    out = {k: v for k, v in figures.items() if k != "materials"}
    priced = bom.price(bom.Materials.from_json(figures["materials"]), book)
    out.update(
        cost_total=priced.total, currency=priced.currency, cost_complete=priced.complete,
        cost_unpriced=sorted({line.part_number for line in priced.unpriced}),
        price_book_version=priced.price_book_version,
    )  # fmt: skip
    return out


def point_views(session: Session, sweep: Sweep) -> list[dict[str, Any]]:
    """The sweep's points as read: every column of the row, figures priced with the current book."""
    book = pricing.price_book(session, sweep.project_id)
    return [
        {**{c.key: getattr(p, c.key) for c in SweepPoint.__table__.columns}, "figures": priced_figures(p.figures, book)}
        for p in points(session, sweep.id)
    ]


def point_row(p: dict[str, Any]) -> dict[str, Any]:
    f = p["figures"] or {}
    f = {**f, **{k: (f.get("collective") or {}).get(k) for k in _COLLECTIVE_COLUMNS}}
    return {"index": p["index"], "status": p["status"].value, **{k: p["params"].get(k) for k in PARAMETERS},
            **{k: f.get(k) for k in POINT_COLUMNS[2 + len(PARAMETERS) : -1]}, "error": p["error"]}  # fmt: skip


def points_csv(session: Session, sweep: Sweep) -> str:
    rows = [point_row(p) for p in point_views(session, sweep)]
    return to_csv(POINT_COLUMNS, [["" if r[c] is None else r[c] for c in POINT_COLUMNS] for r in rows])


# ---------------------------------------------------------------- the worker's side


def _now() -> datetime:
    return datetime.now(UTC)


def start_point(session: Session, point_id: int, worker: str, claimant: Claimant) -> tuple[SweepPoint, Sweep] | None:
    """Mark the point running (one more attempt); None when there is nothing to do: it is finished,
    another worker is running it, or its sweep was cancelled (the point is then cancelled too)."""
    point = session.get(SweepPoint, point_id, with_for_update=True)
    if point is None or not claim_or_skip(point, session.execute(select(func.now())).scalar_one(), claimant):
        return None  # ended, or a live worker is on it (a duplicate delivery)
    sweep = session.get(Sweep, point.sweep_id)
    assert sweep is not None
    if sweep.status is JobStatus.CANCELLED:
        point.status = JobStatus.CANCELLED
        point.finished_at = _now()
        return None
    point.status = JobStatus.RUNNING
    point.attempts += 1
    point.started_at = _now()
    point.worker = worker
    if sweep.status is JobStatus.QUEUED:
        session.execute(
            update(Sweep).where(Sweep.id == sweep.id, Sweep.status == JobStatus.QUEUED).values(status=JobStatus.RUNNING)
        )
    return point, sweep


def point_plan(session: Session, sweep: Sweep, params: dict[str, Any]) -> tuple[WiringPlan, PlanSummary]:
    """The point's plan, generated (not stored) from the hall and the point's parameters, and its
    summary (with its materials). Port speeds: the hall's
    server / fabric ports run at the point's (domain/port_speeds.py), so the cables, their media,
    the BOM and the engine's link rates are at that speed."""
    hall = load_hall(session, sweep.hall_id)
    for name, kind in SPEEDS.items():
        if params.get(name) is not None:
            port_speeds.check(hall, kind, float(params[name]), name)
    hall = port_speeds.at_speeds(hall, params.get("server_gbps"), params.get("fabric_gbps"))
    fabric = load_fabric(session, sweep.project_id)
    if params.get("uplinks_per_tor") is not None:
        fabric = replace(fabric, tor_uplinks=params["uplinks_per_tor"])
    pattern = Pattern(params["pattern"])
    rail = None
    if pattern in RAIL_PATTERNS:
        check_rail_options(params, {}, [params])
        rail = RailOptions(params["su_size"], params["rail_leaf_model_id"], params.get("oversubscription"))
    options = PlanOptions(
        name=f"sweep {sweep.id}", pattern=pattern, ports=params.get("ports"),
        loop=params.get("loop"), clusters=params.get("clusters", 1), rail=rail,
    )  # fmt: skip
    options = resolve_rail(session, sweep.project_id, options)
    plan = generate_plan(hall, wiring_spec(options, fabric), geometry=geometry_for(options))
    return plan, summarize(plan, server_port_speeds(hall))


def point_scenario(session: Session, sweep: Sweep, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The point's plan (`point_plan`) as a scenario to simulate, and its design figures (materials,
    priced when read; cables, lengths)."""
    plan, summary = point_plan(session, sweep, params)
    kind = params["workload"]
    # the point's workload parameters its preset takes; a null job size is the preset's default
    taken = {p.name for p in preset_of(kind).params}
    wl_params = {k: v for k in WORKLOAD_PARAMETERS if k in taken and (v := params.get(k)) is not None}
    scenario = build_scenario(
        plan, name=f"sweep {sweep.id}", routing={"type": params["routing"]}, workload=workload(plan, kind, wl_params,
        where=""), engine={"mode": "flow", "seed": params["seed"], "failures": []},
    )  # fmt: skip
    design = {
        "materials": summary.materials.to_json(), "cables": summary.cables,
        "total_ordered_length_m": round(summary.total_ordered_mm / 1000, 1), "servers": summary.servers,
        "tors": summary.tors,
    }  # fmt: skip
    return scenario, design


def performance(result: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    flows = result.get("flows") or {}
    fct, slow = flows.get("fct_s") or {}, flows.get("slowdown") or {}
    return {
        "job_completion_s": result.get("job_completion_s"), "fct_mean_s": fct.get("mean"), "fct_p99_s": fct.get("p99"),
        "slowdown_mean": slow.get("mean"), "slowdown_p99": slow.get("p99"), "flows_total": flows.get("total"),
        "outcome": outcome.outcome, "stalled_flows": outcome.stalled, "unfinished_flows": outcome.unfinished,
        "incomplete_summary": (outcome.reason or {}).get("summary"),
        # a collective's own figures (nccl-tests' algbw and busbw, the engine's), as the result gives them
        "collective": result.get("collective"), "training": result.get("training"),
    }  # fmt: skip


def finish_point(
    session: Session, point_id: int, status: JobStatus, *, worker: str, figures: dict[str, Any] | None = None,
    error: str | None = None, error_field: str | None = None,
) -> bool:  # fmt: skip
    """Finish a running point; False (and nothing written) when it was already finished or
    cancelled, so a point redelivered after a lost worker is finished exactly once."""
    done = session.execute(
        update(SweepPoint)
        .where(SweepPoint.id == point_id, SweepPoint.status == JobStatus.RUNNING)
        .values(
            status=status,
            figures=figures,
            error=error,
            error_field=error_field,
            worker=worker,
            finished_at=_now(),
            finishes=SweepPoint.finishes + 1,
        )  # fmt: skip
    )
    return bool(done.rowcount)


def close_if_done(session: Session, sweep_id: int) -> JobStatus | None:
    """The sweep ends when every point has: `succeeded` (some points may have failed: each says why)."""
    open_points = session.execute(
        select(func.count()).where(
            SweepPoint.sweep_id == sweep_id, SweepPoint.status.in_((JobStatus.QUEUED, JobStatus.RUNNING))
        )
    ).scalar_one()
    if open_points:
        return None
    session.execute(
        update(Sweep)
        .where(Sweep.id == sweep_id, Sweep.status.in_((JobStatus.QUEUED, JobStatus.RUNNING)))
        .values(status=JobStatus.SUCCEEDED, finished_at=_now(), version=Sweep.version + 1)
    )
    return session.execute(select(Sweep.status).where(Sweep.id == sweep_id)).scalar()
