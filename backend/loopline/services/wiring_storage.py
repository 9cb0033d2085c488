"""A plan's devices and cables in storage: written by `COPY` (200,000 cables at once) and read back
as the domain plan (`load_plan`, for summaries and the engine's scenario)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import ServerModel
from loopline.db.models.wiring import PlanCableRow, PlanDeviceRow, WiringPlanRow
from loopline.db.repositories.wiring import CABLE_COPY_COLUMNS, DEVICE_COPY_COLUMNS, copy_rows
from loopline.domain import layout as dl
from loopline.domain.labels import rack_name
from loopline.domain.media import Medium
from loopline.domain.wiring import Cable, Device, LinkClass, Loop, Role, WiringPlan
from loopline.domain.wiring.model import GpuServer
from loopline.services.wiring_spec import PlanOptions, geometry_for, wiring_spec


def store_plan(session: Session, plan_id: int, hall: dl.Hall, plan: WiringPlan) -> None:
    row_of_rack = {rack_name(hall.name, r.name, k.name): r.name for r in hall.rows for k in r.racks}
    rack_of = {d.name: d.rack for d in plan.devices}
    copy_rows(
        session,
        "plan_devices",
        DEVICE_COPY_COLUMNS,
        (
            (plan_id, d.node_id, d.name, d.role.value, d.rack, d.u, d.model, d.logical_rack,
             d.cluster, d.loop, d.loop_position, d.x_mm, d.y_mm, d.z_mm)
            for d in plan.devices
        ),
    )  # fmt: skip
    copy_rows(
        session,
        "plan_cables",
        CABLE_COPY_COLUMNS,
        (
            (plan_id, c.cable_id, seq, c.label, c.link_class.value,
             c.a_device, c.a_port, (ar := rack_of[c.a_device]), row_of_rack.get(ar, ""),
             c.b_device, c.b_port, (br := rack_of[c.b_device]), row_of_rack.get(br, ""),
             c.gbps, c.raw_mm, c.slack_mm, c.ordered_mm, c.medium.value, c.part_number,
             c.transceiver, c.latency_ns, c.unit_price)
            for seq, c in enumerate(plan.cables)
        ),
    )  # fmt: skip


def load_plan(session: Session, row: WiringPlanRow) -> WiringPlan:
    """Rebuild the domain plan from storage (for diffs and scenario export)."""
    devices = [
        Device(
            name=d.name, node_id=d.node_id, role=Role(d.role), rack=d.rack, u=d.u, model=d.model,
            logical_rack=d.logical_rack, cluster=d.cluster, loop=d.loop, loop_position=d.loop_position,
            x_mm=d.x_mm, y_mm=d.y_mm, z_mm=d.z_mm,
        )
        for d in session.execute(
            select(PlanDeviceRow).where(PlanDeviceRow.plan_id == row.id).order_by(PlanDeviceRow.node_id)
        ).scalars()
    ]  # fmt: skip
    cables = [
        Cable(
            c.cable_id, c.label, LinkClass(c.link_class), c.a_device, c.a_port, c.b_device, c.b_port, c.gbps,
            c.raw_mm, c.slack_mm, c.ordered_mm, Medium(c.medium), c.part_number, c.transceiver, c.latency_ns,
            c.unit_price,
        )
        for c in session.execute(
            select(PlanCableRow).where(PlanCableRow.plan_id == row.id).order_by(PlanCableRow.seq)
        ).scalars()
    ]  # fmt: skip
    request = PlanOptions.from_json(row.spec)
    loops = [Loop(lp["id"], tuple(lp["logical_racks"]), lp["subways_type"]) for lp in row.loops]
    return WiringPlan(
        hall=str(row.hall_id),
        spec=wiring_spec(request, dl.FabricSettings()),
        geometry=geometry_for(request),
        devices=devices,
        cables=cables,
        loops=loops,
        warnings=list(row.summary.get("warnings", [])),
        # a front-end plan's servers stay whole (its cables are the front-end NICs, no GPU's)
        gpu_servers=_gpu_servers(session, {d.model for d in devices if d.role is Role.SERVER})
        if request.fabric == "compute"
        else {},
    )


def _gpu_servers(session: Session, names: set[str]) -> dict[str, GpuServer]:
    """The plan's GPU server models by name (a plan stores its devices' model names): a global
    entry before a user's, as the catalog resolves a name."""
    found = session.execute(
        select(ServerModel)
        .where(ServerModel.name.in_(names), ServerModel.gpus > 0, ServerModel.gpu_interconnect_gbps.is_not(None))
        .order_by(ServerModel.owner_id.is_not(None), ServerModel.id)
    ).scalars()
    out: dict[str, GpuServer] = {}
    for m in found:
        if m.name not in out and m.gpu_interconnect_gbps is not None:
            out[m.name] = GpuServer(m.gpus, m.gpu_interconnect_gbps)
    return out
