"""A hall's facility settings as stored and in effect (`services.facility_plant` builds the `Plant`).

Settings are stored NULL when not set; every default is the domain's (`HallFacility()`,
`RackFacility()`, `Feed()`), filled in here. The `*Settings` records carry the effective values
and which of them are defaults (`defaults`: the names not set), so a reader can show
"230 V (default)".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, cast

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.orm import Session

from loopline.db.models import Hall, PduModel, Rack, RackFeed, Row, TrayRun
from loopline.db.models.layout import TRAY_LEVEL_COLUMNS
from loopline.domain.errors import DomainError, NotFound
from loopline.domain.facility.model import (
    CoolingKind,
    Feed,
    HallFacility,
    RackFacility,
    TrayLevel,
    TraySpec,
)
from loopline.domain.rack_planning import FeedSetting
from loopline.services.access import ProjectAccess
from loopline.services.layout_snapshot import FEED_COLS, get_hall_or_404, usable_in_project
from loopline.services.mutations import Target, audited_update

HALL_SETTINGS = (
    "floor_load_kg_m2",
    "hall_cooling_kw",
    "power_factor",
    "max_phase_imbalance_pct",
    "max_tray_fill_pct",
    "max_signal_tray_fill_pct",
    "tray_bend_radius_mm",
)
"""Hall columns named as the `HallFacility` fields they set."""
TRAY_FIELDS = ("width_mm", "usable_depth_mm", "load_kg_per_m")
RACK_SETTINGS = ("power_budget_kw", "cooling_kw", "cooling_kind", "static_load_kg")
"""Rack columns named as the `RackFacility` fields they set."""
FEED_SETTINGS = ("voltage_v", "phases", "breaker_a")


RACK_TABLE = cast(Table, Rack.__table__)
ROW_TABLE = cast(Table, Row.__table__)
"""Core tables, for executemany UPDATEs of settings (the ORM's bulk path would ask for versions)."""


def tray_column(level: TrayLevel, name: str) -> str:
    return f"{TRAY_LEVEL_COLUMNS[level]}_{name}"


HALL_COLUMNS = (*HALL_SETTINGS, *(tray_column(lv, f) for lv in TRAY_LEVEL_COLUMNS for f in TRAY_FIELDS))
"""Every stored facility column of a hall."""


@cache
def _defaults(cls: type[Any]) -> dict[str, Any]:
    """A domain dataclass's field defaults (`fields()` of an instance built with no arguments)."""
    instance = cls() if cls is not Feed else Feed("A")
    return {f.name: getattr(instance, f.name) for f in fields(instance)}


# ---------------------------------------------------------------- effective settings


@dataclass(frozen=True, slots=True)
class TraySettings:
    level: TrayLevel
    width_mm: int
    usable_depth_mm: int
    load_kg_per_m: float
    defaults: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HallSettings:
    """A hall's facility settings in effect (`facility`) and which are the domain's defaults."""

    facility: HallFacility
    defaults: tuple[str, ...]
    trays: tuple[TraySettings, ...]

    def __getattr__(self, name: str) -> Any:
        # Read schemas read the settings by name (`floor_load_kg_m2`, ...): the domain object's.
        return getattr(self.facility, name)


def hall_settings(
    hall: Any, row_cooling_kw: Mapping[str, float] | None = None, tray_runs: Mapping[str, TraySpec] | None = None
) -> HallSettings:
    """`hall`: anything with the stored facility columns (ORM row, Core row)."""
    stored = {k: getattr(hall, k) for k in HALL_SETTINGS}
    defaults = [k for k, v in stored.items() if v is None]
    base = HallFacility()
    trays: dict[TrayLevel, TraySpec] = {}
    tray_settings = []
    for level, spec in base.trays.items():
        values = {f: getattr(hall, tray_column(level, f)) for f in TRAY_FIELDS}
        unset = tuple(f for f, v in values.items() if v is None)
        trays[level] = TraySpec(**{f: getattr(spec, f) if v is None else v for f, v in values.items()})
        t = trays[level]
        tray_settings.append(TraySettings(level, t.width_mm, t.usable_depth_mm, t.load_kg_per_m, unset))
        defaults += [f"trays.{level.value}.{f}" for f in unset]
    facility = HallFacility(
        **{k: v for k, v in stored.items() if v is not None},
        row_cooling_kw=dict(row_cooling_kw or {}),
        trays=trays,
        tray_runs=dict(tray_runs or {}),
    )
    return HallSettings(facility, tuple(defaults), tuple(tray_settings))


@dataclass(frozen=True, slots=True)
class FeedSettings:
    name: str
    voltage_v: float
    phases: int
    breaker_a: float
    pdu_model_id: int | None
    defaults: tuple[str, ...]

    def domain(self, pdu_names: Mapping[int, str]) -> Feed:
        pdu = None if self.pdu_model_id is None else pdu_names.get(self.pdu_model_id)
        return Feed(self.name, self.voltage_v, self.phases, self.breaker_a, pdu)


def feed_settings(feed: Any) -> FeedSettings:
    """A stored feed (`FEED_COLS`) with the domain's defaults for what it leaves unset."""
    base = _defaults(Feed)
    values = {k: getattr(feed, k) for k in FEED_SETTINGS}
    effective = {k: base[k] if v is None else v for k, v in values.items()}
    return FeedSettings(
        name=feed.name,
        voltage_v=effective["voltage_v"],
        phases=effective["phases"],
        breaker_a=effective["breaker_a"],
        pdu_model_id=feed.pdu_model_id,
        defaults=tuple(k for k, v in values.items() if v is None),
    )


@cache
def default_feeds() -> tuple[FeedSettings, ...]:
    return tuple(
        FeedSettings(f.name, f.voltage_v, f.phases, f.breaker_a, None, FEED_SETTINGS) for f in RackFacility().feeds
    )


@dataclass(frozen=True, slots=True)
class RackSettings:
    power_budget_kw: float | None
    cooling_kw: float | None
    cooling_kind: CoolingKind
    static_load_kg: float | None
    feeds: tuple[FeedSettings, ...]
    defaults: tuple[str, ...]
    """Settings not set (`feeds` when the rack has no feeds of its own)."""

    def domain(self, pdu_names: Mapping[int, str]) -> RackFacility:
        return RackFacility(
            feeds=tuple(f.domain(pdu_names) for f in self.feeds),
            power_budget_kw=self.power_budget_kw,
            cooling_kw=self.cooling_kw,
            cooling_kind=self.cooling_kind,
            static_load_kg=self.static_load_kg,
        )


def rack_settings(rack: Any, feeds: Sequence[Any]) -> RackSettings:
    """`rack`: anything with the stored facility columns; `feeds`: its stored feeds (`FEED_COLS`)."""
    base = _defaults(RackFacility)
    stored = {k: getattr(rack, k) for k in RACK_SETTINGS}
    unset = [k for k, v in stored.items() if v is None]
    if not feeds:
        unset.append("feeds")
    return RackSettings(
        **{k: base[k] if v is None else v for k, v in stored.items()},
        feeds=tuple(feed_settings(f) for f in sorted(feeds, key=lambda f: f.name)) if feeds else default_feeds(),
        defaults=tuple(unset),
    )


ALL_RACK_SETTINGS = frozenset({*RACK_SETTINGS, "feeds"})


@cache
def default_rack_settings() -> RackSettings:
    """A rack that sets nothing: what every rack of a new hall reads."""
    base = _defaults(RackFacility)
    return RackSettings(
        **{k: base[k] for k in RACK_SETTINGS}, feeds=default_feeds(), defaults=(*RACK_SETTINGS, "feeds")
    )


@dataclass(frozen=True, slots=True)
class RowSettings:
    cooling_kw: float | None
    defaults: tuple[str, ...]


def row_settings(row: Any) -> RowSettings:
    return RowSettings(row.cooling_kw, () if row.cooling_kw is not None else ("cooling_kw",))


def settings_json(settings: Any) -> dict[str, Any]:
    """A settings record as the audit log keeps it (the API's shape)."""
    out: dict[str, Any] = {}
    for name in type(settings).__slots__:
        value = getattr(settings, name)
        if name == "facility":
            continue
        if isinstance(value, tuple) and value and hasattr(value[0], "__slots__"):
            value = [settings_json(v) for v in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    if isinstance(settings, HallSettings):
        out.update({k: getattr(settings.facility, k) for k in HALL_SETTINGS})
    return out


# ---------------------------------------------------------------- feeds


def load_feeds(session: Session, where: Any) -> dict[int, list[Any]]:
    """Stored feeds by rack id, for the racks `where` selects (one query)."""
    out: dict[int, list[Any]] = {}
    for f in session.execute(select(*FEED_COLS).where(where).order_by(RackFeed.rack_id, RackFeed.name)):
        out.setdefault(f.rack_id, []).append(f)
    return out


FeedSpec = FeedSetting
"""A feed as written: None leaves a setting to the domain's default (the rack planning's record, so a
feed written with a new rack and one written by PATCH are the same thing)."""


def check_feeds(session: Session, project_id: int, feeds: Sequence[FeedSpec], path: str = "facility.feeds") -> None:
    """One or two feeds, named "A"/"B" once each, PDUs the project's layouts may use."""
    check_feed_lists(session, project_id, [(path, feeds)])


def check_feed_lists(session: Session, project_id: int, lists: Sequence[tuple[str, Sequence[FeedSpec]]]) -> None:
    """`check_feeds` for many racks' feeds at once (a bulk create: one query for every PDU named);
    each list's errors name its `path`."""
    for path, feeds in lists:
        if not 1 <= len(feeds) <= 2:
            raise DomainError(path, f"a rack has one or two feeds (A/B), got {len(feeds)}")
        seen: set[str] = set()
        for i, f in enumerate(feeds):
            if f.name in seen:
                raise DomainError(f"{path}[{i}].name", f"two feeds named {f.name!r}: name them 'A' and 'B'")
            seen.add(f.name)
    wanted = {f.pdu_model_id for _, feeds in lists for f in feeds if f.pdu_model_id is not None}
    if not wanted:
        return
    usable = set(
        session.execute(
            select(PduModel.id).where(PduModel.id.in_(wanted), usable_in_project(PduModel, project_id))
        ).scalars()
    )
    for path, feeds in lists:
        for i, f in enumerate(feeds):
            if f.pdu_model_id is not None and f.pdu_model_id not in usable:
                raise DomainError(f"{path}[{i}].pdu_model_id", f"unknown PDU model {f.pdu_model_id}")


def replace_feeds(session: Session, hall_id: int, rack_id: int, feeds: Sequence[FeedSpec]) -> None:
    """The rack's feeds become `feeds` (empty: the domain's default feeds)."""
    session.execute(delete(RackFeed).where(RackFeed.rack_id == rack_id))
    insert_feeds(session, hall_id, {rack_id: feeds})


def insert_feeds(session: Session, hall_id: int, feeds: Mapping[int, Sequence[FeedSpec]]) -> None:
    rows = [
        {"hall_id": hall_id, "rack_id": rack_id, "name": f.name, "voltage_v": f.voltage_v, "phases": f.phases,
         "breaker_a": f.breaker_a, "pdu_model_id": f.pdu_model_id}
        for rack_id, specs in feeds.items()
        for f in specs
    ]  # fmt: skip
    if rows:
        session.execute(insert(RackFeed), rows)


def stored_feed_specs(feeds: Iterable[Any]) -> tuple[FeedSpec, ...]:
    """Stored feeds (`FEED_COLS`) as written, NULLs kept (a copy keeps the defaults defaults)."""
    return tuple(FeedSpec(f.name, f.voltage_v, f.phases, f.breaker_a, f.pdu_model_id) for f in feeds)


# ---------------------------------------------------------------- tray runs


def list_tray_runs(session: Session, hall_id: int) -> list[TrayRun]:
    return list(session.execute(select(TrayRun).where(TrayRun.hall_id == hall_id).order_by(TrayRun.name)).scalars())


def get_tray_run(session: Session, hall_id: int, name: str) -> TrayRun:
    run = session.execute(select(TrayRun).where(TrayRun.hall_id == hall_id, TrayRun.name == name)).scalar()
    if run is None:
        raise NotFound("name", f"tray run {name!r} not found in this hall")
    return run


def tray_runs_of(session: Session, hall_id: int) -> dict[str, TraySpec]:
    return {r.name: TraySpec(r.width_mm, r.usable_depth_mm, r.load_kg_per_m) for r in list_tray_runs(session, hall_id)}


def _tray_run_json(run: TrayRun | None) -> dict[str, Any] | None:
    if run is None:
        return None
    return {"name": run.name, "width_mm": run.width_mm, "usable_depth_mm": run.usable_depth_mm,
            "load_kg_per_m": run.load_kg_per_m}  # fmt: skip


def put_tray_run(
    session: Session, access: ProjectAccess, hall_id: int, name: str, spec: TraySpec, if_match: int
) -> tuple[TrayRun, Hall]:
    """Create or replace the hall's tray run `name`, under the hall's version (which it bumps)."""
    hall = get_hall_or_404(session, hall_id)
    existing = session.execute(select(TrayRun).where(TrayRun.hall_id == hall_id, TrayRun.name == name)).scalar()
    run = existing or TrayRun(hall_id=hall_id, name=name)
    before = _tray_run_json(existing)

    def change(_hall: Hall) -> None:
        run.width_mm, run.usable_depth_mm, run.load_kg_per_m = spec.width_mm, spec.usable_depth_mm, spec.load_kg_per_m
        if existing is None:
            session.add(run)

    calls: list[int] = []

    def snapshot(_hall: Hall) -> dict[str, Any]:
        calls.append(1)
        return {"hall_id": hall_id, "tray_run": before if len(calls) == 1 else _tray_run_json(run)}

    audited_update(
        session,
        hall,
        if_match,
        Target(access.principal, access.project_id, "tray_run", hall_id, f"hall {hall_id}"),
        snapshot=snapshot,
        change=change,
    )
    return run, hall


def delete_tray_run(session: Session, access: ProjectAccess, hall_id: int, name: str, if_match: int) -> Hall:
    """Remove the hall's tray run `name` (its segments take their level's tray again); bumps the hall's version."""
    hall = get_hall_or_404(session, hall_id)
    run = get_tray_run(session, hall_id, name)
    gone: list[bool] = []

    def change(_hall: Hall) -> None:
        session.delete(run)
        gone.append(True)

    audited_update(
        session,
        hall,
        if_match,
        Target(access.principal, access.project_id, "tray_run", hall_id, f"hall {hall_id}"),
        snapshot=lambda _h: {"hall_id": hall_id, "tray_run": None if gone else _tray_run_json(run)},
        change=change,
    )
    return hall
