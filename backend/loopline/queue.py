"""The Celery client the API uses to hand work to workers, by task name.

The worker package (`loopline_worker`) builds its app with the same `make_celery()` and
registers the tasks; the API never imports worker code.
"""

from __future__ import annotations

from functools import lru_cache

from celery import Celery, chord, group
from sqlalchemy import event
from sqlalchemy.orm import Session

from loopline.settings import get_settings

PING_TASK = "loopline.ping"
SIMULATE_TASK = "loopline.simulate"
IMPORT_PROJECT_TASK = "loopline.import_project"
SWEEP_POINT_TASK = "loopline.sweep_point"
SWEEP_DONE_TASK = "loopline.sweep_done"


def make_celery() -> Celery:
    settings = get_settings()
    app = Celery("loopline", broker=settings.broker_url, backend=settings.result_backend)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        result_expires=3600,
        broker_transport_options={"visibility_timeout": settings.broker_visibility_timeout_s},
    )
    return app


@lru_cache
def get_celery() -> Celery:
    return make_celery()


def enqueue_after_commit(session: Session, task_name: str, *args: object) -> None:
    """Send a task once the request's transaction has committed (never for a rolled-back one),
    so the worker always finds the rows the task refers to."""
    session.info.setdefault(_PENDING, []).append((task_name, args))


def enqueue_chord_after_commit(
    session: Session,
    task_name: str,
    each_args: list[tuple[object, ...]],
    callback_name: str,
    callback_args: tuple[object, ...],
) -> None:
    """One task per `each_args` as a Celery group, fanned out over every worker, with
    `callback_name` run once after all of them (a chord), sent once the transaction commits."""
    session.info.setdefault(_PENDING, []).append((_CHORD, (task_name, each_args, callback_name, callback_args)))


_PENDING = "loopline_pending_tasks"
_CHORD = "loopline.<chord>"


@event.listens_for(Session, "after_commit")
def _send_pending_tasks(session: Session) -> None:
    app = get_celery()
    for task_name, args in session.info.pop(_PENDING, []):
        if task_name == _CHORD:
            name, each, callback, callback_args = args
            header = group(app.signature(name, args=list(a)) for a in each)
            chord(header)(app.signature(callback, args=list(callback_args), immutable=True))
        else:
            app.send_task(task_name, args=list(args))


@event.listens_for(Session, "after_rollback")
def _drop_pending_tasks(session: Session) -> None:
    session.info.pop(_PENDING, None)
