"""Import limits and the request's outline check (the job itself runs in worker/tests/test_project_imports.py)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from loopline.services.project_imports import MAX_HALLS, MAX_RACKS


def outline(halls: list[dict[str, Any]]) -> dict[str, Any]:
    """Only what the request reads before deciding: the contents are not validated there."""
    return {"format": "loopline.project", "schema_version": 1, "project": {"name": "big"}, "halls": halls}


def test_imports_beyond_the_limits_are_413_naming_the_limit(owner: TestClient) -> None:
    before = owner.get("/api/v1/projects").json()["total"]
    r = owner.post("/api/v1/projects/import", json=outline([{"rows": []}] * (MAX_HALLS + 1)))
    assert r.status_code == 413, r.text
    assert r.json()["detail"][0] == {
        "loc": ["halls"], "field": "halls", "msg": "1,001 halls: an import holds at most 1,000",
    }  # fmt: skip
    racks = [{"rows": [{"racks": [{}] * (MAX_RACKS // 2)}]}, {"rows": [{"racks": [{}] * (MAX_RACKS // 2 + 1)}]}]
    r = owner.post("/api/v1/projects/import", json=outline(racks))
    assert r.status_code == 413 and r.json()["detail"][0]["msg"] == "100,001 racks: an import holds at most 100,000"
    # At the limits, the outline passes (and the contents are what a worker would refuse).
    r = owner.post("/api/v1/projects/import", json=outline([{"rows": []}] * MAX_HALLS), headers={"Prefer": "x"})
    assert r.status_code == 202 and r.json()["halls_total"] == MAX_HALLS
    assert owner.get("/api/v1/projects").json()["total"] == before


def test_the_outline_is_checked_in_the_request_naming_the_field(owner: TestClient) -> None:
    cases = [
        ({**outline([]), "format": "other"}, "format"),
        ({**outline([]), "schema_version": 2}, "schema_version"),
        ({**outline([]), "project": {}}, "project.name"),
        (outline({"H1": {}}), "halls"),  # type: ignore[arg-type]
        (outline([{"rows": [{"racks": 3}]}]), "halls[0].rows[0].racks"),
        (outline([[]]), "halls[0]"),  # type: ignore[list-item]
    ]
    for body, field in cases:
        r = owner.post("/api/v1/projects/import", json=body)
        assert r.status_code == 422 and r.json()["detail"][0]["field"] == field, (field, r.text)
    r = owner.post("/api/v1/projects/import", content=b'{"format": ', headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "json_invalid"


def test_a_small_import_answers_in_the_request_with_schema_errors_naming_the_field(owner: TestClient) -> None:
    doc = outline([{"name": "H1", "rows": []}])
    r = owner.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 422
    fields = {d["field"] for d in r.json()["detail"]}
    assert {"fabric", "catalog", "halls[0].site", "halls[0].width_m"} <= fields
    assert all(d["loc"][0] == "body" for d in r.json()["detail"])


def test_import_jobs_follow_the_token_scopes(owner: TestClient, app: Any) -> None:
    job = owner.post("/api/v1/projects/import", json=outline([]), headers={"Prefer": "respond-async"})
    assert job.status_code == 202, job.text
    url = job.headers["location"]

    def token(*scopes: str) -> dict[str, str]:
        r = owner.post("/api/v1/tokens", json={"name": "t", "scopes": list(scopes)})
        return {"Authorization": f"Bearer {r.json()['token']}"}

    program = TestClient(app)
    assert program.get(url, headers=token("layout:read")).status_code == 200
    assert program.get(url, headers=token("layout:write")).status_code == 200
    assert program.get(url, headers=token("bom:read")).status_code == 403
    r = program.post("/api/v1/projects/import", json=outline([]), headers=token("layout:read"))
    assert r.status_code == 403
    assert program.get(url).status_code == 401
