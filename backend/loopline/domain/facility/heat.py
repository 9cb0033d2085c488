"""Heat and airflow (DESIGN §6): every watt a rack draws becomes heat.

- A rack with cooling of its own (rear door, liquid, in-rack) must take its whole maximum draw.
- Rows and the hall: a row named in `HallFacility.row_cooling_kw` has that cooling; the rows not
  named share `hall_cooling_kw`. Each takes the heat its racks' own cooling leaves to the room
  (a rack's draw beyond its own cooling, all of it for a rack without).
- Airflow: a row's intake side is its front when its front faces a cold aisle or its back a hot
  one (`layout_rules.derive_aisles`); its devices must then blow front-to-rear. A rear-to-front or
  side-blowing device is named (rack, model, U). Where no aisle says which side is cold (a lone
  row, a mixed aisle, which the layout rules already warn about) airflow is not judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from loopline.domain.facility.devices import DeviceGroup, u_ranges
from loopline.domain.facility.facts import MissingFacts
from loopline.domain.facility.model import Airflow, HallFacility
from loopline.domain.facility.power import kw
from loopline.domain.layout import Hall, Row
from loopline.domain.layout_rules import Aisle, AisleKind, Issue, Severity, derive_aisles

AIRFLOW_CHECK = "airflow"


def check_rack_cooling(path: str, rack_name: str, cooling_w: float | None, max_w: float) -> list[Issue]:
    if cooling_w is None or max_w <= cooling_w:
        return []
    return [
        Issue(
            Severity.ERROR,
            "rack_cooling",
            f"{path}.cooling_kw",
            f"rack {rack_name!r} turns up to {kw(max_w)} kW into heat, over its own cooling of {kw(cooling_w)} kW "
            f"({max_w / cooling_w * 100:.0f} %)",
        )
    ]


def left_to_room_w(max_w: float, cooling_w: float | None) -> float:
    """The heat a rack's own cooling does not take."""
    return max_w if cooling_w is None else max(0.0, max_w - cooling_w)


def check_room_cooling(facility: HallFacility, heat_by_row: dict[str, float]) -> list[Issue]:
    """`heat_by_row`: row name -> the heat its racks leave to the room (W), in the hall's row order."""
    issues: list[Issue] = []
    shared = 0.0
    shared_rows: list[str] = []
    for row, heat in heat_by_row.items():
        cooling_kw = facility.row_cooling_kw.get(row)
        if cooling_kw is None:
            shared += heat
            shared_rows.append(row)
        elif heat > cooling_kw * 1000:
            issues.append(
                Issue(
                    Severity.ERROR,
                    "row_cooling",
                    f"rows[{row}]",
                    f"row {row!r} puts up to {kw(heat)} kW of heat into the room, over its cooling of "
                    f"{cooling_kw:g} kW ({heat / (cooling_kw * 1000) * 100:.0f} %)",
                )
            )
    if facility.hall_cooling_kw is not None and shared > facility.hall_cooling_kw * 1000:
        rows = "every row" if len(shared_rows) == len(heat_by_row) else f"rows {', '.join(shared_rows)}"
        issues.append(
            Issue(
                Severity.ERROR,
                "hall_cooling",
                "hall_cooling_kw",
                f"{rows} of the hall put up to {kw(shared)} kW of heat into the room, over the hall's cooling of "
                f"{facility.hall_cooling_kw:g} kW ({shared / (facility.hall_cooling_kw * 1000) * 100:.0f} %)",
            )
        )
    return issues


@dataclass(frozen=True, slots=True)
class Intake:
    """Why a row's front is its intake side."""

    aisle: Aisle
    front_faces_it: bool


def _faces(row: Row, aisle: Aisle) -> bool:
    """Whether the row's fronts look into the aisle's strip."""
    x0, y0, x1, y1 = row.row_footprint()
    fx, fy = row.facing()
    cx, cy = (aisle.x0_mm + aisle.x1_mm) / 2 - (x0 + x1) / 2, (aisle.y0_mm + aisle.y1_mm) / 2 - (y0 + y1) / 2
    return fx * cx + fy * cy > 0


def intakes(hall: Hall) -> dict[str, Intake]:
    """Row name -> the aisle that makes its front the intake side (rows where one does)."""
    out: dict[str, Intake] = {}
    rows = {row.name: row for row in hall.rows}
    for aisle in derive_aisles(hall):
        for name in (aisle.row_a, aisle.row_b):
            front = _faces(rows[name], aisle)
            if (front and aisle.kind is AisleKind.COLD) or (not front and aisle.kind is AisleKind.HOT):
                out.setdefault(name, Intake(aisle, front))
    return out


def check_airflow(
    path: str, rack_name: str, row: Row, intake: Intake | None, groups: list[DeviceGroup], missing: MissingFacts
) -> list[Issue]:
    if intake is None:
        return []
    a = intake.aisle
    why = (
        f"row {row.name!r} fronts the cold aisle between rows {a.row_a} and {a.row_b}"
        if intake.front_faces_it
        else f"row {row.name!r} backs onto the hot aisle between rows {a.row_a} and {a.row_b}"
    )
    issues: list[Issue] = []
    for g in groups:
        airflow = g.facts.airflow
        if airflow is None:
            missing.note(g.kind, g.model, "airflow", AIRFLOW_CHECK, g.count, g.noun)
            continue
        if airflow is Airflow.FRONT_TO_REAR:
            continue
        where = f"{g.describe()} of model {g.model!r} at {u_ranges(g.units, g.height_u)} of rack {rack_name!r}"
        if airflow is Airflow.REAR_TO_FRONT:
            issues.append(
                Issue(
                    Severity.WARNING,
                    "airflow_against_aisle",
                    f"{path}.{g.path}",
                    f"{where} blow{'s' if g.count == 1 else ''} rear-to-front, but {why}: "
                    "they take in hot exhaust and blow into the cold aisle",
                )
            )
        else:
            issues.append(
                Issue(
                    Severity.WARNING,
                    "airflow_side",
                    f"{path}.{g.path}",
                    f"{where} blow{'s' if g.count == 1 else ''} side to side, but {why} and expects "
                    "front-to-rear: the neighbours' exhaust or intake is in the way",
                )
            )
    return issues
