"""Halls, rows, racks and their contents through the API, against the real PostgreSQL."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from loopline.api.schemas.layout import HallLayout


def errors(r: Any) -> list[tuple[str, str]]:
    return [(e.get("field") or ".".join(map(str, e["loc"])), e["msg"]) for e in r.json()["detail"]]


# ---------------------------------------------------------------- halls


def test_hall_crud_with_etags(owner: TestClient, project: int) -> None:
    r = owner.post(
        f"/api/v1/projects/{project}/halls",
        json={"name": "H1", "width_m": 24.6, "depth_m": 18, "raised_floor": True, "raised_floor_height_m": 0.6},
    )
    assert r.status_code == 201, r.text
    hall = r.json()
    assert hall["width_m"] == 24.6 and hall["tile_m"] == 0.6 and hall["tray_height_m"] == 0.3
    assert r.headers["etag"] == '"1"'
    got = owner.get(f"/api/v1/halls/{hall['id']}")
    assert got.json() == hall and got.headers["etag"] == '"1"'
    listed = owner.get(f"/api/v1/projects/{project}/halls").json()
    assert listed["total"] == 1 and listed["items"][0]["name"] == "H1" and listed["page"] == 1
    r = owner.patch(f"/api/v1/halls/{hall['id']}", json={"tile_m": 0.5}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["tile_m"] == 0.5 and r.json()["version"] == 2
    assert owner.delete(f"/api/v1/halls/{hall['id']}", headers={"If-Match": '"2"'}).status_code == 204
    assert owner.get(f"/api/v1/halls/{hall['id']}").status_code == 404


def test_hall_sizes_are_validated(owner: TestClient, project: int) -> None:
    url = f"/api/v1/projects/{project}/halls"
    for body, field in [
        ({"name": "H", "width_m": -1, "depth_m": 10}, "width_m"),
        ({"name": "H", "width_m": 0, "depth_m": 10}, "width_m"),
        ({"name": "H", "width_m": 10, "depth_m": 5000}, "depth_m"),
        ({"name": "H", "width_m": 10, "depth_m": 10, "tile_m": 0.01}, "tile_m"),
        ({"name": "", "width_m": 10, "depth_m": 10}, "name"),
    ]:
        r = owner.post(url, json=body)
        assert r.status_code == 422, body
        assert r.json()["detail"][0]["loc"] == ["body", field]
    r = owner.post(url, json={"name": "H", "width_m": 10, "depth_m": 10, "raised_floor": True})
    assert r.status_code == 422 and "raised_floor_height_m must be > 0" in r.text
    owner.post(url, json={"name": "H", "width_m": 10, "depth_m": 10})
    r = owner.post(url, json={"name": "H", "width_m": 10, "depth_m": 10})
    assert r.status_code == 409 and errors(r) == [("name", "a hall named 'H' already exists in this project")]


def test_shrinking_a_hall_under_its_racks_is_refused(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    h.row(owner, hall["id"], n=10)  # x 1..7 m
    r = owner.patch(f"/api/v1/halls/{hall['id']}", json={"width_m": 5}, headers={"If-Match": '"1"'})
    assert r.status_code == 422
    assert ("rows[R01].racks[R01-07].position_m", r.json()["detail"][0]["msg"]) in errors(r)
    assert "outside the hall floor" in r.json()["detail"][0]["msg"]
    assert owner.get(f"/api/v1/halls/{hall['id']}").json()["width_m"] == 30  # nothing half-written


# ---------------------------------------------------------------- rows and racks


def test_row_of_n_racks_with_the_same_contents(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=12, x=2, y=3)
    assert row["rack_count"] == 12 and [r["name"] for r in row["racks"]][:2] == ["R01-01", "R01-02"]
    assert [r["position_m"] for r in row["racks"]] == [round(0.6 * i, 1) for i in range(12)]
    first = row["racks"][0]
    assert first["rack_type_id"] == h.cat.rack
    assert [(x["base_u"], x["top_u"], x["tor_u"]) for x in first["logical_racks"]] == [(1, 16, 16), (17, 32, 32)]
    listed = owner.get(f"/api/v1/halls/{hall['id']}/rows").json()
    assert listed["items"][0]["rack_count"] == 12
    racks = owner.get(f"/api/v1/rows/{row['id']}/racks", params={"limit": 5, "page": 3}).json()
    assert racks["total"] == 12 and [r["name"] for r in racks["items"]] == ["R01-11", "R01-12"]


def test_row_pair_faces_across_a_cold_aisle(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={
            "name_a": "R01",
            "name_b": "R02",
            "x_m": 2,
            "y_m": 2,
            "cold_aisle_m": 1.2,
            "rack_count": 10,
            "rack_template": h.template(),
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["racks_created"] == 20 and body["logical_racks_created"] == 40
    a, b = body["rows"]
    assert (a["front"], b["front"], b["y_m"]) == ("left", "right", 4.4)
    v = owner.get(f"/api/v1/halls/{hall['id']}/validation").json()
    assert v["errors"] == [] and v["warnings"] == []
    assert v["aisles"] == [
        {
            "kind": "cold",
            "row_a": "R01",
            "row_b": "R02",
            "width_m": 1.2,
            "x0_m": 2.0,
            "y0_m": 3.2,
            "x1_m": 8.0,
            "y1_m": 4.4,
            "min_width_m": 1.2,
            "too_narrow": False,
        }
    ]


def test_narrow_aisles_are_warnings(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={
            "name_a": "R01",
            "name_b": "R02",
            "x_m": 2,
            "y_m": 2,
            "cold_aisle_m": 1.0,
            "rack_count": 4,
            "rack_template": h.template(),
        },
    ).raise_for_status()
    # R03 backs onto R02's back across 0.6 m: a hot aisle below 0.9 m.
    h.row(owner, hall["id"], "R03", x=2, y=6.2, front="left")
    warnings = owner.get(f"/api/v1/halls/{hall['id']}/validation").json()["warnings"]
    assert [(w["code"], w["field"]) for w in warnings] == [
        ("aisle_too_narrow", "rows[R02].y_m"),
        ("aisle_too_narrow", "rows[R03].y_m"),
    ]
    assert "cold aisle between rows 'R01' and 'R02' is 1 m wide, below the minimum of 1.2 m" in warnings[0]["message"]
    assert "hot aisle" in warnings[1]["message"]


def test_bulk_rows_in_one_transaction(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    rows = [
        {"name": f"R{i:02d}", "x_m": 1, "y_m": 1 + 2.4 * i, "rack_count": 20, "rack_template": h.template()}
        for i in range(5)
    ]
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows/bulk", json={"rows": rows})
    assert r.status_code == 201, r.text
    assert r.json()["racks_created"] == 100 and r.json()["logical_racks_created"] == 200
    # One overlapping row spoils the whole request: nothing of it is written.
    bad = [
        {"name": "S1", "x_m": 1, "y_m": 15, "rack_count": 3, "rack_template": h.template()},
        {"name": "S2", "x_m": 1.3, "y_m": 15.6, "rack_count": 3, "rack_template": h.template()},
    ]
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows/bulk", json={"rows": bad})
    assert r.status_code == 422
    assert errors(r)[0][0].startswith("rows[S2].racks[S2-0") and "overlaps rack" in errors(r)[0][1]
    assert owner.get(f"/api/v1/halls/{hall['id']}/rows").json()["total"] == 5


def test_duplicate_a_row(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=3)
    r = owner.post(f"/api/v1/rows/{row['id']}/duplicate", json={"name": "R09", "x_m": 1, "y_m": 10})
    assert r.status_code == 201, r.text
    copy = r.json()
    assert [k["name"] for k in copy["racks"]] == ["R09-01", "R09-02", "R09-03"]
    strip = lambda racks: [{k: v for k, v in x.items() if k not in ("id", "row_id", "name")} for x in racks]  # noqa: E731
    assert strip(copy["racks"]) == strip(row["racks"])
    r = owner.post(f"/api/v1/rows/{row['id']}/duplicate", json={"name": "R10", "x_m": 1, "y_m": 1.5})
    assert r.status_code == 422 and "overlaps" in r.text


def test_rack_crud_and_contents(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=2)
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json={"logical_racks": [h.lr(servers=10)]})
    assert r.status_code == 201, r.text
    rack = r.json()
    assert rack["name"] == "R01-03" and rack["position_m"] == 1.2 and rack["version"] == 1
    r = owner.patch(
        f"/api/v1/racks/{rack['id']}",
        json={"logical_racks": [h.lr(servers=10, tor_position="middle"), h.lr(servers=10, base_u=20)], "name": "R01-X"},
        headers={"If-Match": h.etag(r)},
    )
    assert r.status_code == 200, r.text
    got = owner.get(f"/api/v1/racks/{rack['id']}")
    assert got.json() == r.json() and got.headers["etag"] == '"2"'
    assert [(x["base_u"], x["tor_u"], x["tor_position"]) for x in got.json()["logical_racks"]] == [
        (1, 6, "middle"),
        (20, 30, "top"),
    ]
    assert owner.delete(f"/api/v1/racks/{rack['id']}", headers={"If-Match": '"2"'}).status_code == 204
    assert owner.get(f"/api/v1/racks/{rack['id']}").status_code == 404
    # Row update and delete.
    r = owner.patch(f"/api/v1/rows/{row['id']}", json={"y_m": 5, "front": "right"}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["y_m"] == 5 and r.json()["version"] == 2
    assert owner.delete(f"/api/v1/rows/{row['id']}", headers={"If-Match": '"2"'}).status_code == 204
    assert owner.get(f"/api/v1/rows/{row['id']}").status_code == 404


def test_network_rack_with_fabric_switches(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=2)
    body = {
        "name": "R01-NET",
        "role": "network",
        "fabric_switches": [
            {"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20},
            {"name": "SP2", "role": "spine", "switch_model_id": h.cat.spine, "u": 22},
        ],
    }
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json=body)
    assert r.status_code == 201, r.text
    assert [s["name"] for s in r.json()["fabric_switches"]] == ["SP1", "SP2"]
    body["name"] = "R01-NET2"
    body["fabric_switches"] = [{"name": "SP3", "role": "spine", "switch_model_id": h.cat.spine, "u": 21}]
    body["fabric_switches"].append({"name": "SP4", "role": "spine", "switch_model_id": h.cat.spine, "u": 22})
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json=body)
    assert r.status_code == 422
    assert errors(r)[0][0] == "rows[R01].racks[R01-NET2].fabric_switches[SP4].u"
    body["fabric_switches"] = [{"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 2}]
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json=body)
    assert r.status_code == 409 and "fabric switch named 'SP1' already exists" in r.text


def test_whole_hall_layout(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 6, "rack_template": h.template()},
    ).raise_for_status()
    r = owner.get(f"/api/v1/halls/{hall['id']}/layout")
    assert r.status_code == 200
    doc = HallLayout.model_validate(r.json())
    assert [row.name for row in doc.rows] == ["R01", "R02"] and len(doc.rows[0].racks) == 6
    assert [a.kind for a in doc.aisles] == ["cold"]
    assert [t.name for t in doc.rack_types] == ["42U 600x1200"]
    assert [m.name for m in doc.switch_models] == ["48x25G+8x100G ToR"]
    assert doc.oversubscription[0].ratio == 1.875


# ---------------------------------------------------------------- validation rules


def test_every_rule_gives_a_422_naming_the_field(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    url = f"/api/v1/halls/{hall['id']}/rows"
    c = h.cat

    def post(**rack: Any) -> Any:
        return owner.post(url, json={"name": "R", "x_m": 1, "y_m": 1, "racks": [{"name": "K", **rack}]})

    cases = [
        (post(logical_racks=[h.lr(), h.lr(base_u=10)]), "rows[R].racks[K].logical_racks[1].base_u", "already used"),
        (post(logical_racks=[h.lr(), h.lr(), h.lr()]), "rows[R].racks[K].logical_racks[2].base_u", "U1..U42"),
        (post(logical_racks=[h.lr(ports=3)]), "rows[R].racks[K].logical_racks[0].ports_used", "2 NIC ports"),
        (post(logical_racks=[h.lr(servers=30)]), "rows[R].racks[K].logical_racks[0].tor_model", "60 server-facing"),
        (post(rack_type_id=99999), "racks[0].rack_type_id", "unknown rack type 99999"),
        (
            post(logical_racks=[{**h.lr(), "server_model_id": 99999}]),
            "racks[0].logical_racks[0].server_model_id",
            "unknown server model",
        ),
        (
            post(logical_racks=[{**h.lr(), "tor_model_id": 99999}]),
            "racks[0].logical_racks[0].tor_model_id",
            "unknown switch model",
        ),
        (post(position_m=29.8), "rows[R].racks[K].position_m", "outside the hall"),
    ]
    for r, field, reason in cases:
        assert r.status_code == 422, (field, r.text)
        found = errors(r)
        assert found[0][0] == field and reason in found[0][1], found
    r = owner.post(url, json={"name": "R", "x_m": -1, "y_m": 1})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "x_m"]
    r = owner.post(url, json={"name": "R", "x_m": 1, "y_m": 1, "direction": 45})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "direction"]
    r = owner.post(
        url, json={"name": "R", "x_m": 1, "y_m": 1, "racks": [{"logical_racks": [{**h.lr(), "servers": -1}]}]}
    )
    assert r.status_code == 422 and r.json()["detail"][0]["loc"][-1] == "servers"
    r = owner.post(url, json={"name": "R", "x_m": 1, "y_m": 1, "surprise": 1})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "surprise"]
    assert owner.get("/api/v1/halls/999999/layout").status_code == 404
    assert owner.get(f"/api/v1/halls/{hall['id']}/rows").json()["total"] == 0
    assert c.rack  # the catalog fixture is used


def test_moving_a_rack_onto_another_is_refused(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    row = h.row(owner, hall["id"], n=3)
    rack = row["racks"][2]
    r = owner.patch(f"/api/v1/racks/{rack['id']}", json={"position_m": 0.9}, headers={"If-Match": '"1"'})
    assert r.status_code == 422 and "overlaps rack 'R01-02'" in r.text
    assert owner.get(f"/api/v1/racks/{rack['id']}").json()["position_m"] == 1.2


def test_row_pair_along_y(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={
            "name_a": "V1",
            "name_b": "V2",
            "x_m": 5,
            "y_m": 2,
            "direction": 90,
            "cold_aisle_m": 1.5,
            "rack_count": 8,
            "rack_template": h.template(),
        },
    )
    assert r.status_code == 201, r.text
    a, b = r.json()["rows"]
    assert (b["x_m"], b["y_m"], b["direction"]) == (2.3, 2.0, 90)
    aisles = owner.get(f"/api/v1/halls/{hall['id']}/validation").json()["aisles"]
    assert [(x["kind"], x["width_m"]) for x in aisles] == [("cold", 1.5)]
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={
            "name_a": "W1",
            "name_b": "W2",
            "x_m": 1,
            "y_m": 12,
            "direction": 90,
            "rack_count": 2,
            "rack_template": h.template(),
        },
    )
    assert r.status_code == 422 and errors(r)[0][0] == "x_m" and "outside the hall" in errors(r)[0][1]


def test_raised_floor_rules_on_update(owner: TestClient, hall: dict[str, Any]) -> None:
    url = f"/api/v1/halls/{hall['id']}"
    r = owner.patch(url, json={"raised_floor": True}, headers={"If-Match": '"1"'})
    assert r.status_code == 422 and errors(r) == [("raised_floor_height_m", "must be > 0 when raised_floor is true")]
    r = owner.patch(url, json={"raised_floor": True, "raised_floor_height_m": 0.8}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["raised_floor_height_m"] == 0.8
    r = owner.patch(url, json={"raised_floor": False, "raised_floor_height_m": None}, headers={"If-Match": '"2"'})
    assert r.status_code == 200 and r.json()["raised_floor_height_m"] == 0


def test_the_report_judges_aisles_by_the_halls_own_minimums(
    owner: TestClient, project: int, h: SimpleNamespace
) -> None:
    # A 1.2 m cold aisle and a 1.0 m hot one, in a hall asking at least 1.5 m cold and 1.1 m hot.
    r = owner.post(
        f"/api/v1/projects/{project}/halls",
        json={"name": "H", "width_m": 20, "depth_m": 12, "min_cold_aisle_m": 1.5, "min_hot_aisle_m": 1.1},
    )
    hall = r.json()
    for name, y, front in (("A", 1, "left"), ("B", 3.4, "right"), ("C", 5.6, "left")):
        h.row(owner, hall["id"], name, x=1, y=y, n=4, front=front)
    report = owner.get(f"/api/v1/halls/{hall['id']}/validation").json()
    assert report["aisles"] == [
        {
            "kind": "cold",
            "row_a": "A",
            "row_b": "B",
            "width_m": 1.2,
            "x0_m": 1.0,
            "y0_m": 2.2,
            "x1_m": 3.4,
            "y1_m": 3.4,
            "min_width_m": 1.5,
            "too_narrow": True,
        },
        {
            "kind": "hot",
            "row_a": "B",
            "row_b": "C",
            "width_m": 1.0,
            "x0_m": 1.0,
            "y0_m": 4.6,
            "x1_m": 3.4,
            "y1_m": 5.6,
            "min_width_m": 1.1,
            "too_narrow": True,
        },
    ]
    assert [(w["code"], w["message"]) for w in report["warnings"] if w["code"].startswith("aisle")] == [
        ("aisle_too_narrow", "cold aisle between rows 'A' and 'B' is 1.2 m wide, below the minimum of 1.5 m"),
        ("aisle_too_narrow", "hot aisle between rows 'B' and 'C' is 1 m wide, below the minimum of 1.1 m"),
    ]
    # The layout document draws the same aisles.
    assert owner.get(f"/api/v1/halls/{hall['id']}/layout").json()["aisles"] == report["aisles"]
    # At the defaults (1.2 m cold, 0.9 m hot) both aisles are wide enough.
    r = owner.patch(
        f"/api/v1/halls/{hall['id']}",
        json={"min_cold_aisle_m": 1.2, "min_hot_aisle_m": 0.9},
        headers={"If-Match": r.headers["etag"]},
    )
    assert r.status_code == 200, r.text
    report = owner.get(f"/api/v1/halls/{hall['id']}/validation").json()
    assert [(a["min_width_m"], a["too_narrow"]) for a in report["aisles"]] == [(1.2, False), (0.9, False)]
    assert [w for w in report["warnings"] if w["code"].startswith("aisle")] == []
