"""Media selection (DESIGN §3.4) with the default catalog and price book.

Default 25G prices (speed factor f = 1.5): DAC 22.5 + 4.5/m; ACC 60 + 6/m; AOC 90 + 3/m;
SR optic 52.5 each + OM4 fibre 8 + 0.8/m.
"""

from __future__ import annotations

import pytest

from loopline.domain.errors import DomainError
from loopline.domain.media import (
    RS_FEC_NS,
    MediaOption,
    MediaSelector,
    Medium,
    default_catalog,
    default_price_book,
)


def test_passive_dac_within_reach() -> None:
    c = MediaSelector().require(25.0, 2900, "x")
    assert (c.option.part_number, c.option.medium, c.ordered_mm) == ("DAC-25G", Medium.DAC, 3000)
    assert c.unit_price == pytest.approx(22.5 + 4.5 * 3)
    assert c.option.extra_latency_ns == 0


def test_25g_dac_beyond_3m_needs_rs_fec() -> None:
    c = MediaSelector().require(25.0, 4500, "x")
    assert (c.option.part_number, c.ordered_mm, c.option.extra_latency_ns) == ("DAC-25G-RSFEC", 5000, RS_FEC_NS)


def test_active_copper_up_to_7m() -> None:
    c = MediaSelector().require(25.0, 6000, "x")
    assert (c.option.medium, c.ordered_mm) == (Medium.ACC, 7000)
    c = MediaSelector().require(400.0, 6000, "x")
    assert c.option.medium is Medium.AEC


def test_aoc_or_optics_beyond() -> None:
    # 7.5 m: AOC 10 m = 90 + 30 = 120 < optics 2 * 52.5 + 8 + 8 = 121
    c = MediaSelector().require(25.0, 7500, "x")
    assert (c.option.medium, c.ordered_mm) == (Medium.AOC, 10000)
    # 12 m: AOC 15 m = 90 + 45 = 135 > optics 105 + 8 + 12 = 125
    c = MediaSelector().require(25.0, 12000, "x")
    assert (c.option.medium, c.ordered_mm, c.option.transceiver) == (Medium.FIBRE, 15000, "XCVR-25G-SR")
    assert c.unit_price == pytest.approx(125.0)
    # 150 m at 100G: beyond SR (100 m); DR optics over OS2
    c = MediaSelector().require(100.0, 150_000, "x")
    assert c.option.transceiver == "XCVR-100G-DR"


def test_unreachable_link_names_the_cable() -> None:
    with pytest.raises(DomainError, match=r"no medium reaches 20000\.0 m at 25 Gb/s") as e:
        MediaSelector().require(25.0, 20_000_000, "H1.R01.K01.U01:p1 / H1.R09.N01.U01:e1")
    assert e.value.field == "cables.H1.R01.K01.U01:p1 / H1.R09.N01.U01:e1"
    with pytest.raises(DomainError, match="no medium in the catalog for 33 Gb/s"):
        MediaSelector().require(33.0, 1000, "x")


def test_project_prices_and_catalog_override() -> None:
    prices = default_price_book().with_overrides({"ACC-25G": (1.0, 0.0)})
    assert prices.price("ACC-25G").source == "project"
    assert prices.price("DAC-25G").source == "default"
    c = MediaSelector(prices=prices).require(25.0, 900, "x")
    assert (c.option.part_number, c.ordered_mm) == ("ACC-25G", 1000)
    # a vendor whose 25G DAC is sold up to 7 m
    cat = default_catalog().with_options(
        [MediaOption("DAC-25G", Medium.DAC, 25.0, 7000, (1000, 3000, 5000, 7000), "vendor DAC")]
    )
    c = MediaSelector(cat).require(25.0, 6500, "x")
    assert (c.option.part_number, c.ordered_mm) == ("DAC-25G", 7000)
    with pytest.raises(DomainError, match="ascending"):
        default_catalog().with_options([MediaOption("X", Medium.DAC, 25.0, 7000, (3000, 1000))])


def test_no_rounding_keeps_the_length() -> None:
    c = MediaSelector(round_to_sold=False).require(25.0, 1234, "x")
    assert (c.option.part_number, c.ordered_mm) == ("DAC-25G", 1234)
