"""Facility settings of halls, rows and racks, tray runs, and the facility report through the API (issue 28).

Defaults are the domain's (`HallFacility()`, `RackFacility()`, `Feed()`): stored as NULL, read as the
value in effect with its name in `defaults`.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from loopline.domain.facility.model import HallFacility, TrayLevel

ALL_HALL_DEFAULTS = [
    "floor_load_kg_m2", "hall_cooling_kw", "power_factor", "max_phase_imbalance_pct", "max_tray_fill_pct",
    "max_signal_tray_fill_pct", "tray_bend_radius_mm",
    *(f"trays.{lv}.{f}" for lv in ("above-racks", "cross-aisle", "under-floor")
      for f in ("width_mm", "usable_depth_mm", "load_kg_per_m")),
]  # fmt: skip


def fields(r: Any) -> set[str]:
    """The dotted paths of an error body's entries (request validation: `body.x`; domain errors: `x`)."""
    return {".".join(str(p) for p in e["loc"]) for e in r.json()["detail"]}


def first_rack_url(client: TestClient, hall_id: int) -> str:
    row_id = client.get(f"/api/v1/halls/{hall_id}/rows").json()["items"][0]["id"]
    return f"/api/v1/racks/{client.get(f'/api/v1/rows/{row_id}/racks').json()['items'][0]['id']}"


def patch(client: TestClient, url: str, body: dict[str, Any]) -> Any:
    version = client.get(url).headers["etag"]
    return client.patch(url, json=body, headers={"If-Match": version})


def test_a_new_hall_reads_the_domain_defaults_as_defaults(owner: TestClient, hall: dict[str, Any]) -> None:
    """The numbers are the domain's (sourced in `catalog_facts`); the API reports them and says so."""
    d = HallFacility()
    f = hall["facility"]
    assert (f["floor_load_kg_m2"], f["hall_cooling_kw"], f["power_factor"], f["continuous_fraction"]) == (
        d.floor_load_kg_m2,
        None,
        d.power_factor,
        d.continuous_fraction,
    )
    assert (f["max_phase_imbalance_pct"], f["max_tray_fill_pct"], f["max_signal_tray_fill_pct"]) == (
        d.max_phase_imbalance_pct,
        d.max_tray_fill_pct,
        d.max_signal_tray_fill_pct,
    )
    assert f["tray_bend_radius_mm"] == d.tray_bend_radius_mm
    assert [(t["level"], t["width_mm"], t["usable_depth_mm"], t["load_kg_per_m"]) for t in f["trays"]] == [
        (lv.value, d.trays[lv].width_mm, d.trays[lv].usable_depth_mm, d.trays[lv].load_kg_per_m) for lv in TrayLevel
    ]
    assert f["defaults"] == ALL_HALL_DEFAULTS


def test_hall_settings_are_written_read_and_reset_to_their_defaults(owner: TestClient, hall: dict[str, Any]) -> None:
    url = f"/api/v1/halls/{hall['id']}"
    body = {"facility": {"power_factor": 0.9, "floor_load_kg_m2": 900, "hall_cooling_kw": 400,
                         "max_tray_fill_pct": 35, "trays": {"above-racks": {"width_mm": 600}}}}  # fmt: skip
    r = patch(owner, url, body)
    assert r.status_code == 200, r.text
    f = r.json()["facility"]
    assert (f["power_factor"], f["floor_load_kg_m2"], f["hall_cooling_kw"], f["max_tray_fill_pct"]) == (
        0.9,
        900,
        400,
        35,
    )
    above = f["trays"][0]
    assert (above["width_mm"], above["usable_depth_mm"], above["defaults"]) == (
        600,
        HallFacility().trays[TrayLevel.ABOVE_RACKS].usable_depth_mm,
        ["usable_depth_mm", "load_kg_per_m"],
    )
    assert f["defaults"] == [
        d for d in ALL_HALL_DEFAULTS
        if d not in ("power_factor", "floor_load_kg_m2", "hall_cooling_kw", "max_tray_fill_pct",
                     "trays.above-racks.width_mm")
    ]  # fmt: skip
    # Other fields of the hall stay; null puts a setting back to its default.
    r = patch(owner, url, {"name": "H1b", "facility": {"power_factor": None, "trays": None}})
    f = r.json()["facility"]
    assert (r.json()["name"], f["power_factor"], f["floor_load_kg_m2"], f["trays"][0]["width_mm"]) == (
        "H1b",
        1.0,
        900,
        HallFacility().trays[TrayLevel.ABOVE_RACKS].width_mm,
    )
    assert "power_factor" in f["defaults"] and "trays.above-racks.width_mm" in f["defaults"]
    # A hall may be created with settings.
    r = owner.post(
        f"/api/v1/projects/{hall['project_id']}/halls",
        json={"name": "H2", "width_m": 10, "depth_m": 10, "facility": {"max_signal_tray_fill_pct": 45}},
    )
    assert r.status_code == 201 and r.json()["facility"]["max_signal_tray_fill_pct"] == 45


def test_bad_hall_settings_are_refused_naming_the_field(owner: TestClient, hall: dict[str, Any]) -> None:
    url = f"/api/v1/halls/{hall['id']}"
    for body, field in [
        ({"power_factor": 0}, "body.facility.power_factor"),
        ({"power_factor": 1.01}, "body.facility.power_factor"),
        ({"max_tray_fill_pct": 0}, "body.facility.max_tray_fill_pct"),
        ({"max_signal_tray_fill_pct": 100.5}, "body.facility.max_signal_tray_fill_pct"),
        ({"floor_load_kg_m2": -5}, "body.facility.floor_load_kg_m2"),
        ({"trays": {"under-floor": {"width_mm": 0}}}, "body.facility.trays.under-floor.width_mm"),
        ({"trays": {"ceiling": {"width_mm": 100}}}, "body.facility.trays.ceiling.[key]"),
    ]:
        r = patch(owner, url, {"facility": body})
        assert r.status_code == 422 and fields(r) == {field}, (body, r.text)
    # The edges are allowed: 100 % and a power factor of exactly 1.
    assert patch(owner, url, {"facility": {"max_tray_fill_pct": 100, "power_factor": 1}}).status_code == 200


def test_row_cooling(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=1)
    assert row["facility"] == {"cooling_kw": None, "defaults": ["cooling_kw"]}
    url = f"/api/v1/rows/{row['id']}"
    r = patch(owner, url, {"facility": {"cooling_kw": 120}})
    assert r.status_code == 200 and r.json()["facility"] == {"cooling_kw": 120, "defaults": []}
    r = patch(owner, url, {"x_m": 2})
    assert r.json()["facility"]["cooling_kw"] == 120 and r.json()["x_m"] == 2
    r = patch(owner, url, {"facility": {"cooling_kw": None}})
    assert r.json()["facility"] == {"cooling_kw": None, "defaults": ["cooling_kw"]}
    assert patch(owner, url, {"facility": {"cooling_kw": -1}}).status_code == 422


def _pdu(client: TestClient, name: str = "PDU 24") -> int:
    r = client.post("/api/v1/catalog/pdu-models", json={"name": name, "outlets": 24, "weight_kg": 5})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_rack_settings_and_feeds(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    h.row(owner, hall["id"], n=2)
    url = first_rack_url(owner, hall["id"])
    f = owner.get(url).json()["facility"]
    assert (f["power_budget_kw"], f["cooling_kw"], f["cooling_kind"], f["static_load_kg"]) == (None, None, "air", None)
    assert f["defaults"] == ["power_budget_kw", "cooling_kw", "cooling_kind", "static_load_kg", "feeds"]
    dflt = ["voltage_v", "phases", "breaker_a"]
    assert f["feeds"] == [
        {"name": "A", "voltage_v": 230, "phases": 1, "breaker_a": 32, "pdu_model_id": None, "defaults": dflt},
        {"name": "B", "voltage_v": 230, "phases": 1, "breaker_a": 32, "pdu_model_id": None, "defaults": dflt},
    ]
    pdu = _pdu(owner)
    body = {"power_budget_kw": 12, "cooling_kind": "rear-door", "cooling_kw": 30, "static_load_kg": 1000,
            "feeds": [{"name": "B", "voltage_v": 240, "phases": 3, "breaker_a": 16, "pdu_model_id": pdu},
                      {"name": "A", "breaker_a": 63}]}  # fmt: skip
    r = patch(owner, url, {"facility": body})
    assert r.status_code == 200, r.text
    f = r.json()["facility"]
    assert (f["power_budget_kw"], f["cooling_kw"], f["cooling_kind"], f["static_load_kg"], f["defaults"]) == (
        12,
        30,
        "rear-door",
        1000,
        [],
    )
    assert f["feeds"] == [
        {"name": "A", "voltage_v": 230, "phases": 1, "breaker_a": 63, "pdu_model_id": None,
         "defaults": ["voltage_v", "phases"]},
        {"name": "B", "voltage_v": 240, "phases": 3, "breaker_a": 16, "pdu_model_id": pdu, "defaults": []},
    ]  # fmt: skip
    # The layout document carries the same; a rack that sets nothing is null there (the document
    # gives that facility once).
    layout = owner.get(f"/api/v1/halls/{hall['id']}/layout").json()
    assert layout["rows"][0]["racks"][0]["facility"] == f
    assert layout["rows"][0]["racks"][1]["facility"] is None
    assert layout["rack_facility_defaults"]["feeds"] == [
        {"name": "A", "voltage_v": 230, "phases": 1, "breaker_a": 32, "pdu_model_id": None, "defaults": dflt},
        {"name": "B", "voltage_v": 230, "phases": 1, "breaker_a": 32, "pdu_model_id": None, "defaults": dflt},
    ]
    # Contents edits keep the settings; a PDU in use cannot be deleted.
    r = patch(owner, url, {"port_face": "rear"})
    assert r.status_code == 200 and r.json()["facility"] == f
    assert owner.delete(f"/api/v1/catalog/pdu-models/{pdu}", headers={"If-Match": '"1"'}).status_code == 409
    # One feed; then back to the defaults.
    r = patch(owner, url, {"facility": {"feeds": [{"name": "A"}], "power_budget_kw": None}})
    f = r.json()["facility"]
    assert [x["name"] for x in f["feeds"]] == ["A"] and f["defaults"] == ["power_budget_kw"]
    r = patch(owner, url, {"facility": {"feeds": None}})
    assert [x["name"] for x in r.json()["facility"]["feeds"]] == ["A", "B"]
    assert r.json()["facility"]["defaults"] == ["power_budget_kw", "feeds"]


def test_bad_feeds_are_refused_naming_the_field(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    h.row(owner, hall["id"], n=1)
    url = first_rack_url(owner, hall["id"])
    theirs = _pdu(h.client("other@example.com"), "their PDU")
    for feeds, field, words in [
        ([{"name": "A", "voltage_v": 0}], "body.facility.feeds.0.voltage_v", "greater than 0"),
        ([{"name": "A", "phases": 2}], "body.facility.feeds.0.phases", "1 or 3"),
        ([{"name": "A", "breaker_a": -16}], "body.facility.feeds.0.breaker_a", "greater than 0"),
        ([{"name": "A"}, {"name": "B"}, {"name": "A"}], "body.facility.feeds", "at most 2"),
        ([{"name": "A"}, {"name": "A"}], "body.facility.feeds", "two feeds named 'A'"),
        ([{"name": "C"}], "body.facility.feeds.0.name", "'A' or 'B'"),
        ([], "body.facility.feeds", "at least 1"),
        ([{"name": "A", "pdu_model_id": theirs}], "facility.feeds[0].pdu_model_id", f"unknown PDU model {theirs}"),
    ]:
        r = patch(owner, url, {"facility": {"feeds": feeds}})
        assert r.status_code == 422 and fields(r) == {field} and words in r.text, (feeds, r.text)
    r = patch(owner, url, {"facility": {"cooling_kind": "water"}})
    assert r.status_code == 422 and fields(r) == {"body.facility.cooling_kind"}
    r = patch(owner, url, {"facility": {"power_budget_kw": 0}})
    assert r.status_code == 422 and fields(r) == {"body.facility.power_budget_kw"}


def test_tray_runs_are_written_under_the_halls_version(owner: TestClient, hall: dict[str, Any]) -> None:
    url = f"/api/v1/halls/{hall['id']}/tray-runs"
    spec = {"width_mm": 600, "usable_depth_mm": 150, "load_kg_per_m": 120}
    assert owner.put(f"{url}/T3", json=spec).status_code == 428
    assert owner.put(f"{url}/T3", json=spec, headers={"If-Match": '"7"'}).status_code == 409
    r = owner.put(f"{url}/T3", json=spec, headers={"If-Match": '"1"'})
    assert r.status_code == 200, r.text
    assert r.json() == {"name": "T3", **spec} and r.headers["etag"] == '"2"'
    r = owner.put(f"{url}/T3", json={**spec, "width_mm": 450}, headers={"If-Match": '"2"'})
    assert r.json()["width_mm"] == 450 and r.headers["etag"] == '"3"'
    owner.put(f"{url}/T1", json=spec, headers={"If-Match": '"3"'})
    listed = owner.get(url).json()
    assert listed["total"] == 2 and [x["name"] for x in listed["items"]] == ["T1", "T3"]
    assert owner.get(f"/api/v1/halls/{hall['id']}").headers["etag"] == '"4"'
    r = owner.put(f"{url}/T9", json={**spec, "usable_depth_mm": 0}, headers={"If-Match": '"4"'})
    assert r.status_code == 422 and fields(r) == {"body.usable_depth_mm"}
    assert owner.put(f"{url}/T%201", json=spec, headers={"If-Match": '"4"'}).status_code == 422
    r = owner.delete(f"{url}/T3", headers={"If-Match": '"4"'})
    assert r.status_code == 204 and r.headers["etag"] == '"5"'
    assert owner.delete(f"{url}/T3", headers={"If-Match": '"5"'}).status_code == 404
    assert [x["name"] for x in owner.get(url).json()["items"]] == ["T1"]


def test_viewers_and_read_only_tokens_cannot_write_facility_settings(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, app: Any
) -> None:
    viewer = h.client("viewer@example.com")
    h.join(owner, viewer, hall["project_id"], "viewer@example.com", "viewer")
    hall_url = f"/api/v1/halls/{hall['id']}"
    runs = f"{hall_url}/tray-runs/T1"
    spec = {"width_mm": 600, "usable_depth_mm": 150, "load_kg_per_m": 120}
    assert viewer.get(f"{hall_url}/facility").status_code == 200
    assert (
        viewer.patch(hall_url, json={"facility": {"power_factor": 0.9}}, headers={"If-Match": '"1"'}).status_code == 403
    )
    assert viewer.put(runs, json=spec, headers={"If-Match": '"1"'}).status_code == 403
    secret = owner.post("/api/v1/tokens", json={"name": "ro", "scopes": ["layout:read"]}).json()["token"]
    bot = TestClient(app, headers={"Authorization": f"Bearer {secret}"})
    assert bot.get(f"{hall_url}/facility").status_code == 200
    assert bot.get(f"{hall_url}/tray-runs").status_code == 200
    assert bot.patch(hall_url, json={"facility": {"power_factor": 0.9}}, headers={"If-Match": '"1"'}).status_code == 403
    assert bot.put(runs, json=spec, headers={"If-Match": '"1"'}).status_code == 403
    assert bot.delete(runs, headers={"If-Match": '"1"'}).status_code == 403
    assert owner.get(hall_url).json()["facility"]["power_factor"] == 1.0


def test_the_report_names_a_rack_over_both_its_feeds(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    """The issue's example: 40 servers at 700 W max on 2 x (230 V, 32 A, single phase) feeds at PF 1.
    With two 150 W ToRs: 40 x 700 + 2 x 150 = 28,300 W at most (40 x 500 + 2 x 100 = 20,200 typical),
    against 0.8 x 230 x 32 = 5,888 W per feed: each feed alone must carry the whole rack (N+N)."""
    server = owner.post("/api/v1/catalog/server-models", json={
        "name": "700 W server", "nic_ports": 2, "port_gbps": 25, "typical_w": 500, "max_w": 700,
        "weight_kg": 15, "airflow": "front-to-rear"}).json()["id"]  # fmt: skip
    tor = owner.post("/api/v1/catalog/switch-models", json={
        "name": "150 W ToR", "server_ports": 48, "server_port_gbps": 25, "uplink_ports": 8, "uplink_gbps": 100,
        "typical_w": 100, "max_w": 150, "weight_kg": 8, "airflow": "front-to-rear"}).json()["id"]  # fmt: skip
    lr = {"servers": 20, "server_model_id": server, "ports_used": 2, "tor_model_id": tor}
    h.row(owner, hall["id"], n=1, rack_template={"rack_type_id": h.cat.rack, "logical_racks": [lr, lr]})
    r = owner.get(f"/api/v1/halls/{hall['id']}/facility")
    assert r.status_code == 200, r.text
    report = r.json()
    (rack,) = report["racks"]
    assert (rack["rack"], rack["row"], rack["max_w"], rack["typical_w"]) == ("R01-01", "R01", 28300, 20200)
    assert [(f["feed"], f["capacity_w"], f["limit_w"], f["load_w"]) for f in rack["feeds"]] == [
        ("A", 7360, 5888, 28300),
        ("B", 7360, 5888, 28300),
    ]
    (feed_issue,) = [i for i in report["errors"] if i["field"] == "rows[R01].racks[R01-01].feeds"]
    assert feed_issue["code"] == "feed_not_redundant"
    assert "rack 'R01-01' draws up to 28.3 kW" in feed_issue["message"]
    assert "feeds A and B cannot" in feed_issue["message"]
    assert (report["totals"]["max_w"], report["totals"]["typical_w"]) == (28300, 20200)
    assert report["trays"] == [] and report["totals"]["fullest_tray"] is None
    assert report["totals"]["incomplete"] == [], "every model here has every fact"
    # Three-phase 32 A feeds: 0.8 x 230 x 32 x 3 = 17,664 W each: still short of 28.3 kW.
    patch(
        owner,
        first_rack_url(owner, hall["id"]),
        {"facility": {"feeds": [{"name": "A", "phases": 3}, {"name": "B", "phases": 3}]}},
    )
    rack = owner.get(f"/api/v1/halls/{hall['id']}/facility").json()["racks"][0]
    assert [f["limit_w"] for f in rack["feeds"]] == [17664, 17664]


def test_the_report_with_a_plan_routes_its_cables_through_the_trays(
    owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace
) -> None:
    plan = h.plan(owner, row_hall["id"], pattern="single-homed")
    r = owner.get(f"/api/v1/halls/{row_hall['id']}/facility", params={"plan_id": plan["id"]})
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["trays"], "a plan's cables between racks run through the trays"
    fullest = max(report["trays"], key=lambda t: t["fill_pct"])
    assert report["totals"]["fullest_tray"] == fullest["name"]
    assert all(t["cables"] >= 1 and len(t["start_m"]) == 3 for t in report["trays"])
    r = owner.get(f"/api/v1/halls/{row_hall['id']}/facility", params={"plan_id": 999_999})
    assert r.status_code == 404 and fields(r) == {"plan_id"}
