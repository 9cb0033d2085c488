"""Pricing a plan's materials (hand-derived totals), NICs, the price book CSV, and the diff's invariants."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from _wiring_helpers import hall
from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain.bom import Category, Materials, MediaClass, bom_csv, materials, price
from loopline.domain.errors import DomainError
from loopline.domain.media import DEFAULT_CURRENCY, default_price_book
from loopline.domain.price_book import PartCategory, PriceEntry, effective_book, parse_csv, to_csv
from loopline.domain.wiring import Pattern, WiringSpec, diff_cables, diff_plans, generate_plan


@dataclass(frozen=True)
class C:
    cable_id: str
    a_device: str
    a_port: str
    b_device: str
    b_port: str
    gbps: float = 25.0
    ordered_mm: int = 1000
    medium: str = "dac"
    part_number: str = "DAC-25G"
    transceiver: str | None = None


@dataclass(frozen=True)
class D:
    name: str
    role: str
    model: str


DEVICES = [D("S1", "server", "2x25G"), D("S2", "server", "2x25G"), D("T1", "tor", "ToR-X"), D("A1", "agg", "Agg-Y")]
CABLES = [
    C("c1", "S1", "p1", "T1", "e1"),  # DAC-25G 1 m: 22.50 + 4.50 x 1 = 27.00
    C("c2", "S2", "p1", "T1", "e2"),  # the same part and length
    C("c3", "S1", "p2", "T1", "e3", ordered_mm=2000),  # DAC-25G 2 m: 22.50 + 9.00 = 31.50
    # T1 -> A1: SR optics + OM4 fibre 10 m: fibre 8.00 + 0.80 x 10 = 16.00; XCVR-100G-SR 35 x 4 = 140.00 each
    C("c4", "T1", "u1", "A1", "e1", 100.0, 10_000, "fibre", "FIB-OM4", "XCVR-100G-SR"),
    # a parallel port at 10G on a 25G server model: S2 needs an added NIC-1x10G (50 + 50 = 100.00)
    C("c5", "S2", "p2", "T1", "e4", 10.0, 500, "dac", "DAC-10G"),  # DAC-10G 0.5 m: 15 + 3 x 0.5 = 16.50
]


def test_materials_and_hand_derived_default_prices() -> None:
    m = materials(CABLES, DEVICES, {"2x25G": 25.0})
    got = {(x.category, x.part_number, x.length_mm): x.quantity for x in m.lines}
    assert got == {
        (Category.CABLE, "DAC-10G", 500): 1,
        (Category.CABLE, "DAC-25G", 1000): 2,
        (Category.CABLE, "DAC-25G", 2000): 1,
        (Category.CABLE, "FIB-OM4", 10_000): 1,
        (Category.TRANSCEIVER, "XCVR-100G-SR", None): 2,
        (Category.SWITCH, "Agg-Y", None): 1,
        (Category.SWITCH, "ToR-X", None): 1,
        (Category.NIC, "NIC-1x10G", None): 1,
    }
    assert Materials.from_json(m.to_json()) == m
    bom = price(m, default_price_book())
    assert bom.currency == DEFAULT_CURRENCY and bom.price_book_version is None
    # cables: 16.50 + 2 x 27.00 + 31.50 + 16.00 = 118.00; transceivers 2 x 140 = 280; NIC 100
    assert bom.subtotal(Category.CABLE) == 118.0
    assert bom.subtotal(Category.TRANSCEIVER) == 280.0
    assert bom.subtotal(Category.NIC) == 100.0
    assert bom.subtotal(Category.SWITCH) == 0.0
    assert bom.media_subtotal(MediaClass.COPPER) == 102.0  # 16.50 + 54 + 31.50
    assert bom.media_subtotal(MediaClass.OPTICAL) == 296.0  # 16 + 280
    assert bom.total == 498.0
    # the two switch models have no default price: listed, warned, and the BOM says it is incomplete
    assert not bom.complete
    assert [x.part_number for x in bom.unpriced] == ["Agg-Y", "ToR-X"]
    assert bom.warnings == [
        "no price for switch 'Agg-Y': add it to the price book",
        "no price for switch 'ToR-X': add it to the price book",
    ]


def test_a_project_book_overrides_part_by_part_and_names_its_version() -> None:
    m = materials(CABLES, DEVICES, {"2x25G": 25.0})
    entries = [
        PriceEntry("ToR-X", PartCategory.SWITCH, 9000.0),
        PriceEntry("Agg-Y", PartCategory.SWITCH, 20000.0),
        PriceEntry("DAC-25G", PartCategory.CABLE, 10.0, 2.0),  # 1 m: 12, 2 m: 14
    ]
    bom = price(m, effective_book("USD", entries, 3))
    assert bom.complete and bom.price_book_version == 3
    # cables: 16.50 + 2 x 12 + 14 + 16 = 70.50; + 280 + 100 + 29,000
    assert bom.subtotal(Category.CABLE) == 70.5
    assert bom.total == 70.5 + 280 + 100 + 29_000
    sources = {(x.part_number, x.length_mm): x.price_source for x in bom.lines}
    assert sources[("DAC-25G", 1000)] == "project" and sources[("DAC-10G", 500)] == "default"


def test_a_book_in_another_currency_never_falls_back_on_default_prices() -> None:
    m = materials(CABLES, DEVICES, {"2x25G": 25.0})
    bom = price(m, effective_book("EUR", [PriceEntry("DAC-25G", PartCategory.CABLE, 10.0, 2.0)], 1))
    assert bom.currency == "EUR"
    assert {x.part_number for x in bom.lines if x.unit_price is not None} == {"DAC-25G"}
    assert bom.total == 2 * 12 + 14


def test_bom_csv_has_a_line_per_bom_line_and_marks_unpriced_ones() -> None:
    text = bom_csv(price(materials(CABLES, DEVICES, {"2x25G": 25.0})))
    lines = text.splitlines()
    assert (
        lines[0]
        == "category,part_number,description,length_m,media_class,quantity,unit_price,total,currency,price_source"
    )
    assert 'cable,DAC-25G,"25G SFP28 passive DAC, 1 m",1,copper,2,27.00,54.00,USD,default' in lines
    assert "switch,ToR-X,ToR-X,,,1,,,USD,unpriced" in lines
    assert len(lines) == 1 + 8


def test_price_book_csv_round_trips_and_names_the_bad_cell() -> None:
    entries = (
        PriceEntry("=cmd", PartCategory.OTHER, 1.0, 0.0, "@risky"),
        PriceEntry("DAC-25G", PartCategory.CABLE, 20.0, 4.0, "25G DAC, any length"),
    )
    text = to_csv("EUR", entries)
    assert "'=cmd" in text and "'@risky" in text  # spreadsheets show them as text
    assert parse_csv(text) == ("EUR", entries)
    bad = "part_number,category,description,base_price,per_metre,currency\nX,cable,,abc,0,EUR\n"
    with pytest.raises(DomainError) as e:
        parse_csv(bad)
    assert (e.value.field, e.value.reason) == ("csv.line 2.base_price", "must be a number, got 'abc'")
    mixed = "part_number,category,base_price,per_metre,currency\nX,cable,1,0,EUR\nY,cable,1,0,USD\n"
    with pytest.raises(DomainError, match="one currency per book") as e:
        parse_csv(mixed)
    assert e.value.field == "csv.line 3.currency"
    twice = "part_number,category,base_price,per_metre,currency\nX,cable,1,0,EUR\nX,nic,2,0,EUR\n"
    with pytest.raises(DomainError, match="priced on line 2 too"):
        parse_csv(twice)
    with pytest.raises(DomainError, match="must be a finite price"):
        parse_csv("part_number,category,base_price,per_metre,currency\nX,cable,-1,0,EUR\n")


# ---------------------------------------------------------------- the diff's invariants

_PORTS = st.tuples(st.sampled_from(["S1", "S2", "S3", "T1", "T2"]), st.sampled_from(["p1", "p2", "e1", "e2", "e3"]))


@st.composite
def plans(draw: st.DrawFn) -> list[C]:
    """A plan: cables between distinct ports, no port used twice, the ID a function of the ports."""
    pairs = draw(st.lists(st.tuples(_PORTS, _PORTS), max_size=12))
    used: set[tuple[str, str]] = set()
    out = []
    for a, b in pairs:
        if a == b or a in used or b in used:
            continue
        used |= {a, b}
        out.append(C(f"{a[0]}:{a[1]}~{b[0]}:{b[1]}", a[0], a[1], b[0], b[1]))
    return out


@given(plans(), plans())
def test_every_cable_of_both_plans_is_counted_once(old: list[C], new: list[C]) -> None:
    d = diff_cables(old, new, {}, {})
    assert len(d.kept) + len(d.moved) + len(d.removed) == len(old)
    assert len(d.kept) + len(d.moved) + len(d.added) == len(new)
    # no cable ID is in two statuses
    new_side = d.kept + d.added + [n for _, n in d.moved]
    old_side = d.kept + d.removed + [o for o, _ in d.moved]
    assert sorted(new_side) == sorted(c.cable_id for c in new)
    assert sorted(old_side) == sorted(c.cable_id for c in old)


_SPECS = st.builds(
    lambda pattern, ports: (pattern, ports),
    st.sampled_from(["single-homed", "side-to-side", "paired-row", "inter-chassis"]),
    st.integers(1, 3),
)


@settings(max_examples=15, deadline=None)
@given(_SPECS, _SPECS)
def test_generated_plan_pairs_count_every_cable_once(a: tuple[str, int], b: tuple[str, int]) -> None:
    h = hall(ports=3)
    old = generate_plan(h, WiringSpec(pattern=Pattern(a[0]), ports=a[1]))
    new = generate_plan(h, WiringSpec(pattern=Pattern(b[0]), ports=b[1]))
    d = diff_plans(old, new)
    assert len(d.kept) + len(d.moved) + len(d.removed) == len(old.cables)
    assert len(d.kept) + len(d.moved) + len(d.added) == len(new.cables)
    if a[0] == b[0] and a[0] != "single-homed" and a[1] <= b[1]:
        assert d.moved == [] and d.removed == []  # Subways p -> p+k moves nothing


def test_an_unreadable_csv_is_a_domain_error() -> None:
    huge = "part_number,category,base_price,per_metre,currency\n" + "X" * 200_000 + ",cable,1,0,EUR\n"
    with pytest.raises(DomainError, match="not a readable CSV file") as e:
        parse_csv(huge)
    assert e.value.field == "csv"
