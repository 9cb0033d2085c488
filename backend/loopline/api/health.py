"""Health: liveness (`/api/health/live`) apart from readiness (`/api/health/ready`, `/api/health`).

Liveness answers from the event loop and touches nothing, so a supervisor that restarts on its
failure restarts only a process that cannot answer at all. Readiness checks every part; it runs
at most once per `READY_TTL_S`, in one thread, however many callers ask (they share the answer),
so health calls cannot be used to load the API. A worker that is running a job still answers the
broker's control channel: it is reported busy, not down.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from typing import Literal

import anyio
import redis
from fastapi import APIRouter, Response
from pydantic import BaseModel, Field
from sqlalchemy import text

from loopline.api.relay import lanes_live
from loopline.db.session import get_engine
from loopline.queue import get_celery
from loopline.settings import get_settings

router = APIRouter(tags=["health"])

READY_TTL_S = 2.0
"""A readiness answer is reused for this long."""


class PartStatus(BaseModel):
    ok: bool = Field(description="Whether this part answered correctly.")
    detail: str = Field(description="What was checked, or why it failed.")


class Health(BaseModel):
    status: Literal["ok", "degraded"] = Field(description="`ok` when every part is healthy.")
    parts: dict[str, PartStatus] = Field(
        description="database, broker, worker (answers on the broker's control channel; `busy` while it runs a "
        "job), engine (binary version) and, where the API runs as two processes, lanes (the process that answers "
        "all but health and the cheap reads)."
    )
    down: list[str] = Field(description="Names of the parts that are down.")


class Liveness(BaseModel):
    status: Literal["alive"] = Field(description="The API process is answering.")


def _check_database() -> PartStatus:
    try:
        with get_engine().connect() as conn:
            conn.execute(text("SET LOCAL statement_timeout = 2000"))
            version = conn.execute(text("SHOW server_version")).scalar_one()
        return PartStatus(ok=True, detail=f"PostgreSQL {version}")
    except Exception as exc:  # noqa: BLE001 - any failure means "down"
        return PartStatus(ok=False, detail=f"database unreachable: {type(exc).__name__}")


def _check_broker() -> PartStatus:
    try:
        client = redis.Redis.from_url(get_settings().broker_url, socket_timeout=2, socket_connect_timeout=2)
        client.ping()
        return PartStatus(ok=True, detail="Redis answered PING")
    except Exception as exc:  # noqa: BLE001
        return PartStatus(ok=False, detail=f"broker unreachable: {type(exc).__name__}")


def _check_worker() -> PartStatus:
    """Ask every worker, on the control channel, what it is running: a worker whose only pool
    process is busy with a simulation still answers from its main process."""
    timeout = min(get_settings().health_worker_timeout_s, 1.0)
    try:
        active = get_celery().control.inspect(timeout=timeout).active() or {}
    except Exception as exc:  # noqa: BLE001
        return PartStatus(ok=False, detail=f"no worker answered: {type(exc).__name__}")
    if not active:
        return PartStatus(ok=False, detail=f"no worker answered within {timeout:g} s")
    running = sum(len(tasks) for tasks in active.values())
    workers = f"{len(active)} worker{'s' if len(active) != 1 else ''} answered"
    return PartStatus(ok=True, detail=f"{workers}; busy with {running} job(s)" if running else f"{workers}; idle")


_engine_version: tuple[float, str] | None = None


def engine_version() -> str:
    """The engine binary's version, asked again only when the binary changes."""
    global _engine_version
    binary = get_settings().engine_binary
    mtime = os.stat(binary).st_mtime
    if _engine_version is None or _engine_version[0] != mtime:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=10, check=True)
        _engine_version = (mtime, out.stdout.strip())
    return _engine_version[1]


def _check_engine() -> PartStatus:
    try:
        return PartStatus(ok=True, detail=engine_version())
    except Exception as exc:  # noqa: BLE001
        return PartStatus(ok=False, detail=f"engine binary not usable: {type(exc).__name__}")


def _check_lanes(socket_path: str) -> PartStatus:
    if lanes_live(socket_path):
        return PartStatus(ok=True, detail="the lanes process answered")
    return PartStatus(ok=False, detail="the lanes process did not answer on its socket")


def check_every_part() -> Health:
    parts = {"database": _check_database(), "broker": _check_broker(), "engine": _check_engine()}
    lanes_socket = get_settings().api_lanes_socket
    if lanes_socket:
        parts["lanes"] = _check_lanes(lanes_socket)
    # A worker round trip needs the broker; skip the wait when it is known to be down.
    parts["worker"] = (
        _check_worker() if parts["broker"].ok else PartStatus(ok=False, detail="broker is down, so no worker answers")
    )
    down = sorted(name for name, part in parts.items() if not part.ok)
    return Health(status="degraded" if down else "ok", parts=parts, down=down)


class _Readiness:
    """One check at a time, its answer shared for `READY_TTL_S`."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._answer: tuple[float, Health] | None = None

    async def get(self) -> Health:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a lock serves one event loop (tests start several)
            self._lock, self._loop = asyncio.Lock(), loop
        async with self._lock:
            if self._answer is None or time.monotonic() - self._answer[0] > READY_TTL_S:
                self._answer = (time.monotonic(), await anyio.to_thread.run_sync(check_every_part))
            return self._answer[1]

    def forget(self) -> None:
        self._answer = None


readiness = _Readiness()


@router.get(
    "/api/health/live",
    response_model=Liveness,
    summary="Liveness: the API process answers (checks nothing else, never waits)",
)
async def live() -> Liveness:
    return Liveness(status="alive")


@router.get(
    "/api/health/ready",
    response_model=Health,
    responses={503: {"model": Health, "description": "At least one part is down."}},
    summary="Readiness: database, broker, worker and engine",
    description=f"Checked at most once every {READY_TTL_S:g} s, whoever asks. A worker running a job is "
    "`busy`, not down.",
)
async def ready(response: Response) -> Health:
    health = await readiness.get()
    if health.down:
        response.status_code = 503
    return health


@router.get(
    "/api/health",
    response_model=Health,
    responses={503: {"model": Health, "description": "At least one part is down."}},
    summary="Health of database, broker, worker and engine (the same answer as /api/health/ready)",
)
async def health(response: Response) -> Health:
    return await ready(response)
