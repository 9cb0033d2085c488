"""Everything that copies a hall carries its facility settings: export/import, row duplication (issue 28)."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient


def patch(client: TestClient, url: str, body: dict[str, Any]) -> Any:
    r = client.patch(url, json=body, headers={"If-Match": client.get(url).headers["etag"]})
    assert r.status_code == 200, r.text
    return r.json()


def _racks(client: TestClient, row_id: int) -> list[dict[str, Any]]:
    return list(client.get(f"/api/v1/rows/{row_id}/racks").json()["items"])


def _plant(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """A hall with settings of every kind: hall (incl. a tray level), tray run, row cooling, two racks
    with different settings and feeds (one with a user's PDU), a user's server model with facts."""
    pdu = owner.post("/api/v1/catalog/pdu-models", json={"name": "my PDU", "outlets": 24, "weight_kg": 5.5}).json()
    server = owner.post(
        "/api/v1/catalog/server-models",
        json={"name": "my server", "nic_ports": 2, "port_gbps": 25, "typical_w": 300, "max_w": 450,
              "weight_kg": 17, "airflow": "front-to-rear", "source": "sheet"},
    ).json()  # fmt: skip
    patch(owner, f"/api/v1/halls/{hall['id']}", {"facility": {
        "power_factor": 0.95, "hall_cooling_kw": 250, "trays": {"cross-aisle": {"width_mm": 600}}}})  # fmt: skip
    owner.put(
        f"/api/v1/halls/{hall['id']}/tray-runs/T3",
        json={"width_mm": 450, "usable_depth_mm": 150, "load_kg_per_m": 90},
        headers={"If-Match": owner.get(f"/api/v1/halls/{hall['id']}").headers["etag"]},
    ).raise_for_status()
    row = h.row(owner, hall["id"], n=2, rack_template={"logical_racks": [{**h.lr(), "server_model_id": server["id"]}]})
    patch(owner, f"/api/v1/rows/{row['id']}", {"facility": {"cooling_kw": 80}})
    first, second = _racks(owner, row["id"])
    patch(owner, f"/api/v1/racks/{first['id']}", {"facility": {
        "power_budget_kw": 9, "cooling_kind": "liquid",
        "feeds": [{"name": "A", "voltage_v": 240, "pdu_model_id": pdu["id"]},
                  {"name": "B", "phases": 3}]}})  # fmt: skip
    patch(owner, f"/api/v1/racks/{second['id']}", {"facility": {"static_load_kg": 900, "feeds": [{"name": "A"}]}})
    return row


def test_export_import_export_keeps_every_facility_setting(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    _plant(owner, hall, h)
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    (dh,) = doc["halls"]
    assert dh["facility"]["power_factor"] == 0.95 and dh["facility"]["trays"]["cross-aisle"]["width_mm"] == 600
    assert dh["facility"]["floor_load_kg_m2"] is None, "an unset setting travels as unset"
    assert dh["tray_runs"] == [{"name": "T3", "width_mm": 450, "usable_depth_mm": 150, "load_kg_per_m": 90}]
    (row,) = dh["rows"]
    assert row["facility"] == {"cooling_kw": 80}
    first = row["racks"][0]["facility"]
    assert (first["power_budget_kw"], first["cooling_kind"], first["static_load_kg"]) == (9, "liquid", None)
    assert [(f["name"], f["voltage_v"], f["phases"], f["pdu_model"]) for f in first["feeds"]] == [
        ("A", 240, None, "my PDU"),
        ("B", None, 3, None),
    ]
    assert doc["catalog"]["pdu_models"] == [
        {"name": "my PDU", "outlets": 24, "phases": 1, "weight_kg": 5.5, "source": ""}
    ]
    (server,) = doc["catalog"]["server_models"]
    assert (server["typical_w"], server["max_w"], server["weight_kg"], server["airflow"], server["source"]) == (
        300,
        450,
        17,
        "front-to-rear",
        "sheet",
    )

    r = owner.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 201, r.text
    copy_id = r.json()["project_id"]
    assert owner.get(f"/api/v1/projects/{copy_id}/export").json() == doc
    # And as the API reads it: the settings in effect, the defaults still defaults.
    hall_copy = owner.get(f"/api/v1/projects/{copy_id}/halls").json()["items"][0]
    assert hall_copy["facility"]["power_factor"] == 0.95 and "floor_load_kg_m2" in hall_copy["facility"]["defaults"]
    rack = owner.get(f"/api/v1/halls/{hall_copy['id']}/layout").json()["rows"][0]["racks"][1]["facility"]
    assert rack["static_load_kg"] == 900 and [f["name"] for f in rack["feeds"]] == ["A"]
    assert rack["defaults"] == ["power_budget_kw", "cooling_kw", "cooling_kind"]


def test_an_export_without_facility_fields_still_imports(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    """A document written before issue 28 has none of the facility keys: it imports, all defaults."""
    h.row(owner, hall["id"], n=2)
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    old = copy.deepcopy(doc)
    for dh in old["halls"]:
        for key in ("facility", "tray_runs"):
            dh.pop(key, None)
        for row in dh["rows"]:
            row.pop("facility", None)
            for rack in row["racks"]:
                rack.pop("facility", None)
    old["catalog"].pop("pdu_models", None)
    for section in ("server_models", "switch_models"):
        for e in old["catalog"][section]:
            for key in ("typical_w", "max_w", "weight_kg", "airflow", "source"):
                e.pop(key, None)
    for e in old["catalog"]["rack_types"]:
        for key in ("weight_kg", "static_load_kg", "source"):
            e.pop(key, None)
    assert old != doc
    r = owner.post("/api/v1/projects/import", json=old)
    assert r.status_code == 201, r.text
    hall_copy = owner.get(f"/api/v1/projects/{r.json()['project_id']}/halls").json()["items"][0]
    assert len(hall_copy["facility"]["defaults"]) == 16
    layout = owner.get(f"/api/v1/halls/{hall_copy['id']}/layout").json()
    # Racks that set nothing: null in the layout document, which gives their facility once.
    assert [r["facility"] for r in layout["rows"][0]["racks"]] == [None, None]
    assert layout["rack_facility_defaults"]["defaults"] == [
        "power_budget_kw", "cooling_kw", "cooling_kind", "static_load_kg", "feeds"
    ]  # fmt: skip
    rack_id = layout["rows"][0]["racks"][0]["id"]
    assert owner.get(f"/api/v1/racks/{rack_id}").json()["facility"] == layout["rack_facility_defaults"]


def test_a_feed_naming_a_pdu_missing_from_the_document_is_refused(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    _plant(owner, hall, h)
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    doc["catalog"]["pdu_models"] = []
    r = owner.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"] == "halls[0].rows[0].racks[0].facility.feeds[0].pdu_model"


def test_a_duplicated_row_keeps_its_racks_settings_and_feeds(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    row = _plant(owner, hall, h)
    r = owner.post(f"/api/v1/rows/{row['id']}/duplicate", json={"name": "R02", "x_m": 1, "y_m": 6})
    assert r.status_code == 201, r.text
    original = [x["facility"] for x in _racks(owner, row["id"])]
    new_row = next(x for x in owner.get(f"/api/v1/halls/{hall['id']}/rows").json()["items"] if x["name"] == "R02")
    assert new_row["facility"] == {"cooling_kw": 80, "defaults": []}
    assert [x["facility"] for x in _racks(owner, new_row["id"])] == original
    assert original[0]["power_budget_kw"] == 9 and original[1]["static_load_kg"] == 900
