"""Catalog facility facts (power, weight, airflow, load ratings, source) and the PDU catalog (issue 28)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from loopline.db.models import PduModel, RackType, ServerModel, SwitchModel
from loopline.domain.facility import catalog_facts
from loopline.domain.facility.model import Airflow, DeviceFacts
from loopline.domain.facility.model import PduModel as DomainPdu
from loopline.services.catalog import ensure_builtin_catalog

SERVERS = "/api/v1/catalog/server-models"
PDUS = "/api/v1/catalog/pdu-models"


def fields(r: Any) -> set[str]:
    """The dotted paths of a 422's entries (request validation: `body.x`; domain errors: `x`)."""
    return {".".join(str(p) for p in e["loc"]) for e in r.json()["detail"]}


def test_a_users_server_model_carries_its_facts_and_may_leave_any_out(owner: TestClient) -> None:
    body = {"name": "GPU box", "nic_ports": 2, "port_gbps": 100, "typical_w": 450, "max_w": 700,
            "weight_kg": 18.5, "airflow": "front-to-rear", "source": "vendor datasheet rev 3"}  # fmt: skip
    r = owner.post(SERVERS, json=body)
    assert r.status_code == 201, r.text
    got = r.json()
    assert (got["typical_w"], got["max_w"], got["weight_kg"], got["airflow"], got["source"]) == (
        450,
        700,
        18.5,
        "front-to-rear",
        "vendor datasheet rev 3",
    )
    bare = owner.post(SERVERS, json={"name": "bare", "nic_ports": 1, "port_gbps": 25}).json()
    assert (bare["typical_w"], bare["max_w"], bare["weight_kg"], bare["airflow"], bare["source"]) == (
        None,
        None,
        None,
        None,
        "",
    )
    # null clears a fact; an unsent fact stays.
    url = f"{SERVERS}/{got['id']}"
    r = owner.patch(url, json={"weight_kg": None, "max_w": 800}, headers={"If-Match": '"1"'})
    assert r.status_code == 200, r.text
    assert (r.json()["weight_kg"], r.json()["max_w"], r.json()["typical_w"]) == (None, 800, 450)


def test_bad_facts_are_refused_naming_the_field(owner: TestClient) -> None:
    base = {"name": "x", "nic_ports": 2, "port_gbps": 25}
    r = owner.post(SERVERS, json={**base, "typical_w": 500, "max_w": 400})
    assert r.status_code == 422 and fields(r) == {"body.max_w"}
    assert "at least typical_w (500 W)" in r.text
    r = owner.post(SERVERS, json={**base, "weight_kg": -1})
    assert r.status_code == 422 and fields(r) == {"body.weight_kg"}
    r = owner.post(SERVERS, json={**base, "airflow": "upwards"})
    assert r.status_code == 422 and fields(r) == {"body.airflow"}
    r = owner.post("/api/v1/catalog/rack-types", json={"name": "r", "static_load_kg": 0})
    assert r.status_code == 422 and fields(r) == {"body.static_load_kg"}
    # A max below the stored typical, sent alone: the service compares with what is stored.
    sid = owner.post(SERVERS, json={**base, "typical_w": 300}).json()["id"]
    r = owner.patch(f"{SERVERS}/{sid}", json={"max_w": 200}, headers={"If-Match": '"1"'})
    assert r.status_code == 422 and fields(r) == {"max_w"} and "typical_w (300 W)" in r.text


def test_facts_of_a_model_in_use_may_change_its_ports_may_not(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    sid = owner.post(SERVERS, json={"name": "mine", "nic_ports": 2, "port_gbps": 25}).json()["id"]
    h.row(owner, hall["id"], n=1, rack_template={"logical_racks": [{**h.lr(), "server_model_id": sid}]})
    url = f"{SERVERS}/{sid}"
    r = owner.patch(url, json={"typical_w": 300, "max_w": 500, "source": "measured"}, headers={"If-Match": '"1"'})
    assert r.status_code == 200, r.text
    r = owner.patch(url, json={"nic_ports": 4}, headers={"If-Match": '"2"'})
    assert r.status_code == 409 and "only its name and facts" in r.text


def test_pdu_models_are_a_catalog_kind_like_the_others(owner: TestClient, h: SimpleNamespace) -> None:
    r = owner.post(PDUS, json={"name": "PDU 24", "outlets": 24, "phases": 3, "weight_kg": 6.5, "source": "sheet"})
    assert r.status_code == 201, r.text
    pdu = r.json()
    assert (pdu["outlets"], pdu["phases"], pdu["weight_kg"], pdu["builtin"], r.headers["etag"]) == (
        24,
        3,
        6.5,
        False,
        '"1"',
    )
    assert owner.post(PDUS, json={"name": "PDU 24", "outlets": 8}).status_code == 409
    r = owner.post(PDUS, json={"name": "p2", "outlets": 8, "phases": 2})
    assert r.status_code == 422 and fields(r) == {"body.phases"}
    r = owner.post(PDUS, json={"name": "p0", "outlets": 0})
    assert r.status_code == 422 and fields(r) == {"body.outlets"}
    assert owner.post(PDUS, json={"name": "p1", "outlets": 8}).json()["phases"] == 1
    names = [p["name"] for p in owner.get(PDUS).json()["items"]]
    assert "PDU 24" in names
    other = h.client("other@example.com")
    assert other.get(f"{PDUS}/{pdu['id']}").status_code == 404
    assert "PDU 24" not in [p["name"] for p in other.get(PDUS).json()["items"]]
    r = owner.patch(f"{PDUS}/{pdu['id']}", json={"outlets": 36}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["outlets"] == 36 and r.headers["etag"] == '"2"'
    assert owner.delete(f"{PDUS}/{pdu['id']}", headers={"If-Match": '"2"'}).status_code == 204
    assert owner.get(f"{PDUS}/{pdu['id']}").status_code == 404


def test_a_token_with_layout_read_only_cannot_write_the_catalog(owner: TestClient, app: Any) -> None:
    secret = owner.post("/api/v1/tokens", json={"name": "ro", "scopes": ["layout:read"]}).json()["token"]
    bot = TestClient(app, headers={"Authorization": f"Bearer {secret}"})
    assert bot.get(PDUS).status_code == 200
    assert bot.post(PDUS, json={"name": "p", "outlets": 8}).status_code == 403


def test_builtin_facts_are_written_on_a_database_whose_builtin_rows_predate_them(
    db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deployed database already has the builtin rows (seeded before the facts existed): the next
    `ensure_builtin_catalog` writes the facts onto them (new version), adds the builtin PDUs, and a
    second run changes nothing."""
    ensure_builtin_catalog(db_session)
    # As a database seeded before the facts: every fact empty.
    for model in (ServerModel, SwitchModel):
        db_session.execute(update(model).values(typical_w=None, max_w=None, weight_kg=None, airflow=None, source=""))
    db_session.execute(update(RackType).values(weight_kg=None, static_load_kg=None, source=""))
    server = DeviceFacts(typical_w=250.0, max_w=410.0, weight_kg=16.2, airflow=Airflow.FRONT_TO_REAR, source="S")
    monkeypatch.setattr(catalog_facts, "SERVER_FACTS", {"2x25G server": server})
    monkeypatch.setattr(catalog_facts, "SWITCH_FACTS", {"64x100G spine": DeviceFacts(300.0, 650.0, 11.0, None, "W")})
    monkeypatch.setattr(catalog_facts, "RACK_TYPE_FACTS", {"42U 600x1200": DeviceFacts(weight_kg=120.0, source="R")})
    monkeypatch.setattr(catalog_facts, "RACK_TYPE_STATIC_LOAD_KG", {"42U 600x1200": 1360.0})
    monkeypatch.setattr(catalog_facts, "PDU_MODELS", (DomainPdu("Test PDU 24xC13", 24, 4.5, "P"),))
    db_session.expire_all()
    before = db_session.execute(select(ServerModel.version).where(ServerModel.name == "2x25G server")).scalar_one()

    assert ensure_builtin_catalog(db_session) == 1  # the PDU

    def row(model: Any, name: str) -> Any:
        return db_session.execute(select(model).where(model.name == name, model.owner_id.is_(None))).scalar_one()

    s = row(ServerModel, "2x25G server")
    assert (s.typical_w, s.max_w, s.weight_kg, s.airflow, s.source, s.version) == (
        250.0,
        410.0,
        16.2,
        Airflow.FRONT_TO_REAR,
        "S",
        before + 1,
    )
    sw = row(SwitchModel, "64x100G spine")
    assert (sw.typical_w, sw.max_w, sw.weight_kg, sw.airflow, sw.source) == (300.0, 650.0, 11.0, None, "W")
    assert row(SwitchModel, "48x25G+8x100G ToR").max_w is None  # no figure: left unknown
    t = row(RackType, "42U 600x1200")
    assert (t.weight_kg, t.static_load_kg, t.source) == (120.0, 1360.0, "R")
    p = row(PduModel, "Test PDU 24xC13")
    assert (p.outlets, p.phases, p.weight_kg, p.source, p.builtin) == (24, 1, 4.5, "P", True)
    assert ensure_builtin_catalog(db_session) == 0
    assert row(ServerModel, "2x25G server").version == before + 1


def test_the_builtin_catalog_holds_every_figure_of_catalog_facts(db_session: Session) -> None:
    """With the real figures, on rows seeded before them (every fact emptied first)."""
    ensure_builtin_catalog(db_session)
    for model in (ServerModel, SwitchModel):
        db_session.execute(update(model).values(typical_w=None, max_w=None, weight_kg=None, airflow=None, source=""))
    db_session.execute(update(RackType).values(weight_kg=None, static_load_kg=None, source=""))
    db_session.expire_all()
    ensure_builtin_catalog(db_session)
    for name, facts in catalog_facts.RACK_TYPE_FACTS.items():
        t = db_session.execute(select(RackType).where(RackType.name == name, RackType.builtin.is_(True))).scalar_one()
        assert (t.weight_kg, t.source, t.static_load_kg) == (
            facts.weight_kg,
            facts.source,
            catalog_facts.RACK_TYPE_STATIC_LOAD_KG.get(name),
        )
    for model, facts in ((ServerModel, catalog_facts.SERVER_FACTS), (SwitchModel, catalog_facts.SWITCH_FACTS)):
        for name, f in facts.items():
            s = db_session.execute(select(model).where(model.name == name, model.builtin.is_(True))).scalar_one()
            assert (s.typical_w, s.max_w, s.weight_kg, s.airflow, s.source) == (
                f.typical_w,
                f.max_w,
                f.weight_kg,
                f.airflow,
                f.source,
            )
    for pdu in catalog_facts.PDU_MODELS:
        p = db_session.execute(select(PduModel).where(PduModel.name == pdu.name)).scalar_one()
        assert (p.outlets, p.weight_kg, p.source) == (pdu.outlets, pdu.weight_kg, pdu.source)
