"""What Schemathesis' checks (`--checks all`) hold the API to, each reproduced here: routing answers
405/404 in the error body's shape, numbers and booleans are not converted from other JSON types,
the document's patterns are exactly the rules the API applies, and its links chain resources."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopline.api.app import create_app
from loopline.api.openapi import TEXT_PATTERN, name_pattern
from loopline.api.schemas.common import NAME_FIELDS
from loopline.domain.names import spoofing

HALL = {"name": "H9", "site": "S1", "width_m": 30, "depth_m": 20, "raised_floor": False}


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PATCH", "/api/v1/projects/import", "POST"),
        ("PATCH", "/api/v1/projects/imports", "GET"),
        ("PUT", "/api/v1/sweeps/1.json", "GET"),
        ("DELETE", "/api/v1/projects", "GET, POST"),
    ],
)
def test_a_method_the_path_lacks_is_a_405_naming_the_ones_it_has(
    owner: TestClient, method: str, path: str, allow: str
) -> None:
    """`/projects/import` was taken for project `import`: PATCH answered 422 about `project_id`."""
    r = owner.request(method, path, json={})
    assert r.status_code == 405, r.text
    assert r.headers["allow"] == allow
    assert r.json() == {"detail": [{"loc": ["method"], "field": "method", "msg": "Method Not Allowed"}]}


@pytest.mark.parametrize("path", ["/api/v1/projects/abc", "/api/v1/halls/-1/layout", "/api/v1/nothing-here"])
def test_text_where_an_id_goes_is_a_404_in_the_error_shape(owner: TestClient, path: str) -> None:
    r = owner.get(path)
    assert r.status_code == 404, r.text
    assert r.json() == {"detail": [{"loc": ["path"], "field": "path", "msg": "Not Found"}]}


def test_an_id_out_of_range_is_still_named(owner: TestClient) -> None:
    r = owner.get("/api/v1/catalog/server-models/0")
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["path", "entry_id"]
    r = owner.get("/api/v1/projects/0")  # the project guard answers first
    assert r.status_code == 404, r.text
    assert r.json()["detail"][0]["field"] == "project_id"


@pytest.mark.parametrize(
    ("body", "loc", "reason"),
    [
        ({**HALL, "min_hot_aisle_m": False}, ["body", "min_hot_aisle_m"], "valid number"),
        ({**HALL, "width_m": "30"}, ["body", "width_m"], "valid number"),
        ({**HALL, "raised_floor": 0}, ["body", "raised_floor"], "valid boolean"),
        ({**HALL, "raised_floor": "false"}, ["body", "raised_floor"], "valid boolean"),
    ],
)
def test_a_hall_field_of_another_json_type_is_refused_not_converted(
    owner: TestClient, project: int, body: dict[str, Any], loc: list[str], reason: str
) -> None:
    """`"min_hot_aisle_m": false` was stored as 0.0 (the document says number)."""
    r = owner.post(f"/api/v1/projects/{project}/halls", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == loc and reason in r.json()["detail"][0]["msg"]
    assert owner.get(f"/api/v1/projects/{project}/halls").json()["total"] == 0


@pytest.mark.parametrize("cores", [False, "4", 4.5])
def test_a_fabric_count_must_be_an_integer(owner: TestClient, cores: object) -> None:
    """`"cores": false` created a project with 0 cores."""
    r = owner.post("/api/v1/projects", json={"name": "Strict", "fabric": {"cores": cores}})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "fabric", "cores"]
    assert "Strict" not in [p["name"] for p in owner.get("/api/v1/projects").json()["items"]]


def test_json_numbers_are_taken_as_json_schema_reads_them(owner: TestClient, project: int) -> None:
    """An integer is a number, and `4.0` is an integer (JSON Schema), as Schemathesis generates them."""
    r = owner.post(f"/api/v1/projects/{project}/halls", json={**HALL, "width_m": 30, "depth_m": 20.5})
    assert r.status_code == 201, r.text
    assert (r.json()["width_m"], r.json()["depth_m"]) == (30.0, 20.5)
    r = owner.post("/api/v1/projects", json={"name": "Whole", "fabric": {"cores": 4.0}})
    assert r.status_code == 201, r.text
    assert owner.get(f"/api/v1/projects/{r.json()['id']}/fabric").json()["cores"] == 4


def test_a_price_book_csv_part_number_is_held_to_the_name_rule(owner: TestClient, project: int) -> None:
    """A part number that came as CSV skipped the rule every JSON name is held to."""
    url = f"/api/v1/projects/{project}/price-book"
    csv = "part_number,category,description,base_price,per_metre,currency\nDAC\u202e-25G,cable,,20,4,EUR\n"
    r = owner.post(f"{url}/import", json={"csv": csv}, headers={"If-Match": '"0"'})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["field"] == "csv.line 2.part_number"
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in detail["msg"]
    assert owner.get(url).json()["version"] == 0


REFUSED_SAMPLES = ["\u202e", "\u200b", "\ufeff", "\x85", "\x00", "\t", "\u2028", "\U000e0041", "\u00ad"]


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(), st.sampled_from(REFUSED_SAMPLES))))
def test_the_documented_name_pattern_is_the_name_rule(text: str) -> None:
    assert (re.fullmatch(name_pattern(), text) is not None) == (spoofing(text) is None)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text())
def test_the_documented_text_pattern_refuses_exactly_nul(text: str) -> None:
    assert (re.fullmatch(TEXT_PATTERN, text) is not None) == ("\x00" not in text)


def _strings(node: Any, name: str | None = None) -> list[tuple[str | None, dict[str, Any]]]:
    found: list[tuple[str | None, dict[str, Any]]] = []
    if isinstance(node, list):
        for item in node:
            found += _strings(item, name)
    elif isinstance(node, dict):
        if node.get("type") == "string":
            found.append((name, node))
        for key in ("anyOf", "oneOf", "allOf"):
            found += _strings(node.get(key), name)
        for key in ("items", "additionalProperties"):
            found += _strings(node.get(key))
        for prop, sub in node.get("properties", {}).items():
            found += _strings(sub, prop)
    return found


def test_every_request_text_is_documented_with_what_it_may_hold() -> None:
    spec = create_app().openapi()
    schemas = spec["components"]["schemas"]
    names = 0
    for schema_name in ("HallCreate", "RowCreate", "ProjectCreate", "PriceBookPut-Input", "TokenCreate"):
        for field, node in _strings(schemas[schema_name]):
            assert {"pattern", "enum", "const", "format"} & node.keys(), (schema_name, field)
            if field in NAME_FIELDS:
                names += 1
                assert node["pattern"] == name_pattern(), (schema_name, field)
    assert names >= 5
    resource_type = next(
        p
        for p in spec["paths"]["/api/v1/projects/{project_id}/audit"]["get"]["parameters"]
        if p["name"] == "resource_type"
    )
    assert resource_type["schema"]["anyOf"][0]["pattern"] == TEXT_PATTERN


def test_the_503_says_it_is_also_an_outage() -> None:
    spec = create_app().openapi()
    text = spec["paths"]["/api/v1/projects"]["get"]["responses"]["503"]["description"]
    assert "PostgreSQL" in text and "broker" in text and "Retry-After" in text


def test_links_chain_project_hall_row_rack_and_plan_simulation() -> None:
    paths = create_app().openapi()["paths"]

    def links(path: str, status: str) -> dict[str, Any]:
        return dict(paths[path]["post"]["responses"][status]["links"])

    project = links("/api/v1/projects", "201")
    assert project["create_hall_api_v1_projects__project_id__halls_post"]["parameters"] == {
        "project_id": "$response.body#/id"
    }
    assert project["update_project_api_v1_projects__project_id__patch"]["parameters"] == {
        "project_id": "$response.body#/id",
        "header.If-Match": '"{$response.body#/version}"',
    }
    price_book = project["put_book_api_v1_projects__project_id__price_book_put"]["parameters"]
    assert price_book == {"project_id": "$response.body#/id"}, "a project's version is not its price book's"
    hall = links("/api/v1/projects/{project_id}/halls", "201")
    assert hall["create_row_api_v1_halls__hall_id__rows_post"]["parameters"] == {"hall_id": "$response.body#/id"}
    row = links("/api/v1/halls/{hall_id}/rows", "201")
    assert row["create_rack_api_v1_rows__row_id__racks_post"]["parameters"] == {"row_id": "$response.body#/id"}
    assert "delete_rack_api_v1_racks__rack_id__delete" in links("/api/v1/rows/{row_id}/racks", "201")
    plan = links("/api/v1/halls/{hall_id}/wiring-plans", "201")
    assert plan["simulate_plan_api_v1_wiring_plans__plan_id__simulations_post"]["parameters"] == {
        "plan_id": "$response.body#/id"
    }
    simulation = links("/api/v1/wiring-plans/{plan_id}/simulations", "202")
    assert simulation["get_simulation_api_v1_simulations__job_id__get"]["parameters"] == {
        "job_id": "$response.body#/id"
    }
    imported = links("/api/v1/projects/import", "201")
    assert imported["get_project_api_v1_projects__project_id__get"]["parameters"] == {
        "project_id": "$response.body#/project_id"
    }
    every_target = {
        link["operationId"]
        for op in paths.values()
        for o in op.values()
        for r in o["responses"].values()
        for link in r.get("links", {}).values()
    }
    operation_ids = {o["operationId"] for op in paths.values() for o in op.values()}
    assert every_target <= operation_ids


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in _keys(v)}
    if isinstance(node, list):
        return {k for v in node for k in _keys(v)}
    return set()


def test_optional_fields_keep_their_bounds_as_json_schema() -> None:
    """The JSON type check on `float | None` once pushed `ge`/`le` out of the schema's keywords
    (`"ge": 0.3` instead of `"minimum": 0.3`), so 0.0 was schema-valid and refused."""
    spec = create_app().openapi()
    assert not {"ge", "le", "gt", "lt"} & _keys(spec["components"]["schemas"])
    width = spec["components"]["schemas"]["RackTypeUpdate"]["properties"]["width_m"]["anyOf"][0]
    assert (width["type"], width["minimum"], width["maximum"]) == ("number", 0.3, 1.5)


@pytest.mark.parametrize("query", ["rack=%1F", "row=R%E2%80%AE01"])
def test_a_row_or_rack_filter_is_held_to_the_name_rule(owner: TestClient, query: str) -> None:
    """`wiring-sheet.xlsx?rack=%1F` broke the download after its headers were sent."""
    r = owner.get(f"/api/v1/wiring-plans/1/exports/wiring-sheet.xlsx?{query}")
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"] == query.split("=")[0]
    spec = create_app().openapi()
    xlsx = spec["paths"]["/api/v1/wiring-plans/{plan_id}/exports/wiring-sheet.xlsx"]["get"]["parameters"]
    rack = next(p for p in xlsx if p["name"] == "rack")
    assert rack["schema"]["anyOf"][0]["pattern"] == name_pattern()
