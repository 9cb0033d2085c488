"""Pure export helpers: NetBox's number and slug rules, Excel's sheet-title rules, text that fits
its box, and streams that give their first bytes long before their last row is read."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator, Sequence
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook
from reportlab.pdfbase.pdfmetrics import stringWidth

from loopline.domain import netbox
from loopline.domain.errors import DomainError
from loopline.domain.exports import SheetCable, csv_chunks, netbox_length, to_csv
from loopline.domain.media import Medium
from loopline.domain.print_sheets import AVERY_L7160, LABEL_PAD, QR_SIZE, fit, label_texts
from loopline.domain.workbook import SheetLayout, sheet_title, workbook_stream, zip_stream

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")  # django.core.validators.validate_slug, as NetBox's SlugField
printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=120)


@given(st.integers(min_value=0, max_value=999_999_990))
def test_netbox_length_has_two_decimals_and_never_shortens(mm: int) -> None:
    # netbox/dcim/models/cables.py: Cable.length = DecimalField(max_digits=8, decimal_places=2)
    text = netbox_length(mm)
    value = Decimal(text)
    assert re.fullmatch(r"\d{1,6}\.\d{2}", text)
    assert value * 1000 >= mm > value * 1000 - 10


def test_netbox_length_examples() -> None:
    assert [netbox_length(x) for x in (0, 1500, 1501, 1509, 1510, 30_000)] == [
        "0.00", "1.50", "1.51", "1.51", "1.51", "30.00",
    ]  # fmt: skip


@given(printable)
def test_slugs_are_what_netbox_accepts(text: str) -> None:
    slug = netbox.slugify(text)
    assert SLUG.match(slug) and len(slug) <= netbox.SLUG_MAX and slug == slug.lower()


def test_device_type_slugs_stay_unique_when_names_slugify_alike() -> None:
    slugs = netbox.device_type_slugs(["48x25G+8x100G ToR", "48x25G 8x100G ToR", "48x25g-8x100g-tor"])
    assert len(set(slugs.values())) == 3 and all(SLUG.match(s) for s in slugs.values())
    # Sorted by model, so the same models get the same slugs in a first import and an upgrade.
    assert slugs == {"48x25G 8x100G ToR": "48x25g-8x100g-tor", "48x25G+8x100G ToR": "48x25g-8x100g-tor-2",
                     "48x25g-8x100g-tor": "48x25g-8x100g-tor-3"}  # fmt: skip


@given(st.lists(printable, max_size=8))
def test_sheet_titles_follow_excel_rules(names: list[str]) -> None:
    taken: set[str] = set()
    titles = [sheet_title(n, taken) for n in names]
    assert len({t.lower() for t in titles}) == len(titles)
    for t in titles:
        assert 1 <= len(t) <= 31 and not set(t) & set("[]:*?/\\") and not t.startswith("'")


@given(printable, st.floats(min_value=20, max_value=300))
def test_fitted_text_is_never_wider_than_its_box(text: str, width: float) -> None:
    fitted, size = fit(text, "Helvetica", 9, width)
    assert stringWidth(fitted, "Helvetica", size) <= width + 1e-6
    assert fitted == text or fitted.endswith("\u2026")


def _cable(label: str) -> SheetCable:
    return SheetCable(
        "C0123456789abcdef", label, "H1.R01.K01.U05", "p1", "R01", "H1.R01.K01", "H1.R01.K01.U20", "e3", "R01",
        "H1.R01.K01", 25.0, Medium.DAC, "SFP28-DAC-1.5M", None, 1200, 1400, 1500,
    )  # fmt: skip


@given(printable, printable)
def test_label_text_fits_right_of_the_qr_code(a: str, b: str) -> None:
    grid = AVERY_L7160
    x, y = grid.origin(4)
    for t in label_texts(_cable(f"{a} / {b}"), "A", x, y, grid):
        assert t.x >= x + LABEL_PAD + QR_SIZE
        assert t.x + stringWidth(t.text, t.font, t.size) <= x + grid.label_w - LABEL_PAD + 1e-6
        assert y + LABEL_PAD <= t.y <= y + grid.label_h - LABEL_PAD


def test_csv_chunks_are_the_csv_in_batches() -> None:
    rows = [(i, f"name{i}", "=x" if i == 3 else "ok") for i in range(25)]
    chunks = list(csv_chunks(("n", "name", "v"), rows, batch=10))
    assert len(chunks) == 3 and "".join(chunks) == to_csv(("n", "name", "v"), rows)
    assert "'=x" in chunks[0]


class Counting:
    """Rows that count how many have been read."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.read = 0

    def __iter__(self) -> Iterator[Sequence[object]]:
        for i in range(self.n):
            self.read += 1
            yield (f"C{i:016x}", f"H1.R01.K{i % 40:02d}.U{i % 42:02d}:p1 / H1.R01.K01.U20:e{i % 48}", i / 7)


def test_a_workbook_streams_its_first_bytes_after_a_fraction_of_its_rows() -> None:
    rows = Counting(60_000)
    layout = SheetLayout(columns=("cable_id", "label", "length_m"), widths=(19, 40, 10), number_format={2: "0.000"})
    stream = workbook_stream([("R01", rows)], layout)
    first = next(p for p in stream if p)
    assert first.startswith(b"PK\x03\x04") and rows.read < rows.n // 4, rows.read
    body = first + b"".join(stream)
    book = load_workbook(io.BytesIO(body), read_only=True)
    assert sum(1 for _ in book["R01"].iter_rows()) == rows.n + 1


def test_a_zip_streams_its_first_bytes_after_a_fraction_of_its_content() -> None:
    rows = Counting(60_000)
    stream = zip_stream([("a.csv", (to_csv(("id", "label", "m"), [r]).encode() for r in rows))])
    first = next(p for p in stream if p)
    assert rows.read < rows.n // 4, rows.read
    with zipfile.ZipFile(io.BytesIO(first + b"".join(stream))) as z:
        assert z.read("a.csv").count(b"\n") == 2 * rows.n


def test_a_device_name_netbox_would_refuse_names_the_field() -> None:
    ok = netbox.NetboxDevice("H1.R01.K01.U05", "server", "H1.R01.K01", 5, "2x25G server", "front")
    row = next(netbox.device_rows("S1", [ok], {"H1.R01.K01": "H1.R01"}))
    assert (row[6], row[7], row[8]) == ("H1.R01", "H1.R01.K01", 5)  # location, rack, position
    long = netbox.NetboxDevice("H" * 61 + ".U05", "server", "H1.R01.K01", 5, "2x25G server", "front")
    with pytest.raises(DomainError) as refused:
        list(netbox.device_rows("S1", [long], {}))
    assert refused.value.field == "device" and "at most 64 characters" in refused.value.reason
