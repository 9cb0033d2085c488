"""The builtin catalog's facts: every builtin has an entry, every figure a source, spot checks
against the datasheet figures the sources name."""

from __future__ import annotations

import math

import pytest

from loopline.domain.facility import catalog_facts as cf
from loopline.domain.facility.model import Airflow, DeviceFacts
from loopline.services.catalog import BUILTIN_SWITCH_MODELS


def _figures(f: DeviceFacts) -> list[float]:
    return [x for x in (f.typical_w, f.max_w, f.weight_kg) if x is not None]


def test_every_builtin_switch_has_facts() -> None:
    assert {m["name"] for m in BUILTIN_SWITCH_MODELS} <= set(cf.SWITCH_FACTS)


@pytest.mark.parametrize("table", ["SWITCH_FACTS", "SERVER_FACTS"])
def test_device_figures_are_positive_and_sourced(table: str) -> None:
    facts: dict[str, DeviceFacts] = getattr(cf, table)
    for name, f in facts.items():
        figures = _figures(f)
        assert all(math.isfinite(x) and x > 0 for x in figures), name
        if figures or f.airflow is not None:
            assert f.source.strip(), f"{name} has figures but no source"
        if f.typical_w is not None and f.max_w is not None:
            assert f.typical_w <= f.max_w, name


def test_pounds_are_converted_exactly() -> None:
    assert cf.LB_KG == 0.45359237
    # Arista DCS-7050SX-72Q-F: 17.3 lb -> 7.847 kg; DCS-7260CX3-64-F: 34 lb -> 15.422 kg.
    assert cf.SWITCH_FACTS["48x10G+6x40G ToR"].weight_kg == 7.847
    assert cf.SWITCH_FACTS["64x100G spine"].weight_kg == 15.422


def test_switch_spot_checks_match_the_cited_figures() -> None:
    tor = cf.SWITCH_FACTS["48x25G+8x100G ToR"]
    assert (tor.typical_w, tor.max_w) == (310.0, 647.0)
    assert "S5248F-ON" in tor.source
    spine = cf.SWITCH_FACTS["64x100G spine"]
    assert (spine.typical_w, spine.max_w, spine.airflow) == (314.0, 616.0, Airflow.FRONT_TO_REAR)
    assert "DCS-7260CX3-64" in spine.source
    agg = cf.SWITCH_FACTS["32x100G+32x100G aggregation"]
    assert (agg.max_w, agg.weight_kg) == (965.0, 22.2)
