"""Stored exports (`services/export_cache.py`): a wiring sheet rendered once is sent again byte for
byte, and never once anything it prints from has changed.

The stored body is overwritten with a marker before each change: an answer equal to the marker
proves it came from storage, and after a change it must be the fresh render instead."""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Table, event, select, update
from sqlalchemy.orm import Session
from sqlalchemy.sql import visitors

from loopline.db.models import ExportCacheRow, ServerModel
from loopline.db.models.wiring import WiringPlanRow
from loopline.services import export_cache, exports

MARKER = b"stored,bytes\r\n"


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
    r = owner.post(f"/api/v1/rows/{r01}/racks", json={"name": "N01", "role": "network", "fabric_switches": spines})
    assert r.status_code == 201, r.text
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "sh", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return {**r.json(), "hall": hall}


def _url(plan: dict[str, Any]) -> str:
    return f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.csv"


def _fresh(db_session: Session, plan_id: int, row: str | None = None) -> bytes:
    row_obj = db_session.get(WiringPlanRow, plan_id)
    assert row_obj is not None
    return b"".join(exports.wiring_sheet_csv(db_session, row_obj, row))


def _stored(db_session: Session, plan_id: int) -> dict[str, bytes]:
    found = db_session.execute(
        select(ExportCacheRow.options, ExportCacheRow.body).where(ExportCacheRow.plan_id == plan_id)
    )
    return {options: gzip.decompress(body) for options, body in found}


def _mark(db_session: Session, plan_id: int) -> None:
    marked = update(ExportCacheRow).where(ExportCacheRow.plan_id == plan_id).values(body=gzip.compress(MARKER))
    db_session.execute(marked)
    db_session.commit()


def test_the_second_download_is_the_stored_first_byte_for_byte(
    owner: TestClient, plan: dict[str, Any], db_session: Session
) -> None:
    first = owner.get(_url(plan))
    assert first.status_code == 200 and first.headers["content-type"].startswith("text/csv")
    assert first.headers["content-disposition"] == (
        f"attachment; filename=\"plan-{plan['id']}-wiring.csv\"; filename*=UTF-8''plan-{plan['id']}-wiring.csv"
    )
    fresh = _fresh(db_session, plan["id"])
    assert first.content == fresh
    assert len(list(csv.reader(io.StringIO(first.text)))) == 1 + plan["summary"]["cables"]
    assert _stored(db_session, plan["id"]) == {"rack=&row=": fresh}
    second = owner.get(_url(plan))
    assert second.content == fresh and second.headers["content-disposition"] == first.headers["content-disposition"]
    _mark(db_session, plan["id"])
    assert owner.get(_url(plan)).content == MARKER  # sent from storage while nothing changed
    # Each filter is its own file.
    only_r02 = owner.get(_url(plan), params={"row": "R02"})
    assert only_r02.content == _fresh(db_session, plan["id"], "R02") != MARKER
    assert set(_stored(db_session, plan["id"])) == {"rack=&row=", "rack=&row=R02"}


def test_a_stored_sheet_goes_compressed_to_who_takes_gzip_and_plain_to_who_does_not(
    owner: TestClient, plan: dict[str, Any], db_session: Session
) -> None:
    owner.get(_url(plan))
    fresh = _fresh(db_session, plan["id"])
    stored = db_session.execute(select(ExportCacheRow.body).where(ExportCacheRow.plan_id == plan["id"])).scalar_one()
    zipped = owner.get(_url(plan), headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip" and zipped.headers["vary"] == "Accept-Encoding"
    assert zipped.headers["content-length"] == str(len(stored)) and zipped.content == fresh
    plain = owner.get(_url(plan), headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.headers["content-length"] == str(len(fresh))
    assert plain.content == fresh


def test_a_filter_that_names_no_cable_is_answered_and_not_stored(
    owner: TestClient, plan: dict[str, Any], db_session: Session
) -> None:
    header = _fresh(db_session, plan["id"], "no-such-row")
    assert header.count(b"\n") == 1
    for row in ("no-such-row", "R" * 5000):
        r = owner.get(_url(plan), params={"row": row})
        assert r.status_code == 200 and r.content == header
    assert _stored(db_session, plan["id"]) == {}


def _rack(owner: TestClient, plan: dict[str, Any]) -> dict[str, Any]:
    layout = owner.get(f"/api/v1/halls/{plan['hall']['id']}/layout").json()
    return dict(layout["rows"][0]["racks"][0])


def _template(owner: TestClient, plan: dict[str, Any], db_session: Session | None = None) -> str:
    r = owner.patch(
        f"/api/v1/halls/{plan['hall']['id']}/device-names",
        json={"template": "{row}{rack:02}-s{u:02}"},
        headers={"If-Match": '"0"'},
    )
    assert r.status_code == 200, r.text
    return "R0101-s01"  # the first rack of R01, its lowest server


def _override(owner: TestClient, plan: dict[str, Any], db_session: Session | None = None) -> str:
    rack = _rack(owner, plan)
    device = f"{plan['hall']['name']}.R01.{rack['name']}.U01"
    r = owner.patch(
        f"/api/v1/halls/{plan['hall']['id']}/device-names",
        json={"overrides": [{"device": device, "host_name": "web-01", "asset_tag": "A-1"}]},
        headers={"If-Match": owner.get(f"/api/v1/halls/{plan['hall']['id']}/device-names").headers["etag"]},
    )
    assert r.status_code == 200, r.text
    return "web-01"


def _port_face(owner: TestClient, plan: dict[str, Any], db_session: Session) -> str:
    rack = _rack(owner, plan)
    r = owner.patch(
        f"/api/v1/racks/{rack['id']}", json={"port_face": "rear"}, headers={"If-Match": f'"{rack["version"]}"'}
    )
    assert r.status_code == 200, r.text
    return ",rear,"


def _site(owner: TestClient, plan: dict[str, Any], db_session: Session) -> str:
    r = owner.patch(f"/api/v1/halls/{plan['hall']['id']}", json={"site": "AMS-2"}, headers={"If-Match": '"1"'})
    assert r.status_code == 200, r.text
    return "AMS-2"


def _catalog_height(owner: TestClient, plan: dict[str, Any], db_session: Session) -> str:
    # Stored rows change by other paths too (an import, an operator): a change to any row the sheet
    # is printed from counts, not only the API's writes. Location names print the plan's own U, so
    # this sheet reads the same: rendered again all the same.
    rack = _rack(owner, plan)
    model = rack["logical_racks"][0]["server_model_id"]
    db_session.execute(update(ServerModel).where(ServerModel.id == model).values(height_u=2))
    db_session.commit()
    return ""


CHANGES: dict[str, Callable[[TestClient, dict[str, Any], Session], str]] = {
    "device naming template": _template,
    "device override": _override,
    "rack port face": _port_face,
    "hall site": _site,
    "catalog entry the hall uses": _catalog_height,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_to_what_the_sheet_prints_renders_it_again(
    owner: TestClient, plan: dict[str, Any], db_session: Session, change: str
) -> None:
    before = owner.get(_url(plan)).content
    _mark(db_session, plan["id"])
    printed = CHANGES[change](owner, plan, db_session)
    after = owner.get(_url(plan))
    assert after.status_code == 200
    fresh = _fresh(db_session, plan["id"])
    assert after.content == fresh != MARKER
    assert printed in after.text
    assert after.content != before or change == "catalog entry the hall uses"
    assert _stored(db_session, plan["id"]) == {"rack=&row=": fresh}


def test_a_plan_above_the_limit_is_streamed_and_not_stored(
    owner: TestClient, plan: dict[str, Any], db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export_cache, "MAX_CACHED_CABLES", plan["summary"]["cables"] - 1)
    r = owner.get(_url(plan))
    assert r.status_code == 200 and r.content == _fresh(db_session, plan["id"])
    assert _stored(db_session, plan["id"]) == {}


def test_the_fingerprint_covers_every_table_the_sheet_is_printed_from(
    owner: TestClient, plan: dict[str, Any], db_session: Session
) -> None:
    """If the export's context starts reading another table, the fingerprint must hash it too."""
    _template(owner, plan, db_session)
    _override(owner, plan, db_session)
    tables: set[str] = set()

    def record(conn: Any, clause: Any, multiparams: Any, params: Any, options: Any) -> None:
        tables.update(t.name for t in visitors.iterate(clause) if isinstance(t, Table))

    engine = db_session.get_bind()
    event.listen(engine, "before_execute", record)
    try:
        row = db_session.get(WiringPlanRow, plan["id"])
        assert row is not None
        db_session.expire_all()
        exports._context(db_session, row)
    finally:
        event.remove(engine, "before_execute", record)
    assert tables and tables <= export_cache.FINGERPRINTED_TABLES | {"wiring_plans"}, tables
    hashed = export_cache.FINGERPRINT.text
    assert [t for t in sorted(export_cache.FINGERPRINTED_TABLES) if f" FROM {t} " not in hashed] == []
    assert {"halls", "racks", "device_naming", "device_overrides", "server_models"} <= tables


def test_the_fingerprint_ignores_what_the_sheet_does_not_print(
    owner: TestClient, plan: dict[str, Any], db_session: Session
) -> None:
    owner.get(_url(plan))
    _mark(db_session, plan["id"])
    tag = owner.get(f"/api/v1/wiring-plans/{plan['id']}").headers["etag"]
    r = owner.patch(f"/api/v1/wiring-plans/{plan['id']}", json={"name": "renamed"}, headers={"If-Match": tag})
    assert r.status_code == 200, r.text
    assert owner.get(_url(plan)).content == MARKER
