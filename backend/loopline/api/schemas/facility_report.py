"""`GET /halls/{id}/facility`: what the facility checks find (issue 28), in the layout rules' issue shape."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from loopline.api.schemas.common import ReadSchema
from loopline.api.schemas.layout import IssueRead
from loopline.domain.facility.model import TrayLevel
from loopline.domain.units import m


def _metres(point: Any) -> list[float]:
    return [m(v) for v in point]


class FeedLoadRead(ReadSchema):
    feed: str = Field(description="`A` or `B`.")
    capacity_w: float = Field(description="V x A x phases x power factor, W.", examples=[7360])
    limit_w: float = Field(description="Capacity x the continuous fraction (80 %), W.", examples=[5888])
    load_w: float = Field(description="What this feed must carry (alone, for an A/B rack: the whole rack), W.")
    phase_w: list[float] = Field(description="Per phase, W (one entry for a single-phase feed).")


class RackLoadRead(ReadSchema):
    rack: str = Field(description="Rack name.", examples=["R01-01"])
    row: str = Field(description="Row name.", examples=["R01"])
    typical_w: float = Field(description="Typical draw of its devices and optics, W.")
    max_w: float = Field(description="Maximum draw of its devices and optics, W: what feeds and cooling must take.")
    budget_w: float | None = Field(description="The rack's power budget, W (null: none).")
    cooling_w: float | None = Field(description="The rack's own cooling, W (null: the row's or hall's applies).")
    weight_kg: float = Field(description="What it carries (devices, PDUs, the cables inside it), kg.")
    static_load_kg: float | None = Field(description="Its static load limit, kg (null: not known).")
    floor_kg_m2: float = Field(description="(Weight + the rack's own) over its footprint, kg/m².")
    feeds: list[FeedLoadRead] = Field(description="Each feed's load against its limit.")
    worst_pct: float = Field(description="The highest of its ratios (draw, feeds, heat, weight, floor), %.")
    worst: str = Field(description="Which ratio `worst_pct` is, in words.")


class TraySegmentRead(ReadSchema):
    name: str = Field(description="Run and segment, e.g. `T3-12`.", examples=["T3-12"])
    run: str = Field(description="The tray run.", examples=["T3"])
    level: TrayLevel = Field(description="Tray level.")
    start_m: list[float] = Field(description="x, y, z of one end, metres.")
    end_m: list[float] = Field(description="x, y, z of the other end, metres.")
    cables: int = Field(description="Cables routed through it.")
    fill_pct: float = Field(description="Sum of the cables' cross-sections over the usable cross-section, %.")
    limit_pct: float = Field(description="Its fill limit, %.")
    kg_per_m: float = Field(description="Weight of its cables per metre, kg/m.")
    load_kg_per_m: float = Field(description="The tray's rating, kg/m.")

    @model_validator(mode="before")
    @classmethod
    def _points_in_metres(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return data
        names = ("name", "run", "level", "cables", "fill_pct", "limit_pct", "kg_per_m", "load_kg_per_m")
        return {**{k: getattr(data, k) for k in names}, "start_m": _metres(data.start), "end_m": _metres(data.end)}


class FacilityTotalsRead(ReadSchema):
    typical_w: float = Field(description="IT power, typical, W.")
    max_w: float = Field(description="IT power at most, W.")
    heat_w: float = Field(description="Heat to remove (every watt drawn), W.")
    weight_kg: float = Field(description="What the racks carry, kg.")
    fullest_tray: str | None = Field(description="The fullest tray segment (null without a plan).")
    fullest_tray_pct: float = Field(description="Its fill, %.")
    incomplete: list[str] = Field(
        description="The totals above that leave something out because a catalog entry lacks a fact "
        "(`typical_w`, `max_w`, `heat_w`, `weight_kg`, `fullest_tray`): each is at least what it says; "
        "the report's `fact_missing` warnings name the entries.",
        examples=[["typical_w"]],
    )


class FacilityReportRead(ReadSchema):
    errors: list[IssueRead] = Field(description="Findings over a limit (a rack over its feeds, a tray overfull).")
    warnings: list[IssueRead] = Field(description="Findings worth a look (missing catalog facts, airflow).")
    racks: list[RackLoadRead] = Field(description="Every rack's loads against its limits.")
    trays: list[TraySegmentRead] = Field(description="Tray segments that carry at least one cable.")
    totals: FacilityTotalsRead = Field(description="The hall's totals.")

    @model_validator(mode="before")
    @classmethod
    def _split_issues(cls, data: Any) -> Any:
        # The layout rules' shape: errors apart from warnings, each naming its field.
        if isinstance(data, dict):
            return data
        return {
            "errors": [i for i in data.issues if i.severity == "error"],
            "warnings": [i for i in data.issues if i.severity != "error"],
            "racks": data.racks,
            "trays": data.trays,
            "totals": data.totals,
        }
