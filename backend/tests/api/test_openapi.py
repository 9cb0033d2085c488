"""The layout API's OpenAPI is complete: every operation summarised, every field described."""

from __future__ import annotations

from typing import Any

from loopline.api.app import create_app

LAYOUT_PREFIXES = (
    "/api/v1/auth",
    "/api/v1/tokens",
    "/api/v1/catalog",
    "/api/v1/projects",
    "/api/v1/halls",
    "/api/v1/rows",
    "/api/v1/racks",
)
OTHER_TEAMS = ("simulation", "wiring", "plan", "bom", "cable")


def _refs(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref.rsplit("/", 1)[-1])
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def test_every_layout_operation_and_field_is_documented() -> None:
    spec = create_app().openapi()
    paths = {
        p: ops
        for p, ops in spec["paths"].items()
        if p.startswith(LAYOUT_PREFIXES) and not any(word in p for word in OTHER_TEAMS)
    }
    assert len(paths) >= 25
    names: set[str] = set()
    for path, ops in paths.items():
        for method, op in ops.items():
            assert op.get("summary"), f"{method.upper()} {path} has no summary"
            _refs(op, names)
    schemas = spec["components"]["schemas"]
    pending, seen = list(names), set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        more: set[str] = set()
        _refs(schemas[name], more)
        pending.extend(more)
    undocumented = [
        f"{name}.{prop}"
        for name in sorted(seen)
        if name not in ("HTTPValidationError", "ValidationError")
        for prop, body in schemas[name].get("properties", {}).items()
        if not body.get("description")
    ]
    assert undocumented == []
    with_examples = [n for n in seen if any("examples" in b for b in schemas[n].get("properties", {}).values())]
    assert {"HallCreate", "RowCreate", "LogicalRackSpec", "ServerModelCreate", "TokenCreate"} <= set(with_examples)
    assert {"APIKeyCookie", "HTTPBearer"} <= set(spec["components"]["securitySchemes"])


def test_the_document_tells_every_outcome_the_layers_in_front_can_answer() -> None:
    spec = create_app().openapi()
    assert spec["components"]["schemas"]["ErrorBody"]
    seen_if_match = 0
    for path, ops in spec["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for method, op in ops.items():
            codes = set(op["responses"])
            where = f"{method.upper()} {path}"
            assert {"422", "503"} <= codes, where
            assert "Retry-After" in op["responses"]["503"]["headers"], where
            if "requestBody" in op:
                assert {"400", "413", "415"} <= codes, where
            if method in ("post", "put", "patch", "delete"):
                assert "403" in codes, where
            if op.get("security"):
                assert "401" in codes, where
            if any(p["in"] == "path" for p in op.get("parameters", [])):
                assert "404" in codes, where
            for parameter in op.get("parameters", []):
                if parameter["name"] == "If-Match":
                    seen_if_match += 1
                    assert parameter["required"] is True, where
                    assert {"409", "428"} <= codes, where
            for code, response in op["responses"].items():
                if code >= "400":
                    schema = response["content"]["application/json"]["schema"]
                    assert schema.get("$ref", "").endswith(("/ErrorBody", "/HTTPValidationError")), (where, code)
    assert seen_if_match >= 10
    assert "429" in spec["paths"]["/api/v1/auth/login"]["post"]["responses"]


def test_the_api_documents_decomposed_modes_measured_error_as_the_engine_has_it() -> None:
    """The documentation's table is the engine's calibration (`loopline-sim calibration`), bucket by
    bucket: the numbers every decomposed result carries."""
    from loopline.services import sim_preflight

    calibration = sim_preflight.calibration()
    assert calibration is not None and calibration["accuracy"] is not None
    description = create_app().openapi()["info"]["description"]
    assert "### Decomposed mode: error measured against packet mode" in description
    for bucket in calibration["accuracy"]["by_size"]:
        row = f"| {bucket['bucket']} | ±{bucket['mean_slowdown_error']:.0%} | ±{bucket['p99_slowdown_error']:.0%} |"
        assert row in description
