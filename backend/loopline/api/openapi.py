"""The OpenAPI document tells the truth about what the middleware and guards answer.

Routes document their own outcomes; what every route of a kind can answer because of the layers
in front of it (admission control, the body guard, browser security, the login and project
guards, `If-Match`) is added here by rule, with the error body's schema, so no route can forget it.
`If-Match` is declared optional so that its absence is a 428 (not FastAPI's 422); the document
marks it required, which it is.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from loopline.api.deps import IF_MATCH_PATTERN

ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorBody"}
WRITE_METHODS = frozenset({"post", "put", "patch", "delete"})

OUTCOMES: dict[str, str] = {
    "400": "The body is not UTF-8 text.",
    "401": "Not logged in (no valid session cookie or bearer token).",
    "403": "Logged in, but the role or the token's scopes do not allow this; or a write sent by a page "
    "of another site (`Origin`).",
    "404": "Not found (or not visible to you).",
    "409": "Stale `If-Match` version, or a clash with existing state.",
    "413": "The request body is larger than the API accepts (`LOOPLINE_MAX_BODY_MB`).",
    "415": "The body is not sent as `application/json`.",
    "422": "Invalid input: each entry names the field and the reason.",
    "428": "`If-Match` header required for this write.",
    "429": "Too many attempts: wait the `Retry-After` seconds, then try again.",
    "503": "The server is busy (too many requests waiting): retry after the `Retry-After` seconds.",
}


def _outcomes(path: str, method: str, op: dict[str, Any]) -> list[str]:
    if not path.startswith("/api/v1/"):
        return []
    codes = ["422", "503"]
    if "requestBody" in op:
        codes += ["400", "413", "415"]
    if method in WRITE_METHODS:
        codes.append("403")
    if op.get("security"):
        codes += ["401", "403"]
    if any(p.get("in") == "path" for p in op.get("parameters", [])):
        codes.append("404")
    if any(p.get("name") == "If-Match" for p in op.get("parameters", [])):
        codes += ["409", "428"]
    return codes


def document_outcomes(spec: dict[str, Any]) -> dict[str, Any]:
    for path, operations in spec.get("paths", {}).items():
        for method, op in operations.items():
            for parameter in op.get("parameters", []):
                if parameter.get("name") == "If-Match" and parameter.get("in") == "header":
                    parameter["required"] = True
                    parameter["schema"] = {"type": "string", "title": "If-Match", "pattern": IF_MATCH_PATTERN}
            responses = op.setdefault("responses", {})
            for code in _outcomes(path, method, op):
                if code not in responses:
                    responses[code] = {
                        "description": OUTCOMES[code],
                        "content": {"application/json": {"schema": ERROR_SCHEMA}},
                    }
            for code in ("429", "503"):
                if code in responses:
                    responses[code].setdefault(
                        "headers",
                        {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}},
                    )
    return spec


def install(app: FastAPI) -> None:
    """Wrap `app.openapi`: FastAPI's document with the outcomes added (built once, then cached)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_outcomes(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
