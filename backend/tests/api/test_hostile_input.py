"""Hostile and absurd inputs get a 4xx naming the field, never a 500, and write nothing."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.api.body_guard import find_bad_text


def _post_raw(client: TestClient, url: str, body: str) -> Any:
    return client.post(url, content=body.encode(), headers={"content-type": "application/json"})


def _halls(owner: TestClient, project: int) -> list[str]:
    return [h["name"] for h in owner.get(f"/api/v1/projects/{project}/halls").json()["items"]]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e309"])
def test_non_finite_numbers_are_a_422_naming_the_field(owner: TestClient, project: int, number: str) -> None:
    r = _post_raw(owner, f"/api/v1/projects/{project}/halls", f'{{"name": "H9", "width_m": {number}, "depth_m": 10}}')
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "width_m"]
    assert r.json()["detail"][0]["msg"] == "Input should be a finite number"
    assert "H9" not in _halls(owner, project)


@pytest.mark.parametrize(
    ("escaped", "reason"),
    [("H\\u0000x", "NUL character"), ("H\\ud800", "lone surrogate"), ("\\udfffH", "lone surrogate")],
)
def test_text_the_database_cannot_store_is_a_422_naming_the_field(
    owner: TestClient, project: int, escaped: str, reason: str
) -> None:
    r = _post_raw(owner, f"/api/v1/projects/{project}/halls", f'{{"name": "{escaped}", "width_m": 10, "depth_m": 10}}')
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert (detail["loc"], detail["field"]) == (["body", "name"], "name")
    assert reason in detail["msg"]
    assert _halls(owner, project) == []


def test_a_surrogate_pair_is_ordinary_text(owner: TestClient, project: int) -> None:
    r = _post_raw(
        owner, f"/api/v1/projects/{project}/halls", '{"name": "H\\ud83d\\ude00", "width_m": 10, "depth_m": 10}'
    )
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "H\U0001f600"


def test_nested_bad_text_is_named_by_its_path() -> None:
    doc = {"rows": [{"name": "ok"}, {"racks": [{"name": "a\x00"}]}]}
    assert list(find_bad_text(doc)) == [
        (("rows", 1, "racks", 0, "name"), "text may not contain the NUL character (\\u0000)")
    ]


def test_a_nul_in_the_query_string_is_a_422_naming_the_parameter(owner: TestClient, project: int) -> None:
    r = owner.get(f"/api/v1/projects/{project}/halls", params={"limit": "5\x00"})
    assert r.status_code == 422
    assert r.json()["detail"][0]["field"] == "limit"


@pytest.mark.parametrize(
    "path", ["/api/v1/racks/2147483648", "/api/v1/rows/9999999999", "/api/v1/halls/2147483648/layout"]
)
def test_ids_beyond_the_database_integer_are_not_found(owner: TestClient, path: str) -> None:
    r = owner.get(path)
    assert r.status_code == 404, r.text
    assert r.json()["detail"][0]["field"] in {"rack_id", "row_id", "hall_id"}


def test_an_absurd_if_match_is_a_422_naming_the_header(owner: TestClient, project: int) -> None:
    r = owner.patch(f"/api/v1/projects/{project}", json={"name": "Q"}, headers={"If-Match": '"' + "9" * 5000 + '"'})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["field"] == "If-Match"
    assert len(detail["msg"]) < 200, "the 5,000 digits are not echoed back"
    assert owner.get(f"/api/v1/projects/{project}").json()["name"] == "P1"


def test_a_body_over_the_limit_is_refused_before_it_is_read(owner: TestClient, project: int) -> None:
    from loopline.settings import get_settings

    limit = get_settings().max_body_mb * 1024**2
    r = owner.post(
        f"/api/v1/projects/{project}/halls",
        content=b" " * (limit + 1),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 413
    assert r.json()["detail"][0]["field"] == "body"
    assert f"{get_settings().max_body_mb} MB" in r.json()["detail"][0]["msg"]


@pytest.fixture
def plan_id(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> int:
    row = h.row(owner, hall["id"])
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)]
    network = {"name": "N01", "role": "network", "fabric_switches": spines}
    assert owner.post(f"/api/v1/rows/{row['id']}/racks", json=network).status_code == 201
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json={"name": "sh", "pattern": "single-homed"})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


@pytest.mark.parametrize("query", [{"min_length_m": "inf"}, {"max_length_m": "1e400"}, {"min_length_m": "nan"}])
def test_non_finite_cable_length_filters_are_a_422(owner: TestClient, plan_id: int, query: dict[str, str]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/cables", params=query)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["query", next(iter(query))]


@pytest.mark.parametrize(
    "path", ["/api/v1/tokens/2147483648", "/api/v1/catalog/server-models/2147483648", "/api/v1/simulations/2147483648"]
)
def test_ids_beyond_the_database_integer_outside_projects_are_a_4xx(owner: TestClient, path: str) -> None:
    method = owner.delete if "tokens" in path else owner.get
    r = method(path)
    assert r.status_code in (404, 422), r.text
    assert r.json()["detail"][0]["loc"][-1] in {"token_id", "entry_id", "job_id"}


def test_a_bulk_create_past_the_rack_limit_is_refused_up_front(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    """200 rows x 1,000 racks is valid row by row; in one request it is refused naming the limit."""
    rows = [
        {"name": f"R{i:03d}", "x_m": 0, "y_m": 0, "rack_count": 1000, "rack_template": h.template()} for i in range(200)
    ]
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows/bulk", json={"rows": rows})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["loc"] == ["body", "rows"]
    assert "200,000 racks" in detail["msg"] and "at most 20,000" in detail["msg"]
    assert owner.get(f"/api/v1/halls/{hall['id']}/layout").json()["rows"] == []


def test_a_body_that_is_not_utf8_is_a_400_naming_the_body(owner: TestClient, project: int) -> None:
    r = owner.post(
        f"/api/v1/projects/{project}/halls",
        content=b'{"name": "\xff\xfe"}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400
    assert r.json()["detail"][0]["field"] == "body"
    assert "byte 10" in r.json()["detail"][0]["msg"]


def test_absurd_numbers_in_plan_queries_are_a_422(owner: TestClient, plan_id: int) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/cables", params={"min_length_m": "8.6e307"})
    assert (r.status_code, r.json()["detail"][0]["loc"]) == (422, ["query", "min_length_m"])
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/diff", params={"against": "-3356370447710647867"})
    assert (r.status_code, r.json()["detail"][0]["loc"]) == (422, ["query", "against"])


def test_an_export_of_a_row_with_any_name_downloads(owner: TestClient, plan_id: int) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/wiring-sheet.csv", params={"row": 'ряд \U0008b758 "1"'})
    assert r.status_code == 200, r.text
    disposition = r.headers["content-disposition"]
    assert disposition.startswith(f'attachment; filename="plan-{plan_id}-wiring-')
    assert "filename*=UTF-8''" in disposition and "%D1%80%D1%8F%D0%B4" in disposition


def test_a_rack_name_the_row_name_fills_past_the_limit_is_a_422(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    """A 100-character row name is valid, but its racks' default names ("<row>-01") would not be:
    found by schema fuzzing as a 500 from the database."""
    row = h.row(owner, hall["id"], name="R" * 100, n=0)
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json={})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["field"].endswith("rack_name_pattern") and "103 characters; at most 100" in detail["msg"]
    assert owner.get(f"/api/v1/rows/{row['id']}/racks").json()["items"] == []
    # Creating the row with racks is refused alike, and writes nothing.
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/rows",
        json={"name": "S" * 100, "x_m": 1, "y_m": 6, "rack_count": 2, "rack_template": h.template()},
    )
    assert r.status_code == 422 and "at most 100" in r.text
    assert [x["name"] for x in owner.get(f"/api/v1/halls/{hall['id']}/layout").json()["rows"]] == ["R" * 100]
