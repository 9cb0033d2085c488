"""Names that a spreadsheet would run as formulas are exported as text (OWASP CSV injection)."""

from __future__ import annotations

import csv
import io
import zipfile
from types import SimpleNamespace

from fastapi.testclient import TestClient
from openpyxl import load_workbook

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")  # OWASP's list
# Short enough for NetBox's limits (a cable label <= 100 characters, a device name <= 64).
EVIL_HALL = '=HYPERLINK("//x.invalid")'
EVIL_ROW = "@A1"
PLAIN_ROW = "R02"


def _plan(owner: TestClient, project: int, h: SimpleNamespace) -> int:
    r = owner.post(f"/api/v1/projects/{project}/halls", json={"name": EVIL_HALL, "width_m": 30, "depth_m": 20})
    assert r.status_code == 201, r.text
    hall = r.json()["id"]
    r = owner.post(
        f"/api/v1/halls/{hall}/row-pairs",
        json={
            "name_a": EVIL_ROW,
            "name_b": PLAIN_ROW,
            "x_m": 2,
            "y_m": 2,
            "rack_count": 1,
            "rack_template": h.template(),
        },
    )
    assert r.status_code == 201, r.text
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)]
    first_row = r.json()["rows"][0]["id"]
    network_rack = {"name": "N01", "role": "network", "fabric_switches": spines}
    r = owner.post(f"/api/v1/rows/{first_row}/racks", json=network_rack)
    assert r.status_code == 201, r.text
    r = owner.post(f"/api/v1/halls/{hall}/wiring-plans", json={"name": "sh", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))[1:]


def test_csv_exports_neutralise_formula_cells_and_keep_plain_names(
    owner: TestClient, project: int, h: SimpleNamespace
) -> None:
    plan = _plan(owner, project, h)
    for export in ("wiring-sheet.csv", "netbox-cables.csv"):
        rows = _cells(owner.get(f"/api/v1/wiring-plans/{plan}/exports/{export}").text)
        assert rows, export
        for row in rows:
            for cell in row:
                assert not cell.startswith(FORMULA_TRIGGERS), (export, cell)
    sheet = list(csv.DictReader(io.StringIO(owner.get(f"/api/v1/wiring-plans/{plan}/exports/wiring-sheet.csv").text)))
    assert {r["a_hall"] for r in sheet} == {"'" + EVIL_HALL}
    assert {r["a_row"] for r in sheet} == {"'" + EVIL_ROW, PLAIN_ROW}
    netbox = list(csv.DictReader(io.StringIO(owner.get(f"/api/v1/wiring-plans/{plan}/exports/netbox-cables.csv").text)))
    assert all(r["side_a_device"].startswith("'" + EVIL_HALL + ".") for r in netbox)
    # Names that start with a letter or digit, and numbers, are untouched.
    assert {r["type"] for r in netbox} <= {"cat6a", "dac-passive", "dac-active", "mmf-om4", "smf-os2", "aoc"}
    assert all(not r["length"].startswith("'") for r in netbox)
    assert all(r["side_a_name"].startswith(("p", "e")) for r in netbox)


def test_xlsx_stores_formula_like_names_as_text(owner: TestClient, project: int, h: SimpleNamespace) -> None:
    plan = _plan(owner, project, h)
    r = owner.get(f"/api/v1/wiring-plans/{plan}/exports/wiring-sheet.xlsx")
    assert r.status_code == 200
    with zipfile.ZipFile(io.BytesIO(r.content)) as xlsx:
        sheets = [n for n in xlsx.namelist() if n.startswith("xl/worksheets/")]
        assert sheets and all(b"<f>" not in xlsx.read(n) for n in sheets), "no live formula in any sheet"
    book = load_workbook(io.BytesIO(r.content))
    rows = list(book.worksheets[0].iter_rows(values_only=True))
    header = list(rows[0])
    halls = {row[header.index("a_hall")] for row in rows[1:]}
    assert halls == {EVIL_HALL}, "the name itself, stored as text"
    cell = book.worksheets[0].cell(row=2, column=header.index("a_hall") + 1)
    assert cell.data_type == "s"
