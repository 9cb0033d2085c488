"""`GET /api/health`: every part of the stack, with 503 naming the ones that are down."""

from __future__ import annotations

import subprocess
from typing import Literal

import redis
from fastapi import APIRouter, Response
from pydantic import BaseModel, Field
from sqlalchemy import text

from loopline.db.session import get_engine
from loopline.queue import PING_TASK, get_celery
from loopline.settings import get_settings

router = APIRouter(tags=["health"])


class PartStatus(BaseModel):
    ok: bool = Field(description="Whether this part answered correctly.")
    detail: str = Field(description="What was checked, or why it failed.")


class Health(BaseModel):
    status: Literal["ok", "degraded"] = Field(description="`ok` when every part is healthy.")
    parts: dict[str, PartStatus] = Field(
        description="database, broker, worker (ping task round trip) and engine (binary version)."
    )
    down: list[str] = Field(description="Names of the parts that are down.")


def _check_database() -> PartStatus:
    try:
        with get_engine().connect() as conn:
            version = conn.execute(text("SHOW server_version")).scalar_one()
        return PartStatus(ok=True, detail=f"PostgreSQL {version}")
    except Exception as exc:  # noqa: BLE001 - any failure means "down"
        return PartStatus(ok=False, detail=f"database unreachable: {type(exc).__name__}")


def _check_broker() -> PartStatus:
    try:
        client = redis.Redis.from_url(get_settings().broker_url, socket_timeout=2)
        client.ping()
        return PartStatus(ok=True, detail="Redis answered PING")
    except Exception as exc:  # noqa: BLE001
        return PartStatus(ok=False, detail=f"broker unreachable: {type(exc).__name__}")


def _check_worker() -> PartStatus:
    timeout = get_settings().health_worker_timeout_s
    try:
        result = get_celery().send_task(PING_TASK, expires=timeout)
        answer = result.get(timeout=timeout)
        result.forget()
        return PartStatus(ok=answer == "pong", detail=f"ping task answered {answer!r}")
    except Exception as exc:  # noqa: BLE001
        return PartStatus(ok=False, detail=f"no worker answered the ping task: {type(exc).__name__}")


def engine_version() -> str:
    binary = get_settings().engine_binary
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=10, check=True)
    return out.stdout.strip()


def _check_engine() -> PartStatus:
    try:
        return PartStatus(ok=True, detail=engine_version())
    except Exception as exc:  # noqa: BLE001
        return PartStatus(ok=False, detail=f"engine binary not usable: {type(exc).__name__}")


@router.get(
    "/api/health",
    response_model=Health,
    responses={503: {"model": Health, "description": "At least one part is down."}},
    summary="Health of database, broker, worker and engine",
)
def health(response: Response) -> Health:
    parts = {
        "database": _check_database(),
        "broker": _check_broker(),
        "engine": _check_engine(),
    }
    # A worker round trip needs the broker; skip the wait when it is known to be down.
    parts["worker"] = (
        _check_worker()
        if parts["broker"].ok
        else PartStatus(ok=False, detail="broker is down, so no worker can be reached")
    )
    down = sorted(name for name, part in parts.items() if not part.ok)
    if down:
        response.status_code = 503
    return Health(status="degraded" if down else "ok", parts=parts, down=down)
