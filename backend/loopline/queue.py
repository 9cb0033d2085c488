"""The Celery client the API uses to hand work to workers, by task name.

The worker package (`loopline_worker`) builds its app with the same `make_celery()` and
registers the tasks; the API never imports worker code.
"""

from __future__ import annotations

import base64
import json
import logging
from functools import lru_cache

import redis
from celery import Celery, chord, group
from sqlalchemy import event
from sqlalchemy.orm import Session

from loopline.domain.errors import DomainError
from loopline.settings import get_settings

log = logging.getLogger(__name__)

PING_TASK = "loopline.ping"
SIMULATE_TASK = "loopline.simulate"
IMPORT_PROJECT_TASK = "loopline.import_project"
SWEEP_POINT_TASK = "loopline.sweep_point"
SWEEP_DONE_TASK = "loopline.sweep_done"
SIM_BATCH_TASK = "loopline.simulate_batch"
"""One batch of a decomposed run's links (a chord's member)."""
SIM_COMBINE_TASK = "loopline.simulate_combine"
"""The chord's callback: combine a decomposed run's parts (the last batch tries it too)."""


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
        # A send that cannot reach the broker fails within seconds (the job row stays queued for the
        # reconciler) instead of retrying while the request holds its slot.
        broker_connection_timeout=2,
        task_publish_retry_policy={"max_retries": 2, "interval_start": 0, "interval_step": 0.5},
    )
    return app


class BrokerUnavailable(DomainError):
    """The broker cannot be reached: nothing is written, the client retries later."""

    status = 503
    retry_after_s = 10

    def __init__(self) -> None:
        super().__init__("broker", "the job queue is unavailable right now; nothing was saved: retry later")


@lru_cache
def _broker_client() -> redis.Redis:
    return redis.Redis.from_url(get_settings().broker_url, socket_connect_timeout=1, socket_timeout=1)


def require_broker() -> None:
    """Refuse a submission while the broker is down, before anything is written (one PING)."""
    try:
        _broker_client().ping()
    except redis.RedisError as error:
        log.warning("broker unreachable at submit: %s", error)
        raise BrokerUnavailable() from error


def waiting_messages(task_names: frozenset[str]) -> set[tuple[str, int]]:
    """(task name, job id) of every message of these tasks waiting in the broker's queue, read
    from the Redis transport's lists (one per priority step). Messages a worker has taken but not
    acknowledged are not counted: their job rows say running, or soon will."""
    app = get_celery()
    found: set[tuple[str, int]] = set()
    with app.connection_for_read() as connection:
        channel = connection.default_channel
        queue = app.conf.task_default_queue
        for priority in channel.priority_steps:
            for raw in channel.client.lrange(channel._q_for_pri(queue, priority), 0, -1):
                message = json.loads(raw)
                task = message.get("headers", {}).get("task")
                if task not in task_names:
                    continue
                body = message["body"]
                if message.get("properties", {}).get("body_encoding") == "base64":
                    body = base64.b64decode(body)
                args = json.loads(body)[0]
                if args and isinstance(args[0], int):
                    found.add((task, args[0]))
    return found


def live_workers(timeout_s: float = 1.0) -> int:
    """How many worker processes (Celery nodes) answer a ping on the broker's control channel
    within `timeout_s` (a node busy with a task still answers: its main process does). 0 while the
    broker is unreachable."""
    try:
        replies = get_celery().control.ping(timeout=timeout_s) or []
    except (redis.RedisError, OSError) as error:
        log.warning("could not count the workers: %s", error)
        return 0
    return len({name for reply in replies for name in reply})


@lru_cache
def get_celery() -> Celery:
    return make_celery()


def enqueue_after_commit(session: Session, task_name: str, *args: object) -> None:
    """Send a task once the request's transaction has committed (never for a rolled-back one),
    so the worker always finds the rows the task refers to. Refused (503) while the broker is
    down; a send that still fails after the commit leaves the row queued for the reconciler."""
    require_broker()
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
    require_broker()
    session.info.setdefault(_PENDING, []).append((_CHORD, (task_name, each_args, callback_name, callback_args)))


_PENDING = "loopline_pending_tasks"
_CHORD = "loopline.<chord>"


@event.listens_for(Session, "after_commit")
def _send_pending_tasks(session: Session) -> None:
    app = get_celery()
    for task_name, args in session.info.pop(_PENDING, []):
        try:
            if task_name == _CHORD:
                name, each, callback, callback_args = args
                header = group(app.signature(name, args=list(a)) for a in each)
                chord(header)(app.signature(callback, args=list(callback_args), immutable=True))
            else:
                app.send_task(task_name, args=list(args))
        except Exception:
            # The rows are committed and say queued: the request succeeded, and the reconciler
            # (worker/loopline_worker/recovery.py) sends their tasks once the broker is back.
            log.exception("could not send %s%s after the commit; left for the reconciler", task_name, args)


@event.listens_for(Session, "after_rollback")
def _drop_pending_tasks(session: Session) -> None:
    session.info.pop(_PENDING, None)
