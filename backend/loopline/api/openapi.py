"""The OpenAPI document tells the truth about what the middleware and guards answer.

Routes document their own outcomes; what every route of a kind can answer because of the layers
in front of it (admission control, the body guard, browser security, the login and project
guards, `If-Match`) is added here by rule, with the error body's schema, so no route can forget it.
`If-Match` is declared optional so that its absence is a 428 (not FastAPI's 422); the document
marks it required, which it is.

Rules the body guard and the name rule keep are written into the document too, so a client (or a
fuzzer) generating from it sends what is accepted: every text of a request is NUL- and
surrogate-free, every name is also free of the characters `domain.names` refuses. And the
document's links say which response's id feeds which operation (project -> hall -> row -> rack,
plan -> simulation, ...), the chains a client follows and Schemathesis' stateful phase walks.
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from typing import Any

from fastapi import FastAPI

from loopline.api.body_guard import NAME_QUERY_PARAMETERS
from loopline.api.deps import IF_MATCH_PATTERN
from loopline.api.schemas.common import NAME_FIELDS
from loopline.domain.names import REFUSED_CATEGORIES

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
    "503": "Unavailable for now: too many requests are waiting, or PostgreSQL or the broker (Redis) is "
    "restarting or unreachable. Nothing was changed; retry after the `Retry-After` seconds.",
}

TEXT_PATTERN = "^[^\\u0000]*$"
"""Text the body guard lets through: no NUL (PostgreSQL cannot store it). Lone surrogates, which
it refuses too, are left out: regex engines that work on code points (Rust's, which validates the
document in Schemathesis) cannot name them, and a JSON encoder does not produce them."""


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


def _escape(code: int) -> str:
    # BMP code points as `\\uXXXX` (one spelling in ECMA-262 and Python regexes); astral ones as
    # themselves, which both read as one character in a class.
    return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)


@cache
def name_pattern() -> str:
    """A regex that holds exactly the names `domain.names.spoofing` accepts. Built from its refused
    categories, so there is one rule in one place. (Lone surrogates: see `TEXT_PATTERN`.)"""
    ranges: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        refused = unicodedata.category(chr(code)) in REFUSED_CATEGORIES
        if refused and ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        elif refused:
            ranges.append((code, code))
    spans = "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in ranges)
    return f"^[^{spans}]*$"


def _constrain_text(node: Any, name: str | None = None) -> None:
    """Give every free string of a request schema the pattern of what is accepted."""
    if isinstance(node, list):
        for item in node:
            _constrain_text(item, name)
        return
    if not isinstance(node, dict):
        return
    if node.get("type") == "string" and not ({"pattern", "enum", "const", "format"} & node.keys()):
        node["pattern"] = name_pattern() if name in NAME_FIELDS else TEXT_PATTERN
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        _constrain_text(node.get(key), name)
    for key in ("items", "additionalProperties"):
        _constrain_text(node.get(key))
    for prop, sub in node.get("properties", {}).items():
        _constrain_text(sub, prop)


def _referenced(node: Any, found: set[str], schemas: dict[str, Any]) -> None:
    """Names of the component schemas `node` uses, directly or through others."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[-1]
            if name not in found:
                found.add(name)
                _referenced(schemas.get(name), found, schemas)
        for value in node.values():
            _referenced(value, found, schemas)
    elif isinstance(node, list):
        for value in node:
            _referenced(value, found, schemas)


def constrain_request_text(spec: dict[str, Any]) -> dict[str, Any]:
    """Patterns on the strings of request bodies and of query parameters (the body guard checks both)."""
    schemas = spec.get("components", {}).get("schemas", {})
    bodies: set[str] = set()
    for operations in spec.get("paths", {}).values():
        for op in operations.values():
            for media in op.get("requestBody", {}).get("content", {}).values():
                _constrain_text(media.get("schema"))
                _referenced(media.get("schema"), bodies, schemas)
            for parameter in op.get("parameters", []):
                if parameter.get("in") == "query":
                    # `row` and `rack` filters name things: the name rule (api/body_guard.py).
                    naming = "name" if parameter.get("name") in NAME_QUERY_PARAMETERS else None
                    _constrain_text(parameter.get("schema"), naming)
    for name in bodies:
        _constrain_text(schemas[name])
    return spec


CREATES: dict[tuple[str, str, str], tuple[str, str] | tuple[str, str, str]] = {
    # (method, path, status) of an operation that makes a resource: (the collection the new id is
    # found under in other paths, the path parameter it fills there[, the response field holding
    # it when not `id`]).
    ("post", "/api/v1/projects", "201"): ("projects", "project_id"),
    ("post", "/api/v1/projects/import", "201"): ("projects", "project_id", "project_id"),
    ("post", "/api/v1/projects/import", "202"): ("imports", "import_id"),
    ("post", "/api/v1/projects/{project_id}/halls", "201"): ("halls", "hall_id"),
    ("post", "/api/v1/projects/{project_id}/invitations", "201"): ("invitations", "invitation_id"),
    ("post", "/api/v1/halls/{hall_id}/rows", "201"): ("rows", "row_id"),
    ("post", "/api/v1/rows/{row_id}/duplicate", "201"): ("rows", "row_id"),
    ("post", "/api/v1/rows/{row_id}/racks", "201"): ("racks", "rack_id"),
    ("post", "/api/v1/halls/{hall_id}/wiring-plans", "201"): ("wiring-plans", "plan_id"),
    ("post", "/api/v1/wiring-plans/{plan_id}/upgrades", "201"): ("wiring-plans", "plan_id"),
    ("post", "/api/v1/wiring-plans/{plan_id}/simulations", "202"): ("simulations", "job_id"),
    ("post", "/api/v1/projects/{project_id}/simulations", "202"): ("simulations", "job_id"),
    ("post", "/api/v1/halls/{hall_id}/sweeps", "202"): ("sweeps", "sweep_id"),
    ("post", "/api/v1/catalog/server-models", "201"): ("server-models", "entry_id"),
    ("post", "/api/v1/catalog/switch-models", "201"): ("switch-models", "entry_id"),
    ("post", "/api/v1/catalog/rack-types", "201"): ("rack-types", "entry_id"),
    ("post", "/api/v1/catalog/pdu-models", "201"): ("pdu-models", "entry_id"),
    ("put", "/api/v1/halls/{hall_id}/tray-runs/{name}", "200"): ("tray-runs", "name", "name"),
    ("post", "/api/v1/tokens", "201"): ("tokens", "token_id"),
}


NOT_LINKED = frozenset({("post", "/api/v1/projects/{project_id}/members")})
"""Targets no link leads to: adding a member names an account by email, and an unregistered one
is a 404 about that email, which a link check would take for the project it was given missing."""


def _properties(schema: Any, schemas: dict[str, Any]) -> set[str]:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if isinstance(ref, str):
        return _properties(schemas.get(ref.rsplit("/", 1)[-1], {}), schemas)
    return set(schema.get("properties", {})) if isinstance(schema, dict) else set()


def _path_parameters(op: dict[str, Any]) -> set[str]:
    return {p["name"] for p in op.get("parameters", []) if p.get("in") == "path"}


def document_links(spec: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI links from each operation that makes a resource to every operation on it: the new
    `id` fills the target's path parameter, the source's own path parameters the target's of the
    same name, and its `version` the `If-Match` of an update or delete of the resource itself."""
    schemas = spec.get("components", {}).get("schemas", {})
    paths = spec.get("paths", {})
    for (method, path, status), (collection, parameter, *field) in CREATES.items():
        id_field = field[0] if field else "id"
        source = paths.get(path, {}).get(method)
        response = source.get("responses", {}).get(status) if source else None
        if source is None or response is None:
            continue
        body = response.get("content", {}).get("application/json", {}).get("schema", {})
        fields = _properties(body, schemas)
        if id_field not in fields:
            continue
        links: dict[str, Any] = {}
        for target_path, operations in paths.items():
            if f"/{collection}/{{{parameter}}}" not in target_path:
                continue
            for target_method, target in operations.items():
                if (target_method, target_path) in NOT_LINKED:
                    continue
                wanted = _path_parameters(target)
                values: dict[str, str] = {parameter: f"$response.body#/{id_field}"}
                for shared in (wanted & _path_parameters(source)) - {parameter}:
                    values[shared] = f"$request.path.{shared}"
                # The new resource's version is the If-Match of an update or delete of that
                # resource itself (not of what lies under it, e.g. a project's price book), sent
                # as the ETag form: a header is text.
                takes_version = any(p.get("name") == "If-Match" for p in target.get("parameters", []))
                itself = target_path.endswith(f"/{collection}/{{{parameter}}}")
                if takes_version and itself and "version" in fields:
                    values["header.If-Match"] = '"{$response.body#/version}"'

                links[target["operationId"]] = {
                    "operationId": target["operationId"],
                    "parameters": values,
                    "description": f"The new {parameter} for {target_method.upper()} {target_path}.",
                }
        if links:
            response["links"] = links
    return spec


def install(app: FastAPI) -> None:
    """Wrap `app.openapi`: FastAPI's document with the outcomes added (built once, then cached)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_links(constrain_request_text(document_outcomes(generate())))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
