"""Properties of the facility settings' write and read shapes: whatever subset is set, the read
gives exactly those values, the domain's defaults for the rest, and names the rest as defaults."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from loopline.api.schemas.facility import HallFacilityRead, HallFacilityUpdate, RackFacilityRead
from loopline.domain.facility.model import CoolingKind, Feed, HallFacility, RackFacility, TrayLevel
from loopline.services import facility

HALL_VALUES = {
    "floor_load_kg_m2": st.floats(1, 50_000),
    "hall_cooling_kw": st.floats(0, 10_000),
    "power_factor": st.floats(0.01, 1),
    "max_phase_imbalance_pct": st.floats(0, 100),
    "max_tray_fill_pct": st.floats(0.1, 100),
    "max_signal_tray_fill_pct": st.floats(0.1, 100),
    "tray_bend_radius_mm": st.floats(0, 500),
}
TRAY_VALUES = {"width_mm": st.integers(1, 2000), "usable_depth_mm": st.integers(1, 500),
               "load_kg_per_m": st.floats(1, 500)}  # fmt: skip


@st.composite
def hall_updates(draw: Any) -> dict[str, Any]:
    body = {k: draw(v) for k, v in HALL_VALUES.items() if draw(st.booleans())}
    trays = {
        level.value: {k: draw(v) for k, v in TRAY_VALUES.items() if draw(st.booleans())}
        for level in TrayLevel
        if draw(st.booleans())
    }
    if trays:
        body["trays"] = trays
    return body


@given(hall_updates())
def test_a_hall_reads_what_was_set_and_the_domains_defaults_for_the_rest(body: dict[str, Any]) -> None:
    columns = dict.fromkeys(facility.HALL_COLUMNS)
    columns.update(HallFacilityUpdate.model_validate(body).columns())
    read = HallFacilityRead.model_validate(facility.hall_settings(SimpleNamespace(**columns)))
    base = HallFacility()
    for name in HALL_VALUES:
        assert getattr(read, name) == body.get(name, getattr(base, name))
        assert (name in read.defaults) == (name not in body)
    for tray in read.trays:
        sent = body.get("trays", {}).get(tray.level.value, {})
        for name in TRAY_VALUES:
            assert getattr(tray, name) == sent.get(name, getattr(base.trays[tray.level], name))
            assert (f"trays.{tray.level.value}.{name}" in read.defaults) == (name not in sent)
            assert (name in tray.defaults) == (name not in sent)


FEED = st.fixed_dictionaries(
    {},
    optional={"voltage_v": st.floats(1, 480), "phases": st.sampled_from([1, 3]), "breaker_a": st.floats(1, 125)},
)


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "power_budget_kw": st.floats(0.1, 100),
            "cooling_kw": st.floats(0, 100),
            "cooling_kind": st.sampled_from(list(CoolingKind)),
            "static_load_kg": st.floats(1, 3000),
        },
    ),
    st.lists(FEED, max_size=2),
)
def test_a_rack_reads_what_was_set_and_the_domains_defaults_for_the_rest(
    stored: dict[str, Any], feeds: list[dict[str, Any]]
) -> None:
    rack = SimpleNamespace(**{k: stored.get(k) for k in facility.RACK_SETTINGS})
    rows = [
        SimpleNamespace(name="AB"[i], pdu_model_id=None, **{k: f.get(k) for k in facility.FEED_SETTINGS})
        for i, f in enumerate(feeds)
    ]
    settings = facility.rack_settings(rack, rows)
    read = RackFacilityRead.model_validate(settings)
    base = RackFacility()
    for name in facility.RACK_SETTINGS:
        assert getattr(read, name) == stored.get(name, getattr(base, name))
        assert (name in read.defaults) == (name not in stored)
    assert ("feeds" in read.defaults) == (not feeds)
    expected = [Feed("AB"[i], **f) for i, f in enumerate(feeds)] if feeds else list(base.feeds)
    assert [(f.name, f.voltage_v, f.phases, f.breaker_a) for f in read.feeds] == [
        (f.name, f.voltage_v, f.phases, f.breaker_a) for f in expected
    ]
    assert settings.domain({}) == RackFacility(
        feeds=tuple(expected), **{k: stored.get(k, getattr(base, k)) for k in facility.RACK_SETTINGS}
    )
