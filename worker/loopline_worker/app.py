"""The Celery worker application: `celery -A loopline_worker.app worker`."""

from __future__ import annotations

from loopline.queue import PING_TASK, make_celery

celery_app = make_celery()


@celery_app.task(name=PING_TASK)
def ping() -> str:
    """Health round trip: proves a worker is consuming the queue."""
    return "pong"


# Registers the task modules with this app (they import `celery_app` from here).
from loopline_worker import decomposed, imports, liveness, sweeps, tasks  # noqa: E402, F401
