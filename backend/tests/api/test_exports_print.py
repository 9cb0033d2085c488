"""Exports a cabling team prints: the wiring sheet workbook and PDF, the label sheet PDF (read back
with pypdf; its QR codes rendered with PDFium and decoded with ZXing), the pull list, and the
streaming of every export."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pypdfium2  # type: ignore[import-untyped]
import pytest
import zxingcpp
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from sqlalchemy.orm import Session

from loopline.db.models.wiring import WiringPlanRow
from loopline.domain import exports as domain_exports
from loopline.domain import print_sheets, workbook
from loopline.domain.exports import PULL_LIST_COLUMNS, WIRING_SHEET_COLUMNS
from loopline.services import export_cache, exports

CABLE_ID = re.compile(r"C[0-9a-f]{16}")


@pytest.fixture
def plan(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """R01/R02 facing pair of 2 racks (b=2, r=15) and two spines, single-homed p=2."""
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 2, "rack_template": h.template()},
    )
    assert r.status_code == 201, r.text
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)]
    r01 = r.json()["rows"][0]["id"]
    owner.post(f"/api/v1/rows/{r01}/racks", json={"name": "N01", "role": "network", "fabric_switches": spines})
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "sh", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return dict(r.json())


def cables(owner: TestClient, plan_id: int) -> list[dict[str, Any]]:
    body = owner.get(f"/api/v1/wiring-plans/{plan_id}/cables", params={"limit": 500}).json()
    assert body["total"] == len(body["items"])
    return list(body["items"])


def print_order(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sheets and labels list cables by A row, A rack, then plan order."""
    return sorted(items, key=lambda c: (c["a"]["row"], c["a"]["rack"]))  # stable: plan order within a rack


def test_xlsx_is_a_sheet_per_row_ready_to_print(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.xlsx")
    assert r.status_code == 200 and "content-length" not in r.headers
    book = load_workbook(io.BytesIO(r.content))
    assert book.sheetnames == ["R01", "R02"], "one sheet per row by default"
    all_cables = cables(owner, plan["id"])
    for ws in book.worksheets:
        rows = list(ws.iter_rows(values_only=True))
        assert rows[0] == WIRING_SHEET_COLUMNS
        assert len(rows) - 1 == sum(ws.title in (c["a"]["row"], c["b"]["row"]) for c in all_cables)
        assert ws.freeze_panes == "A2"
        assert ws.auto_filter.ref == f"A1:{get_column_letter(len(WIRING_SHEET_COLUMNS))}{len(rows)}"
        assert ws.print_title_rows == "$1:$1"
        assert ws.page_setup.orientation == "landscape" and ws.sheet_properties.pageSetUpPr.fitToPage
        assert ws.column_dimensions["B"].width == 40 and ws["A1"].font.b
        ordered = rows[0].index("ordered_length_m")
        assert all(isinstance(row[ordered], int | float) for row in rows[1:]), "lengths are numbers"
    by_id = {c["cable_id"]: c for c in all_cables}
    first = next(book["R01"].iter_rows(min_row=2, max_row=2, values_only=True))
    assert first[WIRING_SHEET_COLUMNS.index("ordered_length_m")] == by_id[str(first[0])]["ordered_length_m"]

    single = load_workbook(io.BytesIO(owner.get(
        f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.xlsx", params={"per_row": False}
    ).content))  # fmt: skip
    assert single.sheetnames == ["All cables"] and single.active.max_row == len(all_cables) + 1


def _zip(r: Any) -> zipfile.ZipFile:
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip", r.text[:300]
    return zipfile.ZipFile(io.BytesIO(r.content))


def test_wiring_sheet_pdf_pages_by_rack_with_both_ends_and_labels(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.pdf")
    assert f'filename="plan-{plan["id"]}-wiring-sheets.zip"' in r.headers["content-disposition"]
    archive = _zip(r)
    assert archive.namelist() == ["wiring-row-R01.pdf", "wiring-row-R02.pdf"], "the whole plan: a PDF per row"
    all_cables = {c["cable_id"]: c for c in cables(owner, plan["id"])}
    for name in archive.namelist():
        row_name = name.removeprefix("wiring-row-").removesuffix(".pdf")
        in_row = {i for i, c in all_cables.items() if row_name in (c["a"]["row"], c["b"]["row"])}
        body = archive.read(name)
        assert body.startswith(b"%PDF-")
        pdf = PdfReader(io.BytesIO(body))
        seen: list[str] = []
        racks_in_order: list[str] = []
        for page in pdf.pages:
            text = page.extract_text()
            header = re.search(r"Row (\S+)\s+Rack (\S+)", text)
            assert header, text[:200]
            row, rack = header.groups()
            ids = CABLE_ID.findall(text)
            assert ids, "no page without cables"
            # A page per rack group: every cable on the page has its A end in that rack.
            assert {(all_cables[i]["a"]["row"], all_cables[i]["a"]["rack"]) for i in ids} == {(row, rack)}
            if not racks_in_order or racks_in_order[-1] != rack:
                racks_in_order.append(rack)
            seen += ids
            for i in ids[:3]:  # both ends, the label and the ordered length of the cables on the page
                c = all_cables[i]
                assert c["label"] in text and f"{c['ordered_length_m']:.2f}" in text
                assert f"U{c['b']['device'].rsplit('.U', 1)[1]}" in text and c["b"]["port"] in text
        assert Counter(seen) == Counter(in_row), f"{name}: every cable with an end in the row exactly once"
        assert len(racks_in_order) == len(set(racks_in_order)), "a rack's pages are together"
        sample = sorted(in_row)[len(in_row) // 2]
        assert all(
            half in "".join(p.extract_text() for p in pdf.pages) for half in all_cables[sample]["label"].split(" / ")
        )

    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.pdf", params={"row": "R02"})
    assert r.headers["content-type"] == "application/pdf", "one row: one PDF"
    assert f'filename="plan-{plan["id"]}-wiring-R02.pdf"' in r.headers["content-disposition"]
    only = PdfReader(io.BytesIO(r.content))
    row_ids = {i for p in only.pages for i in CABLE_ID.findall(p.extract_text())}
    assert row_ids == {i for i, c in all_cables.items() if "R02" in (c["a"]["row"], c["b"]["row"])}
    a_rows = sorted({all_cables[i]["a"]["row"] for i in row_ids})
    assert [o.title for o in only.outline if not isinstance(o, list)] == [f"Row {x}" for x in a_rows], "by A row"


def _text_runs(page: Any) -> list[tuple[str, str, float, float, float]]:
    """(text, font, size, x, y) of every string drawn on the page."""
    runs: list[tuple[str, str, float, float, float]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        if text.strip():
            runs.append((text, str(font["/BaseFont"]).lstrip("/"), size, tm[4], tm[5]))

    page.extract_text(visitor_text=visit)
    return runs


def test_label_sheet_has_both_ends_of_every_cable_fitting_with_a_readable_qr(
    owner: TestClient, plan: dict[str, Any]
) -> None:
    # One row of at most LABEL_PDF_CABLES cables: one PDF.
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/labels.pdf", params={"row": "R01"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert f'filename="plan-{plan["id"]}-labels-R01.pdf"' in r.headers["content-disposition"]
    pdf = PdfReader(io.BytesIO(r.content))
    ordered = print_order([c for c in cables(owner, plan["id"]) if "R01" in (c["a"]["row"], c["b"]["row"])])
    assert 0 < len(ordered) <= exports.LABEL_PDF_CABLES
    grid = print_sheets.AVERY_L7160
    assert len(pdf.pages) == -(-2 * len(ordered) // grid.per_page)

    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert Counter(CABLE_ID.findall(text)) == Counter({c["cable_id"]: 2 for c in ordered}), "two labels per cable"
    sample = ordered[len(ordered) // 2]
    a_half, b_half = sample["label"].split(" / ")
    assert a_half in text and b_half in text and text.count("END A") == text.count("END B") == len(ordered)

    # Every string sits inside its label, right of the QR code, measured with the font's metrics.
    for page in pdf.pages[:3]:
        runs = _text_runs(page)
        assert runs
        for s, font, size, x, _y in runs:
            col = int((x - grid.left) // grid.pitch_x)
            left = grid.left + col * grid.pitch_x
            assert x >= left + print_sheets.LABEL_PAD + print_sheets.QR_SIZE, s
            assert x + stringWidth(s, font, size) <= left + grid.label_w - print_sheets.LABEL_PAD + 0.01, (s, size)

    # The QR codes of the first page decode to the cable IDs of its 21 labels (PDFium renders, ZXing reads).
    image = pypdfium2.PdfDocument(r.content)[0].render(scale=300 / 72).to_pil()
    decoded = [b.text for b in zxingcpp.read_barcodes(image) if b.format == zxingcpp.BarcodeFormat.QRCode]
    expected = [c["cable_id"] for c in ordered for _ in "AB"][: grid.per_page]
    assert Counter(decoded) == Counter(expected)


def _label_ids(pdf_bytes: bytes) -> Counter[str]:
    pdf = PdfReader(io.BytesIO(pdf_bytes))
    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert text.count("END A") == text.count("END B")
    return Counter(CABLE_ID.findall(text))


def test_labels_of_the_plan_or_a_large_row_are_a_zip_of_a_pdf_per_rack(
    owner: TestClient, plan: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    all_cables = print_order(cables(owner, plan["id"]))
    by_id = {c["cable_id"]: c for c in all_cables}
    per_rack = Counter(c["a"]["rack"] for c in all_cables)
    assert max(per_rack.values()) <= exports.LABEL_FILE_CABLES
    # The whole plan at the default size: whole racks, neighbours of one row together.
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/labels.pdf")
    assert f'filename="plan-{plan["id"]}-labels.zip"' in r.headers["content-disposition"]
    archive = _zip(r)
    got: Counter[str] = Counter()
    for name in archive.namelist():
        ids = _label_ids(archive.read(name))
        assert set(ids.values()) == {2}, "a cable's two labels are in the same PDF"
        racks = {by_id[i]["a"]["rack"] for i in ids}
        first, _, last = name.removeprefix("labels-").removesuffix(".pdf").partition("--")
        assert min(racks) == first and max(racks) == (last or first), name
        assert sum(ids.values()) == 2 * sum(per_rack[k] for k in racks), "whole racks"
        assert len({by_id[i]["a"]["row"] for i in ids}) == 1, "a PDF never mixes rows"
        got += ids
    assert got == Counter({i: 2 for i in by_id}), "every cable's two labels exactly once"

    # Files of at most 40 cables: a rack per file, a rack of more cut into parts.
    monkeypatch.setattr(exports, "LABEL_FILE_CABLES", 40)
    archive = _zip(owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/labels.pdf"))
    expected = []
    for rack in sorted(per_rack):
        n = per_rack[rack]
        expected += (
            [f"labels-{rack}.pdf"] if n <= 40 else [f"labels-{rack}-part-{i + 1}.pdf" for i in range(-(-n // 40))]
        )
    assert archive.namelist() == expected
    sample = all_cables[len(all_cables) // 2]
    holding = [n for n in archive.namelist() if sample["cable_id"] in _label_ids(archive.read(n))]
    assert len(holding) == 1 and holding[0].startswith(f"labels-{sample['a']['rack']}")
    pdf = PdfReader(io.BytesIO(archive.read(holding[0])))
    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert text.count(sample["cable_id"]) == 2 and all(half in text for half in sample["label"].split(" / "))

    # A row of more than LABEL_PDF_CABLES cables: a ZIP too, of its cables only.
    monkeypatch.setattr(exports, "LABEL_PDF_CABLES", 10)
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/labels.pdf", params={"row": "R02"})
    assert f'filename="plan-{plan["id"]}-labels-R02.zip"' in r.headers["content-disposition"]
    archive = _zip(r)
    got = sum((_label_ids(archive.read(n)) for n in archive.namelist()), Counter())
    assert got == Counter({i: 2 for i, c in by_id.items() if "R02" in (c["a"]["row"], c["b"]["row"])})


def _content(page: Any) -> bytes:
    return bytes(page.get_contents().get_data())


def test_labels_as_one_pdf_hold_the_zips_sheets_and_match_the_wiring_sheet(
    owner: TestClient, plan: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "LABEL_FILE_CABLES", 40)  # several files, a rack cut into parts
    url = f"/api/v1/wiring-plans/{plan['id']}/exports/labels.pdf"
    archive = _zip(owner.get(url))
    assert len(archive.namelist()) >= 3
    zip_pages = [p for n in archive.namelist() for p in PdfReader(io.BytesIO(archive.read(n))).pages]

    r = owner.get(url, params={"one_pdf": "true"}, headers={"Accept-Encoding": "identity"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert "content-length" not in r.headers, "streamed"
    assert f'filename="plan-{plan["id"]}-labels.pdf"' in r.headers["content-disposition"]
    one = PdfReader(io.BytesIO(r.content), strict=True)
    assert one.metadata is not None and one.metadata.title == f"Cable labels: plan {plan['name']}"
    # A page per sheet of the ZIP's PDFs together, in the same order, drawn the same.
    assert len(one.pages) == len(zip_pages)
    for got, drawn in zip(one.pages, zip_pages, strict=True):
        assert _content(got) == _content(drawn)
    pages = [p.extract_text() for p in one.pages]
    ids = [i for text in pages for i in CABLE_ID.findall(text)]
    ordered = print_order(cables(owner, plan["id"]))
    assert ids == [c["cable_id"] for c in ordered for _ in "AB"], "every cable's two labels, in print order"

    # The labels of a sampled cable say what its line of the wiring sheet says.
    sheet = {line["cable_id"]: line for line in csv.DictReader(io.StringIO(owner.get(
        f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.csv").text))}  # fmt: skip
    sample = ordered[len(ordered) // 2]["cable_id"]
    line = sheet[sample]
    length = domain_exports.netbox_length(round(float(line["ordered_length_m"]) * 1000))
    labels = [b.strip().splitlines() for t in pages for b in re.split(r"(?m)^(?=C[0-9a-f]{16}$)", t) if b.strip()]
    assert [lb for lb in labels if lb[0] == sample] == [
        [sample, *line["label"].split(" / "), f"END {end}   {length} m   {line['medium']}", line["part_number"]]
        for end in "AB"
    ]

    # A row of at most LABEL_PDF_CABLES cables: the sheets of its one PDF, streamed the same way.
    r = owner.get(url, params={"one_pdf": "true", "row": "R02"})
    assert f'filename="plan-{plan["id"]}-labels-R02.pdf"' in r.headers["content-disposition"]
    row_pdf = PdfReader(io.BytesIO(r.content), strict=True)
    row_ids = Counter(i for p in row_pdf.pages for i in CABLE_ID.findall(p.extract_text()))
    assert row_ids == Counter({c["cable_id"]: 2 for c in ordered if "R02" in (c["a"]["row"], c["b"]["row"])})
    plain = PdfReader(io.BytesIO(owner.get(url, params={"row": "R02"}).content))
    assert [_content(p) for p in row_pdf.pages] == [_content(p) for p in plain.pages]
    # A larger row: the sheets of its ZIP's PDFs.
    monkeypatch.setattr(exports, "LABEL_PDF_CABLES", 10)
    zipped = _zip(owner.get(url, params={"row": "R02"}))
    zip_row_pages = [p for n in zipped.namelist() for p in PdfReader(io.BytesIO(zipped.read(n))).pages]
    joined = PdfReader(io.BytesIO(owner.get(url, params={"one_pdf": "true", "row": "R02"}).content), strict=True)
    assert len(zipped.namelist()) >= 2 and len(joined.pages) == len(zip_row_pages) > len(plain.pages)
    assert [_content(p) for p in joined.pages] == [_content(p) for p in zip_row_pages]


@given(st.lists(st.tuples(st.sampled_from("AB"), st.integers(1, 30)), max_size=12), st.integers(1, 12))
def test_label_files_keep_racks_whole_and_rows_apart(racks: list[tuple[str, int]], most: int) -> None:
    listed = [(row, f"{row}{i:02d}", n) for i, (row, n) in enumerate(sorted(racks, key=lambda x: x[0]))]
    files = exports.label_files(listed, most)
    assert sum(f.cables for f in files) == sum(n for _, _, n in listed)
    assert all(0 < f.cables <= most for f in files)
    counts = {k: n for _, k, n in listed}
    for f in files:
        assert f.first[0] == f.last[0] == f.row, "never two rows in one file"
        if f.part:
            assert f.first == f.last and counts[f.first] > most, "only a rack of more than `most` is cut"
        else:
            assert f.cables == sum(n for k, n in counts.items() if f.first <= k <= f.last), "whole racks"
    assert len({f.name for f in files}) == len(files)


def test_a_row_too_big_to_print_is_refused_naming_it(
    owner: TestClient, plan: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "MAX_SHEET_PDF_CABLES", 10)
    for params in ({"row": "R02"}, {}):
        r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.pdf", params=params)
        assert r.status_code == 422
        (problem,) = r.json()["detail"]
        assert problem["field"] == "row" and "row R0" in problem["msg"] and "choose a row" in problem["msg"]


def test_pull_list_groups_every_cable_once_by_route_part_and_length(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/pull-list.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert list(rows[0]) == list(PULL_LIST_COLUMNS)
    by_id = {c["cable_id"]: c for c in cables(owner, plan["id"])}
    listed = [i for row in rows for i in row["cable_ids"].split()]
    assert Counter(listed) == Counter(list(by_id))
    for row in rows:
        ids = row["cable_ids"].split()
        assert int(row["quantity"]) == len(ids)
        for i in ids:
            c = by_id[i]
            assert sorted((c["a"]["rack"], c["b"]["rack"])) == [row["from_rack"], row["to_rack"]]
            assert (c["part_number"], f"{c['ordered_length_m']:.3f}") == (row["part_number"], row["ordered_length_m"])
        same_rack = row["from_rack"] == row["to_rack"]
        assert row["via"] == ("in-rack" if same_rack else "tray")
        assert row["bundle"] == (row["from_rack"] if same_rack else f"{row['from_rack']} ~ {row['to_rack']}")
    keys = [(r["from_rack"], r["to_rack"], r["part_number"], r["ordered_length_m"]) for r in rows]
    assert len(keys) == len(set(keys)) and keys == sorted(keys), "one line per group, grouped by route"


def test_exports_stream_in_pieces_without_a_content_length(
    owner: TestClient, plan: dict[str, Any], db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As for a plan above the stored sheets' limit (a small plan's CSV sheet is stored and sent whole:
    # tests/api/test_export_cache.py).
    monkeypatch.setattr(export_cache, "MAX_CACHED_CABLES", 0)
    for export in ("wiring-sheet.csv", "wiring-sheet.xlsx", "wiring-sheet.pdf", "labels.pdf", "pull-list.csv",
                   "netbox-cables.csv", "netbox.zip"):  # fmt: skip
        r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/{export}", headers={"Accept-Encoding": "identity"})
        assert r.status_code == 200 and "content-length" not in r.headers, export
        assert r.headers["content-disposition"].startswith(f'attachment; filename="plan-{plan["id"]}-'), export
    # The bodies are produced a piece at a time from the cursor, never whole.
    monkeypatch.setattr(domain_exports, "CSV_BATCH_ROWS", 50)
    monkeypatch.setattr(workbook, "FLUSH_ROWS", 20)
    row = db_session.get(WiringPlanRow, plan["id"])
    assert row is not None
    n = plan["summary"]["cables"]
    csv_pieces = list(exports.wiring_sheet_csv(db_session, row))
    assert len(csv_pieces) == n // 50 + 1 and sum(p.count(b"\n") for p in csv_pieces) == n + 1
    # (how soon a workbook's first piece leaves: tests/domain/test_export_streams.py)
    xlsx_pieces = [p for p in exports.wiring_sheet_xlsx(db_session, row, per_row=False) if p]
    assert len(xlsx_pieces) > 1
    assert load_workbook(io.BytesIO(b"".join(xlsx_pieces))).active.max_row == n + 1


def test_a_zip_of_pdfs_sends_each_pdf_before_rendering_the_next(
    plan: dict[str, Any], db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each entry leaves complete before the next PDF is started: recorded at the start of every
    rendering, the bytes already sent reach past the end of the entries before it."""
    row = db_session.get(WiringPlanRow, plan["id"])
    assert row is not None
    monkeypatch.setattr(exports, "LABEL_FILE_CABLES", 40)
    for render, export in (
        ("render_wiring_sheet", exports.wiring_sheet_pdf),
        ("render_label_sheet", exports.label_sheet_pdf),
    ):
        sent: list[bytes] = []
        sent_at_start: list[int] = []
        real = getattr(exports, render)

        def counting(*args: Any, real: Any = real, sent: list[bytes] = sent, at: list[int] = sent_at_start) -> Any:
            at.append(sum(map(len, sent)))
            return real(*args)

        monkeypatch.setattr(exports, render, counting)
        got = export(db_session, row)
        assert got.zipped
        for piece in got.body:
            sent.append(piece)
        entries = zipfile.ZipFile(io.BytesIO(b"".join(sent))).infolist()
        assert len(entries) == len(sent_at_start) >= 2, render
        assert sent_at_start[0] == 0
        for i in range(1, len(entries)):
            # Entry i's local header starts where entry i-1 (data and descriptor) ends.
            assert sent_at_start[i] >= entries[i].header_offset, (render, i, sent_at_start, entries[i].header_offset)
        assert sum(map(len, sent)) > sent_at_start[-1], "and the last one is sent after it is rendered"
