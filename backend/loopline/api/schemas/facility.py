"""The facility settings of halls, rows and racks (feeds, cooling, load limits, trays), tray runs,
and the facility report (issue 28).

Writes: a setting sent as null goes back to the domain's default; one not sent stays. Reads: the
value in effect, and `defaults` naming the settings that are the domain's defaults (not set), so
the editor can show "230 V (default)". Tray sizes are millimetres (a tray's cross-section is
compared with cables' diameters in mm), power in W or kW as named, weights in kg.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from loopline.api.schemas.common import MAX_ID, ReadSchema, Schema
from loopline.domain import rack_planning as rp
from loopline.domain.facility.model import CoolingKind, TrayLevel, TraySpec
from loopline.services import facility

MAX_KW = 10_000.0
MAX_KG = 100_000.0
MAX_TRAY_MM = 5_000


# ---------------------------------------------------------------- hall


class TrayUpdate(Schema):
    width_mm: int | None = Field(None, gt=0, le=MAX_TRAY_MM, description="Tray width, mm; null: the default.")
    usable_depth_mm: int | None = Field(
        None, gt=0, le=MAX_TRAY_MM, description="Usable depth (the fill height), mm; null: the default."
    )
    load_kg_per_m: float | None = Field(
        None, gt=0, le=MAX_KG, description="Load rating, kg per metre of tray; null: the default."
    )


class HallFacilityUpdate(Schema):
    floor_load_kg_m2: float | None = Field(
        None, gt=0, le=MAX_KG, description="Floor load rating, kg/m²; null: the default.", examples=[1200]
    )
    hall_cooling_kw: float | None = Field(
        None, ge=0, le=MAX_KW * 100, description="Cooling of the rows without their own, kW; null: none stated."
    )
    power_factor: float | None = Field(
        None, gt=0, le=1, description="Power factor of every feed, in (0, 1]; null: the default.", examples=[0.95]
    )
    max_phase_imbalance_pct: float | None = Field(
        None, ge=0, le=100, description="Largest phase imbalance of a 3-phase feed, %; null: the default."
    )
    max_tray_fill_pct: float | None = Field(
        None, gt=0, le=100, description="Tray fill limit, % of the usable cross-section, in (0, 100]; null: default."
    )
    max_signal_tray_fill_pct: float | None = Field(
        None, gt=0, le=100, description="Fill limit of a tray of data cables only, %, in (0, 100]; null: default."
    )
    tray_bend_radius_mm: float | None = Field(
        None, ge=0, le=MAX_TRAY_MM, description="Inside radius of the trays' corners and waterfalls, mm; null: default."
    )
    trays: dict[TrayLevel, TrayUpdate | None] | None = Field(
        None, description="The tray of each level (`above-racks`, `cross-aisle`, `under-floor`); null: the defaults."
    )

    def columns(self) -> dict[str, Any]:
        """The settings sent, as stored columns (None: back to the default)."""
        out: dict[str, Any] = {}
        sent = self.model_dump(exclude_unset=True)
        for key in facility.HALL_SETTINGS:
            if key in sent:
                out[key] = sent[key]
        if "trays" in sent:
            levels: list[TrayLevel] = [*TrayLevel] if self.trays is None else [*self.trays]
            for level in levels:
                tray = None if self.trays is None else self.trays[level]
                given = {} if tray is None else tray.model_dump(exclude_unset=True)
                for name in facility.TRAY_FIELDS:
                    if tray is None or name in given:
                        out[facility.tray_column(level, name)] = given.get(name)
        return out


class TrayRead(ReadSchema):
    level: TrayLevel = Field(description="Tray level.")
    width_mm: int = Field(description="Width, mm.", examples=[300])
    usable_depth_mm: int = Field(description="Usable depth, mm.", examples=[100])
    load_kg_per_m: float = Field(description="Load rating, kg/m.", examples=[75])
    defaults: list[str] = Field(description="The fields that are the default (not set).")


class HallFacilityRead(ReadSchema):
    floor_load_kg_m2: float = Field(description="Floor load rating, kg/m².", examples=[1200])
    hall_cooling_kw: float | None = Field(description="Cooling of the rows without their own, kW (null: none stated).")
    power_factor: float = Field(description="Power factor of every feed.", examples=[1.0])
    continuous_fraction: float = Field(
        description="Continuous load as a fraction of a feed's capacity (fixed: 80 %).", examples=[0.8]
    )
    max_phase_imbalance_pct: float = Field(description="Largest phase imbalance, %.", examples=[10])
    max_tray_fill_pct: float = Field(description="Tray fill limit, %.", examples=[40])
    max_signal_tray_fill_pct: float = Field(description="Fill limit of a data-only tray, %.", examples=[50])
    tray_bend_radius_mm: float = Field(description="Inside radius of the trays' corners, mm.", examples=[50])
    trays: list[TrayRead] = Field(description="The tray of each level.")
    defaults: list[str] = Field(
        description="Settings that are the default (not set), e.g. `power_factor`, `trays.above-racks.width_mm`."
    )


# ---------------------------------------------------------------- row


class RowFacilityUpdate(Schema):
    cooling_kw: float | None = Field(
        None, ge=0, le=MAX_KW * 10, description="The row's own cooling, kW; null: it shares the hall's."
    )


class RowFacilityRead(ReadSchema):
    cooling_kw: float | None = Field(description="The row's own cooling, kW; null: it shares the hall's.")
    defaults: list[str] = Field(description="Settings not set.")


# ---------------------------------------------------------------- rack


class FeedIn(Schema):
    name: Literal["A", "B"] = Field(description="Feed name: `A` or `B`.")
    voltage_v: float | None = Field(
        None, gt=0, le=1000, description="Line-to-neutral voltage, V; null: the default.", examples=[230]
    )
    phases: Literal[1, 3] | None = Field(None, description="1 or 3; null: the default.", examples=[1])
    breaker_a: float | None = Field(None, gt=0, le=10_000, description="Breaker, A; null: the default.", examples=[32])
    pdu_model_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="Catalog PDU model (its weight counts on the rack); null: none."
    )

    def to_spec(self) -> facility.FeedSpec:
        return facility.FeedSpec(self.name, self.voltage_v, self.phases, self.breaker_a, self.pdu_model_id)


class RackFacilityUpdate(Schema):
    power_budget_kw: float | None = Field(
        None, gt=0, le=MAX_KW, description="The rack's power budget, kW; null: none beyond its feeds."
    )
    cooling_kw: float | None = Field(
        None, ge=0, le=MAX_KW, description="The rack's own cooling, kW; null: the row's or hall's."
    )
    cooling_kind: CoolingKind | None = Field(None, description="`air`, `rear-door` or `liquid`; null: the default.")
    static_load_kg: float | None = Field(
        None, gt=0, le=MAX_KG, description="Static load limit, kg; null: the rack type's rating."
    )
    feeds: list[FeedIn] | None = Field(
        None,
        min_length=1,
        max_length=2,
        description="The rack's feeds, replacing its list: one, or two named `A` and `B` (each alone carries the "
        "whole rack); null: the default feeds.",
    )

    @field_validator("feeds")
    @classmethod
    def _names_once(cls, feeds: list[FeedIn] | None) -> list[FeedIn] | None:
        names = [f.name for f in feeds or ()]
        for name in sorted(set(names)):
            if names.count(name) > 1:
                raise ValueError(f"two feeds named {name!r}: name them 'A' and 'B'")
        return feeds

    def changes(self) -> dict[str, Any]:
        """The settings sent (None: back to the default); `feeds` as specs (empty: the default feeds)."""
        sent = self.model_dump(exclude_unset=True)
        out = {k: sent[k] for k in facility.RACK_SETTINGS if k in sent}
        if "feeds" in sent:
            out["feeds"] = tuple(f.to_spec() for f in self.feeds or ())
        return out

    def to_domain(self) -> rp.RackFacilitySetting:
        """The settings of a new rack (not sent and null alike: the domain's default)."""
        return rp.RackFacilitySetting(
            power_budget_kw=self.power_budget_kw,
            cooling_kw=self.cooling_kw,
            cooling_kind=self.cooling_kind,
            static_load_kg=self.static_load_kg,
            feeds=tuple(f.to_spec() for f in self.feeds or ()),
        )


class FeedRead(ReadSchema):
    name: str = Field(description="`A` or `B`.")
    voltage_v: float = Field(description="Line-to-neutral voltage, V.", examples=[230])
    phases: int = Field(description="1 or 3.", examples=[1])
    breaker_a: float = Field(description="Breaker, A.", examples=[32])
    pdu_model_id: int | None = Field(description="Catalog PDU model; null: none.")
    defaults: list[str] = Field(description="The fields that are the default (not set).")


class RackFacilityRead(ReadSchema):
    power_budget_kw: float | None = Field(description="Power budget, kW (null: none beyond its feeds).")
    cooling_kw: float | None = Field(description="Own cooling, kW (null: the row's or hall's).")
    cooling_kind: CoolingKind = Field(description="`air`, `rear-door` or `liquid`.")
    static_load_kg: float | None = Field(description="Static load limit, kg (null: the rack type's rating).")
    feeds: list[FeedRead] = Field(description="Feeds in effect (the default A/B feeds when none are set).")
    defaults: list[str] = Field(description="Settings not set (`feeds`: the rack has the default feeds).")


# ---------------------------------------------------------------- tray runs


TRAY_RUN_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,49}$"


class TrayRunPut(Schema):
    width_mm: int = Field(gt=0, le=MAX_TRAY_MM, description="Tray width, mm.", examples=[600])
    usable_depth_mm: int = Field(gt=0, le=MAX_TRAY_MM, description="Usable depth, mm.", examples=[100])
    load_kg_per_m: float = Field(gt=0, le=MAX_KG, description="Load rating, kg/m.", examples=[120])

    def to_domain(self) -> TraySpec:
        return TraySpec(self.width_mm, self.usable_depth_mm, self.load_kg_per_m)


class TrayRunRead(ReadSchema):
    name: str = Field(description="Run name, e.g. `T3`.", examples=["T3"])
    width_mm: int = Field(description="Tray width, mm.", examples=[600])
    usable_depth_mm: int = Field(description="Usable depth, mm.", examples=[100])
    load_kg_per_m: float = Field(description="Load rating, kg/m.", examples=[120])
