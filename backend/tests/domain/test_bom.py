"""Bill of materials from a plan."""

from __future__ import annotations

import pytest
from _wiring_helpers import plan

from loopline.domain.bom import bill_of_materials
from loopline.domain.media import default_price_book
from loopline.domain.wiring import Pattern, summarize


def test_bom_counts_and_prices() -> None:
    p = plan(Pattern.SIDE_TO_SIDE, loop=8)
    s = summarize(p)
    bom = bill_of_materials(p)
    cables = [x for x in bom.lines if x.category == "cable"]
    assert sum(x.quantity for x in cables) == s.cables
    # quantities per part agree with the summary
    per_part: dict[str, int] = {}
    for x in cables:
        per_part[x.part_number] = per_part.get(x.part_number, 0) + x.quantity
    assert per_part == s.parts
    xcvr = {x.part_number: x.quantity for x in bom.lines if x.category == "transceiver"}
    assert xcvr == s.transceivers
    # a 1 m 25G DAC: 22.5 + 4.5 * 1
    dac1 = next(x for x in cables if x.part_number == "DAC-25G" and x.length_mm == 1000)
    assert (dac1.unit_price, dac1.price_source) == (27.0, "default")
    assert dac1.total == pytest.approx(27.0 * dac1.quantity)
    # cable + transceiver money equals what media selection paid for each cable (default book)
    priced = sum(x.total or 0 for x in bom.lines if x.category in ("cable", "transceiver"))
    assert priced == pytest.approx(sum(c.unit_price for c in p.cables))
    # switches are counted; unpriced ones are flagged
    tors = next(x for x in bom.lines if x.category == "switch" and "ToR" in x.part_number)
    assert tors.quantity == 16 and tors.unit_price is None
    assert any(w.startswith(f"no price for switch {tors.part_number!r}") for w in bom.warnings)
    assert not bom.complete and tors in bom.unpriced


def test_bom_project_prices() -> None:
    p = plan(Pattern.SINGLE_HOMED, ports=1)
    model = next(d.model for d in p.devices if d.role == "tor")
    book = default_price_book().with_overrides({model: (5000.0, 0.0), "DAC-25G": (10.0, 0.0)})
    bom = bill_of_materials(p, book)
    tor = next(x for x in bom.lines if x.part_number == model)
    assert (tor.unit_price, tor.price_source, tor.total) == (5000.0, "project", 5000.0 * 16)
    dac = next(x for x in bom.lines if x.part_number == "DAC-25G")
    assert (dac.unit_price, dac.price_source) == (10.0, "project")
    assert bom.to_json()["total"] == bom.total


def test_pdus_are_counted_one_per_feed_naming_a_model_and_priced_only_from_the_book() -> None:
    from loopline.domain.bom import Category, combine, pdu_materials, price
    from loopline.domain.facility.model import Feed
    from loopline.domain.media import Price, PriceBook

    feeds = [Feed("A", pdu="PDU-B"), Feed("B", pdu="PDU-A"), Feed("A"), Feed("B", pdu="PDU-B")]
    got = pdu_materials(feeds)
    assert [(x.category, x.part_number, x.quantity) for x in got.lines] == [
        (Category.PDU, "PDU-A", 1),
        (Category.PDU, "PDU-B", 2),
    ]
    bom = price(got)  # the default book prices no PDU: shown without a price, never a made-up one
    assert [(x.unit_price, x.total, x.description) for x in bom.lines] == [
        (None, None, "rack PDU PDU-A"),
        (None, None, "rack PDU PDU-B"),
    ]
    assert not bom.complete and bom.warnings == [
        "no price for pdu 'PDU-A': add it to the price book",
        "no price for pdu 'PDU-B': add it to the price book",
    ]
    book = PriceBook({"PDU-B": Price(612.5, source="project")}, version=3)
    bom = price(combine(got, pdu_materials([Feed("A", pdu="PDU-B")])), book)
    assert [(x.part_number, x.quantity, x.total) for x in bom.lines] == [("PDU-A", 1, None), ("PDU-B", 3, 1837.5)]
    assert bom.subtotal(Category.PDU) == 1837.5 and bom.cost_summary()["pdus"] == 1837.5
