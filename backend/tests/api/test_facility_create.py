"""Facility settings given at creation (issue 28 follow-up): a row's cooling and a rack's feeds,
budget, cooling and static load through every creating path (a row and its `rack_template`, bulk
rows, a row pair, a single rack), with the PATCH's validation and 422s naming the field's path.
Hand-derived: 2 feeds of 230 V x 16 A x 3 phases at the default power factor 1.0 -> capacity
11,040 W each, limit 0.8 x 11,040 = 8,832 W."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FEEDS = [{"name": n, "voltage_v": 230, "phases": 3, "breaker_a": 16} for n in "AB"]
RACK_FACILITY = {"power_budget_kw": 12.5, "cooling_kw": 14, "cooling_kind": "rear-door", "static_load_kg": 1100,
                 "feeds": FEEDS}  # fmt: skip
FEEDS_READ = [{**f, "pdu_model_id": None, "defaults": []} for f in FEEDS]


def fields(r: Any) -> set[str]:
    """The dotted paths of an error body's entries (request validation: `body.x`; domain errors: `x`)."""
    return {".".join(str(p) for p in e["loc"]) for e in r.json()["detail"]}


def racks_of(client: TestClient, row_id: int) -> list[dict[str, Any]]:
    return list(client.get(f"/api/v1/rows/{row_id}/racks").json()["items"])


def report_feeds(client: TestClient, hall_id: int) -> dict[str, list[tuple[str, float, float]]]:
    report = client.get(f"/api/v1/halls/{hall_id}/facility").json()
    return {r["rack"]: [(f["feed"], f["capacity_w"], f["limit_w"]) for f in r["feeds"]] for r in report["racks"]}


def _pdu(client: TestClient, name: str) -> int:
    r = client.post("/api/v1/catalog/pdu-models", json={"name": name, "outlets": 24, "weight_kg": 5})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_a_row_from_a_template_with_feeds_gives_every_rack_them(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 3, "facility": {"cooling_kw": 40},
            "rack_template": {**h.template(b=1), "facility": RACK_FACILITY}}  # fmt: skip
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body)
    assert r.status_code == 201, r.text
    row = r.json()
    assert row["facility"] == {"cooling_kw": 40, "defaults": []}
    racks = racks_of(owner, row["id"])
    assert [x["name"] for x in racks] == ["R01-01", "R01-02", "R01-03"]
    for rack in racks:
        assert rack["facility"] == {"power_budget_kw": 12.5, "cooling_kw": 14, "cooling_kind": "rear-door",
                                    "static_load_kg": 1100, "feeds": FEEDS_READ, "defaults": []}  # fmt: skip
    # 230 V x 16 A x 3 phases x PF 1.0 = 11,040 W; 80 % of it = 8,832 W, on each feed of each rack.
    assert report_feeds(owner, hall["id"]) == {
        name: [("A", 11_040, 8_832), ("B", 11_040, 8_832)] for name in ("R01-01", "R01-02", "R01-03")
    }
    # The row's cooling and the racks' settings read the same as after a PATCH (the layout too).
    layout = owner.get(f"/api/v1/halls/{hall['id']}/layout").json()
    assert [x["facility"] for x in layout["rows"][0]["racks"]] == [x["facility"] for x in racks]


def test_a_template_sets_only_what_it_names_the_rest_stays_default(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    feeds = [{"name": "A", "phases": 3, "breaker_a": 16}]
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 2,
            "rack_template": {**h.template(b=1), "facility": {"feeds": feeds, "power_budget_kw": None}}}  # fmt: skip
    row = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body).json()
    assert row["facility"] == {"cooling_kw": None, "defaults": ["cooling_kw"]}
    for rack in racks_of(owner, row["id"]):
        f = rack["facility"]
        assert f["defaults"] == ["power_budget_kw", "cooling_kw", "cooling_kind", "static_load_kg"]
        # One feed A; its voltage is the default 230 V (stored NULL, named in `defaults`).
        assert f["feeds"] == [{"name": "A", "voltage_v": 230, "phases": 3, "breaker_a": 16, "pdu_model_id": None,
                               "defaults": ["voltage_v"]}]  # fmt: skip
    assert report_feeds(owner, hall["id"]) == {n: [("A", 11_040, 8_832)] for n in ("R01-01", "R01-02")}


def test_bulk_rows_with_and_without_facility(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    pdu = _pdu(owner, "PDU 3P")
    with_pdu = [{**FEEDS[0], "pdu_model_id": pdu}, FEEDS[1]]
    body = {"rows": [
        {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 2, "facility": {"cooling_kw": 30},
         "rack_template": {**h.template(b=1), "facility": {**RACK_FACILITY, "feeds": with_pdu}}},
        {"name": "R02", "x_m": 1, "y_m": 5, "rack_count": 2, "rack_template": h.template(b=1)},
        {"name": "R03", "x_m": 1, "y_m": 9, "racks": [
            {**h.template(b=1), "name": "X1", "facility": {"cooling_kind": "liquid"}},
            {**h.template(b=1), "name": "X2"}]},
    ]}  # fmt: skip
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows/bulk", json=body)
    assert r.status_code == 201, r.text
    rows = {x["name"]: x for x in r.json()["rows"]}
    assert [rows[n]["facility"]["cooling_kw"] for n in ("R01", "R02", "R03")] == [30, None, None]
    r01 = racks_of(owner, rows["R01"]["id"])
    assert [[f["pdu_model_id"] for f in x["facility"]["feeds"]] for x in r01] == [[pdu, None], [pdu, None]]
    assert all(x["facility"]["defaults"] == [] for x in r01)
    all_defaults = ["power_budget_kw", "cooling_kw", "cooling_kind", "static_load_kg", "feeds"]
    assert [x["facility"]["defaults"] for x in racks_of(owner, rows["R02"]["id"])] == [all_defaults] * 2
    x1, x2 = racks_of(owner, rows["R03"]["id"])
    assert (x1["facility"]["cooling_kind"], x2["facility"]["cooling_kind"]) == ("liquid", "air")
    assert x1["facility"]["defaults"] == ["power_budget_kw", "cooling_kw", "static_load_kg", "feeds"]
    # Default feeds: 230 V x 32 A x 1 phase = 7,360 W, limit 5,888 W.
    feeds = report_feeds(owner, hall["id"])
    assert feeds["R01-01"] == feeds["R01-02"] == [("A", 11_040, 8_832), ("B", 11_040, 8_832)]
    assert feeds["R02-01"] == feeds["X1"] == [("A", 7_360, 5_888), ("B", 7_360, 5_888)]
    # The PDU is in use on the new racks: it cannot be deleted.
    assert owner.delete(f"/api/v1/catalog/pdu-models/{pdu}", headers={"If-Match": '"1"'}).status_code == 409


def test_a_row_pair_and_a_single_rack_take_facility(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    body = {"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 2, "facility": {"cooling_kw": 25},
            "rack_template": {**h.template(b=1), "facility": {"feeds": FEEDS, "static_load_kg": 900}}}  # fmt: skip
    r = owner.post(f"/api/v1/halls/{hall['id']}/row-pairs", json=body)
    assert r.status_code == 201, r.text
    rows = r.json()["rows"]
    assert [x["facility"]["cooling_kw"] for x in rows] == [25, 25]
    for row in rows:
        for rack in racks_of(owner, row["id"]):
            assert (rack["facility"]["static_load_kg"], rack["facility"]["feeds"]) == (900, FEEDS_READ)
    single = {**h.template(b=1), "name": "N01", "facility": {"power_budget_kw": 8, "feeds": [FEEDS[1]]}}
    r = owner.post(f"/api/v1/rows/{rows[0]['id']}/racks", json=single)
    assert r.status_code == 201, r.text
    f = r.json()["facility"]
    assert (f["power_budget_kw"], f["feeds"]) == (8, [FEEDS_READ[1]])
    assert f["defaults"] == ["cooling_kw", "cooling_kind", "static_load_kg"]
    assert report_feeds(owner, hall["id"])["N01"] == [("B", 11_040, 8_832)]
    assert owner.get(f"/api/v1/racks/{r.json()['id']}").json()["facility"] == f


def test_bad_facility_at_creation_is_refused_naming_the_field(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    theirs = _pdu(h.client("other@example.com"), "their PDU")
    url = f"/api/v1/halls/{hall['id']}/rows"
    bad_phase = [FEEDS[0], {**FEEDS[1], "phases": 2}]

    def row(rack_facility: Any, **extra: Any) -> dict[str, Any]:
        return {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 3,
                "rack_template": {**h.template(b=1), "facility": rack_facility}, **extra}  # fmt: skip

    for body, field, words in [
        (row({"feeds": bad_phase}), "body.rack_template.facility.feeds.1.phases", "1 or 3"),
        (row({"feeds": [FEEDS[0], FEEDS[0]]}), "body.rack_template.facility.feeds", "two feeds named 'A'"),
        (row({"feeds": []}), "body.rack_template.facility.feeds", "at least 1"),
        (row({"power_budget_kw": 0}), "body.rack_template.facility.power_budget_kw", "greater than 0"),
        (row({"cooling_kind": "water"}), "body.rack_template.facility.cooling_kind", "air"),
        (row({}, facility={"cooling_kw": -1}), "body.facility.cooling_kw", "greater than or equal to 0"),
        (row({"feeds": [{"name": "A", "pdu_model_id": theirs}]}), "rack_template.facility.feeds[0].pdu_model_id",
         f"unknown PDU model {theirs}"),
    ]:  # fmt: skip
        r = owner.post(url, json=body)
        assert r.status_code == 422 and fields(r) == {field} and words in r.text, (body, r.text)
    # Bulk: the row's index leads the path; a pair names its template; a single rack its facility.
    bulk = {"rows": [row({}), {**row({"feeds": [FEEDS[0], {"name": "B", "pdu_model_id": theirs}]}), "name": "R02"}]}
    r = owner.post(f"{url}/bulk", json=bulk)
    assert r.status_code == 422 and fields(r) == {"rows[1].rack_template.facility.feeds[1].pdu_model_id"}, r.text
    bulk["rows"][1]["racks"] = [{**h.template(b=1), "facility": {"feeds": bad_phase}}]
    r = owner.post(f"{url}/bulk", json=bulk)
    assert r.status_code == 422 and fields(r) == {"body.rows.1.racks.0.facility.feeds.1.phases"}, r.text
    theirs_a = {"feeds": [{"name": "A", "pdu_model_id": theirs}]}
    pair = {"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 1,
            "rack_template": {**h.template(b=1), "facility": theirs_a}}  # fmt: skip
    r = owner.post(f"/api/v1/halls/{hall['id']}/row-pairs", json=pair)
    assert r.status_code == 422 and fields(r) == {"rack_template.facility.feeds[0].pdu_model_id"}, r.text
    assert owner.get(url).json()["total"] == 0, "nothing was written"
    row_id = h.row(owner, hall["id"], n=1)["id"]
    r = owner.post(
        f"/api/v1/rows/{row_id}/racks", json={"facility": {"feeds": [{"name": "A", "pdu_model_id": theirs}]}}
    )
    assert r.status_code == 422 and fields(r) == {"facility.feeds[0].pdu_model_id"}, r.text
    r = owner.post(f"/api/v1/rows/{row_id}/racks", json={"facility": {"static_load_kg": -5}})
    assert r.status_code == 422 and fields(r) == {"body.facility.static_load_kg"}, r.text
    assert len(racks_of(owner, row_id)) == 1


FEED_BODY = st.fixed_dictionaries(
    {},
    optional={"voltage_v": st.floats(1, 480), "phases": st.sampled_from([1, 3]), "breaker_a": st.floats(1, 125)},
)
RACK_BODY = st.fixed_dictionaries(
    {},
    optional={
        "power_budget_kw": st.one_of(st.none(), st.floats(0.1, 100)),
        "cooling_kw": st.one_of(st.none(), st.floats(0, 100)),
        "cooling_kind": st.one_of(st.none(), st.sampled_from(["air", "rear-door", "liquid"])),
        "static_load_kg": st.one_of(st.none(), st.floats(1, 3000)),
        "feeds": st.one_of(
            st.none(), st.lists(FEED_BODY, min_size=1, max_size=2).map(
                lambda fs: [{"name": n, **f} for n, f in zip("AB", fs, strict=False)])
        ),
    },
)  # fmt: skip


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=RACK_BODY)
def test_a_rack_created_with_settings_reads_as_one_created_bare_and_patched(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, body: dict[str, Any]
) -> None:
    """One owner of the settings' meaning: whatever subset is sent (nulls included), creating with it
    and PATCHing it onto a bare rack give the same facility."""
    url = f"/api/v1/halls/{hall['id']}/rows"
    rows = owner.get(url).json()["items"]
    row_id = rows[0]["id"] if rows else h.row(owner, hall["id"], n=0)["id"]
    made = owner.post(f"/api/v1/rows/{row_id}/racks", json={"facility": body})
    bare = owner.post(f"/api/v1/rows/{row_id}/racks", json={})
    assert made.status_code == bare.status_code == 201, (made.text, bare.text)
    patched = owner.patch(f"/api/v1/racks/{bare.json()['id']}", json={"facility": body},
                          headers={"If-Match": bare.headers["etag"]})  # fmt: skip
    assert patched.status_code == 200, patched.text
    assert made.json()["facility"] == patched.json()["facility"]
    for rack in (made, patched):
        gone = owner.delete(f"/api/v1/racks/{rack.json()['id']}", headers={"If-Match": rack.headers["etag"]})
        assert gone.status_code == 204, gone.text
