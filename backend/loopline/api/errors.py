"""Maps failures to HTTP: 401, 403, 404, 409 (stale version or conflict), 422 invalid, 428,
503 busy (no database connection free in time; see also `admission.py`), 503 unavailable (the
database is restarting, refused the connection or ended it: `Retry-After`, and the pool's pre-ping
replaces the dead connections, so the next request reconnects).

Every error body has FastAPI's validation shape, `{"detail": [{"loc", "field", "msg"}]}`; a stale
`If-Match` also carries `current_version`. So do the answers routing and FastAPI give on their
own (404 for an unknown path, 405 for a method the path does not have, 400 for a body FastAPI
could not read), which would otherwise be `{"detail": "Not Found"}`.
"""

from __future__ import annotations

import math
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import StaleDataError
from starlette.exceptions import HTTPException

from loopline.domain.errors import DomainError

BUSY = "the server is busy: too many requests are waiting; retry after the Retry-After seconds"
RETRY_AFTER_S = "1"
DATABASE_RETRY_AFTER_S = "5"
"""A database restart takes seconds: asking again at once would only add to the load."""
TOO_DEEP = "the JSON is nested too deeply to read"
_HTTP_FIELDS = {400: "body", 404: "path", 405: "method"}
"""What a plain HTTPException of each status is about, for the error body's `field`."""
_CONFLICT_STATES = frozenset({"40001", "40P01"})
"""Serialization failure, deadlock: the transaction lost a race and was rolled back."""


def database_unavailable(exc: OperationalError) -> str:
    """Why the database could not answer, for the 503 (the driver's text is not for clients)."""
    state = getattr(exc.orig, "sqlstate", None)
    if state in _CONFLICT_STATES:
        return "this request conflicted with a concurrent one and was rolled back: send it again"
    if state == "57P03":
        return "the database is starting up: retry after the Retry-After seconds"
    return "the database is unavailable (restarting or unreachable): retry after the Retry-After seconds"


def error_body(field: str, reason: str, **extra: object) -> dict[str, object]:
    return {"detail": [{"loc": field.split("."), "field": field, "msg": reason, **extra}]}


def _finite(value: object) -> object:
    """JSON has no NaN or Infinity: an offending input is echoed as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own body, except that a NaN or 1e309 it could not render comes back as text.
        return JSONResponse(status_code=422, content={"detail": _finite(jsonable_encoder(exc.errors()))})

    @app.exception_handler(HTTPException)
    async def _http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 400 and isinstance(exc.__cause__, RecursionError):
            # FastAPI read a body nested deeper than Python's parser goes (one the body guard did
            # not parse itself): the same answer the guard gives.
            return JSONResponse(status_code=422, content=error_body("body", TOO_DEEP))
        reason = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        field = _HTTP_FIELDS.get(exc.status_code, "request")
        return JSONResponse(status_code=exc.status_code, content=error_body(field, reason), headers=exc.headers)

    @app.exception_handler(DomainError)
    async def _domain_error(_request: Request, exc: DomainError) -> JSONResponse:
        issues = getattr(exc, "issues", None)
        body: dict[str, Any]
        if issues:
            body = {
                "detail": [
                    {"loc": i.field.split("."), "field": i.field, "msg": i.message, "type": i.code} for i in issues
                ]
            }
        else:
            body = error_body(exc.field, exc.reason)
        current = getattr(exc, "current_version", None)
        if current is not None:
            body["current_version"] = current
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
        retry_after = getattr(exc, "retry_after_s", None)
        if retry_after is not None:
            headers["Retry-After"] = str(retry_after)
        return JSONResponse(status_code=exc.status, content=body, headers=headers)

    @app.exception_handler(StaleDataError)
    async def _stale(_request: Request, _exc: StaleDataError) -> JSONResponse:
        return JSONResponse(
            status_code=409,
            content=error_body("If-Match", "the resource changed while this request ran: reload it and try again"),
        )

    @app.exception_handler(IntegrityError)
    async def _integrity(_request: Request, exc: IntegrityError) -> JSONResponse:
        constraint = getattr(getattr(exc.orig, "diag", None), "constraint_name", None) or "constraint"
        return JSONResponse(
            status_code=409,
            content=error_body("body", f"conflicts with existing data ({constraint})"),
        )

    @app.exception_handler(OperationalError)
    async def _database_unavailable(_request: Request, exc: OperationalError) -> JSONResponse:
        # PostgreSQL restarting ("the database system is starting up"), refusing connections, or
        # ending this one ("terminating connection"): the transaction is rolled back (lost during its
        # COMMIT, its outcome is unknown; If-Match versions and Idempotency-Keys make a resend safe).
        retry_after = (
            RETRY_AFTER_S if getattr(exc.orig, "sqlstate", None) in _CONFLICT_STATES else DATABASE_RETRY_AFTER_S
        )
        return JSONResponse(
            status_code=503,
            content=error_body("server", database_unavailable(exc)),
            headers={"Retry-After": retry_after},
        )

    @app.exception_handler(PoolTimeout)
    async def _pool_timeout(_request: Request, _exc: PoolTimeout) -> JSONResponse:
        return JSONResponse(status_code=503, content=error_body("server", BUSY), headers={"Retry-After": RETRY_AFTER_S})
