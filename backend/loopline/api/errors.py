"""Maps domain failures to HTTP: 404 not found, 409 conflict/stale version, 422 invalid."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from loopline.domain.errors import DomainError


def error_body(field: str, reason: str, **extra: object) -> dict[str, object]:
    return {"detail": [{"loc": field.split("."), "field": field, "msg": reason, **extra}]}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def _domain_error(_request: Request, exc: DomainError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content=error_body(exc.field, exc.reason))
